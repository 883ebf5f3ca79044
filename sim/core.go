package sim

// The per-CPU scheduler core: __schedule(), the program interpreter that
// plays each task's steps, blocking, exit, idle entry and exit, the tick,
// fork and the arrival of woken tasks.

// schedule mirrors __schedule() on rq: pick the next entity (curr competes if
// still runnable), newidle-balance when nothing is runnable, switch, and run
// the chosen task's program until it needs CPU time.
//
// A newidle pass runs inside the kernel's pick (pick_next_task_fair() ->
// sched_balance_newidle()), so the switch that follows a pull is still from
// the task that blocked: sched_switch reports it as prev, not the idle task.
func (s *Sim) schedule(rq *RQ) {
	if rq.exiting {
		return // still leaving an idle state: evIdleReady reschedules
	}
	var blocked *Task // the task put back before a newidle pass pulled
	for guard := 0; ; guard++ {
		if guard > 1_000_000 {
			panic("sim: schedule loop does not converge")
		}
		rq.schedCount++
		rq.needResched = false
		prev := rq.curr
		if prev != nil && prev.onRq {
			s.updateCurr(rq)
		}
		next := s.pickNext(rq)
		from := prev
		if from == nil {
			from = blocked
		}
		if next == nil {
			if prev != nil {
				s.putPrev(rq)
				rq.gen++
			}
			if s.newidleBalance(rq) {
				blocked = from
				continue
			}
			s.goIdle(rq, from)
			return
		}
		blocked = nil
		if next != prev {
			if prev != nil {
				s.putPrev(rq)
				rq.gen++
			}
			s.switchTo(rq, prev, next, from)
		}
		if s.runTask(rq, next) && !rq.needResched {
			return
		}
	}
}

// switchTo makes next the running task (context_switch()) and charges the
// cost model: the switch itself, a cache-cold refill if next last ran
// elsewhere, and the communication cost of its waker's message. prev is
// the runqueue's curr (nil when it was idle); from is the task the trace
// names as the switch's prev (the one that blocked, after a newidle pull).
func (s *Sim) switchTo(rq *RQ, prev, next, from *Task) {
	c := &s.costs
	if prev == nil {
		s.leaveIdleAccounting(rq)
	}
	rq.nrSwitches++
	s.m.ctxSwitches++
	if prev != nil && prev.state == TaskRunnable {
		s.m.preemptions++ // put back on the queue, not blocked
	}
	next.remaining += c.ContextSwitch
	s.m.cost.ctxSwitch += c.ContextSwitch
	core := s.cpus[s.topo.coreCPUs[rq.cpu][0]]
	if next.lastRanCPU >= 0 {
		var refill int64
		if next.lastRanCPU != rq.cpu {
			refill = c.CacheCold[s.topo.Distance(next.lastRanCPU, rq.cpu)]
		}
		if next.flushSeen != core.coreFlushes && next.flushSeen != noFlushSeen && s.topo.coreCPUs[next.lastRanCPU][0] == core.cpu {
			if f := c.CacheCold[s.flushRefill]; f > refill {
				s.m.cost.flushRefill += f - refill
				refill = f
			}
		}
		next.remaining += refill
		s.m.cost.cacheRefill += refill
	}
	next.flushSeen = core.coreFlushes
	if next.commFrom >= 0 {
		comm := c.Comm[s.topo.Distance(next.commFrom, rq.cpu)]
		next.remaining += comm
		s.m.cost.comm += comm
		next.commFrom = -1
	}
	next.lastRanCPU = rq.cpu
	s.firstTouch(next, rq.cpu) // numa_cost.go
	wait := s.now - next.queuedAt
	next.waitTime += wait
	rq.runDelay += wait
	rq.pcount++
	s.m.runqWait.add(wait)
	if next.migratedAt > 0 {
		s.m.migWait.add(s.now - next.migratedAt)
		next.migratedAt = 0
	}
	if next.lastWakeupStart >= 0 {
		s.m.wakeLat.add(s.now - next.lastWakeupStart)
		next.lastWakeupStart = -1
	}
	s.setNext(rq, next)
	next.state = TaskRunning
	arg := int32(-1)
	if from != nil {
		arg = from.id
	}
	s.emit(&Event{Kind: EvSwitch, CPU: int16(rq.cpu), From: -1, Task: next.id, Arg: arg, Level: -1, Why: -1})
	if !rq.tickOn {
		s.startTick(rq)
	}
}

// runTask plays p's program from where it stands until p needs CPU time
// (evRunDone armed, true) or blocks or exits (false).
func (s *Sim) runTask(rq *RQ, p *Task) bool {
	for {
		if p.remaining > 0 {
			rq.execStart = s.now
			s.armRunDone(rq)
			return true
		}
		if p.inStep {
			if p.relock != 0 && !s.relockAfterWait(rq, p) {
				return false
			}
			p.inStep = false
			p.pc++
			// The end of a repeat body: again from its start, or out of
			// the block (and perhaps out of the enclosing one too).
			for p.sp > 0 && p.pc == int(p.stack[p.sp-1].end) {
				f := &p.stack[p.sp-1]
				if f.left--; f.left > 0 {
					p.pc = int(f.start)
					break
				}
				p.sp--
			}
			if p.pc == len(p.prog) {
				p.pc = 0
				p.ops++
				s.m.ops++
				p.loops++
				if p.loop > 0 && p.loops >= p.loop {
					s.exitTask(rq, p)
					return false
				}
			}
		}
		st := &p.prog[p.pc]
		p.inStep = true
		switch st.Op {
		case OpRun:
			d := s.jitter(st.Dur)
			p.remaining += d + s.remoteMem(p, rq.cpu, d) // numa_cost.go
		case OpWake:
			p.remaining += s.wakeStep(rq, p, st)
		case OpSleep:
			s.block(rq, p, s.now+st.Dur)
			return false
		case OpTimer:
			s.block(rq, p, p.forkTime+((s.now-p.forkTime)/st.Dur+1)*st.Dur)
			return false
		case OpWait:
			if p.pending > 0 {
				p.pending--
				p.replyTo = -1
				if p.wakersHead < len(p.wakers) {
					p.replyTo = p.wakers[p.wakersHead]
					p.wakersHead++
					if p.wakersHead == len(p.wakers) { // empty: reuse the array from the start
						p.wakers, p.wakersHead = p.wakers[:0], 0
					}
				}
				continue
			}
			p.waiting = true
			s.block(rq, p, -1)
			return false
		case OpRepeat:
			p.stack[p.sp] = repeatFrame{start: int32(p.pc + 1), end: int32(p.pc + 1 + st.Len), left: int32(st.Count)}
			p.sp++
			p.inStep = false
			p.pc++
		case OpExec:
			if s.schedExec(rq, p) {
				return false // the stopper moved it: it goes on where it landed
			}
		case OpFork:
			p.remaining += s.forkStep(rq, p, st)
			if rq.o1.forkResched {
				// 2.6.8 O(1): the parent yields on its way out of fork()
				// (set_need_resched(), child runs first); the schedule
				// loop picks again.
				rq.o1.forkResched = false
				if p.remaining == 0 {
					return true
				}
			}
		case OpWaitChildren:
			if p.nrChildren > 0 {
				p.waitChild = true
				s.block(rq, p, -1)
				return false
			}
		case OpExit:
			s.exitTask(rq, p)
			return false
		case OpLock, OpUnlock, OpCondWait, OpSignal, OpBroadcast, OpBarrier:
			cost, blocked := s.syncStep(rq, p, st)
			p.remaining += cost
			if blocked {
				return false
			}
		}
		// A step that is a system call and asked for a reschedule of this
		// CPU (a wakee or a child that preempts the caller: wakeup_preempt(),
		// resched_curr()) hands the CPU over on its way back to user space
		// (exit_to_user_mode_loop() reads TIF_NEED_RESCHED), before the
		// program's next system call: a waker preempted so is still
		// runnable, and a wait that follows finds its reply already there.
		// A call that costs CPU time (p.remaining) is preempted when that
		// time is up (runDone).
		if p.remaining == 0 && rq.needResched && st.Op.syscall() {
			return true
		}
	}
}

// runDone handles evRunDone: curr consumed its step's CPU work.
func (s *Sim) runDone(rq *RQ) {
	s.chargeWork(rq)
	if !s.runTask(rq, rq.curr) || rq.needResched {
		s.markResched(rq)
	}
}

// jitter spreads a run by ±JitterPct percent with the seeded PRNG.
func (s *Sim) jitter(d int64) int64 {
	j := s.costs.JitterPct
	if j <= 0 {
		return d
	}
	span := d * int64(j) / 100
	if span <= 0 {
		return d
	}
	return d - span + s.rng.Int64N(2*span+1)
}

// block dequeues the running task p (DEQUEUE_SLEEP); until >= 0 arms its
// timer. The caller reschedules.
func (s *Sim) block(rq *RQ, p *Task, until int64) {
	s.dequeueEntity(rq, p, deqSleep)
	p.state = TaskBlocked
	p.timerGen++
	p.timerLate = false
	if until >= 0 {
		s.q.push(qev{t: until, kind: evTimer, task: p.id, gen: p.timerGen})
	}
	s.emit(&Event{Kind: EvBlock, CPU: int16(rq.cpu), From: -1, Task: p.id, Arg: -1, Level: -1, Why: -1})
}

// exitTask ends p (do_exit): dequeue; its PELT load leaves the runqueue
// (v6.17 task_dead_fair() -> remove_entity_load_avg(); in 3.8 it decays as
// blocked load).
//
// A forked task tells its parent first, while it still runs
// (exit_notify() -> do_notify_parent() comes before the final schedule in
// do_exit()): the parent's wake-up sees the exiting task on its CPU.
func (s *Sim) exitTask(rq *RQ, p *Task) {
	if p.parent >= 0 {
		s.notifyParent(rq, p)
	}
	// TASK_DEAD is a special task state: try_to_block_task() adds
	// DEQUEUE_SPECIAL, so an exiting task is never delayed.
	s.dequeueEntity(rq, p, deqSleep|deqSpecial)
	p.state = TaskExited
	s.era.track.exit(s, rq, p)
	s.emit(&Event{Kind: EvExit, CPU: int16(rq.cpu), From: -1, Task: p.id, Arg: -1, Level: -1, Why: -1})
	s.reap(rq, p)
}

// goIdle switches rq to its idle task.
func (s *Sim) goIdle(rq *RQ, prev *Task) {
	if rq.idle {
		return
	}
	rq.idle = true
	s.updIdleMask(rq)
	rq.idleSince = s.now
	s.setIdleMult(rq)
	s.m.nIdle++
	if rq.busySince >= 0 {
		rq.busyTime += s.now - rq.busySince
		rq.busySince = -1
	}
	rq.schedGoidle++
	arg := int32(-1)
	if prev != nil {
		arg = prev.id
		rq.nrSwitches++
		s.m.ctxSwitches++
	}
	s.emit(&Event{Kind: EvSwitch, CPU: int16(rq.cpu), From: -1, Task: -1, Arg: arg, Level: -1, Why: -1})
	// nohz: the tick stops at its next expiry; nr_busy_cpus and
	// has_idle_cores (update_idle_core()) learn about the idle CPU now.
	// (A group's nr_busy_cpus is counted from busyMask when read.)
	rq.llc.nrBusyCPUs--
	s.busyMask.Clear(rq.cpu)
	if s.topo.NCPU > 1 && !s.topo.SMT[rq.cpu].Intersects(&s.busyMask) {
		rq.llc.hasIdleCores = true // the whole core is idle
	}
	if !s.feature(FeatNohzIdleBalance) {
		return
	}
	if s.era.idleTickHeuristic && rq.tickOn && s.feature(FeatNohzAfterTick) {
		// do_idle()'s first pass (got_tick false): the tick keeps running
		// and the CPU stays out of nohz until it fires (tick()).
		rq.tickRetained = true
		s.nTickRetained++
		return
	}
	if s.era.nohzNextKick {
		s.nohzBalanceEnterIdle(rq)
	}
}

// wakeIdle starts rq's exit from its idle state because work arrived: the
// exit latency of the C-state it reached, then evIdleReady schedules.
func (s *Sim) wakeIdle(rq *RQ) {
	idleFor := s.now - rq.idleSince
	rq.idle = false
	s.updIdleMask(rq)
	s.m.nIdle--
	if rq.tickRetained {
		rq.tickRetained = false
		s.nTickRetained--
	}
	rq.llc.nrBusyCPUs++
	s.busyMask.Set(rq.cpu)
	rq.exiting = true
	// ttwu_do_activate(): the era updates avg_idle.
	if rq.idleStamp > 0 {
		s.era.ttwuAvgIdle(s, rq, s.now-rq.idleStamp)
		rq.idleStamp = 0
	}
	var exit int64
	rq.exitState, exit = s.leaveIdle(rq, idleFor, rq.ipiLag)
	rq.readyAt = s.now + rq.ipiLag + exit
	s.q.push(qev{t: rq.readyAt, kind: evIdleReady, cpu: int32(rq.cpu)})
}

// leaveIdle is what waking idle rq, idle for idleFor ns, with the wake-up
// landing lag ns from now, costs: the C-state it requested (idleExit), the
// exit its core makes it pay (coreExit), and, if the core was in a state
// that flushes, a flush of the core's caches (coreWakes). It charges the
// exit to the run's C-state exits (Metrics' cost breakdown). wakeIdle, the
// nohz kick and a timer's interrupt wake a CPU through it.
func (s *Sim) leaveIdle(rq *RQ, idleFor, lag int64) (st int, exit int64) {
	st, exit = s.idleExit(rq, idleFor)
	if rq.irqReady >= s.now {
		// A timer interrupt is already bringing it out of its C-state
		// (timer.go): the wake-up waits for what is left of that exit,
		// which counted the core's flush and was charged when it began.
		// (The CPU's idle residency restarted at the interrupt's handler:
		// what is left is the interrupt's exit, not the state's.)
		return st, max(0, rq.irqReady-s.now-lag)
	}
	s.coreWakes(rq, st)
	exit = s.coreExit(rq, exit, lag)
	s.m.cost.idleExit += exit
	return st, exit
}

// coreExit is the exit latency idle rq pays when its wake-up lands lag ns
// from now, given the exit of the state it requested (exit): a hardware
// thread's C-state is its own request, but the core is only as deep as the
// shallowest state its threads request (Intel SDM vol. 3, "Power and
// Thermal Management": a core C-state is resolved from its logical
// processors' requests), so a thread whose sibling runs wakes on an active
// core (no core exit), and one whose sibling is already leaving idle waits
// only for what is left of that exit. The kernel never sees this: its
// idle_get_state() and the menu governor read the thread's request
// (idleStateOf).
func (s *Sim) coreExit(rq *RQ, exit, lag int64) int64 {
	if exit == 0 {
		return exit
	}
	// Siblings running or leaving idle settle it without an idle state's
	// look-up; a running one at once.
	idle := false
	for _, c := range s.topo.coreCPUs[rq.cpu] {
		switch o := s.cpus[c]; {
		case c == rq.cpu:
		case o.exiting:
			exit = min(exit, max(0, o.readyAt-s.now-lag))
		case !o.idle:
			return 0
		default:
			idle = true
		}
	}
	if idle {
		for _, c := range s.topo.coreCPUs[rq.cpu] {
			if o := s.cpus[c]; c != rq.cpu && o.idle && exit > 0 {
				_, e := s.idleExit(o, s.now-o.idleSince)
				exit = min(exit, e)
			}
		}
	}
	return exit
}

// noFlushSeen marks a task whose footprint no flush can empty (an exec'd
// image before its first run: schedExec); no core counts that high.
const noFlushSeen = ^uint32(0)

// coreWakes counts a flush of rq's core (coreFlushes) when rq, leaving
// state st, wakes a core that was in a state that flushes its caches
// (IdleState.Flushes): the core is as deep as the shallowest state its
// threads request (coreExit), and awake already if a sibling runs or is
// leaving idle.
func (s *Sim) coreWakes(rq *RQ, st int) {
	if st < 0 || !s.costs.IdleStates[st].Flushes {
		return
	}
	core := s.topo.coreCPUs[rq.cpu]
	for _, c := range core {
		if o := s.cpus[c]; c != rq.cpu {
			if !o.idle {
				return
			}
			if os := s.idleStateOf(o, s.now-o.idleSince); os < 0 || !s.costs.IdleStates[os].Flushes {
				return
			}
		}
	}
	s.cpus[core[0]].coreFlushes++
}

// setIdleMult records the governor's performance multiplier as rq enters
// idle (menu_select() runs at idle entry; era.idleMult).
func (s *Sim) setIdleMult(rq *RQ) {
	rq.idleMult = s.era.idleMult(rq)
}

// idleExit is the C-state rq, idle for idleFor ns, is in (idleStateOf, -1
// for none) and the exit latency it needs to leave it (0 for none).
func (s *Sim) idleExit(rq *RQ, idleFor int64) (st int, exit int64) {
	if st = s.idleStateOf(rq, idleFor); st >= 0 {
		exit = s.costs.IdleStates[st].ExitLatency
	}
	return st, exit
}

// idleStateOf is the C-state rq, idle for idleFor ns, is in: the deepest
// whose After has passed, skipping a package-wide state (IdleState.Package)
// until every CPU of rq's package has been idle that long, and a state
// deeper than the governor's default whose exit latency times the
// multiplier rq went idle with exceeds idleFor (menu_select()'s
// `s->exit_latency * multiplier > data->predicted_us`, with the idle time
// the model knows for the governor's prediction).
func (s *Sim) idleStateOf(rq *RQ, idleFor int64) int {
	st := -1
	pkgFor := int64(-1)
	for i := range s.costs.IdleStates {
		is := &s.costs.IdleStates[i]
		if idleFor < is.After {
			break
		}
		if i > s.menuDefault && is.ExitLatency*rq.idleMult > idleFor {
			continue
		}
		if is.Package {
			if pkgFor < 0 {
				pkgFor = s.packageIdleFor(rq)
			}
			if pkgFor < is.After {
				continue
			}
		}
		st = i
	}
	return st
}

// packageIdleFor is how long every other CPU of rq's package (socket) has
// been idle: 0 if one runs a task or is leaving idle.
func (s *Sim) packageIdleFor(rq *RQ) int64 {
	// busyMask is the CPUs with !rq.idle: one of the others busy is 0.
	others := s.topo.Socket[rq.cpu]
	others.Clear(rq.cpu)
	if others.Intersects(&s.busyMask) {
		return 0
	}
	since := rq.idleSince
	for c := others.First(); c >= 0; c = others.Next(c) {
		since = max(since, s.cpus[c].idleSince)
	}
	return s.now - since
}

// leaveIdleAccounting starts busy-time accounting when rq leaves idle.
func (s *Sim) leaveIdleAccounting(rq *RQ) {
	if rq.busySince < 0 {
		rq.busySince = s.now
	}
}

// activate mirrors activate_task() + wakeup_preempt(): p joins rq.
func (s *Sim) activate(rq *RQ, p *Task, flags int) {
	if !p.delayed { // a migrated sched_delayed task stays blocked (attachTasks)
		p.state = TaskRunnable
	}
	s.enqueueEntity(rq, p, flags)
	switch {
	case rq.idle:
		s.wakeIdle(rq)
	case rq.exiting:
	case rq.curr == nil:
		s.markResched(rq)
	case s.checkPreemptWakeup(rq, p):
		s.markResched(rq)
	}
}

// arrive handles evArrive: a woken task reaches its CPU after the IPI.
//
// The target enqueues the wake list itself (sched_ttwu_pending() from the
// IPI, or from the idle loop's flush_smp_call_function_queue() when a
// polling CPU's flags woke it), so an idle target does that only once it
// has left its idle state: the interrupt brings it out of the C-state
// first (era.wakeListAfterExit: 3.8 and v6.17; 2.6.8's remote wake-up is
// enqueued when its IPI lands). Until then the wakee is on no runqueue
// (ttwu_pending keeps the CPU from looking idle): no balancer can see or
// pull it, and PELT does not count it runnable. It runs when the exit
// ends, as if enqueued at once.
func (s *Sim) arrive(p *Task, rq *RQ) {
	if s.era.wakeListAfterExit {
		if rq.idle {
			s.wakeIdle(rq)
		}
		if rq.exiting && s.now < rq.readyAt {
			// Enqueued when the exit ends, before evIdleReady runs
			// schedule() (queued again after this arrival: same
			// instant, later sequence).
			s.q.push(qev{t: rq.readyAt, kind: evArrive, cpu: int32(rq.cpu), task: p.id})
			s.q.push(qev{t: rq.readyAt, kind: evIdleReady, cpu: int32(rq.cpu)})
			return
		}
	}
	rq.ttwuPending--
	s.updIdleMask(rq)
	s.activate(rq, p, p.takeWakeFlags())
}

// takeWakeFlags is the enqueue flags of p's wake-up: ENQUEUE_WAKEUP, and
// ENQUEUE_MIGRATED when the wake-up moved it (consumed here).
func (p *Task) takeWakeFlags() int {
	flags := enqWakeup
	if p.wakeMigrated {
		flags |= enqMigrated
		p.wakeMigrated = false
	}
	return flags
}

// activateByIPI enqueues p on another CPU's rq at once, as a waker holding
// that rq's lock does (3.8's ttwu_do_activate(), wake_up_new_task()'s
// activate_task()), and sends the resched IPI once the search (search ns,
// select_task_rq()'s cost) is done: an idle rq starts its exit that much
// later. It says whether an IPI went out: the rq was idle, or p preempts
// its task (resched_curr() of a remote CPU: smp_send_reschedule()).
//
// A CPU idle in a polling state gets no IPI (3.x resched_task(): `if
// (!tsk_is_polling(p)) smp_send_reschedule(cpu)`; v6.17 resched_curr():
// set_nr_and_not_polling()): setting its TIF_NEED_RESCHED wakes it, after
// Costs.WakeupPoll instead of Costs.WakeupIPI.
func (s *Sim) activateByIPI(rq *RQ, p *Task, flags int, search int64) (sent bool) {
	wasIdle, marked := rq.idle, rq.needResched
	lag, ipi := s.wakeSignal(rq, false)
	s.m.cost.ipi += lag
	rq.ipiLag = search + lag
	s.activate(rq, p, flags)
	rq.ipiLag = 0
	if !ipi {
		return false
	}
	return wasIdle || (!marked && rq.needResched)
}

// wakeSignal is the latency of the signal that reaches rq for a wake-up
// (or a nohz kick), and whether it is an IPI: none to an idle rq in a
// polling state (idlePolls), which costs Costs.WakeupPoll instead of
// Costs.WakeupIPI. queued: the wake list's or the kick's IPI, which the
// era may send regardless (era.queuedIPIPolls).
func (s *Sim) wakeSignal(rq *RQ, queued bool) (lag int64, ipi bool) {
	if rq.idle && (!queued || s.era.queuedIPIPolls) && s.idlePolls(rq) {
		return s.costs.WakeupPoll, false
	}
	return s.costs.WakeupIPI, true
}

// idlePolls says whether idle rq is in a polling state now
// (IdleState.Polls): it watches its thread flags, and a wake-up needs no
// IPI. A CPU in no state yet (a table whose first state is entered after
// some idle time) does not poll.
func (s *Sim) idlePolls(rq *RQ) bool {
	switch s.polls {
	case pollsNone:
		return false
	case pollsAll: // every state polls: any state will do
		return s.now-rq.idleSince >= s.costs.IdleStates[0].After
	}
	st := s.idleStateOf(rq, s.now-rq.idleSince)
	return st >= 0 && s.costs.IdleStates[st].Polls
}

// Which idle states poll (Sim.polls): none, all of them (the first not a
// package state, so a CPU idle past its After is in some state), or some.
const (
	pollsNone = iota
	pollsAll
	pollsSome
)

// startTick restarts rq's tick from the next jiffy (tick_nohz_idle_exit()),
// and catches up the per-CPU load history (3.8 cpu_load[]) for the ticks
// missed while idle.
//
// Ticks are aligned on every CPU (skew_tick=0): one queued event per jiffy
// ticks every CPU whose tick runs, in CPU order (tickAll).
func (s *Sim) startTick(rq *RQ) {
	rq.tickOn = true
	j := s.jiffies()
	rq.tickFrom = j + 1
	s.era.track.tickRestart(s, rq, j)
	if !s.tickArmed {
		s.tickArmed = true
		s.q.push(qev{t: (j + 1) * s.tickNS, kind: evTick})
	}
}

// tickAll handles the jiffy event: the tick of every CPU whose tick runs,
// each followed by the reschedules it asked for, as if they were separate
// interrupts taken in CPU order. With a timer spread (Costs.TimerIRQSpread)
// a CPU's tick comes in its timer interrupt for the instant, late by that
// interrupt's draw (tickIRQDelay), so the CPUs' ticks of a jiffy come in an
// order nothing fixes, as the kernel's do.
func (s *Sim) tickAll() {
	s.tickArmed = false
	j := s.jiffies()
	any := false
	for _, rq := range s.cpus {
		if !rq.tickOn || j < rq.tickFrom {
			any = any || rq.tickOn
			continue
		}
		if d := s.tickIRQDelay(rq); d > 0 {
			rq.tickJ = j
			s.q.push(qev{t: s.now + d, kind: evTickCPU, cpu: int32(rq.cpu)})
			any = true
			continue
		}
		s.tick(rq, j)
		s.flush()
		any = any || rq.tickOn
	}
	if any && !s.tickArmed {
		s.tickArmed = true
		s.q.push(qev{t: (j + 1) * s.tickNS, kind: evTick})
	}
}

// tick mirrors scheduler_tick(): update_curr and the class's preemption
// check, load tracking of curr and of the CPU (PELT, 3.8 cpu_load[]), then
// trigger_load_balance(). Idle CPUs stop
// ticking (NOHZ) unless nohz idle balancing is off, in which case they keep
// ticking and balance themselves as CONFIG_NO_HZ=n kernels do.
func (s *Sim) tick(rq *RQ, j int64) {
	idle := rq.curr == nil
	if idle && rq.tickRetained {
		s.retainedTick(rq, j)
		return
	}
	if idle && s.feature(FeatNohzIdleBalance) {
		rq.tickOn = false
		if !s.era.nohzNextKick {
			s.nohzHasBlocked = true // nohz_balance_enter_idle(): WRITE_ONCE(nohz.has_blocked, 1)
		}
		return
	}
	if !idle {
		if s.checkPreemptTick(rq) {
			s.markResched(rq)
		}
	}
	s.era.track.tick(s, rq, j)
	s.triggerLoadBalance(rq, idle, j)
}

// retainedTick is the tick of an idle CPU that kept it (NOHZ_AFTER_TICK):
// the interrupt wakes the CPU, the tick balances it as an idle CPU when its
// balance is due (sched_balance_trigger(); an idle CPU kicks no one), and
// the idle loop's next pass, told the tick woke it (got_tick), stops the
// tick: the CPU enters nohz (tick_nohz_idle_stop_tick() ->
// nohz_balance_enter_idle()), unless the balance gave it work.
func (s *Sim) retainedTick(rq *RQ, j int64) {
	rq.idleSince = s.now // the tick woke it; it re-enters idle after
	s.era.track.tick(s, rq, j)
	s.triggerLoadBalance(rq, true, j)
	if !rq.tickRetained {
		return // it pulled a task and left idle (wakeIdle)
	}
	rq.tickRetained = false
	s.nTickRetained--
	rq.tickOn = false
	s.setIdleMult(rq)
	if s.era.nohzNextKick {
		s.nohzBalanceEnterIdle(rq)
	}
}

// wakeUpNewTask mirrors sched_fork() + wake_up_new_task() for p forked on
// CPU parent (cpu 0 for the scenario's own instances, which a spawner
// forks; the forking task's CPU for a fork step): placed by
// select_task_rq_fair(SD_BALANCE_FORK) with task_cpu(p) = parent.
func (s *Sim) wakeUpNewTask(p *Task, parent int) *Decision {
	p.forkTime = s.now
	p.lastWakeupStart = -1
	p.cpu = parent
	s.era.track.forkInit(s, s.cpus[parent], p)
	target, d := s.selectTaskRQ(p, parent, parent, false, nil, SDBalanceFork)
	if !p.allowed.Has(target) {
		target = p.allowed.First() // select_fallback_rq()
	}
	p.cpu = target
	rq := s.cpus[target]
	s.era.track.forkAttach(s, rq, p)
	s.era.class.taskFork(s, rq, p)
	if target != parent {
		s.countMigration(p, parent, target, CauseFork)
	}
	s.emit(&Event{Kind: EvFork, CPU: int16(target), From: int16(parent), Task: p.id, Arg: -1, Level: d.Level, Why: d.Seq})
	if target != parent {
		// wake_up_new_task(): activate_task() on the target's runqueue,
		// then check_preempt_curr() -> resched_task(): an idle target is
		// woken by IPI.
		s.activateByIPI(rq, p, enqInitial, d.Cost)
	} else {
		s.activate(rq, p, enqInitial)
	}
	return d
}

// countMigration accounts a migration of p from -> to.
func (s *Sim) countMigration(p *Task, from, to int, cause Cause) {
	p.migrations++
	s.m.mig[cause]++
	s.m.migDist[s.topo.Distance(from, to)]++
}
