package sim

// The fair class: the runqueue bookkeeping every era shares, and the entry
// points the core calls (enqueue, dequeue, put_prev, set_next, pick,
// update_curr, preemption checks), which hand the era-specific part to the
// era's rqClass: EEVDF (v6.17) in eevdf.go, CFS (v3.8) in cfs38.go. Load
// tracking runs at the hook points of the era's loadTracker
// (pelt_update.go). The rb-tree is an unordered slice (runqueues are
// short); picks scan.

// Enqueue/dequeue flags (a subset of the kernel's).
const (
	enqWakeup    = 1 << iota // ENQUEUE_WAKEUP
	enqMigrated              // ENQUEUE_MIGRATED: arrived from another CPU
	enqInitial               // ENQUEUE_INITIAL: a new task
	deqSleep                 // DEQUEUE_SLEEP
	deqMigrating             // the task is being moved by the load balancer
	deqSpecial               // DEQUEUE_SPECIAL: never delayed (the task exits: TASK_DEAD)
	deqDelayed               // DEQUEUE_DELAYED: a sched_delayed task's dequeue completes
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
	case LoadNrRunning:
		return uint64(rq.nrRunning) * schedLoadScale26
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
	case LoadNrRunning:
		return schedLoadScale26
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

// countQueued keeps the metrics' counts of queued tasks, and of tasks that
// wait behind a running one, in step with a task joining (n = 1) or leaving
// (n = -1) rq's queue. The class does the queueing itself
// (__enqueue_entity()/__dequeue_entity()).
func (s *Sim) countQueued(rq *RQ, n int) {
	s.m.nQueued += n
	if rq.curr != nil {
		s.m.nWaiting += n
	}
}

// countQueuedTask is countQueued for p: a sched_delayed task (DELAY_DEQUEUE)
// is queued but blocked, so it never counts as waiting to run.
func (s *Sim) countQueuedTask(rq *RQ, p *Task, n int) {
	s.m.nQueued += n
	if rq.curr != nil && !p.delayed {
		s.m.nWaiting += n
	}
}

// updateCurr mirrors update_curr() of the era's class: charge curr the time
// since execStart. It reports whether the class asks for a reschedule
// (EEVDF's update_deadline()). The class's own functions call their
// update_curr() directly.
func (s *Sim) updateCurr(rq *RQ) bool { return s.era.class.updateCurr(s, rq) }

// chargeWork brings curr's step work up to date at a point where the kernel
// runs no update_curr(): the end of a step's CPU work (the task just goes on
// in user space) and the softirq time the balancer steals. v6.17 only
// charges the work there (chargeWorkEEVDF); the other classes run their
// updateCurr (chargeByUpdate).
func (s *Sim) chargeWork(rq *RQ) { s.era.class.chargeWork(s, rq) }

// chargeByUpdate is chargeWork for a class whose queue reads nothing that
// depends on when curr was last brought up to date: 3.8's CFS (every reader
// of curr's vruntime or min_vruntime calls update_curr() first) and 2.6.8's
// classes.
func chargeByUpdate(s *Sim, rq *RQ) { s.updateCurr(rq) }

// accountCurr is the part of update_curr() every class shares: the time curr
// ran since execStart, charged to its step and CPU time. It returns curr and
// that time, or nil when there is nothing to charge.
func (s *Sim) accountCurr(rq *RQ) (*Task, int64) {
	p := rq.curr
	if p == nil {
		return nil, 0
	}
	if s.smtOn {
		s.progress(rq, p) // the step's CPU work, at the core's SMT rate (smt.go)
	}
	delta := s.now - rq.execStart
	if delta <= 0 {
		return nil, 0
	}
	rq.execStart = s.now
	// update_curr(): curr->exec_start = now, at every tick, put and pick;
	// task_hot() reads it, so "hot" means ran recently (3.8 fair.c:704).
	p.execStart = s.now
	p.sumExec += delta
	p.cpuTime += delta
	if !s.smtOn {
		p.remaining -= delta // at full speed: the step's work is the time run
		if p.remaining < 0 {
			panic("sim: a task ran past its step")
		}
	}
	return p, delta
}

// enqueueEntity mirrors enqueue_task_fair(): the era's enqueue_entity()
// (p not curr), then the bookkeeping every era shares.
func (s *Sim) enqueueEntity(rq *RQ, p *Task, flags int) {
	s.countQueuedTask(rq, p, 1)
	s.era.class.enqueue(s, rq, p, flags)
	p.onRq = true
	p.queuedAt = s.now
	s.enqSeq++
	p.enqSeq = s.enqSeq // list_add(&se->group_node, &rq->cfs_tasks)
	p.listPos = s.enqSeq
	if rq.nrRunning >= 2 {
		s.rdOverloaded = true // add_nr_running() -> set_rd_overloaded()
	}
}

// dequeueEntity mirrors dequeue_task_fair(): the era's dequeue_entity().
func (s *Sim) dequeueEntity(rq *RQ, p *Task, flags int) {
	s.era.class.dequeue(s, rq, p, flags)
}

// accountDequeue is the part of dequeue_entity() every era shares, after
// the class took p out of its queue: rq's counts.
func (s *Sim) accountDequeue(rq *RQ, p *Task) {
	p.onRq = false
	rq.loadWeight -= p.weight
	rq.nrRunning--
}

// putPrev mirrors put_prev_entity(): curr goes back into the tree if runnable.
func (s *Sim) putPrev(rq *RQ) {
	p := rq.curr
	if p.onRq {
		if !p.delayed { // a sched_delayed curr goes back on the tree blocked
			p.state = TaskRunnable
		}
		s.countQueuedTask(rq, p, 1)
		s.era.class.putPrev(s, rq, p)
		s.era.track.putPrev(s, rq, p)
		p.queuedAt = s.now
	}
	s.setCurr(rq, nil)
}

// setNext mirrors set_next_entity().
func (s *Sim) setNext(rq *RQ, p *Task) {
	s.countQueued(rq, -1)
	s.era.class.setNext(s, rq, p)
	s.era.track.setNext(s, rq, p)
	s.setCurr(rq, p)
	rq.execStart = s.now
	rq.vPending = 0 // put_prev_entity()/dequeue_entity() brought prev up to date
	rq.progAt = s.now
	p.execStart = s.now
	p.prevSumExec = p.sumExec
}

// setCurr changes rq->curr, keeping the count of tasks that wait behind a
// running one (for idle_while_overloaded) in step.
func (s *Sim) setCurr(rq *RQ, p *Task) {
	if s.smtOn && (rq.curr == nil) != (p == nil) {
		s.smtMarkChange(rq) // smt.go: the core's threads change speed
	}
	if rq.curr != nil {
		s.m.nWaiting -= rq.queuedWaiting()
	}
	rq.curr = p
	if p != nil {
		s.m.nWaiting += rq.queuedWaiting()
	}
}

// queuedWaiting is how many queued tasks want to run: the queue less its
// sched_delayed tasks (blocked, DELAY_DEQUEUE).
func (rq *RQ) queuedWaiting() int {
	n := len(rq.queue)
	if rq.nrDelayed == 0 {
		return n
	}
	for _, t := range rq.queue {
		if t.delayed {
			n--
		}
	}
	return n
}

// pickNext mirrors pick_next_entity(): the class picks; curr, if on_rq,
// competes.
//
// v6.17 pick_next_entity(): a sched_delayed entity that pick_eevdf() chooses
// is dequeued (dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED)) and
// pick_task_fair() picks again.
func (s *Sim) pickNext(rq *RQ) *Task {
	curr := rq.curr
	if curr != nil && !curr.onRq {
		curr = nil
	}
	for {
		next := s.era.class.pick(s, rq, curr)
		if next == nil || !next.delayed {
			return next
		}
		s.dequeueEntity(rq, next, deqSleep|deqDelayed)
		if next == curr {
			curr = nil
		}
	}
}

// checkPreemptWakeup mirrors wakeup_preempt() (check_preempt_curr() in
// 3.8): does the woken p preempt curr?
func (s *Sim) checkPreemptWakeup(rq *RQ, p *Task) bool {
	curr := rq.curr
	if curr == nil {
		return true
	}
	if !s.feature(FeatWakeupPreemption) {
		return false
	}
	return s.era.class.wakeupPreempt(s, rq, curr, p)
}

// checkPreemptTick is the tick's preemption check of the class.
func (s *Sim) checkPreemptTick(rq *RQ) bool { return s.era.class.tickPreempt(s, rq) }
