package sim

// The v3.8 load balancer: load_balance() with find_busiest_group(),
// update_sd_lb_stats()/update_sg_lb_stats() over cpu_load[] indexes,
// group_imb, calculate_imbalance() + fix_small_imbalance(),
// find_busiest_queue() and move_tasks() (kernel/sched/fair.c, v3.8): the
// era's balancing pass (eraV38.loadBalance). can_migrate_task(), detach and
// attach are shared with v6.17 in balance.go; the trigger, the periodic
// walk, newidle, nohz and active balancing are in balance_periodic.go,
// balance_newidle.go, balance_nohz.go and balance_active.go, each with the
// era's own rules beside the shared ones.

// sdLBStats38 is the 3.8 struct sd_lb_stats.
type sdLBStats38 struct {
	busiest, this                            *SchedGroup
	totalLoad, totalPwr, avgLoad             uint64
	thisLoad, thisNrRunning, thisLoadPerTask uint64
	thisHasCapacity                          bool
	thisIdleCPUs                             int
	maxLoad                                  uint64
	busiestNrRunning, busiestLoadPerTask     uint64
	busiestGroupCapacity                     uint64
	busiestHasCapacity                       bool
	busiestIdleCPUs, busiestGroupWeight      int
	groupImb                                 bool
}

type sgLBStats38 struct {
	avgLoad, groupLoad, sumNrRunning, sumWeightedLoad, groupCapacity uint64
	idleCPUs, groupWeight                                            int
	groupImb, groupHasCapacity                                       bool
}

// loadIdx mirrors get_sd_load_idx().
func loadIdx(sd *SchedDomain, idle int) int {
	switch idle {
	case cpuNotIdle:
		return sd.BusyIdx
	case cpuNewlyIdle:
		return sd.NewidleIdx
	}
	return sd.IdleIdx
}

// updateSgLBStats38 mirrors 3.8 update_sg_lb_stats(); it reports false when
// this CPU is not the group's balance CPU (the first idle one, else the
// first), which stops balancing at this level.
func (s *Sim) updateSgLBStats38(env *lbEnv, g *SchedGroup, idx int, local bool, sgs *sgLBStats38) bool {
	var maxLoad, maxNr uint64
	minLoad, minNr := ^uint64(0), ^uint64(0)
	balanceCPU := -1
	if local {
		balanceCPU = g.First
	}
	firstIdle := false
	m := g.Span.And(&env.cpus)
	for c := m.First(); c >= 0; c = m.Next(c) {
		rq := s.cpus[c]
		if s.recording {
			env.d.Examined.Set(c)
		}
		env.d.NCPUs++
		env.d.Cost += s.costs.BalanceCPU
		nr := uint64(rq.nrRunning)
		var load uint64
		if local {
			if s.idleCPU(c) && !firstIdle {
				firstIdle = true
				balanceCPU = c
			}
			load = s.targetLoad(c, idx)
		} else {
			load = s.sourceLoad(c, idx)
			maxLoad, minLoad = max(maxLoad, load), min(minLoad, load)
			maxNr, minNr = max(maxNr, nr), min(minNr, nr)
		}
		sgs.groupLoad += load
		sgs.sumNrRunning += nr
		sgs.sumWeightedLoad += s.cpuLoad(rq)
		if s.idleCPU(c) {
			sgs.idleCPUs++
		}
	}
	if local && env.idle != cpuNewlyIdle && balanceCPU != env.dstCPU {
		return false
	}
	sgs.avgLoad = sgs.groupLoad * capacityScale / uint64(g.Capacity)
	var avgPerTask uint64
	if sgs.sumNrRunning > 0 {
		avgPerTask = sgs.sumWeightedLoad / sgs.sumNrRunning
	}
	if !local && maxLoad-minLoad >= avgPerTask && maxNr-minNr > 1 {
		sgs.groupImb = true
	}
	sgs.groupCapacity = (uint64(g.Capacity) + capacityScale/2) / capacityScale
	if sgs.groupCapacity == 0 && env.sd.Flags&SDShareCPUCapacity != 0 {
		sgs.groupCapacity = 1 // fix_small_capacity(): ~90% of the power is there
	}
	sgs.groupWeight = g.Weight
	sgs.groupHasCapacity = sgs.groupCapacity > sgs.sumNrRunning
	return true
}

// updateSdLBStats38 mirrors 3.8 update_sd_lb_stats().
func (s *Sim) updateSdLBStats38(env *lbEnv, sds *sdLBStats38) bool {
	preferSibling := env.sd.Child != nil && env.sd.Child.Flags&SDPreferSibling != 0
	idx := loadIdx(env.sd, env.idle)
	for _, g := range env.sd.Groups {
		env.d.NGroups++
		local := g.Span.Has(env.dstCPU)
		var sgs sgLBStats38
		if !s.updateSgLBStats38(env, g, idx, local, &sgs) {
			return false
		}
		sds.totalLoad += sgs.groupLoad
		sds.totalPwr += uint64(g.Capacity)
		if preferSibling && !local && sds.thisHasCapacity {
			sgs.groupCapacity = min(sgs.groupCapacity, 1)
		}
		if local {
			sds.thisLoad = sgs.avgLoad
			sds.this = g
			sds.thisNrRunning = sgs.sumNrRunning
			sds.thisLoadPerTask = sgs.sumWeightedLoad
			sds.thisHasCapacity = sgs.groupHasCapacity
			sds.thisIdleCPUs = sgs.idleCPUs
		} else if sgs.avgLoad > sds.maxLoad && (sgs.sumNrRunning > sgs.groupCapacity || sgs.groupImb) {
			// update_sd_pick_busiest()
			sds.maxLoad = sgs.avgLoad
			sds.busiest = g
			sds.busiestNrRunning = sgs.sumNrRunning
			sds.busiestIdleCPUs = sgs.idleCPUs
			sds.busiestGroupCapacity = sgs.groupCapacity
			sds.busiestLoadPerTask = sgs.sumWeightedLoad
			sds.busiestHasCapacity = sgs.groupHasCapacity
			sds.busiestGroupWeight = sgs.groupWeight
			sds.groupImb = sgs.groupImb
		}
	}
	return true
}

// fixSmallImbalance mirrors 3.8 fix_small_imbalance().
func (s *Sim) fixSmallImbalance(env *lbEnv, sds *sdLBStats38) {
	imbn := uint64(2)
	if sds.thisNrRunning > 0 {
		sds.thisLoadPerTask /= sds.thisNrRunning
		if sds.busiestLoadPerTask > sds.thisLoadPerTask {
			imbn = 1
		}
	} else {
		sds.thisLoadPerTask = s.cpuAvgLoadPerTask(env.dstCPU)
	}
	bpwr, tpwr := uint64(sds.busiest.Capacity), uint64(sds.this.Capacity)
	scaled := sds.busiestLoadPerTask * capacityScale / bpwr
	// Unsigned, as the kernel's: a local group more loaded than the
	// busiest by more than one of its tasks (reached on a forced balance)
	// wraps max_load - this_load to a huge value, which passes.
	if sds.maxLoad-sds.thisLoad+scaled >= scaled*imbn {
		env.imbalance = int64(sds.busiestLoadPerTask)
		return
	}
	var pwrNow, pwrMove uint64
	pwrNow += bpwr * min(sds.busiestLoadPerTask, sds.maxLoad)
	pwrNow += tpwr * min(sds.thisLoadPerTask, sds.thisLoad)
	pwrNow /= capacityScale
	tmp := sds.busiestLoadPerTask * capacityScale / bpwr
	if sds.maxLoad > tmp {
		pwrMove += bpwr * min(sds.busiestLoadPerTask, sds.maxLoad-tmp)
	}
	if sds.maxLoad*bpwr < sds.busiestLoadPerTask*capacityScale {
		tmp = sds.maxLoad * bpwr / tpwr
	} else {
		tmp = sds.busiestLoadPerTask * capacityScale / tpwr
	}
	pwrMove += tpwr * min(sds.thisLoadPerTask, sds.thisLoad+tmp)
	pwrMove /= capacityScale
	if pwrMove > pwrNow {
		env.imbalance = int64(sds.busiestLoadPerTask)
	}
}

// calculateImbalance38 mirrors 3.8 calculate_imbalance().
func (s *Sim) calculateImbalance38(env *lbEnv, sds *sdLBStats38) {
	sds.busiestLoadPerTask /= sds.busiestNrRunning
	if sds.groupImb {
		sds.busiestLoadPerTask = min(sds.busiestLoadPerTask, sds.avgLoad)
	}
	if sds.maxLoad < sds.avgLoad {
		env.imbalance = 0
		s.fixSmallImbalance(env, sds)
		return
	}
	loadAbove := ^uint64(0)
	if !sds.groupImb {
		over := uint64(0)
		if sds.busiestNrRunning > sds.busiestGroupCapacity {
			over = sds.busiestNrRunning - sds.busiestGroupCapacity
		}
		loadAbove = over * nice0Load * capacityScale / uint64(sds.busiest.Capacity)
	}
	maxPull := min(sds.maxLoad-sds.avgLoad, loadAbove)
	// Unsigned, as the kernel's: a local group above the domain's average
	// (reached on a forced balance, which skips that test) wraps
	// avg_load - this_load, and the busiest group's excess is the pull.
	pull := (sds.avgLoad - sds.thisLoad) * uint64(sds.this.Capacity)
	env.imbalance = int64(min(maxPull*uint64(sds.busiest.Capacity), pull) / capacityScale)
	if uint64(env.imbalance) < sds.busiestLoadPerTask {
		s.fixSmallImbalance(env, sds)
	}
}

// findBusiestGroup38 mirrors 3.8 find_busiest_group(); balance is cleared
// when another CPU of the local group should balance it.
func (s *Sim) findBusiestGroup38(env *lbEnv, balance *bool) *SchedGroup {
	var sds sdLBStats38
	if !s.updateSdLBStats38(env, &sds) {
		*balance = false
		env.d.Reason = "another CPU of the group balances it"
		return nil
	}
	if sds.busiest == nil || sds.busiestNrRunning == 0 {
		env.d.Reason = "no busier group"
		return nil
	}
	sds.avgLoad = capacityScale * sds.totalLoad / sds.totalPwr
	env.d.add("this_load", int64(sds.thisLoad))
	env.d.add("max_load", int64(sds.maxLoad))
	env.d.add("avg_load", int64(sds.avgLoad))
	env.d.Target = int16(sds.busiest.First)
	force := sds.groupImb || (env.idle == cpuNewlyIdle && sds.thisHasCapacity && !sds.busiestHasCapacity)
	if !force {
		switch {
		case sds.thisLoad >= sds.maxLoad:
			env.d.Reason = "local group at least as loaded"
			return nil
		case sds.thisLoad >= sds.avgLoad:
			env.d.Reason = "local group above the domain average"
			return nil
		case env.idle == cpuIdle:
			if sds.thisIdleCPUs <= sds.busiestIdleCPUs+1 && sds.busiestNrRunning <= uint64(sds.busiestGroupWeight) {
				env.d.Reason = "idle CPUs balanced"
				return nil
			}
		default:
			if 100*sds.maxLoad <= uint64(env.sd.ImbalancePct)*sds.thisLoad {
				env.d.Reason = "within imbalance_pct"
				return nil
			}
		}
	}
	if sds.groupImb {
		env.d.add("group_imb", 1)
	}
	s.calculateImbalance38(env, &sds)
	env.d.add("imbalance", env.imbalance)
	return sds.busiest
}

// findBusiestQueue38 mirrors 3.8 find_busiest_queue(): the highest
// power-scaled load, skipping a lone task heavier than the imbalance.
func (s *Sim) findBusiestQueue38(env *lbEnv, g *SchedGroup) *RQ {
	var busiest *RQ
	var maxLoad uint64
	m := g.Span.And(&env.cpus)
	for c := m.First(); c >= 0; c = m.Next(c) {
		rq := s.cpus[c]
		capacity := (rq.capacity + capacityScale/2) / capacityScale
		wl := s.cpuLoad(rq)
		if capacity > 0 && rq.nrRunning == 1 && int64(wl) > env.imbalance {
			continue
		}
		wl = wl * capacityScale / uint64(rq.capacity)
		if wl > maxLoad {
			maxLoad, busiest = wl, rq
		}
	}
	return busiest
}

// moveTasks38 mirrors 3.8 move_tasks(): walk cfs_tasks from its head (the
// most recently enqueued first), skip a task whose load is more than twice
// the remaining imbalance, move the rest until the imbalance is gone.
func (s *Sim) moveTasks38(env *lbEnv) int {
	if env.imbalance <= 0 {
		return 0
	}
	cands := append(s.candBuf[:0], env.srcRQ.queue...)
	if c := env.srcRQ.curr; c != nil && c.onRq {
		cands = append(cands, c)
	}
	for i := 1; i < len(cands); i++ { // by enqueue order, newest first
		for j := i; j > 0 && cands[j].enqSeq > cands[j-1].enqSeq; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	s.candBuf = cands
	stats := &env.sd.Stats.LB[env.idle]
	pulled := 0
	for _, p := range cands {
		env.loop++
		if env.loop > env.loopMax {
			break
		}
		load := int64(s.taskLoad(p))
		if load/2 > env.imbalance {
			continue
		}
		ok, hot := s.canMigrateTask(p, env)
		if !ok {
			continue
		}
		if hot {
			stats.HotGained++
		}
		s.detachTask(env, p)
		pulled++
		env.imbalance -= load
		if env.idle == cpuNewlyIdle && s.feature(FeatNewidlePullOne) { // CONFIG_PREEMPT
			break
		}
		if env.imbalance <= 0 {
			break
		}
	}
	stats.Gained += int64(pulled)
	return pulled
}

// loadBalance38 mirrors 3.8 load_balance().
func loadBalance38(s *Sim, env *lbEnv) int {
	sd, dst, idle := env.sd, env.dstRQ, env.idle
	stats := &sd.Stats.LB[idle]
	stats.Count++
	env.cpus = s.topo.All
	maxIters := sd.Groups[0].Weight
	var busiest *RQ
	moved := 0
	for {
		balance := true
		g := s.findBusiestGroup38(env, &balance)
		if !balance {
			env.stop = true
			return s.lbBalanced38(env)
		}
		if g == nil {
			stats.NoBusyG++
			return s.lbBalanced38(env)
		}
		busiest = s.findBusiestQueue38(env, g)
		if busiest == nil {
			stats.NoBusyQ++
			env.d.Reason = "no busiest runqueue"
			return s.lbBalanced38(env)
		}
		stats.Imbalance += env.imbalance
		env.srcCPU, env.srcRQ = busiest.cpu, busiest
		env.d.Target = int16(busiest.cpu)
		if busiest.nrRunning > 1 {
			env.flags |= lbfAllPinned
			env.loopMax = min(schedNrMigrate, busiest.nrRunning)
			for iters := 1; ; iters++ {
				if n := s.moveTasks38(env); n > 0 {
					s.attachTasks(env)
					moved += n
				}
				if env.flags&lbfSomePinned != 0 && env.imbalance > 0 && iters < maxIters {
					env.dstRQ = s.cpus[env.newDstCPU]
					env.dstCPU = env.newDstCPU
					env.flags &^= lbfSomePinned
					env.loop = 0
					continue
				}
				break
			}
			if env.flags&lbfAllPinned != 0 {
				env.cpus.Clear(busiest.cpu)
				if !env.cpus.Empty() {
					env.loop = 0
					continue
				}
				env.d.Reason = "all tasks pinned"
				return s.lbBalanced38(env)
			}
		}
		break
	}
	activeBalance := false
	if moved == 0 {
		stats.Failed++
		if idle != cpuNewlyIdle {
			sd.NrBalanceFailed++
		}
		env.d.Reason = "nothing could move"
		if needActiveBalance38(env) {
			if busiest.curr == nil || !busiest.curr.allowed.Has(dst.cpu) {
				env.flags |= lbfAllPinned
				s.lbTuneInterval(env, true)
				return 0
			}
			if !busiest.activeBalance {
				busiest.activeBalance = true
				activeBalance = true
				env.d.Reason = "active balance: push the running task"
				s.m.cost.ipi += s.costs.WakeupIPI
				s.q.push(qev{t: s.now + s.costs.WakeupIPI, kind: evActiveBalance, cpu: int32(busiest.cpu), task: int32(dst.cpu)})
			}
			sd.NrBalanceFailed = sd.CacheNiceTries + 1
		}
	} else {
		sd.NrBalanceFailed = 0
		env.d.Reason = "moved tasks"
	}
	if !activeBalance {
		sd.BalanceInterval = sd.MinInterval
	} else if sd.BalanceInterval < sd.MaxInterval {
		sd.BalanceInterval *= 2
	}
	env.d.add("moved", int64(moved))
	s.chargeBalanceCost(dst, env.d.Cost)
	s.emit(&Event{Kind: EvBalance, Cause: env.cause, CPU: int16(dst.cpu), From: int16(env.srcCPU), Task: -1, Arg: int32(moved), Level: int8(sd.Level), Why: env.d.Seq})
	return moved
}

// lbBalanced38 is the out_balanced tail of 3.8 load_balance().
func (s *Sim) lbBalanced38(env *lbEnv) int {
	env.sd.Stats.LB[env.idle].Balanced++
	env.sd.NrBalanceFailed = 0
	if (env.flags&lbfAllPinned != 0 && env.sd.BalanceInterval < 512) || env.sd.BalanceInterval < env.sd.MaxInterval {
		env.sd.BalanceInterval *= 2
	}
	s.chargeBalanceCost(env.dstRQ, env.d.Cost)
	return 0
}
