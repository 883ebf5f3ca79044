package sim

// Load balancing (v6.17 sched_balance_*): the periodic softirq balance per
// domain, newidle balancing, nohz idle balancing and active balancing.

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

// lbEnv is struct lb_env.
type lbEnv struct {
	sd        *SchedDomain
	dstCPU    int
	dstRQ     *RQ
	srcCPU    int
	srcRQ     *RQ
	idle      int
	imbalance int64
	cpus      CPUMask
	flags     int
	loop      int
	loopMax   int
	newDstCPU int
	mtype     migrationType
	cause     Cause
	d         *Decision
	moved     []*Task
}

// LBF_* flags.
const (
	lbfAllPinned = 1 << iota
	lbfNeedBreak
	lbfDstPinned
	lbfSomePinned
	lbfActiveLB
)

const schedNrMigrate = 32 // sysctl_sched_nr_migrate

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

// triggerLoadBalance mirrors sched_balance_trigger() at a tick: raise the
// balance softirq when due (run inline) and kick the idle load balancer.
func (s *Sim) triggerLoadBalance(rq *RQ, idle bool) {
	if s.jiffies() >= rq.nextBalance {
		it := cpuNotIdle
		if idle {
			it = cpuIdle
		}
		s.era.track.decayBlocked(s, rq)
		s.era.rebalanceDomains(s, rq, it)
	}
	if !idle && s.feature(FeatNohzIdleBalance) {
		s.nohzBalancerKick(rq)
	}
}

// balanceInterval mirrors get_sd_balance_interval(), in jiffies; a busy
// CPU's interval is shortened by busyTrim jiffies (v6.17: one, "so that
// the busy CPU does not balance at the same time as an idle one"; 3.8:
// none) before it is clamped.
func (s *Sim) balanceInterval(sd *SchedDomain, busy bool, busyTrim int64) int64 {
	iv := sd.BalanceInterval
	if busy {
		iv *= int64(sd.BusyFactor)
	}
	iv = msToJiffies(iv, s.cfg.Machine.HZ)
	if busy {
		iv -= busyTrim
	}
	maxIv := int64(s.cfg.Machine.HZ) * int64(s.topo.NCPU) / 10
	return min(max(iv, 1), max(maxIv, 1))
}

func msToJiffies(ms int64, hz int) int64 { return (ms*int64(hz) + 999) / 1000 }

// rebalanceDomains617 mirrors sched_balance_domains(): balance every domain
// whose interval has passed, bottom-up; after should_we_balance() said no,
// keep walking only to decay max_newidle_lb_cost.
func (s *Sim) rebalanceDomains617(rq *RQ, idle int) {
	cont := true
	busy := idle != cpuIdle
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	var maxCost int64
	needDecay := false
	for _, sd := range rq.domains {
		needDecay = s.updateNewidleCost(sd, 0) || needDecay
		maxCost += sd.MaxNewidleLBCost
		if !cont {
			if needDecay {
				continue
			}
			break
		}
		iv := s.balanceInterval(sd, busy, 1)
		if j >= sd.LastBalance+iv {
			if s.loadBalance(rq, sd, idle, &cont) > 0 {
				// We pulled tasks: re-read idle_cpu().
				idle = cpuNotIdle
				if s.idleCPU(rq.cpu) {
					idle = cpuIdle
				}
				busy = idle != cpuIdle
			}
			sd.LastBalance = j
			iv = s.balanceInterval(sd, busy, 1)
		}
		if next > sd.LastBalance+iv {
			next = sd.LastBalance + iv
			update = true
		}
	}
	s.rebalanceDone(rq, needDecay, maxCost, update, next)
}

// rebalanceDomains38 mirrors 3.8 rebalance_domains(): as v6.17, but a
// pass that pulled tasks makes the CPU busy for the levels above, and the
// walk stops where load_balance() cleared balance.
func (s *Sim) rebalanceDomains38(rq *RQ, idle int) {
	cont := true
	busy := idle != cpuIdle
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	var maxCost int64
	needDecay := false
	for _, sd := range rq.domains {
		needDecay = s.updateNewidleCost(sd, 0) || needDecay
		maxCost += sd.MaxNewidleLBCost
		iv := s.balanceInterval(sd, busy, 0)
		if j >= sd.LastBalance+iv {
			if s.loadBalance(rq, sd, idle, &cont) > 0 {
				// We pulled tasks: no longer idle.
				idle = cpuNotIdle
				busy = true
			}
			sd.LastBalance = j
		}
		if next > sd.LastBalance+iv {
			next = sd.LastBalance + iv
			update = true
		}
		if !cont {
			break
		}
	}
	s.rebalanceDone(rq, needDecay, maxCost, update, next)
}

// rebalanceDone is the tail of the periodic walk: the decayed newidle cost
// and the next balance time.
func (s *Sim) rebalanceDone(rq *RQ, needDecay bool, maxCost int64, update bool, next int64) {
	if needDecay {
		rq.maxIdleBalanceCost = max(s.migrationCost, maxCost)
	}
	if update {
		rq.nextBalance = next
	}
}

// updateNewidleCost mirrors update_newidle_cost().
func (s *Sim) updateNewidleCost(sd *SchedDomain, cost int64) bool {
	j := s.jiffies()
	if cost > sd.MaxNewidleLBCost {
		sd.MaxNewidleLBCost = cost
		sd.LastDecayMaxLBCost = j
	} else if j > sd.LastDecayMaxLBCost+int64(s.cfg.Machine.HZ) {
		sd.MaxNewidleLBCost = sd.MaxNewidleLBCost * 253 / 256
		sd.LastDecayMaxLBCost = j
		return true
	}
	return false
}

// shouldWeBalance mirrors should_we_balance(): only one CPU of a group
// balances it: the first idle CPU (on an idle core, above SMT), else the
// group's first CPU. Newidle balancing always may.
func (s *Sim) shouldWeBalance(env *lbEnv) bool {
	if env.idle == cpuNewlyIdle {
		return env.dstRQ.nrRunning == 0 && env.dstRQ.ttwuPending == 0
	}
	sg := env.sd.Groups[0]
	swb := sg.Span.And(&env.cpus)
	idleSMT := -1
	for c := swb.First(); c >= 0; c = swb.Next(c) {
		if !s.idleCPU(c) {
			continue
		}
		if env.sd.Flags&SDShareCPUCapacity == 0 && !s.isCoreIdle(c) {
			if idleSMT == -1 {
				idleSMT = c
			}
			swb = swb.AndNot(&s.topo.SMT[c])
			continue
		}
		return c == env.dstCPU
	}
	if idleSMT != -1 {
		return idleSMT == env.dstCPU
	}
	return sg.First == env.dstCPU
}

func (s *Sim) isCoreIdle(cpu int) bool {
	smt := &s.topo.SMT[cpu]
	for c := smt.First(); c >= 0; c = smt.Next(c) {
		if c != cpu && !s.idleCPU(c) {
			return false
		}
	}
	return true
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
		env.d.Examined.Set(c)
		env.d.NCPUs++
		env.d.Cost += s.costs.BalanceCPU
		sgs.groupLoad += s.cpuLoad(rq)
		sgs.groupUtil += s.cpuUtil(rq)
		sgs.groupRunnable += rq.cfsAvg.RunnableAvg
		sgs.sumHNrRunning += rq.nrRunning
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
	return max(g.Weight/s.cfg.Machine.ThreadsPerCore, 1)
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
			if local.sumNrRunning+1 < s.imbNumaNr(env.sd) && env.imbalance <= 2 {
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
		nr := rq.nrRunning
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

// taskHot mirrors task_hot(): ran within sysctl_sched_migration_cost.
func (s *Sim) taskHot(p *Task, env *lbEnv) bool {
	if env.sd.Flags&SDShareCPUCapacity != 0 {
		return false
	}
	if s.migrationCost == 0 {
		return false
	}
	return s.now-p.execStart < s.migrationCost
}

// canMigrateTask mirrors can_migrate_task() of both eras: the kernel's
// numbered rules, in its order, with the rules only one era has supplied by
// the era (migrateEligible, migratePinned). It reports (ok, hot).
func (s *Sim) canMigrateTask(p *Task, env *lbEnv) (bool, bool) {
	// v6.17: "We do not migrate tasks that are:
	//  1) delayed dequeued unless we migrate load, or
	//  2) throttled_lb_pair, or
	//  3) cannot be migrated to this CPU due to cpus_ptr, or
	//  4) running (obviously), or
	//  5) are cache-hot on their current CPU."
	// v3.8 has the same list without 1), numbered 1) … 4), cpus_allowed for
	// cpus_ptr. 1) is not modelled (no DELAY_DEQUEUE), nor 2) (no bandwidth
	// control). Ahead of 3), v6.17 tests commit 873199d27bb2's eligibility
	// rule (ELIGIBLE_FIRST); 3.8 has none. Active balancing skips 5).
	if !s.era.migrateEligible(s, p, env) {
		return false, false
	}
	// 3) cannot be migrated to this CPU due to cpus_ptr.
	if !p.allowed.Has(env.dstCPU) {
		s.era.migratePinned(p, env)
		return false, false
	}
	// "Record that we found at least one task that could run on dst_cpu."
	env.flags &^= lbfAllPinned
	// 4) running (obviously).
	if env.srcRQ.curr == p {
		return false, false
	}
	if env.flags&lbfActiveLB != 0 {
		return true, false
	}
	// 5) cache-hot on its current CPU, unless balancing keeps failing.
	hot := s.taskHot(p, env)
	if !hot || env.sd.NrBalanceFailed > env.sd.CacheNiceTries {
		return true, hot
	}
	return false, true
}

// migrateEligible617 is commit 873199d27bb2 ("Prioritize migrating eligible
// tasks in sched_balance_rq()", ELIGIBLE_FIRST): while no balance of the
// domain has failed, a task that is not eligible on its runqueue does not
// move to a CPU that has tasks (with PLACE_LAG it would arrive ineligible).
func (s *Sim) migrateEligible617(p *Task, env *lbEnv) bool {
	return !(s.feature(FeatEligibleFirst) && env.sd.NrBalanceFailed == 0 &&
		s.feature(FeatPlaceLag) && env.dstRQ.nrRunning > 0 && !env.srcRQ.entityEligible(p))
}

// migratePinned617 is v6.17's rule 3): note LBF_SOME_PINNED and, unless
// newly idle, active or already redirected, another CPU of dst's group p may
// run on (LBF_DST_PINNED, new_dst_cpu).
func migratePinned617(p *Task, env *lbEnv) {
	env.flags |= lbfSomePinned
	if env.idle == cpuNewlyIdle || env.flags&(lbfDstPinned|lbfActiveLB) != 0 {
		return
	}
	m := env.sd.Groups[0].Span.And(&env.cpus)
	m = m.And(&p.allowed)
	if c := m.First(); c >= 0 {
		env.flags |= lbfDstPinned
		env.newDstCPU = c
	}
}

// migratePinned38 is 3.8's rule 2): the first time, another CPU of dst's
// group p may run on (LBF_SOME_PINNED, new_dst_cpu).
func migratePinned38(p *Task, env *lbEnv) {
	if env.flags&lbfSomePinned != 0 {
		return
	}
	m := env.sd.Groups[0].Span.And(&p.allowed)
	if c := m.First(); c >= 0 {
		env.flags |= lbfSomePinned
		env.newDstCPU = c
	}
}

// cfsTasksLRU returns src's tasks in the order detach_tasks() walks
// rq->cfs_tasks: from the tail. Tasks join the head when enqueued
// (account_entity_enqueue()) and move to the head when picked
// (pick_next_task_fair()), so the tail is the task that has waited longest
// since it was queued or last chosen.
func (s *Sim) cfsTasksLRU(rq *RQ) []*Task {
	out := s.lruBuf[:0]
	out = append(out, rq.queue...)
	if rq.curr != nil && rq.curr.onRq {
		out = append(out, rq.curr)
	}
	for i := 1; i < len(out); i++ { // small lists: insertion sort by list position
		for j := i; j > 0 && out[j].listPos < out[j-1].listPos; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	s.lruBuf = out
	return out
}

// detachTasks mirrors detach_tasks(); detached tasks land in env.moved.
func (s *Sim) detachTasks(env *lbEnv) int {
	src := env.srcRQ
	if src.nrRunning <= 1 {
		env.flags &^= lbfAllPinned
		return 0
	}
	if env.imbalance <= 0 {
		return 0
	}
	detached := 0
	stats := &env.sd.Stats.LB[env.idle]
	// A stable copy: detaching edits src's queue.
	s.candBuf = append(s.candBuf[:0], s.cfsTasksLRU(src)...)
	for _, p := range s.candBuf {
		if env.idle != cpuNotIdle && src.nrRunning <= 1 {
			break
		}
		env.loop++
		if env.loop > env.loopMax {
			break
		}
		ok, hot := s.canMigrateTask(p, env)
		if !ok {
			continue
		}
		switch env.mtype {
		case migrateLoad:
			load := max(int64(s.taskLoad(p)), 1)
			if shrBound(load, env.sd.NrBalanceFailed) > env.imbalance {
				continue
			}
			env.imbalance -= load
		case migrateUtil:
			u := int64(max(p.avg.UtilAvg, p.avg.UtilEst))
			if shrBound(u, env.sd.NrBalanceFailed) > env.imbalance {
				continue
			}
			env.imbalance -= u
		case migrateTask:
			env.imbalance--
		}
		s.detachTask(env, p)
		if hot {
			stats.HotGained++
		}
		detached++
		if env.idle == cpuNewlyIdle {
			break // CONFIG_PREEMPTION: newidle stops after the first task
		}
		if env.imbalance <= 0 {
			break
		}
	}
	stats.Gained += int64(detached)
	return detached
}

func shrBound(v int64, n int) int64 {
	if n >= 63 {
		return 0
	}
	return v >> uint(n)
}

// detachTask mirrors detach_task(): dequeue from src (a migrating dequeue).
func (s *Sim) detachTask(env *lbEnv, p *Task) {
	s.era.detachAccount(s, env, p)
	s.dequeueEntity(env.srcRQ, p, deqMigrating)
	p.state = TaskWaking
	env.moved = append(env.moved, p)
}

// detachAccount617 counts a task moved with negative lag onto a CPU that
// has tasks: with PLACE_LAG it arrives just as ineligible (seed 001's case).
func (s *Sim) detachAccount617(env *lbEnv, p *Task) {
	if env.dstRQ.nrRunning > 0 && !env.srcRQ.entityEligible(p) {
		s.m.migIneligible++
		if env.sd.NrBalanceFailed == 0 {
			s.m.migIneligibleFirst++
		}
	}
}

// attachTasks mirrors attach_tasks(): enqueue on dst, with the migration
// accounted and explained.
func (s *Sim) attachTasks(env *lbEnv) {
	for _, p := range env.moved {
		from := p.cpu
		s.era.track.balanceMigrate(p)
		p.cpu = env.dstCPU
		p.migratedAt = s.now
		s.countMigration(p, from, env.dstCPU, env.cause)
		s.emit(Event{Kind: EvMigrate, Cause: env.cause, CPU: int16(env.dstCPU), From: int16(from), Task: p.id, Arg: -1, Level: int8(env.sd.Level), Why: env.d.Seq})
		s.activate(env.dstRQ, p, enqMigrated)
	}
	env.moved = env.moved[:0]
	s.movedBuf = env.moved
}

// Decision names per idle type, built once (the balancer runs every tick).
var loadBalanceNames617, loadBalanceNames38 [numIdleTypes]string

func init() {
	for i, n := range idleTypeNames {
		loadBalanceNames617[i] = "sched_balance_rq(" + n + ")"
		loadBalanceNames38[i] = "load_balance(" + n + ")"
	}
}

// loadBalance is one balancing pass of domain sd on behalf of dst, by the
// era's load_balance(). It returns the number of tasks moved.
func (s *Sim) loadBalance(dst *RQ, sd *SchedDomain, idle int, cont *bool) int {
	cause := CauseBalance
	if idle == cpuNewlyIdle {
		cause = CauseNewidle
	} else if idle == cpuIdle && s.nohzBalancing {
		cause = CauseNohz
	}
	env := &lbEnv{sd: sd, dstCPU: dst.cpu, dstRQ: dst, idle: idle, cpus: sd.Span, cause: cause, moved: s.movedBuf[:0]}
	env.d = s.newDecision(s.era.lbNames[idle], nil, dst.cpu)
	env.d.Level = int8(sd.Level)
	return s.era.loadBalance(s, env, cont)
}

// loadBalance617 mirrors sched_balance_rq() (v6.17).
func (s *Sim) loadBalance617(env *lbEnv, cont *bool) int {
	sd, dst, idle, cause := env.sd, env.dstRQ, env.idle, env.cause
	stats := &sd.Stats.LB[idle]
	stats.Count++
	moved := 0
	activeBalance := false
	var busiest *RQ
	for redo := 0; ; redo++ {
		if !s.shouldWeBalance(env) {
			*cont = false
			env.d.Reason = "another CPU of the group balances it"
			return s.lbBalanced(env, false)
		}
		g := s.findBusiestGroup(env)
		if g == nil {
			stats.NoBusyG++
			return s.lbBalanced(env, false)
		}
		busiest = s.findBusiestQueue(env, g)
		if busiest == nil {
			stats.NoBusyQ++
			env.d.Reason = "no busiest runqueue"
			return s.lbBalanced(env, false)
		}
		stats.Imbalance += env.imbalance
		switch env.mtype {
		case migrateLoad:
			stats.ImbLoad += env.imbalance
		case migrateUtil:
			stats.ImbUtil += env.imbalance
		case migrateTask:
			stats.ImbTask += env.imbalance
		}
		env.srcCPU, env.srcRQ = busiest.cpu, busiest
		env.d.Target = int16(busiest.cpu)
		env.flags |= lbfAllPinned
		if busiest.nrRunning > 1 {
			env.loopMax = min(schedNrMigrate, busiest.nrRunning)
			for {
				n := s.detachTasks(env)
				if n > 0 {
					s.attachTasks(env)
					moved += n
				}
				if env.flags&lbfDstPinned != 0 && env.imbalance > 0 {
					env.cpus.Clear(env.dstCPU)
					env.dstRQ = s.cpus[env.newDstCPU]
					env.dstCPU = env.newDstCPU
					env.flags &^= lbfDstPinned
					env.loop = 0
					continue
				}
				break
			}
			if sd.Parent != nil && env.flags&lbfSomePinned != 0 && env.imbalance > 0 {
				sd.Parent.Groups[0].Imbalance = true
			}
			if env.flags&lbfAllPinned != 0 {
				env.cpus.Clear(busiest.cpu)
				gm := sd.Groups[0].Span
				if !env.cpus.SubsetOf(&gm) && redo < MaxCPUs {
					env.loop = 0
					continue
				}
				stats.Balanced++
				sd.NrBalanceFailed = 0
				env.d.Reason = "all tasks pinned"
				s.lbTuneInterval(env, true)
				return 0
			}
		}
		break
	}
	if moved == 0 {
		stats.Failed++
		if idle != cpuNewlyIdle {
			sd.NrBalanceFailed++
		}
		env.d.Reason = "nothing could move"
		if s.era.needActiveBalance(env) {
			if busiest.curr != nil && busiest.curr.allowed.Has(dst.cpu) && !busiest.activeBalance {
				busiest.activeBalance = true
				activeBalance = true
				env.d.Reason = "active balance: push the running task"
				s.q.push(qev{t: s.now + s.costs.WakeupIPI, kind: evActiveBalance, cpu: int32(busiest.cpu), task: int32(dst.cpu)})
			}
		}
	} else {
		sd.NrBalanceFailed = 0
		env.d.Reason = "moved tasks"
	}
	if !activeBalance || s.era.needActiveBalance(env) {
		sd.BalanceInterval = sd.MinInterval
	}
	env.d.add("moved", int64(moved))
	s.chargeBalanceCost(dst, env.d.Cost)
	s.emit(Event{Kind: EvBalance, Cause: cause, CPU: int16(dst.cpu), From: int16(env.srcCPU), Task: -1, Arg: int32(moved), Level: int8(sd.Level), Why: env.d.Seq})
	return moved
}

// lbBalanced is the out_balanced tail of sched_balance_rq().
func (s *Sim) lbBalanced(env *lbEnv, allPinned bool) int {
	sd := env.sd
	if sd.Parent != nil && env.flags&lbfAllPinned == 0 {
		sd.Parent.Groups[0].Imbalance = false
	}
	sd.Stats.LB[env.idle].Balanced++
	sd.NrBalanceFailed = 0
	s.lbTuneInterval(env, allPinned)
	s.chargeBalanceCost(env.dstRQ, env.d.Cost)
	return 0
}

// lbTuneInterval doubles balance_interval after a balanced pass (not for
// newidle).
func (s *Sim) lbTuneInterval(env *lbEnv, allPinned bool) {
	sd := env.sd
	if env.idle == cpuNewlyIdle {
		return
	}
	if (allPinned && sd.BalanceInterval < 512) || sd.BalanceInterval < sd.MaxInterval {
		sd.BalanceInterval *= 2
	}
}

// needActiveBalance617 mirrors need_active_balance(): v6.17 pushes a
// running task only for migrate_task after cache_nice_tries+2 failures.
func needActiveBalance617(env *lbEnv) bool {
	return env.mtype == migrateTask && env.sd.NrBalanceFailed > env.sd.CacheNiceTries+2
}

// needActiveBalance38 mirrors 3.8 need_active_balance(): after
// cache_nice_tries+2 failures, whatever the imbalance.
func needActiveBalance38(env *lbEnv) bool {
	return env.sd.NrBalanceFailed > env.sd.CacheNiceTries+2
}

// activeBalance handles evActiveBalance: the stopper on the busiest CPU
// preempts its task and pushes one task to the idle CPU
// (active_load_balance_cpu_stop() -> detach_one_task()).
func (s *Sim) activeBalance(busiest *RQ, target int) {
	busiest.activeBalance = false
	dst := s.cpus[target]
	if busiest.nrRunning <= 1 && busiest.curr == nil {
		return
	}
	var sd *SchedDomain
	for _, t := range dst.domains {
		if t.Span.Has(busiest.cpu) {
			sd = t
			break
		}
	}
	if sd == nil {
		return
	}
	sd.Stats.ALBCount++
	// The stopper preempts the running task: put it back in the tree.
	if busiest.curr != nil {
		s.putPrev(busiest)
		busiest.gen++
		s.markResched(busiest)
	}
	env := &lbEnv{sd: sd, dstCPU: target, dstRQ: dst, srcCPU: busiest.cpu, srcRQ: busiest, idle: cpuIdle,
		cpus: sd.Span, flags: lbfActiveLB, cause: CauseActive, moved: s.movedBuf[:0]}
	env.d = s.newDecision("active_load_balance_cpu_stop", nil, target)
	env.d.Level = int8(sd.Level)
	env.d.Target = int16(busiest.cpu)
	for _, p := range s.cfsTasksLRU(busiest) {
		if ok, _ := s.canMigrateTask(p, env); ok {
			env.d.Reason = "pushed a task"
			s.detachTask(env, p)
			s.attachTasks(env)
			sd.Stats.ALBPushed++
			return
		}
	}
	sd.Stats.ALBFailed++
}

// chargeBalanceCost charges the balancer's statistics reading to a busy CPU:
// the softirq steals that time from the running task.
func (s *Sim) chargeBalanceCost(rq *RQ, cost int64) {
	s.m.balanceCost += cost
	if cost <= 0 || rq.curr == nil || rq.exiting {
		return
	}
	s.updateCurr(rq)
	rq.curr.remaining += cost
	rq.gen++
	s.q.push(qev{t: s.now + rq.curr.remaining, kind: evRunDone, cpu: int32(rq.cpu), gen: rq.gen})
}

// newidleBalance mirrors sched_balance_newidle() (3.8 idle_balance()): a CPU
// about to go idle pulls work, domain by domain, while its average idle time
// can pay for the search. It reports whether a task was pulled.
func (s *Sim) newidleBalance(rq *RQ) bool {
	if !s.feature(FeatNewidleBalance) || rq.ttwuPending > 0 {
		return false
	}
	rq.idleStamp = max(s.now, 1)
	if !s.era.newidleGate(s, rq) {
		return false
	}
	s.era.track.decayBlocked(s, rq)
	pulled := 0
	var currCost int64
	cont := true
	for _, sd := range rq.domains {
		if s.era.newidleStop(s, rq, sd, currCost) {
			break
		}
		if sd.Flags&SDBalanceNewidle != 0 {
			before := s.m.balanceCost
			pulled = s.loadBalance(rq, sd, cpuNewlyIdle, &cont)
			cost := s.m.balanceCost - before
			s.updateNewidleCost(sd, cost)
			currCost += cost
		}
		if pulled > 0 || !cont {
			break
		}
	}
	if currCost > rq.maxIdleBalanceCost {
		rq.maxIdleBalanceCost = currCost
	}
	if pulled > 0 || len(rq.queue) > 0 {
		rq.idleStamp = 0
		return true
	}
	return false
}

// newidleGate617: skip newidle balancing unless the root domain is
// overloaded and the CPU's average idle time exceeds the lowest domain's
// max_newidle_lb_cost.
func (s *Sim) newidleGate617(rq *RQ) bool {
	return s.rdOverloaded && (len(rq.domains) == 0 || rq.avgIdle >= rq.domains[0].MaxNewidleLBCost)
}

// newidleStop617: stop before a domain whose cost the idle time cannot pay.
func (s *Sim) newidleStop617(rq *RQ, sd *SchedDomain, currCost int64) bool {
	return rq.avgIdle < currCost+sd.MaxNewidleLBCost
}

// newidleGate38 mirrors 3.8 idle_balance(): skip when avg_idle <
// sysctl_sched_migration_cost.
func (s *Sim) newidleGate38(rq *RQ) bool { return rq.avgIdle >= s.migrationCost }

// nohzBalancerKick mirrors nohz_balancer_kick() (3.8 nohz_kick_needed()):
// a busy CPU's tick asks an idle CPU to balance on behalf of all idle CPUs.
func (s *Sim) nohzBalancerKick(rq *RQ) {
	if s.m.nIdle == 0 || s.jiffies() < s.nohzNextBalance || s.nohzKickPending {
		return
	}
	if rq.nrRunning < 2 && !s.era.nohzKickBusy(s, rq) {
		return
	}
	s.nohzNextBalance = s.jiffies() + 1
	// find_new_ilb(): the first idle CPU.
	ilb := -1
	for c := 0; c < s.topo.NCPU; c++ {
		if s.idleCPU(c) {
			ilb = c
			break
		}
	}
	if ilb < 0 {
		return
	}
	s.nohzKickPending = true
	irq := s.cpus[ilb]
	lat := s.costs.WakeupIPI + s.costs.exitLatency(s.now-irq.idleSince)
	s.q.push(qev{t: s.now + lat, kind: evNohzKick, cpu: int32(ilb)})
}

// nohzKickBusy617: the LLC has more than one busy CPU (nr_busy_cpus).
func (s *Sim) nohzKickBusy617(rq *RQ) bool { return rq.llc.nrBusyCPUs > 1 }

// nohzKickBusy38 mirrors 3.8 nohz_kick_needed(): a SHARE_PKG_RESOURCES
// level whose local group has more than one busy CPU.
func (s *Sim) nohzKickBusy38(rq *RQ) bool {
	for i, sd := range rq.domains {
		if sd.Flags&SDShareLLC == 0 {
			break
		}
		if g := s.cpuGroups[rq.cpu][i]; g.NrBusy > 1 {
			return true
		}
	}
	return false
}

// nohzIdleBalance mirrors _nohz_idle_balance(): the kicked idle CPU decays
// the blocked load of every idle CPU and balances those whose next_balance
// is due, starting after itself and ending with itself.
func (s *Sim) nohzIdleBalance(ilb *RQ) {
	s.nohzKickPending = false
	if ilb.idle {
		ilb.idleSince = s.now // it woke up to do this
	}
	n := s.topo.NCPU
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	s.nohzBalancing = true
	for i := 1; i <= n; i++ {
		c := (ilb.cpu + i) % n
		if !s.idleCPU(c) {
			continue
		}
		if !s.idleCPU(ilb.cpu) && ilb.needResched {
			break
		}
		rq := s.cpus[c]
		s.era.track.decayBlocked(s, rq)
		if j >= rq.nextBalance {
			s.era.rebalanceDomains(s, rq, cpuIdle)
		}
		if next > rq.nextBalance {
			next = rq.nextBalance
			update = true
		}
	}
	s.nohzBalancing = false
	if update {
		s.nohzNextBalance = next
	}
}
