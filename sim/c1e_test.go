package sim

import "testing"

// TestC1EPackageState works the package-wide C1E by hand (Nehalem/Westmere:
// MSR_POWER_CTL "C1E Enable" drops the package to its minimum voltage only
// when every core is in C1) on two sockets of two single-thread cores
// (socket 0 = cpu0-1, socket 1 = cpu2-3) with the default states POLL, C1
// 3/6 us, C1E 10/20 us (package), C3 20/80 us, C6 200/800 us.
func TestC1EPackageState(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 1e9,
		Machine: Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: NumberX86, Costs: DefaultCosts()},
		Policy:  Policy{Base: BaseV38},
		Tasks:   []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1000}}}},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.now = 10e6
	name := func(st int) string {
		if st < 0 {
			return "none"
		}
		return s.costs.IdleStates[st].Name
	}
	set := func(cpu int, idleFor int64) { // idleFor < 0: running
		rq := s.cpus[cpu]
		rq.idle = idleFor >= 0
		if idleFor >= 0 {
			rq.idleSince = s.now - idleFor
			s.busyMask.Clear(cpu) // busyMask is !rq.idle (CheckInvariants)
		} else {
			s.busyMask.Set(cpu)
		}
	}
	cases := []struct {
		name          string
		cpu0, cpu2    int64 // how long cpu0 (same package as cpu1) and cpu2 (other package) have idled; -1 = busy
		cpu1For       int64
		want          string
		wantExitLatNS int64
	}{
		// cpu1 idled 30 us, past C1E's 20 us, but cpu0 runs: plain C1.
		{"other core busy", -1, 1e6, 30_000, "C1", 3000},
		// The whole package idle for 25 us: C1E.
		{"package idle 25us", 25_000, -1, 30_000, "C1E", 10000},
		// cpu0 went idle only 10 us ago: the package has been idle 10 us.
		{"package idle 10us", 10_000, 1e6, 30_000, "C1", 3000},
		// C3 and C6 are core states: reached whatever the package does.
		{"C3 beside a busy core", -1, -1, 100_000, "C3", 20000},
		{"C6 beside a busy core", -1, -1, 1_000_000, "C6", 200000},
		// Below C1's residency nothing changes.
		{"POLL", -1, -1, 4_000, "POLL", 0},
	}
	for _, c := range cases {
		set(0, c.cpu0)
		set(2, c.cpu2)
		set(3, 1e6)
		set(1, c.cpu1For)
		st := s.idleStateOf(s.cpus[1], c.cpu1For)
		if got := name(st); got != c.want {
			t.Errorf("%s: cpu1 in %s, want %s", c.name, got, c.want)
			continue
		}
		if got := s.costs.IdleStates[st].ExitLatency; got != c.wantExitLatNS {
			t.Errorf("%s: exit %d ns, want %d", c.name, got, c.wantExitLatNS)
		}
	}
}
