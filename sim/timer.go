package sim

// Timer interrupts (Costs.TimerIRQSpread).
//
// A sleeping task's hrtimer is queued on the CPU it slept on (the task was
// running there when it armed it: get_nohz_timer_target() keeps a busy
// CPU's own base). When timers expire, hrtimer_interrupt() on that CPU runs
// every expired one in expiry order, and each hrtimer_wakeup() is a
// try_to_wake_up() from that CPU. Different CPUs take their interrupts
// independently: their clock events fire separately, and a CPU in a
// C-state leaves it first, so two CPUs' wake-ups for the same instant
// interleave a few microseconds apart, in an order nothing fixes. Who goes
// first decides a placement race: a CPU's second wakee finds its prev busy
// with the first and looks for an idle CPU (select_idle_sibling()); the
// other CPU is idle only if its own interrupt has not enqueued anything
// yet (traced on this project's guest: docs/real-kernel.md, four 30 %
// tasks).
//
// The model: with TimerIRQSpread > 0, the timers expiring on one CPU at one
// instant are woken together, in the order armed, by that CPU's interrupt
// for the instant, which comes a delay drawn from [0, TimerIRQSpread] after
// it (one draw per CPU and instant, from the run's PRNG); the CPU's tick,
// when one is due at that instant, comes in the same interrupt
// (tickIRQDelay). With 0 every timer of a running CPU is woken at its
// instant, the timers of all CPUs in the order armed. Either way an idle
// CPU runs its interrupt's handler only after leaving its C-state
// (irqExitFor). What stays out: the tick's own interrupt on an idle CPU
// (no exit), the interrupt's own CPU time, and timer slack (a SCHED_OTHER
// sleeper's hrtimer may fire up to 50 us late, the same for every CPU's
// timers of one instant).

// tickIRQDelay is how late CPU rq's tick for this jiffy comes. The tick is
// an hrtimer of its own (tick_sched_timer(), expiring at the jiffy), run by
// the same hrtimer_interrupt() as the CPU's other timers of that instant, so
// it shares their interrupt's draw: 0 without a spread; at most a tick less
// 1 ns, so that a CPU's ticks keep their order. Which CPU's tick comes first
// decides what a balancing pass sees on the other: a task still running
// there, or one its own tick just switched out (cache-hot, so
// can_migrate_task() refuses it and the pass fails).
func (s *Sim) tickIRQDelay(rq *RQ) int64 {
	if s.costs.TimerIRQSpread <= 0 {
		return 0
	}
	return min(s.irqAt(rq), s.tickNS-1)
}

// irqAt is how late rq's timer interrupt for this instant comes: one draw
// from [0, TimerIRQSpread] per CPU and instant, taken by whichever of its
// timers and its tick asks first (0 without a spread). It starts the
// instant's record: the wake-ups made so far, the exit not yet computed.
func (s *Sim) irqAt(rq *RQ) int64 {
	if rq.timerIRQAt != s.now {
		rq.timerIRQAt = s.now
		rq.timerIRQDelay, rq.timerIRQWakes, rq.irqExit = 0, 0, -1
		if spread := s.costs.TimerIRQSpread; spread > 0 {
			rq.timerIRQDelay = s.rng.Int64N(spread + 1)
		}
	}
	return rq.timerIRQDelay
}

// timerIRQ is called when p's timer expires. It reports whether the
// wake-up is deferred to p's CPU's interrupt for this instant (then the
// timer event is queued again for that moment, and the second call, with
// p.timerLate set, wakes p).
//
// The interrupt's handler runs once the CPU can run it: a CPU idle in a
// C-state leaves it first (irqExit), one already leaving idle for a
// wake-up finishes that exit. So hrtimer_wakeup()'s try_to_wake_up(), its
// sched_waking and the placement it decides come after the exit, and the
// CPU, out of its C-state, re-enters idle afresh after the interrupt
// (irqHandled) whether or not the wakee stays.
func (s *Sim) timerIRQ(p *Task) bool {
	rq := s.cpus[p.cpu]
	if p.timerLate {
		p.timerLate = false
		s.irqHandled(rq)
		return false
	}
	delay := s.irqAt(rq) + rq.timerIRQWakes*s.costs.TimerWakeup + s.irqExitFor(rq)
	rq.timerIRQWakes++
	if delay == 0 {
		s.irqHandled(rq)
		return false
	}
	p.timerLate = true
	s.q.push(qev{t: s.now + delay, kind: evTimer, task: p.id, gen: p.timerGen})
	return true
}

// irqExitFor is how long rq's timer interrupt for this instant waits for
// the CPU to leave idle, once per CPU and instant: an idle CPU's exit from
// the C-state it is in when the interrupt arrives (its delivery draw after
// the instant; leaveIdle, charged as an idle exit, a flushing state
// counted as the core's flush) less the part that follows the handler
// (Costs.IdleReturn), a CPU already leaving idle what is left of that
// exit, 0 for a CPU that runs. The kernel's trace shows the same: a
// timer's sched_waking on an idle CPU comes after the CPU's exit.
func (s *Sim) irqExitFor(rq *RQ) int64 {
	draw := s.irqAt(rq)
	if rq.irqExit >= 0 {
		return rq.irqExit
	}
	rq.irqExit = 0
	switch {
	case rq.exiting:
		rq.irqExit = max(0, rq.readyAt-s.now-draw)
	case rq.idle:
		_, exit := s.leaveIdle(rq, s.now+draw-rq.idleSince, draw)
		rq.irqExit = max(0, exit-s.costs.IdleReturn)
		rq.irqReady = s.now + draw + exit
	}
	return rq.irqExit
}

// irqHandled: rq ran a timer interrupt's handler now. An idle CPU is out
// of its C-state for it and re-enters idle afterwards, its residency and
// the governor's choice starting over (as the tick's interrupt does:
// retainedTick); a wake-up at this instant waits for what is left of its
// exit (Costs.IdleReturn; leaveIdle), none without it.
func (s *Sim) irqHandled(rq *RQ) {
	if !rq.idle {
		return
	}
	rq.idleSince = s.now
	rq.irqReady = max(rq.irqReady, s.now)
	s.setIdleMult(rq)
}
