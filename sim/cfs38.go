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
// clear_buddies(), account_entity_dequeue(); a task that does not sleep leaves with its
// vruntime relative to min_vruntime; update_min_vruntime().
func dequeueCFS38(s *Sim, rq *RQ, p *Task, flags int) {
	updateCurrCFS38(s, rq)
	s.era.track.dequeue(s, rq, p, flags)
	rq.clearBuddies(p)
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

// pickCFS38 mirrors 3.8 pick_next_entity(): the leftmost vruntime (curr,
// if still runnable, competes and keeps the CPU on a tie), then the buddies:
// "Prefer last buddy, try to return the CPU to a preempted task" when
// wakeup_preempt_entity(last, left) < 1, then the next buddy ("Someone
// really wants this to run. If it's not unfair, run it") on the same test;
// clear_buddies() of the one chosen. The skip buddy (yield) is not
// modelled.
func pickCFS38(s *Sim, rq *RQ, curr *Task) *Task {
	var left *Task
	for _, t := range rq.queue {
		if left == nil || t.vruntime < left.vruntime {
			left = t
		}
	}
	if curr != nil && (left == nil || curr.vruntime <= left.vruntime) {
		left = curr
	}
	if left == nil {
		return nil
	}
	se := left
	if b := rq.lastBuddy; b != nil && s.wakeupPreemptEntity38(b, left) < 1 {
		se = b
	}
	if b := rq.nextBuddy; b != nil && s.wakeupPreemptEntity38(b, left) < 1 {
		se = b
	}
	rq.clearBuddies(se)
	return se
}

// wakeupPreemptEntity38 mirrors 3.8 wakeup_preempt_entity(curr, se): -1
// when curr's vruntime is not ahead of se's, 1 when it is ahead by more
// than the wakeup granularity scaled to se's weight (wakeup_gran()), else 0.
func (s *Sim) wakeupPreemptEntity38(curr, se *Task) int {
	vdiff := curr.vruntime - se.vruntime
	if vdiff <= 0 {
		return -1
	}
	if vdiff > calcDeltaFair(s.wakeupGran, se.weight, se.invW) {
		return 1
	}
	return 0
}

// clearBuddies mirrors 3.8 clear_buddies(): p is no longer rq's next or
// last buddy.
func (rq *RQ) clearBuddies(p *Task) {
	if rq.lastBuddy == p {
		rq.lastBuddy = nil
	}
	if rq.nextBuddy == p {
		rq.nextBuddy = nil
	}
}

// wakeupPreemptCFS38 mirrors 3.8 check_preempt_wakeup(): nothing more to
// decide once curr must reschedule (test_tsk_need_resched()); otherwise
// update_curr() and preempt when wakeup_preempt_entity(curr, p) is 1. A
// preempting p becomes the next buddy (NEXT_BUDDY is off, so only here);
// the preempted curr becomes the last buddy under LAST_BUDDY when its
// runqueue holds at least sched_nr_latency (8) tasks ("scale"), so the CPU
// goes back to it once p is done.
func wakeupPreemptCFS38(s *Sim, rq *RQ, curr, p *Task) bool {
	if rq.needResched {
		return false
	}
	scale := rq.nrRunning >= 8 // sched_nr_latency
	updateCurrCFS38(s, rq)
	if s.wakeupPreemptEntity38(curr, p) != 1 {
		return false
	}
	rq.nextBuddy = p
	if curr.onRq && scale && s.feature(FeatLastBuddy) {
		rq.lastBuddy = curr
	}
	return true
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
		// "The current task ran long enough, ensure it doesn't get
		// re-elected due to buddy favours."
		rq.clearBuddies(curr)
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
