package sim

// Load tracking at the points where the kernel updates it: the v6.17 PELT
// plumbing (update_load_avg() and friends), the 3.8 PELT plumbing
// (load_avg_contrib, runnable/blocked_load_avg) and 3.8's cpu_load[]. The
// arithmetic itself is in pelt.go; this file says when it runs. An era names
// its load tracking as a loadTracker value; the core calls its hooks and
// never a tracker's function by name.

// loadTracker is an era's load tracking, by the kernel hook points that
// update it.
type loadTracker struct {
	// enqueue runs in enqueue_entity() before p's weight joins rq;
	// dequeue in dequeue_entity() before it leaves.
	enqueue func(s *Sim, rq *RQ, p *Task, flags int)
	dequeue func(s *Sim, rq *RQ, p *Task, flags int)
	// putPrev and setNext run when p stops or starts running
	// (put_prev_entity(), set_next_entity()).
	putPrev func(s *Sim, rq *RQ, p *Task)
	setNext func(s *Sim, rq *RQ, p *Task)
	// tick runs at rq's tick at jiffy j: the running task's load
	// (entity_tick()), if any, then the CPU's load history.
	tick func(s *Sim, rq *RQ, j int64)
	// tickRestart brings the CPU's load history up to jiffy j when its
	// tick restarts after idling (the ticks it missed saw no load).
	tickRestart func(s *Sim, rq *RQ, j int64)
	// wakeMigrate runs when a woken p leaves prq for another CPU
	// (set_task_cpu() -> migrate_task_rq_fair()); balanceMigrate when the
	// balancer moves p (it attaches at its next enqueue).
	wakeMigrate    func(s *Sim, prq *RQ, p *Task)
	balanceMigrate func(p *Task)
	// forkInit gives a new task its initial load history on the parent's
	// rq (init_entity_runnable_average(), 3.8 __sched_fork()); forkAttach
	// runs once its rq is chosen (post_init_entity_util_avg()).
	forkInit   func(s *Sim, parent *RQ, p *Task)
	forkAttach func(s *Sim, rq *RQ, p *Task)
	// exit runs when p exits on rq (task_dead_fair()).
	exit func(s *Sim, rq *RQ, p *Task)
	// decayBlocked decays rq's blocked load (update_blocked_averages()).
	decayBlocked func(s *Sim, rq *RQ)
}

// trackBoth runs both PELT trackers in every era that has PELT: the v6.17
// signals (load_avg, runnable_avg, util_avg, util_est) and the 3.8 ones
// (load_avg_contrib, runnable_load_avg, blocked_load_avg), so that
// policy.load_metric can pick any of them and the front ends can show them
// side by side; and 3.8's cpu_load[] for source_load()/target_load(). Each
// is updated where its own kernel updates it.
var trackBoth = loadTracker{
	enqueue:        peltEnqueue,
	dequeue:        peltDequeue,
	putPrev:        peltPutPrev,
	setNext:        peltSetNext,
	tick:           peltTick,
	tickRestart:    cpuLoadRestart38,
	wakeMigrate:    peltWakeMigrate,
	balanceMigrate: func(p *Task) { p.avg.LastUpdateTime = 0 }, // migrate_task_rq_fair(): attach at enqueue
	forkInit:       peltForkInit,
	forkAttach:     peltForkAttach,
	exit:           removeEntityLoadAvg,
	decayBlocked:   updateBlockedAverages,
}

// peltPutPrev is the PELT part of put_prev_entity() for a runnable p.
func peltPutPrev(s *Sim, rq *RQ, p *Task) {
	s.updateLoadAvg(rq, p, false, false)
	s.updateEntityLoadAvg38(rq, p, true)
}

// peltSetNext is the PELT part of set_next_entity().
func peltSetNext(s *Sim, rq *RQ, p *Task) { s.updateLoadAvg(rq, p, false, false) }

// peltTick is the PELT part of entity_tick() (3.8: and of
// update_cfs_rq_blocked_load() at the tick) for the running task, then 3.8
// update_cpu_load() with the CPU's load.
func peltTick(s *Sim, rq *RQ, j int64) {
	if p := rq.curr; p != nil {
		s.updateLoadAvg(rq, p, false, false)
		s.updateEntityLoadAvg38(rq, p, true)
		s.updateBlockedLoad38(rq, true)
	}
	s.cpuLoadTick38(rq, s.cpuLoad(rq), j)
}

// cpuLoadRestart38 is tick_nohz_idle_exit()'s catch-up of cpu_load[] for the
// ticks an idle CPU missed (update_idle_cpu_load(), load 0).
func cpuLoadRestart38(s *Sim, rq *RQ, j int64) { s.cpuLoadTick38(rq, 0, j) }

// peltWakeMigrate is migrate_task_rq_fair() for a woken task: 3.8 moves its
// contribution to the old rq's removed load; v6.17 queues its load for
// removal and attaches it afresh at the new rq.
func peltWakeMigrate(s *Sim, prq *RQ, p *Task) {
	s.migrateTaskRQ38(prq, p)
	removeEntityLoadAvg(s, prq, p)
	p.avg.LastUpdateTime = 0
}

// peltForkInit mirrors init_entity_runnable_average() and 3.8
// __sched_fork(): with policy.new_task_load "full" a new task starts at its
// full weight (init_task_runnable_average(), Alex Shi's series, merged as
// a75cdaa915e4 in v3.11: a full slice of history). With "zero" (3.8's own)
// __sched_fork() (core.c:1647-1650) zeroes only runnable_avg_sum and
// runnable_avg_period; dup_task_struct() copied the rest of se.avg from the
// parent, so load_avg_contrib and decay_count are the parent's: a fork
// step's parent task, or the spawner, which stands for a parent running as
// it forks (decay_count 0, a full contribution at the child's weight). The
// child enters
// runnable_load_avg with that contribution, and its first
// update_entity_load_avg() recomputes it from the zeroed sums.
func peltForkInit(s *Sim, parent *RQ, p *Task) {
	if s.ntl != NewTaskLoadFull {
		p.avg38 = SchedAvg38{LoadAvgContrib: p.weight}
		if p.parent >= 0 {
			par := &s.tasks[p.parent].avg38
			// The child inherits the parent's contribution; here it has its
			// group's nice, not the parent's, so the contribution is capped
			// at the child's weight (a contribution never exceeds it).
			p.avg38 = SchedAvg38{LoadAvgContrib: min(par.LoadAvgContrib, p.weight), DecayCount: par.DecayCount}
		}
		return
	}
	p.avg.LoadAvg = p.weight
	sl := uint32(s.schedSlice38(parent, p) >> 10)
	p.avg38.RunnableAvgSum, p.avg38.RunnableAvgPeriod = sl, sl
	p.avg38.updateContrib(p.weight)
}

// peltForkAttach mirrors post_init_entity_util_avg(): a share of the rq's
// utilisation, at most half its spare capacity.
func peltForkAttach(s *Sim, rq *RQ, p *Task) {
	if s.ntl != NewTaskLoadFull {
		return
	}
	cap := (int64(rq.capacity) - int64(rq.cfsAvg.UtilAvg)) / 2
	if cap > 0 {
		if rq.cfsAvg.UtilAvg != 0 {
			u := rq.cfsAvg.UtilAvg * p.weight / (rq.cfsAvg.LoadAvg + 1)
			p.avg.UtilAvg = min(u, uint64(cap))
		} else {
			p.avg.UtilAvg = uint64(cap)
		}
	}
	p.avg.RunnableAvg = p.avg.UtilAvg
}

// updateBlockedAverages mirrors sched_balance_update_blocked_averages():
// decay the blocked load of an idle or balancing CPU.
func updateBlockedAverages(s *Sim, rq *RQ) {
	s.updateBlockedLoad38(rq, true)
	s.updateCfsRqLoadAvg(rq)
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
	sa.update(uint64(s.now), 1, rq.loadWeight, uint64(rq.hNrRunnable()), rq.curr != nil)
}

// updateLoadAvg mirrors update_load_avg(cfs_rq, se, flags).
func (s *Sim) updateLoadAvg(rq *RQ, p *Task, attach, detach bool) {
	if p.avg.LastUpdateTime != 0 {
		// se_runnable(): a sched_delayed entity is on_rq but not runnable.
		if p.avg.update(uint64(s.now), p.weight, b2u(p.onRq), b2u(p.onRq && !p.delayed), rq.curr == p) {
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
func removeEntityLoadAvg(s *Sim, rq *RQ, p *Task) {
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
		subtractBlockedLoadContrib38(rq, -delta)
	}
}

// subtractBlockedLoadContrib38 mirrors 3.8 subtract_blocked_load_contrib():
// `if (likely(load_contrib < cfs_rq->blocked_load_avg))` compares a long
// with a u64, so a negative load_contrib (update_entity_load_avg() passes
// -contrib_delta: a blocked entity whose contribution rose) compares as a
// huge unsigned value and empties blocked_load_avg, as does one at or
// above it: subPositive() of the value converted. The model's entities
// are tasks, whose contributions are updated with update_cfs_rq only
// while on_rq, so the rise is not reached today; a group entity would
// reach it.
func subtractBlockedLoadContrib38(rq *RQ, loadContrib int64) {
	subPositive(&rq.blockedLoadAvg, uint64(loadContrib))
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
		subtractBlockedLoadContrib38(rq, int64(rq.removedLoad38))
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
		subtractBlockedLoadContrib38(rq, int64(p.avg38.LoadAvgContrib))
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

// peltEnqueue is the PELT part of enqueue_entity(), before the weight is
// added (so the elapsed time accrues with the old runqueue weight).
func peltEnqueue(s *Sim, rq *RQ, p *Task, flags int) {
	if !p.delayed { // enqueue_task_fair(): not for a sched_delayed task migrated
		rq.cfsAvg.UtilEst += taskUtilEst(p) // util_est_enqueue()
	}
	s.updateLoadAvg(rq, p, true, false)
	s.enqueueEntityLoadAvg38(rq, p, flags&enqWakeup != 0)
}

// peltDequeue is the PELT part of dequeue_task_fair()/dequeue_entity().
func peltDequeue(s *Sim, rq *RQ, p *Task, flags int) {
	sleep := flags&deqSleep != 0
	if !p.delayed { // dequeue_task_fair(): a delayed task's util_est left when it was delayed
		subPositive(&rq.cfsAvg.UtilEst, taskUtilEst(p)) // util_est_dequeue()
	}
	if sleep {
		utilEstUpdate(p)
	}
	s.updateLoadAvg(rq, p, false, flags&deqMigrating != 0)
	s.dequeueEntityLoadAvg38(rq, p, sleep)
}

// peltDelay is the PELT part of a dequeue that DELAY_DEQUEUE delays:
// dequeue_task_fair()'s util_est_dequeue() and util_est_update() for the
// sleep, and dequeue_entity()'s update_load_avg() before set_delayed(). The
// 3.8 signals (trackBoth) see no dequeue until the delayed one completes.
func peltDelay(s *Sim, rq *RQ, p *Task) {
	subPositive(&rq.cfsAvg.UtilEst, taskUtilEst(p))
	utilEstUpdate(p)
	s.updateLoadAvg(rq, p, false, false)
}

// peltRequeue is the PELT part of enqueue_task_fair(ENQUEUE_DELAYED):
// util_est_enqueue(), and requeue_delayed_entity()'s update_load_avg().
func peltRequeue(s *Sim, rq *RQ, p *Task) {
	rq.cfsAvg.UtilEst += taskUtilEst(p)
	s.updateLoadAvg(rq, p, false, false)
}

// ---- 3.8 cpu_load[] ----

// cpuLoadTick38 brings cpu_load[] up to jiffy j with load for the last
// tick and nothing for the ticks before it since the last update.
func (s *Sim) cpuLoadTick38(rq *RQ, load uint64, j int64) {
	if pending := j - rq.lastLoadUpdate; pending > 0 {
		s.updateCPULoad(rq, load, pending)
		rq.lastLoadUpdate = j
	}
}

// degrade tables of 3.8 decay_load_missed().
var degradeZeroTicks = [5]int64{0, 8, 32, 64, 128}
var degradeFactor = [5][8]uint64{
	{0, 0, 0, 0, 0, 0, 0, 0},
	{64, 32, 8, 0, 0, 0, 0, 0},
	{96, 72, 40, 12, 1, 0, 0},
	{112, 98, 75, 43, 15, 1, 0},
	{120, 112, 98, 76, 45, 16, 2},
}

func decayLoadMissed(load uint64, missed int64, idx int) uint64 {
	if missed == 0 {
		return load
	}
	if missed >= degradeZeroTicks[idx] {
		return 0
	}
	if idx == 1 {
		return load >> uint(missed)
	}
	for j := 0; missed > 0; j++ {
		if missed%2 == 1 {
			load = load * degradeFactor[idx][j] >> 7
		}
		missed >>= 1
	}
	return load
}

// updateCPULoad mirrors 3.8 __update_cpu_load(): cpu_load[i] decays towards
// the current load with factor (2^i-1)/2^i per tick, rounding up when rising.
func (s *Sim) updateCPULoad(rq *RQ, load uint64, pending int64) {
	if pending <= 0 {
		return
	}
	rq.cpuLoad[0] = load
	scale := uint64(2)
	for i := 1; i < 5; i++ {
		old := decayLoadMissed(rq.cpuLoad[i], pending-1, i)
		nl := load
		if nl > old {
			nl += scale - 1
		}
		rq.cpuLoad[i] = (old*(scale-1) + nl) >> uint(i)
		scale += scale
	}
}
