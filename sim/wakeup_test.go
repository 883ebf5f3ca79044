package sim

import "testing"

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
		for _, g := range s.cpuGroups[c] {
			g.NrBusy++
		}
	}
}

func wake(s *Sim, p *Task, this, prev, target int) (int, *Decision) {
	p.cpu = prev
	d := s.newDecision("test", p, this)
	return s.selectIdleSibling(p, prev, target, d), d
}

// TestSelectIdleSibling derives each variant's choice by hand. In every case
// the waker runs on cpu0 (busy), wake_affine chose target cpu0, and the
// wakee last ran on cpu3.
func TestSelectIdleSibling(t *testing.T) {
	cases := []struct {
		name  string
		base  Base
		sis   SIS
		busy  []int
		clear bool // has_idle_cores false
		want  int
	}{
		// v3.6: target==this but cpu0 busy; target!=prev; top-down from
		// cpu0's MC groups: core{0,4} has a busy CPU, core{1,5} is all idle
		// -> its first CPU, 1. The idle prev (3) is not even considered.
		{"v3.6 next idle core", BaseV38, SISV36, []int{0}, false, 1},
		// v3.8: prev 3 is idle and shares the LLC -> 3.
		{"v3.8 prev idle", BaseV38, SISV38, []int{0}, false, 3},
		// v3.8 with prev busy: core{0,4} holds target (skipped), core{1,5}
		// all idle -> 1.
		{"v3.8 prev busy", BaseV38, SISV38, []int{0, 3}, false, 1},
		// v3.6 with cores 1..3 each half busy: no fully idle core at MC;
		// SMT level of cpu0: group {0} busy, {4} idle -> 4.
		{"v3.6 SMT level", BaseV38, SISV36, []int{0, 1, 2, 3}, false, 4},
		// buddies: cpu0's MC buddy is cpu1 (core 1 pairs with core 0) -> 1.
		{"buddies MC buddy", BaseV38, SISBuddies, []int{0}, false, 1},
		// cpu1 busy: the SMT buddy of cpu0, cpu4 -> 4.
		{"buddies SMT buddy", BaseV38, SISBuddies, []int{0, 1}, false, 4},
		// both buddies busy: no further search -> target 0, although 2, 3,
		// 5, 6, 7 are idle.
		{"buddies busy", BaseV38, SISBuddies, []int{0, 1, 4}, false, 0},
		// bottom-up: prev 3 idle and cache-affine -> 3.
		{"bottom-up prev", BaseV38, SISBottomUp, []int{0}, false, 3},
		// prev busy: SMT level first: {0} busy, {4} idle -> 4 (an idle
		// sibling beats an idle core, as Namhyung Kim noticed).
		{"bottom-up sibling", BaseV38, SISBottomUp, []int{0, 3}, false, 4},
		// sis_util: prev 3 idle -> 3.
		{"sis_util prev", BaseV617, SISUtil, []int{0}, false, 3},
		// prev busy, has_idle_cores: scan from target+1 for an idle core:
		// core of cpu1 = {1,5} idle -> 1.
		{"sis_util idle core", BaseV617, SISUtil, []int{0, 3}, false, 1},
		// no idle cores known: select_idle_smt(prev=3) -> its sibling 7.
		{"sis_util smt of prev", BaseV617, SISUtil, []int{0, 3}, true, 7},
		{"off", BaseV38, SISOff, []int{0}, false, 0},
	}
	for _, c := range cases {
		s := smallSim(t, c.base, c.sis)
		busy(s, c.busy...)
		if c.clear {
			s.cpus[0].llc.hasIdleCores = false
		}
		got, d := wake(s, s.tasks[0], 0, 3, 0)
		if got != c.want {
			t.Errorf("%s: cpu%d (%s), want cpu%d", c.name, got, d.Reason, c.want)
		}
	}
}

// TestV36Walk: a 1:1 pair under v3.6 walks core to core: each wake-up finds
// the next fully idle core after the waker's.
func TestV36Walk(t *testing.T) {
	s := smallSim(t, BaseV38, SISV36)
	p := s.tasks[0]
	waker := 0
	var path []int
	for i := 0; i < 4; i++ {
		busy(s, waker)
		got, _ := wake(s, p, waker, waker, waker)
		path = append(path, got)
		s.cpus[waker].idle = true // the waker sleeps after its sync wake-up
		for _, g := range s.cpuGroups[waker] {
			g.NrBusy--
		}
		waker = got
	}
	if !equalInts(path, []int{1, 2, 3, 0}) {
		t.Fatalf("walk %v, want [1 2 3 0]", path)
	}
}

// TestWakeAffine38 works v3.8 wake_affine() by hand (load.weight metric,
// wake_idx 0, imbalance_pct 125, equal CPU power).
func TestWakeAffine38(t *testing.T) {
	s := smallSim(t, BaseV38, SISV36)
	p, waker := s.tasks[0], s.tasks[1]
	sd := s.cpus[0].domains[1] // MC
	// cpu0 runs the waker (1024); prev cpu1 is empty.
	s.cpus[0].loadWeight, s.cpus[0].nrRunning = 1024, 1
	// sync: this_load = 1024 - 1024 = 0 -> balanced -> affine.
	if !s.wakeAffine38(sd, p, 0, 1, true, waker, s.newDecision("t", p, 0)) {
		t.Error("sync wake-up of an idle prev must be affine when the waker sleeps")
	}
	// not sync: this_eff = 100*cap*(1024+1024) > prev_eff = 112*cap*0, and
	// this_load 1024 > load 0 -> not affine.
	if s.wakeAffine38(sd, p, 0, 1, false, waker, s.newDecision("t", p, 0)) {
		t.Error("a non-sync wake-up must stay on the idle prev")
	}
	// prev carries 3 tasks: this_eff = 100*(1024+1024) <= 112*3072 -> affine.
	s.cpus[1].loadWeight, s.cpus[1].nrRunning = 3072, 3
	if !s.wakeAffine38(sd, p, 0, 1, false, waker, s.newDecision("t", p, 0)) {
		t.Error("a heavily loaded prev must lose the wakee")
	}
}

// TestFork38SiblingTie: v3.8 fork balancing from cpu0, which carries two
// tasks. MC: core{0,4} load 2048*1024/1178 vs the others 0 -> idlest core
// {1,5}; find_idlest_cpu -> 1 (first of equals). Then SMT of cpu1: local
// {1} load 0, {5} load 0: 100*0 < 105*0 is false, so the sibling group is
// taken and the task lands on cpu5 (ties move on in 3.8).
func TestFork38SiblingTie(t *testing.T) {
	s := smallSim(t, BaseV38, SISV36)
	s.cpus[0].loadWeight, s.cpus[0].nrRunning = 2048, 2
	p := s.tasks[0]
	got, d := s.selectTaskRQ(p, 0, 0, false, nil, true)
	if got != 5 {
		t.Fatalf("fork placed on cpu%d (%s), want 5", got, d.Text(s.TaskName))
	}
}
