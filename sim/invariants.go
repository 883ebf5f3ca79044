package sim

import "fmt"

// CheckInvariants verifies the simulator's internal consistency. Tests call
// it after every event; a violation is a simulator bug. It checks that each
// task is in exactly one place, runqueue counters and load weights match
// their tasks, idle CPUs are really idle, PELT signals are in range, and the
// CPU time given to tasks equals the CPUs' busy time, and that the process
// tree of fork steps is consistent (checkProcesses).
func (s *Sim) CheckInvariants() error {
	where := make([]int, len(s.tasks)) // times seen in a queue or as curr
	var busy, taskCPU int64
	nQueued, nIdle, nWaiting, nRetained := 0, 0, 0, 0
	pending := make([]int, len(s.cpus))
	attached := make([]int, len(s.cpus))
	utilSum := make([]uint64, len(s.cpus))
	// What the runqueues' sums over their enqueued tasks must be: 3.8's
	// runnable_load_avg (the load_avg_contrib of every entity on_rq, kept
	// by enqueue_entity_load_avg()/dequeue_entity_load_avg() and by the
	// contrib deltas of update_entity_load_avg(se, 1)) and v6.17's
	// cfs_rq util_est (util_est_enqueue()/util_est_dequeue() of every
	// enqueued task but a sched_delayed one, whose estimate left as it
	// was delayed).
	contribSum := make([]uint64, len(s.cpus))
	utilEstSum := make([]uint64, len(s.cpus))
	for _, t := range s.tasks {
		if t.state == TaskWaking {
			pending[t.cpu]++
		}
		// A task on a runqueue is attached to its cfs_rq's PELT:
		// enqueue_entity()'s update_load_avg(DO_ATTACH) attaches an entity
		// whose last_update_time is 0 (new, or migrated: set in
		// migrate_task_rq_fair()). One that is not would run, queue and
		// block with its load and util left out of its CPU's (the defect
		// of the PELT clock at time 0, TestPeltAttachedAtTimeZero).
		if t.onRq && !s.era.noPELT {
			if t.avg.LastUpdateTime == 0 {
				return fmt.Errorf("%s is on cpu%d's runqueue but not attached to its PELT (last_update_time 0)", t.info.Name, t.cpu)
			}
			contribSum[t.cpu] += t.avg38.LoadAvgContrib
			if !t.delayed {
				utilEstSum[t.cpu] += taskUtilEst(t)
			}
		}
		if t.cpu >= 0 && t.state != TaskExited && t.state != TaskUnborn {
			attached[t.cpu]++
			utilSum[t.cpu] += t.avg.UtilAvg
		}
	}
	for c, rq := range s.cpus {
		var w uint64
		nr := len(rq.queue)
		delayed := 0
		for _, t := range rq.queue {
			where[t.id]++
			if t.delayed { // DELAY_DEQUEUE: blocked, still queued with its weight
				delayed++
				if !t.onRq || t.state != TaskBlocked || t.cpu != c {
					return fmt.Errorf("cpu%d: delayed %s has on_rq=%v state=%s cpu=%d", c, t.info.Name, t.onRq, t.state, t.cpu)
				}
				w += t.weight
				continue
			}
			if !t.onRq || t.state != TaskRunnable || t.cpu != c {
				return fmt.Errorf("cpu%d: queued %s has on_rq=%v state=%s cpu=%d", c, t.info.Name, t.onRq, t.state, t.cpu)
			}
			w += t.weight
		}
		nQueued += len(rq.queue)
		if t := rq.curr; t != nil {
			nWaiting += len(rq.queue) - delayed
			where[t.id]++
			if !t.onRq || t.state != TaskRunning || t.cpu != c {
				return fmt.Errorf("cpu%d: curr %s has on_rq=%v state=%s cpu=%d", c, t.info.Name, t.onRq, t.state, t.cpu)
			}
			w += t.weight
			nr++
			if t.remaining < 0 {
				return fmt.Errorf("cpu%d: curr %s has negative remaining work", c, t.info.Name)
			}
			taskCPU += s.now - rq.execStart
		}
		if s.smtOn { // smt.go: each core settled at the end of the last event
			others := int32(0)
			for _, x := range s.topo.coreCPUs[c] {
				if x != c && s.cpus[x].curr != nil {
					others++
				}
			}
			if others != rq.smtOthers {
				return fmt.Errorf("cpu%d: %d SMT siblings run a task, the rate counts %d", c, others, rq.smtOthers)
			}
		}
		if s.era.classFor != nil {
			if err := rq.o1Invariants(); err != nil {
				return fmt.Errorf("cpu%d: %v", c, err)
			}
		}
		if s.era.base == BaseV617 {
			if err := s.eevdfInvariants(rq); err != nil {
				return fmt.Errorf("cpu%d: %v", c, err)
			}
		}
		if delayed != rq.nrDelayed {
			return fmt.Errorf("cpu%d: nr_delayed %d, delayed tasks queued %d", c, rq.nrDelayed, delayed)
		}
		if nr != rq.nrRunning {
			return fmt.Errorf("cpu%d: nr_running %d, tasks %d", c, rq.nrRunning, nr)
		}
		if w != rq.loadWeight {
			return fmt.Errorf("cpu%d: load.weight %d, tasks weigh %d", c, rq.loadWeight, w)
		}
		if rq.idle {
			nIdle++
			if rq.curr != nil || len(rq.queue) > 0 || rq.exiting {
				return fmt.Errorf("cpu%d: idle but has work", c)
			}
		} else if rq.curr == nil && len(rq.queue) == 0 && !rq.exiting {
			return fmt.Errorf("cpu%d: neither idle nor busy", c)
		}
		if rq.tickRetained {
			nRetained++
			if !rq.idle || !rq.tickOn {
				return fmt.Errorf("cpu%d: keeps its idle tick but is not idle with its tick on", c)
			}
		}
		if s.idleMask.Has(c) != (rq.idle && rq.ttwuPending == 0) {
			return fmt.Errorf("cpu%d: idle mask out of step", c)
		}
		if s.busyMask.Has(c) == rq.idle {
			return fmt.Errorf("cpu%d: busy mask out of step", c)
		}
		if rq.ttwuPending != pending[c] {
			return fmt.Errorf("cpu%d: ttwu_pending %d, tasks in flight %d", c, rq.ttwuPending, pending[c])
		}
		// A cfs_rq's util_avg is what attaching its tasks added (running,
		// queued or blocked there; at most their util_avg now, as both
		// decay alike; an exited task's went at its exit, task_dead_fair(),
		// so only live tasks count), plus what it accrued itself while a
		// task ran, less what detaching and removing tasks took away: so it
		// can exceed the capacity, and tasks that left by wake-up are
		// subtracted at its next update. What it accrued itself is at most the capacity's
		// worth, and the removals leave part of it behind:
		// remove_entity_load_avg() takes a task's util_avg as of its last
		// period boundary, while the cfs_rq's util_sum already holds what
		// the task ran since (up to a period's worth, ~22, per removal,
		// and per period of run time), decaying as PELT does. A CPU that
		// runs a short-lived fork every millisecond keeps about 200 of it
		// (the random scenario of seed 30: 150-210 on its cpu4 from 40 ms
		// on), one that runs a new short task every 0.4 ms about 500
		// (scenarios/testdata/invariants/util-residue.json: 480-500 on
		// cpu8 from 128 ms on, when a task of util 868 migrates in; the
		// bound of 1024 a task plus 256 failed there); rounding of attach,
		// detach and decay adds the slack.
		if u := rq.cfsAvg.UtilAvg; u > rq.removedUtil && u-rq.removedUtil > capacityScale+utilSum[c]+capacityScale/4 {
			return fmt.Errorf("cpu%d: cfs util_avg %d out of range for %d tasks of util_avg %d in all", c, rq.cfsAvg.UtilAvg, attached[c], utilSum[c])
		}
		if !s.era.noPELT {
			if rq.runnableLoadAvg != contribSum[c] {
				return fmt.Errorf("cpu%d: runnable_load_avg %d, its tasks' load_avg_contrib sum to %d", c, rq.runnableLoadAvg, contribSum[c])
			}
			if rq.cfsAvg.UtilEst != utilEstSum[c] {
				return fmt.Errorf("cpu%d: cfs util_est %d, its enqueued tasks' sum to %d", c, rq.cfsAvg.UtilEst, utilEstSum[c])
			}
		}
		busy += rq.busyTime
		if rq.busySince >= 0 {
			busy += s.now - rq.busySince
		}
		if (rq.busySince >= 0) != (rq.curr != nil) {
			return fmt.Errorf("cpu%d: busy accounting out of step with curr", c)
		}
	}
	for _, t := range s.tasks {
		taskCPU += t.cpuTime
		inRQ := t.state == TaskRunning || t.state == TaskRunnable || t.delayed
		if inRQ && where[t.id] != 1 || !inRQ && where[t.id] != 0 {
			return fmt.Errorf("%s (%s) is on %d runqueues", t.info.Name, t.state, where[t.id])
		}
		if t.onRq != inRQ {
			return fmt.Errorf("%s (%s) has on_rq=%v", t.info.Name, t.state, t.onRq)
		}
		if t.avg.UtilAvg > capacityScale || t.avg.LoadAvg > t.weight {
			return fmt.Errorf("%s: PELT util %d load %d out of range", t.info.Name, t.avg.UtilAvg, t.avg.LoadAvg)
		}
		if t.avg38.LoadAvgContrib > t.weight {
			return fmt.Errorf("%s: 3.8 load_avg_contrib %d > weight", t.info.Name, t.avg38.LoadAvgContrib)
		}
	}
	if err := s.checkProcesses(); err != nil {
		return err
	}
	if nQueued != s.m.nQueued || nIdle != s.m.nIdle || nWaiting != s.m.nWaiting {
		return fmt.Errorf("counters: queued %d/%d idle %d/%d waiting %d/%d", s.m.nQueued, nQueued, s.m.nIdle, nIdle, s.m.nWaiting, nWaiting)
	}
	if nRetained != s.nTickRetained {
		return fmt.Errorf("counters: idle CPUs keeping their tick %d/%d", s.nTickRetained, nRetained)
	}
	if busy != taskCPU {
		return fmt.Errorf("CPU busy time %d != task CPU time %d", busy, taskCPU)
	}
	return nil
}

// checkProcesses verifies the process tree of fork steps: the live count
// is the tasks not exited, a parent's child count is its live children's,
// a free slot holds an exited task, and every task's repeat frames lie
// inside its program.
func (s *Sim) checkProcesses() error {
	live := 0
	children := make([]int, len(s.tasks)) // by task id
	for _, t := range s.tasks {
		if t.state != TaskExited {
			live++
			if t.parent >= 0 && s.tasks[t.parent].life == t.parentLife {
				children[t.parent]++
			}
		}
		if t.sp < 0 || t.sp > MaxRepeatDepth {
			return fmt.Errorf("%s: %d repeat frames", t.info.Name, t.sp)
		}
		end := int32(len(t.prog))
		for i := 0; i < t.sp; i++ {
			f := t.stack[i]
			if f.start < 1 || f.start >= f.end || f.end > end || f.left < 1 {
				return fmt.Errorf("%s: repeat frame %d is [%d, %d) with %d left in a %d-step program", t.info.Name, i, f.start, f.end, f.left, end)
			}
			end = f.end
		}
	}
	if live != s.live {
		return fmt.Errorf("%d tasks alive, the live count says %d", live, s.live)
	}
	for _, t := range s.tasks {
		if t.state != TaskExited && t.nrChildren != children[t.id] {
			return fmt.Errorf("%s counts %d children, %d are alive", t.info.Name, t.nrChildren, children[t.id])
		}
		if t.waitChild && (t.state != TaskBlocked || t.nrChildren == 0) {
			return fmt.Errorf("%s waits for children in state %s with %d alive", t.info.Name, t.state, t.nrChildren)
		}
	}
	for gi, free := range s.freeSlots {
		for _, id := range free {
			if t := s.tasks[id]; t.state != TaskExited || t.info.Group != gi {
				return fmt.Errorf("free slot %s is %s", t.info.Name, t.state)
			}
		}
	}
	return nil
}

// eevdfInvariants checks v6.17's runqueue arithmetic on rq. The sums that
// avg_vruntime() and vruntime_eligible() read are kept by
// avg_vruntime_add()/avg_vruntime_sub() as tasks join and leave the tree,
// and shifted by avg_vruntime_update() as min_vruntime advances: they must
// equal the queued tasks' own (sched_delayed ones included: they stay in
// the tree with their weight; curr is out of it). And every task's virtual
// deadline lies ahead of its vruntime, by at most its virtual slice:
// place_entity() sets vd = v + r/w (half that with PLACE_DEADLINE_INITIAL,
// or the relative deadline a migrating task kept, which was within it),
// update_deadline() renews it as soon as update_curr() moves v past it,
// and a queued task's v and vd do not move (the model's tasks keep their
// nice value, so nothing reweights them).
func (s *Sim) eevdfInvariants(rq *RQ) error {
	var sum, load int64
	for _, t := range rq.queue {
		w := int64(t.weight)
		sum += (t.vruntime - rq.minVruntime) * w
		load += w
	}
	if sum != rq.avgVruntime || load != rq.avgLoad {
		return fmt.Errorf("avg_vruntime %d avg_load %d, the queued tasks sum to %d and %d", rq.avgVruntime, rq.avgLoad, sum, load)
	}
	check := func(t *Task) error {
		vslice := calcDeltaFair(t.slice, t.weight, t.invW)
		if d := t.deadline - t.vruntime; d <= 0 || d > vslice {
			return fmt.Errorf("%s: deadline %d is %d past vruntime %d, outside (0, %d]", t.info.Name, t.deadline, d, t.vruntime, vslice)
		}
		return nil
	}
	for _, t := range rq.queue {
		if err := check(t); err != nil {
			return err
		}
	}
	if t := rq.curr; t != nil && t.onRq {
		return check(t)
	}
	return nil
}
