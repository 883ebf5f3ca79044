package interop

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"schedplay/scenarios"
	"schedplay/sim"
)

// exactMachine is the machine of the online CPUs as given, per CPU
// (scenarios.Machine.CPUs): each CPU keeps its number, core, socket and
// node; the LLC is the highest unified cache level; a cluster is an L2
// shared by more than one core below the LLC (x86 builds its CLS level
// from L2 sharing, cpu_clustergroup_mask()), or the Cluster column when
// lscpu prints one (arm64 cluster_id). What the model cannot hold is a
// Problem: different maximum frequencies (asymmetric capacities) and s390
// books and drawers.
func exactMachine(cpus []lcpu, probs *problems) scenarios.Machine {
	m := scenarios.Machine{HZ: scenarios.DefaultHZ, Numbering: scenarios.DefaultNumbering}
	// L2s shared by more than one core, and not the LLC itself.
	type l2key struct{ node, socket, llc, l2 int }
	l2Cores := map[l2key][]int{} // build-time only; never iterated
	for _, c := range cpus {
		if c.l2 < 0 || c.l2 == c.llc && c.llc >= 0 && sameLevelL2(cpus) {
			continue
		}
		k := l2key{c.node, c.socket, c.llc, c.l2}
		if !slices.Contains(l2Cores[k], c.core) {
			l2Cores[k] = append(l2Cores[k], c.core)
		}
	}
	hasClusterCol := false
	books := false
	mhz := map[string][]int64{} // build-time only
	var mhzOrder []string
	for _, c := range cpus {
		hasClusterCol = hasClusterCol || c.cluster >= 0
		books = books || c.book >= 0
		if c.maxMHz != "" {
			if mhz[c.maxMHz] == nil {
				mhzOrder = append(mhzOrder, c.maxMHz)
			}
			mhz[c.maxMHz] = append(mhz[c.maxMHz], int64(c.id))
		}
	}
	for _, c := range cpus {
		id, core := c.id, c.core
		cpu := scenarios.CPU{CPU: &id, Core: &core, Socket: c.socket, Node: c.node}
		switch {
		case books:
			// s390: the MC level is the socket (cpu_coregroup_mask(),
			// arch/s390/kernel/topology.c), whatever cache spans further.
			llc := c.socket
			cpu.LLC = &llc
		case c.llc >= 0:
			llc := c.llc
			cpu.LLC = &llc
		}
		switch {
		case hasClusterCol && c.cluster >= 0:
			cl := c.cluster
			cpu.Cluster = &cl
		case !hasClusterCol && c.l2 >= 0 && len(l2Cores[l2key{c.node, c.socket, c.llc, c.l2}]) > 1:
			cl := c.l2
			cpu.Cluster = &cl
		}
		m.CPUs = append(m.CPUs, cpu)
	}
	compactIDs(&m, probs)
	if len(mhzOrder) > 1 {
		var parts []string
		for _, f := range mhzOrder {
			parts = append(parts, f+" MHz on CPUs "+cpuList(mhz[f]))
		}
		probs.add("machine", "CPUs have different maximum frequencies (%s): asymmetric capacities (big.LITTLE, hybrid) are not modelled, every CPU has capacity 1024", strings.Join(parts, "; "))
	}
	if books {
		probs.add("machine", "books/drawers (s390) have no domain level in the simulator: the BOOK and DRAWER levels are dropped (SMT and MC, the socket, are kept; the LLC is the socket, as s390's cpu_coregroup_mask)")
	}
	nodes := map[int]bool{}
	for _, c := range cpus {
		nodes[c.node] = true
	}
	if len(nodes) > 1 {
		probs.add("machine", "lscpu does not print node distances: REMOTE_DISTANCE (20) between every two nodes, one NUMA level; schedsim import -from sysfs reads the real table")
	}
	return m
}

// sameLevelL2 reports whether the input's LLC is the L2 (no L3 column):
// parseLscpu then stores the same id in l2 and llc.
func sameLevelL2(cpus []lcpu) bool {
	for _, c := range cpus {
		if c.l2 != c.llc {
			return false
		}
	}
	return true
}

// describeExact says what a per-CPU machine is, for descriptions.
func describeExact(m scenarios.Machine) string {
	count := func(f func(c scenarios.CPU) [5]int) int {
		seen := map[[5]int]bool{}
		for _, c := range m.CPUs {
			seen[f(c)] = true
		}
		return len(seen)
	}
	val := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	nodes := count(func(c scenarios.CPU) [5]int { return [5]int{c.Node} })
	sockets := count(func(c scenarios.CPU) [5]int { return [5]int{c.Socket} })
	llcs := count(func(c scenarios.CPU) [5]int { return [5]int{c.Node, c.Socket, val(c.LLC)} })
	cores := count(func(c scenarios.CPU) [5]int { return [5]int{c.Node, c.Socket, val(c.LLC), val(c.Cluster), *c.Core} })
	var ids []int64
	for _, c := range m.CPUs {
		ids = append(ids, int64(*c.CPU))
	}
	s := fmt.Sprintf("%d online CPUs (%s) given per CPU: %d cores, %d LLCs, %d sockets, %d NUMA nodes", len(m.CPUs), cpuList(ids), cores, llcs, sockets, nodes)
	if len(m.NUMADistance) > 0 {
		s += " with the distance table " + strings.Join(m.NUMADistance, " / ")
	}
	return s
}

// MaxSysfsCPUs bounds the CPUs read from a sysfs tree.
const MaxSysfsCPUs = scenarios.MaxCPUID + 1

// ImportSysfs reads the machine from a sysfs tree (fsys is its root: the
// directory holding devices/system/cpu and devices/system/node, /sys on a
// running machine): the online CPUs (devices/system/cpu/online), each one's
// topology/core_id, physical_package_id and cluster_id, its caches
// (cache/indexN/level, type, id or shared_cpu_list: the LLC is the highest
// unified level, a cluster an L2 shared by several cores below it), its node
// (devices/system/node/nodeN/cpulist) and the node distance table
// (nodeN/distance). Core ids are per package, as the kernel numbers them.
func ImportSysfs(fsys fs.FS) (scenarios.Machine, []Problem, error) {
	var probs problems
	read := func(name string) (string, error) {
		f, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		if len(f) > 1<<16 {
			return "", fmt.Errorf("%s: longer than 64 KiB", name)
		}
		return strings.TrimSpace(string(f)), nil
	}
	num := func(name string) (int, error) {
		v, err := read(name)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a number", name, v)
		}
		return n, nil
	}
	const cpuDir = "devices/system/cpu"
	onlineText, err := read(cpuDir + "/online")
	if err != nil {
		return scenarios.Machine{}, nil, fmt.Errorf("not a sysfs tree (%v)", err)
	}
	online, err := parseList(onlineText, MaxSysfsCPUs-1)
	if err != nil {
		return scenarios.Machine{}, nil, fmt.Errorf("%s/online: %v", cpuDir, err)
	}
	if len(online) > sim.MaxCPUs {
		return scenarios.Machine{}, nil, fmt.Errorf("%s/online: %d CPUs; the simulator has at most %d", cpuDir, len(online), sim.MaxCPUs)
	}
	if possible, err := read(cpuDir + "/present"); err == nil {
		if all, err := parseList(possible, MaxSysfsCPUs-1); err == nil && len(all) > len(online) {
			var off []int64
			for _, c := range all {
				if _, ok := slices.BinarySearch(online, c); !ok {
					off = append(off, int64(c))
				}
			}
			probs.add("machine", "CPUs %s are offline: left out (the online CPUs keep their numbers)", cpuList(off))
		}
	}
	// Nodes: which node holds each CPU, and the distances.
	nodeOf := map[int]int{} // build-time only
	var nodeIDs []int
	const nodeDir = "devices/system/node"
	if ents, err := fs.ReadDir(fsys, nodeDir); err == nil {
		for _, e := range ents {
			n, ok := strings.CutPrefix(e.Name(), "node")
			id, err := strconv.Atoi(n)
			if !ok || err != nil || id < 0 || id > scenarios.MaxTopologyID {
				continue
			}
			list, err := read(nodeDir + "/" + e.Name() + "/cpulist")
			if err != nil {
				continue
			}
			cpus, err := parseList(list, MaxSysfsCPUs-1)
			if err != nil {
				return scenarios.Machine{}, nil, fmt.Errorf("%s/%s/cpulist: %v", nodeDir, e.Name(), err)
			}
			has := false
			for _, c := range cpus {
				if _, ok := slices.BinarySearch(online, c); ok {
					nodeOf[c] = id
					has = true
				}
			}
			if has {
				nodeIDs = append(nodeIDs, id)
			}
		}
	}
	slices.Sort(nodeIDs)
	cpus := make([]lcpu, 0, len(online))
	for _, c := range online {
		dir := fmt.Sprintf("%s/cpu%d", cpuDir, c)
		l := lcpu{id: c, cluster: -1, book: -1, l2: -1, llc: -1, online: true, node: nodeOf[c]}
		if l.core, err = num(dir + "/topology/core_id"); err != nil {
			return scenarios.Machine{}, nil, err
		}
		if l.socket, err = num(dir + "/topology/physical_package_id"); err != nil {
			return scenarios.Machine{}, nil, err
		}
		if l.core < 0 || l.socket < 0 || l.core > scenarios.MaxTopologyID || l.socket > scenarios.MaxTopologyID {
			return scenarios.Machine{}, nil, fmt.Errorf("%s/topology: core %d, package %d out of range", dir, l.core, l.socket)
		}
		// The kernel's core_id is unique within a package: make it unique.
		l.core = l.socket*(scenarios.MaxTopologyID+1) + l.core
		llcLevel := 0
		for i := 0; i < 16; i++ {
			idx := fmt.Sprintf("%s/cache/index%d", dir, i)
			level, err := num(idx + "/level")
			if err != nil {
				break
			}
			typ, _ := read(idx + "/type")
			if typ != "Unified" {
				continue
			}
			id, err := num(idx + "/id")
			if err != nil {
				// Older kernels have no id: the first CPU sharing it names it.
				shared, err2 := read(idx + "/shared_cpu_list")
				if err2 != nil {
					continue
				}
				sc, err2 := parseList(shared, MaxSysfsCPUs-1)
				if err2 != nil || len(sc) == 0 {
					continue
				}
				id = sc[0]
			}
			if level == 2 {
				l.l2 = id
			}
			if level >= llcLevel {
				llcLevel, l.llc = level, id
			}
		}
		cpus = append(cpus, l)
	}
	if len(cpus) == 0 {
		return scenarios.Machine{}, nil, errors.New("no online CPU")
	}
	// Core ids were made unique per package; make them short again, in order.
	coreIdx := map[int]int{}
	for i := range cpus {
		if _, ok := coreIdx[cpus[i].core]; !ok {
			coreIdx[cpus[i].core] = len(coreIdx)
		}
		cpus[i].core = coreIdx[cpus[i].core]
	}
	m := exactMachineSysfs(cpus, &probs)
	if len(nodeIDs) > 1 {
		all := nodeIDsWithDistance(fsys, nodeDir)
		for _, n := range nodeIDs {
			row, err := read(fmt.Sprintf("%s/node%d/distance", nodeDir, n))
			if err != nil {
				return scenarios.Machine{}, nil, err
			}
			f := strings.Fields(row)
			// sysfs prints a distance to every online node; keep the nodes
			// that have online CPUs.
			if len(f) != len(all) {
				return scenarios.Machine{}, nil, fmt.Errorf("%s/node%d/distance: %d values for %d nodes", nodeDir, n, len(f), len(all))
			}
			var kept []string
			for j, id := range all {
				if slices.Contains(nodeIDs, id) {
					kept = append(kept, f[j])
				}
			}
			m.NUMADistance = append(m.NUMADistance, strings.Join(kept, " "))
		}
	}
	return m, probs, nil
}

// exactMachineSysfs is exactMachine without lscpu's notes on distances.
func exactMachineSysfs(cpus []lcpu, probs *problems) scenarios.Machine {
	var p problems
	m := exactMachine(cpus, &p)
	for _, x := range p {
		if !strings.Contains(x.Message, "node distances") {
			probs.add(x.Path, "%s", x.Message)
		}
	}
	return m
}

// nodeIDsWithDistance are the nodes sysfs lists (nodeN directories with a
// distance file), ascending: the columns of every distance row.
func nodeIDsWithDistance(fsys fs.FS, nodeDir string) []int {
	var ids []int
	ents, _ := fs.ReadDir(fsys, nodeDir)
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "node")
		id, err := strconv.Atoi(n)
		if !ok || err != nil {
			continue
		}
		if _, err := fs.Stat(fsys, nodeDir+"/"+e.Name()+"/distance"); err == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// parseList reads a kernel cpulist ("0-3,8") of numbers up to max.
func parseList(s string, max int) ([]int, error) {
	var out []int
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	seen := make([]bool, max+1) // linear in the list, whatever its ranges
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b > max {
			return nil, fmt.Errorf("%q is not a list of numbers 0..%d", s, max)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// SysfsScenario is ImportSysfs plus the placeholder workload of
// LscpuScenario.
func SysfsScenario(fsys fs.FS, where string) (*scenarios.Scenario, []Problem, error) {
	m, probs, err := ImportSysfs(fsys)
	if err != nil {
		return nil, probs, err
	}
	return machineScenario(m, probs, "sysfs ("+where+")", "sysfs does not tell them")
}

// compactIDs renumbers a topology column whose ids exceed what the format
// holds (scenarios.MaxTopologyID): the ids only say which CPUs share a core,
// cluster, LLC, socket or node, so each id becomes its rank among the
// column's ids (ascending, so node order, and with it a distance table's
// rows, is kept). Columns within range are left as lscpu printed them.
func compactIDs(m *scenarios.Machine, probs *problems) {
	cols := []struct {
		name, what string
		get        func(c *scenarios.CPU) *int
	}{
		{"core", "core", func(c *scenarios.CPU) *int { return c.Core }},
		{"cluster", "cluster", func(c *scenarios.CPU) *int { return c.Cluster }},
		{"llc", "last-level cache", func(c *scenarios.CPU) *int { return c.LLC }},
		{"socket", "socket", func(c *scenarios.CPU) *int { return &c.Socket }},
		{"node", "node", func(c *scenarios.CPU) *int { return &c.Node }},
	}
	for _, col := range cols {
		var ids []int
		over := false
		for i := range m.CPUs {
			if p := col.get(&m.CPUs[i]); p != nil {
				ids = append(ids, *p)
				over = over || *p > scenarios.MaxTopologyID || *p < 0
			}
		}
		if !over {
			continue
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		for i := range m.CPUs {
			if p := col.get(&m.CPUs[i]); p != nil {
				r, _ := slices.BinarySearch(ids, *p)
				v := r
				switch col.name { // the pointers may be shared with the lcpu loop's copies: write fresh ones
				case "core":
					m.CPUs[i].Core = &v
				case "cluster":
					m.CPUs[i].Cluster = &v
				case "llc":
					m.CPUs[i].LLC = &v
				default:
					*p = v
				}
			}
		}
		probs.add("machine", "%s ids above %d renumbered 0…%d in their order (they only say which CPUs share a %s)", col.name, scenarios.MaxTopologyID, len(ids)-1, col.what)
	}
}
