package sim

import (
	"math"
	"testing"
)

// TestDecayLoad checks decay_load() against values worked out by hand with
// the kernel's table: y^32 halves, and the 0xffffffff entry rounds down.
func TestDecayLoad(t *testing.T) {
	for _, c := range []struct {
		val, n, want uint64
	}{
		{1024, 0, 1023},       // 1024*0xffffffff>>32
		{1024, 32, 511},       // >>1, then *0xffffffff>>32
		{47742, 1, 46718},     // LOAD_AVG_MAX*y
		{1024000, 1, 1002057}, // 1024000*0xfa83b2da>>32
		{24, 1, 23},           // d1 term of a crossed period
		{1 << 40, 64 * 32, 0}, // beyond LOAD_AVG_PERIOD*63: zero
		{1 << 62, 62 * 32, 0}, // 2^62 >> 62 = 1, *0xffffffff>>32 = 0
		{3 << 61, 61 * 32, 2}, // 3*2^61 >> 61 = 3, *0xffffffff>>32 = 2
	} {
		if got := decayLoad(c.val, c.n); got != c.want {
			t.Errorf("decay_load(%d, %d) = %d, want %d", c.val, c.n, got, c.want)
		}
	}
}

// TestAccumulateByHand replays ___update_load_sum for a running entity from
// time 0: 1000 units (no period crossed: no avg update), then to 1100 units
// (one period crossed). Worked by hand:
//
//	step 1: contrib = 1000, period_contrib = 1000, util_sum = 1000<<10 = 1024000
//	step 2: delta = 100, periods = (100+1000)/1024 = 1
//	        util_sum = decay_load(1024000, 1) = 1002057
//	        contrib  = decay_load(1024-1000, 1) + (47742 - decay_load(47742, 1) - 1024) + 76
//	                 = 23 + 0 + 76 = 99
//	        util_sum = 1002057 + 99<<10 = 1103433; divider = 47742-1024+76 = 46794
//	        util_avg = 1103433/46794 = 23
func TestAccumulateByHand(t *testing.T) {
	var sa SchedAvg
	if sa.update(1000*1024+500, 1024, 1024, 1, true) {
		t.Fatal("no period crossed: no avg update expected")
	}
	if sa.UtilSum != 1024000 || sa.PeriodContrib != 1000 || sa.LastUpdateTime != 1000*1024 {
		t.Fatalf("after step 1: %+v", sa)
	}
	if !sa.update(1100*1024, 1024, 1024, 1, true) {
		t.Fatal("a period was crossed")
	}
	if sa.UtilSum != 1103433 || sa.PeriodContrib != 76 || sa.UtilAvg != 23 {
		t.Fatalf("after step 2: util_sum %d period_contrib %d util_avg %d", sa.UtilSum, sa.PeriodContrib, sa.UtilAvg)
	}
	// load_sum accrues load*contrib: 1024*(1000) decayed + 1024*99.
	wantLoad := (uint64(1024*1000)*uint64(runnableAvgYNInv[1]))>>32 + 1024*99
	if sa.LoadSum != wantLoad || sa.LoadAvg != 1024*wantLoad/46794 {
		t.Fatalf("load_sum %d (want %d) load_avg %d", sa.LoadSum, wantLoad, sa.LoadAvg)
	}
}

// TestPeltAlwaysRunning: a nice-0 task running for a second saturates.
func TestPeltAlwaysRunning(t *testing.T) {
	var sa SchedAvg
	for now := uint64(0); now <= 1e9; now += 1e6 {
		sa.update(now, 1024, 1, 1, true)
	}
	if sa.UtilAvg < 1018 || sa.UtilAvg > 1024 || sa.LoadAvg < 1018 || sa.LoadAvg > 1024 {
		t.Fatalf("util %d load %d, want ~1024", sa.UtilAvg, sa.LoadAvg)
	}
}

// TestPeltPeriodicClosedForm: a task running r of every p ms converges to
// max = (1-y^r)/(1-y^p)*1024 at the end of its run and min = y^(p-r)*max at
// the end of its sleep.
func TestPeltPeriodicClosedForm(t *testing.T) {
	y := math.Pow(0.5, 1.0/32)
	for _, c := range []struct{ r, p int }{{8, 10}, {4, 10}, {2, 16}, {5, 20}} {
		var sa SchedAvg
		var atEndRun, atEndSleep uint64
		const ms = 1024 * 1024 // one PELT period in ns, so periods align
		now := uint64(0)
		for k := 0; k < 400; k++ {
			for i := 0; i < c.r; i++ {
				now += ms
				sa.update(now, 1024, 1, 1, true)
			}
			atEndRun = sa.UtilAvg
			for i := 0; i < c.p-c.r; i++ {
				now += ms
				sa.update(now, 1024, 0, 0, false)
			}
			atEndSleep = sa.UtilAvg
		}
		maxU := (1 - math.Pow(y, float64(c.r))) / (1 - math.Pow(y, float64(c.p))) * 1024
		minU := math.Pow(y, float64(c.p-c.r)) * maxU
		if math.Abs(float64(atEndRun)-maxU) > 0.02*maxU+2 || math.Abs(float64(atEndSleep)-minU) > 0.02*minU+2 {
			t.Errorf("r=%d p=%d: max %d (closed form %.1f), min %d (closed form %.1f)", c.r, c.p, atEndRun, maxU, atEndSleep, minU)
		}
	}
}

// TestPelt38 checks the 3.8 tracker: runnable_avg_sum/period and
// load_avg_contrib = sum*w/(period+1), worked by hand.
func TestPelt38(t *testing.T) {
	var sa SchedAvg38
	// 100 units runnable: no roll-over. sum = period = 100.
	sa.updateRunnableAvg(100*1024, true)
	if sa.RunnableAvgSum != 100 || sa.RunnableAvgPeriod != 100 {
		t.Fatalf("%+v", sa)
	}
	sa.updateContrib(1024)
	if sa.LoadAvgContrib != 100*1024/101 {
		t.Fatalf("contrib %d", sa.LoadAvgContrib)
	}
	// 2000 more units sleeping: delta_w = 924 completes the period, then
	// periods = 1, remainder 52. sum = decay(100+0, 2) + 0; period =
	// decay(1024, 2) + contrib(1) + 52.
	sa.updateRunnableAvg(2100*1024, false)
	wantSum := uint32(decayLoad(100, 2))
	wantPeriod := uint32(decayLoad(1024, 2)) + runnableAvgYNSum[1] + 52
	if sa.RunnableAvgSum != wantSum || sa.RunnableAvgPeriod != wantPeriod {
		t.Fatalf("sum %d/%d period %d/%d", sa.RunnableAvgSum, wantSum, sa.RunnableAvgPeriod, wantPeriod)
	}
	// __compute_runnable_contrib beyond LOAD_AVG_MAX_N saturates.
	if computeRunnableContrib(400) != loadAvgMax {
		t.Fatal("contrib(400) should be LOAD_AVG_MAX")
	}
	// and agrees with the closed-form sum for 40 periods within rounding.
	y := math.Pow(0.5, 1.0/32)
	want := 0.0
	for i := 1; i <= 40; i++ {
		want += 1024 * math.Pow(y, float64(i))
	}
	if got := float64(computeRunnableContrib(40)); math.Abs(got-want) > 0.005*want {
		t.Fatalf("contrib(40) = %v, closed form %v", got, want)
	}
}

// TestCalcDeltaFair: nice 0 is the identity; other weights scale by 1024/w.
func TestCalcDeltaFair(t *testing.T) {
	if calcDeltaFair(1000000, 1024, schedPrioToWmult[20]) != 1000000 {
		t.Fatal("nice 0 must be the identity")
	}
	for nice := -20; nice <= 19; nice++ {
		w := NiceWeight(nice)
		got := calcDeltaFair(1000000, w, schedPrioToWmult[nice+20])
		want := 1000000.0 * 1024 / float64(w)
		if math.Abs(float64(got)-want) > 1+want*1e-6 {
			t.Errorf("nice %d: %d, want %.0f", nice, got, want)
		}
	}
}

// TestForkState38 works 3.8's fork state by hand: __sched_fork() zeroes
// runnable_avg_sum and runnable_avg_period only, the child inherits the
// parent's load_avg_contrib (the spawner: a running nice-0 parent, 1024)
// and decay_count 0, so enqueue_entity_load_avg() adds 1024 to
// runnable_load_avg at once. The child waits in its first step after the
// CPU's C6 exit (200 us): __update_entity_runnable_avg() accrues 197 units
// of 1024 ns to sum and period but crosses no 1024-unit period, so it
// returns 0 and update_entity_load_avg() leaves the inherited 1024, which
// moves to blocked_load_avg.
func TestForkState38(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 10e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV38},
		Tasks: []TaskGroup{{Name: "w", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 1e6}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(500)
	p, rq := s.tasks[0], s.cpus[0]
	if p.avg38.LoadAvgContrib != 1024 || p.avg38.RunnableAvgSum != 0 || p.avg38.RunnableAvgPeriod != 0 || rq.runnableLoadAvg != 1024 {
		t.Fatalf("just forked: contrib %d, sum %d, period %d, runnable_load_avg %d; want 1024, 0, 0, 1024",
			p.avg38.LoadAvgContrib, p.avg38.RunnableAvgSum, p.avg38.RunnableAvgPeriod, rq.runnableLoadAvg)
	}
	s.RunUntil(1e6)
	a := p.avg38
	if p.state != TaskBlocked || a.RunnableAvgSum != 197 || a.RunnableAvgPeriod != 197 || a.LoadAvgContrib != 1024 ||
		rq.runnableLoadAvg != 0 || rq.blockedLoadAvg != 1024 {
		t.Fatalf("blocked: state %v, sum %d period %d contrib %d, runnable %d, blocked %d; want blocked, 197, 197, 1024, 0, 1024",
			p.state, a.RunnableAvgSum, a.RunnableAvgPeriod, a.LoadAvgContrib, rq.runnableLoadAvg, rq.blockedLoadAvg)
	}
}

// TestDecayCounterStartsAtOne: 3.8 init_cfs_rq() sets cfs_rq->decay_counter
// to 1, so a task that goes to sleep before its CPU's clock has passed one
// 2^20 ns decay period still leaves with a positive decay_count
// (dequeue_entity_load_avg()). Its wake-up 64 ms later on the same CPU then
// takes enqueue_entity_load_avg()'s sleeper path: __synchronize_entity_decay()
// decays the contribution by the periods the counter moved,
// subtract_blocked_load_contrib() takes exactly that out of blocked_load_avg
// (leaving 0: nothing else slept there), and update_entity_load_avg() accrues
// the 64 ms asleep into runnable_avg_period, so the contribution it adds to
// runnable_load_avg is what __update_entity_runnable_avg() over the sleep
// gives, a few units of 1024. With the counter at 0 (before 6 December) the
// wake-up looked like a migrated task's with nothing to catch up
// (decay_count == 0): the sleep was never accounted, the task came back
// with its full 1024, and its decayed copy stayed in blocked_load_avg.
func TestDecayCounterStartsAtOne(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 70e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV38, LoadMetric: LoadRunnableAvg},
		Tasks: []TaskGroup{
			{Name: "w", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 1e6}}},
			{Name: "k", Count: 1, Start: 64e6, Program: []Step{{Op: OpRun, Dur: 10e3}, {Op: OpWake, Target: 0}, {Op: OpWait}}},
		}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1e6)
	p, rq := s.tasks[0], s.cpus[0]
	if p.state != TaskBlocked || p.avg38.DecayCount != 1 || rq.decayCounter != 1 {
		t.Fatalf("asleep at 1 ms: state %v, decay_count %d, the CPU's decay_counter %d; want blocked, 1, 1",
			p.state, p.avg38.DecayCount, rq.decayCounter)
	}
	asleep := p.avg38
	for !p.onRq && s.Step() {
		if !p.onRq {
			asleep = p.avg38
		}
	}
	if !p.onRq {
		t.Fatal("w was never woken")
	}
	want := asleep
	want.LoadAvgContrib = decayLoad38(want.LoadAvgContrib, uint64(rq.decayCounter-want.DecayCount))
	want.updateRunnableAvg(uint64(s.now), false)
	want.updateContrib(p.weight)
	if got := p.avg38.LoadAvgContrib; got != want.LoadAvgContrib || got > 16 {
		t.Errorf("woken at %d us after 64 ms asleep: load_avg_contrib %d; want %d (the sleep accrued to runnable_avg_period), at most 16",
			s.now/1000, got, want.LoadAvgContrib)
	}
	if rq.blockedLoadAvg != 0 {
		t.Errorf("blocked_load_avg %d after the only sleeper woke; want 0 (subtract_blocked_load_contrib() took its decayed contribution out)", rq.blockedLoadAvg)
	}
}

// TestPeltAttachedAtTimeZero: a task attached at the simulation's start
// stays in PELT. attach_entity_load_avg() copies the cfs_rq's
// last_update_time, which is 0 at time 0 (a clock the kernel never reads),
// and 0 is update_load_avg()'s "not attached"; the model attaches it at 1,
// and an update at time 0 that follows (set_next_entity() of the task
// forked and picked at once) must not take it back to 0: the task then ran
// for 4 ms and its util_avg grew with its CPU's.
func TestPeltAttachedAtTimeZero(t *testing.T) {
	s, rq, _ := idleTwoCores(t, Policy{Base: BaseV617})
	p := s.tasks[0]
	s.now = 0
	p.onRq, p.cpu, rq.loadWeight = true, 0, p.weight // enqueued on cpu0
	s.updateLoadAvg(rq, p, true, false)              // enqueue_entity(): DO_ATTACH
	if p.avg.LastUpdateTime == 0 {
		t.Fatal("not attached by the enqueue at time 0")
	}
	rq.curr = p
	s.updateLoadAvg(rq, p, false, false) // set_next_entity() at time 0
	if p.avg.LastUpdateTime == 0 {
		t.Fatal("an update at time 0 left the attached task with last_update_time 0 (not attached)")
	}
	s.now = 4e6
	s.updateLoadAvg(rq, p, false, false) // the tick, 4 ms later
	if p.avg.UtilAvg == 0 || rq.cfsAvg.UtilAvg == 0 || p.avg.UtilAvg != rq.cfsAvg.UtilAvg {
		t.Errorf("after 4 ms running: the task's util_avg %d, its CPU's %d, want equal and > 0", p.avg.UtilAvg, rq.cfsAvg.UtilAvg)
	}
}

// TestSubtractBlockedLoadContrib: 3.8 subtract_blocked_load_contrib()
// compares its long load_contrib with the u64 blocked_load_avg, so the
// comparison is unsigned: a contribution below the blocked load comes off
// it, one at or above it empties it, and a negative one (the -contrib_delta
// update_entity_load_avg() passes for a blocked entity whose contribution
// rose) converts to a huge unsigned value and empties it too, where a
// signed add would have raised it by the rise.
func TestSubtractBlockedLoadContrib(t *testing.T) {
	for _, c := range []struct {
		blocked uint64
		contrib int64
		want    uint64
	}{
		{1000, 300, 700}, // below: subtracted
		{1000, 0, 1000},  // nothing to take
		{1000, 1000, 0},  // not below: emptied
		{1000, 1500, 0},  // above: emptied, not wrapped
		{1000, -5, 0},    // a rise of 5: (u64)-5 is not below 1000
		{0, 0, 0},
	} {
		rq := &RQ{blockedLoadAvg: c.blocked}
		subtractBlockedLoadContrib38(rq, c.contrib)
		if rq.blockedLoadAvg != c.want {
			t.Errorf("blocked_load_avg %d less %d: %d; want %d", c.blocked, c.contrib, rq.blockedLoadAvg, c.want)
		}
	}
}
