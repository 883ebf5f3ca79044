package sim

// The v3.8 runqueue class: CFS (kernel/sched/fair.c, v3.8). The leftmost
// vruntime runs; slices come from sched_latency shared by weight; a task's
// vruntime is made relative to its runqueue's min_vruntime when it leaves
// (task_waking_fair(), a migrating dequeue, task_fork_fair()) and
// renormalised when it is enqueued again.

// advanceMinVruntime is the common part of update_min_vruntime() in both
// eras: the smallest vruntime of curr and the queued entities, never going
// backwards. It returns how far min_vruntime moved.
func (rq *RQ) advanceMinVruntime() int64 {
	v := rq.minVruntime
	curr := rq.curr
	if curr != nil && curr.onRq {
		v = curr.vruntime
	} else {
		curr = nil
	}
	if len(rq.queue) > 0 {
		if m := rq.leftmostVruntime(); curr == nil || m < v {
			v = m
		}
	}
	d := v - rq.minVruntime
	if d > 0 {
		rq.minVruntime = v
	}
	return d
}

// leftmostVruntime is the smallest vruntime of the queued tasks (the
// rb-tree's leftmost entity); the queue is not empty.
func (rq *RQ) leftmostVruntime() int64 {
	m := rq.queue[0].vruntime
	for _, t := range rq.queue[1:] {
		if t.vruntime < m {
			m = t.vruntime
		}
	}
	return m
}

// updateCurrCFS38 mirrors 3.8 update_curr(): the shared accounting, then
// vruntime and min_vruntime. It never asks for a reschedule (the tick's
// check_preempt_tick() does).
func updateCurrCFS38(s *Sim, rq *RQ) bool {
	p, delta := s.accountCurr(rq)
	if p == nil {
		return false
	}
	p.vruntime += calcDeltaFair(delta, p.weight, p.invW)
	rq.advanceMinVruntime()
	return false
}

// placeCFS38 mirrors 3.8 place_entity(): sleeper credit
// (GENTLE_FAIR_SLEEPERS) or START_DEBIT for a new task.
func (s *Sim) placeCFS38(rq *RQ, p *Task, flags int) {
	v := rq.minVruntime
	if flags&enqInitial != 0 {
		v += s.schedVslice38(rq, p) // START_DEBIT
	} else {
		v -= s.latency / 2 // GENTLE_FAIR_SLEEPERS
	}
	if flags&enqInitial != 0 || v > p.vruntime {
		p.vruntime = v
	}
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

// enqueueCFS38 mirrors 3.8 enqueue_entity(). Every 3.8 wake-up went through
// task_waking_fair() (ENQUEUE_WAKING), migrations through a non-sleep
// dequeue and forks through task_fork_fair(): vruntime arrives relative;
// renormalise here, then update_curr(), PELT, account_entity_enqueue(), and
// place_entity() for a wake-up.
func enqueueCFS38(s *Sim, rq *RQ, p *Task, flags int) {
	p.vruntime += rq.minVruntime
	updateCurrCFS38(s, rq)
	s.era.track.enqueue(s, rq, p, flags)
	rq.loadWeight += p.weight
	rq.nrRunning++
	if flags&enqWakeup != 0 {
		s.placeCFS38(rq, p, 0)
	}
	rq.treeAdd(p)
}

// dequeueCFS38 mirrors 3.8 dequeue_entity(): update_curr(), PELT,
// account_entity_dequeue(); a task that does not sleep leaves with its
// vruntime relative to min_vruntime; update_min_vruntime().
func dequeueCFS38(s *Sim, rq *RQ, p *Task, flags int) {
	updateCurrCFS38(s, rq)
	s.era.track.dequeue(s, rq, p, flags)
	if rq.curr != p {
		s.countQueued(rq, -1)
		rq.treeRemove(p)
	}
	s.accountDequeue(rq, p)
	if flags&deqSleep == 0 {
		p.vruntime -= rq.minVruntime
	}
	rq.advanceMinVruntime()
}

// putPrevCFS38 is 3.8's part of put_prev_entity(): update_curr(), and the
// runnable curr goes back into the tree (__enqueue_entity()).
func putPrevCFS38(s *Sim, rq *RQ, p *Task) {
	updateCurrCFS38(s, rq)
	rq.treeAdd(p)
}

// setNextCFS38 is 3.8's part of set_next_entity(): the chosen task leaves
// the tree (__dequeue_entity()).
func setNextCFS38(s *Sim, rq *RQ, p *Task) { rq.treeRemove(p) }

// taskForkCFS38 mirrors task_fork_fair(): place the child relative to its
// new runqueue.
func taskForkCFS38(s *Sim, rq *RQ, p *Task) {
	p.vruntime = 0
	s.placeCFS38(rq, p, enqInitial)
	p.vruntime -= rq.minVruntime
}

// taskWakingCFS38 mirrors task_waking_fair(): the wakee's vruntime becomes
// relative to its old runqueue.
func taskWakingCFS38(s *Sim, rq *RQ, p *Task) { p.vruntime -= rq.minVruntime }

// pickCFS38 mirrors 3.8 pick_next_entity(): the leftmost vruntime (buddies
// not modelled); curr keeps the CPU on a tie.
func pickCFS38(s *Sim, rq *RQ, curr *Task) *Task {
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

// wakeupPreemptCFS38 mirrors 3.8 check_preempt_wakeup() with
// wakeup_preempt_entity(): update_curr(), then preempt if curr is ahead of
// p by more than the weight-scaled wakeup granularity.
func wakeupPreemptCFS38(s *Sim, rq *RQ, curr, p *Task) bool {
	updateCurrCFS38(s, rq)
	vdiff := curr.vruntime - p.vruntime
	if vdiff <= 0 {
		return false
	}
	return vdiff > calcDeltaFair(s.wakeupGran, p.weight, p.invW)
}

// tickPreemptCFS38 mirrors 3.8 check_preempt_tick(): curr used up its ideal
// slice, or ran at least min_granularity and is a slice ahead of the
// leftmost task.
func tickPreemptCFS38(s *Sim, rq *RQ) bool {
	curr := rq.curr
	resched := updateCurrCFS38(s, rq)
	if rq.nrRunning <= 1 {
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
