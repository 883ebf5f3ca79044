package sim

// Synchronisation objects: the mutexes, condition variables and barriers of
// rt-app workloads (its "lock", "unlock", "wait", "signal", "broad", "sync"
// and "barrier" events), as the kernel sees them: futexes.
//
//   - A mutex is a plain futex, as rt-app makes its pthread mutexes
//     unless its global "pi_enabled" is set (priority inheritance is not
//     modelled). An uncontended lock or unlock stays in user space (no
//     scheduler event). A contended lock (glibc __lll_lock_wait()) blocks
//     in futex_wait(), queued behind the waiters of its priority
//     (futex_q plist: a lower nice first, FIFO among equals); unlock
//     (lll_unlock) frees the lock and futex_wake()s one waiter:
//     futex_wake_mark() -> wake_up_q() -> try_to_wake_up() without
//     WF_SYNC, from the unlocking task's CPU. The woken waiter retries
//     when it runs and waits again if the lock was taken meanwhile, as by
//     an unlocker that locks again at once (no hand-off: lock stealing).
//   - A condition variable (glibc >= 2.25): cond_wait releases the mutex
//     (as an unlock above), blocks in futex_wait(), and once woken retakes
//     the mutex (as a lock above). signal wakes the first
//     waiter, broadcast every waiter, each by futex_wake() -> wake_up_q() ->
//     try_to_wake_up() without WF_SYNC; a signal with no waiter is lost, as
//     pthread_cond_signal()'s is.
//   - A barrier is rt-app's: a counter under a mutex; each arriving task
//     but the last waits on a condition, the last broadcasts (the same
//     wake-ups), and nobody retakes anything that costs a scheduler event
//     (the waiters retake the internal mutex one by one in user space).
//
// Waiters of an object are woken only by it: a wake step aimed at a task
// blocked on one is counted for its next wait step instead.

type syncState struct {
	kind    SyncKind
	owner   int32   // a mutex: the holder's task id, -1 free
	waiters []int32 // blocked tasks, in wake-up order
	arrived int     // a barrier: tasks waiting now
	parties int
}

func (s *Sim) initSyncs() {
	s.syncs = make([]syncState, len(s.cfg.Syncs))
	for i, o := range s.cfg.Syncs {
		s.syncs[i] = syncState{kind: o.Kind, owner: -1, parties: o.Parties}
	}
}

// checkSyncStep validates a step naming a sync object.
func (s *Sim) checkSyncStep(g *TaskGroup, st *Step) error {
	want := map[Op]SyncKind{OpLock: SyncMutex, OpUnlock: SyncMutex, OpCondWait: SyncCond,
		OpSignal: SyncCond, OpBroadcast: SyncCond, OpBarrier: SyncBarrier}[st.Op]
	if st.Obj < 0 || st.Obj >= len(s.cfg.Syncs) || s.cfg.Syncs[st.Obj].Kind != want {
		return errorf("task %q: step names sync object %d, which is not a %s", g.Name, st.Obj, syncKindNames[want])
	}
	if st.Op == OpCondWait && (st.Mutex < 0 || st.Mutex >= len(s.cfg.Syncs) || s.cfg.Syncs[st.Mutex].Kind != SyncMutex) {
		return errorf("task %q: a cond_wait needs a mutex", g.Name)
	}
	if st.Op == OpBarrier && s.cfg.Syncs[st.Obj].Parties < 1 {
		return errorf("task %q: barrier %q has no parties", g.Name, s.cfg.Syncs[st.Obj].Name)
	}
	return nil
}

var syncKindNames = [...]string{SyncMutex: "mutex", SyncCond: "condition variable", SyncBarrier: "barrier"}

// syncStep runs a lock, unlock, cond_wait, signal, broadcast or barrier
// step of p on rq. It returns the search cost of the wake-ups it issued
// (charged to p) and whether p blocked.
func (s *Sim) syncStep(rq *RQ, p *Task, st *Step) (cost int64, blocked bool) {
	o := &s.syncs[st.Obj]
	switch st.Op {
	case OpLock:
		if o.owner < 0 {
			o.owner = p.id
			return 0, false
		}
		p.relock = int32(st.Obj) + 1 // retried once woken
		s.syncBlock(rq, p, o)
		return 0, true
	case OpUnlock:
		return s.unlock(rq, p, o), false
	case OpCondWait:
		cost = s.unlock(rq, p, &s.syncs[st.Mutex])
		p.relock = int32(st.Mutex) + 1
		s.syncBlock(rq, p, o)
		return cost, true
	case OpSignal:
		if len(o.waiters) > 0 {
			w := o.waiters[0]
			o.waiters = o.waiters[1:]
			cost = s.syncWake(rq, p, w)
		}
		return cost, false
	case OpBroadcast:
		return s.wakeAll(rq, p, o), false
	case OpBarrier:
		if o.arrived+1 < o.parties {
			o.arrived++
			s.syncBlock(rq, p, o)
			return 0, true
		}
		o.arrived = 0
		return s.wakeAll(rq, p, o), false
	}
	return 0, false
}

// syncBlock queues p on o (by nice, FIFO among equals: the futex hash
// bucket's plist order) and blocks it.
func (s *Sim) syncBlock(rq *RQ, p *Task, o *syncState) {
	at := len(o.waiters)
	for at > 0 && s.tasks[o.waiters[at-1]].info.Nice > p.info.Nice {
		at--
	}
	o.waiters = append(o.waiters, 0)
	copy(o.waiters[at+1:], o.waiters[at:])
	o.waiters[at] = p.id
	p.syncWait = true
	s.block(rq, p, -1)
}

// unlock releases mutex o held by p and wakes its first waiter, which
// retries when it runs. An unlock by a task that does not hold it does
// nothing (an error-checking mutex's EPERM).
func (s *Sim) unlock(rq *RQ, p *Task, o *syncState) int64 {
	if o.owner != p.id {
		return 0
	}
	o.owner = -1
	if len(o.waiters) == 0 {
		return 0
	}
	w := o.waiters[0]
	o.waiters = o.waiters[1:]
	return s.syncWake(rq, p, w)
}

func (s *Sim) wakeAll(rq *RQ, p *Task, o *syncState) int64 {
	var cost int64
	ws := o.waiters
	o.waiters = o.waiters[len(o.waiters):]
	for _, w := range ws {
		cost += s.syncWake(rq, p, w)
	}
	return cost
}

// syncWake wakes task w blocked on a sync object: try_to_wake_up() from
// waker's CPU, without WF_SYNC.
func (s *Sim) syncWake(rq *RQ, waker *Task, w int32) int64 {
	t := s.tasks[w]
	t.syncWait = false
	t.waiting = true // what try_to_wake_up() ends
	return s.tryToWakeUp(t, waker, rq.cpu, false)
}

// relockAfterWait takes the mutex a woken task waits for (a lock that
// was contended, or a cond_wait's mutex): false when it is held again and
// p blocked on it once more.
func (s *Sim) relockAfterWait(rq *RQ, p *Task) bool {
	o := &s.syncs[p.relock-1]
	if o.owner < 0 {
		o.owner = p.id
		p.relock = 0
		return true
	}
	s.syncBlock(rq, p, o)
	return false
}
