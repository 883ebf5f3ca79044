package sim

import "testing"

// TestCoreCState works the core's resolution of its threads' C-states by
// hand (Intel SDM vol. 3, "Power and Thermal Management": a core is in the
// shallowest C-state its logical processors request) on one socket of two
// cores of two threads (x86 numbering: cpu0 and cpu2 are core 0's threads,
// cpu1 and cpu3 core 1's), v3.8's default states POLL, C1 3/6 us, C1E 10/20
// us (package), C3 20/80 us, C6 200/800 us, and no governor multiplier. The
// thread's own request (idleStateOf: what idle_get_state() and the menu
// governor see) does not change; only the exit latency its wake-up pays.
func TestCoreCState(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 1e9,
		Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 2, HZ: 1000, Numbering: NumberX86, Costs: DefaultCosts()},
		Policy:  Policy{Base: BaseV38},
		Tasks:   []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1000}}}},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !s.topo.SMT[0].Has(2) || s.topo.SMT[0].Has(1) {
		t.Fatalf("cpu0's core is %v, want cpu0 and cpu2", s.topo.SMT[0])
	}
	s.now = 10e6
	const lag = 2000 // the wake-up's IPI lands 2 us from now
	set := func(cpu int, idleFor int64) {
		rq := s.cpus[cpu]
		rq.idleMult = 1
		rq.exiting = false
		switch {
		case idleFor >= 0:
			rq.idle = true
			rq.idleSince = s.now - idleFor
			s.busyMask.Clear(cpu)
		default:
			rq.idle = false
			s.busyMask.Set(cpu)
		}
	}
	cases := []struct {
		name       string
		cpu2       int64 // how long the sibling has idled; -1 = running, -2 = leaving idle
		readyAt    int64 // when the sibling's own exit ends (-2 only)
		wantOwn    string
		wantExit   int64
		cpu1, cpu3 int64 // the other core
	}{
		// cpu0 asked for C6 (idle 1 ms) but its sibling runs: the core is
		// in C0 and the wake-up pays no core exit.
		{"sibling running", -1, 0, "C6", 0, -1, -1},
		// The sibling idled 100 us (C3): the core is in C3, not C6.
		{"sibling in C3", 100_000, 0, "C6", 20_000, -1, -1},
		// The sibling idled 10 us (C1; C1E is the package's and core 1
		// runs): C1's 3 us.
		{"sibling in C1", 10_000, 0, "C6", 3000, -1, -1},
		// Both threads deep in C6: the core is in C6, the full 200 us.
		{"both in C6", 2_000_000, 0, "C6", 200_000, -1, -1},
		// The sibling is leaving C6 and is up 150 us from now: cpu0 waits
		// what is left of that exit after its own IPI lands, 148 us.
		{"sibling leaving C6", -2, 150_000, "C6", 148_000, -1, -1},
		// ...and if the sibling is up before the IPI lands, nothing.
		{"sibling up before the IPI", -2, 1000, "C6", 0, -1, -1},
		// The other core's threads do not matter.
		{"other core idle, sibling C6", 2_000_000, 0, "C6", 200_000, 5000, 5000},
	}
	for _, c := range cases {
		set(1, c.cpu1)
		set(3, c.cpu3)
		set(0, 1_000_000)
		if c.cpu2 == -2 {
			set(2, -1)
			s.cpus[2].exiting = true
			s.cpus[2].readyAt = s.now + c.readyAt
		} else {
			set(2, c.cpu2)
		}
		rq := s.cpus[0]
		st, own := s.idleExit(rq, s.now-rq.idleSince)
		if got := s.costs.IdleStates[st].Name; got != c.wantOwn {
			t.Errorf("%s: cpu0 requests %s, want %s", c.name, got, c.wantOwn)
		}
		if got := s.coreExit(rq, own, lag); got != c.wantExit {
			t.Errorf("%s: cpu0's wake-up pays %d ns of exit, want %d", c.name, got, c.wantExit)
		}
	}
}
