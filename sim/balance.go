package sim

// One load-balancing pass, and the machinery both eras' passes share: struct
// lb_env, should_we_balance(), can_migrate_task() with its numbered rules,
// detach/attach of the moved tasks, and v6.17 sched_balance_rq() itself
// (3.8's load_balance() is in balance38.go). The era chooses the pass
// (era.loadBalance). Where passes are started from: balance_periodic.go
// (the tick), balance_newidle.go, balance_nohz.go; the statistics they read:
// balance_stats.go; the stopper that pushes a running task:
// balance_active.go.

// lbEnv is struct lb_env.
type lbEnv struct {
	sd        *SchedDomain
	dstCPU    int
	dstRQ     *RQ
	srcCPU    int
	srcRQ     *RQ
	idle      int
	imbalance int64
	cpus      CPUMask
	flags     int
	loop      int
	loopMax   int
	newDstCPU int
	mtype     migrationType
	cause     Cause
	d         *Decision
	moved     []*Task
	stop      bool // should_we_balance() said no: stop climbing the domains
}

// LBF_* flags.
const (
	lbfAllPinned = 1 << iota
	lbfNeedBreak
	lbfDstPinned
	lbfSomePinned
	lbfActiveLB
)

const schedNrMigrate = 32 // sysctl_sched_nr_migrate

// shouldWeBalance mirrors should_we_balance(): only one CPU of a group
// balances it: the first idle CPU (on an idle core, above SMT), else the
// group's first CPU. Newidle balancing always may.
func (s *Sim) shouldWeBalance(env *lbEnv) bool {
	if env.idle == cpuNewlyIdle {
		return env.dstRQ.nrRunning == 0 && env.dstRQ.ttwuPending == 0
	}
	sg := env.sd.Groups[0]
	swb := sg.Span.And(&env.cpus)
	idleSMT := -1
	for c := swb.First(); c >= 0; c = swb.Next(c) {
		if !s.idleCPU(c) {
			continue
		}
		if env.sd.Flags&SDShareCPUCapacity == 0 && !s.isCoreIdle(c) {
			if idleSMT == -1 {
				idleSMT = c
			}
			swb = swb.AndNot(&s.topo.SMT[c])
			continue
		}
		return c == env.dstCPU
	}
	if idleSMT != -1 {
		return idleSMT == env.dstCPU
	}
	return sg.First == env.dstCPU
}

func (s *Sim) isCoreIdle(cpu int) bool {
	smt := &s.topo.SMT[cpu]
	for c := smt.First(); c >= 0; c = smt.Next(c) {
		if c != cpu && !s.idleCPU(c) {
			return false
		}
	}
	return true
}

// taskHot mirrors task_hot(): ran within sysctl_sched_migration_cost.
//
// v3.8 (fair.c:3842-3867): no SMT exemption; CACHE_HOT_BUDDY (on in 3.8's
// features.h): "Buddy candidates are cache hot" when the balancing CPU has
// tasks (this_rq()->nr_running) and p is its runqueue's next or last buddy
// (only the 3.8 class sets buddies); sysctl_sched_migration_cost -1 is
// always hot (MigrationCostAlwaysHot), 0 never. v6.17: a domain whose CPUs
// share capacity (SMT) never sees a hot task.
func (s *Sim) taskHot(p *Task, env *lbEnv) bool {
	if s.era.hotSMTExempt && env.sd.Flags&SDShareCPUCapacity != 0 {
		return false
	}
	if src := env.srcRQ; src != nil && (p == src.nextBuddy || p == src.lastBuddy) && env.dstRQ.nrRunning > 0 {
		return true
	}
	if s.migrationAlwaysHot {
		return true
	}
	if s.migrationCost == 0 {
		return false
	}
	return s.now-p.execStart < s.migrationCost
}

// canMigrateTask mirrors can_migrate_task() of both eras: the kernel's
// numbered rules, in its order, with the rules only one era has supplied by
// the era (migrateEligible, migratePinned). It reports (ok, hot).
func (s *Sim) canMigrateTask(p *Task, env *lbEnv) (bool, bool) {
	// v6.17: "We do not migrate tasks that are:
	//  1) delayed dequeued unless we migrate load, or
	//  2) throttled_lb_pair, or
	//  3) cannot be migrated to this CPU due to cpus_ptr, or
	//  4) running (obviously), or
	//  5) are cache-hot on their current CPU."
	// v3.8 has the same list without 1), numbered 1) … 4), cpus_allowed for
	// cpus_ptr. 1) "if ((p->se.sched_delayed) && (env->migration_type !=
	// migrate_load)) return 0;": a sched_delayed task (DELAY_DEQUEUE, blocked
	// but still queued with its weight) moves only with the load it is part
	// of, and arrives still delayed (detachTask, attachTasks). 2) is not
	// modelled (no bandwidth control). Ahead of 3), v6.17 tests commit
	// 873199d27bb2's eligibility rule (ELIGIBLE_FIRST); 3.8 has none. Active
	// balancing skips 5).
	if p.delayed && env.mtype != migrateLoad {
		return false, false
	}
	if !s.era.migrateEligible(s, p, env) {
		return false, false
	}
	// 3) cannot be migrated to this CPU due to cpus_ptr.
	if !p.allowed.Has(env.dstCPU) {
		s.era.migratePinned(p, env)
		return false, false
	}
	// "Record that we found at least one task that could run on dst_cpu."
	env.flags &^= lbfAllPinned
	// 4) running (obviously).
	if env.srcRQ.curr == p {
		return false, false
	}
	if env.flags&lbfActiveLB != 0 {
		return true, false
	}
	// 5) cache-hot on its current CPU, unless balancing keeps failing.
	hot := s.taskHot(p, env)
	if !hot || env.sd.NrBalanceFailed > env.sd.CacheNiceTries {
		return true, hot
	}
	return false, true
}

// migrateEligible617 is commit 873199d27bb2 ("Prioritize migrating eligible
// tasks in sched_balance_rq()", ELIGIBLE_FIRST): while no balance of the
// domain has failed, a task that is not eligible on its runqueue does not
// move to a CPU that has tasks (with PLACE_LAG it would arrive ineligible).
func migrateEligible617(s *Sim, p *Task, env *lbEnv) bool {
	return !(s.feature(FeatEligibleFirst) && env.sd.NrBalanceFailed == 0 &&
		s.feature(FeatPlaceLag) && env.dstRQ.nrRunning > 0 && !env.srcRQ.entityEligible(p))
}

// migratePinned617 is v6.17's rule 3): note LBF_SOME_PINNED and, unless
// newly idle, active or already redirected, another CPU of dst's group p may
// run on (LBF_DST_PINNED, new_dst_cpu).
func migratePinned617(p *Task, env *lbEnv) {
	env.flags |= lbfSomePinned
	if env.idle == cpuNewlyIdle || env.flags&(lbfDstPinned|lbfActiveLB) != 0 {
		return
	}
	m := env.sd.Groups[0].Span.And(&env.cpus)
	m = m.And(&p.allowed)
	if c := m.First(); c >= 0 {
		env.flags |= lbfDstPinned
		env.newDstCPU = c
	}
}

// migratePinned38 is 3.8's rule 2): the first time, another CPU of dst's
// group p may run on (LBF_SOME_PINNED, new_dst_cpu).
func migratePinned38(p *Task, env *lbEnv) {
	if env.flags&lbfSomePinned != 0 {
		return
	}
	m := env.sd.Groups[0].Span.And(&p.allowed)
	if c := m.First(); c >= 0 {
		env.flags |= lbfSomePinned
		env.newDstCPU = c
	}
}

// cfsTasksLRU returns src's tasks in the order detach_tasks() walks
// rq->cfs_tasks: from the tail. Tasks join the head when enqueued
// (account_entity_enqueue()) and move to the head when picked
// (pick_next_task_fair()), so the tail is the task that has waited longest
// since it was queued or last chosen.
func (s *Sim) cfsTasksLRU(rq *RQ) []*Task {
	out := s.lruBuf[:0]
	out = append(out, rq.queue...)
	if rq.curr != nil && rq.curr.onRq {
		out = append(out, rq.curr)
	}
	for i := 1; i < len(out); i++ { // small lists: insertion sort by list position
		for j := i; j > 0 && out[j].listPos < out[j-1].listPos; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	s.lruBuf = out
	return out
}

// detachTasks mirrors detach_tasks(); detached tasks land in env.moved.
func (s *Sim) detachTasks(env *lbEnv) int {
	src := env.srcRQ
	if src.nrRunning <= 1 {
		env.flags &^= lbfAllPinned
		return 0
	}
	if env.imbalance <= 0 {
		return 0
	}
	detached := 0
	stats := &env.sd.Stats.LB[env.idle]
	// A stable copy: detaching edits src's queue.
	s.candBuf = append(s.candBuf[:0], s.cfsTasksLRU(src)...)
	for _, p := range s.candBuf {
		if env.idle != cpuNotIdle && src.nrRunning <= 1 {
			break
		}
		env.loop++
		if env.loop > env.loopMax {
			break
		}
		ok, hot := s.canMigrateTask(p, env)
		if !ok {
			continue
		}
		switch env.mtype {
		case migrateLoad:
			load := max(int64(s.taskLoad(p)), 1)
			if shrBound(load, env.sd.NrBalanceFailed) > env.imbalance {
				continue
			}
			env.imbalance -= load
		case migrateUtil:
			u := int64(max(p.avg.UtilAvg, p.avg.UtilEst))
			if shrBound(u, env.sd.NrBalanceFailed) > env.imbalance {
				continue
			}
			env.imbalance -= u
		case migrateTask:
			env.imbalance--
		}
		s.detachTask(env, p)
		if hot {
			stats.HotGained++
		}
		detached++
		if env.idle == cpuNewlyIdle && s.feature(FeatNewidlePullOne) {
			break // CONFIG_PREEMPTION: newidle stops after the first task
		}
		if env.imbalance <= 0 {
			break
		}
	}
	stats.Gained += int64(detached)
	return detached
}

func shrBound(v int64, n int) int64 {
	if n >= 63 {
		return 0
	}
	return v >> uint(n)
}

// detachTask mirrors detach_task(): dequeue from src (a migrating dequeue).
// A sched_delayed task stays blocked and sched_delayed: only DEQUEUE_DELAYED
// completes its dequeue (v6.17 dequeue_entity(),
// finish_delayed_dequeue_entity()).
func (s *Sim) detachTask(env *lbEnv, p *Task) {
	s.era.detachAccount(s, env, p)
	s.dequeueEntity(env.srcRQ, p, deqMigrating)
	if !p.delayed {
		p.state = TaskWaking
	}
	env.moved = append(env.moved, p)
}

// detachAccount617 counts a task moved with negative lag onto a CPU that
// has tasks: with PLACE_LAG it arrives just as ineligible (seed 001's case).
func detachAccount617(s *Sim, env *lbEnv, p *Task) {
	if env.dstRQ.nrRunning > 0 && !env.srcRQ.entityEligible(p) {
		s.m.migIneligible++
		if env.sd.NrBalanceFailed == 0 {
			s.m.migIneligibleFirst++
		}
	}
}

// attachTasks mirrors attach_tasks(): enqueue on dst, with the migration
// accounted and explained. A sched_delayed task is enqueued as it left, on
// dst's tree with its weight and out of h_nr_runnable (v6.17
// enqueue_task_fair(): "if (task_new && se->sched_delayed) h_nr_runnable =
// 0"; no util_est_enqueue()); attach_task()'s wakeup_preempt() follows as
// for any task, and whichever CPU picks it completes its dequeue.
func (s *Sim) attachTasks(env *lbEnv) {
	for _, p := range env.moved {
		from := p.cpu
		s.era.track.balanceMigrate(p)
		p.cpu = env.dstCPU
		p.migratedAt = s.now
		s.countMigration(p, from, env.dstCPU, env.cause)
		s.emit(&Event{Kind: EvMigrate, Cause: env.cause, CPU: int16(env.dstCPU), From: int16(from), Task: p.id, Arg: -1, Level: int8(env.sd.Level), Why: env.d.Seq})
		s.activate(env.dstRQ, p, enqMigrated)
	}
	env.moved = env.moved[:0]
	s.movedBuf = env.moved
}

// Decision names per idle type, built once (the balancer runs every tick).
var loadBalanceNames617, loadBalanceNames38 [numIdleTypes]string

func init() {
	for i, n := range idleTypeNames {
		loadBalanceNames617[i] = "sched_balance_rq(" + n + ")"
		loadBalanceNames38[i] = "load_balance(" + n + ")"
	}
}

// loadBalance is one balancing pass of domain sd on behalf of dst, by the
// era's load_balance(). It returns the number of tasks moved.
func (s *Sim) loadBalance(dst *RQ, sd *SchedDomain, idle int, cont *bool) int {
	cause := CauseBalance
	if idle == cpuNewlyIdle {
		cause = CauseNewidle
	} else if idle == cpuIdle && s.nohzBalancing {
		cause = CauseNohz
	}
	// The env lives in Sim, not on the stack: passing it to the era's
	// functions would otherwise make every pass allocate it. Passes never
	// nest (attaching tasks only marks CPUs for rescheduling).
	env := &s.lbEnv
	*env = lbEnv{sd: sd, dstCPU: dst.cpu, dstRQ: dst, idle: idle, cpus: sd.Span, cause: cause, moved: s.movedBuf[:0]}
	env.d = s.newDecision(s.era.lbNames[idle], nil, dst.cpu)
	env.d.Level = int8(sd.Level)
	moved := s.era.loadBalance(s, env)
	if env.stop {
		*cont = false
	}
	return moved
}

// loadBalance617 mirrors sched_balance_rq() (v6.17).
func loadBalance617(s *Sim, env *lbEnv) int {
	sd, dst, idle, cause := env.sd, env.dstRQ, env.idle, env.cause
	stats := &sd.Stats.LB[idle]
	stats.Count++
	moved := 0
	activeBalance := false
	var busiest *RQ
	for redo := 0; ; redo++ {
		if !s.shouldWeBalance(env) {
			env.stop = true
			env.d.Reason = "another CPU of the group balances it"
			return s.lbBalanced(env, false)
		}
		g := s.findBusiestGroup(env)
		if g == nil {
			stats.NoBusyG++
			return s.lbBalanced(env, false)
		}
		busiest = s.findBusiestQueue(env, g)
		if busiest == nil {
			stats.NoBusyQ++
			env.d.Reason = "no busiest runqueue"
			return s.lbBalanced(env, false)
		}
		stats.Imbalance += env.imbalance
		switch env.mtype {
		case migrateLoad:
			stats.ImbLoad += env.imbalance
		case migrateUtil:
			stats.ImbUtil += env.imbalance
		case migrateTask:
			stats.ImbTask += env.imbalance
		}
		env.srcCPU, env.srcRQ = busiest.cpu, busiest
		env.d.Target = int16(busiest.cpu)
		env.flags |= lbfAllPinned
		if busiest.nrRunning > 1 {
			env.loopMax = min(schedNrMigrate, busiest.nrRunning)
			for {
				n := s.detachTasks(env)
				if n > 0 {
					s.attachTasks(env)
					moved += n
				}
				if env.flags&lbfDstPinned != 0 && env.imbalance > 0 {
					env.cpus.Clear(env.dstCPU)
					env.dstRQ = s.cpus[env.newDstCPU]
					env.dstCPU = env.newDstCPU
					env.flags &^= lbfDstPinned
					env.loop = 0
					continue
				}
				break
			}
			if sd.Parent != nil && env.flags&lbfSomePinned != 0 && env.imbalance > 0 {
				sd.Parent.Groups[0].Imbalance = true
			}
			if env.flags&lbfAllPinned != 0 {
				env.cpus.Clear(busiest.cpu)
				gm := sd.Groups[0].Span
				if !env.cpus.SubsetOf(&gm) && redo < MaxCPUs {
					env.loop = 0
					continue
				}
				stats.Balanced++
				sd.NrBalanceFailed = 0
				env.d.Reason = "all tasks pinned"
				s.lbTuneInterval(env, true)
				return 0
			}
		}
		break
	}
	if moved == 0 {
		stats.Failed++
		if idle != cpuNewlyIdle {
			sd.NrBalanceFailed++
		}
		env.d.Reason = "nothing could move"
		if s.era.needActiveBalance(env) {
			if busiest.curr != nil && busiest.curr.allowed.Has(dst.cpu) && !busiest.activeBalance {
				busiest.activeBalance = true
				activeBalance = true
				env.d.Reason = "active balance: push the running task"
				s.m.cost.ipi += s.costs.WakeupIPI
				s.q.push(qev{t: s.now + s.costs.WakeupIPI, kind: evActiveBalance, cpu: int32(busiest.cpu), task: int32(dst.cpu)})
			}
		}
	} else {
		sd.NrBalanceFailed = 0
		env.d.Reason = "moved tasks"
	}
	if !activeBalance || s.era.needActiveBalance(env) {
		sd.BalanceInterval = sd.MinInterval
	}
	env.d.add("moved", int64(moved))
	s.chargeBalanceCost(dst, env.d.Cost)
	s.emit(&Event{Kind: EvBalance, Cause: cause, CPU: int16(dst.cpu), From: int16(env.srcCPU), Task: -1, Arg: int32(moved), Level: int8(sd.Level), Why: env.d.Seq})
	return moved
}

// lbBalanced is the out_balanced tail of sched_balance_rq().
func (s *Sim) lbBalanced(env *lbEnv, allPinned bool) int {
	sd := env.sd
	if sd.Parent != nil && env.flags&lbfAllPinned == 0 {
		sd.Parent.Groups[0].Imbalance = false
	}
	sd.Stats.LB[env.idle].Balanced++
	sd.NrBalanceFailed = 0
	s.lbTuneInterval(env, allPinned)
	s.chargeBalanceCost(env.dstRQ, env.d.Cost)
	return 0
}

// lbTuneInterval doubles balance_interval after a balanced pass (not for
// newidle).
func (s *Sim) lbTuneInterval(env *lbEnv, allPinned bool) {
	sd := env.sd
	if env.idle == cpuNewlyIdle {
		return
	}
	if (allPinned && sd.BalanceInterval < 512) || sd.BalanceInterval < sd.MaxInterval {
		sd.BalanceInterval *= 2
	}
}

// chargeBalanceCost charges the balancer's statistics reading to a busy CPU:
// the softirq steals that time from the running task.
func (s *Sim) chargeBalanceCost(rq *RQ, cost int64) {
	s.m.balanceCost += cost
	if cost <= 0 || rq.curr == nil || rq.exiting {
		return
	}
	s.chargeWork(rq)
	rq.curr.remaining += cost
	s.armRunDone(rq)
}
