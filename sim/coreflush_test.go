package sim

import "testing"

// TestCoreFlushRefill works the C-state cache flush (IdleState.Flushes) by
// hand on one socket of two cores of two threads (x86 numbering: cpu0 and
// cpu2 are core 0's threads), v3.8, the default states (POLL, C1 3/6 us,
// C1E 10/20 us package, C3 20/80 us flushing, C6 200/800 us flushing) and
// the default refills (5 us from the LLC). A sleeper pinned to cpu0 runs
// 100 us and sleeps; it never moves, so every refill it pays is a flush's.
//
// Its CPU's last tick saw it running, so the 3.x menu multiplier is 11
// (docs/costs.md): C3 needs 80 us of idle and 11 x 20 = 220 us, C6 2.2 ms.
// A 1 ms sleep ends in C3: Nehalem's core C3 writes L1 and L2 back to the
// L3 (Intel's datasheets for these cores, vol. 1, "Core C3 State"), so
// each of its 20 wake-ups (the last one only ends the program) pays 5 us;
// the fork's wake-up of the idle core flushes too, but the task has no
// footprint there yet. A 50 us sleep ends in C1 (C1E is the package's, and
// its other core idles only as long): no flush. With a spinner on the
// sibling thread cpu2 the core never leaves C0 whatever cpu0 requests: no
// flush.
// With the states' flag off the model is as before: no refill at all.
func TestCoreFlushRefill(t *testing.T) {
	const runs = 20
	cases := []struct {
		name    string
		sleep   int64
		sibling bool // a spinner on cpu2
		flushes bool // the default table's C3 and C6 flush
		want    int64
	}{
		{"1 ms sleeps end in C3: a refill per wake-up", 1_000_000, false, true, runs * 5000},
		{"50 us sleeps end in C1: none", 50_000, false, true, 0},
		{"sibling busy: the core stays in C0", 1_000_000, true, true, 0},
		{"flag off: none", 1_000_000, false, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			costs := DefaultCosts()
			costs.JitterPct = 0
			if !c.flushes {
				for i := range costs.IdleStates {
					costs.IdleStates[i].Flushes = false
				}
			}
			tasks := []TaskGroup{{Name: "sleeper", Count: 1, CPUs: MaskOf(0), Loop: runs,
				Program: []Step{{Op: OpRun, Dur: 100_000}, {Op: OpSleep, Dur: c.sleep}}}}
			if c.sibling {
				tasks = append(tasks, TaskGroup{Name: "spinner", Count: 1, CPUs: MaskOf(2), Program: []Step{{Op: OpRun, Dur: 1e9}}})
			}
			cfg := &Config{Seed: 1, Duration: runs * (100_000 + c.sleep + 300_000),
				Machine: machine(1, 1, 1, 2, 2, NumberX86),
				Policy:  Policy{Base: BaseV38},
				Tasks:   tasks,
			}
			cfg.Machine.Costs = costs
			s := runChecked(t, cfg) // the invariants after every event
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			p := s.tasks[0]
			if p.lastRanCPU != 0 {
				t.Fatalf("the sleeper last ran on cpu%d, want cpu0", p.lastRanCPU)
			}
			if got := s.m.cost.cacheRefill; got != c.want {
				t.Errorf("refills %d ns, want %d (%d flushes of core 0)", got, c.want, s.cpus[0].coreFlushes)
			}
			// It never moved: every refill is a flush's, and -json says so.
			if m := s.Metrics().Costs; m.FlushRefillMS != m.CacheRefillMS {
				t.Errorf("cost_breakdown: flush_refill_ms %v, cache_refill_ms %v: want them equal", m.FlushRefillMS, m.CacheRefillMS)
			}
		})
	}
}

// TestExecImageSkipsFlush: an exec'd image has no footprint yet (schedExec),
// so it pays no refill where it lands, not even on a core that flushed its
// caches while it was on its way. Two cores, one thread each, v3.8, fork
// balancing off: a ticker pinned to cpu1 sleeps 1 ms four times (each
// wake-up leaves C3: 5 us, 20 us in all); at 6 ms a parent pinned to cpu0
// forks a child there, which runs 100 us and execs; sched_exec() moves it
// to cpu1, idle in C3 or deeper since the ticker left, and the child's
// wake-up of that core flushes it: the child pays nothing. The parent,
// woken on cpu0 once the child exits (cpu0 idle about 480 us: C3, with
// the multiplier of a tick that saw a task), pays one 5 us refill. 25 us
// in all; charging the child for the flush made it 30.
func TestExecImageSkipsFlush(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 10e6,
		Machine: machine(1, 1, 1, 2, 1, NumberX86),
		Policy:  Policy{Base: BaseV38, SDFlags: noForkBalance()},
		Tasks: []TaskGroup{
			{Name: "ticker", Count: 1, CPUs: MaskOf(1), Loop: 4, Program: []Step{{Op: OpRun, Dur: 10_000}, {Op: OpSleep, Dur: 1_000_000}}},
			{Name: "parent", Count: 1, CPUs: MaskOf(0), Start: 6_000_000, Program: []Step{{Op: OpFork, Target: 2, Count: 1}, {Op: OpWaitChildren}, {Op: OpSleep, Dur: 1e9}}},
			{Name: "child", Count: 0, Program: []Step{{Op: OpRun, Dur: 100_000}, {Op: OpExec}, {Op: OpRun, Dur: 50_000}, {Op: OpExit}}},
		}}
	cfg.Machine.Costs.JitterPct = 0
	s := runChecked(t, cfg)
	m := s.Metrics()
	if m.Migrations.Exec != 1 {
		t.Fatalf("exec migrations %d, want 1 (the child to cpu1)", m.Migrations.Exec)
	}
	if s.cpus[1].coreFlushes != 6 {
		t.Fatalf("cpu1's core flushed %d times, want 6 (the ticker's first run, its four wake-ups, the child's)", s.cpus[1].coreFlushes)
	}
	if want := 0.025; m.Costs.CacheRefillMS != want || m.Costs.FlushRefillMS != want {
		t.Errorf("refills %.3f ms (after a flush %.3f); want %.3f: the ticker's four and the parent's one, none for the exec'd child", m.Costs.CacheRefillMS, m.Costs.FlushRefillMS, want)
	}
}
