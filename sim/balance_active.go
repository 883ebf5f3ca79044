package sim

// Active balancing: when balancing keeps failing because the only movable
// task is running, the stopper on the busiest CPU pushes it
// (need_active_balance(), active_load_balance_cpu_stop()).

// needActiveBalance617 mirrors need_active_balance(): v6.17 pushes a
// running task only for migrate_task after cache_nice_tries+2 failures.
func needActiveBalance617(env *lbEnv) bool {
	return env.mtype == migrateTask && env.sd.NrBalanceFailed > env.sd.CacheNiceTries+2
}

// needActiveBalance38 mirrors 3.8 need_active_balance(): after
// cache_nice_tries+2 failures, whatever the imbalance.
func needActiveBalance38(env *lbEnv) bool {
	return env.sd.NrBalanceFailed > env.sd.CacheNiceTries+2
}

// activeBalance handles evActiveBalance: the stopper on the busiest CPU
// preempts its task and pushes one task to the idle CPU
// (active_load_balance_cpu_stop() -> detach_one_task()).
func (s *Sim) activeBalance(busiest *RQ, target int) {
	busiest.activeBalance = false
	dst := s.cpus[target]
	if busiest.nrRunning <= 1 && busiest.curr == nil {
		return
	}
	var sd *SchedDomain
	for _, t := range dst.domains {
		if t.Span.Has(busiest.cpu) {
			sd = t
			break
		}
	}
	if sd == nil {
		return
	}
	sd.Stats.ALBCount++
	// The stopper preempts the running task: put it back in the tree.
	if busiest.curr != nil {
		s.putPrev(busiest)
		busiest.gen++
		s.markResched(busiest)
	}
	env := &s.albEnv // in Sim, as loadBalance's
	*env = lbEnv{sd: sd, dstCPU: target, dstRQ: dst, srcCPU: busiest.cpu, srcRQ: busiest, idle: cpuIdle,
		cpus: sd.Span, flags: lbfActiveLB, cause: CauseActive, moved: s.movedBuf[:0]}
	env.d = s.newDecision("active_load_balance_cpu_stop", nil, target)
	env.d.Level = int8(sd.Level)
	env.d.Target = int16(busiest.cpu)
	for _, p := range s.cfsTasksLRU(busiest) {
		if ok, _ := s.canMigrateTask(p, env); ok {
			env.d.Reason = "pushed a task"
			s.detachTask(env, p)
			s.attachTasks(env)
			sd.Stats.ALBPushed++
			return
		}
	}
	sd.Stats.ALBFailed++
}
