package sim

// The v6.17 runqueue class: EEVDF (kernel/sched/fair.c, v6.17). vruntime is
// absolute across CPUs; the queue keeps the avg_vruntime sums; a task is
// placed with its lag and picked by the earliest eligible virtual deadline.

// queueAddEEVDF and queueRemoveEEVDF are __enqueue_entity() and
// __dequeue_entity() with their avg_vruntime bookkeeping.
func (rq *RQ) queueAddEEVDF(p *Task) {
	rq.treeAdd(p)
	rq.avgAdd(p)
}

func (rq *RQ) queueRemoveEEVDF(p *Task) {
	rq.treeRemove(p)
	rq.avgSub(p)
}

// EEVDF avg_vruntime bookkeeping (avg_vruntime_add()/avg_vruntime_sub()).
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

// entityEligible is entity_eligible() for a queued task.
func (rq *RQ) entityEligible(p *Task) bool { return rq.vruntimeEligible(p.vruntime) }

// updateMinVruntimeEEVDF mirrors update_min_vruntime() with
// avg_vruntime_update(): the sums are kept relative to min_vruntime.
func (rq *RQ) updateMinVruntimeEEVDF() {
	if d := rq.advanceMinVruntime(); d > 0 {
		rq.avgVruntime -= rq.avgLoad * d // avg_vruntime_update()
	}
}

// updateCurrEEVDF mirrors v6.17 update_curr(): the shared accounting,
// vruntime, then update_deadline(): a task past its deadline gets a new
// slice and asks for a reschedule if another task is runnable. The time
// curr ran since the last update_curr() (rq.vPending, what chargeWork
// charged to its steps meanwhile, and what it ran since) goes into its
// vruntime in one calc_delta_fair(), as the kernel's delta_exec does.
func updateCurrEEVDF(s *Sim, rq *RQ) bool {
	_, delta := s.accountCurr(rq)
	p := rq.curr
	delta += rq.vPending
	rq.vPending = 0
	if p == nil || delta <= 0 {
		return false
	}
	p.vruntime += calcDeltaFair(delta, p.weight, p.invW)
	resched := false
	if p.vruntime >= p.deadline {
		p.slice = s.baseSlice
		p.deadline = p.vruntime + calcDeltaFair(p.slice, p.weight, p.invW)
		resched = rq.nrRunning > 1
	}
	rq.updateMinVruntimeEEVDF()
	return resched
}

// chargeWorkEEVDF charges curr's step work where the kernel runs no
// update_curr() (chargeWork): the time counts for the step, and waits in
// rq.vPending for the next update_curr(), so curr's vruntime stays where
// the kernel's is (se->vruntime moves only in update_curr(), v6.17 fair.c).
func chargeWorkEEVDF(s *Sim, rq *RQ) {
	if _, d := s.accountCurr(rq); d > 0 {
		rq.vPending += d
	}
}

// placeEEVDF mirrors place_entity(): lag-preserving placement (PLACE_LAG),
// a fresh slice, PLACE_DEADLINE_INITIAL for a new task, and
// PLACE_REL_DEADLINE for a migrating one.
func (s *Sim) placeEEVDF(rq *RQ, p *Task, flags int) {
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

// enqueueEEVDF mirrors v6.17 enqueue_entity(): update_curr(), the PELT
// update before the weight is added, place_entity(), account_entity_
// enqueue(); a task arriving from another CPU is no longer cache-hot.
func enqueueEEVDF(s *Sim, rq *RQ, p *Task, flags int) {
	updateCurrEEVDF(s, rq)
	s.era.track.enqueue(s, rq, p, flags)
	s.placeEEVDF(rq, p, flags)
	rq.loadWeight += p.weight
	rq.nrRunning++
	if p.delayed { // migrated while sched_delayed (attachTasks)
		rq.nrDelayed++
	}
	if flags&enqMigrated != 0 {
		p.execStart = coldExecStart // "no longer consider this task hot"
	}
	rq.queueAddEEVDF(p)
}

// dequeueEEVDF mirrors v6.17 dequeue_entity(): update_curr(), PELT,
// update_entity_lag(), PLACE_REL_DEADLINE for a task that does not sleep,
// account_entity_dequeue(), update_min_vruntime().
//
// DELAY_DEQUEUE (dequeue_entity(), v6.17 fair.c): a task that goes to sleep
// (DEQUEUE_SLEEP, not DEQUEUE_SPECIAL) while not entity_eligible() is not
// dequeued: update_load_avg(); set_delayed(); return false. It stays on the
// tree, with its load.weight and nr_queued, as sched_delayed; set_delayed()
// takes it out of h_nr_runnable. dequeue_task_fair() has already done
// util_est_dequeue() and util_est_update() for the sleep. Its dequeue
// completes later with DEQUEUE_DELAYED (when picked: pickNext) and then
// finish_delayed_dequeue_entity() clears sched_delayed and, with DELAY_ZERO,
// drops a positive lag.
func dequeueEEVDF(s *Sim, rq *RQ, p *Task, flags int) {
	sleep := flags&deqSleep != 0
	updateCurrEEVDF(s, rq)
	if sleep && flags&(deqSpecial|deqDelayed) == 0 && s.feature(FeatDelayDequeue) && !rq.entityEligible(p) {
		peltDelay(s, rq, p)
		p.delayed = true
		rq.nrDelayed++
		return
	}
	s.era.track.dequeue(s, rq, p, flags)
	s.updateEntityLag(rq, p)
	if !sleep { // PLACE_REL_DEADLINE
		p.deadline -= p.vruntime
		p.relDeadline = true
	}
	if rq.curr != p {
		s.countQueuedTask(rq, p, -1)
		rq.queueRemoveEEVDF(p)
	}
	s.accountDequeue(rq, p)
	rq.updateMinVruntimeEEVDF()
	if p.delayed {
		rq.nrDelayed--
		if flags&deqMigrating != 0 {
			return // still sched_delayed: it arrives on dst so (detachTask)
		}
		p.delayed = false // finish_delayed_dequeue_entity()
		if p.vlag > 0 {   // DELAY_ZERO
			p.vlag = 0
		}
	}
}

// requeueDelayed mirrors ttwu_runnable() for a sched_delayed task:
// enqueue_task(ENQUEUE_DELAYED): util_est_enqueue(), then
// requeue_delayed_entity(): with DELAY_ZERO update_entity_lag(), and a
// positive lag is dropped and the task re-placed (place_entity()); then
// update_load_avg() and clear_delayed(). The task is runnable again where
// it is: no select_task_rq(), no migration. Then wakeup_preempt() unless
// it is the running task. Nothing on this path calls update_curr() before
// update_entity_lag() (enqueue_task_fair() returns right after
// requeue_delayed_entity()), so the lag is measured against avg_vruntime()
// with curr's vruntime as of its last update_curr(): a sleeper whose
// vruntime the running task has passed since then keeps its negative lag
// and its place, and wakeup_preempt()'s update_curr() then finds curr
// ineligible. On a real 6.18 kernel (docs/real-kernel.md) the shorter of
// two alternating bursts preempts the longer at nearly every wake-up so.
func (s *Sim) requeueDelayed(rq *RQ, p *Task) {
	peltRequeue(s, rq, p)
	s.updateEntityLag(rq, p)
	if p.vlag > 0 {
		if rq.curr != p {
			rq.queueRemoveEEVDF(p)
		}
		p.vlag = 0
		s.placeEEVDF(rq, p, 0)
		if rq.curr != p {
			rq.queueAddEEVDF(p)
		}
	}
	p.delayed = false
	rq.nrDelayed--
	if rq.curr != nil && rq.curr != p {
		s.m.nWaiting++ // queued, and now it waits to run
	}
	p.state = TaskRunnable
	p.queuedAt = s.now
	if rq.curr == p {
		p.state = TaskRunning
		return
	}
	if rq.curr == nil || s.checkPreemptWakeup(rq, p) {
		s.markResched(rq)
	}
}

// putPrevEEVDF is EEVDF's part of put_prev_entity(): update_curr(), and the
// runnable curr goes back into the tree with its avg_vruntime weight.
func putPrevEEVDF(s *Sim, rq *RQ, p *Task) {
	updateCurrEEVDF(s, rq)
	rq.queueAddEEVDF(p)
}

// setNextEEVDF is EEVDF's part of set_next_entity(): the chosen task leaves
// the tree; pick_next_task_fair() moves it to the head of cfs_tasks
// (list_move()), and RUN_TO_PARITY protects its slice until its deadline.
func setNextEEVDF(s *Sim, rq *RQ, p *Task) {
	rq.queueRemoveEEVDF(p)
	s.enqSeq++
	p.listPos = s.enqSeq
	p.vprot = p.deadline
}

// pickEEVDF mirrors pick_eevdf(): the eligible entity with the earliest
// virtual deadline; RUN_TO_PARITY keeps an eligible curr within its slice.
func pickEEVDF(s *Sim, rq *RQ, curr *Task) *Task {
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

// wakeupPreemptEEVDF mirrors check_preempt_wakeup_fair(): update_curr();
// a wakee with a shorter slice may cut the protected slice short; all our
// tasks share one slice, so it is pick_eevdf() == p.
//
// With WAKEUP_DEQUEUE_DELAYED (ac8e69e69363 and 9f6d929ee2c6, 7.1 and the
// 6.18.33+ stables) the check picks with pick_next_entity() (pickNext): a
// sched_delayed entity the pick finds is dequeued (DEQUEUE_SLEEP |
// DEQUEUE_DELAYED) and it picks again while the runqueue has entities left. So a waker that has run past the average
// loses the CPU to its wakee even where a delayed sleeper had the earliest
// deadline: on a 6.18.44 kernel a 50-80-80 us wake-up chain pinned to one
// CPU preempts once a period, where v6.17's check never does
// (TestWakeupDequeueDelayedChain; docs/real-kernel.md).
func wakeupPreemptEEVDF(s *Sim, rq *RQ, curr, p *Task) bool {
	updateCurrEEVDF(s, rq)
	n := pickEEVDF(s, rq, curr)
	if n != nil && n.delayed && s.feature(FeatWakeupDequeueDelayed) {
		n = s.pickNext(rq)
	}
	return n == p
}

// taskForkEEVDF: a new task starts with the base slice (sched_fork()).
func taskForkEEVDF(s *Sim, rq *RQ, p *Task) { p.slice = s.baseSlice }

// tickPreemptEEVDF: at the tick, EEVDF reschedules only through
// update_deadline() (in update_curr()).
func tickPreemptEEVDF(s *Sim, rq *RQ) bool { return updateCurrEEVDF(s, rq) }
