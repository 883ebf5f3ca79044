package interop

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/scenarios"
	"schedplay/sim"
)

// MaxLscpuBytes bounds lscpu output (a 1024-CPU machine prints about 40 KiB).
const MaxLscpuBytes = 1 << 20

// MaxLscpuCPUID is the largest CPU number accepted: Linux's largest
// CONFIG_NR_CPUS is 8192 (x86-64 with MAXSMP), so a real machine never
// numbers a CPU above 8191. A bigger id is an error by line: nothing is
// sized by ids, but a number that cannot come from a machine is a typo or
// a hostile file.
const MaxLscpuCPUID = 8191

// lscpuDefaultColumns are the columns of `lscpu -p` when its output has no
// header line (someone pasted only the rows).
var lscpuDefaultColumns = []string{"CPU", "Core", "Socket", "Node", "", "L1d", "L1i", "L2", "L3"}

type lcpu struct {
	line    int
	id      int
	node    int // -1: unknown
	socket  int
	core    int
	l2, llc int
	cluster int // Cluster column (arm64 cluster_id), -1: none
	book    int // s390 Book or Drawer column seen with a value, -1: none
	online  bool
	maxMHz  string
}

// ImportLscpu reads the machine from `lscpu -p` (`lscpu --parse`) output:
//
//	# CPU,Core,Socket,Node,,L1d,L1i,L2,L3
//	0,0,0,0,,0,0,0,0
//
// or from a user-chosen column list such as `lscpu
// --parse=CPU,Core,Socket,Node,Cache` (cache ids joined by ':', "0:0:0:0"),
// optionally with Online, Configured, Cluster, Book, Drawer, MaxMHz, MinMHz
// or MHz columns (`lscpu -a -p=CPU,Core,Socket,Node,Cache,Online` lists
// offline CPUs too). Lines starting with '#' are comments; the last one
// before the data names the columns.
//
// It derives the scenario's machine tree: nodes (distinct Node ids),
// sockets_per_node, llcs_per_socket (distinct ids of the highest unified
// cache level, L3 usually), clusters_per_llc (L2 caches shared by more
// than one core, as on Atom and E-core clusters; 1 when L2s are private),
// cores_per_cluster, threads_per_core (CPUs per Core id), and numbering:
// "x86" when a core's threads are numbered apart (cpu0 and cpu24 on a
// 2x12x2 Xeon, cpu0 and cpu4 on a 4-core laptop), "linear" when adjacent.
// The scenario's CPUs are the online CPUs of the input renumbered 0..n-1 in
// order.
//
// A machine that is not regular (hybrid P/E cores with different thread
// counts or L2 sharing, sockets of different sizes, offline CPUs, sub-NUMA
// clusters, different maximum frequencies, more than 256 CPUs) becomes the
// closest regular machine: each count is the most common one, cores per
// cluster is then chosen to keep the CPU count where it can, and every
// difference is a Problem. HZ is 1000 and costs the simulator's defaults:
// lscpu does not tell them.
func ImportLscpu(data []byte) (scenarios.Machine, []Problem, error) {
	var probs problems
	cpus, err := parseLscpu(data, &probs)
	if err != nil {
		return scenarios.Machine{}, probs, err
	}
	if len(cpus) <= sim.MaxCPUs {
		return exactMachine(cpus, &probs), probs, nil
	}
	m := closestMachine(cpus, &probs)
	return m, probs, nil
}

// LscpuScenario is ImportLscpu plus a small workload, so that the result is
// a complete scenario: one task per CPU running 5 ms of every 10 ms for 2 s
// on the v6.17 base. The description says so.
func LscpuScenario(data []byte) (*scenarios.Scenario, []Problem, error) {
	m, probs, err := ImportLscpu(data)
	if err != nil {
		return nil, probs, err
	}
	return machineScenario(m, probs, "lscpu -p output", "lscpu does not tell them")
}

// machineScenario wraps an imported machine in a complete scenario: one
// task per CPU running 5 ms of every 10 ms for 2 s on the default base.
func machineScenario(m scenarios.Machine, probs []Problem, source, why string) (*scenarios.Scenario, []Problem, error) {
	n := m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore
	shape := fmt.Sprintf("%d nodes x %d sockets x %d LLCs x %d clusters x %d cores x %d threads = %d CPUs, %s numbering",
		m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore, n, m.Numbering)
	version := scenarios.Version
	if len(m.CPUs) > 0 {
		n = len(m.CPUs)
		shape = describeExact(m)
		version = 2
	}
	s := &scenarios.Scenario{
		Version: version,
		Title:   "Machine imported from " + strings.Fields(source)[0],
		Description: fmt.Sprintf("A machine read from %s: %s. "+
			"HZ and the cost model are the simulator's defaults (%s). "+
			"The workload is a placeholder: one task per CPU running 5 ms of every 10 ms; replace it, for example with schedsim import -from rtapp -machine THIS_FILE workload.json.",
			source, shape, why),
		Seed:     scenarios.DefaultSeed,
		Duration: "2s",
		Machine:  m,
		Policy:   scenarios.Policy{Base: scenarios.DefaultBase},
		Tasks: []scenarios.Task{{Name: "duty", Count: n,
			Program: []scenarios.Step{{Run: "5ms"}, {Timer: "10ms"}}}},
	}
	out, err := scenarios.Decode(s.Canonical())
	if err != nil {
		return nil, probs, fmt.Errorf("internal error: the imported scenario is invalid: %v", err)
	}
	return out, probs, nil
}

// column roles.
const (
	colIgnore = iota
	colCPU
	colCore
	colSocket
	colNode
	colCache // one cache level (compat format, or one part of a ':' column)
	colCacheList
	colOnline
	colMaxMHz
	colCluster
	colBook
)

type lcol struct {
	role   int
	caches []string // colCache: one name; colCacheList: the ':' parts
}

func parseLscpu(data []byte, probs *problems) ([]lcpu, error) {
	if len(data) > MaxLscpuBytes {
		return nil, fmt.Errorf("lscpu output is %d bytes; the limit is %d", len(data), MaxLscpuBytes)
	}
	lines := strings.Split(string(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))), "\n")
	var header []string
	headerLine := 0
	first := -1
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "#") {
			h := strings.TrimSpace(strings.TrimPrefix(l, "#"))
			names := strings.Split(h, ",")
			for _, n := range names {
				if strings.EqualFold(strings.TrimSpace(n), "CPU") {
					header, headerLine = names, i+1
					break
				}
			}
			continue
		}
		first = i
		break
	}
	if first < 0 {
		return nil, errors.New("no CPU rows: want the output of lscpu -p (or lscpu --parse=CPU,Core,Socket,Node,Cache)")
	}
	if header == nil {
		if strings.Contains(lines[first], ":") && !strings.Contains(lines[first], ",") {
			return nil, errors.New("this looks like lscpu's human-readable summary; want the output of lscpu -p")
		}
		header = lscpuDefaultColumns
		probs.add("line 1", "no header line (# CPU,Core,...): the columns of lscpu -p assumed (%s)", strings.Join(header, ","))
	}
	cols := make([]lcol, len(header))
	seen := map[int]bool{}
	cacheSection := false // compat format: the columns after the empty one are caches
	for i, raw := range header {
		name := strings.TrimSpace(raw)
		low := strings.ToLower(name)
		c := &cols[i]
		switch {
		case name == "":
			cacheSection = true
		case strings.Contains(name, ":"):
			c.role = colCacheList
			c.caches = strings.Split(name, ":")
		case cacheSection || isCacheName(name):
			if isCacheName(name) {
				c.role, c.caches = colCache, []string{name}
			}
		case low == "cpu":
			c.role = colCPU
		case low == "core":
			c.role = colCore
		case low == "socket":
			c.role = colSocket
		case low == "node":
			c.role = colNode
		case low == "online":
			c.role = colOnline
		case low == "maxmhz":
			c.role = colMaxMHz
		case low == "cluster":
			c.role = colCluster
		case low == "book", low == "drawer":
			c.role = colBook
		case low == "cache", low == "configured",
			low == "minmhz", low == "mhz", low == "address", low == "polarization", low == "scalmhz%", low == "modelname":
			// Not part of the machine tree (Cluster is an arm64 id; the
			// cluster level is read from shared L2 caches, as x86 builds it).
		default:
			probs.add(fmt.Sprintf("line %d", max(headerLine, 1)), "unknown column %q; ignored", name)
		}
		if c.role != colIgnore && c.role != colCache && c.role != colCacheList && c.role != colBook {
			if seen[c.role] {
				return nil, fmt.Errorf("line %d: column %q appears twice", headerLine, name)
			}
			seen[c.role] = true
		}
	}
	if !seen[colCPU] {
		return nil, fmt.Errorf("line %d: no CPU column", headerLine)
	}
	if !seen[colCore] {
		probs.add(fmt.Sprintf("line %d", headerLine), "no Core column: every CPU is taken as a core of its own")
	}
	// The cache level that is the LLC: the highest unified level present.
	llcName, llcLevel := "", 1
	var cacheNames []string
	for _, c := range cols {
		cacheNames = append(cacheNames, c.caches...)
	}
	for _, n := range cacheNames {
		if lv := cacheLevel(n); lv >= 2 && lv > llcLevel && isUnified(n) {
			llcName, llcLevel = n, lv
		}
	}
	if llcName == "" {
		probs.add(fmt.Sprintf("line %d", max(headerLine, 1)), "no L2 or L3 cache column: one last-level cache per socket assumed")
	}

	var out []lcpu
	ids := map[int]bool{}
	for i := first; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		where := fmt.Sprintf("line %d", i+1)
		f := strings.Split(l, ",")
		if len(f) != len(cols) {
			probs.add(where, "%d fields where the header has %d; line skipped", len(f), len(cols))
			continue
		}
		if len(out) >= 4*sim.MaxCPUs {
			return nil, fmt.Errorf("%s: more than %d CPUs; the simulator has at most %d", where, 4*sim.MaxCPUs, sim.MaxCPUs)
		}
		c := lcpu{line: i + 1, id: -1, node: -1, socket: -1, core: -1, l2: -1, llc: -1, cluster: -1, book: -1, online: true}
		bad := false
		for k, col := range cols {
			v := strings.TrimSpace(f[k])
			switch col.role {
			case colCPU, colCore, colSocket, colNode:
				n, ok := lscpuID(v)
				if !ok && v != "" && v != "-" {
					probs.add(where, "%q is not an id; line skipped", v)
					bad = true
					continue
				}
				switch col.role {
				case colCPU:
					c.id = n
				case colCore:
					c.core = n
				case colSocket:
					c.socket = n
				case colNode:
					c.node = n
				}
			case colCache, colCacheList:
				parts := []string{v}
				if col.role == colCacheList {
					parts = strings.Split(v, ":")
				}
				for p, name := range col.caches {
					if p >= len(parts) {
						break
					}
					n, ok := lscpuID(strings.TrimSpace(parts[p]))
					if !ok {
						continue
					}
					switch {
					case name == llcName:
						c.llc = n
					case strings.EqualFold(name, "L2"):
						c.l2 = n
					}
				}
			case colOnline:
				switch strings.ToLower(v) {
				case "y", "yes":
				case "n", "no":
					c.online = false
				}
			case colMaxMHz:
				c.maxMHz = v
			case colCluster, colBook:
				if n, ok := lscpuID(v); ok {
					if col.role == colCluster {
						c.cluster = n
					} else {
						c.book = n
					}
				}
			}
		}
		if bad {
			continue
		}
		if c.id < 0 {
			probs.add(where, "no CPU number; line skipped")
			continue
		}
		if c.id > MaxLscpuCPUID {
			return nil, fmt.Errorf("%s: cpu%d: CPU numbers go up to %d (Linux's largest NR_CPUS is %d)", where, c.id, MaxLscpuCPUID, MaxLscpuCPUID+1)
		}
		if ids[c.id] {
			probs.add(where, "cpu%d is listed twice; line skipped", c.id)
			continue
		}
		ids[c.id] = true
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b lcpu) int { return a.id - b.id })

	// Offline and missing CPUs.
	var offline, online []lcpu
	for _, c := range out {
		if c.online && (c.core >= 0 || !seen[colCore]) {
			online = append(online, c)
		} else {
			offline = append(offline, c)
		}
	}
	if len(offline) > 0 {
		var ids []int64
		for _, c := range offline {
			ids = append(ids, int64(c.id))
		}
		probs.add("machine", "CPUs %s are offline (Online N, or no core id): left out (the online CPUs keep their numbers)", cpuList(ids))
	}
	if len(online) == 0 {
		return nil, errors.New("no online CPU in the input")
	}
	// The ids missing below the highest online one, as ranges from the
	// gaps between consecutive listed ids (out is sorted): linear in the
	// input, whatever the ids.
	var missing []string
	hi, prev := online[len(online)-1].id, -1
	for _, c := range out {
		if c.id > hi {
			break
		}
		if lo, top := prev+1, c.id-1; lo == top {
			missing = append(missing, strconv.Itoa(lo))
		} else if lo < top {
			missing = append(missing, strconv.Itoa(lo)+"-"+strconv.Itoa(top))
		}
		prev = c.id
	}
	if len(missing) > 0 {
		probs.add("machine", "CPUs %s are not listed (offline or absent; lscpu -a lists them)", strings.Join(missing, ","))
	}
	if (len(offline) > 0 || len(missing) > 0) && len(online) > sim.MaxCPUs {
		probs.add("machine", "the scenario numbers the %d online CPUs 0..%d in order: its cpuN is the input's %s", len(online), len(online)-1, renumbering(online))
	}
	// Fill unknowns so that keys work: no Core column means a core per CPU.
	for i := range online {
		c := &online[i]
		if c.core < 0 {
			c.core = 1_000_000 + c.id
		}
		c.node = max(c.node, 0)
		c.socket = max(c.socket, 0)
	}
	return online, nil
}

// lscpuID reads a non-negative id.
func lscpuID(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1<<30 {
		return 0, false
	}
	return n, true
}

// isCacheName: L1d, L1i, L2, L3, L4 (any case).
func isCacheName(n string) bool { return cacheLevel(n) > 0 }

func cacheLevel(n string) int {
	if len(n) < 2 || (n[0] != 'L' && n[0] != 'l') || n[1] < '1' || n[1] > '9' {
		return 0
	}
	switch strings.ToLower(n[2:]) {
	case "", "d", "i":
		return int(n[1] - '0')
	}
	return 0
}

func isUnified(n string) bool { return len(n) == 2 }

// renumbering describes which input CPU each scenario CPU is, compactly.
func renumbering(cpus []lcpu) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1].id == cpus[j].id+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprintf("cpu%d=%d", i, cpus[i].id))
		} else {
			parts = append(parts, fmt.Sprintf("cpu%d-%d=%d-%d", i, j, cpus[i].id, cpus[j].id))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// keys of one CPU's place in the tree, each unique machine-wide.
type lkeys struct {
	node, socket, llc, l2, core [5]int
}

func keysOf(c *lcpu) lkeys {
	var k lkeys
	k.node = [5]int{c.node}
	k.socket = [5]int{c.node, c.socket}
	k.llc = [5]int{c.node, c.socket, c.llc}
	k.l2 = [5]int{c.node, c.socket, c.llc, c.l2}
	k.core = [5]int{c.node, c.socket, c.core}
	return k
}

// counting helps find "how many children per parent" and whether it varies.
type counting struct {
	children map[[5]int]map[[5]int]bool
	order    [][5]int
}

func newCounting() *counting { return &counting{children: map[[5]int]map[[5]int]bool{}} }

func (c *counting) add(parent, child [5]int) {
	m := c.children[parent]
	if m == nil {
		m = map[[5]int]bool{}
		c.children[parent] = m
		c.order = append(c.order, parent)
	}
	m[child] = true
}

// mode returns the most common number of children per parent (ties: the
// smaller) and, if the numbers vary, a description of them.
func (c *counting) mode() (int, string) {
	freq := map[int]int{}
	var sizes []int
	for _, p := range c.order {
		n := len(c.children[p])
		if freq[n] == 0 {
			sizes = append(sizes, n)
		}
		freq[n]++
	}
	slices.Sort(sizes)
	best := sizes[0]
	for _, n := range sizes {
		if freq[n] > freq[best] {
			best = n
		}
	}
	if len(sizes) == 1 {
		return best, ""
	}
	var parts []string
	for _, n := range sizes {
		parts = append(parts, fmt.Sprintf("%d (%d times)", n, freq[n]))
	}
	return best, strings.Join(parts, ", ")
}

func closestMachine(cpus []lcpu, probs *problems) scenarios.Machine {
	n := len(cpus)
	hasL2Clusters := false
	nodes, sockets, llcs, l2s, threads := newCounting(), newCounting(), newCounting(), newCounting(), newCounting()
	l2Cores := newCounting() // cores per L2
	socketNodes := map[int]map[int]bool{}
	coreSet := map[[5]int]bool{}
	for i := range cpus {
		c := &cpus[i]
		k := keysOf(c)
		nodes.add([5]int{}, k.node)
		sockets.add(k.node, k.socket)
		llcs.add(k.socket, k.llc)
		l2s.add(k.llc, k.l2)
		l2Cores.add(k.l2, k.core)
		threads.add(k.core, [5]int{c.id})
		coreSet[k.core] = true
		if socketNodes[c.socket] == nil {
			socketNodes[c.socket] = map[int]bool{}
		}
		socketNodes[c.socket][c.node] = true
	}
	m := scenarios.Machine{Nodes: len(nodes.children[[5]int{}]), HZ: scenarios.DefaultHZ, Numbering: "linear"}
	var split []int64
	for s, ns := range socketNodes {
		if len(ns) > 1 {
			split = append(split, int64(s))
		}
	}
	if len(split) > 0 {
		slices.Sort(split)
		probs.add("machine", "sockets %s span several NUMA nodes (sub-NUMA clustering): each node is modelled as its own socket", cpuList(split))
	}
	var vary string
	report := func(what string, used int, vary string) {
		if vary != "" {
			probs.add("machine", "%s vary: %s; %d used", what, vary, used)
		}
	}
	m.SocketsPerNode, vary = sockets.mode()
	report("sockets per node", m.SocketsPerNode, vary)
	m.LLCsPerSocket, vary = llcs.mode()
	report("last-level caches per socket", m.LLCsPerSocket, vary)

	// Clusters: L2 caches shared by more than one core, below an L3.
	coresPerL2, l2vary := l2Cores.mode()
	anyShared := false
	for _, p := range l2Cores.order {
		anyShared = anyShared || len(l2Cores.children[p]) > 1
	}
	m.ClustersPerLLC = 1
	switch {
	case !anyShared || cpus[0].l2 < 0 || cpus[0].llc < 0:
	case l2vary != "":
		probs.add("machine", "L2 caches are shared by different numbers of cores (%s): no cluster level", l2vary)
	case coresPerL2 > 1:
		hasL2Clusters = true
		m.ClustersPerLLC, vary = l2s.mode()
		report("L2 clusters per last-level cache", m.ClustersPerLLC, vary)
	}

	// Cores per cluster (or per LLC without clusters).
	per := newCounting()
	for i := range cpus {
		k := keysOf(&cpus[i])
		if hasL2Clusters {
			per.add(k.l2, k.core)
		} else {
			per.add(k.llc, k.core)
		}
	}
	m.CoresPerCluster, vary = per.mode()
	report("cores per cluster", m.CoresPerCluster, vary)
	m.ThreadsPerCore, vary = threads.mode()
	if vary != "" {
		probs.add("machine", "cores have different numbers of threads: %s (a hybrid CPU?); %d used", vary, m.ThreadsPerCore)
	}
	var mhz []string
	for _, c := range cpus {
		if c.maxMHz != "" && !slices.Contains(mhz, c.maxMHz) {
			mhz = append(mhz, c.maxMHz)
		}
	}
	if len(mhz) > 1 {
		probs.add("machine", "CPUs have different maximum frequencies (%s MHz): the simulator gives every CPU the same capacity", strings.Join(mhz, ", "))
	}

	// Keep the CPU count where a whole number of cores per cluster does.
	others := m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.ThreadsPerCore
	if prod := others * m.CoresPerCluster; prod != n {
		if c := (n + others/2) / others; c >= 1 && c != m.CoresPerCluster {
			probs.add("machine", "%d cores per cluster where the input has %d, so that the machine keeps %d CPUs (the input has %d cores for %d CPUs)",
				c, m.CoresPerCluster, c*others, len(coreSet), n)
			m.CoresPerCluster = c
		}
	}
	for prod := others * m.CoresPerCluster; prod > sim.MaxCPUs; prod = m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore {
		switch {
		case m.CoresPerCluster > 1:
			m.CoresPerCluster = max(1, sim.MaxCPUs/(prod/m.CoresPerCluster))
		case m.ClustersPerLLC > 1:
			m.ClustersPerLLC = max(1, m.ClustersPerLLC/2)
		case m.LLCsPerSocket > 1:
			m.LLCsPerSocket = max(1, m.LLCsPerSocket/2)
		case m.SocketsPerNode > 1:
			m.SocketsPerNode = max(1, m.SocketsPerNode/2)
		case m.ThreadsPerCore > 1:
			m.ThreadsPerCore = max(1, m.ThreadsPerCore/2)
		default:
			m.Nodes = max(1, m.Nodes/2)
		}
	}
	total := m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore
	if total != n {
		why := ""
		if total < n && n > sim.MaxCPUs {
			why = fmt.Sprintf(" (the simulator has at most %d)", sim.MaxCPUs)
		}
		probs.add("machine", "the closest regular machine, %dx%dx%dx%dx%dx%d, has %d CPUs where the input has %d online%s",
			m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore, total, n, why)
	}
	m.Numbering = chooseNumbering(cpus, m, probs)
	return m
}

// chooseNumbering picks the numbering under which the scenario's machine
// puts the most CPUs where the input has them (same core, LLC and node
// mates); with one thread per core both numberings are the same machine.
func chooseNumbering(cpus []lcpu, m scenarios.Machine, probs *problems) string {
	if m.ThreadsPerCore == 1 && len(cpus) == m.Nodes*m.SocketsPerNode*m.LLCsPerSocket*m.ClustersPerLLC*m.CoresPerCluster {
		if bad := misplaced(cpus, m, sim.NumberLinear); bad > 0 {
			probs.add("machine", "%d of %d CPUs sit elsewhere in the scenario's machine than in the input (ids are assigned in tree order)", bad, len(cpus))
		}
		return "linear"
	}
	total := m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore
	if total != len(cpus) {
		// Not comparable CPU by CPU: look at how the input numbers the
		// threads of a core.
		adjacent, apart := 0, 0
		byCore := map[[5]int][]int{}
		var order [][5]int
		for i := range cpus {
			k := keysOf(&cpus[i]).core
			if byCore[k] == nil {
				order = append(order, k)
			}
			byCore[k] = append(byCore[k], i)
		}
		for _, k := range order {
			ix := byCore[k]
			if len(ix) < 2 {
				continue
			}
			if ix[1] == ix[0]+1 {
				adjacent++
			} else {
				apart++
			}
		}
		if apart > adjacent {
			return "x86"
		}
		return "linear"
	}
	lin := misplaced(cpus, m, sim.NumberLinear)
	x86 := misplaced(cpus, m, sim.NumberX86)
	best, bad := "x86", x86
	if lin < x86 {
		best, bad = "linear", lin
	}
	if bad > 0 {
		probs.add("machine", "the CPU numbering matches neither layout exactly; %s is closest, with %d of %d CPUs elsewhere than in the input", best, bad, len(cpus))
	}
	return best
}

// misplaced counts the CPUs whose core, LLC or node mates differ between the
// input and the scenario's machine numbered num (which must have as many
// CPUs as the input).
func misplaced(cpus []lcpu, m scenarios.Machine, num sim.Numbering) int {
	sm := sim.Machine{Nodes: m.Nodes, SocketsPerNode: m.SocketsPerNode, LLCsPerSocket: m.LLCsPerSocket,
		ClustersPerLLC: m.ClustersPerLLC, CoresPerCluster: m.CoresPerCluster, ThreadsPerCore: m.ThreadsPerCore, Numbering: num}
	t, err := sim.NewTopology(&sm)
	if err != nil || t.NCPU != len(cpus) {
		return len(cpus)
	}
	keys := make([]lkeys, len(cpus))
	for i := range cpus {
		keys[i] = keysOf(&cpus[i])
	}
	bad := 0
	for a := range cpus {
		for b := range cpus {
			ta, tb := t.CPU[a], t.CPU[b]
			if (keys[a].core == keys[b].core) != (ta.Core == tb.Core) ||
				(keys[a].llc == keys[b].llc) != (ta.LLC == tb.LLC) ||
				(keys[a].node == keys[b].node) != (ta.Node == tb.Node) {
				bad++
				break
			}
		}
	}
	return bad
}
