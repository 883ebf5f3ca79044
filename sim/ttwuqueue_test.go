package sim

import "testing"

// TestTTWUQueue38 works 3.8's ttwu_queue() by hand on two LLCs of two
// single-thread cores (LLC {0,1} and {2,3}). A waker pinned to cpu0 wakes a
// task pinned to cpu1 (same LLC) and one pinned to cpu2 (other LLC), both
// sleeping. With TTWU_QUEUE on, the near wakee is enqueued by the waker at
// once (ttwu_do_activate() under cpu1's rq lock): cpu1's load and
// nr_running count it immediately, and cpu1 starts its exit when the IPI
// arrives, so the wakee runs at wake + WakeupIPI + the exit latency of the
// state cpu1 reached. The far wakee goes through the wake list: cpu2 sees
// nothing but a pending wake-up until the IPI. With TTWU_QUEUE off both
// are enqueued at once.
func TestTTWUQueue38(t *testing.T) {
	for _, queue := range []bool{true, false} {
		cfg := &Config{Seed: 1, Duration: 1e9,
			Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: DefaultCosts()},
			Policy:  Policy{Base: BaseV38},
			Tasks: []TaskGroup{
				{Name: "w", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 100_000}, {Op: OpWake, Target: 1}, {Op: OpWake, Target: 2}, {Op: OpSleep, Dur: 1e9}}},
				{Name: "near", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
				{Name: "far", Count: 1, CPUs: MaskOf(2), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
			},
		}
		if !queue {
			cfg.Policy.FeatClear = 1 << FeatTTWUQueue
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		near, far := s.tasks[1], s.tasks[2]
		// Step until the waker's wake steps have run.
		for s.m.wakeups < 2 {
			if !s.Step() {
				t.Fatal("run ended before the wake-ups")
			}
			if s.now > 1e8 {
				t.Fatal("no wake-up")
			}
		}
		tWake := s.now
		rq1, rq2 := s.cpus[1], s.cpus[2]
		if !near.onRq || rq1.loadWeight != 1024 || rq1.nrRunning != 1 {
			t.Fatalf("queue=%v: near wakee not enqueued at the wake: onRq %v load %d nr %d", queue, near.onRq, rq1.loadWeight, rq1.nrRunning)
		}
		if !rq1.exiting {
			t.Fatalf("queue=%v: cpu1 not leaving idle", queue)
		}
		exit := s.costs.IdleStates[rq1.exitState].ExitLatency
		if queue {
			if far.onRq || rq2.loadWeight != 0 || rq2.ttwuPending != 1 || s.idleCPU(2) {
				t.Fatalf("far wakee: onRq %v load %d pending %d idle %v; want on the wake list only", far.onRq, rq2.loadWeight, rq2.ttwuPending, s.idleCPU(2))
			}
		} else if !far.onRq || rq2.loadWeight != 1024 {
			t.Fatalf("TTWU_QUEUE off: far wakee onRq %v load %d; want enqueued at once", far.onRq, rq2.loadWeight)
		}
		for rq1.curr != near {
			if !s.Step() {
				t.Fatal("near wakee never ran")
			}
		}
		if want := tWake + s.costs.WakeupIPI + exit; s.now != want {
			t.Fatalf("queue=%v: near wakee ran at %d, want wake %d + IPI %d + exit %d = %d", queue, s.now, tWake, s.costs.WakeupIPI, exit, want)
		}
	}
}

// TestWakeupIPISend: a waker pays Costs.WakeupIPISend for each wake-up that
// sends an IPI, and for no other. Each loop the waker on cpu0 wakes a task
// on idle cpu1 (its LLC: v3.8 enqueues it there under cpu1's lock and
// sends the resched IPI, v6.17 uses the wake list as cpu1 is idle), one on
// idle cpu2 (the other LLC: the wake list on both) and one on its own cpu0
// (a local wake-up, no IPI). With 7 us a send, each of the 10 loops costs
// the waker 14 us more CPU time, and the breakdown says so exactly; the
// wakees' times do not move.
func TestWakeupIPISend(t *testing.T) {
	for _, base := range []Base{BaseV38, BaseV617} {
		run := func(send int64) *Metrics {
			costs := DefaultCosts()
			costs.JitterPct = 0
			costs.WakeupIPISend = send
			cfg := &Config{Seed: 1, Duration: 100e6,
				Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: costs},
				Policy:  Policy{Base: base},
				Tasks: []TaskGroup{
					{Name: "w", Count: 1, CPUs: MaskOf(0), Loop: 10, Program: []Step{{Op: OpRun, Dur: 100_000}, {Op: OpWake, Target: 1}, {Op: OpWake, Target: 2}, {Op: OpWake, Target: 3}, {Op: OpSleep, Dur: 5e6}}},
					{Name: "near", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
					{Name: "far", Count: 1, CPUs: MaskOf(2), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
					{Name: "local", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
				},
			}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.Run()
			m := s.Metrics()
			return &m
		}
		off, on := run(0), run(7000)
		// The waker's CPU time: the sends, and at most a context switch
		// more where the later timing changes whether the local wakee
		// preempts it (v6.17 here: one, 2 us).
		if d := on.Tasks[0].CPUMS - off.Tasks[0].CPUMS; d < 0.1399 || d > 0.1401+0.002 {
			t.Errorf("%v: the waker's CPU time rose by %.4f ms, want 10 loops x 2 IPIs x 7 us = 0.14 (and at most one 2 us switch)", base, d)
		}
		if on.Costs.IPISendMS != 0.14 || off.Costs.IPISendMS != 0 {
			t.Errorf("%v: ipi_send_ms %v (off %v), want 0.14", base, on.Costs.IPISendMS, off.Costs.IPISendMS)
		}
		for i := 1; i < 4; i++ {
			if on.Tasks[i].CPUMS != off.Tasks[i].CPUMS {
				t.Errorf("%v: %s's CPU time moved: %v -> %v", base, on.Tasks[i].Name, off.Tasks[i].CPUMS, on.Tasks[i].CPUMS)
			}
		}
	}
}
