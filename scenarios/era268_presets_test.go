package scenarios

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

// The seed-004 presets on base v2.6.8, O(1) against staircase (issue 17).
// Attribution: the thread compares 2.6.8-rc2 with 2.6.8-rc2-mm2, and mm2
// carries staircase and other scheduler changes; o1 against staircase on
// one 2.6.8 base is the closest A/B the model has, not the same one.

// TestSDET268ContextSwitches: Rick Lindsley's sar data, "cswitches were
// 10%-20% higher on the no staircase runs", and Martin Bligh's SDET gains
// at 1-16 users. The O(1) fork lets the child run first (do_fork()'s
// set_need_resched()), so the shell is still runnable when the command
// execs and sched_balance_exec() pushes every command away; staircase
// runs the child last, the shell has forked both commands and is waiting
// when the second one execs, and that one stays (docs/era-2.6.8.md); the
// O(1) sched_exit() also passes the CPU-bound commands' sleep_avg on to
// the shell. Measured here (2 s, seed 1, with the NUMA-Q's remote memory,
// remote_mem_pct 45), ops/s o1 against staircase: 253/254.5 at 1 user,
// 944.5/1002.5 at 4, 1649.5/1980.5 at 8, 2111/2243.5 at 16, 2312/2323.5 at
// 32; context switches 4498/2691, 16541/10829, 27476/21289, 30392/21680,
// 32983/22157 (TestEra268DocTable checks docs/era-2.6.8.md's table of
// them). Staircase is ahead at 1-32 users
// and by 3 % or more at 4-16 users; the model's gain at 1-2 users is under
// 2 % (Martin: 11.5 and 15.1 %), and its context-switch surplus (30-67 %) is
// larger than Rick's 10-20 %, the preset being nothing but fork, exec and
// exit where real SDET also switches on pipes and I/O that both share.
func TestSDET268ContextSwitches(t *testing.T) {
	for _, users := range []int{1, 4, 8, 16, 32} {
		n := strconv.Itoa(users)
		o1 := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", n, "policy.cpu_scheduler", "o1")
		st := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", n, "policy.cpu_scheduler", "staircase")
		if o1.CtxSwitches <= st.CtxSwitches || o1.OpsPerS >= st.OpsPerS {
			t.Errorf("%d users: o1 %d switches %.1f ops/s, staircase %d switches %.1f ops/s; want fewer switches and more throughput with staircase",
				users, o1.CtxSwitches, o1.OpsPerS, st.CtxSwitches, st.OpsPerS)
		}
		if users >= 4 && users <= 16 && st.OpsPerS < o1.OpsPerS*1.03 {
			t.Errorf("%d users: staircase %.1f ops/s against o1 %.1f; want 3 %% or more ahead", users, st.OpsPerS, o1.OpsPerS)
		}
	}
}

// TestSDET268ExecThreshold: sched_balance_exec()'s "if (this_rq()->
// nr_running <= 2)" becoming "<= 1", which Andrew Theurer suspected in
// seed 004 and placed "earlier than Con's patch". It was earlier than
// 2.6.7: the 2 is the 2.6.0-2.6.6 NUMA scheduler's sched_best_cpu(), and
// the sched-domains code merged in 2.6.7-rc1 ("the merging of the NUMA
// scheduler", Linus's announcement) has "<= 1" (docs/era-2.6.8.md, [S1]),
// so the seed's 2.6.7 and 2.6.8-rc2 columns compare two kernels with the
// same test and say nothing about it. What this checks is the model's own
// reason why the threshold decides little on SDET: with the O(1)
// child-runs-first fork the shell is runnable when its command execs, so
// nr_running is 2 or 3 either way. Measured (o1, 2 s): threshold 1
// against 2, 253 against 251.5 ops/s at 1 user, 489/490 at 2,
// 944.5/952.5 at 4, 1649.5/1719.5 at 8: within 6 % each, against
// staircase's 20 % at 8. It holds while a command's memory is where its
// exec lands (numa_cost.go); charging a pushed command for its shell's
// node instead leaves threshold 1 7-11 % behind 2 at 1-8 users with
// remote_mem_pct 45 (211.5 against 232.5 ops/s at 1 user, 1259 against
// 1414.5 at 8), and this test fails: a model change that does that must
// say why the threshold now matters.
func TestSDET268ExecThreshold(t *testing.T) {
	for _, users := range []string{"1", "2", "4", "8"} {
		one := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", users, "policy.exec_balance_threshold", "1")
		two := runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "tasks.user.count", users, "policy.exec_balance_threshold", "2")
		if r := one.OpsPerS / two.OpsPerS; r < 0.94 || r > 1.06 {
			t.Errorf("%s users: threshold 1 %.1f ops/s, threshold 2 %.1f; want within 6 %% of each other", users, one.OpsPerS, two.OpsPerS)
		}
	}
}

// TestKernbench268: make's exit, the elapsed time, with o1 and with
// staircase at -j32, -j256 and unlimited (seed 1). Martin's table: 45.05 s
// against 44.09 (-2.1 %), 44.83 against 43.43 (-3.1 %), 44.03 against
// 43.75 (-0.6 %), with mm2's gain in system time (-11 % at -j32), which the
// model does not have. With a job waiting behind every running one the
// elapsed time hardly depends on placement: within 5 % at each -j, as the
// seed's.
func TestKernbench268(t *testing.T) {
	exit := func(sched, tokens string) float64 {
		m := runPreset(t, "kernbench-numaq", "policy.base", "v2.6.8", "policy.cpu_scheduler", sched, "tasks.make.program[0].repeat", tokens)
		for _, tk := range m.Tasks {
			if tk.Name == "make/0" && tk.ExitMS > 0 {
				return tk.ExitMS
			}
		}
		t.Fatalf("%s -j%s: make did not exit", sched, tokens)
		return 0
	}
	for _, tokens := range []string{"32", "256", "1280"} {
		o1, st := exit("o1", tokens), exit("staircase", tokens)
		if r := st / o1; r < 0.95 || r > 1.05 {
			t.Errorf("make -j%s elapsed: o1 %.1f ms, staircase %.1f ms (x%.3f); want within 5%%", tokens, o1, st, r)
		}
	}
}

// TestEra268DocTable: docs/era-2.6.8.md's table of the model on
// sdet-numaq, o1 against staircase at 1-128 users (2 s, seed 1), is what
// the runs give now, row by row (the seed's column is copied from the
// thread and is kept as the doc has it).
func TestEra268DocTable(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("16 runs of the 16-CPU NUMA-Q: native only")
	}
	b, err := os.ReadFile("../docs/era-2.6.8.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, " | ")
		if len(f) == 8 && strings.HasPrefix(line, "| ") {
			rows[strings.TrimPrefix(f[0], "| ")] = line
		}
	}
	for _, users := range []int{1, 2, 4, 8, 16, 32, 64, 128} {
		u := strconv.Itoa(users)
		line, ok := rows[u]
		if !ok {
			t.Errorf("docs/era-2.6.8.md has no row for %d users", users)
			continue
		}
		seed := strings.Split(line, " | ")[4]
		m := map[string]sim.Metrics{}
		for _, sched := range []string{"o1", "staircase"} {
			m[sched] = runPreset(t, "sdet-numaq", "policy.base", "v2.6.8", "policy.cpu_scheduler", sched, "tasks.user.count", u)
		}
		o, s := m["o1"], m["staircase"]
		want := fmt.Sprintf("| %d | %.1f | %.1f | %+.1f %% | %s | %d | %d | %+.0f %% |", users, o.OpsPerS, s.OpsPerS,
			100*(s.OpsPerS/o.OpsPerS-1), seed, o.CtxSwitches, s.CtxSwitches, 100*(float64(o.CtxSwitches)/float64(s.CtxSwitches)-1))
		if line != want {
			t.Errorf("docs/era-2.6.8.md, %d users:\n has %s\nruns %s", users, line, want)
		}
	}
}
