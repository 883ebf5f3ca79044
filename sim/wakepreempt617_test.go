package sim

import "testing"

// syncPairOnOneCPU runs a client (run clientRun, wake the server with
// WF_SYNC, wait for the reply) and a server (wait, run serverRun, reply with
// WF_SYNC) on a one-CPU machine under v6.17's defaults for 200 ms, and
// counts the switches that took the CPU from a task still runnable
// (preempted) and the wake-ups. Runs vary by the default ±2 %, as real ones
// do: with equal bursts which side is preempted turns on who ran longer.
func syncPairOnOneCPU(t *testing.T, clientRun, serverRun int64, feat func(*Policy)) (clientPreempted, serverPreempted, switches, wakeups int64) {
	t.Helper()
	pol := Policy{Base: BaseV617}
	if feat != nil {
		feat(&pol)
	}
	m := machine(1, 1, 1, 1, 1, NumberLinear)
	cfg := &Config{Seed: 1, Duration: 200e6, Machine: m, Policy: pol, Tasks: []TaskGroup{
		{Name: "client", Count: 1, Program: []Step{{Op: OpRun, Dur: clientRun}, {Op: OpWake, Target: 1, Sync: true}, {Op: OpWait}}},
		{Name: "server", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: serverRun}, {Op: OpWake, Target: 0, Sync: true, Fanout: FanoutWaker}}},
	}}
	s, preempted, switches := runPreemptions(t, cfg, nil)
	return preempted[0], preempted[1], switches, s.Metrics().Wakeups
}

// runPreemptions runs cfg to its end and counts, per task, the switches
// that took the CPU from it while it was still runnable (a preemption:
// sched_switch's prev_state R), and all switches; onSwitch (if not nil)
// sees every switch.
func runPreemptions(t *testing.T, cfg *Config, onSwitch func(Event)) (s *Sim, preempted map[int32]int64, switches int64) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	preempted = map[int32]int64{}
	blocked := map[int32]bool{}
	var evs []Event
	for !s.Done() {
		s.RunUntil(s.Now() + 10e6)
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			switch e.Kind {
			case EvBlock:
				blocked[e.Task] = true
			case EvSwitch:
				if e.Arg >= 0 && !blocked[e.Arg] {
					preempted[e.Arg]++
				}
				switches++
				blocked[e.Task] = false
				if onSwitch != nil {
					onSwitch(e)
				}
			}
		}
	}
	return s, preempted, switches
}

// TestSyncPairPreemption: two tasks that take turns on one CPU, each waking
// the other and sleeping until it answers. Under v6.17's defaults the one
// with the shorter burst preempts the other at nearly every wake-up. The
// sleeper went to sleep ineligible (it had just run past the average), so
// DELAY_DEQUEUE left it sched_delayed on the queue; the waker's wake-up
// finds it there (ttwu_runnable()), and requeue_delayed_entity() measures
// its lag against avg_vruntime() with the waker's vruntime as of the
// waker's last update_curr(), the start of its burst, when the sleeper was
// still ahead: its lag is negative, DELAY_ZERO leaves it and its place
// alone. check_preempt_wakeup_fair() then runs update_curr(): the waker's
// whole burst enters its vruntime, it passes the sleeper and the average,
// becomes ineligible, loses RUN_TO_PARITY's protection, and pick_eevdf()
// returns the sleeper. The preemption takes effect on the waker's way out
// of the system call, so it is still runnable; its wait then finds the
// reply there, and only one task is ever woken per round trip.
//
// Measured on this project's 6.18.44 guest (5 December 2026; the pair pinned
// to one CPU through schedsim real, 2 s each, sched_switch prev_state): 100
// and 25 us, the client preempted at 13960 of 14025 round trips (99.5 %);
// 30 and 25 us, 26574 of 27271 (97 %); 25 and 30 us, the server preempted at
// 28358 of 28834 (98 %); 10 and 25 us, 39401 of 39914 (99 %); 100 and 100
// us, the client 4327 and the server 4770 times in 9425 round trips (46 %
// and 51 %). v6.17 as the model had it before (curr brought up to date at
// every step's end and before the requeue, and a waker going on to its wait
// in the same instant) preempted at none of them.
func TestSyncPairPreemption(t *testing.T) {
	for _, c := range []struct {
		client, server int64 // ns
		// the share of round trips in which each is preempted, as a range
		clientLo, clientHi, serverLo, serverHi float64
	}{
		{100e3, 25e3, 0.95, 1, 0, 0.05},
		{30e3, 25e3, 0.95, 1, 0, 0.05},
		{25e3, 30e3, 0, 0.05, 0.95, 1},
		{10e3, 25e3, 0, 0.05, 0.95, 1},
		{100e3, 100e3, 0.3, 0.7, 0.3, 0.7},
	} {
		cp, sp, sw, wk := syncPairOnOneCPU(t, c.client, c.server, nil)
		trips := float64(sw) / 2
		cs, ss := float64(cp)/trips, float64(sp)/trips
		if cs < c.clientLo || cs > c.clientHi || ss < c.serverLo || ss > c.serverHi {
			t.Errorf("client %d us, server %d us: client preempted in %.2f, server in %.2f of %.0f round trips; want %.2f-%.2f and %.2f-%.2f",
				c.client/1000, c.server/1000, cs, ss, trips, c.clientLo, c.clientHi, c.serverLo, c.serverHi)
		}
		// Whoever is preempted is not woken: one wake-up per round trip
		// where one side always preempts.
		if c.clientLo >= 0.95 || c.serverLo >= 0.95 {
			if r := float64(wk) / trips; r > 1.1 {
				t.Errorf("client %d us, server %d us: %.2f wake-ups per round trip, want about 1 (the preempted side's wait finds its reply)", c.client/1000, c.server/1000, r)
			}
		}
	}
}

// TestSyncPairPreemptionWithDelayedPick: the kernel the sync pair's shares
// were measured on (6.18.44) has WAKEUP_DEQUEUE_DELAYED; with it on the
// same shares hold (a pair leaves no third task sched_delayed for the
// check to dequeue).
func TestSyncPairPreemptionWithDelayedPick(t *testing.T) {
	on := func(p *Policy) { p.FeatSet |= 1 << FeatWakeupDequeueDelayed }
	for _, c := range [][2]int64{{100e3, 25e3}, {25e3, 30e3}, {100e3, 100e3}} {
		cpOff, spOff, swOff, _ := syncPairOnOneCPU(t, c[0], c[1], nil)
		cpOn, spOn, swOn, _ := syncPairOnOneCPU(t, c[0], c[1], on)
		if cpOn != cpOff || spOn != spOff || swOn != swOff {
			t.Errorf("client %d us, server %d us: preempted %d/%d in %d switches with the delayed pick dequeued, %d/%d in %d without",
				c[0]/1000, c[1]/1000, cpOn, spOn, swOn, cpOff, spOff, swOff)
		}
	}
}

// wakeChainOnOneCPU runs s1 (run 50 us, wake s2, sleep to its next 1 ms),
// s2 (wait, run 80 us, wake s3) and s3 (wait, run 80 us) on a one-CPU
// machine under v6.17 for 200 ms, without jitter, and counts the
// switches that took the CPU from a task still runnable, per task.
func wakeChainOnOneCPU(t *testing.T, feat uint32) (preempted [3]int, periods int) {
	t.Helper()
	m := machine(1, 1, 1, 1, 1, NumberLinear)
	cfg := &Config{Seed: 1, Duration: 200e6, Machine: m, Policy: Policy{Base: BaseV617, FeatSet: feat}, Tasks: []TaskGroup{
		{Name: "s1", Count: 1, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpWake, Target: 1}, {Op: OpTimer, Dur: 1e6}}},
		{Name: "s2", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 80e3}, {Op: OpWake, Target: 2}}},
		{Name: "s3", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 80e3}}},
	}}
	cfg.Machine.Costs.JitterPct = 0
	_, byTask, _ := runPreemptions(t, cfg, func(e Event) {
		if e.Arg < 0 && e.Task == 0 {
			periods++ // s1 leaves the idle CPU: a period begins
		}
	})
	for i := range preempted {
		preempted[i] = int(byTask[int32(i)])
	}
	return preempted, periods
}

// TestWakeupDequeueDelayedChain works a chain of wake-ups on one CPU as
// v6.17 and as a kernel with ac8e69e69363 (WAKEUP_DEQUEUE_DELAYED) do it.
//
// A period, v6.17: s1 wakes alone and runs 50 us; it wakes s2, placed at
// the average with lag 0: s1 is eligible and protected (RUN_TO_PARITY),
// no preemption. s1 sleeps just past the average, not eligible, so it
// stays queued sched_delayed. s2 runs 80 us and wakes s3: now s2 is past
// the average (not eligible), but pick_eevdf() finds s1, eligible by now
// and with the earliest deadline (it was placed first), and answers "not
// s3": no preemption. s2 sleeps ineligible (delayed), s1 is picked and
// its dequeue completes (its positive lag dropped, DELAY_ZERO), s3 runs
// and sleeps; every lag ends at 0 and the next period is the same.
// Never a preemption.
//
// With the check dequeuing the delayed pick, the second wake-up dequeues
// s1 and picks again: s3 (s2 is not eligible), so s3 preempts s2. s2,
// still runnable, finishes its step after s3 and sleeps eligible (behind
// s3's vruntime): its dequeue is not delayed and keeps a positive lag,
// which DELAY_ZERO does not touch. In the next period s2 is placed that
// far left of s1: s1 is no longer eligible the moment s2 arrives, and s2
// preempts s1; that period's lags make the next one like the first. One
// preemption a period, s1's and s2's in turn: the trace of a 6.18.44
// kernel (docs/model-defects.md; 1002 a second in 1000 periods).
func TestWakeupDequeueDelayedChain(t *testing.T) {
	off, periods := wakeChainOnOneCPU(t, 0)
	if off != [3]int{} || periods < 195 {
		t.Errorf("v6.17: preempted %v in %d periods; want none", off, periods)
	}
	on, periods := wakeChainOnOneCPU(t, 1<<FeatWakeupDequeueDelayed)
	if on[2] != 0 || on[0]+on[1] < periods-2 || on[0]+on[1] > periods || on[0] < periods/2-2 || on[1] < periods/2-2 {
		t.Errorf("with the delayed pick dequeued: s1, s2, s3 preempted %v in %d periods; want one a period, s1 and s2 in turn", on, periods)
	}
}
