package sim

// The v2.6.8 load balancer: Nick Piggin's first sched domains (2.6.7/2.6.8
// kernel/sched.c; docs/era-2.6.8.md): rebalance_tick() on every CPU at every
// tick, load_balance() / load_balance_newidle() with find_busiest_group()
// (imbalance counted in tasks, the "pwr_move" eighth-of-a-CPU rule),
// find_busiest_queue(), move_tasks() from the expired array first and the
// tail of each list, can_migrate_task() with cache_hot_time, and
// active_load_balance(). Load is nr_running * SCHED_LOAD_SCALE, smoothed in
// cpu_load by rebalance_tick().

// cpuLoadTick268 mirrors rebalance_tick()'s "Update our load":
// cpu_load = (cpu_load + nr_running*SCHED_LOAD_SCALE) / 2, every tick.
func (s *Sim) cpuLoadTick268(rq *RQ, load uint64) {
	rq.cpuLoad[0] = (rq.cpuLoad[0] + load) / 2
}

// sourceLoad268 mirrors 2.6.8 source_load(): min(cpu_load, now).
func (s *Sim) sourceLoad268(cpu int) int64 {
	rq := s.cpus[cpu]
	return int64(min(rq.cpuLoad[0], uint64(rq.nrRunning)*schedLoadScale26))
}

// targetLoad268 mirrors 2.6.8 target_load(): max(cpu_load, now).
func (s *Sim) targetLoad268(cpu int) int64 {
	rq := s.cpus[cpu]
	return int64(max(rq.cpuLoad[0], uint64(rq.nrRunning)*schedLoadScale26))
}

// groupPower268 is a group's cpu_power: SCHED_LOAD_SCALE per CPU.
func groupPower268(g *SchedGroup) int64 { return int64(g.Weight) * schedLoadScale26 }

// taskHot268 mirrors task_hot(p, rq->timestamp_last_tick, sd).
func (s *Sim) taskHot268(p *Task, sd *SchedDomain) bool {
	return s.lastTickTime()-p.o1.timestamp < sd.CacheHotTime
}

// rebalanceTick268 mirrors rebalance_tick(): every domain whose interval
// (balance_interval ms, times busy_factor when not idle, at least one
// jiffy) has passed since last_balance is balanced; a pull makes the rest
// of the walk NOT_IDLE. CPUs are staggered by CPU_OFFSET(cpu) = HZ*cpu/
// NR_CPUS (NR_CPUS taken as the machine's CPU count).
func (s *Sim) rebalanceTick268(rq *RQ, idle int) {
	hz := int64(s.cfg.Machine.HZ)
	j := s.jiffies() + hz*int64(rq.cpu)/int64(s.topo.NCPU)
	cont := true
	for _, sd := range rq.domains {
		iv := sd.BalanceInterval
		if idle != cpuIdle {
			iv *= int64(sd.BusyFactor)
		}
		iv = iv * hz / 1000 // MSEC_TO_JIFFIES
		if iv <= 0 {
			iv = 1
		}
		if j-sd.LastBalance >= iv {
			if s.loadBalance(rq, sd, idle, &cont) > 0 {
				idle = cpuNotIdle
			}
			sd.LastBalance += iv
		}
	}
}

// lbGroup268 is what find_busiest_group() keeps of a group.
type lbGroup268 struct {
	g     *SchedGroup
	load  int64 // avg_load: the summed load scaled by SCHED_LOAD_SCALE / cpu_power
	power int64
}

// findBusiestGroup268 mirrors 2.6.8 find_busiest_group(): it returns the
// busiest group and the imbalance in tasks, or nil.
func (s *Sim) findBusiestGroup268(env *lbEnv) (*SchedGroup, int64) {
	var this, busiest lbGroup268
	var maxLoad, thisLoad, totalLoad, totalPwr int64
	for _, g := range env.sd.Groups {
		env.d.NGroups++
		local := g.Span.Has(env.dstCPU)
		var load int64
		for c := g.Span.First(); c >= 0; c = g.Span.Next(c) {
			if s.recording {
				env.d.Examined.Set(c)
			}
			env.d.NCPUs++
			env.d.Cost += s.costs.BalanceCPU
			if local {
				load += s.targetLoad268(c)
			} else {
				load += s.sourceLoad268(c)
			}
		}
		pwr := groupPower268(g)
		totalLoad += load
		totalPwr += pwr
		avg := load * schedLoadScale26 / pwr
		if local {
			thisLoad = avg
			this = lbGroup268{g, avg, pwr}
		} else if avg > maxLoad {
			maxLoad = avg
			busiest = lbGroup268{g, avg, pwr}
		}
	}
	env.d.add("this_load", thisLoad)
	env.d.add("max_load", maxLoad)
	imb, ok := imbalance268(env.sd.ImbalancePct, thisLoad, maxLoad, totalLoad, totalPwr, this.power, busiest.power, busiest.g != nil)
	if ok {
		env.d.add("imbalance", imb)
		return busiest.g, imb
	}
	// out_balanced: an idle CPU still takes one task from a group holding
	// more than one CPU's worth of load.
	if busiest.g != nil && env.idle != cpuNotIdle && maxLoad > schedLoadScale26 {
		env.d.Reason = "balanced, but idle and the busiest group has more than a CPU's load"
		return busiest.g, 1
	}
	return nil, 0
}

// imbalance268 is the arithmetic of 2.6.8 find_busiest_group() once the
// groups are summed: whether to balance and how many tasks to move.
func imbalance268(pct int, thisLoad, maxLoad, totalLoad, totalPwr, thisPwr, busiestPwr int64, haveBusiest bool) (int64, bool) {
	const scale = schedLoadScale26
	if !haveBusiest || thisLoad >= maxLoad {
		return 0, false
	}
	avgLoad := scale * totalLoad / totalPwr
	if thisLoad >= avgLoad || 100*maxLoad <= int64(pct)*thisLoad {
		return 0, false
	}
	imb := min(maxLoad-avgLoad, avgLoad-thisLoad)
	imb = imb * min(busiestPwr, thisPwr) / scale
	if imb < scale-1 {
		if maxLoad-thisLoad >= scale*2 {
			return 1, true
		}
		// "we may be able to increase total CPU power used by moving them"
		pwrNow := busiestPwr*min(scale, maxLoad) + thisPwr*min(scale, thisLoad)
		pwrNow /= scale
		var pwrMove int64
		tmp := scale * scale / busiestPwr
		if maxLoad > tmp {
			pwrMove += busiestPwr * min(scale, maxLoad-tmp)
		}
		tmp = scale * scale / thisPwr
		if maxLoad < tmp {
			tmp = maxLoad
		}
		pwrMove += thisPwr * min(scale, thisLoad+tmp)
		pwrMove /= scale
		if pwrMove < pwrNow+scale/8 {
			return 0, false
		}
		return 1, true
	}
	return (imb + 1) / scale, true
}

// findBusiestQueue268 mirrors find_busiest_queue(): the highest
// source_load() of the group.
func (s *Sim) findBusiestQueue268(g *SchedGroup) *RQ {
	var busiest *RQ
	var maxLoad int64
	for c := g.Span.First(); c >= 0; c = g.Span.Next(c) {
		if l := s.sourceLoad268(c); l > maxLoad {
			maxLoad, busiest = l, s.cpus[c]
		}
	}
	return busiest
}

// canMigrate268 mirrors 2.6.8 can_migrate_task(): not running, allowed on
// this CPU, and — when newly idle or while nr_balance_failed <
// cache_nice_tries — not cache-hot.
func (s *Sim) canMigrate268(p *Task, env *lbEnv) bool {
	if env.srcRQ.curr == p || !p.allowed.Has(env.dstCPU) {
		return false
	}
	if env.idle == cpuNewlyIdle || env.sd.NrBalanceFailed < env.sd.CacheNiceTries {
		if s.taskHot268(p, env.sd) {
			return false
		}
	}
	return true
}

// moveTasks268 mirrors 2.6.8 move_tasks(): up to max tasks from the
// busiest runqueue, the expired array first (O(1)), priority 0 upwards,
// each list from its tail; pull_task() for each (detach, then attach with
// the array kind kept and TASK_PREEMPTS_CURR checked).
func (s *Sim) moveTasks268(env *lbEnv, max int64) int {
	busiest := env.srcRQ
	if max <= 0 || busiest.nrRunning <= 1 {
		return 0
	}
	order := [2]int{busiest.o1.active, 1 - busiest.o1.active}
	if busiest.o1.arrays[order[1]].nr > 0 {
		order[0], order[1] = order[1], order[0]
	}
	stats := &env.sd.Stats.LB[env.idle]
	var pulled int64
	for _, arr := range order {
		a := &busiest.o1.arrays[arr]
		for prio := 0; prio < o1MaxPrio && pulled < max; prio++ {
			if len(a.queue[prio]) == 0 {
				continue
			}
			cands := append(s.candBuf[:0], a.queue[prio]...)
			s.candBuf = cands
			for i := len(cands) - 1; i >= 0 && pulled < max; i-- {
				p := cands[i]
				if !s.canMigrate268(p, env) {
					continue
				}
				if s.taskHot268(p, env.sd) {
					stats.HotGained++
				}
				env.dstRQ.o1.ptGained[env.idle]++
				busiest.o1.ptLost[env.idle]++
				s.detachTask(env, p)
				pulled++
			}
		}
	}
	if pulled > 0 {
		s.attachTasks(env)
	}
	stats.Gained += pulled
	return int(pulled)
}

// loadBalance268 mirrors 2.6.8 load_balance() and, for a newly idle CPU,
// load_balance_newidle() (no failure count, no interval change).
func loadBalance268(s *Sim, env *lbEnv) int {
	sd, dst, idle := env.sd, env.dstRQ, env.idle
	stats := &sd.Stats.LB[idle]
	stats.Count++
	g, imb := s.findBusiestGroup268(env)
	if g == nil {
		stats.NoBusyG++
		if env.d.Reason == "" {
			env.d.Reason = "balanced"
		}
		return s.lbBalanced268(env)
	}
	busiest := s.findBusiestQueue268(g)
	if busiest == nil || busiest == dst {
		stats.NoBusyQ++
		env.d.Reason = "no busiest runqueue"
		return s.lbBalanced268(env)
	}
	env.imbalance = imb
	stats.Imbalance += imb
	env.srcCPU, env.srcRQ = busiest.cpu, busiest
	env.d.Target = int16(busiest.cpu)
	moved := 0
	if busiest.nrRunning > 1 || idle == cpuNewlyIdle {
		moved = s.moveTasks268(env, imb)
	}
	if moved == 0 {
		stats.Failed++
		env.d.Reason = "nothing could move"
	} else {
		env.d.Reason = "moved tasks"
	}
	if idle != cpuNewlyIdle {
		if moved == 0 {
			sd.NrBalanceFailed++
			if sd.NrBalanceFailed > sd.CacheNiceTries+2 {
				if !busiest.activeBalance {
					busiest.activeBalance = true
					env.d.Reason = "active balance: wake the busiest CPU's migration thread"
					s.q.push(qev{t: s.now + s.costs.WakeupIPI, kind: evActiveBalance, cpu: int32(busiest.cpu), task: int32(dst.cpu)})
				}
				sd.NrBalanceFailed = sd.CacheNiceTries
			}
		} else {
			sd.NrBalanceFailed = 0
		}
		sd.BalanceInterval = sd.MinInterval
	}
	env.d.add("moved", int64(moved))
	s.chargeBalanceCost(dst, env.d.Cost)
	s.emit(&Event{Kind: EvBalance, Cause: env.cause, CPU: int16(dst.cpu), From: int16(env.srcCPU), Task: -1, Arg: int32(moved), Level: int8(sd.Level), Why: env.d.Seq})
	return moved
}

// lbBalanced268 is load_balance()'s out_balanced: the interval doubles up
// to max_interval (not for newly idle balancing).
func (s *Sim) lbBalanced268(env *lbEnv) int {
	sd := env.sd
	sd.Stats.LB[env.idle].Balanced++
	if env.idle != cpuNewlyIdle && sd.BalanceInterval < sd.MaxInterval {
		sd.BalanceInterval *= 2
	}
	s.chargeBalanceCost(env.dstRQ, env.d.Cost)
	return 0
}

// activeBalance268 mirrors 2.6.8 active_load_balance() run by the busiest
// CPU's migration thread: the thread preempts the running task, then for
// each other group of the lowest domain spanning push_cpu whose CPUs are
// all idle, one task moves to the group's last CPU (move_tasks(.., 1, IDLE)).
func (s *Sim) activeBalance268(busiest *RQ, pushCPU int) {
	busiest.activeBalance = false
	busiest.o1.albCnt++
	if busiest.nrRunning <= 1 {
		return
	}
	var sd *SchedDomain
	for _, t := range busiest.domains {
		if t.Span.Has(pushCPU) {
			sd = t
			break
		}
	}
	if sd == nil {
		return
	}
	sd.Stats.ALBCount++
	if busiest.curr != nil { // the migration thread runs: curr is queued again
		s.putPrev(busiest)
		busiest.gen++
		s.markResched(busiest)
	}
	for _, g := range sd.Groups {
		if g.Span.Has(busiest.cpu) {
			continue
		}
		push := -1
		for c := g.Span.First(); c >= 0; c = g.Span.Next(c) {
			if !s.idleCPU(c) {
				push = -1
				break
			}
			push = c
		}
		if push < 0 {
			continue
		}
		dst := s.cpus[push]
		env := &lbEnv{sd: sd, dstCPU: push, dstRQ: dst, srcCPU: busiest.cpu, srcRQ: busiest, idle: cpuIdle,
			cpus: sd.Span, cause: CauseActive, moved: s.movedBuf[:0]}
		env.d = s.newDecision("active_load_balance", nil, push)
		env.d.Level = int8(sd.Level)
		env.d.Target = int16(busiest.cpu)
		if s.moveTasks268(env, 1) > 0 {
			env.d.Reason = "pushed a task to an idle group"
			sd.Stats.ALBPushed++
			busiest.o1.albLost++
			dst.o1.albGained++
		} else {
			env.d.Reason = "nothing could move"
			sd.Stats.ALBFailed++
			busiest.o1.albFailed++
		}
	}
}
