// The policy switches the editor offers, grouped by kernel concept, each
// with one line saying what it does. Names are the scenario format's
// (scenarios/FORMAT.md), which are the kernel's.

export const BASES = [
  ["v3.8", "v3.8: CFS, load.weight, 3.x balancer"],
  ["v6.17", "v6.17: EEVDF, PELT load_avg, SIS_UTIL"],
];

export const LOAD_METRICS = [
  ["load_weight", "load_weight: queued tasks' weights"],
  ["runnable_load_avg", "runnable_load_avg: PELT, runnable only"],
  ["runnable_plus_blocked", "runnable_plus_blocked: + blocked load"],
  ["load_avg", "load_avg: modern PELT, blocked included"],
];

export const SIS_VARIANTS = [
  ["v3.6", "v3.6: first fully idle group in the LLC"],
  ["v3.8", "v3.8: as v3.6, prev CPU first if idle"],
  ["cpu_buddies", "cpu_buddies: one partner per CPU (3.5)"],
  ["bottom_up", "bottom_up: any idle CPU near the target"],
  ["sis_util", "sis_util: idle core, scan bounded by load"],
  ["off", "off: the CPU wake_affine() chose"],
];

export const NEW_TASK_LOADS = [
  ["zero", "zero: no load history (3.8)"],
  ["full", "full: starts at its weight (3.9+)"],
];

export const FLAGS = [
  ["SD_BALANCE_WAKE", "wake-ups take the slow path: find_idlest_group() over this domain"],
  ["SD_WAKE_AFFINE", "wake_affine() may pull the wakee to the waker's CPU across this domain"],
  ["SD_BALANCE_NEWIDLE", "a CPU about to go idle pulls work from this domain"],
  ["SD_BALANCE_FORK", "a new task is placed on the idlest group of this domain"],
  ["SD_BALANCE_EXEC", "exec() re-places the task (the model has no exec: no effect here)"],
  ["SD_PREFER_SIBLING", "the balancer spreads tasks to sibling groups before stacking them"],
];

export const TUNABLES = [
  ["imbalance_pct", "how much busier (in %) the busiest group must be before it is balanced", "100…1000"],
  ["busy_factor", "the balance interval is this many times longer on a busy CPU", "1…1024"],
  ["min_interval", "shortest periodic balance interval (whole ms)", "1ms…10s"],
  ["max_interval", "longest periodic balance interval (whole ms)", "1ms…10s"],
  ["cache_nice_tries", "failed balance passes before a cache-hot task may move anyway", "0…100"],
];

// Features by concept: [name, explanation].
export const FEATURE_GROUPS = [
  ["Wake-up placement", [
    ["WAKE_AFFINE", "wake_affine(): consider the waker's CPU for the woken task"],
    ["WAKE_WIDE", "wake_wide(): no affine wake-up for a 1:N waker flipping between wakees"],
    ["SIS_UTIL", "bound select_idle_sibling()'s scan by the LLC's utilisation"],
    ["SCHED_BALANCE_MAP", "look the wake-up domain up directly instead of walking every level (seed 003)"],
    ["TTWU_QUEUE", "a remote wake-up goes through the target's wake list and an IPI"],
  ]],
  ["Load balancing", [
    ["NEWIDLE_BALANCE", "a CPU about to go idle balances first (newidle balancing)"],
    ["NOHZ_IDLE_BALANCE", "an idle CPU balances for CPUs sleeping without a tick (nohz)"],
    ["ELIGIBLE_FIRST", "migrate EEVDF-eligible tasks before ineligible ones (commit 873199d27bb2)"],
    ["LB_BIAS", "3.8: source_load()/target_load() biased by the cpu_load[] history"],
  ]],
  ["Run queue", [
    ["WAKEUP_PREEMPTION", "a woken task may preempt the running one"],
    ["PLACE_LAG", "EEVDF: a task keeps its lag across sleeps and migrations"],
    ["RUN_TO_PARITY", "EEVDF: the running task keeps the CPU until it reaches parity"],
  ]],
];
