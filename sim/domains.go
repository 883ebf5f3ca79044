package sim

import "strings"

// SDFlag is a sched_domain flag. The values are the 3.x bit values
// (include/linux/sched.h, v3.8); SD_CLUSTER postdates 3.x and takes a free bit.
// Flags describe the topology; their behaviour is mapped in sdInit, as the
// kernel maps it in sd_init().
type SDFlag uint32

const (
	SDLoadBalance      SDFlag = 0x0001 // do load balancing on this domain (implicit in modern kernels)
	SDBalanceNewidle   SDFlag = 0x0002 // balance when about to become idle
	SDBalanceExec      SDFlag = 0x0004 // balance on exec
	SDBalanceFork      SDFlag = 0x0008 // balance on fork, clone
	SDBalanceWake      SDFlag = 0x0010 // balance on wakeup (slow path)
	SDWakeAffine       SDFlag = 0x0020 // wake task to waking CPU
	SDShareCPUCapacity SDFlag = 0x0080 // domain members share CPU capacity (SMT); 3.x SD_SHARE_CPUPOWER
	SDShareLLC         SDFlag = 0x0200 // domain members share the LLC; 3.x SD_SHARE_PKG_RESOURCES
	SDSerialize        SDFlag = 0x0400 // only a single load balancing instance
	SDAsymPacking      SDFlag = 0x0800 // place busy groups earlier in the domain
	SDPreferSibling    SDFlag = 0x1000 // prefer to place tasks in a sibling domain
	SDOverlap          SDFlag = 0x2000 // sched_domains of this level overlap
	SDNuma             SDFlag = 0x4000 // cross-node balancing
	SDCluster          SDFlag = 0x8000 // members share a cluster (L2); v5.16+
	// 2.6.8 only (include/linux/sched.h, v2.6.7/8: SD_WAKE_IDLE 4, SD_WAKE_BALANCE 16;
	// free bits here).
	SDWakeIdle    SDFlag = 0x10000 // wake_idle(): wake onto an idle CPU of the domain (SMT)
	SDWakeBalance SDFlag = 0x20000 // try_to_wake_up(): pull the wakee when this CPU is less loaded
)

var sdFlagNames = []struct {
	f     SDFlag
	names []string // canonical first, then accepted aliases
}{
	{SDLoadBalance, []string{"SD_LOAD_BALANCE"}},
	{SDBalanceNewidle, []string{"SD_BALANCE_NEWIDLE"}},
	{SDBalanceExec, []string{"SD_BALANCE_EXEC"}},
	{SDBalanceFork, []string{"SD_BALANCE_FORK"}},
	{SDBalanceWake, []string{"SD_BALANCE_WAKE"}},
	{SDWakeAffine, []string{"SD_WAKE_AFFINE"}},
	{SDShareCPUCapacity, []string{"SD_SHARE_CPUCAPACITY", "SD_SHARE_CPUPOWER"}},
	{SDShareLLC, []string{"SD_SHARE_LLC", "SD_SHARE_PKG_RESOURCES"}},
	{SDSerialize, []string{"SD_SERIALIZE"}},
	{SDAsymPacking, []string{"SD_ASYM_PACKING"}},
	{SDPreferSibling, []string{"SD_PREFER_SIBLING"}},
	{SDOverlap, []string{"SD_OVERLAP"}},
	{SDNuma, []string{"SD_NUMA"}},
	{SDCluster, []string{"SD_CLUSTER"}},
	{SDWakeIdle, []string{"SD_WAKE_IDLE"}},
	{SDWakeBalance, []string{"SD_WAKE_BALANCE"}},
}

// SDFlagByName returns the flag with the kernel's name (old names accepted).
func SDFlagByName(name string) (SDFlag, bool) {
	for _, e := range sdFlagNames {
		for _, n := range e.names {
			if n == name {
				return e.f, true
			}
		}
	}
	return 0, false
}

// SDFlagNames lists the canonical flag names, in bit order.
func SDFlagNames() []string {
	out := make([]string, len(sdFlagNames))
	for i, e := range sdFlagNames {
		out[i] = e.names[0]
	}
	return out
}

func (f SDFlag) String() string {
	var parts []string
	for _, e := range sdFlagNames {
		if f&e.f != 0 {
			parts = append(parts, e.names[0])
		}
	}
	return strings.Join(parts, "|")
}

// SchedGroup is a sched_group: one child-domain span inside a domain. Groups
// are shared by every CPU whose domain at that level has the same span, like
// the kernel's sched_group and sched_group_capacity.
type SchedGroup struct {
	ID    int // index into Sim.groups
	Level Level
	// pair holds the CPUs of a group of one or two (npair of them), in
	// order: the select_idle_sibling() walk reads them without a mask scan.
	pair     [2]int16
	npair    int8
	Span     CPUMask
	First    int   // cpumask_first(span): group_balance_cpu() for non-overlapping groups
	Weight   int   // group_weight
	Capacity int64 // sgc->capacity (v6.17: 1024 per CPU) or sgp->power (v3.8: 589 per SMT thread)
	// Imbalance is sgc->imbalance (v6.17) / sgp->imbalance-ish group_imb hint:
	// set when a balance pass could not move pinned tasks (LBF_SOME_PINNED).
	Imbalance bool
	// (3.8 sgp->nr_busy_cpus is Sim.nrBusy, counted from the busy mask.)
	// Cores is sg->cores: the SMT cores the group holds.
	Cores int
}

// SchedDomain is one CPU's sched_domain at one level. Each CPU has its own
// chain (Parent/Child) with its own balancing state, as in the kernel.
type SchedDomain struct {
	CPU    int
	Level  Level
	Span   CPUMask
	Weight int // span_weight
	Flags  SDFlag
	// runs: the groups' CPUs are runs of consecutive CPU numbers (see
	// setGroupRuns), which select_idle_sibling's walk reads as words.
	runs groupRuns
	// NUMADistance is the node distance of a NUMA level built from a
	// distance table (machines given per CPU); 0 otherwise.
	NUMADistance int
	Parent       *SchedDomain
	Child        *SchedDomain
	// Groups in the order the kernel's circular sd->groups list visits them
	// from this CPU: the group holding CPU first, then onwards in order of
	// first CPU, wrapping around.
	Groups []*SchedGroup

	// Tunables (topology.h SD_*_INIT for v3.8, sd_init() for v6.17).
	MinInterval    int64 // ms
	MaxInterval    int64 // ms
	BusyFactor     int
	ImbalancePct   int
	CacheNiceTries int
	BusyIdx        int // v3.8 cpu_load[] index per idle type
	IdleIdx        int
	NewidleIdx     int
	WakeIdx        int
	ForkexecIdx    int
	CacheHotTime   int64 // 2.6.8 sd->cache_hot_time, ns (task_hot())
	ImbNumaNr      int   // v6.17 sd->imb_numa_nr from PKG up (setImbNumaNr); 0 below

	// Balancing state.
	LastBalance        int64 // jiffies
	BalanceInterval    int64 // ms
	NrBalanceFailed    int
	MaxNewidleLBCost   int64 // ns
	LastDecayMaxLBCost int64 // jiffies
	// Newidle success statistics (NI_RANDOM, 33cf66d88306): passes counted,
	// successes weighted by the inverse of their chance, and the success
	// rate of 1024 they give; sd_init() starts them at 50 %.
	NewidleCall, NewidleSuccess, NewidleRatio int

	// IdleBuddy is the CPU-buddies hint (3.6-rc update_top_cache_domain()),
	// -1 above sd_llc.
	IdleBuddy int

	Stats DomainStats // schedstat counters
}

// HasFlag reports sd->flags & f.
func (sd *SchedDomain) HasFlag(f SDFlag) bool { return sd.Flags&f != 0 }

// DomainView is a read-only copy of one CPU's sched domain for packages
// outside sim: its place in the topology, flags and tunables (as the base's
// defaults and the scenario's overrides left them), the balancing state and
// the schedstat counters at the time it was taken. Front ends and exporters
// read domains through it; the live SchedDomain stays inside the simulator.
type DomainView struct {
	CPU    int
	Level  Level
	Span   CPUMask
	Weight int
	Flags  SDFlag
	// Groups in the order the kernel's circular sd->groups list visits them
	// from CPU: its own group first.
	Groups []GroupView

	MinInterval    int64 // ms
	MaxInterval    int64 // ms
	BusyFactor     int
	ImbalancePct   int
	CacheNiceTries int
	BusyIdx        int // v3.8 cpu_load[] index per idle type
	IdleIdx        int
	NewidleIdx     int
	WakeIdx        int
	ForkexecIdx    int

	BalanceInterval int64 // ms, current
	NrBalanceFailed int
	IdleBuddy       int // -1 above sd_llc or without buddies

	Stats DomainStats
}

// GroupView is a read-only copy of a sched group's topology.
type GroupView struct {
	Span     CPUMask
	First    int
	Weight   int
	Capacity int64
}

// HasFlag reports whether the domain has flag f.
func (v *DomainView) HasFlag(f SDFlag) bool { return v.Flags&f != 0 }

func (sd *SchedDomain) view() DomainView {
	v := DomainView{CPU: sd.CPU, Level: sd.Level, Span: sd.Span, Weight: sd.Weight, Flags: sd.Flags,
		MinInterval: sd.MinInterval, MaxInterval: sd.MaxInterval, BusyFactor: sd.BusyFactor,
		ImbalancePct: sd.ImbalancePct, CacheNiceTries: sd.CacheNiceTries,
		BusyIdx: sd.BusyIdx, IdleIdx: sd.IdleIdx, NewidleIdx: sd.NewidleIdx, WakeIdx: sd.WakeIdx, ForkexecIdx: sd.ForkexecIdx,
		BalanceInterval: sd.BalanceInterval, NrBalanceFailed: sd.NrBalanceFailed, IdleBuddy: sd.IdleBuddy,
		Stats: sd.Stats, Groups: make([]GroupView, len(sd.Groups))}
	for i, g := range sd.Groups {
		v.Groups[i] = GroupView{Span: g.Span, First: g.First, Weight: g.Weight, Capacity: g.Capacity}
	}
	return v
}

// levelSpan returns the span of a level for cpu, before degeneration.
func (t *Topology) levelSpan(l Level, cpu int) CPUMask {
	switch l {
	case LevelSMT:
		return t.SMT[cpu]
	case LevelCLS:
		return t.Cluster[cpu]
	case LevelMC:
		return t.LLC[cpu]
	case LevelPKG:
		return t.Node[cpu]
	}
	return t.All
}

// levelTopoFlags are the topology-describing flags of each level
// (cpu_smt_flags, cpu_cluster_flags, cpu_core_flags, SD_NUMA).
var levelTopoFlags = [NumLevels]SDFlag{
	LevelSMT:  SDShareCPUCapacity | SDShareLLC,
	LevelCLS:  SDCluster | SDShareLLC,
	LevelMC:   SDShareLLC,
	LevelPKG:  0,
	LevelNUMA: SDNuma,
}

// sdInit617 fills a domain's flags and tunables as v6.17
// kernel/sched/topology.c sd_init() does: every level starts from
// NEWIDLE|EXEC|FORK|WAKE_AFFINE|PREFER_SIBLING (no BALANCE_WAKE), intervals
// sd_weight..2*sd_weight ms, busy_factor 16, imbalance_pct 117; SMT 110; LLC
// cache_nice_tries 1; NUMA cache_nice_tries 2, SERIALIZE, no PREFER_SIBLING
// (all simulated nodes are at distance 21 < RECLAIM_DISTANCE, so NUMA keeps
// EXEC|FORK|WAKE_AFFINE).
func sdInit617(sd *SchedDomain) {
	w := int64(sd.Weight)
	topo := levelTopoFlags[sd.Level]
	sd.Flags = SDLoadBalance | SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDWakeAffine | SDPreferSibling | topo
	sd.MinInterval, sd.MaxInterval = w, 2*w
	sd.BusyFactor = 16
	sd.ImbalancePct = 117
	sd.CacheNiceTries = 0
	sd.BalanceInterval = w
	sd.NewidleCall, sd.NewidleSuccess, sd.NewidleRatio = 512, 256, 512 // "50% success rate"
	switch {
	case sd.Flags&SDShareCPUCapacity != 0:
		sd.ImbalancePct = 110
	case sd.Flags&SDShareLLC != 0:
		sd.ImbalancePct = 117
		sd.CacheNiceTries = 1
	case sd.Flags&SDNuma != 0:
		sd.CacheNiceTries = 2
		sd.Flags &^= SDPreferSibling
		sd.Flags |= SDSerialize
		if sd.NUMADistance > ReclaimDistance {
			sd.Flags &^= SDBalanceExec | SDBalanceFork | SDWakeAffine
		}
	default:
		sd.CacheNiceTries = 1
	}
}

// sdInit38 fills a domain's flags and tunables as v3.8
// include/linux/topology.h SD_SIBLING_INIT, SD_MC_INIT, SD_CPU_INIT and
// kernel/sched/core.c sd_numa_init() do. 3.8 had no cluster level: CLS
// takes SD_MC_INIT's values (a simplification).
func sdInit38(sd *SchedDomain) {
	w := int64(sd.Weight)
	common := SDLoadBalance | SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDWakeAffine
	sd.BalanceInterval = 1
	switch sd.Level {
	case LevelSMT: // SD_SIBLING_INIT
		sd.MinInterval, sd.MaxInterval = 1, 2
		sd.BusyFactor = 64
		sd.ImbalancePct = 110
		sd.Flags = common | SDShareCPUCapacity | SDShareLLC
	case LevelCLS, LevelMC: // SD_MC_INIT
		sd.MinInterval, sd.MaxInterval = 1, 4
		sd.BusyFactor = 64
		sd.ImbalancePct = 125
		sd.CacheNiceTries = 1
		sd.BusyIdx = 2
		sd.Flags = common | SDShareLLC
		if sd.Level == LevelCLS {
			sd.Flags |= SDCluster
		}
	case LevelPKG: // SD_CPU_INIT
		sd.MinInterval, sd.MaxInterval = 1, 4
		sd.BusyFactor = 64
		sd.ImbalancePct = 125
		sd.CacheNiceTries = 1
		sd.BusyIdx, sd.IdleIdx = 2, 1
		sd.Flags = common | SDPreferSibling
	case LevelNUMA: // sd_numa_init(), distance 21 < RECLAIM_DISTANCE (30): + EXEC|FORK|WAKE_AFFINE
		sd.MinInterval, sd.MaxInterval = w, 2*w
		sd.BusyFactor = 32
		sd.ImbalancePct = 125
		sd.CacheNiceTries = 2
		sd.BusyIdx, sd.IdleIdx = 3, 2
		sd.BalanceInterval = w
		sd.Flags = SDLoadBalance | SDBalanceNewidle | SDSerialize | SDNuma | SDBalanceExec | SDBalanceFork | SDWakeAffine
		if sd.NUMADistance > ReclaimDistance { // sd_local_flags(): beyond RECLAIM_DISTANCE, none of the three
			sd.Flags &^= SDBalanceExec | SDBalanceFork | SDWakeAffine
		}
	}
}

// applyOverrides applies the scenario's sd_flags and tunables to one domain.
func applyOverrides(sd *SchedDomain, p *Policy) {
	o := p.SDFlags[sd.Level]
	sd.Flags = (sd.Flags | o.Set) &^ o.Clear
	t := p.Tunables[sd.Level]
	if t.ImbalancePct > 0 {
		sd.ImbalancePct = t.ImbalancePct
	}
	if t.BusyFactor > 0 {
		sd.BusyFactor = t.BusyFactor
	}
	if t.MinInterval > 0 {
		// min_interval alone, as a write of the domain's sysctl does: the
		// balance interval starts where the era's init put it (2.6.8's
		// SD_NODE_INIT starts it at 1 ms under a min_interval of 8) and
		// comes back to min_interval after a balance that found an
		// imbalance. Raising it here made min_interval=8ms, the NUMA
		// level's own value, change 2.6.8 runs.
		sd.MinInterval = t.MinInterval
	}
	if t.MaxInterval > 0 {
		sd.MaxInterval = t.MaxInterval
	}
	if sd.MaxInterval < sd.MinInterval {
		sd.MaxInterval = sd.MinInterval
	}
	if sd.BalanceInterval > sd.MaxInterval {
		sd.BalanceInterval = sd.MaxInterval
	}
	if t.CacheNiceTries > 0 {
		sd.CacheNiceTries = t.CacheNiceTries
	} else if t.CacheNiceTries < 0 {
		sd.CacheNiceTries = 0
	}
}

// buildDomains builds every CPU's domain chain, as build_sched_domains()
// followed by cpu_attach_domain()'s degeneration: a level whose span is a
// single CPU is dropped (sd_degenerate), and a parent with the same span as
// its child is dropped (sd_parent_degenerate; the kernel also compares flags,
// but with our fixed level set an equal span always means the parent adds
// nothing a balancer could use). Groups of a level are the spans of the next
// lower level at each CPU of the domain (single CPUs at the bottom), as
// build_sched_groups() takes them from each sibling's child domain before
// degeneration.
//
// NUMA, regular machines: one NUMA level spanning every node (all nodes
// equidistant); its groups are the nodes. Machines given per CPU: one NUMA
// level per distinct node distance above LOCAL_DISTANCE, spanning the nodes
// at most that far (sched_init_numa()); their groups are built as
// build_overlap_sched_groups() does (v6.17 kernel/sched/topology.c): for
// each CPU of the span not yet covered, the span of that CPU's next lower
// level, descending while it is not inside this domain's span
// (find_descended_sibling()); such groups may overlap, and the level has
// SD_OVERLAP.
func buildDomains(t *Topology, nodes int, base Base, p *Policy, capacity []int64) (perCPU [][]*SchedDomain, groups []*SchedGroup) {
	n := t.NCPU
	perCPU = make([][]*SchedDomain, n)
	// The topology levels before degeneration (the kernel's
	// sched_domain_topology), with the NUMA distance of each NUMA level.
	type tlevel struct {
		level Level
		numa  int // index into t.NUMADists, -1: not a distance level
	}
	var tls []tlevel
	for l := LevelSMT; l < LevelNUMA; l++ {
		tls = append(tls, tlevel{l, -1})
	}
	if t.Irregular() {
		if t.Nodes > 1 {
			for i := range t.NUMADists {
				tls = append(tls, tlevel{LevelNUMA, i})
			}
		}
	} else if nodes > 1 {
		tls = append(tls, tlevel{LevelNUMA, -1})
	}
	spanOf := func(k, cpu int) CPUMask {
		if tls[k].numa >= 0 {
			return t.numaSpan(tls[k].numa, cpu)
		}
		return t.levelSpan(tls[k].level, cpu)
	}
	type gkey struct {
		level int
		span  CPUMask
	}
	shared := map[gkey]*SchedGroup{} // build-time only; never iterated
	for cpu := 0; cpu < n; cpu++ {
		var chain []*SchedDomain
		var at []int // the tls index of each domain of chain
		for k, tl := range tls {
			span := spanOf(k, cpu)
			w := span.Weight()
			if w <= 1 {
				continue
			}
			if len(chain) > 0 && chain[len(chain)-1].Span == span {
				continue
			}
			sd := &SchedDomain{CPU: cpu, Level: tl.level, Span: span, Weight: w, IdleBuddy: -1}
			if tl.numa >= 0 {
				sd.NUMADistance = t.NUMADists[tl.numa]
			}
			chain = append(chain, sd)
			at = append(at, k)
		}
		for i, sd := range chain {
			if i > 0 {
				sd.Child = chain[i-1]
			}
			if i+1 < len(chain) {
				sd.Parent = chain[i+1]
			}
			eraFor(base).sdInit(sd)
			if sd.NUMADistance > 0 {
				sd.Flags |= SDOverlap
			}
			applyOverrides(sd, p)
			// Groups: walk the span from cpu with wrap-around, one group per
			// child span (or per CPU at the bottom).
			var covered CPUMask
			for c := cpu; ; {
				if !covered.Has(c) {
					gspan := MaskOf(c)
					for k := at[i] - 1; k >= 0; k-- {
						if s := spanOf(k, c); s.SubsetOf(&sd.Span) {
							gspan = s
							break
						}
					}
					key := gkey{at[i], gspan}
					g := shared[key]
					if g == nil {
						g = &SchedGroup{ID: len(groups), Level: sd.Level, Span: gspan, First: gspan.First(), Weight: gspan.Weight()}
						if g.Weight <= len(g.pair) {
							for c2 := gspan.First(); c2 >= 0; c2 = gspan.Next(c2) {
								g.pair[g.npair] = int16(c2)
								g.npair++
							}
						}
						var coreSeen CPUMask
						for c2 := gspan.First(); c2 >= 0; c2 = gspan.Next(c2) {
							g.Capacity += capacity[c2]
							if !coreSeen.Has(c2) {
								g.Cores++
								coreSeen = coreSeen.Or(&t.SMT[c2])
							}
						}
						groups = append(groups, g)
						shared[key] = g
					}
					sd.Groups = append(sd.Groups, g)
					covered = covered.Or(&gspan)
				}
				c = sd.Span.NextWrap(c)
				if c == cpu {
					break
				}
			}
		}
		for _, sd := range chain {
			sd.runs = groupRunsOf(sd.Groups)
		}
		setImbNumaNr(t, cpu, chain)
		perCPU[cpu] = chain
	}
	return perCPU, groups
}

// setImbNumaNr sets ImbNumaNr from PKG up (only NUMA domains read it, in
// adjust_numa_imbalance()) as v6.17 build_sched_domains() computes
// sd->imb_numa_nr, before degeneration: at
// the first domain above the LLC (PKG, which spans the node: cpu_cpu_mask()
// is cpumask_of_node()), with nr_llcs = node span / LLC span, imb is the
// node's CPUs / 8 when the node is one LLC ("up to 12.5% of the node"),
// else nr_llcs, at least 1; every domain above it gets imb times its span
// over the first NUMA domain's span (imb_span; the node's when there is
// none), at least once.
func setImbNumaNr(t *Topology, cpu int, chain []*SchedDomain) {
	node := t.Node[cpu].Weight()
	imb := node / t.LLC[cpu].Weight()
	if imb == 1 {
		imb = node >> 3
	}
	imb = max(imb, 1)
	imbSpan := node
	for _, sd := range chain {
		if sd.Flags&SDNuma != 0 {
			imbSpan = sd.Weight
			break
		}
	}
	for _, sd := range chain {
		if sd.Level >= LevelPKG {
			sd.ImbNumaNr = imb * max(1, sd.Weight/imbSpan)
		}
	}
}

// highestFlagDomain mirrors highest_flag_domain(): the highest domain of the
// chain, walking up from the bottom, that has flag f, stopping at the first
// domain without it.
func highestFlagDomain(chain []*SchedDomain, f SDFlag) *SchedDomain {
	var hsd *SchedDomain
	for _, sd := range chain {
		if sd.Flags&f == 0 {
			break
		}
		hsd = sd
	}
	return hsd
}

// setIdleBuddies mirrors the CPU-buddies code of update_top_cache_domain()
// (commit 970e178985ca, merged for 3.6-rc, reverted before 3.6): for every level at and below sd_llc, walk the
// level's groups from the one starting at the domain's first CPU, counting hops
// to this CPU's group and switching direction on every hop, never pointing the
// last group rightward (back to the start). The buddy is the first CPU of the
// group pointed at: groups pair up 1st<->2nd, 3rd<->4th, ...; an odd last
// group points left. Siblings are cross-wired the same way at the SMT level.
func setIdleBuddies(llc *SchedDomain) {
	for sd := llc; sd != nil; sd = sd.Child {
		// Canonical circular order: by first CPU, as the kernel links groups.
		ng := len(sd.Groups)
		order := make([]*SchedGroup, ng)
		copy(order, sd.Groups)
		// sd.Groups starts at this CPU's group and continues in wrap order;
		// rotate it so it starts at the group holding the domain's first CPU.
		start := 0
		first := sd.Span.First()
		for i, g := range order {
			if g.Span.Has(first) {
				start = i
				break
			}
		}
		rot := append(order[start:], order[:start]...)
		k := 0
		for i, g := range rot {
			if g.Span.Has(sd.CPU) {
				k = i
				break
			}
		}
		right := k%2 == 0
		if right && k == ng-1 {
			right = false
		}
		var b *SchedGroup
		if right {
			b = rot[(k+1)%ng]
		} else {
			b = rot[(k-1+ng)%ng]
		}
		sd.IdleBuddy = b.First
	}
}

// Idle types of the balancer, in /proc/schedstat v15 order (enum
// cpu_idle_type of v3.8); v17 prints NOT_IDLE first (printed, not stored,
// differently).
const (
	cpuIdle      = 0 // CPU_IDLE: balancing an idle CPU (its tick or nohz)
	cpuNotIdle   = 1 // CPU_NOT_IDLE: a busy CPU's periodic balance
	cpuNewlyIdle = 2 // CPU_NEWLY_IDLE: about to go idle
	numIdleTypes = 3
)

var idleTypeNames = [numIdleTypes]string{"idle", "busy", "newidle"}

// LBStats are one idle type's load-balancing counters (schedstat).
type LBStats struct {
	Count, Balanced, Failed              int64
	Imbalance                            int64 // v15 lb_imbalance (sum of imbalances)
	ImbLoad, ImbUtil, ImbTask, ImbMisfit int64 // v17 split
	Gained, HotGained, NoBusyQ, NoBusyG  int64
}

// DomainStats are the /proc/schedstat counters of one CPU's domain.
type DomainStats struct {
	LB                                              [numIdleTypes]LBStats
	ALBCount, ALBFailed, ALBPushed                  int64
	SBECount, SBEBalanced, SBEPushed                int64
	SBFCount, SBFBalanced, SBFPushed                int64
	TTWUWakeRemote, TTWUMoveAffine, TTWUMoveBalance int64
}

// groupRuns describes a domain whose groups (in its visiting order) are
// single CPUs or pairs of SMT siblings laid out as runs: the first CPUs of
// the n groups, taken from group (n-rot) mod n on, are first, first+1, ...,
// first+n-1, and their second CPUs likewise from second (second == first
// for single CPUs). That is the x86 numbering of an LLC's cores (first
// threads, then second threads). Then the idle state of every group is two
// words of the idle mask, and select_idle_sibling's walk needs no loop.
//
// A domain of exactly two single CPUs (the SMT level of two-thread cores)
// has two: first and second are its CPUs in visiting order, whatever their
// numbers.
type groupRuns struct {
	ok            bool
	two           bool // two single CPUs: first, second
	pairs         bool // two CPUs per group (else one)
	n, rot        int8 // groups; visiting order = the runs' order rotated by rot
	first, second int16
}

// groupRunsOf finds the runs of a domain's groups, if they have that form.
func groupRunsOf(groups []*SchedGroup) groupRuns {
	n := len(groups)
	if n == 0 || n > 64 || groups[0].npair == 0 {
		return groupRuns{}
	}
	np := groups[0].npair
	// The group with the smallest first CPU starts the runs.
	rot := 0
	for i, g := range groups {
		if g.npair != np {
			return groupRuns{}
		}
		if g.pair[0] < groups[rot].pair[0] {
			rot = i
		}
	}
	if n == 2 && np == 1 {
		return groupRuns{ok: true, two: true, n: 2, first: groups[0].pair[0], second: groups[1].pair[0]}
	}
	r := groupRuns{ok: true, pairs: np == 2, n: int8(n), rot: int8((n - rot) % n),
		first: groups[rot].pair[0], second: groups[rot].pair[np-1]}
	for k := 0; k < n; k++ {
		g := groups[(rot+k)%n]
		if int(g.pair[0]) != int(r.first)+k || int(g.pair[np-1]) != int(r.second)+k {
			return groupRuns{}
		}
	}
	return r
}
