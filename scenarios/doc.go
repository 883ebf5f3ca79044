/*
Package scenarios reads, checks, rewrites and shares schedplay scenarios:
the JSON files (format version 1) that describe a machine, a scheduler
policy and a set of tasks for the simulator in package sim.

# Using it

A front end gets a scenario in one of three ways and then hands it to the
simulator:

	s, err := scenarios.Load("tbench-pairs")       // a preset, or a file path
	s, err := scenarios.Decode(data)               // JSON bytes (an editor, a test)
	s, err := scenarios.DecodeLink(location.hash)  // a share link
	err = s.Set("policy.select_idle_sibling", "cpu_buddies")
	cfg, err := s.Config()                         // *sim.Config
	sm, err := sim.New(cfg)

Every error names where the problem is, in the file's own words, one
"path: problem" per line:

	tasks[1].program[0].run: "8 ms" is not a duration
	machine: 320 CPUs (4×1×1×1×10×8); the limit is 256

Each line is an *Error (Path, Problem); Problems lists them. Load prefixes
each line with the file name, as compilers do. EncodeLink makes the
fragment of a share link, Canonical the one spelling of a scenario that
links are made from, Presets the menu of embedded examples.

# The format

A scenario is one JSON object. Durations are strings time.ParseDuration
accepts ("20us", "1.5ms", "2s"); negative ones are refused. "Default" below
is what Decode fills in when a field is absent. FORMAT.md in this directory
is the same reference for people writing files, with examples.

	version      int, required: 1.
	title        string, ≤ 200 characters, one line. Default "".
	description  string, ≤ 4000 characters; newlines allowed. Default "".
	seed         int 0..2^53-1: the simulator's PRNG seed. Default 1.
	             Same scenario and seed, same run, natively and in wasm.
	duration     duration, required, > 0 and ≤ 600s: simulated time to run.

	machine      the hardware; CPUs = the product of the six counts, ≤ 256.
	  nodes, sockets_per_node, llcs_per_socket, clusters_per_llc,
	  cores_per_cluster, threads_per_core
	             ints ≥ 1; default 1 each, except cores_per_cluster 2.
	             clusters_per_llc 1 means private L2s and no CLS level;
	             threads_per_core 1 means no SMT level.
	  hz         100 | 250 | 300 | 1000: the tick. Default 1000.
	  numbering  "linear" (default): a core's threads are adjacent CPU ids;
	             "x86": thread 0 of every core first, then thread 1 (on
	             4x10x2, cpu0 and cpu40 are siblings).
	  llc_size, l2_size
	             labels for the picture ("30MB", "1.25MiB"); not simulated.
	  costs      optional overrides of sim.DefaultCosts(); an absent field
	             keeps the default, "0s" is an explicit zero. Each cost ≤ 1s.
	    context_switch, wakeup_ipi, wakeup_ipi_send, wakeup_poll   durations
	    idle_states   list of ≤ 8 {name, after, exit_latency, package, polls, flushes},
	                  shallowest first, after strictly increasing; [] = no
	                  C-states
	    cache_cold    {smt, cluster, llc, package, numa}: refill penalty of a
	                  migration across that distance
	    comm          {same, smt, cluster, llc, package, numa}: cost of a wakee
	                  reading its waker's data from that distance
	    search_cpu, search_group, search_domain, balance_cpu
	                  the scheduler's own search costs (per CPU, group,
	                  domain examined; per CPU the balancer reads)
	    jitter_pct    int 0..50: ± spread of every run step
	    smt_gain      int 0..8192: what a core whose threads all run delivers,
	                  1024 = one thread alone; each of k busy threads runs at
	                  smt_gain/(1024·k) of its speed, at most 1 (0: off)
	    remote_mem_pct int 0..1000: extra CPU time of a run step begun away
	                  from the node holding the task's memory (0: off)

	policy       the kernel behaviour
	  base                "v3.8" | "v6.17" (default): fills every default.
	  load_metric         "load_weight" | "runnable_load_avg" |
	                      "runnable_plus_blocked" | "load_avg"; absent: the base's.
	  select_idle_sibling "v3.6" | "v3.8" | "cpu_buddies" | "bottom_up" | "sis_util" |
	                      "off"; absent: the base's.
	  new_task_load       "zero" | "full"; absent: the base's.
	  sd_flags            {LEVEL: {FLAG: bool}}: set or clear single sched
	                      domain flags. LEVEL is SMT, CLS, MC, PKG (DIE is its
	                      old name) or NUMA; FLAG is the kernel's name
	                      (SD_BALANCE_WAKE, SD_WAKE_AFFINE, ...; 3.x names such
	                      as SD_SHARE_CPUPOWER accepted). One switch may not be
	                      spelt twice (DIE and PKG, old and new flag name).
	  tunables            {LEVEL: {imbalance_pct 100..1000, busy_factor
	                      1..1024, min_interval, max_interval (whole ms,
	                      1ms..10s), cache_nice_tries 0..100}}
	  migration_cost      duration >= 0 (sysctl_sched_migration_cost; 0: never cache-hot).
	  base_slice          duration 100us..1s (EEVDF base slice).
	  features            {NAME: bool}: WAKE_AFFINE, WAKE_WIDE,
	                      NEWIDLE_BALANCE, NOHZ_IDLE_BALANCE, ELIGIBLE_FIRST,
	                      SCHED_BALANCE_MAP, PLACE_LAG, RUN_TO_PARITY,
	                      WAKEUP_PREEMPTION, LB_BIAS, TTWU_QUEUE, SIS_UTIL.

	tasks        1..64 task groups, ≤ 4096 task instances in all
	  name       required, unique, 1-32 of A-Z a-z 0-9 _ . -
	  count      1..4096 instances name/0 ... name/count-1. Default 1.
	  nice       -20..19. Default 0.
	  cpus       affinity, a cpulist ("0-3,8") of existing CPUs. Default all.
	  start      duration ≥ 0: fork delay. Default 0.
	  loop       iterations, 0..10^9; 0 or absent = forever.
	  program    1..64 steps, run in order, repeated; one iteration is one op.
	    {"run": D}      burn D (> 0) of CPU time
	    {"sleep": D}    block for D (> 0)
	    {"timer": P}    block until the next multiple of P (≥ 10us) since fork
	    {"wake": NAME, "sync": bool, "fanout": F}
	                    wake instances of task group NAME; sync is WF_SYNC;
	                    F is "index" (default: the same index, or the only
	                    one, or index mod count), "all", "one" (round-robin)
	                    or "waker" (the task whose wake ended this task's last
	                    wait: a reply; needs a wait step in the program)
	    {"wait": true}  block until woken; wakes are counted, not lost
	  A program needs at least one run, sleep or timer step, so that every
	  iteration takes simulated time (otherwise a task that wakes itself
	  would loop forever at one instant).

# Set paths

Set takes the same names, dotted: "seed", "machine.cores_per_cluster",
"machine.costs.cache_cold.llc", "machine.costs.idle_states[1].after",
"policy.sd_flags.MC.SD_BALANCE_WAKE", "policy.tunables.MC.imbalance_pct",
"policy.features.WAKE_AFFINE", "tasks.client.count" (a task by name) or
"tasks[0].count" (by index), "tasks.client.program[0].run". Lists take JSON
("machine.costs.idle_states", "tasks.client.program", "...program[2]"). An
empty value removes an override or restores a default. Setting a step's kind
replaces its old kind; program[len] appends a step. The result is validated;
on error nothing changes.

# Share links

A link is page URL + "#s=" + base64url (no padding) of the raw DEFLATE
(RFC 1951) of Canonical(). Canonical JSON is compact, with keys in a fixed
order (map keys sorted), fields with a fixed default always written, and
fields that mean "the simulator's or the base's own" omitted unless given;
strings are kept as written ("20us" is not rewritten as "20µs"). So equal
scenarios make equal links, and Decode(Canonical(s)) equals s.

# Limits

MaxScenarioBytes (256 KiB) of JSON; MaxLinkBytes (64 KiB) of link; MaxCPUs
(256, the simulator's); MaxTaskGroups (64); MaxInstances (4096); MaxSteps
(64) per program and per repeat body, MaxProgramSteps (256) in all,
MaxRepeatDepth (4), MaxForkCount (4096) per fork step, and at run time
MaxLiveTasks (4096) and MaxForks (1,000,000); MaxIdleStates (8); durations ≤ MaxDuration (600s), costs
≤ MaxCost (1s); MaxTitle 200 and MaxDescription 4000 characters; MaxSeed
2^53-1; a duration string ≤ 32 characters, a cpus list ≤ 1024; and the
canonical JSON itself ≤ MaxScenarioBytes (it can outgrow its input: it
writes defaults out and escapes <, > and & as \u003c).

They bound what a share link can make a browser tab do, so each is checked
before anything proportional to it exists: a file's size before it
is read whole, a link's length before it is decoded, its inflated size
while it inflates (the reader stops at the cap, so a small link that would
inflate to gigabytes costs 256 KiB), array lengths while arrays are
streamed, and the CPU and instance counts from the numbers alone, each
dimension bounded before the product so that it cannot overflow.

# Implementation notes

Decoding is a hand-written walk over json.RawMessage values rather than
json.Unmarshal with DisallowUnknownFields: Unmarshal names neither the path
of an unknown field nor the array index of a bad value, silently keeps the
last of duplicate keys, accepts 1.0 for an int, and cannot stop an array at
its limit before growing a slice for it. encoding/json checks the whole
input once (single); the walk then slices each object's members and each
array's elements out of those checked bytes (rawjson.go: a json.Decoder per
object and array made Decode three times slower), knows the schema at every
level, reports a
problem and keeps going (up to 25 problems, then a count), and fills
defaults only for fields that are absent, so an explicit 0 stays an error.

Validate and Config are one function (resolve) that checks and builds a
sim.Config at the same time; Validate drops the result. They cannot drift
apart, and every check lives next to the conversion it protects.

Absent versus given matters in three places and is kept in the types:
pointer ints for costs.jitter_pct and the tunables (cache_nice_tries 0 is a
real value: sim.Tunables spells it -1), nil versus empty idle_states (keep
the default C-states versus have none), and empty strings for optional
durations and enums ("0s" is an explicit zero). Maps are written with
sorted keys by encoding/json, and Validate walks them sorted, so error
order is deterministic.

Not in this package: the simulator's semantics of each switch (sim/doc.go)
and importing rt-app or lscpu files (a later issue).
*/
package scenarios
