package sim

// The schedule balance map (seed 003: Michael Wang, "[RFC PATCH v2 0/3]
// sched: simplify the select_task_rq_fair()", January 2013), feature
// SCHED_BALANCE_MAP on the v3.8 base.
//
// Patches 1-2 build, per CPU, sbm->sd[type][level] (the domain of each level
// that has SD_BALANCE_EXEC/FORK/WAKE, holes filled from below) and
// affine_map[cpu] (the lowest SD_WAKE_AFFINE domain spanning cpu), so that
// select_task_rq_fair() looks domains up instead of walking
// for_each_domain(). Patch 3/3 also reorders the wake-up path; that
// reordering, not the cheaper lookup, is what changes where tasks run.

// selectTaskRQSBM mirrors select_task_rq_fair() of patch 3/3 for a wake-up
// (seed 003 lines 357-505), on the 3.8 code it patches:
//
//  1. new_cpu = select_idle_sibling(p, prev_cpu); taken if idle — an idle
//     CPU sharing prev's cache, without asking wake_affine();
//  2. if the waking CPU has no wake-affine domain spanning prev
//     (!sbm->affine_map[prev_cpu]) or p may not run there: balance path;
//  3. new_cpu = select_idle_sibling(p, cpu); not idle: balance path;
//  4. wake_affine(affine_map[prev_cpu]) last ("no doubt a performance
//     killer"): if it agrees, new_cpu;
//  5. balance path: prev_cpu, or the find_idlest_group() descent from
//     sbm->sd[WAKE][top_level] when a level has SD_BALANCE_WAKE.
//
// The lookups are charged as one domain visit (visitDomain charges only the
// first visit of a decision under SCHED_BALANCE_MAP); select_idle_sibling()'s
// own walk is the variant's, as in the patch.
func (s *Sim) selectTaskRQSBM(p *Task, cpu, prev int, sync bool, waker *Task, d *Decision) int {
	s.visitDomain(d)
	nc := s.selectIdleSibling(p, prev, prev, d)
	if s.idleCPU(nc) {
		d.Path = "select_task_rq_fair(sbm): select_idle_sibling(prev)"
		return nc
	}
	var affine *SchedDomain // sbm->affine_map[prev]
	for _, tmp := range s.cpus[cpu].domains {
		if tmp.Flags&SDLoadBalance != 0 && tmp.Flags&SDWakeAffine != 0 && tmp.Span.Has(prev) {
			affine = tmp
			break
		}
	}
	if affine != nil && p.allowed.Has(cpu) && s.feature(FeatWakeAffine) {
		nc = s.selectIdleSibling(p, prev, cpu, d)
		if s.idleCPU(nc) {
			if s.wakeAffine38(affine, p, cpu, prev, sync, waker, d) {
				d.Path = "select_task_rq_fair(sbm): select_idle_sibling(waker), wake_affine agrees"
				d.Target = int16(cpu)
				d.Chosen = int16(nc)
				return nc
			}
		}
	}
	var sd *SchedDomain // sbm->sd[SBM_WAKE_TYPE][top_level]
	for _, tmp := range s.cpus[cpu].domains {
		if tmp.Flags&SDLoadBalance != 0 && tmp.Flags&SDBalanceWake != 0 {
			sd = tmp
		}
	}
	d.Reason = ""
	if sd == nil {
		d.Path = "select_task_rq_fair(sbm): balance path"
		d.Reason = "no idle CPU near prev or the waker: prev"
		d.Chosen = int16(prev)
		return prev
	}
	d.Path = "select_task_rq_fair(sbm): find_idlest_group"
	return s.findIdlestDescent38(sd, p, cpu, prev, SDBalanceWake, true, d)
}
