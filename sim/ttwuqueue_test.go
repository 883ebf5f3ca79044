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
// are enqueued at once. The CPUs halt when idle (no state polls), so every
// remote wake-up sends its IPI (TestWakeupPolls has the polling ones).
func TestTTWUQueue38(t *testing.T) {
	for _, queue := range []bool{true, false} {
		cfg := &Config{Seed: 1, Duration: 1e9,
			Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: haltingCosts()},
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
// wakees' times do not move. When the idle CPUs poll (the default table:
// MWAIT), the IPIs to them are skipped: v3.8 still sends the wake list's
// (ttwu_queue_remote() calls smp_send_reschedule() unconditionally), one
// a loop, 7 us; v6.17 sends none (set_nr_if_polling()).
func TestWakeupIPISend(t *testing.T) {
	for _, c := range []struct {
		base  Base
		polls bool
		want  float64 // ms of sends over the 10 loops
	}{{BaseV38, false, 0.14}, {BaseV617, false, 0.14}, {BaseV38, true, 0.07}, {BaseV617, true, 0}} {
		base := c.base
		run := func(send int64) *Metrics {
			costs := haltingCosts()
			if c.polls {
				costs = DefaultCosts()
			}
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
		if d := on.Tasks[0].CPUMS - off.Tasks[0].CPUMS; d < c.want-0.0001 || d > c.want+0.0001+0.002 {
			t.Errorf("%v polls=%v: the waker's CPU time rose by %.4f ms, want 10 loops x 7 us sends = %v (and at most one 2 us switch)", base, c.polls, d, c.want)
		}
		if on.Costs.IPISendMS != c.want || off.Costs.IPISendMS != 0 {
			t.Errorf("%v polls=%v: ipi_send_ms %v (off %v), want %v", base, c.polls, on.Costs.IPISendMS, off.Costs.IPISendMS, c.want)
		}
		for i := 1; i < 4; i++ {
			if on.Tasks[i].CPUMS != off.Tasks[i].CPUMS {
				t.Errorf("%v: %s's CPU time moved: %v -> %v", base, on.Tasks[i].Name, off.Tasks[i].CPUMS, on.Tasks[i].CPUMS)
			}
		}
	}
}

// haltingCosts is the default cost model with idle states that do not poll
// (HLT-like: the kernel must send an IPI to wake them).
func haltingCosts() Costs {
	c := DefaultCosts()
	c.IdleStates = append([]IdleState(nil), c.IdleStates...)
	for i := range c.IdleStates {
		c.IdleStates[i].Polls = false
	}
	return c
}

// TestWakeupPolls works the IPI rule by hand on the machine of
// TestTTWUQueue38 (LLC {0,1} and {2,3}, all CPUs idle in C3 when the waker
// on cpu0 wakes "near" on cpu1 and "far" on cpu2). A wake-up needs an IPI
// unless its target idles in a polling state (IdleState.Polls: POLL, or
// MWAIT on the thread flags), in which case setting TIF_NEED_RESCHED wakes
// it, after Costs.WakeupPoll. So each wakee runs at the wake plus the
// signal's latency plus the exit latency of the target's state:
//
//   - near (same LLC): the waker enqueues it and calls resched_task() (3.8)
//     or, v6.17, queues it on cpu1's wake list (cpu1 is idle:
//     ttwu_queue_cond()): with polling, no IPI in either era;
//   - far (other LLC): the wake list in both eras; 3.8's
//     ttwu_queue_remote() sends the IPI even to a polling CPU, v6.17's
//     send_call_function_single_ipi() does not (set_nr_if_polling()).
//
// What polls is the state the target is in: with every state of the
// default table polling but C3 (a table of some polling states, like a
// guest's haltpoll driver: poll, then halt), both wakees get IPIs.
func TestWakeupPolls(t *testing.T) {
	for _, base := range []Base{BaseV38, BaseV617} {
		for _, mode := range []string{"none", "all", "all but C3"} {
			costs := haltingCosts()
			if mode != "none" {
				costs = DefaultCosts()
			}
			if mode == "all but C3" {
				costs.IdleStates = append([]IdleState(nil), costs.IdleStates...)
				costs.IdleStates[3].Polls = false
			}
			polls := mode == "all"
			// No jitter, and no search cost: the signal leaves at the wake.
			costs.JitterPct = 0
			costs.SearchCPU, costs.SearchGroup, costs.SearchDomain = 0, 0, 0
			cfg := &Config{Seed: 1, Duration: 1e9,
				Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: costs},
				Policy:  Policy{Base: base},
				Tasks: []TaskGroup{
					{Name: "w", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 100_000}, {Op: OpWake, Target: 1}, {Op: OpWake, Target: 2}, {Op: OpSleep, Dur: 1e9}}},
					{Name: "near", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
					{Name: "far", Count: 1, CPUs: MaskOf(2), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 10_000}}},
				},
			}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for s.m.wakeups < 2 {
				if !s.Step() || s.now > 1e8 {
					t.Fatal("no wake-ups")
				}
			}
			tWake := s.now
			// Every CPU but the waker's has idled since the start: C3
			// (80 us <= 100 us < 800 us), 20 us to leave.
			exit := s.costs.IdleStates[3].ExitLatency
			if s.costs.IdleStates[3].Name != "C3" || exit != 20_000 {
				t.Fatalf("state 3 is %+v, want C3 20 us", s.costs.IdleStates[3])
			}
			nearLag, farLag := s.costs.WakeupIPI, s.costs.WakeupIPI
			if polls {
				nearLag = s.costs.WakeupPoll
				if base == BaseV617 {
					farLag = s.costs.WakeupPoll
				}
			}
			ran := map[int32]int64{}
			for len(ran) < 2 && s.Step() {
				for _, c := range []int{1, 2} {
					if rq := s.cpus[c]; rq.curr != nil && ran[rq.curr.id] == 0 {
						ran[rq.curr.id] = s.now
					}
				}
			}
			for _, w := range []struct {
				name string
				id   int32
				lag  int64
			}{{"near", 1, nearLag}, {"far", 2, farLag}} {
				if want := tWake + w.lag + exit; ran[w.id] != want {
					t.Errorf("%v polls %s: %s wakee ran at %d, want wake %d + %d + exit %d = %d", base, mode, w.name, ran[w.id], tWake, w.lag, exit, want)
				}
			}
		}
	}
}
