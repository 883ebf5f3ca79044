package sim

import "testing"

// TestTaskHot works task_hot() by hand. exec_start moves in update_curr(),
// so a task that ran until 2 ms is hot at 2.3 ms although it was picked at
// 0; 3.8 has no SMT exemption; the sysctl's -1 is always hot, 0 never;
// 3.8's CACHE_HOT_BUDDY makes a next or last buddy hot when the balancing
// CPU has tasks of its own.
func TestTaskHot(t *testing.T) {
	// update_curr() advances exec_start: one task alone on cpu0 from t=0,
	// the tick at 2 ms charges it.
	cfg := &Config{Seed: 1, Duration: 10e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV38},
		Tasks: []TaskGroup{{Name: "hog", Count: 1, Program: []Step{{Op: OpRun, Dur: 5e6}, {Op: OpSleep, Dur: 1e6}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(2_300_000)
	p := s.tasks[0]
	if s.cpus[0].curr != p || p.execStart < 2_000_000 {
		t.Fatalf("after the 2 ms tick: curr %v, exec_start %d, want the hog with exec_start >= 2ms", s.cpus[0].curr, p.execStart)
	}

	smt := &SchedDomain{Flags: SDShareCPUCapacity | SDLoadBalance}
	mc := &SchedDomain{Flags: SDLoadBalance}
	cases := []struct {
		name string
		base Base
		cost int64 // Policy.MigrationCost
		sd   *SchedDomain
		ago  int64 // now - exec_start
		want bool
	}{
		{"v3.8 SMT, ran 100us ago", BaseV38, 0, smt, 100e3, true},
		{"v6.17 SMT, ran 100us ago", BaseV617, 0, smt, 100e3, false},
		{"v6.17 MC, ran 100us ago", BaseV617, 0, mc, 100e3, true},
		{"v3.8 MC, ran 600us ago", BaseV38, 0, mc, 600e3, false},
		{"v3.8 migration_cost -1, ran 1s ago", BaseV38, MigrationCostAlwaysHot, mc, 1e9, true},
		{"v3.8 migration_cost 0, ran 1us ago", BaseV38, -1, mc, 1e3, false},
	}
	for _, c := range cases {
		s, err := New(&Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 2, NumberLinear),
			Policy: Policy{Base: c.base, MigrationCost: c.cost}, Tasks: dutyCycle()})
		if err != nil {
			t.Fatal(err)
		}
		s.now = 2e9
		q := s.tasks[0]
		q.execStart = s.now - c.ago
		if got := s.taskHot(q, &lbEnv{sd: c.sd}); got != c.want {
			t.Errorf("%s: hot %v, want %v", c.name, got, c.want)
		}
	}

	// CACHE_HOT_BUDDY: a task that ran 600 us ago is cold, unless it is
	// its runqueue's next or last buddy and this_rq() (the balancing
	// CPU, dst) has tasks.
	s, err = New(&Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear),
		Policy: Policy{Base: BaseV38}, Tasks: dutyCycle()})
	if err != nil {
		t.Fatal(err)
	}
	s.now = 2e9
	q := s.tasks[0]
	q.execStart = s.now - 600e3
	src, dst := s.cpus[0], s.cpus[1]
	env := &lbEnv{sd: mc, srcRQ: src, dstRQ: dst}
	for _, c := range []struct {
		name       string
		next, last *Task
		dstRunning int
		want       bool
	}{
		{"no buddy, dst busy", nil, nil, 1, false},
		{"last buddy, dst busy", nil, q, 1, true},
		{"next buddy, dst busy", q, nil, 1, true},
		{"last buddy, dst idle", nil, q, 0, false},
		{"another task is the buddy, dst busy", s.tasks[1], s.tasks[1], 1, false},
	} {
		src.nextBuddy, src.lastBuddy, dst.nrRunning = c.next, c.last, c.dstRunning
		if got := s.taskHot(q, env); got != c.want {
			t.Errorf("CACHE_HOT_BUDDY, %s: hot %v, want %v", c.name, got, c.want)
		}
	}
}
