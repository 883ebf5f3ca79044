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
		s.updIdleMask(rq)
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
		s.updIdleMask(s.cpus[waker])
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
	got, d := s.selectTaskRQ(p, 0, 0, false, nil, SDBalanceFork)
	if got != 5 {
		t.Fatalf("fork placed on cpu%d (%s), want 5", got, d.Text(s.TaskName))
	}
}

// TestWakeAffine617 works v6.17 wake_affine() by hand (WA_IDLE, WA_WEIGHT,
// WA_BIAS; cpu_load = PELT load_avg).
func TestWakeAffine617(t *testing.T) {
	s := smallSim(t, BaseV617, SISUtil)
	p, waker := s.tasks[0], s.tasks[1]
	sd := s.cpus[0].domains[1]
	d := func() *Decision { return s.newDecision("t", p, 0) }
	// this (cpu0) runs the waker; prev (cpu1) idle: wake_affine_idle ->
	// not sync -> prev idle -> prev.
	busy(s, 0)
	s.cpus[0].nrRunning = 1
	if got := s.wakeAffine617(sd, p, 0, 1, false, waker, d()); got != 1 {
		t.Errorf("idle prev: chose cpu%d, want prev cpu1", got)
	}
	// sync and the waker alone on this CPU -> this.
	if got := s.wakeAffine617(sd, p, 0, 1, true, waker, d()); got != 0 {
		t.Errorf("sync with one running task: chose cpu%d, want cpu0", got)
	}
	// prev busy too; not sync: wake_affine_weight.
	// this_eff = (1024 + 512) * 100 * 1024; prev_eff = (2048 - 512) * 108 * 1024
	// -> 1536*100 < 1536*108 -> this.
	busy(s, 1)
	s.cpus[0].cfsAvg.LoadAvg, s.cpus[1].cfsAvg.LoadAvg = 1024, 2048
	p.avg.LoadAvg = 512
	if got := s.wakeAffine617(sd, p, 0, 1, false, waker, d()); got != 0 {
		t.Errorf("prev twice as loaded: chose cpu%d, want cpu0", got)
	}
	// prev lighter: this_eff = (2048+512)*100 > prev_eff = (1024-512)*108 -> prev.
	s.cpus[0].cfsAvg.LoadAvg, s.cpus[1].cfsAvg.LoadAvg = 2048, 1024
	if got := s.wakeAffine617(sd, p, 0, 1, false, waker, d()); got != 1 {
		t.Errorf("this twice as loaded: chose cpu%d, want prev cpu1", got)
	}
}

// TestWakeWide: a waker that switches between more wakees than the LLC has
// CPUs, each of which does the same, is wide; a 1:1 pair never is.
func TestWakeWide(t *testing.T) {
	s := smallSim(t, BaseV617, SISUtil) // LLC of 8 CPUs
	a, b := s.tasks[0], s.tasks[1]
	for i := 0; i < 100; i++ {
		s.recordWakee(a, b)
	}
	if a.wakeeFlips != 1 || s.wakeWide(a, b, 0) {
		t.Fatalf("1:1: %d flips, wide=%v", a.wakeeFlips, s.wakeWide(a, b, 0))
	}
	a.wakeeFlips, b.wakeeFlips = 64, 8 // master >= slave*8, slave >= 8
	if !s.wakeWide(a, b, 0) {
		t.Error("64/8 flips on an 8-CPU LLC should be wide")
	}
	b.wakeeFlips = 7
	if s.wakeWide(a, b, 0) {
		t.Error("slave below the LLC size is not wide")
	}
}

// TestBalanceWakeSlowPath: with SD_BALANCE_WAKE on MC and wake_wide() true
// (no affine domain), v6.17 takes find_idlest_cpu(); with v3.8 and
// SD_BALANCE_WAKE in sd_llc, Preeti's path searches for the idlest group.
func TestBalanceWakeSlowPath(t *testing.T) {
	s := smallSim(t, BaseV617, SISUtil)
	s.cpus[0].domains[1].Flags |= SDBalanceWake
	s.cpus[0].domains[0].Flags |= SDBalanceWake
	p, waker := s.tasks[0], s.tasks[1]
	waker.wakeeFlips, p.wakeeFlips = 100, 10 // wide
	busy(s, 0, 3)
	p.cpu = 3
	got, d := s.selectTaskRQ(p, 0, 3, false, waker, SDBalanceWake)
	if d.Path != "select_task_rq_fair(wake): find_idlest_cpu" || got == 0 || got == 3 || !s.idleCPU(got) {
		t.Fatalf("wide wake-up with SD_BALANCE_WAKE: cpu%d via %q (%s)", got, d.Path, d.Reason)
	}
	s38 := smallSim(t, BaseV38, SISV36)
	for _, sd := range s38.cpus[0].domains {
		sd.Flags |= SDBalanceWake
	}
	busy(s38, 0, 3)
	p = s38.tasks[0]
	p.cpu = 3
	got, d = s38.selectTaskRQ(p, 0, 3, true, s38.tasks[1], SDBalanceWake)
	if d.Path != "find_idlest_group(SD_BALANCE_WAKE in sd_llc)" || !s38.idleCPU(got) {
		t.Fatalf("v3.8 SD_BALANCE_WAKE: cpu%d via %q", got, d.Path)
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
