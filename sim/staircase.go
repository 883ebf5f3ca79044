package sim

// Con Kolivas' staircase scheduler, as his patch against 2.6.8-rc2-mm1
// ("[PATCH] Staircase cpu scheduler 2.6.8-rc2-mm1", LKML 1 Aug 2004;
// docs/era-2.6.8.md): one 140-list array per CPU and no expired array; a
// task's dynamic priority starts on its top stair (MAX_PRIO-1 - burst(p))
// and drops one priority every RR_INTERVAL of its slice; sleeping earns
// burst, extra intervals on the top stair; a used-up slice costs burst and
// starts again from the top. It shares the O(1) lists (o1.go, arrays[0]).

// stairBurst mirrors burst(p): the best burst of a normal task, 39 -
// TASK_USER_PRIO(p) (19 for nice 0).
func stairBurst(p *Task) int { return o1MaxPrio - 1 - p.o1.staticPrio }

// stairSlice mirrors slice(p): RR_INTERVAL * (1 + burst(p)) jiffies.
func (s *Sim) stairSlice(p *Task) int64 { return s.o1p.rr * int64(1+stairBurst(p)) }

// effectivePrioStair mirrors the staircase effective_prio(): the top stair
// while the used part of the slice is within the first slice (RR_INTERVAL
// times burst+1 in interactive mode), then one stair per RR_INTERVAL.
func (s *Sim) effectivePrioStair(p *Task) int {
	best := stairBurst(p)
	used := s.stairSlice(p) - p.o1.slice
	if p.o1.burst > best {
		p.o1.burst = best
	}
	first := s.o1p.rr
	if s.o1p.interactive && !s.o1p.compute {
		first *= int64(p.o1.burst + 1)
	}
	prio := o1MaxPrio - 1 - best
	if used < first {
		return prio
	}
	prio += 1 + int((used-first)/s.o1p.rr)
	return min(prio, o1MaxPrio-1)
}

// recalcTaskPrioStair mirrors the staircase recalc_task_prio(): a task
// whose last run was under a jiffy (or any task when not interactive, or in
// compute mode) and whose run plus sleep is under one RR_INTERVAL continues
// its old slice; otherwise it earns a burst and its run counters restart.
// The kernel's unsigned "p->slice - total_run < 1" is read as signed
// (<= 0): the wrap-around of a total run beyond the slice is not modelled.
func (s *Sim) recalcTaskPrioStair(p *Task, now int64) {
	sleep := now - p.o1.timestamp
	nsTotal := p.o1.totalrun + p.o1.runtime
	total := s.nsToJiffies(nsTotal)
	short := s.nsToJiffies(p.o1.runtime) == 0 || !s.o1p.interactive || s.o1p.compute
	if p.o1.forked || short && s.nsToJiffies(p.o1.runtime+sleep) < s.o1p.rr {
		p.o1.forked = false
		if p.o1.slice-total < 1 {
			p.o1.totalrun = 0
			if p.o1.burst > 0 {
				p.o1.burst--
			}
		} else {
			p.o1.totalrun = nsTotal
			p.o1.slice -= total
		}
		return
	}
	if p.o1.burst < stairBurst(p) { // inc_burst(); no uninterruptible sleeps here
		p.o1.burst++
	}
	p.o1.runtime = 0
	p.o1.totalrun = 0
}

// enqueueStair is the staircase activate_task() for a wake-up: a full
// slice, recalc_task_prio(), effective_prio(), a fresh RR_INTERVAL.
func (s *Sim) enqueueStair(rq *RQ, p *Task, flags int) {
	switch {
	case flags&enqWakeup != 0:
		p.o1.slice = s.stairSlice(p)
		s.recalcTaskPrioStair(p, s.now)
		p.o1.prio = s.effectivePrioStair(p)
		p.o1.timeSlice = s.o1p.rr
		p.o1.timestamp = s.now
	case flags&enqMigrated != 0:
		s.pullTimestamp(p)
	}
	p.o1.byTimer = false
	rq.loadWeight += p.weight
	rq.nrRunning++
	s.o1QueueAdd(rq, p)
}

// pickStair mirrors the staircase schedule(): prev->runtime is the time
// since its timestamp; the head of the first list runs.
func (s *Sim) pickStair(rq *RQ, curr *Task) *Task {
	if prev := rq.curr; prev != nil {
		prev.o1.runtime = s.now - prev.o1.timestamp
		prev.o1.timestamp = s.now
	}
	if rq.o1.arrays[0].nr == 0 && curr == nil {
		return nil
	}
	return o1First(rq, 0, curr)
}

// setNextStair: a switch resets the compute mode's preemption delay
// (rq->preempted, rq->cache_ticks) and stamps next.
func (s *Sim) setNextStair(rq *RQ, p *Task) {
	s.o1QueueRemove(rq, p)
	rq.o1.preempted = false
	rq.o1.cacheTicks = 0
	p.o1.timestamp = s.now
	p.o1.noPreempt = false // unused: it woke onto an idle CPU
}

// wakeupPreemptStair mirrors task_preempts_curr(): a better priority
// preempts; an equal one only with its whole slice and more of its
// RR_INTERVAL left than curr; in compute mode a normal task's preemption
// waits cache_delay ticks (rq->preempted, honoured at the tick).
func (s *Sim) wakeupPreemptStair(rq *RQ, curr, p *Task) bool {
	if s.noWakeupPreemptO1(rq, p) {
		return false
	}
	if p.o1.prio > curr.o1.prio {
		return false
	}
	if p.o1.prio == curr.o1.prio && (p.o1.slice < s.stairSlice(p) || p.o1.timeSlice <= curr.o1.timeSlice) {
		return false
	}
	if !s.o1p.compute || rq.o1.cacheTicks >= s.o1p.cacheDelay {
		return true
	}
	rq.o1.preempted = true
	return false
}

// tickPreemptStair mirrors the staircase scheduler_tick(): a used-up slice
// costs a burst and starts a new one from the top stair; a used-up
// RR_INTERVAL moves the task one stair down; both requeue it at the tail.
func (s *Sim) tickPreemptStair(rq *RQ) bool {
	s.updateCurrO1(rq)
	p := rq.curr
	rq.o1.cacheTicks++
	p.o1.slice--
	if p.o1.slice <= 0 {
		if p.o1.burst > 0 {
			p.o1.burst--
		}
		p.o1.slice = s.stairSlice(p)
		p.o1.prio = s.effectivePrioStair(p)
		p.o1.timeSlice = s.o1p.rr
		p.o1.backTail = true
		return true
	}
	p.o1.timeSlice--
	if p.o1.timeSlice <= 0 {
		p.o1.prio = s.effectivePrioStair(p)
		p.o1.timeSlice = s.o1p.rr
		p.o1.backTail = true
		return true
	}
	return rq.o1.preempted && rq.o1.cacheTicks >= s.o1p.cacheDelay
}

// taskForkStair mirrors the staircase wake_up_new_task(): the child has no
// burst ("to prevent fork bombs"), keeps the copy of its parent's slice,
// RR interval and priority (dup_task_struct()), and is queued at the tail
// of its priority without preempting ("Run child last"); the parent is
// marked PF_FORKED, so that its next wake-up continues its slice. The
// spawner's children (no parent) start a full slice on their top stair.
func (s *Sim) taskForkStair(rq *RQ, p *Task) {
	p.o1.staticPrio = 120 + p.info.Nice
	p.o1.burst = 0
	p.o1.timestamp = s.now
	p.o1.arr, p.o1.pullKind = -1, -1
	p.o1.noPreempt = true
	if par := s.forkParent(rq, p); par != nil {
		par.o1.forked = true
		p.o1.slice, p.o1.timeSlice, p.o1.prio = par.o1.slice, par.o1.timeSlice, par.o1.prio
		return
	}
	p.o1.slice = s.stairSlice(p)
	p.o1.timeSlice = s.o1p.rr
	p.o1.prio = s.effectivePrioStair(p)
}

// staircaseClass is the staircase runqueue class, bound to s.
func staircaseClass(s *Sim) rqClass {
	return rqClass{
		enqueue: (*Sim).enqueueStair, dequeue: (*Sim).dequeueO1,
		queueAdd:    func(rq *RQ, p *Task) { s.o1QueueAdd(rq, p) },
		queueRemove: func(rq *RQ, p *Task) { s.o1QueueRemove(rq, p) },
		pickKey:     s.o1PickKey,
		putPrev:     (*Sim).putPrevO1,
		setNext:     (*Sim).setNextStair,
		updateCurr:  (*Sim).updateCurrO1,
		chargeWork:  chargeByUpdate,
		pick:        (*Sim).pickStair, wakeupPreempt: (*Sim).wakeupPreemptStair,
		tickPreempt: (*Sim).tickPreemptStair,
		taskFork:    (*Sim).taskForkStair, taskWaking: func(*Sim, *RQ, *Task) {},
	}
}
