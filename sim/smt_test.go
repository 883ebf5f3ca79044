package sim

import "testing"

// smtRun runs CPU-bound tasks pinned one per CPU of cpus (run steps of the
// given lengths, then exit) on one package of two cores of two threads
// (cpu0 and cpu1 are core 0's threads, cpu2 and cpu3 core 1's), with no
// cost but SMT sharing, and returns when each task exited and its
// sum_exec_runtime.
func smtRun(t *testing.T, gain int64, cpus []int, runs []int64) (exit, sumExec []int64) {
	t.Helper()
	m := machine(1, 1, 1, 2, 2, NumberLinear)
	m.Costs = Costs{SMTGain: gain}
	var tasks []TaskGroup
	for i, c := range cpus {
		tasks = append(tasks, TaskGroup{Name: string(rune('a' + i)), Count: 1, CPUs: MaskOf(c),
			Program: []Step{{Op: OpRun, Dur: runs[i]}, {Op: OpExit}}})
	}
	cfg := &Config{Seed: 1, Duration: 100e6, Machine: m, Policy: Policy{Base: BaseV617}, Tasks: tasks}
	s := runChecked(t, cfg)
	exit = make([]int64, len(cpus))
	sumExec = make([]int64, len(cpus))
	for i := range cpus {
		p := s.tasks[i]
		if p.state != TaskExited {
			t.Fatalf("task %d did not exit", i)
		}
		exit[i], sumExec[i] = p.exitTime, p.sumExec
	}
	return exit, sumExec
}

// TestSMTSharing reads like the kernel-facing reasoning: two CPU-bound tasks
// on the two threads of one core each progress at SMTGain/2048 of their solo
// rate, so they finish later than on two cores by 2048/SMTGain; a task alone
// on its core is unaffected; when a sibling goes idle mid-step, the step
// speeds back up; and the kernel sees the slowdown only as longer run time
// (sum_exec_runtime is the wall time the task held the CPU).
func TestSMTSharing(t *testing.T) {
	const gain = 1178
	const run = 10_000_000 // 10 ms of CPU work
	near := func(what string, got, want int64) {
		t.Helper()
		if d := got - want; d < -2000 || d > 2000 { // within 2 us (a tick's rounding at most)
			t.Errorf("%s: %d ns, want %d", what, got, want)
		}
	}

	// Two cores: nobody shares; as without the model.
	exit, _ := smtRun(t, gain, []int{0, 2}, []int64{run, run})
	near("two cores, task a", exit[0], run)
	near("two cores, task b", exit[1], run)
	off, _ := smtRun(t, 0, []int{0, 1}, []int64{run, run})
	near("one core, model off", off[0], run)

	// One core, both threads busy the whole time: 2048/1178 longer.
	shared := int64(run) * 2048 / gain
	exit, sum := smtRun(t, gain, []int{0, 1}, []int64{run, run})
	near("one core, task a", exit[0], shared)
	near("one core, task b", exit[1], shared)
	near("one core, task a's sum_exec_runtime", sum[0], shared)

	// One task alone on its core.
	exit, sum = smtRun(t, gain, []int{1}, []int64{run})
	near("alone", exit[0], run)
	near("alone, sum_exec_runtime", sum[0], run)

	// The sibling's 2 ms step ends at 2 ms x 2048/1178; by then a has done
	// 2 ms of its 10, and the other 8 run at full speed.
	short := int64(2_000_000)
	exit, sum = smtRun(t, gain, []int{0, 1}, []int64{run, short})
	bEnd := short * 2048 / gain
	near("sibling's short step", exit[1], bEnd)
	near("after the sibling idles", exit[0], bEnd+run-short)
	near("a's sum_exec_runtime", sum[0], bEnd+run-short)
}

// TestSMTCostBreakdown: the time lost to a busy sibling is reported.
func TestSMTCostBreakdown(t *testing.T) {
	m := machine(1, 1, 1, 1, 2, NumberLinear)
	m.Costs = Costs{SMTGain: 1178}
	hog := []Step{{Op: OpRun, Dur: 10_000_000}, {Op: OpExit}}
	cfg := &Config{Seed: 1, Duration: 50e6, Machine: m, Policy: Policy{Base: BaseV38},
		Tasks: []TaskGroup{{Name: "a", Count: 1, CPUs: MaskOf(0), Program: hog}, {Name: "b", Count: 1, CPUs: MaskOf(1), Program: hog}}}
	s := runChecked(t, cfg)
	got := s.Metrics().Costs.SMTShareMS
	// Each task held its CPU 10 ms x 2048/1178 = 17.39 ms for 10 ms of work.
	want := 2 * (10.0*2048/1178 - 10)
	if got < want-0.01 || got > want+0.01 {
		t.Errorf("smt_share_ms %.3f, want %.3f", got, want)
	}
}

// TestSMTSharing268: the v2.6.8 runqueues (O(1), staircase) account a
// step's progress through the same update_curr() path: with SMT sharing on,
// a 2.6.8 run on an SMT machine keeps every invariant and makes progress.
func TestSMTSharing268(t *testing.T) {
	for _, sched := range []CPUScheduler{CPUSchedO1, CPUSchedStaircase} {
		cfg := cfg268(8, 1, sched, append(hogs(6, 0), pairs(4, 30000)...))
		cfg.Machine = machine(1, 1, 1, 4, 2, NumberLinear)
		cfg.Machine.Costs = Costs{SMTGain: 1178}
		cfg.Duration = 200e6
		s := runChecked(t, cfg)
		if s.Metrics().Ops == 0 || s.Metrics().Costs.SMTShareMS == 0 {
			t.Errorf("scheduler %d: ops %d, smt_share_ms %.3f: want both > 0", sched, s.Metrics().Ops, s.Metrics().Costs.SMTShareMS)
		}
	}
}
