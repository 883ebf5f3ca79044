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
// issue 17 has to check each line against 2.6.8 itself and the staircase
// patch before the model is written.
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
//	                    migrate_task                                                 balance() pushes to an idle CPU
//	                                                                                 of every other group. No nohz.
//	domains             sd_init(): 1024 per CPU       SD_*_INIT, smt_gain 1178       SD_SIBLING/CPU/NODE_INIT with SD_
//	(sdInit, capacity)                                split over the threads         WAKE_IDLE, SD_WAKE_BALANCE and
//	                                                                                 cache_hot_time per level
//	schedstat           version 17                    version 15                     the 2004 counters (pull_task,
//	                                                                                 sched_balance_exec, ttwu_wake_
//	                                                                                 affine/balance) [to verify]
//
// What the map asks of the interface:
//
//   - The runqueue is opaque to the shared core. core.go never reads a
//     vruntime or a deadline; it asks the class to enqueue, dequeue, put the
//     previous task back, set the next one, pick, account curr (update_curr
//     answers "reschedule?"), check tick and wake-up preemption, and give the
//     pick order the snapshot shows. The queued tasks stay in RQ.queue
//     (every era has a set of queued tasks that the balancer walks), but
//     only the class keeps order over them: the O(1) arrays will be the
//     class's own state beside it, as the EEVDF sums are.
//   - Load tracking is its own slot, separate from the class: the O(1)
//     class will run with a tracker that keeps no PELT at all.
//   - Placement is one function per era (select_task_rq_fair of 3.8 or
//     v6.17, try_to_wake_up's inline rules in 2.6.8), and the select_idle_
//     sibling variant is a second function chosen once in New, beside it.
//   - The balancer is a handful of hooks, not one: the periodic walk over
//     the domains, one balancing pass, the active-balance rule, the newidle
//     gate and the nohz kick, because 2.6.8 shares the shape of each with
//     the later eras but none of the arithmetic.
//   - can_migrate_task() is one function with the kernel's numbered rules;
//     the rules only one era has (ELIGIBLE_FIRST in v6.17, the pinned
//     handling of each) come from the era.
//   - Per-level domain defaults and CPU capacity come from the era at build
//     time, and the era names the schedstat version it reports.
//
// Not in the era: policy switches that every era understands (the load
// metric, the select_idle_sibling variant, features) are resolved once in
// New from the era's defaults and the scenario's overrides.
