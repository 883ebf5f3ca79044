package sim

import "testing"

// TestWakeListAfterIdleExit: a wake-up sent through the wake list to an
// idle CPU (v6.17 ttwu_queue_cond(): the target runs nothing) is enqueued
// by the target itself, in sched_ttwu_pending(), once it has left its
// C-state; until then the wakee is on no runqueue. Here cpu1 has idled about
// 2 ms (C6 of the default table, 200 us to leave; cpu0's first tick kicked it
// at 1 ms to collate nohz.next_balance, NOHZ_NEXT_KICK, as its tick had just
// stopped) when the waker on cpu0 wakes its task at 3 ms: 100 us later cpu1 is still leaving C6, its runqueue empty and
// the wake-up pending (so it does not look idle), and the wakee runs once
// the exit is over. Before, the wakee sat on cpu1's runqueue from the
// moment the IPI landed, for any balancer to pull. 2.6.8, which has no wake
// list (its waker enqueues on the remote runqueue), is not concerned.
func TestWakeListAfterIdleExit(t *testing.T) {
	m := machine(1, 1, 1, 2, 1, NumberLinear)
	m.Costs.JitterPct = 0
	cfg := &Config{Seed: 1, Duration: 10e6, Machine: m, Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{
			{Name: "waker", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 3e6}, {Op: OpWake, Target: 1}, {Op: OpWait}}},
			{Name: "sleeper", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 1e6}}},
		}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	s.RunUntil(3.3e6)
	var woke int64 = -1
	for _, e := range s.TakeEvents(nil) {
		if e.Kind == EvWakeup && e.Task == s.tasks[1].id {
			woke = e.T
		}
	}
	if woke < 3e6 || woke > 3.22e6 {
		t.Fatalf("the sleeper was woken at %d ns, want just after the waker's 3 ms", woke)
	}
	rq, p := s.cpus[1], s.tasks[1]
	if !rq.exiting || rq.nrRunning != 0 || rq.ttwuPending != 1 || p.onRq || s.idleCPU(1) {
		t.Fatalf("%d us after the wake-up: cpu1 exiting %v, nr_running %d, ttwu_pending %d, wakee on a runqueue %v, idle_cpu %v; want leaving C6 with the wake-up pending and nothing enqueued",
			(s.now-woke)/1000, rq.exiting, rq.nrRunning, rq.ttwuPending, p.onRq, s.idleCPU(1))
	}
	ready := rq.readyAt
	if exit := ready - woke; exit < 200e3 || exit > 210e3 {
		t.Errorf("cpu1 ready %d us after the wake-up, want C6's 200 us and the wake-up's own microsecond", exit/1000)
	}
	s.RunUntil(ready + 1)
	if rq.curr != p || rq.ttwuPending != 0 {
		t.Errorf("at the exit's end cpu1 runs %v (ttwu_pending %d), want the sleeper", rq.curr, rq.ttwuPending)
	}
}
