package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/sim"
)

// Limits of a machine given per CPU.
const (
	// MaxCPUID is the largest kernel CPU number: Linux's largest
	// CONFIG_NR_CPUS is 8192 (x86-64 with MAXSMP).
	MaxCPUID = 8191
	// MaxTopologyID bounds core, cluster, LLC, socket and node ids (only
	// equality matters; lscpu prints small numbers).
	MaxTopologyID = 65535
)

// counts are the six counts of the regular form with their defaults.
func (m *Machine) counts() []struct {
	key      string
	p        *int
	def      int
	resolved func(*sim.Machine) *int
} {
	return []struct {
		key      string
		p        *int
		def      int
		resolved func(*sim.Machine) *int
	}{
		{"nodes", &m.Nodes, 1, func(o *sim.Machine) *int { return &o.Nodes }},
		{"sockets_per_node", &m.SocketsPerNode, 1, func(o *sim.Machine) *int { return &o.SocketsPerNode }},
		{"llcs_per_socket", &m.LLCsPerSocket, 1, func(o *sim.Machine) *int { return &o.LLCsPerSocket }},
		{"clusters_per_llc", &m.ClustersPerLLC, 1, func(o *sim.Machine) *int { return &o.ClustersPerLLC }},
		{"cores_per_cluster", &m.CoresPerCluster, DefaultCoresPerCluster, func(o *sim.Machine) *int { return &o.CoresPerCluster }},
		{"threads_per_core", &m.ThreadsPerCore, 1, func(o *sim.Machine) *int { return &o.ThreadsPerCore }},
	}
}

// normalizePerCPU drops the counts Decode filled in with their defaults
// when the machine is given per CPU (a count set to anything else stays,
// and resolve reports it).
func (m *Machine) normalizePerCPU() {
	if len(m.CPUs) == 0 {
		return
	}
	for _, c := range m.counts() {
		if *c.p == c.def {
			*c.p = 0
		}
	}
}

// resolvePerCPU checks a machine given per CPU and fills out.CPUs and
// out.NUMADistance. It returns the kernel CPU numbers of the simulated
// CPUs (ascending), or nil if the machine is invalid.
func (m *Machine) resolvePerCPU(p *problems, path string, out *sim.Machine) []int {
	ok := true
	for _, c := range m.counts() {
		if *c.p != 0 && *c.p != c.def {
			p.add(join(path, c.key), "the machine is given per CPU (machine.cpus); remove cpus to use the counts")
			ok = false
		}
	}
	cpath := join(path, "cpus")
	if len(m.CPUs) > MaxCPUs {
		p.add(cpath, fmt.Sprintf("%d CPUs; the limit is %d", len(m.CPUs), MaxCPUs))
		return nil
	}
	places := make([]sim.CPUPlace, 0, len(m.CPUs))
	id := func(ip string, v *int, max int, missing string, dst *int) bool {
		if v == nil {
			if missing != "" {
				p.add(ip, missing)
				return false
			}
			return true
		}
		if *v < 0 || *v > max {
			p.add(ip, fmt.Sprintf("%d is out of range (0..%d)", *v, max))
			return false
		}
		*dst = *v
		return true
	}
	for i, c := range m.CPUs {
		ip := index(cpath, i)
		pl := sim.CPUPlace{Cluster: -1, LLC: -1}
		good := id(join(ip, "cpu"), c.CPU, MaxCPUID, "missing (the kernel's CPU number)", &pl.ID)
		good = id(join(ip, "core"), c.Core, MaxTopologyID, "missing (the core id; CPUs of one core are SMT siblings)", &pl.Core) && good
		good = id(join(ip, "cluster"), c.Cluster, MaxTopologyID, "", &pl.Cluster) && good
		good = id(join(ip, "llc"), c.LLC, MaxTopologyID, "", &pl.LLC) && good
		s, n := c.Socket, c.Node
		good = id(join(ip, "socket"), &s, MaxTopologyID, "", &pl.Socket) && good
		good = id(join(ip, "node"), &n, MaxTopologyID, "", &pl.Node) && good
		if !good {
			ok = false
			continue
		}
		if pl.LLC < 0 {
			// One LLC per socket (and node): the LLC id space is the socket's.
			pl.LLC = MaxTopologyID + 1 + pl.Socket
		}
		places = append(places, pl)
	}
	if !ok {
		return nil
	}
	slices.SortStableFunc(places, func(a, b sim.CPUPlace) int { return a.ID - b.ID })
	for i := 1; i < len(places); i++ {
		if places[i].ID == places[i-1].ID {
			p.add(cpath, fmt.Sprintf("cpu %d is listed twice", places[i].ID))
			return nil
		}
	}
	// Nodes, ascending, for the distance table.
	var nodes []int
	for _, pl := range places {
		if !slices.Contains(nodes, pl.Node) {
			nodes = append(nodes, pl.Node)
		}
	}
	slices.Sort(nodes)
	if m.NUMADistance != nil {
		dpath := join(path, "numa_distance")
		if len(m.NUMADistance) != len(nodes) {
			p.add(dpath, fmt.Sprintf("%d rows; the machine has %d nodes (%s), one row each in ascending node id", len(m.NUMADistance), len(nodes), intsText(nodes)))
			return nil
		}
		tab := make([][]int, len(nodes))
		for i, row := range m.NUMADistance {
			rp := index(dpath, i)
			f := strings.Fields(row)
			if len(f) != len(nodes) {
				p.add(rp, fmt.Sprintf("%s has %d distances; the machine has %d nodes", quote(row), len(f), len(nodes)))
				return nil
			}
			tab[i] = make([]int, len(f))
			for j, v := range f {
				d, err := strconv.Atoi(v)
				switch {
				case err != nil:
					p.add(rp, quote(v)+" is not a distance")
					return nil
				case i == j && d != sim.LocalDistance:
					p.add(rp, fmt.Sprintf("node %d's distance to itself is %d; it must be %d (LOCAL_DISTANCE)", nodes[i], d, sim.LocalDistance))
					return nil
				case i != j && (d <= sim.LocalDistance || d > sim.MaxNodeDistance):
					p.add(rp, fmt.Sprintf("distance %d from node %d to node %d: must be %d..%d", d, nodes[i], nodes[j], sim.LocalDistance+1, sim.MaxNodeDistance))
					return nil
				}
				tab[i][j] = d
			}
		}
		for i := range tab {
			for j := range tab {
				if tab[i][j] != tab[j][i] {
					p.add(dpath, fmt.Sprintf("not symmetric: node %d to %d is %d, back is %d", nodes[i], nodes[j], tab[i][j], tab[j][i]))
					return nil
				}
			}
		}
		out.NUMADistance = tab
	}
	out.CPUs = places
	for _, c := range m.counts() {
		*c.resolved(out) = 0
	}
	if _, err := sim.NewTopology(out); err != nil {
		p.add(cpath, err.Error())
		return nil
	}
	ids := make([]int, len(places))
	for i, pl := range places {
		ids[i] = pl.ID
	}
	return ids
}

func intsText(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// parseKernelCPUList reads a cpulist of kernel CPU numbers ("0-3,8") on a
// machine given per CPU and returns the mask of simulated CPUs (ids holds
// the kernel numbers of the simulated CPUs, ascending). Every CPU listed must
// be online.
func parseKernelCPUList(s string, ids []int) (sim.CPUMask, error) {
	var m sim.CPUMask
	s = strings.TrimSpace(s)
	if s == "" {
		return m, fmt.Errorf("empty CPU list")
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b > MaxCPUID {
			return m, fmt.Errorf("%s is not a CPU or range of CPU numbers 0..%d", quote(part), MaxCPUID)
		}
		for c := a; c <= b; c++ {
			i, found := slices.BinarySearch(ids, c)
			if !found {
				return m, fmt.Errorf("cpu %d is not in machine.cpus (not online)", c)
			}
			m.Set(i)
		}
	}
	return m, nil
}

// machinePerCPURows are the schema rows of a machine given per CPU.
func machinePerCPURows() []Field {
	cpu := func(s *Scenario, k keys) *CPU { return &s.Machine.CPUs[k.index(0)] }
	rows := []Field{
		{Path: "machine.cpus", Kind: KindList, Max: MaxCPUs, what: "CPUs", appends: true, Group: "topology",
			rangeMsg: "index %[1]d is out of range (there are %[2]d CPUs; index %[2]d appends one)",
			Absent:   "the regular form: the six counts",
			Doc:      "the machine per CPU, as lscpu -p gives it (the online CPUs; the six counts are then omitted): sched domains are built from the sharing it describes",
			Example:  `[{"cpu":0,"core":0},{"cpu":1,"core":0},{"cpu":4,"core":1,"node":1},{"cpu":5,"core":1,"node":1}]`,
			val:      func(s *Scenario, _ keys) any { return s.Machine.CPUs },
			enter:    func(s *Scenario, _ keys) { s.Machine.CPUs = []CPU{} },
			reset:    func(s *Scenario, _ keys) { s.Machine.CPUs = nil },
			length:   func(s *Scenario, _ keys) int { return len(s.Machine.CPUs) },
			elem:     func(s *Scenario, _ keys, i int) { s.Machine.CPUs = append(s.Machine.CPUs, CPU{}) }},
		{Path: "machine.cpus[i]", Kind: KindObject, Group: "topology", Doc: "one online CPU; CPUs with equal node, llc, cluster, socket and core are SMT siblings",
			val:   func(s *Scenario, k keys) any { return *cpu(s, k) },
			reset: func(s *Scenario, k keys) { *cpu(s, k) = CPU{} }},
		{Path: "machine.cpus[i].cpu", Kind: KindInt, Min: 0, Max: MaxCPUID, Group: "topology", Doc: "the kernel's CPU number (required; offline CPUs are left out, the others keep their numbers)", Example: "0",
			at: optIntAt(func(s *Scenario, k keys) **int { return &cpu(s, k).CPU })},
		{Path: "machine.cpus[i].core", Kind: KindInt, Min: 0, Max: MaxTopologyID, Group: "topology", Doc: "core id (required)", Example: "0",
			at: optIntAt(func(s *Scenario, k keys) **int { return &cpu(s, k).Core })},
		{Path: "machine.cpus[i].cluster", Kind: KindInt, Min: 0, Max: MaxTopologyID, Group: "topology", Absent: "the core has its own L2 (no CLS level)", Doc: "L2 cluster id (cores sharing an L2)", Example: "0",
			at: optIntAt(func(s *Scenario, k keys) **int { return &cpu(s, k).Cluster })},
		{Path: "machine.cpus[i].llc", Kind: KindInt, Min: 0, Max: MaxTopologyID, Group: "topology", Absent: "one LLC per socket", Doc: "last-level cache id (cut at the node, as the kernel's LLC mask is)", Example: "0",
			at: optIntAt(func(s *Scenario, k keys) **int { return &cpu(s, k).LLC })},
		{Path: "machine.cpus[i].socket", Kind: KindInt, Default: "0", Min: 0, Max: MaxTopologyID, Group: "topology", Doc: "physical package id", Example: "0",
			at: intAt(func(s *Scenario, k keys) *int { return &cpu(s, k).Socket })},
		{Path: "machine.cpus[i].node", Kind: KindInt, Default: "0", Min: 0, Max: MaxTopologyID, Group: "topology", Doc: "NUMA node id", Example: "0",
			at: intAt(func(s *Scenario, k keys) *int { return &cpu(s, k).Node })},
		{Path: "machine.numa_distance", Kind: KindList, Max: MaxCPUs, what: "rows", Group: "topology",
			rangeMsg: "index %[1]d is out of range (there are %[2]d rows)",
			Absent:   "10 to itself, 20 to every other node (REMOTE_DISTANCE)",
			Doc:      "a per-CPU machine's node distance table: one row per node in ascending node id, as /sys/devices/system/node/nodeN/distance prints it; one NUMA domain level per distinct distance",
			Example:  `["10 31","31 10"]`,
			val:      func(s *Scenario, _ keys) any { return s.Machine.NUMADistance },
			enter:    func(s *Scenario, _ keys) { s.Machine.NUMADistance = []string{} },
			reset:    func(s *Scenario, _ keys) { s.Machine.NUMADistance = nil },
			length:   func(s *Scenario, _ keys) int { return len(s.Machine.NUMADistance) },
			elem:     func(s *Scenario, _ keys, i int) { s.Machine.NUMADistance = append(s.Machine.NUMADistance, "") }},
		{Path: "machine.numa_distance[i]", Kind: KindString, Max: 4 * MaxCPUs, Group: "topology", Doc: "one node's distances to every node, blank-separated", Example: "10 21",
			at: strAt(func(s *Scenario, k keys) *string { return &s.Machine.NUMADistance[k.index(0)] })},
	}
	for i := range rows {
		rows[i].Since = 2
	}
	return rows
}
