package sim

// # Eras
//
// A kernel era (policy.base) is chosen once, in New, and from then on the
// simulator never asks which era it runs: the era is a value of type era
// whose function fields hold everything that differs, as etcd's raft sets
// r.step = stepLeader once instead of testing its state on every message.
// The event loop, the program interpreter, the cost model, the metrics and
// the trace are the same for every era; an era is added by writing one more
// value (and its schema and docs), not by threading a flag through them.
//
// # What an era has to say (the map drawn before the interface)
//
// The interface was drawn from three columns: the two eras modelled today
// and the third one announced by issue 17 (2.6.8: the O(1) and staircase
// runqueues, Nick Piggin's first sched-domains balancer, no PELT). The 2.6.8
// column was read from a 2.6.7/2.6.8-era kernel/sched.c (the first
// sched-domains release: rebalance_tick(), load_balance(),
// load_balance_newidle(), active_load_balance(), try_to_wake_up() with
// SD_WAKE_AFFINE/SD_WAKE_BALANCE and wake_idle(), sched_balance_exec());
// issue 17 checked each line against 2.6.8 and the staircase patch
// (docs/era-2.6.8.md) before writing the model: eraV268 in wakeup26.go.
// Corrections found: the cache-hot test applies when newly idle or while
// nr_balance_failed < cache_nice_tries (not always); active_load_balance()
// pushes only to groups whose CPUs are all idle; the schedstats are
// version 9; forked processes stay on the parent's CPU. The era needed
// five more slots, below the table: classFor (the policy chooses O(1) or
// staircase), tickIdle (no NO_HZ), noPELT, activeBalance, execPlace.
//
//	slot                v6.17                         v3.8                           2.6.8 (issue 17)
//	------------------  ----------------------------  -----------------------------  -----------------------------------
//	runqueue class      EEVDF: avg_vruntime sums      CFS: leftmost vruntime;        O(1): two 140-list priority
//	(rqClass: queue,    kept with the queue; pick_    vruntime made relative at      arrays + bitmap, pick = first bit
//	pick, enqueue,      eevdf(); update_deadline()    task_waking_fair() and a       of active, swap when empty;
//	dequeue, put/set,   in update_curr(); place_      migrating dequeue,             timeslice from static_prio;
//	update_curr, tick   entity() with PLACE_LAG;      renormalised at enqueue;       scheduler_tick() expires to the
//	and wake-up         RUN_TO_PARITY; preempt iff    sched_slice()/check_preempt_   expired array unless TASK_
//	preemption, fork,   pick_eevdf() picks the        tick(); wakeup_gran;           INTERACTIVE && !EXPIRED_STARVING,
//	task_waking, pick   wakee; vruntime absolute      START_DEBIT, GENTLE_FAIR_      TIMESLICE_GRANULARITY requeue;
//	order for the       across CPUs                   SLEEPERS                       sleep_avg/effective_prio at
//	snapshot)                                                                        activate; preempt iff p->prio <
//	                                                                                 curr->prio; fork halves the
//	                                                                                 parent's slice. Staircase: a
//	                                                                                 second value of the same slot.
//	load tracking       PELT (pelt.c) per entity      3.8 PELT (load_avg_contrib,    none: load = nr_running *
//	(loadTracker:       and cfs_rq, util_est,         runnable/blocked_load_avg,     SCHED_LOAD_SCALE, one cpu_load
//	enqueue, dequeue,   removed load, blocked decay   decay_counter) and cpu_load[]  = (old + now)/2 updated in
//	put/set, tick,      in update_blocked_averages    with decay_load_missed()       rebalance_tick(); source_load/
//	migrate, exit,      -- both trackers run in both eras so that load_metric    target_load = min/max(cpu_load,
//	blocked decay)      can pick either: one value, trackBoth                    now). A tracker whose hooks do
//	                                                                                 nothing but the tick's cpu_load.
//	wake-up placement   select_task_rq_fair():        3.8 select_task_rq_fair():     try_to_wake_up() itself: no
//	(selectTaskRQ,      record_wakee/wake_wide,       affine_sd, wake_affine()       select_task_rq; "don't pull off
//	avg_idle update     wake_affine() WA_IDLE/        with source/target_load and    an idle CPU onto a busy one",
//	at ttwu, the        WA_WEIGHT/WA_BIAS, SD_        wake_idx, select_idle_         then for_each_domain(this): SD_
//	select_idle_        BALANCE_WAKE slow path,       sibling variant (default       WAKE_AFFINE && !task_hot, or SD_
//	sibling default)    select_idle_sibling variant   v3.8), find_idlest descent,    WAKE_BALANCE && imbalance*this <=
//	                    (default SIS_UTIL); avg_idle  Preeti's merge; avg_idle set   100*load; then wake_idle() (SD_
//	                    clamped at 2*max_idle_        to its cap after a long idle   WAKE_IDLE, SMT). No SIS variants:
//	                    balance_cost                                                 the slot is empty and the schema
//	                                                                                 must refuse select_idle_sibling.
//	                                                                                 No avg_idle. Exec: sched_balance_
//	                                                                                 exec() (nr_running <= 2 / <= 1).
//	balancer            sched_balance_domains():      rebalance_domains(): stop      rebalance_tick() on every CPU at
//	(rebalance, load    should_we_balance, busy       climbing when balance == 0;    every tick (no NO_HZ: idle CPUs
//	balance pass,       interval - 1 jiffy, climb on  load_balance() over cpu_load   tick and balance as IDLE); load_
//	can_migrate_task    for blocked decay; sched_     idx, group_imb, fix_small_     balance(): imbalance in tasks,
//	rules, active       balance_rq() with group_type  imbalance, move_tasks() from   the 1/8-CPU pwr_move rule,
//	balance, newidle    and migration_type, detach_   the head of cfs_tasks;         move_tasks() from the expired
//	gate, nohz kick)    tasks() from the tail,        newidle gate avg_idle <        array first; can_migrate_task:
//	                    ELIGIBLE_FIRST; newidle gate  migration_cost; nohz kick by   1) running 2) cpus_allowed 3)
//	                    rd overload + avg_idle vs     a SHARE_PKG_RESOURCES group    cache-hot (now - timestamp <
//	                    max_newidle_lb_cost; nohz     with >1 busy CPU; active       cache_hot_time, always checked
//	                    kick by LLC nr_busy_cpus;     balance whatever the type      when newly idle); idle_balance()
//	                    active balance only for                                      without a gate; active_load_
//	                    migrate_task                                                 balance() pushes one task into
//	                                                                                 every other group whose CPUs are
//	                                                                                 all idle. No nohz.
//	domains             sd_init(): 1024 per CPU       SD_*_INIT, smt_gain 1178       SD_SIBLING/CPU/NODE_INIT with SD_
//	(sdInit, capacity)                                split over the threads         WAKE_IDLE, SD_WAKE_BALANCE and
//	                                                                                 cache_hot_time per level
//	schedstat           version 17                    version 15                     version 9 (schedstat-2.6.8.1:
//	                                                                                 pull_task, sched_balance_exec,
//	                                                                                 ttwu_wake_affine/balance)
//
// What the map asked of the interface, and got:
//
//   - The runqueue is opaque to the shared core (rqClass, in the shape of
//     struct sched_class). core.go and fair.go never read a vruntime or a
//     deadline; they ask the class to enqueue, dequeue, put the previous
//     task back, set the next one (each class queues its tasks itself),
//     pick, charge curr's run time (update_curr answers "reschedule?"),
//     check tick and wake-up preemption, prepare a forked or waking task,
//     and give the pick order the snapshot shows. The queued tasks stay in
//     RQ.queue (every era has a set of queued tasks that the balancer
//     walks); the O(1) arrays will be the class's own state beside it, as
//     the EEVDF sums are.
//   - Load tracking is its own slot (loadTracker), separate from the class,
//     called at the kernel's hook points (enqueue, dequeue, put_prev,
//     set_next, the tick and its restart after idling, wake-up and balance
//     migration, fork, exit, blocked decay): the O(1) class will run with a
//     tracker that keeps no PELT at all, only 2.6.8's single cpu_load.
//   - Placement is one function per era (select_task_rq_fair of 3.8 or
//     v6.17, try_to_wake_up's inline rules in 2.6.8), and the
//     select_idle_sibling variant is a second function chosen once in New
//     (Sim.sisVariant), not switched per wake-up.
//   - The balancer is a handful of hooks, not one: the periodic walk over
//     the domains, one balancing pass, the active-balance rule, newidle
//     balancing with its gates and the nohz kick, because 2.6.8 shares the
//     shape of each with the later eras but none of the arithmetic (and
//     has no nohz at all: its value will keep every CPU ticking, as
//     NOHZ_IDLE_BALANCE off does today).
//   - can_migrate_task() is one function with the kernel's numbered rules;
//     the rules only one era has (ELIGIBLE_FIRST in v6.17, the pinned
//     handling of each) come from the era.
//   - Per-level domain defaults and CPU capacity come from the era at build
//     time, and the era names the schedstat version it reports.
//
// Not in the era: policy switches that every era understands (the load
// metric, the select_idle_sibling variant, features) are resolved once in
// New from the era's defaults and the scenario's overrides.
//
// # Adding an era
//
// Write its value (an era literal in init below, with its rqClass and
// loadTracker), its Base constant and a case in eraFor; then the schema,
// validation and docs (package scenarios, docs/). What still knows the eras
// outside this file: eraFor's switch, the Base constants (config.go), and
// outside sim the scenario schema, cmd/wasm/pagemodel's new-task-load
// default by base, and interop's schedstat writer (versions 15 and 17 only;
// a 2004-era format needs its own writer). Nothing in the event loop.

// era is everything that differs between two kernel eras. New copies one of
// the era values below into Sim.era; nothing else in the simulator asks
// which era it runs.
type era struct {
	base Base
	name string

	// Build time: the base's defaults and the machine as that kernel sees it.
	defFeatures    uint32      // features on unless the scenario clears them
	defLoadMetric  LoadMetric  // what LoadDefault means
	defSIS         SIS         // what SISDefault means
	defNewTaskLoad NewTaskLoad // what NewTaskLoadDefault means
	// hotSMTExempt: task_hot() says no in a domain of SMT siblings (4.x on;
	// 3.8's task_hot() has no such rule).
	hotSMTExempt bool
	// cpuCapacity is a CPU's capacity_of() (power_of() in 3.8) on a core of
	// threads SMT threads.
	cpuCapacity func(threads int) int64
	// sdInit fills a domain's flags and tunables (sd_init(), SD_*_INIT).
	sdInit func(sd *SchedDomain)
	// schedstatVersion is the /proc/schedstat format the era reports.
	schedstatVersion int

	class rqClass     // the per-CPU runqueue policy
	track loadTracker // load tracking

	// Wake-up, fork and exec placement: select_task_rq_fair() of the era,
	// told which by sdFlag (SD_BALANCE_WAKE, _FORK or _EXEC).
	selectTaskRQ func(s *Sim, p *Task, cpu, prev int, sync bool, waker *Task, sdFlag SDFlag, d *Decision) int
	// ttwuAvgIdle updates rq->avg_idle when an idle rq is woken, delta ns
	// after it went idle (ttwu_do_activate()/ttwu_do_wakeup()).
	ttwuAvgIdle func(s *Sim, rq *RQ, delta int64)

	// The balancer.
	rebalanceDomains func(s *Sim, rq *RQ, idle int) // the periodic walk over rq's domains
	loadBalance      func(s *Sim, env *lbEnv) int   // one balancing pass of env.sd (env.stop: climb no further)
	lbNames          *[numIdleTypes]string          // its decision path per idle type
	// migrateEligible is the era's extra can_migrate_task() rule ahead of
	// the affinity test (v6.17: prefer eligible tasks, 873199d27bb2).
	migrateEligible func(s *Sim, p *Task, env *lbEnv) bool
	// migratePinned records a task that may not run on dst (the LBF_*
	// pinned flags and new_dst_cpu of can_migrate_task()).
	migratePinned func(p *Task, env *lbEnv)
	// detachAccount observes a task the balancer detaches (metrics).
	detachAccount     func(s *Sim, env *lbEnv, p *Task)
	needActiveBalance func(env *lbEnv) bool
	// newidleBalance is newidle balancing with the era's gates
	// (sched_balance_newidle(), 3.8 idle_balance()); it reports a pull.
	newidleBalance func(s *Sim, rq *RQ) bool
	// nohzKickBusy is the era's reason, besides nr_running >= 2, for a busy
	// CPU's tick to kick the idle load balancer.
	nohzKickBusy func(s *Sim, rq *RQ) bool
	// activeBalance is the stopper/migration thread's push on the busiest
	// CPU toward target (active_load_balance_cpu_stop(), 2.6.8
	// active_load_balance()).
	activeBalance func(s *Sim, busiest *RQ, target int)

	// classFor, when set, chooses the runqueue class from the policy once in
	// New (2.6.8: policy.cpu_scheduler, O(1) or staircase).
	classFor func(s *Sim) rqClass
	// tickIdle: every CPU ticks from boot, idle or not (no NO_HZ: 2.6.8's
	// rebalance_tick() runs on idle CPUs too).
	tickIdle bool
	// noPELT: the era has no per-entity load tracking (2.6.8); front ends
	// must not draw PELT signals.
	noPELT bool
	// nohzStatsKick: a busy tick also kicks an idle CPU only to decay the
	// idle CPUs' blocked load, every LOAD_AVG_PERIOD ms (v6.17
	// NOHZ_STATS_KICK; 3.8 has no such kick).
	nohzStatsKick bool
	// nohzNextKick: a CPU enters nohz idle as it goes idle
	// (nohz_balance_enter_idle() from tick_nohz_idle_stop_tick(): has_blocked,
	// and needs_update if its tick had run busy since it last entered), and a
	// busy tick kicks an idle CPU only to collate the idle CPUs' next_balance
	// into nohz.next_balance while needs_update is set (v6.17 NOHZ_NEXT_KICK,
	// 7fd7a9e0caba "sched/fair: Trigger nohz.next_balance updates when a CPU
	// goes NOHZ-idle", v5.14). Without it a newly idle CPU whose balance is
	// due waits for nohz.next_balance as the last idle balance left it.
	nohzNextKick bool
	// idleTickHeuristic: the idle loop can keep an idle CPU's tick until
	// that tick has woken it once (NOHZ_AFTER_TICK, a kernel of 2026; 3.8
	// stops the tick as the CPU goes idle unless a timer is due within a
	// jiffy, which the model's CPUs never have).
	idleTickHeuristic bool
	// nohzIdleUpdate brings an idle CPU's load history up to date before
	// the idle load balancer balances it (3.8 update_idle_cpu_load()).
	nohzIdleUpdate func(s *Sim, rq *RQ)
	// ttwuWakeList says whether a remote wake-up from cpu to trq goes
	// through trq's wake list, reaching the runqueue after the IPI; if
	// not, the waker enqueues it under trq's lock, visible to every load
	// and idle test at once, and only the reschedule waits for the IPI.
	// 3.8 ttwu_queue() and v6.17 ttwu_queue_wakelist() read TTWU_QUEUE;
	// 2.6.8 has no wake list and its remote wake-ups arrive by IPI.
	ttwuWakeList func(s *Sim, cpu int, trq *RQ) bool
	// wakeListAfterExit: an idle CPU enqueues its wake list once it has
	// left its idle state (3.8 and v6.17: sched_ttwu_pending() runs in the
	// IPI's handler, or in the idle loop's flush when the polling flag
	// woke it); until then the wakee is on no runqueue (arrive). 2.6.8's
	// remote wake-ups, enqueued when their IPI lands, are not a wake list.
	wakeListAfterExit bool
	// queuedIPIPolls: the IPI of a wake-up that goes by IPI (the wake
	// list, 2.6.8's remote wake-up) and of the nohz kick is skipped for a
	// CPU idle in a polling state (IdleState.Polls). v6.17
	// send_call_function_single_ipi(): `if (!set_nr_if_polling(rq->idle))
	// arch_send_call_function_single_ipi(cpu)`; 2.6.8 resched_task() tests
	// TIF_POLLING_NRFLAG. 3.8 ttwu_queue_remote() and nohz_balancer_kick()
	// call smp_send_reschedule() unconditionally. (A wake-up the waker
	// enqueues itself ends in resched_task()/resched_curr(), which skips
	// the IPI for a polling CPU in every era: activateByIPI.)
	queuedIPIPolls bool
	// idleMult is the cpuidle governor's performance multiplier for a CPU
	// going idle now: a state whose exit latency times it exceeds the idle
	// time is not chosen (menu_select(): `s->exit_latency * multiplier >
	// data->predicted_us`). v6.17's menu has no such term and 2.6.8 has
	// no cpuidle: idleMultOne.
	idleMult func(rq *RQ) int64
}

// rqClass is the per-CPU runqueue policy of an era, in the shape of the
// kernel's struct sched_class: the shared core (core.go) calls these and
// never reads a vruntime or a deadline itself. The queued tasks live in
// RQ.queue for every class (the balancer walks them); only the class keeps
// order over them.
type rqClass struct {
	enqueue func(s *Sim, rq *RQ, p *Task, flags int) // enqueue_entity() (p not curr)
	dequeue func(s *Sim, rq *RQ, p *Task, flags int) // dequeue_entity()
	// queueAdd and queueRemove are __enqueue_entity()/__dequeue_entity():
	// p joins or leaves the queue of waiting tasks. The class's own
	// functions call them directly; these fields serve code that builds
	// a state by hand (the decision scripts).
	queueAdd    func(rq *RQ, p *Task)
	queueRemove func(rq *RQ, p *Task)
	// putPrev is the class's part of put_prev_entity() for a runnable p
	// (back into the queue); setNext of set_next_entity() (out of it).
	putPrev func(s *Sim, rq *RQ, p *Task)
	setNext func(s *Sim, rq *RQ, p *Task)
	// updateCurr is the class's update_curr(): charge curr the time it ran;
	// it reports whether the class asks for a reschedule.
	updateCurr func(s *Sim, rq *RQ) bool
	// chargeWork charges curr's step work at a point where the kernel calls
	// no update_curr() (a step's end, the balancer's softirq stealing time):
	// chargeByUpdate for a class whose queue does not depend on it.
	chargeWork func(s *Sim, rq *RQ)
	// pick chooses the next task; curr (nil unless runnable) competes.
	pick func(s *Sim, rq *RQ, curr *Task) *Task
	// wakeupPreempt: does the woken p preempt curr (check_preempt_curr())?
	wakeupPreempt func(s *Sim, rq *RQ, curr, p *Task) bool
	// tickPreempt is the tick's check (task_tick_fair()): reschedule curr?
	tickPreempt func(s *Sim, rq *RQ) bool
	taskFork    func(s *Sim, rq *RQ, p *Task) // task_fork_fair(), on the new rq
	taskWaking  func(s *Sim, rq *RQ, p *Task) // task_waking_fair(), on the old rq
	// pickKey orders queued tasks for the snapshot: lowest runs first.
	pickKey func(t *Task) int64
}

// eraFor returns the era of a base.
func eraFor(b Base) *era {
	switch b {
	case BaseV38:
		return &eraV38
	case BaseV268:
		return &eraV268
	}
	return &eraV617
}

// The eras. Their hooks are plain functions taking the Sim first, as etcd
// raft's stepLeader(r, m) is, each commented with the kernel function it
// mirrors where it is defined; plain functions rather than methods because
// Go's profile-guided optimisation devirtualizes a func-typed call only to
// a function of that type (after `make pgo`, the hot era's hooks are
// called directly and can be inlined).
var eraV617, eraV38 era

func init() {
	eraV617 = era{
		base: BaseV617, name: "v6.17",
		defFeatures: 1<<FeatWakeAffine | 1<<FeatNewidleBalance | 1<<FeatNohzIdleBalance |
			1<<FeatWakeupPreemption | 1<<FeatTTWUQueue |
			1<<FeatWakeWide | 1<<FeatPlaceLag | 1<<FeatRunToParity | 1<<FeatSISUtil |
			// CONFIG_PREEMPTION: x86's default configuration (PREEMPT_DYNAMIC).
			1<<FeatNewidlePullOne |
			// 873199d27bb2 (6.14) is unconditional in mainline: on by default,
			// a switch here only for A/B.
			1<<FeatEligibleFirst |
			// DELAY_DEQUEUE: SCHED_FEAT(DELAY_DEQUEUE, true) in
			// kernel/sched/features.h since 6.12 (152e11f6df29).
			1<<FeatDelayDequeue |
			// 155213a2aed4, in v6.17 (merged for -rc1): the newidle
			// cost bump on failure (balance_newidle.go).
			1<<FeatNewidleBump,
		defLoadMetric: LoadAvg, defSIS: SISUtil, defNewTaskLoad: NewTaskLoadFull,
		hotSMTExempt:     true,
		cpuCapacity:      func(int) int64 { return capacityScale },
		sdInit:           sdInit617,
		schedstatVersion: 17,
		class: rqClass{
			enqueue: enqueueEEVDF, dequeue: dequeueEEVDF,
			queueAdd: (*RQ).queueAddEEVDF, queueRemove: (*RQ).queueRemoveEEVDF,
			putPrev: putPrevEEVDF, setNext: setNextEEVDF, updateCurr: updateCurrEEVDF, chargeWork: chargeWorkEEVDF,
			pick: pickEEVDF, wakeupPreempt: wakeupPreemptEEVDF,
			tickPreempt: tickPreemptEEVDF,
			taskFork:    taskForkEEVDF, taskWaking: func(*Sim, *RQ, *Task) {},
			pickKey: func(t *Task) int64 { return t.deadline },
		},
		track:             trackBoth,
		selectTaskRQ:      selectTaskRQ617,
		ttwuWakeList:      ttwuWakeList617,
		wakeListAfterExit: true,
		queuedIPIPolls:    true,
		idleMult:          idleMultOne,
		ttwuAvgIdle:       ttwuAvgIdle617,
		rebalanceDomains:  rebalanceDomains617,
		loadBalance:       loadBalance617,
		lbNames:           &loadBalanceNames617,
		migrateEligible:   migrateEligible617,
		migratePinned:     migratePinned617,
		detachAccount:     detachAccount617,
		needActiveBalance: needActiveBalance617,
		newidleBalance:    newidleBalance617,
		nohzKickBusy:      nohzKickBusy617,
		activeBalance:     (*Sim).activeBalance,
		nohzStatsKick:     true,
		nohzNextKick:      true,
		idleTickHeuristic: true,
		nohzIdleUpdate:    func(*Sim, *RQ) {},
	}
	eraV38 = era{
		base: BaseV38, name: "v3.8",
		defFeatures: 1<<FeatWakeAffine | 1<<FeatNewidleBalance | 1<<FeatNohzIdleBalance |
			1<<FeatWakeupPreemption | 1<<FeatTTWUQueue | 1<<FeatLBBias | 1<<FeatLastBuddy |
			// CONFIG_PREEMPT assumed (sim/doc.go: the seeds do not say).
			1<<FeatNewidlePullOne,
		defLoadMetric: LoadWeight, defSIS: SISV38, defNewTaskLoad: NewTaskLoadZero,
		cpuCapacity:      cpuCapacity38,
		sdInit:           sdInit38,
		schedstatVersion: 15,
		class: rqClass{
			enqueue: enqueueCFS38, dequeue: dequeueCFS38,
			queueAdd: (*RQ).treeAdd, queueRemove: (*RQ).treeRemove,
			putPrev: putPrevCFS38, setNext: setNextCFS38, updateCurr: updateCurrCFS38, chargeWork: chargeByUpdate,
			pick: pickCFS38, wakeupPreempt: wakeupPreemptCFS38,
			tickPreempt: tickPreemptCFS38,
			taskFork:    taskForkCFS38, taskWaking: taskWakingCFS38,
			pickKey: func(t *Task) int64 { return t.vruntime },
		},
		track:             trackBoth,
		selectTaskRQ:      selectTaskRQ38,
		ttwuAvgIdle:       ttwuAvgIdle38,
		rebalanceDomains:  rebalanceDomains38,
		loadBalance:       loadBalance38,
		lbNames:           &loadBalanceNames38,
		migrateEligible:   func(*Sim, *Task, *lbEnv) bool { return true },
		migratePinned:     migratePinned38,
		detachAccount:     func(*Sim, *lbEnv, *Task) {},
		needActiveBalance: needActiveBalance38,
		newidleBalance:    newidleBalance38,
		nohzKickBusy:      nohzKickBusy38,
		activeBalance:     (*Sim).activeBalance,
		nohzIdleUpdate:    (*Sim).updateIdleCPULoad38,
		ttwuWakeList:      ttwuWakeList38,
		wakeListAfterExit: true,
		idleMult:          menuPerfMult3x,
	}
	initEraV268()
}

// menuPerfMult3x mirrors the 3.x menu governor's performance_multiplier()
// (drivers/cpuidle/governors/menu.c, v2.6.32 to v3.15; read in v3.6): 1 +
// 2*get_loadavg(), where get_loadavg() reads this_cpu_load(), which is
// rq->cpu_load[0] in load-weight units, through the loadavg macros
// (FSHIFT 11): LOAD_INT(l)*10 + LOAD_FRAC(l)/10. One nice-0 task at the
// last tick (1024) gives 5, so 11; two (2048) give 10, so 21. The iowait
// term (10 per task in iowait on the CPU) is 0: the model has no I/O.
func menuPerfMult3x(rq *RQ) int64 {
	return menuPerfMult(rq.cpuLoad[0])
}

// menuPerfMult is performance_multiplier() for cpu_load[0] = l.
func menuPerfMult(l uint64) int64 {
	const fshift, fixed1 = 11, 1 << 11
	loadInt := l >> fshift
	loadFrac := ((l & (fixed1 - 1)) * 100) >> fshift
	return 1 + 2*int64(loadInt*10+loadFrac/10)
}

// idleMultOne: no performance multiplier (v6.17 menu and teo; 2.6.8).
func idleMultOne(*RQ) int64 { return 1 }

// cpuCapacity38 is 3.8 arch_scale_smt_power(): smt_gain (1178) shared by
// the threads of a core.
func cpuCapacity38(threads int) int64 {
	if threads > 1 {
		return 1178 / int64(threads)
	}
	return capacityScale
}

// ttwuAvgIdle617 mirrors ttwu_do_activate(): avg_idle moves an eighth of the
// way to the idle period, capped at 2*max_idle_balance_cost.
func ttwuAvgIdle617(s *Sim, rq *RQ, delta int64) {
	rq.avgIdle += (delta - rq.avgIdle) / 8
	if limit := 2 * max(rq.maxIdleBalanceCost, 1); rq.avgIdle > limit {
		rq.avgIdle = limit
	}
}

// ttwuAvgIdle38 mirrors 3.8 ttwu_do_wakeup(): a long idle sets avg_idle to
// the cap (2*sysctl_sched_migration_cost), a short one moves it an eighth.
func ttwuAvgIdle38(s *Sim, rq *RQ, delta int64) {
	if limit := 2 * s.migrationCost; delta > limit {
		rq.avgIdle = limit
	} else {
		rq.avgIdle += (delta - rq.avgIdle) / 8
	}
}
