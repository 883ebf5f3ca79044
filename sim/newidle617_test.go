package sim

import "testing"

// newidleMachine617 is an idle two-CPU v6.17 machine with the features
// feats set or cleared: sched_balance_newidle() on it (failNewidle) walks
// its one domain (MC) and finds nothing to pull, so every pass fails.
func newidleMachine617(t *testing.T, feats map[Feature]bool) (*Sim, *RQ, *SchedDomain) {
	t.Helper()
	p := Policy{Base: BaseV617}
	for f, on := range feats {
		if on {
			p.FeatSet |= 1 << f
		} else {
			p.FeatClear |= 1 << f
		}
	}
	s, rq, sd := idleTwoCores(t, p)
	s.now = 100e6
	return s, rq, sd
}

// failNewidle is one newly idle balance of rq with the root domain marked
// overloaded (the balance's pass over the root domain, which finds no CPU
// with two tasks, clears it again).
func failNewidle(t *testing.T, s *Sim, rq *RQ) {
	t.Helper()
	s.rdOverloaded = true
	if newidleBalance617(s, rq) {
		t.Fatal("pulled a task on an idle machine")
	}
}

// TestNewidleBump works v6.17's bump by hand (155213a2aed4,
// sched_balance_newidle(): "if (!pulled_task) domain_cost = (3 *
// sd->max_newidle_lb_cost) / 2"): a domain whose max_newidle_lb_cost is
// 10 us and whose passes pull nothing records 15, 22.5, 33.75, 50.6, 75.9
// and 113.9 us after one to six failures, so a CPU whose average idle time
// is 100 us balances six times and then no more (the first test of
// sched_balance_newidle(): avg_idle < sd->max_newidle_lb_cost). The bump
// stops at sysctl_sched_migration_cost + 200 ns. Without it, a failed pass
// records what it cost, far less than 10 us here, and the CPU keeps
// balancing.
func TestNewidleBump(t *testing.T) {
	s, rq, sd := newidleMachine617(t, nil)
	if !s.feature(FeatNewidleBump) {
		t.Fatal("NEWIDLE_BUMP is off in the v6.17 base; 155213a2aed4 is in v6.17")
	}
	rq.avgIdle = 100e3
	sd.MaxNewidleLBCost = 10e3
	want := []int64{15000, 22500, 33750, 50625, 75937, 113905}
	for i, w := range want {
		before := sd.Stats.LB[cpuNewlyIdle].Count
		failNewidle(t, s, rq)
		if sd.Stats.LB[cpuNewlyIdle].Count != before+1 {
			t.Fatalf("failure %d: the domain was not balanced", i+1)
		}
		if sd.MaxNewidleLBCost != w {
			t.Fatalf("after %d failures max_newidle_lb_cost %d ns, want %d", i+1, sd.MaxNewidleLBCost, w)
		}
	}
	before := sd.Stats.LB[cpuNewlyIdle].Count
	failNewidle(t, s, rq)
	if sd.Stats.LB[cpuNewlyIdle].Count != before {
		t.Errorf("avg_idle 100 us under max_newidle_lb_cost 113.9 us: the domain was balanced anyway")
	}
	// The cap: a CPU idle long enough keeps failing up to 500.2 us.
	rq.avgIdle = 1e6
	for range 20 {
		failNewidle(t, s, rq)
	}
	if c := s.migrationCost + 200; sd.MaxNewidleLBCost != c {
		t.Errorf("max_newidle_lb_cost %d ns after many failures, want the cap %d", sd.MaxNewidleLBCost, c)
	}

	s, rq, sd = newidleMachine617(t, map[Feature]bool{FeatNewidleBump: false})
	rq.avgIdle = 100e3
	sd.MaxNewidleLBCost = 10e3
	before = sd.Stats.LB[cpuNewlyIdle].Count
	for range 20 {
		failNewidle(t, s, rq)
	}
	if n := sd.Stats.LB[cpuNewlyIdle].Count - before; n != 20 || sd.MaxNewidleLBCost != 10e3 {
		t.Errorf("without the bump: %d of 20 passes ran and max_newidle_lb_cost is %d ns, want 20 and 10000", n, sd.MaxNewidleLBCost)
	}
}

// TestNIRandom works the proportional newidle balance by hand (NI_RANDOM,
// 33cf66d88306): sd_init() starts a domain at 512 calls with 256
// successes, so a success ratio of 512 of 1024; every call, run or
// skipped, counts, and when the calls reach 1024 the successes become the
// ratio and both halve. On an idle machine every pass fails, so the ratio
// halves every 512 calls: 256 after 512, 128 after 1024, 64 after 1536.
// A pass runs when a die of 1024 sides shows at most 1 + ratio: with the
// ratio at 0 that is 2 in 1024, 10 passes expected in 5120 calls.
func TestNIRandom(t *testing.T) {
	s, rq, sd := newidleMachine617(t, map[Feature]bool{FeatNIRandom: true, FeatNewidleBump: false})
	rq.avgIdle = 1e6
	if sd.NewidleCall != 512 || sd.NewidleSuccess != 256 || sd.NewidleRatio != 512 {
		t.Fatalf("sd_init: calls %d successes %d ratio %d, want 512 256 512", sd.NewidleCall, sd.NewidleSuccess, sd.NewidleRatio)
	}
	for _, want := range []int{256, 128, 64} {
		for range 512 {
			failNewidle(t, s, rq)
		}
		if sd.NewidleRatio != want {
			t.Fatalf("ratio %d, want %d", sd.NewidleRatio, want)
		}
	}
	for sd.NewidleRatio > 0 {
		failNewidle(t, s, rq)
	}
	before := sd.Stats.LB[cpuNewlyIdle].Count
	const calls = 5120
	for range calls {
		failNewidle(t, s, rq)
	}
	ran := sd.Stats.LB[cpuNewlyIdle].Count - before
	t.Logf("ratio 0: %d passes ran in %d calls (expected %d)", ran, calls, calls*2/1024)
	if ran < 2 || ran > 25 { // binomial(5120, 2/1024): mean 10, sd 3.2
		t.Errorf("ratio 0: %d passes ran in %d calls, want about %d", ran, calls, calls*2/1024)
	}

	// Off (the v6.17 default), every call balances.
	s, rq, sd = newidleMachine617(t, map[Feature]bool{FeatNewidleBump: false})
	rq.avgIdle = 1e6
	before = sd.Stats.LB[cpuNewlyIdle].Count
	for range 100 {
		failNewidle(t, s, rq)
	}
	if n := sd.Stats.LB[cpuNewlyIdle].Count - before; n != 100 {
		t.Errorf("NI_RANDOM off: %d of 100 calls balanced", n)
	}
}
