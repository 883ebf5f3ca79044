package sim

// The fair class: runqueue bookkeeping shared by both eras, EEVDF (v6.17) and
// CFS (v3.8) specifics, and the PELT updates at the points the kernel makes
// them. The rb-tree is an unordered slice (runqueues are short); picks scan.

// Enqueue/dequeue flags (a subset of the kernel's).
const (
	enqWakeup    = 1 << iota // ENQUEUE_WAKEUP
	enqMigrated              // ENQUEUE_MIGRATED: arrived from another CPU
	enqInitial               // ENQUEUE_INITIAL: a new task
	deqSleep                 // DEQUEUE_SLEEP
	deqMigrating             // the task is being moved by the load balancer
)

// ---- load metrics ----

// cpuLoad is what the balancer and wake_affine read as a CPU's load: 3.8
// weighted_cpuload() or v6.17 cpu_load(), per policy.load_metric.
func (s *Sim) cpuLoad(rq *RQ) uint64 {
	switch s.lm {
	case LoadWeight:
		return rq.loadWeight
	case LoadRunnableAvg:
		return rq.runnableLoadAvg
	case LoadRunnablePlusBlocked:
		return rq.runnableLoadAvg + rq.blockedLoadAvg
	}
	return rq.cfsAvg.LoadAvg
}

// taskLoad is task_h_load() under the same metric.
func (s *Sim) taskLoad(p *Task) uint64 {
	switch s.lm {
	case LoadWeight:
		return p.weight
	case LoadRunnableAvg, LoadRunnablePlusBlocked:
		return p.avg38.LoadAvgContrib
	}
	return p.avg.LoadAvg
}

// cpuUtil is cpu_util_cfs(): max(util_avg, util_est), capped at capacity.
func (s *Sim) cpuUtil(rq *RQ) uint64 {
	u := rq.cfsAvg.UtilAvg
	if rq.cfsAvg.UtilEst > u {
		u = rq.cfsAvg.UtilEst
	}
	if c := uint64(rq.capacity); u > c {
		u = c
	}
	return u
}

// ---- PELT plumbing (v6.17 update_load_avg and friends) ----

// updateCfsRqLoadAvg mirrors update_cfs_rq_load_avg(): apply removed load,
// then decay/accrue the cfs_rq's own sums.
func (s *Sim) updateCfsRqLoadAvg(rq *RQ) {
	sa := &rq.cfsAvg
	if rq.removedNr > 0 {
		d := sa.divider()
		r := rq.removedLoad
		subPositive(&sa.LoadAvg, r)
		subPositive(&sa.LoadSum, r*d)
		sa.LoadSum = max(sa.LoadSum, sa.LoadAvg*peltMinDivider)
		r = rq.removedUtil
		subPositive(&sa.UtilAvg, r)
		us := uint64(sa.UtilSum)
		subPositive(&us, r*d)
		sa.UtilSum = uint32(max(us, sa.UtilAvg*peltMinDivider))
		r = rq.removedRunnable
		subPositive(&sa.RunnableAvg, r)
		subPositive(&sa.RunnableSum, r*d)
		sa.RunnableSum = max(sa.RunnableSum, sa.RunnableAvg*peltMinDivider)
		rq.removedLoad, rq.removedUtil, rq.removedRunnable, rq.removedNr = 0, 0, 0, 0
	}
	sa.update(uint64(s.now), 1, rq.loadWeight, uint64(rq.nrRunning), rq.curr != nil)
}

// updateLoadAvg mirrors update_load_avg(cfs_rq, se, flags).
func (s *Sim) updateLoadAvg(rq *RQ, p *Task, attach, detach bool) {
	if p.avg.LastUpdateTime != 0 {
		if p.avg.update(uint64(s.now), p.weight, b2u(p.onRq), b2u(p.onRq), rq.curr == p) {
			p.utilEstKeep = false
		}
	}
	s.updateCfsRqLoadAvg(rq)
	if p.avg.LastUpdateTime == 0 && attach {
		s.attachEntityLoadAvg(rq, p)
	} else if detach {
		s.detachEntityLoadAvg(rq, p)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// attachEntityLoadAvg mirrors attach_entity_load_avg().
func (s *Sim) attachEntityLoadAvg(rq *RQ, p *Task) {
	ca := &rq.cfsAvg
	d := ca.divider()
	sa := &p.avg
	sa.LastUpdateTime = ca.LastUpdateTime
	if sa.LastUpdateTime == 0 {
		sa.LastUpdateTime = 1 // a cfs_rq never updated yet: still mark as attached
	}
	sa.PeriodContrib = ca.PeriodContrib
	sa.UtilSum = uint32(sa.UtilAvg * d)
	sa.RunnableSum = sa.RunnableAvg * d
	sa.LoadSum = sa.LoadAvg * d
	if p.weight < sa.LoadSum {
		sa.LoadSum /= p.weight
	} else {
		sa.LoadSum = 1
	}
	ca.LoadAvg += sa.LoadAvg
	ca.LoadSum += p.weight * sa.LoadSum
	ca.UtilAvg += sa.UtilAvg
	ca.UtilSum += sa.UtilSum
	ca.RunnableAvg += sa.RunnableAvg
	ca.RunnableSum += sa.RunnableSum
}

// detachEntityLoadAvg mirrors detach_entity_load_avg().
func (s *Sim) detachEntityLoadAvg(rq *RQ, p *Task) {
	ca := &rq.cfsAvg
	sa := &p.avg
	subPositive(&ca.LoadAvg, sa.LoadAvg)
	subPositive(&ca.LoadSum, p.weight*sa.LoadSum)
	ca.LoadSum = max(ca.LoadSum, ca.LoadAvg*peltMinDivider)
	subPositive(&ca.UtilAvg, sa.UtilAvg)
	us := uint64(ca.UtilSum)
	subPositive(&us, uint64(sa.UtilSum))
	ca.UtilSum = uint32(max(us, ca.UtilAvg*peltMinDivider))
	subPositive(&ca.RunnableAvg, sa.RunnableAvg)
	subPositive(&ca.RunnableSum, sa.RunnableSum)
	ca.RunnableSum = max(ca.RunnableSum, ca.RunnableAvg*peltMinDivider)
}

// removeEntityLoadAvg mirrors remove_entity_load_avg(): sync the sleeping
// task to its old cfs_rq's clock and queue its load for removal.
func (s *Sim) removeEntityLoadAvg(rq *RQ, p *Task) {
	p.avg.update(rq.cfsAvg.LastUpdateTime, p.weight, 0, 0, false)
	rq.removedNr++
	rq.removedUtil += p.avg.UtilAvg
	rq.removedLoad += p.avg.LoadAvg
	rq.removedRunnable += p.avg.RunnableAvg
}

// taskUtilEst is _task_util_est(): the EWMA.
func taskUtilEst(p *Task) uint64 { return p.avg.UtilEst }

// utilEstUpdate mirrors util_est_update() at a sleeping dequeue.
func utilEstUpdate(p *Task) {
	if p.utilEstKeep {
		return
	}
	ewma := p.avg.UtilEst
	dequeued := p.avg.UtilAvg
	if ewma <= dequeued {
		ewma = dequeued
	} else if diff := ewma - dequeued; diff >= utilEstMargin && dequeued+utilEstMargin >= p.avg.RunnableAvg {
		ewma = (ewma<<utilEstWeightSh - diff) >> utilEstWeightSh
	}
	p.avg.UtilEst = ewma
	p.utilEstKeep = true
}

// ---- 3.8 PELT plumbing ----

// updateEntityLoadAvg38 mirrors 3.8 update_entity_load_avg(se, update_cfs_rq).
func (s *Sim) updateEntityLoadAvg38(rq *RQ, p *Task, updateRq bool) {
	if !p.avg38.updateRunnableAvg(uint64(s.now), p.onRq) {
		return
	}
	delta := p.avg38.updateContrib(p.weight)
	if !updateRq {
		return
	}
	if p.onRq {
		rq.runnableLoadAvg = addSigned(rq.runnableLoadAvg, delta)
	} else {
		rq.blockedLoadAvg = addSigned(rq.blockedLoadAvg, delta)
	}
}

func addSigned(v uint64, d int64) uint64 {
	if d < 0 {
		if uint64(-d) > v {
			return 0
		}
		return v - uint64(-d)
	}
	return v + uint64(d)
}

// updateBlockedLoad38 mirrors 3.8 update_cfs_rq_blocked_load().
func (s *Sim) updateBlockedLoad38(rq *RQ, force bool) {
	now := s.now >> 20
	decays := now - rq.lastDecay
	if decays == 0 && !force {
		return
	}
	if rq.removedLoad38 != 0 {
		subPositive(&rq.blockedLoadAvg, rq.removedLoad38)
		rq.removedLoad38 = 0
	}
	if decays > 0 {
		rq.blockedLoadAvg = decayLoad38(rq.blockedLoadAvg, uint64(decays))
		rq.decayCounter += decays
		rq.lastDecay = now
	}
}

// synchronizeEntityDecay38 mirrors __synchronize_entity_decay().
func synchronizeEntityDecay38(rq *RQ, p *Task) int64 {
	decays := rq.decayCounter - p.avg38.DecayCount
	if decays == 0 {
		return 0
	}
	p.avg38.LoadAvgContrib = decayLoad38(p.avg38.LoadAvgContrib, uint64(decays))
	p.avg38.DecayCount = 0
	return decays
}

// enqueueEntityLoadAvg38 mirrors enqueue_entity_load_avg().
func (s *Sim) enqueueEntityLoadAvg38(rq *RQ, p *Task, wakeup bool) {
	if p.avg38.DecayCount <= 0 {
		p.avg38.LastRunnableUpdate = uint64(s.now)
		if p.avg38.DecayCount != 0 {
			back := uint64(-p.avg38.DecayCount) << 20
			if back > p.avg38.LastRunnableUpdate {
				back = p.avg38.LastRunnableUpdate
			}
			p.avg38.LastRunnableUpdate -= back
			s.updateEntityLoadAvg38(rq, p, false)
			p.avg38.DecayCount = 0
		}
		wakeup = false
	} else {
		synchronizeEntityDecay38(rq, p)
	}
	if wakeup {
		subPositive(&rq.blockedLoadAvg, p.avg38.LoadAvgContrib)
		s.updateEntityLoadAvg38(rq, p, false)
	}
	rq.runnableLoadAvg += p.avg38.LoadAvgContrib
	s.updateBlockedLoad38(rq, !wakeup)
}

// dequeueEntityLoadAvg38 mirrors dequeue_entity_load_avg().
func (s *Sim) dequeueEntityLoadAvg38(rq *RQ, p *Task, sleep bool) {
	s.updateEntityLoadAvg38(rq, p, true)
	s.updateBlockedLoad38(rq, !sleep)
	subPositive(&rq.runnableLoadAvg, p.avg38.LoadAvgContrib)
	if sleep {
		rq.blockedLoadAvg += p.avg38.LoadAvgContrib
		p.avg38.DecayCount = rq.decayCounter
	}
}

// migrateTaskRQ38 mirrors 3.8 migrate_task_rq_fair() for a sleeping task.
func (s *Sim) migrateTaskRQ38(rq *RQ, p *Task) {
	if p.avg38.DecayCount != 0 {
		p.avg38.DecayCount = -synchronizeEntityDecay38(rq, p)
		rq.removedLoad38 += p.avg38.LoadAvgContrib
	}
}

// ---- runqueue bookkeeping ----

func (rq *RQ) treeAdd(p *Task) { rq.queue = append(rq.queue, p) }
func (rq *RQ) treeRemove(p *Task) {
	for i, t := range rq.queue {
		if t == p {
			last := len(rq.queue) - 1
			copy(rq.queue[i:], rq.queue[i+1:])
			rq.queue[last] = nil
			rq.queue = rq.queue[:last]
			return
		}
	}
	panic("sim: task not in tree")
}

// EEVDF avg_vruntime bookkeeping (__enqueue_entity/__dequeue_entity).
func (rq *RQ) avgAdd(p *Task) {
	w := int64(p.weight)
	rq.avgVruntime += (p.vruntime - rq.minVruntime) * w
	rq.avgLoad += w
}

func (rq *RQ) avgSub(p *Task) {
	w := int64(p.weight)
	rq.avgVruntime -= (p.vruntime - rq.minVruntime) * w
	rq.avgLoad -= w
}

func (s *Sim) enqueueTree(rq *RQ, p *Task) {
	s.m.nQueued++
	if rq.curr != nil {
		s.m.nWaiting++
	}
	rq.treeAdd(p)
	if !s.v38 {
		rq.avgAdd(p)
	}
}

func (s *Sim) dequeueTree(rq *RQ, p *Task) {
	s.m.nQueued--
	if rq.curr != nil {
		s.m.nWaiting--
	}
	rq.treeRemove(p)
	if !s.v38 {
		rq.avgSub(p)
	}
}

// avgVruntimeOf mirrors avg_vruntime(): V, the weighted average vruntime,
// curr included.
func (rq *RQ) avgVruntimeOf() int64 {
	avg, load := rq.avgVruntime, rq.avgLoad
	if c := rq.curr; c != nil && c.onRq {
		w := int64(c.weight)
		avg += (c.vruntime - rq.minVruntime) * w
		load += w
	}
	if load > 0 {
		if avg < 0 {
			avg -= load - 1
		}
		avg /= load
	}
	return rq.minVruntime + avg
}

// vruntimeEligible mirrors vruntime_eligible().
func (rq *RQ) vruntimeEligible(v int64) bool {
	avg, load := rq.avgVruntime, rq.avgLoad
	if c := rq.curr; c != nil && c.onRq {
		w := int64(c.weight)
		avg += (c.vruntime - rq.minVruntime) * w
		load += w
	}
	return avg >= (v-rq.minVruntime)*load
}

// updateMinVruntime mirrors update_min_vruntime() for both eras: the
// smallest vruntime of curr and the queued entities, never going backwards.
func (rq *RQ) updateMinVruntime(eevdf bool) {
	v := rq.minVruntime
	curr := rq.curr
	if curr != nil && curr.onRq {
		v = curr.vruntime
	} else {
		curr = nil
	}
	if len(rq.queue) > 0 {
		m := rq.queue[0].vruntime
		for _, t := range rq.queue[1:] {
			if t.vruntime < m {
				m = t.vruntime
			}
		}
		if curr == nil || m < v {
			v = m
		}
	}
	if d := v - rq.minVruntime; d > 0 {
		if eevdf {
			rq.avgVruntime -= rq.avgLoad * d // avg_vruntime_update()
		}
		rq.minVruntime = v
	}
}

// updateCurr mirrors update_curr(): charge curr the time since execStart.
// It reports whether EEVDF's update_deadline() asks for a reschedule.
func (s *Sim) updateCurr(rq *RQ) bool {
	p := rq.curr
	if p == nil {
		return false
	}
	delta := s.now - rq.execStart
	if delta <= 0 {
		return false
	}
	rq.execStart = s.now
	p.sumExec += delta
	p.cpuTime += delta
	p.remaining -= delta
	if p.remaining < 0 {
		panic("sim: a task ran past its step")
	}
	p.vruntime += calcDeltaFair(delta, p.weight, p.invW)
	resched := false
	if !s.v38 && p.vruntime >= p.deadline {
		// update_deadline(): a new slice.
		p.slice = s.baseSlice
		p.deadline = p.vruntime + calcDeltaFair(p.slice, p.weight, p.invW)
		resched = rq.nrRunning > 1
	}
	rq.updateMinVruntime(!s.v38)
	return resched
}

// placeEntity mirrors place_entity(): EEVDF (lag-preserving) or 3.8 (sleeper
// credit / START_DEBIT).
func (s *Sim) placeEntity(rq *RQ, p *Task, flags int) {
	if s.v38 {
		v := rq.minVruntime
		if flags&enqInitial != 0 {
			v += s.schedVslice38(rq, p) // START_DEBIT
		} else {
			v -= s.latency / 2 // GENTLE_FAIR_SLEEPERS
		}
		if flags&enqInitial != 0 || v > p.vruntime {
			p.vruntime = v
		}
		return
	}
	V := rq.avgVruntimeOf()
	p.slice = s.baseSlice
	vslice := calcDeltaFair(p.slice, p.weight, p.invW)
	var lag int64
	if s.feature(FeatPlaceLag) && rq.nrRunning > 0 && p.vlag != 0 {
		lag = p.vlag
		load := rq.avgLoad
		if c := rq.curr; c != nil && c.onRq {
			load += int64(c.weight)
		}
		if load == 0 {
			load = 1
		}
		lag = lag * (load + int64(p.weight)) / load
	}
	p.vruntime = V - lag
	if p.relDeadline {
		p.deadline += p.vruntime
		p.relDeadline = false
		return
	}
	if flags&enqInitial != 0 {
		vslice /= 2 // PLACE_DEADLINE_INITIAL
	}
	p.deadline = p.vruntime + vslice
}

// updateEntityLag mirrors update_entity_lag().
func (s *Sim) updateEntityLag(rq *RQ, p *Task) {
	vlag := rq.avgVruntimeOf() - p.vruntime
	limit := calcDeltaFair(max(2*p.slice, s.tickNS), p.weight, p.invW)
	p.vlag = min(max(vlag, -limit), limit)
}

// schedSlice38 mirrors 3.8 sched_slice().
func (s *Sim) schedSlice38(rq *RQ, p *Task) int64 {
	nr := rq.nrRunning
	load := rq.loadWeight
	if !p.onRq {
		nr++
		load += p.weight
	}
	period := s.latency
	if nr > 8 { // sched_nr_latency
		period = int64(nr) * s.minGran
	}
	return scaleByWeight(period, p.weight, load)
}

func (s *Sim) schedVslice38(rq *RQ, p *Task) int64 {
	return calcDeltaFair(s.schedSlice38(rq, p), p.weight, p.invW)
}

// Both PELT trackers run in every era: the v6.17 signals (load_avg,
// runnable_avg, util_avg, util_est) and the 3.8 ones (load_avg_contrib,
// runnable_load_avg, blocked_load_avg), so that policy.load_metric can pick
// any of them and the front ends can show them side by side. Each is updated
// where its own kernel updates it.

// peltEnqueue is the PELT part of enqueue_entity(), before the weight is
// added (so the elapsed time accrues with the old runqueue weight).
func (s *Sim) peltEnqueue(rq *RQ, p *Task, flags int) {
	rq.cfsAvg.UtilEst += taskUtilEst(p) // util_est_enqueue()
	s.updateLoadAvg(rq, p, true, false)
	s.enqueueEntityLoadAvg38(rq, p, flags&enqWakeup != 0)
}

// peltDequeue is the PELT part of dequeue_task_fair()/dequeue_entity().
func (s *Sim) peltDequeue(rq *RQ, p *Task, flags int) {
	sleep := flags&deqSleep != 0
	subPositive(&rq.cfsAvg.UtilEst, taskUtilEst(p)) // util_est_dequeue()
	if sleep {
		utilEstUpdate(p)
	}
	s.updateLoadAvg(rq, p, false, flags&deqMigrating != 0)
	s.dequeueEntityLoadAvg38(rq, p, sleep)
}

// enqueueEntity mirrors enqueue_task_fair()/enqueue_entity() (p not curr).
func (s *Sim) enqueueEntity(rq *RQ, p *Task, flags int) {
	if s.v38 {
		// Every 3.8 wake-up went through task_waking_fair() (ENQUEUE_WAKING),
		// migrations through a non-sleep dequeue and forks through
		// task_fork_fair(): vruntime arrives relative; renormalise here.
		p.vruntime += rq.minVruntime
		s.updateCurr(rq)
		s.peltEnqueue(rq, p, flags)
		rq.loadWeight += p.weight
		rq.nrRunning++
		if flags&enqWakeup != 0 {
			s.placeEntity(rq, p, 0)
		}
	} else {
		s.updateCurr(rq)
		s.peltEnqueue(rq, p, flags)
		s.placeEntity(rq, p, flags)
		rq.loadWeight += p.weight
		rq.nrRunning++
		if flags&enqMigrated != 0 {
			p.execStart = coldExecStart // "no longer consider this task hot"
		}
	}
	s.enqueueTree(rq, p)
	p.onRq = true
	p.queuedAt = s.now
	s.enqSeq++
	p.enqSeq = s.enqSeq // list_add(&se->group_node, &rq->cfs_tasks)
	p.listPos = s.enqSeq
	if rq.nrRunning >= 2 {
		s.rdOverloaded = true // add_nr_running() -> set_rd_overloaded()
	}
}

// dequeueEntity mirrors dequeue_task_fair()/dequeue_entity().
func (s *Sim) dequeueEntity(rq *RQ, p *Task, flags int) {
	sleep := flags&deqSleep != 0
	s.updateCurr(rq)
	s.peltDequeue(rq, p, flags)
	if !s.v38 {
		s.updateEntityLag(rq, p)
		if !sleep { // PLACE_REL_DEADLINE
			p.deadline -= p.vruntime
			p.relDeadline = true
		}
	}
	if rq.curr != p {
		s.dequeueTree(rq, p)
	}
	p.onRq = false
	rq.loadWeight -= p.weight
	rq.nrRunning--
	if s.v38 && !sleep {
		p.vruntime -= rq.minVruntime
	}
	rq.updateMinVruntime(!s.v38)
}

// putPrev mirrors put_prev_entity(): curr goes back into the tree if runnable.
func (s *Sim) putPrev(rq *RQ) {
	p := rq.curr
	if p.onRq {
		s.updateCurr(rq)
		p.state = TaskRunnable
		s.enqueueTree(rq, p)
		s.updateLoadAvg(rq, p, false, false)
		s.updateEntityLoadAvg38(rq, p, true)
		p.queuedAt = s.now
	}
	s.setCurr(rq, nil)
}

// setNext mirrors set_next_entity().
func (s *Sim) setNext(rq *RQ, p *Task) {
	s.dequeueTree(rq, p)
	if !s.v38 {
		s.enqSeq++
		p.listPos = s.enqSeq // pick_next_task_fair(): list_move() to the head
	}
	s.updateLoadAvg(rq, p, false, false)
	p.vprot = p.deadline // RUN_TO_PARITY: protect the slice until its deadline
	s.setCurr(rq, p)
	rq.execStart = s.now
	p.execStart = s.now
	p.prevSumExec = p.sumExec
}

// setCurr changes rq->curr, keeping the count of tasks that wait behind a
// running one (for idle_while_overloaded) in step.
func (s *Sim) setCurr(rq *RQ, p *Task) {
	if rq.curr != nil {
		s.m.nWaiting -= len(rq.queue)
	}
	rq.curr = p
	if p != nil {
		s.m.nWaiting += len(rq.queue)
	}
}

// pickNext mirrors pick_next_entity(): EEVDF pick_eevdf() or 3.8 leftmost
// vruntime (buddies not modelled). curr, if on_rq, competes.
func (s *Sim) pickNext(rq *RQ) *Task {
	curr := rq.curr
	if curr != nil && !curr.onRq {
		curr = nil
	}
	if s.v38 {
		var best *Task
		for _, t := range rq.queue {
			if best == nil || t.vruntime < best.vruntime {
				best = t
			}
		}
		if curr != nil && (best == nil || curr.vruntime <= best.vruntime) {
			return curr
		}
		return best
	}
	return s.pickEEVDF(rq, curr)
}

// pickEEVDF mirrors pick_eevdf(): the eligible entity with the earliest
// virtual deadline; RUN_TO_PARITY keeps an eligible curr within its slice.
func (s *Sim) pickEEVDF(rq *RQ, curr *Task) *Task {
	if rq.nrRunning == 1 {
		if curr != nil {
			return curr
		}
		if len(rq.queue) > 0 {
			return rq.queue[0]
		}
		return nil
	}
	if curr != nil && !rq.vruntimeEligible(curr.vruntime) {
		curr = nil
	}
	if curr != nil && s.feature(FeatRunToParity) && curr.vprot > curr.vruntime {
		return curr
	}
	var best, first *Task
	for _, t := range rq.queue {
		if first == nil || t.deadline < first.deadline {
			first = t
		}
		if rq.vruntimeEligible(t.vruntime) && (best == nil || t.deadline < best.deadline) {
			best = t
		}
	}
	if best == nil && curr == nil {
		best = first // cannot happen with a correct V; be robust
	}
	if best == nil || (curr != nil && curr.deadline < best.deadline) {
		best = curr
	}
	return best
}

// entityEligible is entity_eligible() for a queued task.
func (rq *RQ) entityEligible(p *Task) bool { return rq.vruntimeEligible(p.vruntime) }

// checkPreemptWakeup mirrors check_preempt_wakeup_fair() (EEVDF) and 3.8
// check_preempt_wakeup() with wakeup_preempt_entity(): does p preempt curr?
func (s *Sim) checkPreemptWakeup(rq *RQ, p *Task) bool {
	curr := rq.curr
	if curr == nil {
		return true
	}
	if !s.feature(FeatWakeupPreemption) {
		return false
	}
	s.updateCurr(rq)
	if s.v38 {
		vdiff := curr.vruntime - p.vruntime
		if vdiff <= 0 {
			return false
		}
		return vdiff > calcDeltaFair(s.wakeupGran, p.weight, p.invW)
	}
	// v6.17: a wakee with a shorter slice may cut the protected slice short;
	// all our tasks share one slice, so it is pick_eevdf() == p.
	return s.pickEEVDF(rq, curr) == p
}

// checkPreemptTick mirrors the tick's preemption check: EEVDF's
// update_deadline() (in updateCurr) or 3.8 check_preempt_tick().
func (s *Sim) checkPreemptTick(rq *RQ) bool {
	curr := rq.curr
	resched := s.updateCurr(rq)
	if !s.v38 || rq.nrRunning <= 1 {
		return resched
	}
	ideal := s.schedSlice38(rq, curr)
	delta := curr.sumExec - curr.prevSumExec
	if delta > ideal {
		return true
	}
	if delta < s.minGran {
		return false
	}
	var first *Task
	for _, t := range rq.queue {
		if first == nil || t.vruntime < first.vruntime {
			first = t
		}
	}
	if first == nil {
		return false
	}
	d := curr.vruntime - first.vruntime
	return d > ideal
}
