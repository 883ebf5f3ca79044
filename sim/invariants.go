package sim

import "fmt"

// CheckInvariants verifies the simulator's internal consistency. Tests call
// it after every event; a violation is a simulator bug. It checks that each
// task is in exactly one place, runqueue counters and load weights match
// their tasks, idle CPUs are really idle, PELT signals are in range, and the
// CPU time given to tasks equals the CPUs' busy time.
func (s *Sim) CheckInvariants() error {
	where := make([]int, len(s.tasks)) // times seen in a queue or as curr
	var busy, taskCPU int64
	nQueued, nIdle, nWaiting := 0, 0, 0
	pending := make([]int, len(s.cpus))
	attached := make([]int, len(s.cpus))
	for _, t := range s.tasks {
		if t.state == TaskWaking {
			pending[t.cpu]++
		}
		if t.cpu >= 0 {
			attached[t.cpu]++
		}
	}
	for c, rq := range s.cpus {
		var w uint64
		nr := len(rq.queue)
		for _, t := range rq.queue {
			where[t.id]++
			if !t.onRq || t.state != TaskRunnable || t.cpu != c {
				return fmt.Errorf("cpu%d: queued %s has on_rq=%v state=%s cpu=%d", c, t.info.Name, t.onRq, t.state, t.cpu)
			}
			w += t.weight
		}
		nQueued += len(rq.queue)
		if t := rq.curr; t != nil {
			nWaiting += len(rq.queue)
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
		if s.idleMask.Has(c) != (rq.idle && rq.ttwuPending == 0) {
			return fmt.Errorf("cpu%d: idle mask out of step", c)
		}
		if rq.ttwuPending != pending[c] {
			return fmt.Errorf("cpu%d: ttwu_pending %d, tasks in flight %d", c, rq.ttwuPending, pending[c])
		}
		// A cfs_rq's util_avg is about the sum of its attached tasks'
		// (running, queued or blocked there), so it can exceed the capacity
		// briefly; tasks that left by wake-up are subtracted at its next
		// update; and attach/detach/decay rounding leaves a small residue,
		// as in the kernel (whence the slack).
		if u := rq.cfsAvg.UtilAvg; u > rq.removedUtil && u-rq.removedUtil > capacityScale*uint64(max(attached[c], 1))+capacityScale/8 {
			return fmt.Errorf("cpu%d: cfs util_avg %d out of range for %d tasks", c, rq.cfsAvg.UtilAvg, attached[c])
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
		inRQ := t.state == TaskRunning || t.state == TaskRunnable
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
	if nQueued != s.m.nQueued || nIdle != s.m.nIdle || nWaiting != s.m.nWaiting {
		return fmt.Errorf("counters: queued %d/%d idle %d/%d waiting %d/%d", s.m.nQueued, nQueued, s.m.nIdle, nIdle, s.m.nWaiting, nWaiting)
	}
	if busy != taskCPU {
		return fmt.Errorf("CPU busy time %d != task CPU time %d", busy, taskCPU)
	}
	return nil
}
