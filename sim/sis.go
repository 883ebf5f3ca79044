package sim

import "math/bits"

// select_idle_sibling() variants. Each takes the CPU wake_affine() chose
// (target) and the task's previous CPU, and returns where the task runs. The
// search cost (CPUs, groups and domains examined) accrues in d. The variant
// is chosen once, in New (policy.select_idle_sibling, or the era's
// default), and called through Sim.sisVariant.

// sisVariant is one select_idle_sibling() variant: the decision path it
// reports and the function that decides.
type sisVariant struct {
	path string
	fn   func(s *Sim, p *Task, prev, target int, d *Decision) int
}

// sisVariants by SIS value (SISDefault is resolved before the look-up).
var sisVariants = [...]sisVariant{
	SISV36:      {"select_idle_sibling(v3.6)", sisV36},
	SISV38:      {"select_idle_sibling(v3.8)", sisV38},
	SISBuddies:  {"select_idle_sibling(cpu_buddies)", sisBuddies},
	SISBottomUp: {"select_idle_sibling(bottom_up)", sisBottomUp},
	SISUtil:     {"select_idle_sibling(sis_util)", sisUtil},
	SISOff:      {"select_idle_sibling(off)", sisOff},
}

// sisVariantOf returns the variant of a resolved SIS value; anything else
// is "off".
func sisVariantOf(v SIS) sisVariant {
	if int(v) < len(sisVariants) && sisVariants[v].fn != nil {
		return sisVariants[v]
	}
	return sisVariants[SISOff]
}

func (s *Sim) selectIdleSibling(p *Task, prev, target int, d *Decision) int {
	s.m.sisCalls++
	d.Path = s.sisVariant.path
	cpu := s.sisVariant.fn(s, p, prev, target, d)
	d.Chosen = int16(cpu)
	return cpu
}

// sisOff is no search at all: the target wake_affine() chose.
func sisOff(s *Sim, p *Task, prev, target int, d *Decision) int {
	d.Reason = "search off: wake_affine's target"
	return target
}

// sisIdleTarget is the opening both v3.6's select_idle_sibling() and the
// 3.6-rc CPU buddies version share: an idle target that is the waking CPU,
// or an idle target that is prev, is taken without a search.
func (s *Sim) sisIdleTarget(prev, target int, d *Decision) (int, bool) {
	this := int(d.This)
	if target == this {
		s.examine(d, this)
		if s.idleCPU(this) {
			d.Reason = "waking CPU idle"
			return this, true
		}
	}
	if target == prev {
		s.examine(d, prev)
		if s.idleCPU(prev) {
			d.Reason = "prev idle"
			return prev, true
		}
	}
	return 0, false
}

// sisV36 mirrors select_idle_sibling() of v3.6 (the code quoted in seed 000,
// which Preeti's patch removes): take an idle target if it is the waking
// CPU, or an idle prev if it is the target; else walk sd_llc(target)
// top-down and take the first allowed CPU of the first group whose CPUs are
// all idle. Groups are visited from target's own group onwards, which is why
// a 1:1 pair walks across the package.
func sisV36(s *Sim, p *Task, prev, target int, d *Decision) int {
	if cpu, ok := s.sisIdleTarget(prev, target, d); ok {
		return cpu
	}
	return s.sisIdleGroup(p, target, d, false)
}

// sisV38 mirrors select_idle_sibling() of v3.8 (commit e0a79f529d5b, "Fix
// select_idle_sibling() bouncing cow syndrome"): an idle target; an idle
// prev that shares the cache; else the v3.6 walk, in which a group holding
// target never counts as idle. It is 3.8.13's function; the seed threads
// of January 2013 ran kernels that still had sisV36 (validation/tables.go,
// january2013SIS).
func sisV38(s *Sim, p *Task, prev, target int, d *Decision) int {
	s.examine(d, target)
	if s.idleCPU(target) {
		d.Reason = "target idle"
		return target
	}
	if prev != target && s.topo.SharesCache(prev, target) {
		s.examine(d, prev)
		if s.idleCPU(prev) {
			d.Reason = "prev idle and cache-affine"
			return prev
		}
	}
	return s.sisIdleGroup(p, target, d, true)
}

// sisIdleGroup is the for_each_lower_domain(sd_llc(target)) walk of v3.6
// and v3.8: the first allowed CPU of the first group, top-down, whose CPUs
// are all idle (skipTarget: and that does not hold target), else target.
func (s *Sim) sisIdleGroup(p *Task, target int, d *Decision, skipTarget bool) int {
	// A task allowed on every CPU intersects every group: no need to look.
	everywhere := p.nrAllow == s.topo.NCPU
	skip := -1 // a CPU that never counts as idle
	if skipTarget {
		skip = target
	}
	idle := &s.idleMask
	rec := s.recording // the examined set is only kept for explanations
	// The look-ups are counted here and charged to d at the end (as
	// examine and examineGroup would, one by one: the sums are the same).
	nGroups, nCPUs := 0, 0
	chosen, level := target, int8(-1)
walk:
	for sd := s.cpus[target].sdLLC; sd != nil; sd = sd.Child {
		s.visitDomain(d)
		if r := &sd.runs; r.ok && everywhere && !rec {
			// The same walk on words: bit k of first (second) says the
			// first (second) CPU of the k-th group in visiting order is
			// idle. The walk stops at the first group whose CPUs are all
			// idle; each group before it cost one look-up, two where its
			// first CPU was idle (the second was looked at).
			n, rot := int(r.n), uint(r.rot)
			var first, second uint64
			if r.two {
				// Two single CPUs (the SMT level: a core's threads),
				// in visiting order.
				a, b := int(r.first), int(r.second)
				first = b2u(a != skip && idle.Has(a)) | b2u(b != skip && idle.Has(b))<<1
				second = first
			} else {
				first = idle.word(int(r.first), n)
				second = first
				if r.pairs {
					second = idle.word(int(r.second), n)
				}
				if skip >= 0 {
					if k := skip - int(r.first); k >= 0 && k < n {
						first &^= 1 << uint(k)
						if !r.pairs {
							second = first
						}
					}
					if k := skip - int(r.second); r.pairs && k >= 0 && k < n {
						second &^= 1 << uint(k)
					}
				}
				low := ^uint64(0) >> (64 - uint(n)) // n low bits
				first = (first>>rot | first<<(uint(n)-rot)) & low
				second = (second>>rot | second<<(uint(n)-rot)) & low
			}
			full := first & second
			visited := n
			if full != 0 {
				visited = bits.TrailingZeros64(full) + 1
			}
			nGroups += visited
			nCPUs += visited
			if r.pairs {
				nCPUs += bits.OnesCount64(first & (^uint64(0) >> (64 - uint(visited))))
			}
			if full != 0 {
				chosen, level = sd.Groups[visited-1].First, int8(sd.Level)
				break walk
			}
			continue
		}
		for _, g := range sd.Groups {
			nGroups++
			if !everywhere && !g.Span.Intersects(&p.allowed) {
				continue
			}
			var all bool
			if g.npair > 0 {
				// A group of one or two CPUs (SMT siblings, or one
				// CPU): its CPUs in order, without a mask scan.
				c := int(g.pair[0])
				nCPUs++
				if rec {
					d.Examined.Set(c)
				}
				all = c != skip && idle.Has(c)
				if all && g.npair == 2 {
					c = int(g.pair[1])
					nCPUs++
					if rec {
						d.Examined.Set(c)
					}
					all = c != skip && idle.Has(c)
				}
			} else {
				all = true
				for c := g.First; c >= 0; c = g.Span.Next(c) {
					nCPUs++
					if rec {
						d.Examined.Set(c)
					}
					if c == skip || !idle.Has(c) {
						all = false
						break
					}
				}
			}
			if all {
				m := g.Span.And(&p.allowed)
				chosen, level = m.First(), int8(sd.Level)
				break walk
			}
		}
	}
	d.NGroups += nGroups
	d.NCPUs += nCPUs
	d.Cost += int64(nGroups)*s.costs.SearchGroup + int64(nCPUs)*s.costs.SearchCPU
	if level < 0 {
		d.Reason = "no idle group: target"
		return target
	}
	d.Level = level
	d.Reason = "first fully idle group"
	return chosen
}

// sisBuddies mirrors 3.6-rc select_idle_sibling() with CPU buddies (commit
// 970e178985ca): after the target/prev checks, each level at or below
// sd_llc offers exactly one candidate, its idle_buddy.
func sisBuddies(s *Sim, p *Task, prev, target int, d *Decision) int {
	if cpu, ok := s.sisIdleTarget(prev, target, d); ok {
		return cpu
	}
	for sd := s.cpus[target].sdLLC; sd != nil; sd = sd.Child {
		s.visitDomain(d)
		b := sd.IdleBuddy
		if b < 0 || !p.allowed.Has(b) {
			continue
		}
		s.examine(d, b)
		if s.idleCPU(b) {
			d.Level = int8(sd.Level)
			d.Reason = "idle buddy"
			return b
		}
	}
	d.Reason = "buddies busy: target"
	return target
}

// sisBottomUp is Preeti U Murthy's "Reduce the overhead of
// select_idle_sibling" as reworked by Alex Shi (seed 000): after the
// target/prev checks, walk target's domains bottom-up to sd_llc and return
// the first idle allowed CPU; a group whose nr_busy_cpus equals its weight
// is skipped unread, and above the lowest level the group holding target is
// skipped (it was searched one level down, as Namhyung Kim suggested).
func sisBottomUp(s *Sim, p *Task, prev, target int, d *Decision) int {
	s.examine(d, target)
	if s.idleCPU(target) {
		d.Reason = "target idle"
		return target
	}
	if prev != target && s.topo.SharesCache(prev, target) {
		s.examine(d, prev)
		if s.idleCPU(prev) {
			d.Reason = "prev idle and cache-affine"
			return prev
		}
	}
	llc := s.cpus[target].sdLLC
	for i, sd := range s.cpus[target].domains {
		s.visitDomain(d)
		for _, g := range sd.Groups {
			s.examineGroup(d)
			if (i > 0 && g.Span.Has(target)) || s.nrBusy(g) >= g.Weight {
				continue
			}
			m := g.Span.And(&p.allowed)
			for c := m.First(); c >= 0; c = m.Next(c) {
				s.examine(d, c)
				if s.idleCPU(c) {
					d.Level = int8(sd.Level)
					d.Reason = "first idle CPU, lowest domain first"
					return c
				}
			}
		}
		if sd == llc || llc == nil {
			break
		}
	}
	d.Reason = "no idle CPU in the LLC: target"
	return target
}

// sisUtil mirrors v6.17 select_idle_sibling() without asymmetric capacity:
// target, prev, recent_used_cpu, an idle SMT sibling of prev when no core is
// idle, then select_idle_cpu()'s scan of the LLC from target+1, for a whole
// idle core while has_idle_cores, else for any idle CPU limited by SIS_UTIL.
func sisUtil(s *Sim, p *Task, prev, target int, d *Decision) int {
	s.examine(d, target)
	if s.idleCPU(target) {
		d.Reason = "target idle"
		return target
	}
	if prev != target && s.topo.SharesCache(prev, target) {
		s.examine(d, prev)
		if s.idleCPU(prev) {
			d.Reason = "prev idle and cache-affine"
			return prev
		}
	}
	recent := p.recentUsedCPU
	p.recentUsedCPU = prev
	if recent >= 0 && recent != prev && recent != target && s.topo.SharesCache(recent, target) && p.allowed.Has(recent) {
		s.examine(d, recent)
		if s.idleCPU(recent) {
			d.Reason = "recent_used_cpu idle"
			return recent
		}
	}
	sd := s.cpus[target].sdLLC
	if sd == nil {
		d.Reason = "no LLC domain: target"
		return target
	}
	s.visitDomain(d)
	d.Level = int8(sd.Level)
	llc := s.cpus[target].llc
	smt := s.cfg.Machine.ThreadsPerCore > 1
	hasIdleCore := false
	if smt {
		hasIdleCore = llc.hasIdleCores
		if !hasIdleCore && s.topo.SharesCache(prev, target) {
			// select_idle_smt(prev)
			m := s.topo.SMT[prev].And(&p.allowed)
			for c := m.First(); c >= 0; c = m.Next(c) {
				if c == prev || !sd.Span.Has(c) {
					continue
				}
				s.examine(d, c)
				if s.idleCPU(c) {
					d.Reason = "idle SMT sibling of prev"
					return c
				}
			}
		}
	}
	// select_idle_cpu()
	cpus := sd.Span.And(&p.allowed)
	nr := 1 << 30
	if s.feature(FeatSISUtil) {
		nr = llc.nrIdleScan + 1
		d.add("nr_idle_scan", int64(llc.nrIdleScan))
		if nr == 1 {
			d.Reason = "SIS_UTIL: LLC too busy to scan: target"
			return target
		}
	}
	idle := -1
	// for_each_cpu_wrap(c, cpus, target+1): target+1 .. last, then first ..
	// target; select_idle_core() removes whole cores from cpus as it goes.
	c := cpus.Next(target)
	wrapped := false
	for {
		if c < 0 {
			if wrapped {
				break
			}
			wrapped = true
			c = cpus.First()
			continue
		}
		if wrapped && c > target {
			break
		}
		if hasIdleCore {
			coreIdle := true
			sib := s.topo.SMT[c]
			for t := sib.First(); t >= 0; t = sib.Next(t) {
				s.examine(d, t)
				if !s.idleCPU(t) {
					coreIdle = false
					if idle < 0 {
						continue
					}
					break
				}
				if idle < 0 && cpus.Has(t) {
					idle = t
				}
			}
			if coreIdle {
				d.Reason = "idle core"
				return c
			}
			cpus = cpus.AndNot(&sib)
		} else {
			nr--
			if nr <= 0 {
				d.Reason = "SIS_UTIL scan limit reached: target"
				return target
			}
			s.examine(d, c)
			if s.idleCPU(c) {
				d.Reason = "idle CPU"
				return c
			}
		}
		c = cpus.Next(c)
	}
	if hasIdleCore {
		llc.hasIdleCores = false
	}
	if idle >= 0 {
		d.Reason = "idle CPU of a busy core"
		return idle
	}
	d.Reason = "no idle CPU: target"
	return target
}
