package sim

import (
	"slices"
	"strconv"
)

// CPUPlace is one online CPU of a machine given per CPU, as `lscpu -p` and
// /sys/devices/system/cpu/cpuN/topology describe it. The ids are the
// kernel's (any non-negative numbers; only equality matters), except ID,
// which must ascend along Machine.CPUs.
type CPUPlace struct {
	ID      int // the kernel's CPU number
	Core    int // core id: CPUs with equal (Node, Socket, LLC, Cluster, Core) are SMT siblings
	Cluster int // L2 cluster id, or -1: the core has its own L2 (no CLS level)
	LLC     int // last-level cache id
	Socket  int // physical package id
	Node    int // NUMA node id
}

// Node distances (include/linux/topology.h).
const (
	LocalDistance   = 10
	RemoteDistance  = 20
	ReclaimDistance = 30 // node_reclaim_distance (v5.4+; RECLAIM_DISTANCE in v3.8)
	MaxNodeDistance = 255
)

// newTopologyPerCPU lays out a machine given per CPU. Sharing follows the
// kernel's masks: an LLC never spans nodes (x86 topology_sane() cuts a
// sub-NUMA-clustered LLC at the node, so cpu_coregroup_mask stays inside
// cpumask_of_node), a cluster never spans LLCs, a core never spans
// clusters; ids are therefore compared as nested tuples.
func newTopologyPerCPU(m *Machine) (*Topology, error) {
	n := len(m.CPUs)
	if n > MaxCPUs {
		return nil, errorf("machine has %d CPUs; must be 1..%d", n, MaxCPUs)
	}
	t := &Topology{NCPU: n, CPU: make([]CPUTopo, n), ID: make([]int, n)}
	type key [6]int
	index := func(tab *[]key, k key) int {
		if i := slices.Index(*tab, k); i >= 0 {
			return i
		}
		*tab = append(*tab, k)
		return len(*tab) - 1
	}
	var nodeIDs []int
	for _, c := range m.CPUs {
		if c.Node < 0 || c.Socket < 0 || c.LLC < 0 || c.Core < 0 || c.Cluster < -1 {
			return nil, errorf("cpu %d: negative id", c.ID)
		}
		if !slices.Contains(nodeIDs, c.Node) {
			nodeIDs = append(nodeIDs, c.Node)
		}
	}
	slices.Sort(nodeIDs)
	var sockets, llcs, clusters, cores []key
	threads := map[int]int{} // core index -> threads so far; build-time only, never iterated
	for i, c := range m.CPUs {
		if c.ID < 0 || (i > 0 && c.ID <= m.CPUs[i-1].ID) {
			return nil, errorf("cpu ids must ascend (cpu %d)", c.ID)
		}
		t.ID[i] = c.ID
		node := slices.Index(nodeIDs, c.Node)
		socket := index(&sockets, key{c.Socket})
		llc := index(&llcs, key{c.Node, c.LLC})
		core := index(&cores, key{c.Node, c.LLC, c.Cluster, c.Socket, c.Core})
		cl := c.Cluster
		var cluster int
		if cl < 0 {
			cluster = index(&clusters, key{c.Node, c.LLC, -1, c.Socket, c.Core, 1})
		} else {
			cluster = index(&clusters, key{c.Node, c.LLC, cl})
		}
		th := threads[core]
		threads[core]++
		t.CPU[i] = CPUTopo{Node: node, Socket: socket, LLC: llc, Cluster: cluster, Core: core, Thread: th}
		t.MaxThreads = max(t.MaxThreads, th+1)
	}
	t.Nodes, t.Sockets, t.LLCs, t.Clusters, t.Cores = len(nodeIDs), len(sockets), len(llcs), len(clusters), len(cores)
	t.HasClusters = t.Clusters < t.Cores
	t.NodeID = nodeIDs
	t.masks()

	// The distance table.
	nn := len(nodeIDs)
	d := m.NUMADistance
	if d == nil {
		d = make([][]int, nn)
		for i := range d {
			d[i] = make([]int, nn)
			for j := range d[i] {
				d[i][j] = RemoteDistance
				if i == j {
					d[i][j] = LocalDistance
				}
			}
		}
	}
	if len(d) != nn {
		return nil, errorf("numa distance table has %d rows; the machine has %d nodes", len(d), nn)
	}
	for i := range d {
		if len(d[i]) != nn {
			return nil, errorf("numa distance row %d has %d entries; the machine has %d nodes", i, len(d[i]), nn)
		}
		for j := range d[i] {
			v := d[i][j]
			switch {
			case i == j && v != LocalDistance:
				return nil, errorf("numa distance of node %d to itself is %d; must be %d", nodeIDs[i], v, LocalDistance)
			case i != j && (v <= LocalDistance || v > MaxNodeDistance):
				return nil, errorf("numa distance %d between nodes %d and %d: must be %d..%d", v, nodeIDs[i], nodeIDs[j], LocalDistance+1, MaxNodeDistance)
			case d[j][i] != v:
				return nil, errorf("numa distance table is not symmetric (nodes %d and %d)", nodeIDs[i], nodeIDs[j])
			}
			if i != j && !slices.Contains(t.NUMADists, v) {
				t.NUMADists = append(t.NUMADists, v)
			}
		}
	}
	slices.Sort(t.NUMADists)
	t.NodeDist = d
	return t, nil
}

// numaSpan is sched_domains_numa_masks[level][node(cpu)] (sched_init_numa(),
// kernel/sched/topology.c): the CPUs of every node at most
// t.NUMADists[level] away from cpu's node.
func (t *Topology) numaSpan(level, cpu int) CPUMask {
	var span CPUMask
	dist := t.NUMADists[level]
	row := t.NodeDist[t.CPU[cpu].Node]
	for c := 0; c < t.NCPU; c++ {
		if row[t.CPU[c].Node] <= dist {
			span.Set(c)
		}
	}
	return span
}

// KernelMaskHex prints mask m (of simulated CPUs) as /proc/schedstat does
// on the machine: over the kernel's CPU numbers (Topology.ID) for a
// machine given per CPU, else as CPUMask.HexString.
func (t *Topology) KernelMaskHex(m CPUMask) string {
	if !t.Irregular() {
		return m.HexString(t.NCPU)
	}
	nbits := t.ID[len(t.ID)-1] + 1
	words := make([]uint32, (nbits+31)/32)
	for c := m.First(); c >= 0; c = m.Next(c) {
		id := t.ID[c]
		words[id/32] |= 1 << (id % 32)
	}
	var b []byte
	chunk := nbits % 32
	if chunk == 0 {
		chunk = 32
	}
	for i := len(words) - 1; i >= 0; i-- {
		if len(b) > 0 {
			b = append(b, ',')
		}
		s := strconv.FormatUint(uint64(words[i]), 16)
		for w := (chunk + 3) / 4; len(s) < w; w-- {
			b = append(b, '0')
		}
		b = append(b, s...)
		chunk = 32
	}
	return string(b)
}
