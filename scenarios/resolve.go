package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"schedplay/sim"
)

// Validate checks the scenario and returns every problem (up to 25, then a
// count), each as an *Error "path: problem", joined with errors.Join. It is
// the same code as Config, minus the result, so the two cannot disagree.
func (s *Scenario) Validate() error {
	var p problems
	s.resolve(&p)
	return p.err()
}

// Config resolves the scenario for the simulator: durations to nanoseconds,
// task names to indices, CPU lists to masks, kernel names to the simulator's
// enums, and cost overrides applied to sim.DefaultCosts(). It fails exactly
// when Validate does.
func (s *Scenario) Config() (*sim.Config, error) {
	var p problems
	cfg := s.resolve(&p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Names of enum values, in the scenario's spelling. The first entry of each
// table is listed first in error messages.
type named[T any] struct {
	name string
	val  T
}

var (
	numberings = []named[sim.Numbering]{{"linear", sim.NumberLinear}, {"x86", sim.NumberX86}}
	bases      = []named[sim.Base]{{"v2.6.8", sim.BaseV268}, {"v3.8", sim.BaseV38}, {"v6.17", sim.BaseV617}}
	cpuScheds  = []named[sim.CPUScheduler]{{"o1", sim.CPUSchedO1}, {"staircase", sim.CPUSchedStaircase}}
	stairModes = []named[sim.StaircaseMode]{{"interactive", sim.StairInteractive}, {"noninteractive", sim.StairNonInteractive}, {"compute", sim.StairCompute}}
	loadNames  = []named[sim.LoadMetric]{
		{"load_weight", sim.LoadWeight}, {"runnable_load_avg", sim.LoadRunnableAvg},
		{"runnable_plus_blocked", sim.LoadRunnablePlusBlocked}, {"load_avg", sim.LoadAvg},
	}
	sisNames = []named[sim.SIS]{
		{"v3.6", sim.SISV36}, {"cpu_buddies", sim.SISBuddies}, {"bottom_up", sim.SISBottomUp},
		{"sis_util", sim.SISUtil}, {"off", sim.SISOff}, {"v3.8", sim.SISV38},
	}
	newTaskLoads = []named[sim.NewTaskLoad]{{"zero", sim.NewTaskLoadZero}, {"full", sim.NewTaskLoadFull}}
	fanouts      = []named[sim.Fanout]{{"index", sim.FanoutIndex}, {"all", sim.FanoutAll}, {"one", sim.FanoutOne}, {"waker", sim.FanoutWaker}}
	hzValues     = []int{100, 250, 300, 1000}
	levelList    = "SMT, CLS, MC, PKG (or DIE), NUMA"
)

// lookup resolves name in table; "" gives def (the "absent" value).
func lookup[T any](p *problems, path, name string, table []named[T], def T) T {
	if name == "" {
		return def
	}
	for _, e := range table {
		if e.name == name {
			return e.val
		}
	}
	names := make([]string, len(table))
	for i, e := range table {
		names[i] = e.name
	}
	p.add(path, fmt.Sprintf("%s is not one of %s", quote(name), strings.Join(names, ", ")))
	return def
}

// quote quotes a user-supplied value for a message, shortened if long.
func quote(v string) string {
	if len(v) > 64 {
		v = strings.ToValidUTF8(v[:64], "") + "..."
	}
	return fmt.Sprintf("%q", v)
}

// dur parses a duration string: not negative, at least min (min 0 allows
// "0s", min 1 means "more than 0"), at most max.
func dur(p *problems, path, v string, r durRange) int64 {
	min, max := r.min, r.max
	d, err := time.ParseDuration(v)
	switch {
	case err != nil, len(v) > maxDurationText:
		p.add(path, quote(v)+" is not a duration")
	case d < 0:
		p.add(path, quote(v)+" is negative")
	case d < min && min == 1:
		p.add(path, "must be more than 0")
	case d < min:
		p.add(path, fmt.Sprintf("%s is shorter than the minimum %s", quote(v), fmtDur(min)))
	case d > max:
		p.add(path, fmt.Sprintf("%s is longer than the limit %s", quote(v), fmtDur(max)))
	default:
		return int64(d)
	}
	return 0
}

// lim and ilim are a schema row's limits: resolve checks what the table
// documents.
func lim(pattern string) durRange {
	lo, hi := durLimits(pattern)
	return durRange{lo, hi}
}

func ilim(pattern string) intRangeT {
	lo, hi := intLimits(pattern)
	return intRangeT{lo, hi}
}

type durRange struct{ min, max time.Duration }
type intRangeT struct{ lo, hi int }

// maxDurationText bounds a duration string ("0000...01ms" parses, but
// makes files and links big for nothing).
const maxDurationText = 32

// maxCPUListText bounds a cpus string: every second CPU of 256 is ~900
// characters.
const maxCPUListText = 1024

// fmtDur prints a limit the way scenario files write durations: "600s"
// rather than "10m0s", "10us" rather than "10µs".
func fmtDur(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return strings.ReplaceAll(d.String(), "µ", "u")
}

// optDur is dur for an optional field: "" leaves *dst alone.
func optDur(p *problems, path, v string, r durRange, dst *int64) {
	if v != "" {
		*dst = dur(p, path, v, r)
	}
}

func intRange(p *problems, path string, v int, r intRangeT) bool {
	lo, hi := r.lo, r.hi
	if v < lo || v > hi {
		p.add(path, fmt.Sprintf("%d is out of range %d..%d", v, lo, hi))
		return false
	}
	return true
}

// isBidiControl reports the Unicode bidirectional embedding, override and
// isolate controls (U+202A-U+202E, U+2066-U+2069: the "Trojan Source"
// characters), which reorder the text after them. Marks (U+200E, U+200F,
// U+061C) only affect neutral characters next to them and are allowed.
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// text checks a free-text field's length in characters and its characters:
// no control characters (multiLine allows newlines and tabs).
func text(p *problems, path, v string, max int, multiLine bool) {
	if !utf8.ValidString(v) {
		p.add(path, "is not valid UTF-8")
		return
	}
	if n := utf8.RuneCountInString(v); n > max {
		p.add(path, fmt.Sprintf("is %d characters; the limit is %d", n, max))
		return
	}
	for _, r := range v {
		if unicode.IsControl(r) && !(multiLine && (r == '\n' || r == '\t' || r == '\r')) {
			p.add(path, fmt.Sprintf("contains the control character %U", r))
			return
		}
		if isBidiControl(r) {
			p.add(path, fmt.Sprintf("contains the bidirectional control character %U, which can make the text display in another order than it is written", r))
			return
		}
	}
}

func (s *Scenario) resolve(p *problems) *sim.Config {
	cfg := &sim.Config{Title: s.Title, Seed: s.Seed}
	if s.Version < Version || s.Version > MaxVersion {
		p.add("version", fmt.Sprintf("%d is not supported; this reader understands versions %d to %d", s.Version, Version, MaxVersion))
	}
	text(p, "title", s.Title, textLimit("title"), false)
	text(p, "description", s.Description, textLimit("description"), true)
	text(p, "summary", s.Summary, textLimit("summary"), false)
	s.View.validate(p, "view")
	if s.Seed > MaxSeed {
		p.add("seed", fmt.Sprintf("%d is more than 2^53-1 (seeds must survive JavaScript)", s.Seed))
	}
	if s.Duration == "" {
		p.add("duration", "missing (for example \"5s\")")
	} else {
		cfg.Duration = dur(p, "duration", s.Duration, lim("duration"))
	}
	ncpu, cpuIDs := s.Machine.resolveIDs(p, "machine", &cfg.Machine)
	if s.Version < 2 && (s.Machine.CPUs != nil || s.Machine.NUMADistance != nil) {
		p.add("machine.cpus", "a machine given per CPU needs \"version\": 2")
	}
	s.Policy.resolve(p, "policy", &cfg.Policy)
	if s.v1BalanceWakeMerge() {
		cfg.Policy.FeatSet |= 1 << sim.FeatBalanceWakeMerge // version 1's meaning (upgrade.go)
	}
	syncs := resolveSyncs(p, "tasks", s.Tasks)
	cfg.Syncs = syncs.objs
	cfg.Tasks = resolveTasks(p, "tasks", s.Tasks, ncpu, cpuIDs, s.Version, syncs)
	if p.ok() {
		// The canonical form can be longer than the input (it writes
		// defaults out, and escapes <, > and & as \u003c...): it must still
		// fit the limit, or its share link would be refused.
		if n := len(s.Canonical()); n > MaxScenarioBytes {
			p.add("", fmt.Sprintf("the scenario's canonical JSON is %d bytes; the limit is %d (256 KiB)", n, MaxScenarioBytes))
		}
	}
	return cfg
}

// isCacheSize reports whether v is a cache size label: 1-6 digits, an
// optional '.' and 1-3 digits, an optional space (ASCII: tab, newline, form
// feed, carriage return or ' '), then K, M or G, an optional 'i', and 'B'
// (the regular expression ^[0-9]{1,6}(\.[0-9]{1,3})?\s?[KMG]i?B$; the test
// checks both agree).
func isCacheSize(v string) bool {
	digits := func(i, most int) int { // the end of a run of 1..most digits at i, or -1
		j := i
		for j < len(v) && j-i < most && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
	i := digits(0, 6)
	if i < 0 {
		return false
	}
	if i < len(v) && v[i] == '.' {
		if i = digits(i+1, 3); i < 0 {
			return false
		}
	}
	if i < len(v) && strings.IndexByte("\t\n\f\r ", v[i]) >= 0 {
		i++
	}
	if i == len(v) || strings.IndexByte("KMG", v[i]) < 0 {
		return false
	}
	i++
	if i < len(v) && v[i] == 'i' {
		i++
	}
	return i == len(v)-1 && v[i] == 'B'
}

// resolve checks the machine and returns its CPU count, or 0 if the shape
// is invalid (then CPU lists are not checked against it).
func (m *Machine) resolve(p *problems, path string, out *sim.Machine) int {
	n, _ := m.resolveIDs(p, path, out)
	return n
}

// resolveIDs is resolve that also returns, for a machine given per CPU, the
// kernel numbers of its CPUs (nil for the regular form).
func (m *Machine) resolveIDs(p *problems, path string, out *sim.Machine) (int, []int) {
	if len(m.CPUs) > 0 || m.NUMADistance != nil {
		if len(m.CPUs) == 0 {
			p.add(join(path, "numa_distance"), "only a machine given per CPU (machine.cpus) has a distance table")
		}
		ids := m.resolvePerCPU(p, path, out)
		m.resolveCommon(p, path, out)
		return len(ids), ids
	}
	return m.resolveCounts(p, path, out), nil
}

func (m *Machine) resolveCounts(p *problems, path string, out *sim.Machine) int {
	dims := []struct {
		key string
		v   int
		dst *int
	}{
		{"nodes", m.Nodes, &out.Nodes},
		{"sockets_per_node", m.SocketsPerNode, &out.SocketsPerNode},
		{"llcs_per_socket", m.LLCsPerSocket, &out.LLCsPerSocket},
		{"clusters_per_llc", m.ClustersPerLLC, &out.ClustersPerLLC},
		{"cores_per_cluster", m.CoresPerCluster, &out.CoresPerCluster},
		{"threads_per_core", m.ThreadsPerCore, &out.ThreadsPerCore},
	}
	// Each dimension is bounded first, so the product below cannot overflow
	// (256^6 < 2^63) and no machine is ever built to find out it is too big.
	ncpu, shapeOK := 1, true
	for _, d := range dims {
		if !intRange(p, join(path, d.key), d.v, ilim("machine."+d.key)) {
			shapeOK = false
			continue
		}
		*d.dst = d.v
		ncpu *= d.v
	}
	if shapeOK && ncpu > MaxCPUs {
		p.add(path, fmt.Sprintf("%d CPUs (%d×%d×%d×%d×%d×%d); the limit is %d", ncpu,
			m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore, MaxCPUs))
		shapeOK = false
	}
	m.resolveCommon(p, path, out)
	if !shapeOK {
		return 0
	}
	return ncpu
}

// resolveCommon resolves what both forms have: hz, numbering, costs, labels.
func (m *Machine) resolveCommon(p *problems, path string, out *sim.Machine) {
	if hz := fieldRow("machine.hz").Enum; !slices.Contains(hz, strconv.Itoa(m.HZ)) {
		p.add(join(path, "hz"), fmt.Sprintf("%d is not one of %s", m.HZ, strings.Join(hz, ", ")))
	}
	out.HZ = m.HZ
	out.Numbering = lookup(p, join(path, "numbering"), m.Numbering, numberings, sim.NumberLinear)
	out.Costs = m.Costs.resolve(p, join(path, "costs"))
	for _, c := range []struct{ key, v string }{{"llc_size", m.LLCSize}, {"l2_size", m.L2Size}} {
		if c.v != "" && !isCacheSize(c.v) {
			p.add(join(path, c.key), quote(c.v)+` is not a cache size (like "30MB", "1.25MiB", "512KB")`)
		}
	}
}

func (c *Costs) resolve(p *problems, path string) sim.Costs {
	out := sim.DefaultCosts()
	optDur(p, join(path, "context_switch"), c.ContextSwitch, lim("machine.costs.context_switch"), &out.ContextSwitch)
	optDur(p, join(path, "wakeup_ipi"), c.WakeupIPI, lim("machine.costs.wakeup_ipi"), &out.WakeupIPI)
	optDur(p, join(path, "wakeup_ipi_send"), c.WakeupIPISend, lim("machine.costs.wakeup_ipi_send"), &out.WakeupIPISend)
	optDur(p, join(path, "wakeup_poll"), c.WakeupPoll, lim("machine.costs.wakeup_poll"), &out.WakeupPoll)
	optDur(p, join(path, "timer_irq_spread"), c.TimerIRQSpread, lim("machine.costs.timer_irq_spread"), &out.TimerIRQSpread)
	optDur(p, join(path, "timer_wakeup"), c.TimerWakeup, lim("machine.costs.timer_wakeup"), &out.TimerWakeup)
	optDur(p, join(path, "idle_return"), c.IdleReturn, lim("machine.costs.idle_return"), &out.IdleReturn)
	if c.IdleStates != nil {
		ipath := join(path, "idle_states")
		if len(c.IdleStates) > MaxIdleStates {
			p.add(ipath, fmt.Sprintf("more than %d idle states", MaxIdleStates))
		} else {
			out.IdleStates = make([]sim.IdleState, len(c.IdleStates))
			for i, st := range c.IdleStates {
				sp := index(ipath, i)
				if st.Name == "" {
					p.add(join(sp, "name"), "missing")
				} else {
					text(p, join(sp, "name"), st.Name, textLimit("machine.costs.idle_states[i].name"), false)
				}
				o := &out.IdleStates[i]
				o.Name = st.Name
				if st.After == "" {
					p.add(join(sp, "after"), "missing")
				} else {
					o.After = dur(p, join(sp, "after"), st.After, lim("machine.costs.idle_states[i].after"))
				}
				if st.ExitLatency == "" {
					p.add(join(sp, "exit_latency"), "missing")
				} else {
					o.ExitLatency = dur(p, join(sp, "exit_latency"), st.ExitLatency, lim("machine.costs.idle_states[i].exit_latency"))
				}
				o.Package, o.Polls, o.Flushes = st.Package, st.Polls, st.Flushes
				if i > 0 && st.After != "" && o.After <= out.IdleStates[i-1].After {
					p.add(join(sp, "after"), "must be longer than the previous state's (states go shallowest first)")
				}
			}
		}
	}
	cold := []struct {
		key string
		v   string
		d   sim.Distance
	}{{"smt", c.CacheCold.SMT, sim.DistSMT}, {"cluster", c.CacheCold.Cluster, sim.DistCluster},
		{"llc", c.CacheCold.LLC, sim.DistLLC}, {"package", c.CacheCold.Package, sim.DistPackage},
		{"numa", c.CacheCold.NUMA, sim.DistNUMA}}
	for _, e := range cold {
		optDur(p, join(join(path, "cache_cold"), e.key), e.v, lim("machine.costs.cache_cold."+e.key), &out.CacheCold[e.d])
	}
	comm := []struct {
		key string
		v   string
		d   sim.Distance
	}{{"same", c.Comm.Same, sim.DistSame}, {"smt", c.Comm.SMT, sim.DistSMT},
		{"cluster", c.Comm.Cluster, sim.DistCluster}, {"llc", c.Comm.LLC, sim.DistLLC},
		{"package", c.Comm.Package, sim.DistPackage}, {"numa", c.Comm.NUMA, sim.DistNUMA}}
	for _, e := range comm {
		optDur(p, join(join(path, "comm"), e.key), e.v, lim("machine.costs.comm."+e.key), &out.Comm[e.d])
	}
	optDur(p, join(path, "search_cpu"), c.SearchCPU, lim("machine.costs.search_cpu"), &out.SearchCPU)
	optDur(p, join(path, "search_group"), c.SearchGroup, lim("machine.costs.search_group"), &out.SearchGroup)
	optDur(p, join(path, "search_domain"), c.SearchDomain, lim("machine.costs.search_domain"), &out.SearchDomain)
	optDur(p, join(path, "balance_cpu"), c.BalanceCPU, lim("machine.costs.balance_cpu"), &out.BalanceCPU)
	if c.JitterPct != nil && intRange(p, join(path, "jitter_pct"), *c.JitterPct, ilim("machine.costs.jitter_pct")) {
		out.JitterPct = *c.JitterPct
	}
	if c.RemoteMemPct != nil && intRange(p, join(path, "remote_mem_pct"), *c.RemoteMemPct, ilim("machine.costs.remote_mem_pct")) {
		out.RemoteMemPct = *c.RemoteMemPct
	}
	if c.SMTGain != nil && intRange(p, join(path, "smt_gain"), *c.SMTGain, ilim("machine.costs.smt_gain")) {
		out.SMTGain = int64(*c.SMTGain)
	}
	return out
}

// Ranges of the per-level tunables. The kernel's defaults sit well inside
// them: imbalance_pct 110..125, busy_factor 16..64, intervals of a few ms.
const (
	minImbalancePct, maxImbalancePct = 100, 1000
	minBusyFactor, maxBusyFactor     = 1, 1024
	maxCacheNiceTries                = 100
)

var (
	maxInterval  = 10 * time.Second
	minBaseSlice = 100 * time.Microsecond
	maxBaseSlice = time.Second
)

func (pol *Policy) resolve(p *problems, path string, out *sim.Policy) {
	out.Base = lookup(p, join(path, "base"), pol.Base, bases, sim.BaseV617)
	pol.checkBase(p, path, out.Base)
	out.CPUScheduler = lookup(p, join(path, "cpu_scheduler"), pol.CPUScheduler, cpuScheds, sim.CPUSchedO1)
	out.StaircaseMode = lookup(p, join(path, "staircase_mode"), pol.StaircaseMode, stairModes, sim.StairInteractive)
	if pol.StaircaseMode != "" && pol.CPUScheduler != "staircase" {
		p.add(join(path, "staircase_mode"), "applies to cpu_scheduler \"staircase\" only")
	}
	if t := pol.ExecBalanceThreshold; t != nil && intRange(p, join(path, "exec_balance_threshold"), *t, ilim("policy.exec_balance_threshold")) {
		out.ExecBalanceThreshold = *t
	}
	out.LoadMetric = lookup(p, join(path, "load_metric"), pol.LoadMetric, loadNames, sim.LoadDefault)
	out.SIS = lookup(p, join(path, "select_idle_sibling"), pol.SelectIdleSibling, sisNames, sim.SISDefault)
	out.NewTaskLoad = lookup(p, join(path, "new_task_load"), pol.NewTaskLoad, newTaskLoads, sim.NewTaskLoadDefault)

	// sd_flags: DIE and PKG, and a flag's old and new names, may not both
	// be given for one switch: the file would not say which one wins.
	fpath := join(path, "sd_flags")
	seenFlag := map[[2]uint32]string{}
	for _, lname := range sortedKeys(pol.SDFlags) {
		lpath := join(fpath, lname)
		level, ok := sim.LevelByName(lname)
		if !ok {
			p.add(lpath, "unknown domain level (levels: "+levelList+")")
			continue
		}
		flags := pol.SDFlags[lname]
		for _, fname := range sortedKeys(flags) {
			fp := join(lpath, fname)
			f, ok := sim.SDFlagByName(fname)
			if !ok {
				p.add(fp, "unknown flag (flags: "+strings.Join(sim.SDFlagNames(), ", ")+")")
				continue
			}
			key := [2]uint32{uint32(level), uint32(f)}
			if other, dup := seenFlag[key]; dup {
				p.add(fp, "the same switch as "+other)
				continue
			}
			seenFlag[key] = fp
			if flags[fname] {
				out.SDFlags[level].Set |= f
			} else {
				out.SDFlags[level].Clear |= f
			}
		}
	}

	tpath := join(path, "tunables")
	seenLevel := map[sim.Level]string{}
	for _, lname := range sortedKeys(pol.Tunables) {
		lpath := join(tpath, lname)
		level, ok := sim.LevelByName(lname)
		if !ok {
			p.add(lpath, "unknown domain level (levels: "+levelList+")")
			continue
		}
		if other, dup := seenLevel[level]; dup {
			p.add(lpath, "the same level as "+other)
			continue
		}
		seenLevel[level] = lpath
		t := pol.Tunables[lname]
		o := &out.Tunables[level]
		if t.ImbalancePct != nil && intRange(p, join(lpath, "imbalance_pct"), *t.ImbalancePct, ilim("policy.tunables.<level>.imbalance_pct")) {
			o.ImbalancePct = *t.ImbalancePct
		}
		if t.BusyFactor != nil && intRange(p, join(lpath, "busy_factor"), *t.BusyFactor, ilim("policy.tunables.<level>.busy_factor")) {
			o.BusyFactor = *t.BusyFactor
		}
		o.MinInterval = intervalMS(p, join(lpath, "min_interval"), t.MinInterval)
		o.MaxInterval = intervalMS(p, join(lpath, "max_interval"), t.MaxInterval)
		if o.MinInterval > 0 && o.MaxInterval > 0 && o.MinInterval > o.MaxInterval {
			p.add(join(lpath, "max_interval"), "is shorter than min_interval")
		}
		if t.CacheNiceTries != nil && intRange(p, join(lpath, "cache_nice_tries"), *t.CacheNiceTries, ilim("policy.tunables.<level>.cache_nice_tries")) {
			o.CacheNiceTries = *t.CacheNiceTries
			if o.CacheNiceTries == 0 {
				o.CacheNiceTries = -1 // sim.Tunables: 0 is "the base's default", -1 is an explicit 0
			}
		}
	}

	optDur(p, join(path, "migration_cost"), pol.MigrationCost, lim("policy.migration_cost"), &out.MigrationCost)
	if pol.MigrationCost != "" && out.MigrationCost == 0 {
		out.MigrationCost = -1 // sim: an explicit 0 (never cache-hot)
	}
	optDur(p, join(path, "base_slice"), pol.BaseSlice, lim("policy.base_slice"), &out.BaseSlice)

	featPath := join(path, "features")
	for _, name := range sortedKeys(pol.Features) {
		f, ok := sim.FeatureByName(name)
		if !ok {
			names := make([]string, sim.NumFeatures)
			for i := range names {
				names[i] = sim.Feature(i).String()
			}
			p.add(join(featPath, name), "unknown feature (features: "+strings.Join(names, ", ")+")")
			continue
		}
		if pol.Features[name] {
			out.FeatSet |= 1 << f
		} else {
			out.FeatClear |= 1 << f
		}
	}
}

// checkBase refuses the switches base lacks, each at its path.
func (pol *Policy) checkBase(p *problems, path string, base sim.Base) {
	if base == sim.BaseV268 {
		lacks := func(field, val, why string) {
			if val != "" {
				p.add(join(path, field), "base \"v2.6.8\" has no such switch ("+why+")")
			}
		}
		lacks("load_metric", pol.LoadMetric, "no PELT: a CPU's load is nr_running * SCHED_LOAD_SCALE")
		lacks("select_idle_sibling", pol.SelectIdleSibling, "try_to_wake_up() has its own rules; select_idle_sibling came in 2.6.x later")
		lacks("new_task_load", pol.NewTaskLoad, "no PELT")
		lacks("migration_cost", pol.MigrationCost, "cache-hot time is per domain: cache_hot_time")
		lacks("base_slice", pol.BaseSlice, "no EEVDF: timeslices come from static_prio")
		// A later era's flag may be cleared (it is off in 2.6.8 anyway:
		// a preset written for v3.8 that turns SD_BALANCE_FORK off runs
		// as it is), not set.
		for _, lname := range sortedKeys(pol.SDFlags) {
			for _, f := range sortedKeys(pol.SDFlags[lname]) {
				if _, ok := sim.SDFlagByName(f); ok && !slices.Contains(flags268, f) && pol.SDFlags[lname][f] {
					p.add(join(join(join(path, "sd_flags"), lname), f), "not a flag of base \"v2.6.8\" (its flags: "+strings.Join(flags268[:6], ", ")+")")
				}
			}
		}
		for _, f := range sortedKeys(pol.Features) {
			if _, ok := sim.FeatureByName(f); ok && !slices.Contains(features268, f) {
				p.add(join(join(path, "features"), f), "not a switch of base \"v2.6.8\" (its features: "+strings.Join(features268, ", ")+")")
			}
		}
		return
	}
	if pol.CPUScheduler != "" {
		p.add(join(path, "cpu_scheduler"), only268)
	}
	if pol.StaircaseMode != "" {
		p.add(join(path, "staircase_mode"), only268)
	}
	if pol.ExecBalanceThreshold != nil {
		p.add(join(path, "exec_balance_threshold"), only268)
	}
	for _, lname := range sortedKeys(pol.SDFlags) {
		for _, f := range sortedKeys(pol.SDFlags[lname]) {
			if slices.Contains(flagsOnly268, f) && pol.SDFlags[lname][f] {
				p.add(join(join(join(path, "sd_flags"), lname), f), only268)
			}
		}
	}
}

// intervalMS parses a balance interval: the kernel keeps them in whole
// milliseconds (jiffies at HZ=1000), so "1.5ms" is refused, not rounded.
func intervalMS(p *problems, path, v string) int64 {
	if v == "" {
		return 0
	}
	ns := dur(p, path, v, lim("policy.tunables.<level>.min_interval"))
	if ns == 0 {
		return 0
	}
	if ns%int64(time.Millisecond) != 0 {
		p.add(path, quote(v)+" is not a whole number of milliseconds")
		return 0
	}
	return ns / int64(time.Millisecond)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// validName reports whether a task name matches [A-Za-z0-9_.-]{1,32}.
func validName(n string) bool {
	if len(n) == 0 || len(n) > 32 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

const maxLoop = 1_000_000_000

func resolveTasks(p *problems, path string, tasks []Task, ncpu int, cpuIDs []int, version int, syncs *syncTable) []sim.TaskGroup {
	if len(tasks) == 0 {
		p.add(path, "at least one task is needed")
		return nil
	}
	if len(tasks) > MaxTaskGroups {
		p.add(path, fmt.Sprintf("%d task groups; the limit is %d", len(tasks), MaxTaskGroups))
		return nil
	}
	byName := make(map[string]int, len(tasks))
	for i, t := range tasks {
		if _, dup := byName[t.Name]; !dup {
			byName[t.Name] = i
		}
	}
	out := make([]sim.TaskGroup, len(tasks))
	forked := make([]bool, len(tasks)) // started by some fork step
	total := 0
	for i := range tasks {
		t := &tasks[i]
		tp := index(path, i)
		o := &out[i]
		o.Name = t.Name
		switch {
		case t.Name == "":
			p.add(join(tp, "name"), "missing")
		case !validName(t.Name):
			p.add(join(tp, "name"), quote(t.Name)+" is not a task name (1 to 32 of A-Z a-z 0-9 _ . -)")
		case byName[t.Name] != i:
			p.add(join(tp, "name"), fmt.Sprintf("%s is also the name of tasks[%d]", quote(t.Name), byName[t.Name]))
		}
		count := t.Count
		if t.CountOf != "" {
			j, ok := byName[t.CountOf]
			switch {
			case !ok:
				p.add(join(tp, "count_of"), quote(t.CountOf)+" is not a task name")
			case j == i:
				p.add(join(tp, "count_of"), "a task cannot take its count from itself")
			case tasks[j].CountOf != "":
				p.add(join(tp, "count_of"), fmt.Sprintf("%s takes its own count from %s; count_of does not chain", quote(t.CountOf), quote(tasks[j].CountOf)))
			default:
				count = tasks[j].Count
			}
		}
		if intRange(p, join(tp, "count"), count, ilim("tasks[i].count")) {
			o.Count = count
			total += count // at most 64 × 4096: no overflow
		}
		if intRange(p, join(tp, "nice"), t.Nice, ilim("tasks[i].nice")) {
			o.Nice = t.Nice
		}
		if len(t.CPUs) > maxCPUListText {
			p.add(join(tp, "cpus"), fmt.Sprintf("longer than %d characters", maxCPUListText))
		} else if t.CPUs != "" && ncpu > 0 {
			m, err := sim.ParseCPUList(t.CPUs, ncpu)
			if cpuIDs != nil {
				m, err = parseKernelCPUList(t.CPUs, cpuIDs)
			}
			if err != nil {
				p.add(join(tp, "cpus"), err.Error())
			} else {
				o.CPUs = m
			}
		}
		optDur(p, join(tp, "start"), t.Start, lim("tasks[i].start"), &o.Start)
		if intRange(p, join(tp, "loop"), t.Loop, ilim("tasks[i].loop")) {
			o.Loop = t.Loop
		}
		o.Program = resolveProgram(p, join(tp, "program"), t.Program, &progCtx{byName: byName, tasks: tasks, version: version, forked: forked, syncs: syncs})
		if count == 0 && version < 2 {
			p.add(join(tp, "count"), `0 needs "version": 2 (a group started only by fork steps)`)
		}
	}
	if p.ok() {
		for i := range tasks {
			if out[i].Count == 0 && !forked[i] {
				p.add(join(index(path, i), "count"), "0, and no fork step starts this group")
			}
		}
		if total == 0 {
			p.add(path, "every group has count 0: nothing starts")
		}
	}
	if total > MaxInstances {
		p.add(path, fmt.Sprintf("%d task instances in all (the sum of the counts); the limit is %d", total, MaxInstances))
	}
	return out
}

// progCtx is what resolving a program needs to know of the scenario.
type progCtx struct {
	byName  map[string]int
	tasks   []Task
	version int
	forked  []bool // set for each group a fork step starts
	n       int    // steps so far, repeat bodies included
	syncs   *syncTable
}

// resolveProgram checks a program and flattens it for the simulator: a
// repeat block becomes an OpRepeat step followed by its body (nested
// blocks inside), so a 300-iteration loop is one step and its body, not
// 300 copies.
func resolveProgram(p *problems, path string, steps []Step, c *progCtx) []sim.Step {
	if len(steps) == 0 {
		p.add(path, "must have at least one step")
		return nil
	}
	if len(steps) > MaxSteps {
		p.add(path, fmt.Sprintf("%d steps; the limit is %d", len(steps), MaxSteps))
		return nil
	}
	var out []sim.Step
	takesTime, waits, replies := c.steps(p, path, steps, &out)
	if !takesTime {
		p.add(path, "needs a run, sleep or timer step, so that every iteration takes time")
	}
	if replies != "" && !waits {
		p.add(join(replies, "fanout"), `"waker" replies to whoever ended a wait, and this program has no wait step`)
	}
	return out
}

// steps resolves steps (a program or a repeat body) onto out. It reports
// whether they take time, whether they wait, and the path of the first
// step replying to a waker ("" if none).
func (c *progCtx) steps(p *problems, path string, steps []Step, out *[]sim.Step) (takesTime, waits bool, replies string) {
	for i := range steps {
		st := &steps[i]
		sp := index(path, i)
		c.n++
		if c.n > MaxProgramSteps {
			p.add(sp, fmt.Sprintf("the program has more than %d steps, counting every repeat block's", MaxProgramSteps))
			return takesTime, waits, replies
		}
		sy := st.syncPart()
		var kinds []string
		for _, k := range []struct {
			name string
			set  bool
		}{{"run", st.Run != ""}, {"sleep", st.Sleep != ""}, {"timer", st.Timer != ""}, {"wake", st.Wake != ""}, {"wait", st.Wait},
			{"exec", st.Exec}, {"fork", st.Fork != ""}, {"wait_children", st.WaitChildren}, {"exit", st.Exit}, {"repeat", st.Repeat != 0 || st.Program != nil},
			{"lock", sy.Lock != ""}, {"unlock", sy.Unlock != ""}, {"cond_wait", sy.CondWait != ""}, {"signal", sy.Signal != ""},
			{"broadcast", sy.Broadcast != ""}, {"barrier", sy.Barrier != ""}} {
			if k.set {
				kinds = append(kinds, k.name)
			}
		}
		if len(kinds) != 1 {
			msg := "a step needs exactly one of run, sleep, timer, wake, wait, exec, fork, wait_children, exit, repeat, lock, unlock, cond_wait, signal, broadcast, barrier"
			if len(kinds) > 1 {
				msg = "has " + strings.Join(kinds, " and ") + "; " + msg
			}
			p.add(sp, msg)
			continue
		}
		if st.Wake == "" {
			if st.Sync {
				p.add(join(sp, "sync"), "only a wake step has sync")
			}
			if st.Fanout != "" {
				p.add(join(sp, "fanout"), "only a wake step has fanout")
			}
		}
		if st.Fork == "" && st.Count != 0 {
			p.add(join(sp, "count"), "only a fork step has count")
		}
		if sy.CondWait == "" && sy.Mutex != "" {
			p.add(join(sp, "mutex"), "only a cond_wait step has mutex")
		}
		kind := kinds[0]
		switch kind {
		case "exec", "fork", "wait_children", "exit", "repeat", "lock", "unlock", "cond_wait", "signal", "broadcast", "barrier":
			if c.version < 2 {
				p.add(join(sp, kind), `needs "version": 2`)
				continue
			}
		}
		var o sim.Step
		switch kind {
		case "run":
			o.Op, o.Dur = sim.OpRun, dur(p, join(sp, "run"), st.Run, lim("tasks[i].program[j].run"))
			takesTime = true
		case "sleep":
			o.Op, o.Dur = sim.OpSleep, dur(p, join(sp, "sleep"), st.Sleep, lim("tasks[i].program[j].sleep"))
			takesTime = true
		case "timer":
			o.Op, o.Dur = sim.OpTimer, dur(p, join(sp, "timer"), st.Timer, lim("tasks[i].program[j].timer"))
			takesTime = true
		case "wait":
			o.Op = sim.OpWait
			waits = true
		case "wake":
			o.Op, o.Sync = sim.OpWake, st.Sync
			target, ok := c.byName[st.Wake]
			if !ok {
				p.add(join(sp, "wake"), quote(st.Wake)+" is not the name of a task")
			} else if c.tasks[target].Count == 0 && c.tasks[target].CountOf == "" {
				p.add(join(sp, "wake"), quote(st.Wake)+" has count 0 (its instances come and go with forks): a wake step cannot name it")
			}
			o.Target = target
			o.Fanout = lookup(p, join(sp, "fanout"), st.Fanout, fanouts, sim.FanoutIndex)
			if st.Fanout == "waker" && replies == "" {
				replies = sp
			}
		case "lock", "unlock", "cond_wait", "signal", "broadcast", "barrier":
			o.Op = map[string]sim.Op{"lock": sim.OpLock, "unlock": sim.OpUnlock, "cond_wait": sim.OpCondWait,
				"signal": sim.OpSignal, "broadcast": sim.OpBroadcast, "barrier": sim.OpBarrier}[kind]
			name := sy.Lock + sy.Unlock + sy.CondWait + sy.Signal + sy.Broadcast + sy.Barrier // exactly one is set
			o.Obj = c.syncs.index[name]
			if kind == "cond_wait" {
				if sy.Mutex == "" {
					p.add(join(sp, "mutex"), "missing: a cond_wait names the mutex it releases and retakes")
				}
				o.Mutex = c.syncs.index[sy.Mutex]
				waits = true
			}
			if kind == "lock" || kind == "barrier" {
				waits = true
			}
		case "exec":
			o.Op = sim.OpExec
		case "exit":
			o.Op = sim.OpExit
		case "wait_children":
			o.Op = sim.OpWaitChildren
		case "fork":
			o.Op = sim.OpFork
			target, ok := c.byName[st.Fork]
			switch {
			case !ok:
				p.add(join(sp, "fork"), quote(st.Fork)+" is not the name of a task")
			case c.tasks[target].Count != 0 || c.tasks[target].CountOf != "":
				p.add(join(sp, "fork"), quote(st.Fork)+" must have count 0: a fork step starts the instances of a group that has none at the start")
			default:
				c.forked[target] = true
			}
			o.Target = target
			o.Count = st.Count
			if o.Count == 0 {
				o.Count = 1
			}
			intRange(p, join(sp, "count"), o.Count, ilim("tasks[i].program[j].count"))
		case "repeat":
			o.Op, o.Count = sim.OpRepeat, st.Repeat
			intRange(p, join(sp, "repeat"), st.Repeat, ilim("tasks[i].program[j].repeat"))
			bp := join(sp, "program")
			if len(st.Program) == 0 {
				p.add(bp, "a repeat needs a body of at least one step")
				continue
			}
			if len(st.Program) > MaxSteps {
				p.add(bp, fmt.Sprintf("%d steps; the limit is %d", len(st.Program), MaxSteps))
				continue
			}
			at := len(*out)
			*out = append(*out, o)
			t, w, r := c.steps(p, bp, st.Program, out)
			(*out)[at].Len = len(*out) - at - 1
			if !t {
				p.add(bp, "needs a run, sleep or timer step, so that every iteration takes time")
			}
			takesTime = takesTime || t
			waits = waits || w
			if replies == "" {
				replies = r
			}
			continue
		}
		*out = append(*out, o)
	}
	return takesTime, waits, replies
}
