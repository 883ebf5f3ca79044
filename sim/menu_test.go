package sim

import "testing"

// TestMenuPerformanceMultiplier works the 3.x menu governor's performance
// multiplier by hand (drivers/cpuidle/governors/menu.c, v3.6):
// performance_multiplier() = 1 + 2*get_loadavg(), get_loadavg() =
// LOAD_INT(l)*10 + LOAD_FRAC(l)/10 of l = this_cpu_load() = cpu_load[0]
// (FSHIFT 11), and menu_select() passes over a state whose exit latency
// times it exceeds the predicted idle time, except C1, its default.
func TestMenuPerformanceMultiplier(t *testing.T) {
	for _, c := range []struct {
		load uint64
		want int64
	}{
		{0, 1},
		{512, 5},     // LOAD_FRAC = 51200>>11 = 25, /10 = 2: 1 + 2*2
		{1024, 11},   // one nice-0 task at the last tick: 0*10 + 50/10 = 5
		{2048, 21},   // two: LOAD_INT 1, so 10
		{3072, 31},   // 10 + 50/10
		{88761, 867}, // a nice -20 task: LOAD_INT 43 (430), LOAD_FRAC 697*100>>11 = 34 (3)
	} {
		if got := menuPerfMult(c.load); got != c.want {
			t.Errorf("cpu_load[0] %d: multiplier %d, want %d", c.load, got, c.want)
		}
	}

	// Two sockets of two single-thread cores, default states: POLL, C1
	// 3/6 us, C1E 10/20 us (package), C3 20/80 us, C6 200/800 us. cpu1's
	// whole package (cpu0, cpu1) is idle, so C1E is open to it.
	for _, base := range []Base{BaseV38, BaseV617} {
		cfg := &Config{Seed: 1, Duration: 1e9,
			Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: DefaultCosts()},
			Policy:  Policy{Base: base},
			Tasks:   []TaskGroup{{Name: "p", Count: 1, CPUs: MaskOf(3), Program: []Step{{Op: OpRun, Dur: 1000}}}},
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rq := s.cpus[1]
		s.now = 10e6
		s.cpus[0].idleSince = 0
		rq.idleSince = 0
		// The multiplier is taken at idle entry, from cpu_load[0] then.
		rq.cpuLoad[0] = 1024
		rq.idle = false
		s.goIdle(rq, nil)
		wantMult := int64(11)
		if base == BaseV617 {
			wantMult = 1 // v6.17's menu has no load term
		}
		if rq.idleMult != wantMult {
			t.Fatalf("%s: idle entry with cpu_load[0] 1024: multiplier %d, want %d", s.era.name, rq.idleMult, wantMult)
		}
		rq.cpuLoad[0] = 0 // a later cpu_load change does not re-choose
		s.cpus[0].idleSince = rq.idleSince - 1e6
		for _, c := range []struct {
			idleFor int64
			mult1   string // multiplier 1 (the target residency decides)
			mult11  string
		}{
			{4_000, "POLL", "POLL"}, // below C1's 6 us residency
			{8_000, "C1", "C1"},     // C1 is the default: no multiplier
			{19_999, "C1", "C1"},    // C1E's residency not met
			{20_000, "C1E", "C1"},   // C1E: 10 us x 11 = 110 us > 20 us
			{80_000, "C3", "C1"},    // C3's residency; not even C1E at x11
			{109_999, "C3", "C1"},   // one ns short of C1E's 110 us
			{110_000, "C3", "C1E"},  // exactly: exit*mult > predicted is false
			{219_999, "C3", "C1E"},  // one ns short of C3's 220 us
			{220_000, "C3", "C3"},
			{800_000, "C6", "C3"},   // C6's residency met, 200 us x 11 not
			{1_150_000, "C6", "C3"}, // two walking pairs a socket come back
			{2_199_999, "C6", "C3"}, // one ns short of 2.2 ms
			{2_200_000, "C6", "C6"},
			{2_300_000, "C6", "C6"},     // one walking pair a socket
			{1_000_000_000, "C6", "C6"}, // long idle
		} {
			want := c.mult1
			if wantMult == 11 {
				want = c.mult11
			}
			// The package has been idle as long as cpu1 has, or longer.
			s.cpus[0].idleSince = s.now - c.idleFor
			rq.idleSince = s.now - c.idleFor
			st := s.idleStateOf(rq, c.idleFor)
			got := "none"
			if st >= 0 {
				got = s.costs.IdleStates[st].Name
			}
			if got != want {
				t.Errorf("%s: idle %d ns with multiplier %d: %s, want %s", s.era.name, c.idleFor, rq.idleMult, got, want)
			}
		}
	}
}

// TestMenuMultiplierFromTheTick runs it end to end: a task runs 1.5 ms (the
// tick at 1 ms sees it: cpu_load[0] = 1024), sleeps 1 ms and wakes by its
// timer. Under 3.8 its CPU went idle with multiplier 11, so C6 (200 us exit,
// 800 us residency) needed 2.2 ms and the CPU waits in C3: 20 us. v6.17's
// governor has no load term: 1 ms idle is C6, 200 us. Both pay C6 at the
// start (the CPU idle since boot, multiplier 1).
func TestMenuMultiplierFromTheTick(t *testing.T) {
	for _, c := range []struct {
		base Base
		want int64
	}{{BaseV38, 200_000 + 20_000}, {BaseV617, 200_000 + 200_000}} {
		costs := DefaultCosts()
		costs.JitterPct = 0
		cfg := &Config{Seed: 1, Duration: 10e6,
			Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: costs},
			Policy:  Policy{Base: c.base},
			Tasks:   []TaskGroup{{Name: "p", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpRun, Dur: 1_500_000}, {Op: OpSleep, Dur: 1_000_000}, {Op: OpRun, Dur: 10_000}, {Op: OpSleep, Dur: 1e9}}}},
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		if got := s.m.cost.idleExit; got != c.want {
			t.Errorf("%s: %d ns of C-state exits, want %d", s.era.name, got, c.want)
		}
	}
}
