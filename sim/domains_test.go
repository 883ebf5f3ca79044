package sim

import (
	"testing"
)

func westmere(base Base) (*Topology, [][]*SchedDomain) {
	m := Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 10, ThreadsPerCore: 2, HZ: 1000, Numbering: NumberX86}
	t, err := NewTopology(&m)
	if err != nil {
		panic(err)
	}
	capacity := make([]int64, t.NCPU)
	for i := range capacity {
		capacity[i] = 1024
	}
	p := Policy{Base: base}
	d, _ := buildDomains(t, m.Nodes, base, &p, capacity)
	return t, d
}

func firsts(sd *SchedDomain) []int {
	var out []int
	for _, g := range sd.Groups {
		out = append(out, g.First)
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWestmereDomains: Mike Galbraith's 4x10x2 box with x86 numbering.
// cpu0 and cpu40 are SMT siblings; a socket is a node and an LLC, so PKG
// is degenerate (same span as MC) and the chain is SMT, MC, NUMA.
func TestWestmereDomains(t *testing.T) {
	topo, doms := westmere(BaseV38)
	if topo.NCPU != 80 || !topo.SMT[0].Has(40) || topo.SMT[0].Weight() != 2 {
		t.Fatalf("x86 numbering: SMT mask of cpu0 is %v", topo.SMT[0])
	}
	if topo.Distance(0, 40) != DistSMT || topo.Distance(0, 1) != DistLLC || topo.Distance(0, 10) != DistNUMA {
		t.Fatal("distances")
	}
	c0 := doms[0]
	if len(c0) != 3 || c0[0].Level != LevelSMT || c0[1].Level != LevelMC || c0[2].Level != LevelNUMA {
		t.Fatalf("cpu0 levels: %v", c0)
	}
	if c0[1].Span.String() != "0-9,40-49" || c0[2].Weight != 80 {
		t.Fatalf("spans: MC %v NUMA %d", c0[1].Span, c0[2].Weight)
	}
	// Groups start at the CPU's own group and go round in CPU order.
	if got := firsts(c0[1]); !equalInts(got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("cpu0 MC groups %v", got)
	}
	if got := firsts(doms[45][1]); !equalInts(got, []int{5, 6, 7, 8, 9, 0, 1, 2, 3, 4}) {
		t.Fatalf("cpu45 MC groups %v", got)
	}
	if got := firsts(doms[40][0]); !equalInts(got, []int{40, 0}) {
		t.Fatalf("cpu40 SMT groups %v", got)
	}
	if got := firsts(doms[25][2]); !equalInts(got, []int{20, 30, 0, 10}) {
		t.Fatalf("cpu25 NUMA groups %v", got)
	}
	// 3.8 tunables: SD_SIBLING_INIT, SD_MC_INIT, sd_numa_init.
	if c0[0].ImbalancePct != 110 || c0[0].BusyFactor != 64 || c0[0].MaxInterval != 2 {
		t.Fatalf("SMT tunables %+v", c0[0])
	}
	if c0[1].ImbalancePct != 125 || c0[1].CacheNiceTries != 1 || c0[1].BusyIdx != 2 || c0[1].Flags&SDBalanceWake != 0 {
		t.Fatalf("MC tunables %+v", c0[1])
	}
	if c0[2].MinInterval != 80 || c0[2].MaxInterval != 160 || c0[2].BusyFactor != 32 || c0[2].Flags&SDSerialize == 0 {
		t.Fatalf("NUMA tunables %+v", c0[2])
	}
	_, m := westmere(BaseV617)
	if m[0][0].ImbalancePct != 110 || m[0][1].ImbalancePct != 117 || m[0][1].MinInterval != 20 || m[0][1].BusyFactor != 16 {
		t.Fatalf("v6.17 tunables: SMT %d MC %d/%d/%d", m[0][0].ImbalancePct, m[0][1].ImbalancePct, m[0][1].MinInterval, m[0][1].BusyFactor)
	}
	if m[0][2].Flags&SDPreferSibling != 0 || m[0][1].Flags&SDPreferSibling == 0 || m[0][2].CacheNiceTries != 2 {
		t.Fatal("v6.17 NUMA flags")
	}
}

// TestIdleBuddies: groups pair up 1st<->2nd, 3rd<->4th, ...; an odd last
// group points left; SMT siblings are cross-wired.
func TestIdleBuddies(t *testing.T) {
	_, doms := westmere(BaseV38)
	for _, c := range []struct{ cpu, mc, smt int }{
		{0, 1, 40}, {40, 1, 0}, {1, 0, 41}, {41, 0, 1}, {8, 9, 48}, {9, 8, 49}, {13, 12, 53},
	} {
		llc := highestFlagDomain(doms[c.cpu], SDShareLLC)
		setIdleBuddies(llc)
		if llc.IdleBuddy != c.mc || llc.Child.IdleBuddy != c.smt {
			t.Errorf("cpu%d: MC buddy %d (want %d), SMT buddy %d (want %d)", c.cpu, llc.IdleBuddy, c.mc, llc.Child.IdleBuddy, c.smt)
		}
	}
	// Three cores: the last (odd) group points left.
	m := Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 3, ThreadsPerCore: 1, HZ: 1000}
	topo, _ := NewTopology(&m)
	p := Policy{}
	d, _ := buildDomains(topo, 1, BaseV38, &p, []int64{1024, 1024, 1024})
	want := []int{1, 0, 1}
	for cpu := 0; cpu < 3; cpu++ {
		setIdleBuddies(d[cpu][0])
		if d[cpu][0].IdleBuddy != want[cpu] {
			t.Errorf("3 cores: cpu%d buddy %d, want %d", cpu, d[cpu][0].IdleBuddy, want[cpu])
		}
	}
}

// TestClustersAndOverrides: clusters form a CLS level under MC; sd_flags
// and tunables override single values.
func TestClustersAndOverrides(t *testing.T) {
	m := Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 2, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000}
	topo, _ := NewTopology(&m)
	p := Policy{Base: BaseV617}
	p.SDFlags[LevelMC].Set = SDBalanceWake
	p.SDFlags[LevelCLS].Clear = SDWakeAffine
	p.Tunables[LevelMC].ImbalancePct = 125
	d, _ := buildDomains(topo, 1, BaseV617, &p, []int64{1024, 1024, 1024, 1024})
	c0 := d[0]
	if len(c0) != 2 || c0[0].Level != LevelCLS || c0[1].Level != LevelMC {
		t.Fatalf("levels %v %v", c0[0].Level, c0[1].Level)
	}
	if topo.Distance(0, 1) != DistCluster || topo.Distance(0, 2) != DistLLC {
		t.Fatal("cluster distances")
	}
	if c0[1].Flags&SDBalanceWake == 0 || c0[0].Flags&SDWakeAffine != 0 || c0[1].ImbalancePct != 125 {
		t.Fatalf("overrides not applied: %v / %v", c0[0].Flags, c0[1].Flags)
	}
	if got := firsts(c0[1]); !equalInts(got, []int{0, 2}) {
		t.Fatalf("MC groups are the clusters: %v", got)
	}
}

func TestCPUMask(t *testing.T) {
	m, err := ParseCPUList("0-3,8,10-11", 16)
	if err != nil || m.String() != "0-3,8,10-11" || m.Weight() != 7 {
		t.Fatalf("%v %v", m, err)
	}
	if m.NextWrap(11) != 0 || m.Next(3) != 8 {
		t.Fatal("iteration")
	}
	if _, err := ParseCPUList("0-16", 16); err == nil {
		t.Fatal("out of range accepted")
	}
	if MaskOf(0, 40).HexString(80) != "0000,00000100,00000001" || MaskOf(0, 1).HexString(4) != "3" {
		t.Fatalf("hex %s", MaskOf(0, 40).HexString(80))
	}
}

// TestMinIntervalOverride: policy.tunables' min_interval is the domain's
// min_interval alone, as a write of its sysctl is; the balance interval
// starts where the era's init put it. 2.6.8's SD_NODE_INIT starts it at 1 ms
// under a min_interval of 8, so an override of 8 ms, the level's own value,
// builds the same domain and gives the same run; 16 ms is another machine.
func TestMinIntervalOverride(t *testing.T) {
	cfg := func(minMS int64) *Config {
		p := Policy{Base: BaseV268}
		p.Tunables[LevelNUMA].MinInterval = minMS
		return &Config{Seed: 1, Duration: 200e6, Machine: machine(2, 1, 1, 2, 1, NumberLinear), Policy: p, Tasks: dutyCycle()}
	}
	s, err := New(cfg(8))
	if err != nil {
		t.Fatal(err)
	}
	numa := s.cpus[0].domains[len(s.cpus[0].domains)-1]
	if numa.Level != LevelNUMA || numa.MinInterval != 8 || numa.BalanceInterval != 1 {
		t.Fatalf("the NUMA domain with min_interval=8ms: level %v, min_interval %d, balance_interval %d; want NUMA, 8, 1 (SD_NODE_INIT's)",
			numa.Level, numa.MinInterval, numa.BalanceInterval)
	}
	def, _ := runHash(t, cfg(0))
	same, _ := runHash(t, cfg(8))
	other, _ := runHash(t, cfg(16))
	if same != def || other == def {
		t.Errorf("runs: the base's %s, min_interval=8ms %s (want the same), 16ms %s (want another)", def, same, other)
	}
}
