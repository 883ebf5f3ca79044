package sim

import "testing"

// The hand-worked wake-up decisions (select_idle_sibling() variants, the
// v3.6 walk, wake_affine() of both eras, fork balancing, wake_wide(), the
// SD_BALANCE_WAKE slow paths) are scripts under testdata/decisions/ (see
// script_test.go).

// A small machine: one LLC of 4 cores x 2 threads, x86 numbering, so the
// cores are {0,4} {1,5} {2,6} {3,7}. Domains: SMT {c, c+4}, MC {0-7}.
func smallSim(t *testing.T, base Base, sis SIS) *Sim {
	t.Helper()
	cfg := &Config{Seed: 1, Duration: 1e9,
		Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 4, ThreadsPerCore: 2, HZ: 1000, Numbering: NumberX86, Costs: DefaultCosts()},
		Policy:  Policy{Base: base, SIS: sis},
		Tasks:   []TaskGroup{{Name: "p", Count: 2, Program: []Step{{Op: OpRun, Dur: 1000}}}},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// busy marks CPUs as running something (a synthetic state for decision tests).
func busy(s *Sim, cpus ...int) {
	for _, c := range cpus {
		rq := s.cpus[c]
		rq.idle = false
		s.updIdleMask(rq)
		for _, g := range s.cpuGroups[c] {
			g.NrBusy++
		}
	}
}

// TestScheduleBalanceMapCost: the same decision, one domain visit charged
// instead of one per level walked.
func TestScheduleBalanceMapCost(t *testing.T) {
	cost := func(sbm bool) (int, *Decision) {
		s := smallSim(t, BaseV38, SISV36)
		if sbm {
			s.feat |= 1 << FeatSchedBalanceMap
		}
		busy(s, 0)
		p := s.tasks[0]
		p.cpu = 3
		return s.selectTaskRQ(p, 0, 3, true, s.tasks[1], SDBalanceWake)
	}
	a, da := cost(false)
	b, db := cost(true)
	if a != b || da.NDomains != db.NDomains || da.NDomains < 2 {
		t.Fatalf("decisions differ or too few domains: cpu%d/%d, %d/%d domains", a, b, da.NDomains, db.NDomains)
	}
	if want := da.Cost - int64(da.NDomains-1)*DefaultCosts().SearchDomain; db.Cost != want {
		t.Fatalf("cost with the map %d ns, want %d (without: %d, %d domains)", db.Cost, want, da.Cost, da.NDomains)
	}
}

// TestTTWUSchedstats: every wake-up is counted once on the waking CPU as
// local or remote, and remote ones on the first domain spanning the target.
func TestTTWUSchedstats(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 20e6, Machine: machine(2, 1, 1, 4, 2, NumberX86), Policy: Policy{Base: BaseV38}, Tasks: pairs(4, 30000)}
	s, _ := New(cfg)
	s.Run()
	var count, local, remote, affine int64
	for c := 0; c < s.topo.NCPU; c++ {
		st := s.CPUStats(c)
		count += st.TTWUCount
		local += st.TTWULocal
		for _, sd := range s.Domains(c) {
			remote += sd.Stats.TTWUWakeRemote
			affine += sd.Stats.TTWUMoveAffine
		}
	}
	m := s.Metrics()
	if count != m.Wakeups || local+remote != count || affine == 0 {
		t.Fatalf("ttwu_count %d (wake-ups %d), local %d + remote %d, move_affine %d", count, m.Wakeups, local, remote, affine)
	}
}
