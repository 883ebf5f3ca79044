package sim

import "testing"

// idleTwoCores is a two-core machine of one MC domain under policy p, its
// one task not started yet: CPU 0's runqueue and domain.
func idleTwoCores(t *testing.T, p Policy) (*Sim, *RQ, *SchedDomain) {
	t.Helper()
	cfg := &Config{Seed: 1, Duration: 1e9,
		Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Costs: DefaultCosts()},
		Policy:  p,
		Tasks:   []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1000}}}},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rq := s.cpus[0]
	if len(rq.domains) != 1 {
		t.Fatalf("%d domains, want the MC level only", len(rq.domains))
	}
	return s, rq, rq.domains[0]
}

// TestIdleBalanceNextBalance38 works 3.8 idle_balance()'s reset of
// next_balance by hand on an idle two-core machine (nothing to pull), HZ
// 1000: next_balance = min(jiffies + HZ, last_balance + balance_interval of
// each domain walked), written only when the CPU pulled a task or its own
// next_balance has passed, and not at all when avg_idle is under
// sysctl_sched_migration_cost (the early return).
func TestIdleBalanceNextBalance38(t *testing.T) {
	s, rq, sd := idleTwoCores(t, Policy{Base: BaseV38})
	// A balance that finds nothing doubles balance_interval below
	// max_interval (out_balanced), and idle_balance() reads it after
	// load_balance(): at max_interval it stays put.
	iv := sd.MaxInterval
	ivJ := msToJiffies(iv, 1000)
	s.now = 100e6 // jiffy 100
	cases := []struct {
		name        string
		avgIdle     int64
		next        int64 // rq->next_balance before
		lastBalance int64
		wantNext    int64
	}{
		// A busy CPU's next balance 64 jiffies away (busy_factor): not due,
		// kept.
		{"not due: kept", 1e6, 164, 98, 164},
		// Due (99 < 100): last_balance 98 + the interval.
		{"due: recomputed", 1e6, 99, 98, 98 + ivJ},
		// Due, and the domain's interval has passed too: still due.
		{"due, domain due", 1e6, 99, 100 - ivJ - 2, 98},
		// Due exactly at this jiffy is not after it (time_after): kept.
		{"due now: kept", 1e6, 100, 98, 100},
		// avg_idle under migration_cost (0.5 ms): idle_balance() returns
		// before the walk.
		{"short idle", 100e3, 99, 98, 99},
	}
	for _, c := range cases {
		rq.avgIdle = c.avgIdle
		rq.nextBalance = c.next
		sd.LastBalance = c.lastBalance
		sd.BalanceInterval = iv
		if newidleBalance38(s, rq) {
			t.Fatalf("%s: pulled a task on an idle machine", c.name)
		}
		if rq.nextBalance != c.wantNext {
			t.Errorf("%s: next_balance %d, want %d", c.name, rq.nextBalance, c.wantNext)
		}
	}
}

// TestNewidlePullOne38 works a 3.8 newly idle pass by hand, with and without
// kernel preemption (NEWIDLE_PULL_ONE). Two cores of one MC domain, HZ 1000,
// load.weight: three nice-0 hogs on cpu0 (one running, two queued that have
// not run, so cold at 1 ms), cpu1 idle. find_busiest_group() forces the
// balance (CPU_NEWLY_IDLE, this group has capacity 1 > 0 tasks, the busiest
// has none: 3 > 1); calculate_imbalance(): busiest_load_per_task 3072/3 =
// 1024, max_load 3072, avg_load 3072*1024/2048 = 1536, max_pull = min(3072
// - 1536, (3 - 1)*1024) = 1536, imbalance = min(1536*1024, (1536 -
// 0)*1024)/1024 = 1536, not below one task's 1024. move_tasks() takes the
// newest queued hog (1024/2 = 512 <= 1536), leaving 512; under
// CONFIG_PREEMPT it stops there, one task pulled. Without it, it goes on:
// the other queued hog's 512 is not above the 512 left, so it moves too and
// the imbalance goes negative: two pulled, and cpu1 ends with two hogs to
// cpu0's one (the running hog cannot move).
func TestNewidlePullOne38(t *testing.T) {
	for _, c := range []struct {
		pullOne bool
		want    int
	}{{true, 1}, {false, 2}} {
		p := Policy{Base: BaseV38, LoadMetric: LoadWeight}
		if !c.pullOne {
			p.FeatClear = 1 << FeatNewidlePullOne
		}
		cfg := &Config{Seed: 1, Duration: 1e9,
			Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Costs: DefaultCosts()},
			Policy:  p,
			// Forked onto cpu0 (pinned there to be forked), then free.
			Tasks: []TaskGroup{{Name: "hog", Count: 3, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 100e6}}}},
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(0)
		src, dst := s.cpus[0], s.cpus[1]
		if src.nrRunning != 3 || dst.nrRunning != 0 {
			t.Fatalf("after the forks: cpu0 %d tasks, cpu1 %d; want 3 and 0", src.nrRunning, dst.nrRunning)
		}
		for _, q := range s.tasks {
			q.allowed, q.nrAllow = s.topo.All, 2
		}
		s.now = 1e6
		dst.avgIdle = 2 * s.migrationCost
		if !newidleBalance38(s, dst) {
			t.Fatalf("NEWIDLE_PULL_ONE %v: the newly idle pass pulled nothing", c.pullOne)
		}
		if dst.nrRunning != c.want || src.nrRunning != 3-c.want {
			t.Errorf("NEWIDLE_PULL_ONE %v: cpu0 %d tasks, cpu1 %d; want %d and %d",
				c.pullOne, src.nrRunning, dst.nrRunning, 3-c.want, c.want)
		}
	}
}
