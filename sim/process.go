package sim

// Processes: the program steps of scenario format version 2 that make and
// end tasks, and exec balancing.
//
//   - fork: the task forks Count children of a group (copy_process(), then
//     wake_up_new_task() places each by select_task_rq_fair() with
//     SD_BALANCE_FORK from the parent's CPU, as the scenario's own
//     instances are placed from cpu 0).
//   - exec: sched_exec() asks select_task_rq_fair() with SD_BALANCE_EXEC
//     where the exec'ing task should run, and if that is another CPU the
//     stopper of its CPU moves it there (migration_cpu_stop()).
//   - wait_children: the task blocks until it has no live children; the
//     last child's exit wakes it (do_notify_parent() -> __wake_up_parent(),
//     a WF_SYNC wake-up from the exiting child's CPU).
//   - exit: do_exit(); the slot of a forked task is reused by a later fork
//     of its group, so memory follows the tasks alive at once, not the
//     forks of a whole run.
//
// Two run-time limits bound what a scenario can start: the tasks alive at
// once (Config.MaxLiveTasks) and the children forked in a whole run
// (Config.MaxForks). Each is checked before a slot is allocated; a run that
// reaches one stops with Err, as at the event budget.

// forkStep runs a fork step of p on rq: st.Count children of group
// st.Target, one after the other. It returns the search cost of their
// placements, charged to the parent's CPU time.
func (s *Sim) forkStep(rq *RQ, p *Task, st *Step) int64 {
	var cost int64
	for i := 0; i < st.Count && s.err == nil; i++ {
		if s.m.forks >= s.maxForks {
			s.err = &LimitError{Limit: "forks", Budget: int64(s.maxForks), At: s.now}
			break
		}
		if s.live >= s.maxLive {
			s.err = &LimitError{Limit: "live tasks", Budget: int64(s.maxLive), At: s.now}
			break
		}
		c := s.allocSlot(st.Target)
		c.parent, c.parentLife = p.id, p.life
		c.homeNode = s.topo.CPU[rq.cpu].Node // copy_process() on the parent's CPU (numa_cost.go)
		p.nrChildren++
		s.live++
		s.m.forks++
		s.m.liveMax = max(s.m.liveMax, s.live)
		d := s.wakeUpNewTask(c, rq.cpu)
		cost += d.Cost
		s.m.searchCost += d.Cost
	}
	return cost
}

// allocSlot returns an unborn task of group gi: the slot of an exited one
// of the group (last freed first), or a new slot "name/N".
func (s *Sim) allocSlot(gi int) *Task {
	if free := s.freeSlots[gi]; len(free) > 0 {
		t := s.tasks[free[len(free)-1]]
		s.freeSlots[gi] = free[:len(free)-1]
		// A fresh task in the old slot; what the slot's tasks did so far
		// (ops, CPU time, waiting, migrations) stays, summed per slot.
		keep := *t
		rr, wakers := t.rr, t.wakers[:0]
		clear(rr)
		*t = Task{id: keep.id, info: keep.info, rr: rr, wakers: wakers, life: keep.life + 1, timerGen: keep.timerGen + 1,
			ops: keep.ops, cpuTime: keep.cpuTime, waitTime: keep.waitTime, migrations: keep.migrations,
			exitTime: keep.exitTime}
		s.initTask(t)
		return t
	}
	t := s.newSlot(gi)
	s.q.grow(len(s.tasks))
	return t
}

// notifyParent mirrors do_notify_parent() for the exiting forked task p,
// still running on rq: its parent has one child less, and if that was the
// last one it waited for, __wake_up_parent() wakes it (a WF_SYNC wake-up
// by the exiting child, from its CPU).
func (s *Sim) notifyParent(rq *RQ, p *Task) {
	par := s.tasks[p.parent]
	if par.life != p.parentLife || par.state == TaskExited {
		return // an orphan: nobody waits for it
	}
	par.nrChildren--
	if par.nrChildren == 0 && par.waitChild && par.state == TaskBlocked {
		par.waitChild = false
		par.waiting = true                  // what try_to_wake_up() ends
		s.tryToWakeUp(par, p, rq.cpu, true) // its search cost dies with the child
	}
}

// reap ends an exited task's part: its lifetime is recorded, and a forked
// task's slot becomes free.
func (s *Sim) reap(rq *RQ, p *Task) {
	s.live--
	s.m.exits++
	s.m.lastExit = s.now
	p.exitTime = s.now
	s.m.lifetime.add(s.now - p.forkTime)
	if p.parent >= 0 {
		s.freeSlots[p.info.Group] = append(s.freeSlots[p.info.Group], p.id)
	}
}

// schedExec mirrors sched_exec() of kernel/sched/core.c: "execve() is a
// valuable balancing opportunity, because at this point the task has the
// smallest effective memory and cache footprint". v3.8 calls
// select_task_rq(p, SD_BALANCE_EXEC, 0), v6.17 select_task_rq(p,
// task_cpu(p), WF_EXEC); neither tests nr_running first (2.6.8's
// sched_balance_exec() did, seed 004). If the CPU is not this one, the
// stopper moves p there (stop_one_cpu(migration_cpu_stop)). It reports
// whether p moved.
//
// The new program image has no cache footprint yet: wherever it runs next
// pays no cache-cold refill, not even on a core that flushed its caches
// before it got there (flushSeen is noFlushSeen until it runs), and its
// memory is first touched where it lands (lastRanCPU is that CPU), which
// is why exec is the cheap moment to cross a node (seed 004:
// sched_balance_exec()).
func (s *Sim) schedExec(rq *RQ, p *Task) bool {
	s.m.execs++
	dest, d := s.selectTaskRQ(p, rq.cpu, rq.cpu, false, nil, SDBalanceExec)
	s.m.searchCost += d.Cost
	if dest == rq.cpu || !p.allowed.Has(dest) {
		p.lastRanCPU = rq.cpu
		p.homeNode = s.topo.CPU[rq.cpu].Node // the new image is first touched here (numa_cost.go)
		p.remaining += d.Cost
		return false
	}
	// The stopper preempts p and moves it (as active balancing does).
	s.putPrev(rq)
	rq.gen++
	s.markResched(rq)
	s.dequeueEntity(rq, p, deqMigrating)
	p.state = TaskWaking
	s.era.track.balanceMigrate(p)
	p.cpu = dest
	p.lastRanCPU = dest
	p.flushSeen = noFlushSeen          // a flush of dest's core before it runs empties nothing of it
	p.homeNode = s.topo.CPU[dest].Node // the new image is first touched where it lands (numa_cost.go)
	p.remaining += d.Cost
	s.countMigration(p, rq.cpu, dest, CauseExec)
	s.emit(&Event{Kind: EvMigrate, Cause: CauseExec, CPU: int16(dest), From: int16(rq.cpu), Task: p.id, Arg: -1, Level: d.Level, Why: d.Seq})
	s.activate(s.cpus[dest], p, enqMigrated)
	return true
}
