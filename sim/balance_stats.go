package sim

// The balancer's shared statistics and what it concludes from them: group
// classification (enum group_type, sg_lb_stats; also read by the slow wake-up
// path in idlest.go), update_sg_lb_stats()/update_sd_lb_stats(), and the v6.17
// decisions drawn from them: sched_balance_find_src_group(),
// calculate_imbalance() and sched_balance_find_src_rq().

// groupType is enum group_type (v6.17), ordered by pulling priority: a
// contract of the balancer.
type groupType uint8

const (
	groupHasSpare    groupType = iota // the group has spare capacity
	groupFullyBusy                    // no spare capacity, but no task waits
	groupMisfitTask                   // a task does not fit (asymmetric capacity: not modelled)
	groupSMTBalance                   // an SMT core runs >1 task while others idle
	groupAsymPacking                  // asym packing (not modelled)
	groupImbalanced                   // affinity kept a previous balance from succeeding
	groupOverloaded                   // more tasks than CPUs and no spare capacity
)

var groupTypeNames = []string{"has_spare", "fully_busy", "misfit_task", "smt_balance", "asym_packing", "imbalanced", "overloaded"}

func (t groupType) String() string { return groupTypeNames[t] }

// sgStats is struct sg_lb_stats.
type sgStats struct {
	avgLoad       uint64
	groupLoad     uint64
	groupUtil     uint64
	groupRunnable uint64
	sumNrRunning  int
	sumHNrRunning int
	idleCPUs      int
	groupWeight   int
	groupCapacity uint64
	groupType     groupType
	nrNumaRunning int
}

// groupIsOverloaded mirrors group_is_overloaded().
func groupIsOverloaded(pct int, sgs *sgStats) bool {
	if sgs.sumNrRunning <= sgs.groupWeight {
		return false
	}
	if sgs.groupCapacity*100 < sgs.groupUtil*uint64(pct) {
		return true
	}
	return sgs.groupCapacity*uint64(pct) < sgs.groupRunnable*100
}

// groupHasCapacity mirrors group_has_capacity().
func groupHasCapacity(pct int, sgs *sgStats) bool {
	if sgs.sumNrRunning < sgs.groupWeight {
		return true
	}
	if sgs.groupCapacity*uint64(pct) < sgs.groupRunnable*100 {
		return false
	}
	return sgs.groupCapacity*100 > sgs.groupUtil*uint64(pct)
}

// groupClassify mirrors group_classify() (no asym packing, no misfit).
func groupClassify(pct int, g *SchedGroup, sgs *sgStats, smtBalance bool) groupType {
	switch {
	case groupIsOverloaded(pct, sgs):
		return groupOverloaded
	case g.Imbalance:
		return groupImbalanced
	case smtBalance:
		return groupSMTBalance
	case !groupHasCapacity(pct, sgs):
		return groupFullyBusy
	}
	return groupHasSpare
}

// Migration types of calculate_imbalance() (enum migration_type).
type migrationType uint8

const (
	migrateLoad migrationType = iota
	migrateUtil
	migrateTask
	migrateMisfit
)

var migrationTypeNames = []string{"load", "util", "task", "misfit"}

func (m migrationType) String() string { return migrationTypeNames[m] }

// sdLBStats is struct sd_lb_stats.
type sdLBStats struct {
	busiest       *SchedGroup
	local         *SchedGroup
	totalLoad     uint64
	totalCapacity uint64
	avgLoad       uint64
	preferSibling bool
	busiestStat   sgStats
	localStat     sgStats
}

// groupFlags are sg->flags: the flags of the child domain that built the group.
func groupFlags(sd *SchedDomain) SDFlag {
	if sd.Child == nil {
		return 0
	}
	return sd.Child.Flags
}

// updateSgLBStats mirrors update_sg_lb_stats().
func (s *Sim) updateSgLBStats(env *lbEnv, g *SchedGroup, local bool, overloaded *bool) sgStats {
	var sgs sgStats
	m := g.Span.And(&env.cpus)
	for c := m.First(); c >= 0; c = m.Next(c) {
		rq := s.cpus[c]
		if s.recording {
			env.d.Examined.Set(c)
		}
		env.d.NCPUs++
		env.d.Cost += s.costs.BalanceCPU
		sgs.groupLoad += s.cpuLoad(rq)
		sgs.groupUtil += s.cpuUtil(rq)
		sgs.groupRunnable += rq.cfsAvg.RunnableAvg
		// v6.17 reads h_nr_runnable here and nr_running below (commit
		// "sched/fair: Use the new cfs_rq.h_nr_runnable"): a sched_delayed
		// task counts in sum_nr_running, not in sum_h_nr_running.
		sgs.sumHNrRunning += rq.hNrRunnable()
		sgs.sumNrRunning += rq.nrRunning
		if rq.nrRunning == 0 && s.idleCPU(c) {
			sgs.idleCPUs++
			continue
		}
		if env.sd.Parent == nil && rq.nrRunning > 1 {
			*overloaded = true
		}
	}
	sgs.groupCapacity = uint64(g.Capacity)
	sgs.groupWeight = g.Weight
	smtBalance := !local && env.idle != cpuNotIdle && groupFlags(env.sd)&SDShareCPUCapacity != 0 && sgs.sumHNrRunning > 1
	sgs.groupType = groupClassify(env.sd.ImbalancePct, g, &sgs, smtBalance)
	if sgs.groupType == groupOverloaded {
		sgs.avgLoad = sgs.groupLoad * capacityScale / sgs.groupCapacity
	}
	return sgs
}

// updateSdPickBusiest mirrors update_sd_pick_busiest() for symmetric machines.
func updateSdPickBusiest(sds *sdLBStats, sgs *sgStats, sd *SchedDomain) bool {
	b := &sds.busiestStat
	if sgs.sumHNrRunning == 0 {
		return false
	}
	if sgs.groupType > b.groupType {
		return true
	}
	if sgs.groupType < b.groupType {
		return false
	}
	switch sgs.groupType {
	case groupOverloaded:
		return sgs.avgLoad > b.avgLoad
	case groupImbalanced, groupAsymPacking, groupMisfitTask:
		return false
	case groupSMTBalance:
		if sgs.idleCPUs != 0 || b.idleCPUs != 0 {
			return hasSpareBusier(sgs, b)
		}
		fallthrough
	case groupFullyBusy:
		if sgs.avgLoad < b.avgLoad {
			return false
		}
		if sgs.avgLoad == b.avgLoad && sds.busiest != nil && groupFlags(sd)&SDShareCPUCapacity != 0 {
			return false
		}
		return true
	case groupHasSpare:
		return hasSpareBusier(sgs, b)
	}
	return true
}

// hasSpareBusier: fewer idle CPUs, then more running tasks.
func hasSpareBusier(sgs, b *sgStats) bool {
	if sgs.idleCPUs > b.idleCPUs {
		return false
	}
	if sgs.idleCPUs == b.idleCPUs && sgs.sumNrRunning <= b.sumNrRunning {
		return false
	}
	return true
}

// updateSdLBStats mirrors update_sd_lb_stats(), including the SIS_UTIL
// update_idle_cpu_scan() at the LLC level.
func (s *Sim) updateSdLBStats(env *lbEnv, sds *sdLBStats) {
	var sumUtil uint64
	overloaded := false
	sds.busiestStat = sgStats{idleCPUs: 1 << 30, groupType: groupHasSpare}
	for _, g := range env.sd.Groups {
		env.d.NGroups++
		local := g.Span.Has(env.dstCPU)
		sgs := s.updateSgLBStats(env, g, local, &overloaded)
		if local {
			sds.local = g
			sds.localStat = sgs
		} else if updateSdPickBusiest(sds, &sgs, env.sd) {
			sds.busiest = g
			sds.busiestStat = sgs
		}
		sds.totalLoad += sgs.groupLoad
		sds.totalCapacity += sgs.groupCapacity
		sumUtil += sgs.groupUtil
	}
	if sds.busiest != nil {
		sds.preferSibling = groupFlags(env.sd)&SDPreferSibling != 0
	}
	if env.sd.Parent == nil {
		s.rdOverloaded = overloaded
	}
	// update_idle_cpu_scan()
	if s.feature(FeatSISUtil) && env.idle != cpuNewlyIdle {
		if llc := s.cpus[env.dstCPU].sdLLC; llc != nil && llc.Weight == env.sd.Weight {
			x := sumUtil / uint64(llc.Weight)
			pct := uint64(env.sd.ImbalancePct)
			tmp := x * x * pct * pct / (10000 * capacityScale)
			tmp = min(tmp, capacityScale)
			y := (capacityScale - tmp) * uint64(llc.Weight) / capacityScale
			s.cpus[env.dstCPU].llc.nrIdleScan = int(y)
		}
	}
}

// siblingImbalance mirrors sibling_imbalance().
func (s *Sim) siblingImbalance(env *lbEnv, sds *sdLBStats, busiest, local *sgStats) int64 {
	if env.idle == cpuNotIdle || busiest.sumNrRunning == 0 {
		return 0
	}
	nb := s.groupCores(sds.busiest)
	nl := s.groupCores(sds.local)
	if nb == nl {
		return max(int64(busiest.sumNrRunning-local.sumNrRunning), 0)
	}
	imb := max(int64(nl*busiest.sumNrRunning-nb*local.sumNrRunning), 0)
	imb = (2*imb + int64(nl+nb)) / int64(nl+nb)
	if imb <= 1 && local.sumNrRunning == 0 && busiest.sumNrRunning > 1 {
		imb = 2
	}
	return imb
}

// groupCores is sg->cores: the SMT cores of a group.
func (s *Sim) groupCores(g *SchedGroup) int {
	return max(g.Cores, 1)
}

// findBusiestGroup mirrors sched_balance_find_src_group().
func (s *Sim) findBusiestGroup(env *lbEnv) *SchedGroup {
	var sds sdLBStats
	s.updateSdLBStats(env, &sds)
	env.d.add("busiest_type", -1)
	if sds.busiest == nil {
		env.d.Reason = "no busier group"
		return nil
	}
	busiest, local := &sds.busiestStat, &sds.localStat
	env.d.Nums[env.d.NNums-1].V = int64(busiest.groupType)
	env.d.add("local_type", int64(local.groupType))
	env.d.Target = int16(sds.busiest.First)
	force := false
	switch {
	case busiest.groupType == groupImbalanced:
		force = true
	case local.groupType > busiest.groupType:
		env.d.Reason = "local group busier"
		return nil
	}
	if !force && local.groupType == groupOverloaded {
		if local.avgLoad >= busiest.avgLoad {
			env.d.Reason = "local avg_load >= busiest"
			return nil
		}
		sds.avgLoad = sds.totalLoad * capacityScale / sds.totalCapacity
		if local.avgLoad >= sds.avgLoad {
			env.d.Reason = "local above domain average"
			return nil
		}
		if 100*busiest.avgLoad <= uint64(env.sd.ImbalancePct)*local.avgLoad {
			env.d.Reason = "within imbalance_pct"
			return nil
		}
	}
	if !force && sds.preferSibling && local.groupType == groupHasSpare && s.siblingImbalance(env, &sds, busiest, local) > 1 {
		force = true
	}
	if !force && busiest.groupType != groupOverloaded {
		if env.idle == cpuNotIdle {
			env.d.Reason = "busiest not overloaded and this CPU busy"
			return nil
		}
		// (smt_vs_nonsmt_groups() is false on a machine whose cores are all
		// alike, so an smt_balance busiest goes through the same checks.)
		if busiest.groupWeight > 1 && local.idleCPUs <= busiest.idleCPUs+1 {
			env.d.Reason = "idle CPUs balanced"
			return nil
		}
		if busiest.sumHNrRunning == 1 {
			env.d.Reason = "busiest runs one task"
			return nil
		}
	}
	s.calculateImbalance(env, &sds)
	env.d.add("imbalance", env.imbalance)
	env.d.add("migration_type", int64(env.mtype))
	if env.imbalance == 0 {
		env.d.Reason = "no imbalance"
		return nil
	}
	return sds.busiest
}

// calculateImbalance mirrors calculate_imbalance().
func (s *Sim) calculateImbalance(env *lbEnv, sds *sdLBStats) {
	local, busiest := &sds.localStat, &sds.busiestStat
	if busiest.groupType == groupSMTBalance || busiest.groupType == groupImbalanced {
		env.mtype = migrateTask
		env.imbalance = 1
		return
	}
	if local.groupType == groupHasSpare {
		if busiest.groupType > groupFullyBusy && env.sd.Flags&SDShareLLC == 0 {
			env.mtype = migrateUtil
			env.imbalance = int64(max(local.groupCapacity, local.groupUtil) - local.groupUtil)
			if env.idle != cpuNotIdle && env.imbalance == 0 {
				env.mtype = migrateTask
				env.imbalance = 1
			}
			return
		}
		env.mtype = migrateTask
		if busiest.groupWeight == 1 || sds.preferSibling {
			env.imbalance = s.siblingImbalance(env, sds, busiest, local)
		} else {
			env.imbalance = max(int64(local.idleCPUs-busiest.idleCPUs), 0)
		}
		if env.sd.Flags&SDNuma != 0 {
			// adjust_numa_imbalance()
			if local.sumNrRunning+1 < env.sd.ImbNumaNr && env.imbalance <= 2 {
				env.imbalance = 0
			}
		}
		env.imbalance >>= 1
		return
	}
	if local.groupType < groupOverloaded {
		local.avgLoad = local.groupLoad * capacityScale / local.groupCapacity
		if local.avgLoad >= busiest.avgLoad {
			env.imbalance = 0
			return
		}
		sds.avgLoad = sds.totalLoad * capacityScale / sds.totalCapacity
		if local.avgLoad >= sds.avgLoad {
			env.imbalance = 0
			return
		}
	}
	env.mtype = migrateLoad
	a := int64(busiest.avgLoad-sds.avgLoad) * int64(busiest.groupCapacity)
	b := int64(sds.avgLoad-local.avgLoad) * int64(local.groupCapacity)
	if busiest.avgLoad < sds.avgLoad {
		a = 0
	}
	if sds.avgLoad < local.avgLoad {
		b = 0
	}
	env.imbalance = min(a, b) / capacityScale
}

// findBusiestQueue mirrors sched_balance_find_src_rq().
func (s *Sim) findBusiestQueue(env *lbEnv, g *SchedGroup) *RQ {
	var busiest *RQ
	var busiestLoad, busiestUtil uint64
	busiestCap := int64(1)
	busiestNr := 0
	m := g.Span.And(&env.cpus)
	for c := m.First(); c >= 0; c = m.Next(c) {
		rq := s.cpus[c]
		nr := rq.hNrRunnable() // v6.17: "nr_running = rq->cfs.h_nr_runnable;"
		if nr == 0 {
			continue
		}
		switch env.mtype {
		case migrateLoad:
			load := s.cpuLoad(rq)
			if nr == 1 && int64(load) > env.imbalance {
				continue
			}
			if load*uint64(busiestCap) > busiestLoad*uint64(rq.capacity) {
				busiestLoad, busiestCap, busiest = load, rq.capacity, rq
			}
		case migrateUtil:
			u := s.cpuUtil(rq)
			if nr <= 1 {
				continue
			}
			if busiestUtil < u {
				busiestUtil, busiest = u, rq
			}
		case migrateTask:
			if busiestNr < nr {
				busiestNr, busiest = nr, rq
			}
		}
	}
	return busiest
}
