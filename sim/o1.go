package sim

import (
	"fmt"
	"math/bits"
)

// The v2.6.8 runqueue class: Ingo Molnar's O(1) scheduler as 2.6.7/2.6.8
// kernel/sched.c has it (docs/era-2.6.8.md): two 140-list priority arrays
// per CPU, the active/expired swap, timeslices from static_prio,
// sleep_avg/effective_prio interactivity, TIMESLICE_GRANULARITY requeueing,
// EXPIRED_STARVING. Con Kolivas' staircase (the other value of
// policy.cpu_scheduler) shares the lists and is in staircase.go.
//
// How the kernel's lists meet the shared core: the core keeps every queued
// task in RQ.queue and takes the running task out of it (set_next_entity());
// the kernel keeps the running task in its array. So curr's place in the
// lists is kept aside (o1Task.backArr/backTail) and used whenever the class
// must see curr in its array: when schedule() picks (the array swap counts
// it) and when curr goes back (put_prev), at the head of its list unless the
// tick requeued it to a tail.

const (
	o1MaxRTPrio    = 100 // MAX_RT_PRIO
	o1MaxPrio      = 140 // MAX_PRIO
	o1MaxUserPrio  = 40  // MAX_USER_PRIO
	o1MaxBonus     = o1MaxUserPrio * 25 / 100
	o1CreditLimit  = 100 // CREDIT_LIMIT
	o1OnRQWeight   = 30  // ON_RUNQUEUE_WEIGHT (%)
	o1ChildPenalty = 95  // CHILD_PENALTY (%)
	// schedLoadScale26 is 2.6.8's SCHED_LOAD_SCALE.
	schedLoadScale26 = 128
)

// o1Params are the HZ-dependent constants of sched.c, in jiffies unless
// named ns, and the staircase sysctls.
type o1Params struct {
	hz                             int64
	minTS, maxTS, avgTS            int64 // MIN_TIMESLICE, MAX_TIMESLICE, AVG_TIMESLICE
	maxSleepAvg                    int64 // MAX_SLEEP_AVG (= STARVATION_LIMIT)
	nsMaxSleepAvg                  int64 // NS_MAX_SLEEP_AVG
	ncpu                           int64 // num_online_cpus()
	rr                             int64 // staircase RR_INTERVAL()
	interactive, compute           bool  // staircase sysctls
	cacheDelay                     int64 // staircase cache_delay, jiffies
	execThreshold                  int   // sched_balance_exec(): stay while nr_running <= this
	pulledGained, pulledLost       [numIdleTypes]int64
	sbeCount, ttwuAttempts, ttwuMv int64
}

// o1RQ is the O(1) part of struct runqueue: arrays[active] is rq->active.
// The staircase uses arrays[0] only.
type o1RQ struct {
	arrays           [2]o1Array
	active           int
	expiredTimestamp int64 // jiffies; 0: none expired since the last swap
	bestExpiredPrio  int
	cacheTicks       int64 // staircase rq->cache_ticks
	preempted        bool  // staircase rq->preempted
	// forkResched is do_fork()'s set_need_resched() after an O(1) fork
	// (child runs first): the parent yields when its fork step ends.
	forkResched bool
	// schedstat v9 counters.
	schedSwitch, schedNoswitch int64
	ptGained, ptLost           [numIdleTypes]int64
	sbeCnt                     int64
	ttwuCnt                    int64
	ttwuAttempts, ttwuMoved    int64
	albCnt, albGained          int64
	albLost, albFailed         int64
}

// o1Array is struct prio_array: nr_active, the bitmap of the priorities
// whose list holds a task, and the lists.
type o1Array struct {
	nr     int
	bitmap [(o1MaxPrio + 63) / 64]uint64
	queue  [o1MaxPrio][]*Task
}

// first is sched_find_first_bit(): the highest priority (lowest number)
// whose list holds a task, o1MaxPrio if none does.
func (a *o1Array) first() int {
	return a.next(0)
}

// next is the first priority from prio on whose list holds a task,
// o1MaxPrio if none does.
func (a *o1Array) next(prio int) int {
	for w := prio / 64; w < len(a.bitmap); w++ {
		b := a.bitmap[w]
		if w == prio/64 {
			b &= ^uint64(0) << (prio % 64)
		}
		if b != 0 {
			return w*64 + bits.TrailingZeros64(b)
		}
	}
	return o1MaxPrio
}

// o1Task is the O(1)/staircase part of task_struct.
type o1Task struct {
	prio, staticPrio int
	sleepAvg         int64 // ns
	credit           int   // interactive_credit
	timeSlice        int64 // jiffies left (staircase: of this RR_INTERVAL)
	activated        int   // 0, 1 (woken by a task), 2 (from an interrupt: a timer)
	timestamp        int64 // ns: last activation or switch
	arr              int   // array index it is queued in, -1 if none
	backArr          int   // curr: the array it is in while it runs
	backTail         bool  // curr: requeued to the tail of its list
	pullKind         int   // balancer: 0 pulled from active, 1 from expired, -1 not pulled
	noPreempt        bool  // the next enqueue does not preempt (sync wake-up to this CPU, fork)
	byTimer          bool  // the wake-up in flight comes from a timer (in_interrupt())
	forked           bool  // staircase PF_FORKED: it forked since it last woke
	before           *Task // a new child goes right before this running parent (its next queueAdd)
	ahead            int   // curr: children forked since it last ran that are queued right before it
	firstTimeSlice   bool  // first_time_slice: a forked child still on the slice its parent gave it
	// staircase
	burst    int
	slice    int64 // jiffies left of slice()
	runtime  int64 // ns: last run stint (prev->runtime)
	totalrun int64 // ns
}

// initO1 computes the constants of the v2.6.8 era from HZ and the policy.
func (s *Sim) initO1() {
	hz := int64(s.cfg.Machine.HZ)
	p := &s.o1p
	p.hz = hz
	p.minTS, p.maxTS = 10*hz/1000, 200*hz/1000
	p.avgTS = p.minTS + (p.maxTS-p.minTS)*(o1MaxPrio-1-120)/(o1MaxUserPrio-1)
	p.maxSleepAvg = p.avgTS * o1MaxBonus
	p.nsMaxSleepAvg = p.maxSleepAvg * (1_000_000_000 / hz)
	p.ncpu = int64(s.topo.NCPU)
	rr := max(10*hz/1000, 1)
	pol := &s.cfg.Policy
	p.compute = pol.StaircaseMode == StairCompute
	p.interactive = pol.StaircaseMode == StairInteractive
	if p.compute {
		rr *= 10
	}
	p.rr = rr
	p.cacheDelay = max(10*hz/1000, 1)
	p.execThreshold = pol.ExecBalanceThreshold
	if p.execThreshold <= 0 {
		p.execThreshold = 1
	}
	for _, rq := range s.cpus {
		rq.o1.bestExpiredPrio = o1MaxPrio
	}
}

func (s *Sim) nsToJiffies(ns int64) int64 { return ns / (1_000_000_000 / s.o1p.hz) }
func (s *Sim) jiffiesToNS(j int64) int64  { return j * (1_000_000_000 / s.o1p.hz) }

// taskTimeslice mirrors task_timeslice() = BASE_TIMESLICE(p), jiffies.
func (s *Sim) taskTimeslice(p *Task) int64 {
	o := &s.o1p
	return o.minTS + (o.maxTS-o.minTS)*int64(o1MaxPrio-1-p.o1.staticPrio)/(o1MaxUserPrio-1)
}

// currentBonus mirrors CURRENT_BONUS(p).
func (s *Sim) currentBonus(p *Task) int64 {
	return s.nsToJiffies(p.o1.sleepAvg) * o1MaxBonus / s.o1p.maxSleepAvg
}

// effectivePrioO1 mirrors effective_prio(): static_prio less a bonus of
// -5 … +5 from sleep_avg, within [MAX_RT_PRIO, MAX_PRIO-1].
func (s *Sim) effectivePrioO1(p *Task) int {
	bonus := int(s.currentBonus(p)) - o1MaxBonus/2
	return min(max(p.o1.staticPrio-bonus, o1MaxRTPrio), o1MaxPrio-1)
}

// o1Delta mirrors DELTA(p): SCALE(TASK_NICE(p), 40, MAX_BONUS) +
// INTERACTIVE_DELTA (C division truncates toward zero, as Go's).
func o1Delta(p *Task) int { return (p.o1.staticPrio-120)*o1MaxBonus/40 + 2 }

// taskInteractive mirrors TASK_INTERACTIVE(p).
func taskInteractive(p *Task) bool { return p.o1.prio <= p.o1.staticPrio-o1Delta(p) }

// interactiveSleep mirrors INTERACTIVE_SLEEP(p), ns.
func (s *Sim) interactiveSleep(p *Task) int64 {
	return s.jiffiesToNS(s.o1p.maxSleepAvg*int64(o1MaxBonus/2+o1Delta(p)+1)/o1MaxBonus - 1)
}

// timesliceGranularity mirrors the SMP TIMESLICE_GRANULARITY(p), jiffies.
func (s *Sim) timesliceGranularity(p *Task) int64 {
	b := o1MaxBonus - s.currentBonus(p)
	if b == 0 {
		b = 1
	}
	return s.o1p.minTS * (1 << (b - 1)) * s.o1p.ncpu
}

func highCredit(p *Task) bool { return p.o1.credit > o1CreditLimit }
func lowCredit(p *Task) bool  { return p.o1.credit < -o1CreditLimit }

// recalcTaskPrioO1 mirrors recalc_task_prio(p, now). Every task is a user
// task (p->mm) and no sleep is uninterruptible (activated is never -1).
func (s *Sim) recalcTaskPrioO1(p *Task, now int64) {
	o := &s.o1p
	sleep := min(now-p.o1.timestamp, o.nsMaxSleepAvg)
	if sleep > 0 {
		if sleep > s.interactiveSleep(p) {
			p.o1.sleepAvg = s.jiffiesToNS(o.maxSleepAvg - o.avgTS)
			if !highCredit(p) {
				p.o1.credit++
			}
		} else {
			f := o1MaxBonus - s.currentBonus(p)
			if f == 0 {
				f = 1
			}
			sleep *= f
			if lowCredit(p) && sleep > s.jiffiesToNS(s.taskTimeslice(p)) {
				sleep = s.jiffiesToNS(s.taskTimeslice(p))
			}
			p.o1.sleepAvg += sleep
			if p.o1.sleepAvg > o.nsMaxSleepAvg {
				p.o1.sleepAvg = o.nsMaxSleepAvg
				if !highCredit(p) {
					p.o1.credit++
				}
			}
		}
	}
	p.o1.prio = s.effectivePrioO1(p)
}

// ---- the lists ----

// o1ListAdd is enqueue_task() (tail) or enqueue_task_head() (head).
func (s *Sim) o1ListAdd(rq *RQ, p *Task, arr int, tail bool) {
	at := 0
	if tail {
		at = len(rq.o1.arrays[arr].queue[p.o1.prio])
	}
	s.o1ListInsert(rq, p, arr, at)
}

// o1ListInsert puts p at index at of its priority's list in array arr (at
// most the list's length): list_add_tail(&p->run_list, &q->run_list) puts
// p right before q.
func (s *Sim) o1ListInsert(rq *RQ, p *Task, arr, at int) {
	a := &rq.o1.arrays[arr]
	l := a.queue[p.o1.prio]
	at = min(at, len(l))
	l = append(l, nil)
	copy(l[at+1:], l[at:])
	l[at] = p
	a.queue[p.o1.prio] = l
	a.bitmap[p.o1.prio/64] |= 1 << (p.o1.prio % 64)
	a.nr++
	p.o1.arr = arr
}

// o1ListDel is dequeue_task().
func (s *Sim) o1ListDel(rq *RQ, p *Task) {
	a := &rq.o1.arrays[p.o1.arr]
	l := a.queue[p.o1.prio]
	for i, t := range l {
		if t == p {
			copy(l[i:], l[i+1:])
			l[len(l)-1] = nil
			a.queue[p.o1.prio] = l[:len(l)-1]
			if len(l) == 1 {
				a.bitmap[p.o1.prio/64] &^= 1 << (p.o1.prio % 64)
			}
			a.nr--
			p.o1.arr = -1
			return
		}
	}
	panic("sim: task not in its priority list")
}

// o1QueueAdd is the class's queueAdd: a waking, forked or pulled task goes
// to the tail of its list (pull_task() keeps the array kind it came from);
// the running task goes back where it is while it runs.
func (s *Sim) o1QueueAdd(rq *RQ, p *Task) {
	rq.treeAdd(p)
	switch {
	case rq.curr == p && p.o1.ahead > 0 && !p.o1.backTail:
		// The parent goes back behind the children it forked (they were
		// put right before it).
		s.o1ListInsert(rq, p, p.o1.backArr, p.o1.ahead)
		p.o1.ahead = 0
	case rq.curr == p:
		p.o1.ahead = 0
		s.o1ListAdd(rq, p, p.o1.backArr, p.o1.backTail)
	case p.o1.before != nil:
		// wake_up_forked_process(): list_add_tail(&p->run_list,
		// &current->run_list) puts the child right before the running
		// parent, at the parent's place in its list (after the children
		// it forked before; at the list's tail if the tick requeued it).
		par := p.o1.before
		p.o1.before = nil
		if par.o1.backTail {
			s.o1ListAdd(rq, p, par.o1.backArr, true)
		} else {
			s.o1ListInsert(rq, p, par.o1.backArr, par.o1.ahead)
			par.o1.ahead++
		}
	case p.o1.pullKind >= 0:
		arr := rq.o1.active
		if p.o1.pullKind == 1 {
			arr = 1 - arr
		}
		p.o1.pullKind = -1
		s.o1ListAdd(rq, p, arr, true)
	default:
		s.o1ListAdd(rq, p, rq.o1.active, true)
	}
}

// o1QueueRemove is the class's queueRemove: p leaves its list (picked,
// pulled, or dequeued); a picked task keeps its array as curr.
func (s *Sim) o1QueueRemove(rq *RQ, p *Task) {
	p.o1.backArr, p.o1.backTail = p.o1.arr, false
	s.o1ListDel(rq, p)
	rq.treeRemove(p)
}

// o1First returns the first task of array arr with curr (if it is in arr)
// at its place: the head of the first non-empty list.
func o1First(rq *RQ, arr int, curr *Task) *Task {
	a := &rq.o1.arrays[arr]
	cp := o1MaxPrio
	if curr != nil && curr.o1.backArr == arr {
		cp = curr.o1.prio
	}
	f := a.first()
	switch {
	case cp < f: // curr's list is empty, and every one before it
		return curr
	case cp == f && f < o1MaxPrio && !curr.o1.backTail && curr.o1.ahead == 0:
		return curr
	case f < o1MaxPrio:
		return a.queue[f][0]
	}
	return nil
}

// scheduleAccountO1 is schedule()'s bookkeeping of prev: sleep_avg loses
// the time prev ran since its timestamp (divided by CURRENT_BONUS for
// high-credit tasks, at most NS_MAX_SLEEP_AVG), and the timestamp moves to
// now. The staircase records prev->runtime instead.
func (s *Sim) scheduleAccountO1(prev *Task) {
	run := min(s.now-prev.o1.timestamp, s.o1p.nsMaxSleepAvg)
	if highCredit(prev) {
		run /= max(s.currentBonus(prev), 1)
	}
	prev.o1.sleepAvg -= run
	if prev.o1.sleepAvg <= 0 {
		prev.o1.sleepAvg = 0
		if !highCredit(prev) && !lowCredit(prev) {
			prev.o1.credit--
		}
	}
	prev.o1.timestamp = s.now
}

// pickO1 mirrors the pick in schedule(): swap the arrays when active is
// empty (curr counted where it is), then the head of the first list.
func (s *Sim) pickO1(rq *RQ, curr *Task) *Task {
	if prev := rq.curr; prev != nil {
		s.scheduleAccountO1(prev)
	}
	act := rq.o1.active
	inAct := rq.o1.arrays[act].nr
	inExp := rq.o1.arrays[1-act].nr
	if curr != nil {
		if curr.o1.backArr == act {
			inAct++
		} else {
			inExp++
		}
	}
	if inAct+inExp == 0 {
		return nil
	}
	if inAct == 0 {
		rq.o1.active = 1 - act
		rq.o1.expiredTimestamp = 0
		rq.o1.bestExpiredPrio = o1MaxPrio
		rq.o1.schedSwitch++
	} else {
		rq.o1.schedNoswitch++
	}
	return o1First(rq, rq.o1.active, curr)
}

// enqueueO1 is the class's enqueue (activate_task() for a wake-up; the
// plain __activate_task()/pull_task() accounting otherwise).
func (s *Sim) enqueueO1(rq *RQ, p *Task, flags int) {
	switch {
	case flags&enqWakeup != 0:
		s.recalcTaskPrioO1(p, s.now)
		if p.o1.activated == 0 {
			p.o1.activated = 1
			if p.o1.byTimer {
				p.o1.activated = 2
			}
		}
		p.o1.timestamp = s.now
	case flags&enqMigrated != 0:
		s.pullTimestamp(p)
	}
	p.o1.byTimer = false
	rq.loadWeight += p.weight
	rq.nrRunning++
	s.o1QueueAdd(rq, p)
}

// updateCurrO1 is the O(1) (and staircase) update_curr(): the accounting
// every class shares; the slice is charged at the tick (scheduler_tick()),
// so it never asks for a reschedule here.
func (s *Sim) updateCurrO1(rq *RQ) bool {
	s.accountCurr(rq)
	return false
}

// putPrevO1 is schedule()'s requeue of a runnable prev: its run so far is
// accounted, and it goes back into its list (where tick or wake-up left it).
func (s *Sim) putPrevO1(rq *RQ, p *Task) {
	s.updateCurrO1(rq)
	s.o1QueueAdd(rq, p)
}

// pullTimestamp mirrors pull_task()'s p->timestamp = sched_clock() -
// (src_rq->timestamp_last_tick - p->timestamp): the task's age is kept
// relative to the source's last tick (ticks are aligned on every CPU).
func (s *Sim) pullTimestamp(p *Task) {
	p.o1.timestamp += s.now - s.lastTickTime()
}

// lastTickTime is rq->timestamp_last_tick (ticks are aligned).
func (s *Sim) lastTickTime() int64 { return s.now / s.tickNS * s.tickNS }

// dequeueO1 is deactivate_task() (or the balancer's dequeue, which records
// the array kind pull_task() keeps).
func (s *Sim) dequeueO1(rq *RQ, p *Task, flags int) {
	p.o1.noPreempt = false
	if flags&deqMigrating != 0 {
		p.o1.pullKind = 0
		if p.o1.arr != rq.o1.active {
			p.o1.pullKind = 1
		}
	}
	if rq.curr != p {
		s.countQueued(rq, -1)
		s.o1QueueRemove(rq, p)
	}
	s.accountDequeue(rq, p)
}

// setNextO1 is schedule()'s part for next: a task woken (activated > 0)
// is credited its wait on the runqueue (all of it after an interrupt's
// wake-up, ON_RUNQUEUE_WEIGHT% after a task's) through recalc_task_prio()
// and requeued to the tail of its (new) list; then activated = 0 and
// next->timestamp = now.
func (s *Sim) setNextO1(rq *RQ, p *Task) {
	s.o1QueueRemove(rq, p)
	if p.o1.activated > 0 {
		delta := s.now - p.o1.timestamp
		if p.o1.activated == 1 {
			delta = delta * (o1OnRQWeight * 128 / 100) / 128
		}
		s.recalcTaskPrioO1(p, p.o1.timestamp+delta)
		p.o1.backTail = true
	}
	p.o1.activated = 0
	p.o1.timestamp = s.now
	p.o1.noPreempt = false // unused: it woke onto an idle CPU
}

// wakeupPreemptO1 mirrors TASK_PREEMPTS_CURR(p, rq): a better dynamic
// priority; a sync wake-up onto the waker's CPU and a fork do not preempt.
func (s *Sim) wakeupPreemptO1(rq *RQ, curr, p *Task) bool {
	if s.noWakeupPreemptO1(rq, p) {
		return false
	}
	return p.o1.prio < curr.o1.prio
}

// noWakeupPreemptO1 is what both 2.6.8 classes do before comparing
// priorities: curr's run so far is accounted, and a task woken with
// noPreempt set (a sync wake-up onto the waker's CPU, a fork) does not
// preempt, once.
func (s *Sim) noWakeupPreemptO1(rq *RQ, p *Task) bool {
	s.updateCurrO1(rq)
	if p.o1.noPreempt {
		p.o1.noPreempt = false
		return true
	}
	return false
}

// expiredStarving mirrors EXPIRED_STARVING(rq).
func (s *Sim) expiredStarving(rq *RQ) bool {
	e := rq.o1.expiredTimestamp
	if e != 0 && s.jiffies()-e >= s.o1p.maxSleepAvg*int64(rq.nrRunning)+1 {
		return true
	}
	return rq.curr.o1.staticPrio > rq.o1.bestExpiredPrio
}

// tickPreemptO1 mirrors scheduler_tick() for the running task: expire it
// into the expired array (or back into active if interactive and nothing
// starves), or requeue it at TIMESLICE_GRANULARITY.
func (s *Sim) tickPreemptO1(rq *RQ) bool {
	s.updateCurrO1(rq)
	p := rq.curr
	if p.o1.backArr != rq.o1.active {
		return true // expired already, not scheduled off yet
	}
	p.o1.timeSlice--
	if p.o1.timeSlice <= 0 {
		p.o1.prio = s.effectivePrioO1(p)
		p.o1.timeSlice = s.taskTimeslice(p)
		p.o1.firstTimeSlice = false
		if rq.o1.expiredTimestamp == 0 {
			rq.o1.expiredTimestamp = s.jiffies()
		}
		p.o1.backTail = true
		if !taskInteractive(p) || s.expiredStarving(rq) {
			p.o1.backArr = 1 - rq.o1.active
			if p.o1.staticPrio < rq.o1.bestExpiredPrio {
				rq.o1.bestExpiredPrio = p.o1.staticPrio
			}
		}
		return true
	}
	g := s.timesliceGranularity(p)
	if taskInteractive(p) && (s.taskTimeslice(p)-p.o1.timeSlice)%g == 0 && p.o1.timeSlice >= g {
		p.o1.prio = s.effectivePrioO1(p)
		p.o1.backTail = true
		return true
	}
	return false
}

// forkParent is the task that forked p and runs on rq, or nil (the
// scenario's own instances come from the spawner, which is no task).
func (s *Sim) forkParent(rq *RQ, p *Task) *Task {
	if p.parent < 0 {
		return nil
	}
	if par := s.tasks[p.parent]; par == rq.curr {
		return par
	}
	return nil
}

// taskForkO1 mirrors sched_fork() + wake_up_forked_process(). The child
// takes half its parent's remaining timeslice ((slice+1)>>1; the parent
// keeps the other half, at least one jiffy), both sleep_avgs become the
// parent's CURRENT_BONUS scaled by CHILD_PENALTY (95 %) and PARENT_PENALTY
// (100 %), and the child is queued right before its parent at the parent's
// priority (list_add_tail(&p->run_list, &current->run_list)); do_fork()
// then calls set_need_resched() ("Let the child process run first", 2.6.8
// kernel/fork.c), so the parent yields when its fork step ends and the
// child runs first. The staircase patch removed both ("Run child last").
// The spawner's children (no parent) get half a full timeslice of their
// nice level and no sleep_avg.
func (s *Sim) taskForkO1(rq *RQ, p *Task) {
	p.o1.staticPrio = 120 + p.info.Nice
	p.o1.credit = 0
	p.o1.timestamp = s.now
	p.o1.activated = 0
	p.o1.arr, p.o1.pullKind = -1, -1
	p.o1.noPreempt = true
	par := s.forkParent(rq, p)
	if par == nil {
		p.o1.sleepAvg = 0
		p.o1.prio = s.effectivePrioO1(p)
		p.o1.timeSlice = (s.taskTimeslice(p) + 1) >> 1
		return
	}
	p.o1.firstTimeSlice = true
	p.o1.timeSlice = (par.o1.timeSlice + 1) >> 1
	par.o1.timeSlice >>= 1
	if par.o1.timeSlice == 0 {
		par.o1.timeSlice = 1
	}
	bonus := s.currentBonus(par)
	par.o1.sleepAvg = s.jiffiesToNS(bonus * 100 / 100 * s.o1p.maxSleepAvg / o1MaxBonus)
	p.o1.sleepAvg = s.jiffiesToNS(bonus * o1ChildPenalty / 100 * s.o1p.maxSleepAvg / o1MaxBonus)
	p.o1.prio = par.o1.prio
	p.o1.before = par
	// do_fork(): "Let the child process run first, to avoid most of the
	// COW overhead when the child exec()s afterwards": set_need_resched().
	rq.o1.forkResched = true
	s.markResched(rq)
}

// schedExitO1 mirrors 2.6.8's sched_exit(p), called from release_task():
// "Potentially available exiting-child timeslices are retrieved here" — a
// child still on its first timeslice gives the rest back to its parent (at
// most MAX_TIMESLICE); and "if the child was a (relative-) CPU hog then
// decrease the sleep_avg of the parent as well": parent = parent /
// (EXIT_WEIGHT+1) * EXIT_WEIGHT + child / (EXIT_WEIGHT+1), EXIT_WEIGHT 3.
// The staircase patch removes sched_exit(). Here it runs at the child's
// exit (the kernel's release_task() runs when the parent reaps it).
func (s *Sim) schedExitO1(p *Task) {
	if s.cfg.Policy.CPUScheduler == CPUSchedStaircase || p.parent < 0 {
		return
	}
	par := s.tasks[p.parent]
	if par.life != p.parentLife || par.state == TaskExited {
		return
	}
	if p.o1.firstTimeSlice {
		par.o1.timeSlice = min(par.o1.timeSlice+p.o1.timeSlice, s.o1p.maxTS)
	}
	const exitWeight = 3
	if p.o1.sleepAvg < par.o1.sleepAvg {
		par.o1.sleepAvg = par.o1.sleepAvg/(exitWeight+1)*exitWeight + p.o1.sleepAvg/(exitWeight+1)
	}
}

// o1PickKey orders the snapshot's queue: the active array first, then by
// priority, then by place in the list (o1PickOrder does the same in one
// pass).
func (s *Sim) o1PickKey(t *Task) int64 {
	rq := s.cpus[t.cpu]
	k := int64(t.o1.prio) << 40
	for i, q := range rq.o1.arrays[t.o1.arr].queue[t.o1.prio] {
		if q == t {
			k += int64(i)
		}
	}
	if t.o1.arr != rq.o1.active {
		k += 1 << 52
	}
	return k
}

// o1PickOrder returns rq's queued tasks in the order schedule() would run
// them: the active array's lists by priority, then the expired array's.
func (s *Sim) o1PickOrder(rq *RQ) []*Task {
	out := s.orderBuf[:0]
	for _, arr := range [2]int{rq.o1.active, 1 - rq.o1.active} {
		a := &rq.o1.arrays[arr]
		for prio := a.first(); prio < o1MaxPrio; prio = a.next(prio + 1) {
			out = append(out, a.queue[prio]...)
		}
	}
	s.orderBuf = out
	return out
}

// cpuSchedulerName is the snapshot's CPUScheduler.
func (s *Sim) cpuSchedulerName() string {
	switch {
	case s.cfg.Policy.Base != BaseV268:
		return ""
	case s.cfg.Policy.CPUScheduler == CPUSchedStaircase:
		return "staircase"
	}
	return "o1"
}

// snapO1 fills the v2.6.8 part of a CPU's snapshot (c.Queue already in
// o1PickOrder's order): priorities, and the expired array's share.
func (s *Sim) snapO1(rq *RQ, c *CPUSnap) {
	c.QueuePrio, c.CurrPrio, c.Expired = c.QueuePrio[:0], -1, 0
	if s.cfg.Policy.Base != BaseV268 {
		return
	}
	for _, id := range c.Queue {
		c.QueuePrio = append(c.QueuePrio, int16(s.tasks[id].o1.prio))
	}
	if rq.curr != nil {
		c.CurrPrio = int16(rq.curr.o1.prio)
	}
	if s.cfg.Policy.CPUScheduler != CPUSchedStaircase {
		c.Expired = rq.o1.arrays[1-rq.o1.active].nr
	}
}

// o1Class is the O(1) runqueue class, bound to s for the list operations
// the core calls without it.
func o1Class(s *Sim) rqClass {
	return rqClass{
		enqueue: (*Sim).enqueueO1, dequeue: (*Sim).dequeueO1,
		queueAdd:    func(rq *RQ, p *Task) { s.o1QueueAdd(rq, p) },
		queueRemove: func(rq *RQ, p *Task) { s.o1QueueRemove(rq, p) },
		pickKey:     s.o1PickKey,
		putPrev:     (*Sim).putPrevO1,
		setNext:     (*Sim).setNextO1,
		updateCurr:  (*Sim).updateCurrO1,
		chargeWork:  chargeByUpdate,
		pick:        (*Sim).pickO1, wakeupPreempt: (*Sim).wakeupPreemptO1,
		tickPreempt: (*Sim).tickPreemptO1,
		taskFork:    (*Sim).taskForkO1, taskWaking: func(*Sim, *RQ, *Task) {},
	}
}

// o1Invariants checks that the priority lists hold exactly the queued tasks,
// each once, in the array and at the priority the task records, and that
// curr is in no list.
func (rq *RQ) o1Invariants() error {
	n := 0
	for a := range rq.o1.arrays {
		arr := &rq.o1.arrays[a]
		cnt := 0
		// Only the lists the bitmap marks: one it leaves out that holds a
		// task makes the count fall short of nr_active.
		for prio := arr.first(); prio < o1MaxPrio; prio = arr.next(prio + 1) {
			l := arr.queue[prio]
			if len(l) == 0 {
				return fmt.Errorf("array %d: the bitmap marks priority %d, whose list is empty", a, prio)
			}
			for _, t := range l {
				if t.o1.arr != a || t.o1.prio != prio || t == rq.curr {
					return fmt.Errorf("%s in list %d/%d, records %d/%d (curr %v)", t.info.Name, a, prio, t.o1.arr, t.o1.prio, t == rq.curr)
				}
				cnt++
			}
		}
		if cnt != arr.nr {
			return fmt.Errorf("array %d: nr_active %d, lists hold %d", a, arr.nr, cnt)
		}
		n += cnt
	}
	if n != len(rq.queue) {
		return fmt.Errorf("lists hold %d tasks, %d queued", n, len(rq.queue))
	}
	return nil
}
