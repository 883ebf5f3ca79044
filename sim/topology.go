package sim

// CPUTopo is where one logical CPU sits. All indices are global (Core counts
// cores across the whole machine, LLC counts last-level caches, ...), except
// Thread, the SMT thread number within its core.
type CPUTopo struct {
	Node, Socket, LLC, Cluster, Core, Thread int
}

// Topology is the machine as the simulator sees it: CPU coordinates and the
// masks the kernel keeps per CPU (cpu_smt_mask, cpu_clustergroup_mask,
// cpu_coregroup_mask, cpumask_of_node).
//
// CPU numbering. With NumberLinear, CPU ids follow the hierarchy depth-first,
// so the threads of a core are adjacent. With NumberX86, ids are assigned as
// Linux enumerates x86 machines: first thread 0 of every core (in hierarchy
// order), then thread 1 of every core, ...; on 4 nodes x 10 cores x 2
// threads, cpu0 and cpu40 are the two threads of core 0.
type Topology struct {
	NCPU    int
	CPU     []CPUTopo // indexed by CPU id
	SMT     []CPUMask // per CPU: its core's threads
	Cluster []CPUMask // per CPU: its cluster (L2)
	LLC     []CPUMask // per CPU: its last-level cache
	Node    []CPUMask // per CPU: its NUMA node
	Socket  []CPUMask // per CPU: its package (socket)
	All     CPUMask
	// Counts, for front ends laying the machine out.
	Nodes, Sockets, LLCs, Clusters, Cores int
	// HasClusters is false when clusters_per_llc is 1: then cores have private
	// L2s, there is no CLS level, and each core counts as its own cluster in
	// CPUTopo.Cluster (so two cores of one LLC are DistLLC apart).
	HasClusters bool

	// A machine given per CPU (Machine.CPUs) also has these; for the regular
	// form ID is nil (a CPU's number is its index) and NodeDist is nil (one
	// NUMA level, nodes equidistant).
	//
	// ID is the kernel's number of each simulated CPU, ascending: the
	// simulator numbers the online CPUs 0..NCPU-1 and ID maps them back
	// (offline CPUs are not simulated).
	ID []int
	// NodeID is the kernel's number of each node (ascending); NodeDist is the
	// node distance table (node_distance(), SLIT), indexed like NodeID.
	NodeID   []int
	NodeDist [][]int
	// NUMADists are the distinct node distances above LOCAL_DISTANCE,
	// ascending: one NUMA domain level each (sched_init_numa()).
	NUMADists []int
	// MaxThreads is the most SMT threads of any core.
	MaxThreads int

	// coreCPUs lists, per CPU, its core's threads in ascending order (SMT
	// as a list, for the SMT sharing model's per-event walk, smt.go).
	coreCPUs [][]int
}

// Label is the kernel's number of simulated CPU cpu.
func (t *Topology) Label(cpu int) int {
	if t.ID == nil || cpu < 0 || cpu >= len(t.ID) {
		return cpu
	}
	return t.ID[cpu]
}

// Irregular reports whether the machine was given per CPU.
func (t *Topology) Irregular() bool { return t.ID != nil }

// NewTopology lays out the machine m.
func NewTopology(m *Machine) (*Topology, error) {
	if len(m.CPUs) > 0 {
		return newTopologyPerCPU(m)
	}
	n := m.NCPU()
	if n <= 0 || n > MaxCPUs {
		return nil, errorf("machine has %d CPUs; must be 1..%d", n, MaxCPUs)
	}
	for _, v := range []int{m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore} {
		if v <= 0 {
			return nil, errorf("every machine dimension must be at least 1")
		}
	}
	t := &Topology{NCPU: n, CPU: make([]CPUTopo, n)}
	t.Nodes = m.Nodes
	t.Sockets = m.Nodes * m.SocketsPerNode
	t.LLCs = t.Sockets * m.LLCsPerSocket
	t.Clusters = t.LLCs * m.ClustersPerLLC
	t.Cores = t.Clusters * m.CoresPerCluster
	t.HasClusters = m.ClustersPerLLC > 1
	T := m.ThreadsPerCore
	// Walk the hierarchy depth-first; hierarchical index h = core*T + thread.
	h := 0
	for core := 0; core < t.Cores; core++ {
		cluster := core / m.CoresPerCluster
		llc := cluster / m.ClustersPerLLC
		socket := llc / m.LLCsPerSocket
		node := socket / m.SocketsPerNode
		for th := 0; th < T; th++ {
			id := h
			if m.Numbering == NumberX86 {
				id = th*t.Cores + core
			}
			cl := cluster
			if !t.HasClusters {
				cl = core
			}
			t.CPU[id] = CPUTopo{Node: node, Socket: socket, LLC: llc, Cluster: cl, Core: core, Thread: th}
			h++
		}
	}
	t.MaxThreads = T
	t.masks()
	return t, nil
}

// masks fills the per-CPU masks from t.CPU.
func (t *Topology) masks() {
	n := t.NCPU
	t.SMT = make([]CPUMask, n)
	t.Cluster = make([]CPUMask, n)
	t.LLC = make([]CPUMask, n)
	t.Node = make([]CPUMask, n)
	t.Socket = make([]CPUMask, n)
	t.coreCPUs = make([][]int, n)
	for a := 0; a < n; a++ {
		t.All.Set(a)
		ca := t.CPU[a]
		for b := 0; b < n; b++ {
			cb := t.CPU[b]
			if ca.Core == cb.Core {
				t.SMT[a].Set(b)
				t.coreCPUs[a] = append(t.coreCPUs[a], b)
			}
			if ca.Cluster == cb.Cluster {
				t.Cluster[a].Set(b)
			}
			if ca.LLC == cb.LLC {
				t.LLC[a].Set(b)
			}
			if ca.Node == cb.Node {
				t.Node[a].Set(b)
			}
			if ca.Socket == cb.Socket {
				t.Socket[a].Set(b)
			}
		}
	}
}

// Distance returns how far apart CPUs a and b are in the cache hierarchy.
func (t *Topology) Distance(a, b int) Distance {
	if a == b {
		return DistSame
	}
	ca, cb := &t.CPU[a], &t.CPU[b]
	switch {
	case ca.Core == cb.Core:
		return DistSMT
	case ca.Cluster == cb.Cluster:
		return DistCluster
	case ca.LLC == cb.LLC:
		return DistLLC
	case ca.Node == cb.Node:
		return DistPackage
	}
	return DistNUMA
}

// SharesCache reports cpus_share_cache(a, b): the same last-level cache.
func (t *Topology) SharesCache(a, b int) bool { return t.CPU[a].LLC == t.CPU[b].LLC }
