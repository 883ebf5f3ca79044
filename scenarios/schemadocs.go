package scenarios

import (
	"strings"

	"schedplay/sim"
)

// Words for people: what each enum value, flag and feature means, one line
// each, for the editor (Schema) and the docs. The names are the schema's
// (and sim's); only the explanations live here.

var enumDocs = map[string]map[string]string{
	"machine.numbering": {
		"linear": "a core's threads are adjacent (cpu0, cpu1)",
		"x86":    "thread 0 of every core first, then thread 1",
	},
	"policy.base": {
		"v2.6.8": "O(1) or staircase, nr_running load, the first sched domains",
		"v3.8":   "CFS, load.weight, 3.x balancer",
		"v6.17":  "EEVDF, PELT load_avg, SIS_UTIL",
	},
	"policy.load_metric": {
		"load_weight":           "queued tasks' weights",
		"runnable_load_avg":     "PELT, runnable only",
		"runnable_plus_blocked": "+ blocked load",
		"load_avg":              "modern PELT, blocked included",
	},
	"policy.select_idle_sibling": {
		"v3.6":        "first fully idle group in the LLC",
		"v3.8":        "as v3.6, prev CPU first if idle",
		"cpu_buddies": "one partner per CPU (3.6-rc, reverted)",
		"bottom_up":   "any idle CPU near the target",
		"sis_util":    "idle core, scan bounded by load",
		"off":         "the CPU wake_affine() chose",
	},
	"policy.cpu_scheduler": {
		"o1":        "active/expired arrays, sleep_avg interactivity",
		"staircase": "Con Kolivas' 2.6.8-rc2-mm1 patch: no expired array",
	},
	"policy.staircase_mode": {
		"interactive":    "bursts on the top stair (the default)",
		"noninteractive": "a rigid descent, no bursts",
		"compute":        "ten times longer intervals, delayed preemption",
	},
	"policy.new_task_load": {
		"zero": "no load history (3.8)",
		"full": "starts at its weight (v3.11+, a75cdaa915e4)",
	},
	"tasks[i].program[j].fanout": {
		"index": "same index",
		"all":   "all of them",
		"one":   "one, round-robin",
		"waker": "the waker (reply)",
	},
}

// KeyInfo is one name a placeholder takes, for the editor.
type KeyInfo struct {
	Name  string `json:"name"`
	Doc   string `json:"doc,omitempty"`
	Group string `json:"group,omitempty"` // features: the concept the editor files it under
	Edit  bool   `json:"edit,omitempty"`  // the editor offers it (flags: the behavioural ones)
	// Bases lists the policy.base values it can be set on (empty: all;
	// keyBases in eras.go).
	Bases []string `json:"bases,omitempty"`
}

// flagDocs are the SD_* flags the editor offers, in its order; the others
// describe the topology and stay as the machine makes them.
var flagDocs = [][2]string{
	{"SD_BALANCE_WAKE", "non-affine wake-ups take the slow path (find_idlest_group()); affine ones never look at it unless BALANCE_WAKE_MERGE"},
	{"SD_WAKE_AFFINE", "wake_affine() may pull the wakee to the waker's CPU across this domain"},
	{"SD_BALANCE_NEWIDLE", "a CPU about to go idle pulls work from this domain"},
	{"SD_BALANCE_FORK", "a new task is placed on the idlest group of this domain"},
	{"SD_BALANCE_EXEC", "exec() re-places the task (sched_exec(); 2.6.8: sched_balance_exec() in the highest such domain)"},
	{"SD_WAKE_BALANCE", "2.6.8: try_to_wake_up() pulls the wakee to the waking CPU across this domain when that one is less loaded"},
	{"SD_WAKE_IDLE", "2.6.8: wake_idle() puts the wakee on an idle CPU of this domain (the SMT level) when its own is busy"},
	{"SD_PREFER_SIBLING", "the balancer spreads tasks to sibling groups before stacking them"},
}

// featureDocs: concept, name, explanation, in the editor's order.
var featureDocs = [][3]string{
	{"Wake-up placement", "WAKE_AFFINE", "wake_affine(): consider the waker's CPU for the woken task"},
	{"Wake-up placement", "WAKE_WIDE", "wake_wide(): no affine wake-up for a 1:N waker flipping between wakees"},
	{"Wake-up placement", "SIS_UTIL", "bound select_idle_sibling()'s scan by the LLC's utilisation"},
	{"Wake-up placement", "BALANCE_WAKE_MERGE", "Preeti's patch (seed 000): affine wake-ups use find_idlest_group() where SD_BALANCE_WAKE is set in the LLC (v3.8)"},
	{"Wake-up placement", "SCHED_BALANCE_MAP", "seed 003's patch: an idle CPU near prev first, wake_affine() last, else stay on prev; domains looked up, not walked"},
	{"Wake-up placement", "TTWU_QUEUE", "a remote wake-up goes through the target's wake list and an IPI"},
	{"Load balancing", "NEWIDLE_BALANCE", "a CPU about to go idle balances first (newidle balancing)"},
	{"Load balancing", "NOHZ_IDLE_BALANCE", "an idle CPU balances for CPUs sleeping without a tick (nohz)"},
	{"Load balancing", "NEWIDLE_BUMP", "v6.17: a newidle pass that pulls nothing raises the domain's cost by half, so CPUs with short idle periods stop newidle balancing (155213a2aed4; reverted for 6.19)"},
	{"Load balancing", "NI_RANDOM", "newidle balancing only as often as it succeeds, by a die per pass (33cf66d88306, 6.19 and 6.18.6+; off in v6.17)"},
	{"Load balancing", "NEWIDLE_PULL_ONE", "a newly idle balance stops after the first task it pulls, as kernels built with CONFIG_PREEMPT (3.8) or CONFIG_PREEMPTION (v6.17: x86's default configuration) do; off: a 3.8 PREEMPT_NONE build, which pulls until the imbalance is gone"},
	{"Load balancing", "NOHZ_AFTER_TICK", "an idle CPU keeps its tick, and stays out of nohz, until the tick has woken it once (f4c31b07b136, 2026 stables; off in v6.17)"},
	{"Load balancing", "ELIGIBLE_FIRST", "migrate EEVDF-eligible tasks before ineligible ones (commit 873199d27bb2)"},
	{"Load balancing", "LB_BIAS", "3.8: source_load()/target_load() biased by the cpu_load[] history"},
	{"Run queue", "WAKEUP_PREEMPTION", "a woken task may preempt the running one"},
	{"Run queue", "LAST_BUDDY", "3.8 CFS: a task preempted by a wake-up on a runqueue of 8 or more tasks runs next if that is fair enough"},
	{"Run queue", "PLACE_LAG", "EEVDF: a task keeps its lag across sleeps and migrations"},
	{"Run queue", "WAKEUP_DEQUEUE_DELAYED", "a wake-up's preemption check dequeues a sched_delayed task its pick finds and picks again (ac8e69e69363: 7.1 and the 6.18.33+ stables; off in v6.17)"},
	{"Run queue", "DELAY_DEQUEUE", "EEVDF: a task that sleeps while not eligible stays queued, with its load, until picked or woken (v6.12+)"},
	{"Run queue", "RUN_TO_PARITY", "EEVDF: the running task keeps the CPU until it reaches parity"},
}

// EditableFlags are the flags the editor offers, in its order.
func EditableFlags() []string {
	out := make([]string, len(flagDocs))
	for i, f := range flagDocs {
		out[i] = f[0]
	}
	return out
}

// keyInfos lists every name of each placeholder with its words: flags in
// the editor's order first, then the others; features by concept.
func keyInfos() map[string][]KeyInfo {
	out := map[string][]KeyInfo{}
	for _, l := range levelNames() {
		out["<level>"] = append(out["<level>"], KeyInfo{Name: l, Edit: l != "DIE"})
	}
	seen := map[string]bool{}
	for _, f := range flagDocs {
		out["<flag>"] = append(out["<flag>"], KeyInfo{Name: f[0], Doc: f[1], Edit: true})
		seen[f[0]] = true
	}
	for _, n := range sim.SDFlagNames() {
		if !seen[n] {
			out["<flag>"] = append(out["<flag>"], KeyInfo{Name: n})
		}
	}
	seen = map[string]bool{}
	for _, f := range featureDocs {
		out["<feature>"] = append(out["<feature>"], KeyInfo{Name: f[1], Doc: f[2], Group: f[0], Edit: true})
		seen[f[1]] = true
	}
	for _, n := range featureNames() {
		if !seen[n] {
			out["<feature>"] = append(out["<feature>"], KeyInfo{Name: n, Edit: true})
		}
	}
	for ph, list := range out {
		for i := range list {
			list[i].Bases = keyBases(ph, list[i].Name)
		}
	}
	return out
}

// groupOf is the editor section of a row.
func groupOf(path string) string {
	switch {
	case strings.HasPrefix(path, "view") || path == "summary":
		return "page-view"
	case strings.HasPrefix(path, "machine.costs.idle_states"):
		return "c-states"
	case strings.HasPrefix(path, "machine.costs.cache_cold."):
		return "refill-by-distance"
	case strings.HasPrefix(path, "machine.costs.comm."):
		return "waker-data-by-distance"
	case strings.HasPrefix(path, "machine.costs."):
		return "cost-model"
	case strings.HasPrefix(path, "machine."):
		if r := fieldRow(path); r.Kind == KindInt && r.Min == 1 && r.Max == MaxCPUs {
			return "topology"
		}
		return "hardware"
	case strings.HasPrefix(path, "policy.sd_flags"):
		return "domain-flags"
	case strings.HasPrefix(path, "policy.tunables"):
		return "balancer-tunables"
	case strings.HasPrefix(path, "policy.features"):
		return "feature-switches"
	case strings.HasPrefix(path, "policy"):
		return "kernel-policy"
	case strings.HasPrefix(path, "tasks[i].program[j]"):
		return "program-step"
	case strings.HasPrefix(path, "tasks"):
		return "task-group"
	}
	return "about"
}
