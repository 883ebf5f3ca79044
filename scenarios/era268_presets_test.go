package scenarios

import (
	"strconv"
	"testing"
)

// The seed-004 presets on base v2.6.8, O(1) against staircase (issue 17).
// Attribution: the thread compares 2.6.8-rc2 with 2.6.8-rc2-mm2, and mm2
// carries staircase and other scheduler changes; o1 against staircase on
// one 2.6.8 base is the closest A/B the model has, not the same one.

// TestSDET268ContextSwitches: Rick Lindsley's sar data, "cswitches were
// 10%-20% higher on the no staircase runs". Measured here (2 s): o1
// against staircase 2753/2691 at 1 user, 11092/10900 at 4, 22232/21609
// at 8, 31116/21750 at 16, 35614/21861 at 32 — the direction at every
// count, the size only at 1-8 users (2-3 % there, 40-70 % above).
// Throughput goes the same way but by at most 0.8 % (Martin's SDET:
// +11.5 … +18.5 % at 1-16 users): the model does not show that gain.
func TestSDET268ContextSwitches(t *testing.T) {
	for _, users := range []int{1, 4, 8, 16, 32} {
		n := strconv.Itoa(users)
		o1 := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", n, "policy.cpu_scheduler", "o1")
		st := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", n, "policy.cpu_scheduler", "staircase")
		if o1.CtxSwitches <= st.CtxSwitches || o1.OpsPerS > st.OpsPerS {
			t.Errorf("%d users: o1 %d switches %.1f ops/s, staircase %d switches %.1f ops/s; want fewer switches and no less throughput with staircase",
				users, o1.CtxSwitches, o1.OpsPerS, st.CtxSwitches, st.OpsPerS)
		}
	}
}

// TestSDET268ExecThreshold: sched_balance_exec()'s "if (this_rq()->
// nr_running <= 2)" becoming "<= 1" (Andrew Theurer). With 1, a command
// exec'ing while its shell is still queued on its CPU is pushed to an
// idler CPU; with 2 it stays until a third task is there. Measured (o1,
// 2 s): 254 against 213 ops/s at 1 user, 1010.5 against 815.5 at 4, 2014.5
// against 1539 at 8; at 16 users 2269 against 2374.5 (the loaded machine
// gains from fewer pushes); at 32 equal within 0.2 %.
func TestSDET268ExecThreshold(t *testing.T) {
	for _, users := range []string{"1", "4", "8"} {
		one := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", users, "policy.exec_balance_threshold", "1")
		two := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", users, "policy.exec_balance_threshold", "2")
		if one.OpsPerS <= two.OpsPerS*1.1 {
			t.Errorf("%s users: threshold 1 %.1f ops/s, threshold 2 %.1f; want threshold 1 ahead by more than 10 %%", users, one.OpsPerS, two.OpsPerS)
		}
	}
}

// TestKernbench268: make -j32 on the NUMA-Q (the preset as it is): make's
// exit, the elapsed time, is earlier with staircase (1884.9 ms against
// 1978.4 ms with o1, -4.7 %; Martin: 44.09 s against 45.05 s, -2.1 %).
func TestKernbench268(t *testing.T) {
	exit := func(sched string) float64 {
		m := runPreset(t, "kernbench-numaq", "policy.base", "v2.6.8", "policy.cpu_scheduler", sched)
		for _, tk := range m.Tasks {
			if tk.Name == "make/0" {
				return tk.ExitMS
			}
		}
		t.Fatal("no make/0")
		return 0
	}
	o1, st := exit("o1"), exit("staircase")
	if o1 == 0 || st == 0 || st >= o1 {
		t.Errorf("make -j32 elapsed: o1 %.1f ms, staircase %.1f ms; want staircase shorter", o1, st)
	}
}
