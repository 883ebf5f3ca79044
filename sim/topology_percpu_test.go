package sim

import (
	"fmt"
	"strings"
	"testing"
)

// perCPU builds domains for a machine given per CPU: nodes of cpn CPUs each
// (one core per CPU, one LLC per node), CPU ids from ids (nil: 0..n-1).
func perCPUMachine(nodes, cpn int, dist [][]int, ids []int) Machine {
	m := Machine{HZ: 1000, NUMADistance: dist}
	for i := 0; i < nodes*cpn; i++ {
		id := i
		if ids != nil {
			id = ids[i]
		}
		node := i / cpn
		m.CPUs = append(m.CPUs, CPUPlace{ID: id, Core: i, Cluster: -1, LLC: node, Socket: node, Node: node})
	}
	return m
}

// buildPerCPU builds m's topology and every CPU's domains (a machine given
// per CPU, or a regular one by its counts).
func buildPerCPU(t *testing.T, m Machine, base Base) (*Topology, [][]*SchedDomain) {
	t.Helper()
	topo, err := NewTopology(&m)
	if err != nil {
		t.Fatal(err)
	}
	capacity := make([]int64, topo.NCPU)
	for i := range capacity {
		capacity[i] = 1024
	}
	p := Policy{Base: base}
	d, _ := buildDomains(topo, m.Nodes, base, &p, capacity)
	return topo, d
}

func chainText(chain []*SchedDomain) string {
	var b strings.Builder
	for _, sd := range chain {
		fmt.Fprintf(&b, "%s", sd.Level)
		if sd.NUMADistance > 0 {
			fmt.Fprintf(&b, "%d", sd.NUMADistance)
		}
		fmt.Fprintf(&b, "%s:", sd.Span.String())
		for i, g := range sd.Groups {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(g.Span.String())
		}
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

// Two sockets of four nodes each (EPYC 7451 in NPS4: SLIT 10 within a
// node, 16 within the socket, 32 across): the kernel builds NODE, then
// NUMA at 16 (the socket) and NUMA at 32 (the machine); beyond
// RECLAIM_DISTANCE the top level loses EXEC, FORK and WAKE_AFFINE.
func TestPerCPUTwoNUMALevels(t *testing.T) {
	d := socketSLIT(8, 4)
	for _, base := range []Base{BaseV617, BaseV38} {
		topo, doms := buildPerCPU(t, perCPUMachine(8, 2, d, nil), base)
		if got, want := fmt.Sprint(topo.NUMADists), "[16 32]"; got != want {
			t.Fatalf("NUMA distances %s, want %s", got, want)
		}
		got := chainText(doms[2])
		want := "MC2-3:2|3 NUMA160-7:2-3|4-5|6-7|0-1 NUMA320-15:0-7|8-15"
		if got != want {
			t.Errorf("base %d cpu2 domains\n got %s\nwant %s", base, got, want)
		}
		n16, n32 := doms[2][1], doms[2][2]
		if !n16.HasFlag(SDWakeAffine) || !n16.HasFlag(SDBalanceFork) {
			t.Errorf("base %d: NUMA at 16 lacks WAKE_AFFINE/FORK: %s", base, n16.Flags)
		}
		if n32.HasFlag(SDWakeAffine) || n32.HasFlag(SDBalanceExec) || n32.HasFlag(SDBalanceFork) {
			t.Errorf("base %d: NUMA at 32 > RECLAIM_DISTANCE keeps %s", base, n32.Flags)
		}
		if !n32.HasFlag(SDOverlap) || !n32.HasFlag(SDNuma) || !n32.HasFlag(SDSerialize) {
			t.Errorf("base %d: NUMA flags %s", base, n32.Flags)
		}
	}
}

// A ring of four nodes (0-1-2-3-0 at 20, opposite nodes at 30): the level
// at 20 spans a node and its two neighbours, different for every node, and
// the level at 30 has overlapping groups, as build_overlap_sched_groups()
// makes them (the neighbourhoods of node 0 and node 2).
func TestPerCPUOverlappingGroups(t *testing.T) {
	d := [][]int{{10, 20, 30, 20}, {20, 10, 20, 30}, {30, 20, 10, 20}, {20, 30, 20, 10}}
	_, doms := buildPerCPU(t, perCPUMachine(4, 1, d, nil), BaseV617)
	want := []string{
		"NUMA200-1,3:0|1|3 NUMA300-3:0-1,3|1-3",
		"NUMA200-2:1|2|0 NUMA300-3:0-2|0,2-3",
		"NUMA201-3:2|3|1 NUMA300-3:1-3|0-1,3",
		"NUMA200,2-3:3|0|2 NUMA300-3:0,2-3|0-2",
	}
	for c := range 4 {
		if got := chainText(doms[c]); got != want[c] {
			t.Errorf("cpu%d\n got %s\nwant %s", c, got, want[c])
		}
	}
}

// Offline CPUs are not simulated; the others keep their numbers as labels.
// Sharing per CPU follows the ids: SMT siblings, clusters, LLC cut at the
// node.
func TestPerCPUSharing(t *testing.T) {
	m := Machine{HZ: 1000, CPUs: []CPUPlace{
		{ID: 0, Core: 0, Cluster: 0, LLC: 0, Node: 0},
		{ID: 1, Core: 0, Cluster: 0, LLC: 0, Node: 0},
		{ID: 2, Core: 1, Cluster: 0, LLC: 0, Node: 0},
		{ID: 5, Core: 2, Cluster: 1, LLC: 0, Node: 0},
		{ID: 6, Core: 3, Cluster: 2, LLC: 0, Node: 1}, // SNC: same LLC id, other node
	}}
	topo, doms := buildPerCPU(t, m, BaseV617)
	if topo.NCPU != 5 || topo.Label(3) != 5 || topo.Label(4) != 6 {
		t.Fatalf("ncpu %d labels %v", topo.NCPU, topo.ID)
	}
	checks := []struct {
		name string
		mask []CPUMask
		cpu  int
		want string
	}{
		{"smt", topo.SMT, 0, "0-1"}, {"smt", topo.SMT, 2, "2"}, {"cluster", topo.Cluster, 2, "0-2"},
		{"llc", topo.LLC, 3, "0-3"}, {"llc", topo.LLC, 4, "4"}, {"node", topo.Node, 4, "4"},
	}
	for _, c := range checks {
		if got := c.mask[c.cpu].String(); got != c.want {
			t.Errorf("%s of cpu%d: %s, want %s", c.name, c.cpu, got, c.want)
		}
	}
	if got, want := chainText(doms[0]), "SMT0-1:0|1 CLS0-2:0-1|2 MC0-3:0-2|3 NUMA200-4:0-3|4"; got != want {
		t.Errorf("cpu0\n got %s\nwant %s", got, want)
	}
	if topo.MaxThreads != 2 || !topo.HasClusters {
		t.Errorf("max threads %d, clusters %v", topo.MaxThreads, topo.HasClusters)
	}
}

func TestPerCPUErrors(t *testing.T) {
	for _, c := range []struct {
		m    Machine
		want string
	}{
		{perCPUMachine(2, 1, [][]int{{10, 20}, {21, 10}}, nil), "not symmetric"},
		{perCPUMachine(2, 1, [][]int{{10, 20}}, nil), "has 1 rows"},
		{perCPUMachine(2, 1, [][]int{{11, 20}, {20, 10}}, nil), "to itself"},
		{perCPUMachine(2, 1, nil, []int{3, 3}), "ascend"},
	} {
		_, err := NewTopology(&c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// socketSLIT is the node distance table of sockets of perSocket nodes
// each: 10 within a node, 16 within the socket, 32 across.
func socketSLIT(nodes, perSocket int) [][]int {
	d := make([][]int, nodes)
	for i := range d {
		d[i] = make([]int, nodes)
		for j := range d[i] {
			switch {
			case i == j:
				d[i][j] = 10
			case i/perSocket == j/perSocket:
				d[i][j] = 16
			default:
				d[i][j] = 32
			}
		}
	}
	return d
}

// TestImbNumaNr: sd->imb_numa_nr as v6.17 build_sched_domains() computes
// it, worked by hand. The first domain above the LLC (PKG: the node) sets
// imb: the node's CPUs / 8 when the node is one LLC, else its number of
// LLCs (at least 1); every domain above gets imb times its span over the
// first NUMA domain's span.
func TestImbNumaNr(t *testing.T) {
	regular := func(nodes, llcs, cores, threads int) Machine {
		return Machine{Nodes: nodes, SocketsPerNode: 1, LLCsPerSocket: llcs, ClustersPerLLC: 1, CoresPerCluster: cores, ThreadsPerCore: threads, HZ: 1000}
	}
	cases := []struct {
		name  string
		m     Machine
		level []int // imb_numa_nr of each domain of cpu0's chain, bottom up
	}{
		// Westmere-EX, 4 nodes of one 20-CPU LLC: imb = 20 >> 3 = 2;
		// SMT and MC are below PKG (0).
		{"4x10x2, one LLC a node", regular(4, 1, 10, 2), []int{0, 0, 2}},
		// A node of 4 LLCs of 8 CPUs (PKG survives degeneration): imb =
		// nr_llcs = 4 at PKG and at the NUMA domain (span 64 / 64).
		{"2 nodes of 4 LLCs", regular(2, 4, 8, 1), []int{0, 4, 4}},
		// A 4-CPU node: 4 >> 3 = 0, raised to 1.
		{"2 nodes of 4 CPUs", regular(2, 1, 4, 1), []int{0, 1}},
		// Two sockets of two 64-CPU nodes: imb = 64 >> 3 = 8; NUMA at 16
		// spans 128 CPUs (imb_span), so it gets 8, and NUMA at 32 (256
		// CPUs) 8 * 256/128 = 16. The approximation this replaced read the
		// child's LLC count instead (128/64 = 2 at the top level).
		{"two NUMA levels", perCPUMachine(4, 64, socketSLIT(4, 2), nil), []int{0, 8, 16}},
	}
	for _, c := range cases {
		_, doms := buildPerCPU(t, c.m, BaseV617)
		var got []int
		for _, sd := range doms[0] {
			got = append(got, sd.ImbNumaNr)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.level) {
			t.Errorf("%s: cpu0 imb_numa_nr by level %v, want %v (domains %s)", c.name, got, c.level, chainText(doms[0]))
		}
	}
}
