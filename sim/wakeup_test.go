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
		s.busyMask.Set(c)
	}
}

// TestScheduleBalanceMap works patch 3/3's wake-up order (seed 003) by hand
// on the small machine (cores {0,4} {1,5} {2,6} {3,7}, one LLC), v3.8 with
// the v3.8 select_idle_sibling(). The waker runs on cpu0, the wakee last
// ran on cpu3; busy() leaves every load at 0, so wake_affine() agrees
// unless a test loads cpu0.
func TestScheduleBalanceMap(t *testing.T) {
	cases := []struct {
		name      string
		busy      []int
		heavyThis bool // cpu0 carries ten tasks' load: wake_affine() refuses
		sbm       bool
		want      int
		path      string
	}{
		// prev idle: select_idle_sibling(p, 3) returns 3 before wake_affine().
		{"prev idle", []int{0}, false, true, 3, "select_task_rq_fair(sbm): select_idle_sibling(prev)"},
		// Everything but cpu4 busy. Near prev: 3 busy, core {3,7} holds the
		// target (skipped), no other all-idle core, SMT {7} busy -> 3, not
		// idle. Near the waker: core {0,4} holds cpu0 (skipped); SMT level
		// of cpu0: {4} all idle -> 4, and wake_affine agrees.
		{"idle near the waker", []int{0, 1, 2, 3, 5, 6, 7}, false, true, 4, "select_task_rq_fair(sbm): select_idle_sibling(waker), wake_affine agrees"},
		// The same, but wake_affine refuses: balance path, no SD_BALANCE_WAKE
		// level -> prev.
		{"wake_affine refuses", []int{0, 1, 2, 3, 5, 6, 7}, true, true, 3, "select_task_rq_fair(sbm): balance path"},
		// All busy: no idle CPU anywhere -> prev 3 ...
		{"all busy", []int{0, 1, 2, 3, 4, 5, 6, 7}, false, true, 3, "select_task_rq_fair(sbm): balance path"},
		// ... where stock 3.8 lets wake_affine() pull the wakee onto the
		// waker's CPU: target 0, nothing idle -> 0 (the 1:N stacking).
		{"all busy, stock 3.8", []int{0, 1, 2, 3, 4, 5, 6, 7}, false, false, 0, "select_idle_sibling(v3.8)"},
	}
	for _, c := range cases {
		s := smallSim(t, BaseV38, SISV38)
		if c.sbm {
			s.feat |= 1 << FeatSchedBalanceMap
		}
		busy(s, c.busy...)
		if c.heavyThis {
			s.cpus[0].loadWeight = 10 * 1024
			for i := range s.cpus[0].cpuLoad {
				s.cpus[0].cpuLoad[i] = 10 * 1024
			}
		}
		p := s.tasks[0]
		p.cpu = 3
		got, d := s.selectTaskRQ(p, 0, 3, false, s.tasks[1], SDBalanceWake)
		if got != c.want || d.Path != c.path {
			t.Errorf("%s: cpu%d via %q, want cpu%d via %q", c.name, got, d.Path, c.want, c.path)
		}
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

// TestWakeAffine38WeighsTasksByLoadWeight works v3.8 wake_affine() by hand
// with runnable_load_avg as weighted_cpuload() (seed 002's patch): the CPUs'
// loads are averages, but the function weighs the waker and the wakee by
// se.load.weight (fair.c "weight = current->se.load.weight", "weight =
// p->se.load.weight"), not by their load_avg_contrib. MC imbalance_pct 125,
// so prev's side is scaled by 112; equal CPU power.
func TestWakeAffine38WeighsTasksByLoadWeight(t *testing.T) {
	s := smallSim(t, BaseV38, SISV36)
	s.lm = LoadRunnableAvg
	p, w := s.tasks[0], s.tasks[1]
	p.avg38.LoadAvgContrib = 100 // a wakee whose contribution decayed while it slept
	w.avg38.LoadAvgContrib = 300
	this, prev := 0, 1
	s.cpus[this].runnableLoadAvg = 300 // the waker's contribution
	s.cpus[prev].runnableLoadAvg = 1000
	var sd *SchedDomain
	for _, d := range s.cpus[this].domains {
		if d.Flags&SDWakeAffine != 0 && d.Span.Has(prev) {
			sd = d
			break
		}
	}
	// Not sync: this_eff = 100*(300 + 1024) = 132400 > prev_eff =
	// 112*1000 = 112000: not balanced. (Weighing the wakee by its
	// contribution, 100*(300+100) = 40000, would have been.) Second test:
	// this_load 300 <= load 1000, but 300 + target_load(prev) 1000 = 1300 >
	// cpu_avg_load_per_task(this) = 300/1: not affine.
	d := s.newDecision("test", p, this)
	if s.wakeAffine38(sd, p, this, prev, false, w, d) {
		t.Errorf("non-sync: affine, want prev (this_eff 132400 > prev_eff 112000)")
	}
	// Sync, this CPU at 1200 with 2 tasks: this_load = 1200 - 1024 (the
	// waker's weight, not its contribution 300) = 176; this_eff =
	// 100*(176 + 1024) = 120000 > 112000: not balanced; 176 <= 1000 but
	// 176 + 1000 = 1176 > cpu_avg_load_per_task(this) = 1200/2 = 600: prev.
	// (With contributions: 1200 - 300 = 900, 100*(900 + 100) = 90000 <=
	// 112000: affine.)
	s.cpus[this].runnableLoadAvg = 1200
	s.cpus[this].nrRunning = 2
	d = s.newDecision("test", p, this)
	if s.wakeAffine38(sd, p, this, prev, true, w, d) {
		t.Errorf("sync, this 1200: affine, want prev (this_eff 120000 > prev_eff 112000)")
	}
	// Sync, this CPU at 300 (the waker alone): 300 - 1024 < 0: balanced,
	// affine.
	s.cpus[this].runnableLoadAvg = 300
	s.cpus[this].nrRunning = 1
	d = s.newDecision("test", p, this)
	if !s.wakeAffine38(sd, p, this, prev, true, w, d) {
		t.Errorf("sync, this 300: prev, want affine (this_load 300-1024 < 0)")
	}
}
