package sim

// Placement in the v2.6.8 era (docs/era-2.6.8.md): try_to_wake_up()'s own
// rules (no select_task_rq), wake_idle(), wake_up_forked_process() and
// sched_balance_exec(); the era value itself and its domain defaults.

// selectTaskRQ268 is 2.6.8's placement by kind: try_to_wake_up() for a
// wake-up; wake_up_forked_process() for a fork (the child stays on the
// parent's CPU); sched_balance_exec() for an exec. this is the waking (or
// forking, exec'ing) CPU, prev the task's CPU.
func (s *Sim) selectTaskRQ268(p *Task, this, prev int, sync bool, waker *Task, sdFlag SDFlag, d *Decision) int {
	switch sdFlag {
	case SDBalanceFork:
		d.Path = "wake_up_forked_process"
		d.Reason = "a forked process starts on its parent's CPU"
		d.Chosen = int16(this)
		return this
	case SDBalanceExec:
		d.Path = "sched_balance_exec"
		c := s.execPlace268(s.cpus[this], p)
		d.Reason = "stay: nr_running at or below the threshold, or no idler CPU"
		if c != this {
			d.Reason = "find_idlest_cpu(): an idler CPU of the highest SD_BALANCE_EXEC domain"
		}
		d.Chosen = int16(c)
		return c
	}
	d.Path = "try_to_wake_up"
	p.o1.byTimer = waker == nil
	prq := s.cpus[prev]
	prq.o1.ttwuCnt++
	newCPU := prev
	target := s.ttwuTarget268(p, this, prev, d)
	prq.o1.ttwuAttempts++
	target = s.wakeIdle268(target, p, d)
	if target != prev && p.allowed.Has(target) {
		prq.o1.ttwuMoved++
		newCPU = target
	}
	if sync && newCPU == this {
		p.o1.noPreempt = true // a sync wake-up onto the waker's CPU does not preempt
	}
	d.Chosen = int16(newCPU)
	return newCPU
}

// ttwuTarget268 is try_to_wake_up()'s choice before wake_idle(): the
// waking CPU if an SD_WAKE_AFFINE domain finds the task cache-cold or an
// SD_WAKE_BALANCE domain finds this CPU less loaded (by half the
// imbalance_pct margin), the domain spanning the task's CPU; its old CPU
// otherwise, or when that one is idle-ish and this one is not.
func (s *Sim) ttwuTarget268(p *Task, this, prev int, d *Decision) int {
	if this == prev || !p.allowed.Has(this) {
		d.Reason = "the waking CPU is the task's, or not allowed"
		return prev
	}
	load := s.sourceLoad268(prev)
	thisLoad := s.targetLoad268(this)
	d.add("load", load)
	d.add("this_load", thisLoad)
	if load < schedLoadScale26/2 && thisLoad > schedLoadScale26/2 {
		d.Reason = "don't pull the task off an idle CPU to a busy one"
		return prev
	}
	for _, sd := range s.cpus[this].domains {
		s.visitDomain(d)
		imb := int64(sd.ImbalancePct + (sd.ImbalancePct-100)/2)
		switch {
		case sd.Flags&SDWakeAffine != 0 && !s.taskHot268(p, sd):
			if sd.Span.Has(prev) {
				sd.Stats.TTWUMoveAffine++ // v9 ttwu_wake_affine
				d.Level = int8(sd.Level)
				d.Reason = "SD_WAKE_AFFINE: cache-cold, wake on the waking CPU"
				return this
			}
		case sd.Flags&SDWakeBalance != 0 && imb*thisLoad <= 100*load:
			if sd.Span.Has(prev) {
				sd.Stats.TTWUMoveBalance++ // v9 ttwu_wake_balance
				d.Level = int8(sd.Level)
				d.Reason = "SD_WAKE_BALANCE: the waking CPU is less loaded"
				return this
			}
		}
	}
	d.Reason = "no domain pulls it: its old CPU"
	return prev
}

// wakeIdle268 mirrors wake_idle(): if cpu is busy and its lowest domain
// has SD_WAKE_IDLE (the SMT level), an idle allowed CPU of that domain.
func (s *Sim) wakeIdle268(cpu int, p *Task, d *Decision) int {
	if s.idleCPU(cpu) || len(s.cpus[cpu].domains) == 0 {
		return cpu
	}
	sd := s.cpus[cpu].domains[0]
	if sd.Flags&SDWakeIdle == 0 {
		return cpu
	}
	for c := sd.Span.First(); c >= 0; c = sd.Span.Next(c) {
		s.examine(d, c)
		if p.allowed.Has(c) && s.idleCPU(c) {
			d.Reason = "wake_idle(): an idle sibling"
			return c
		}
	}
	return cpu
}

// findIdlestCPU268 mirrors 2.6.8.1 find_idlest_cpu(p, this_cpu, sd): the
// allowed CPU of sd with the lowest target_load() (the first idle one
// ends the search), taken if this CPU with the task added is out of
// balance with it by half the imbalance_pct margin.
func (s *Sim) findIdlestCPU268(p *Task, this int, sd *SchedDomain) int {
	minCPU, minLoad := -1, int64(1<<62)
	m := sd.Span.And(&p.allowed)
	for c := m.First(); c >= 0; c = m.Next(c) {
		if l := s.targetLoad268(c); l < minLoad {
			minCPU, minLoad = c, l
			if l == 0 {
				break
			}
		}
	}
	thisLoad := s.sourceLoad268(this) + schedLoadScale26
	if minCPU >= 0 && minLoad*int64(100+(sd.ImbalancePct-100)/2) < thisLoad*100 {
		return minCPU
	}
	return this
}

// execPlace268 mirrors sched_balance_exec() for p running on rq: stay
// while this runqueue holds at most exec_balance_threshold tasks (1 in
// every sched-domains kernel, 2.6.7 on; 2 in the NUMA scheduler of
// 2.6.0-2.6.6, whose sched_best_cpu() Andrew Theurer recalls in seed 004);
// otherwise find_idlest_cpu() over the highest SD_BALANCE_EXEC domain.
func (s *Sim) execPlace268(rq *RQ, p *Task) int {
	rq.o1.sbeCnt++
	if rq.nrRunning <= s.o1p.execThreshold {
		return rq.cpu
	}
	var best *SchedDomain
	for _, sd := range rq.domains {
		if sd.Flags&SDBalanceExec != 0 {
			best = sd
		}
	}
	if best == nil {
		return rq.cpu
	}
	best.Stats.SBECount++
	c := s.findIdlestCPU268(p, rq.cpu, best)
	if c != rq.cpu {
		best.Stats.SBEPushed++
	}
	return c
}

// sdInit268 fills a domain as include/linux/sched.h of 2.6.7/2.6.8 does:
// SD_SIBLING_INIT for SMT, SD_NODE_INIT for the NUMA level, SD_CPU_INIT for
// the levels between (2.6.8 had one: the CPUs of a node).
func sdInit268(sd *SchedDomain) {
	sd.BalanceInterval = 1
	switch sd.Level {
	case LevelSMT: // SD_SIBLING_INIT
		sd.MinInterval, sd.MaxInterval = 1, 2
		sd.BusyFactor = 8
		sd.ImbalancePct = 110
		sd.CacheHotTime = 0
		sd.CacheNiceTries = 0
		sd.Flags = SDBalanceNewidle | SDWakeAffine | SDWakeIdle | SDShareCPUCapacity
	case LevelNUMA: // SD_NODE_INIT
		sd.MinInterval = 8
		sd.MaxInterval = 256 * int64(fls(sd.Weight))
		sd.BusyFactor = 32
		sd.ImbalancePct = 125
		sd.CacheHotTime = 10_000_000
		sd.CacheNiceTries = 1
		sd.Flags = SDBalanceExec | SDWakeBalance
	default: // SD_CPU_INIT
		sd.MinInterval, sd.MaxInterval = 1, 4
		sd.BusyFactor = 64
		sd.ImbalancePct = 125
		sd.CacheHotTime = 5 * 1_000_000 / 2
		sd.CacheNiceTries = 1
		sd.Flags = SDBalanceNewidle | SDWakeAffine | SDWakeBalance
	}
}

// fls is the kernel's fls(): the position of the highest set bit, from 1.
func fls(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// track268 is the v2.6.8 load tracking: no PELT; only cpu_load, updated by
// rebalance_tick() at every tick.
var track268 = loadTracker{
	enqueue:        func(*Sim, *RQ, *Task, int) {},
	dequeue:        func(*Sim, *RQ, *Task, int) {},
	putPrev:        func(*Sim, *RQ, *Task) {},
	setNext:        func(*Sim, *RQ, *Task) {},
	tick:           func(s *Sim, rq *RQ, _ int64) { s.cpuLoadTick268(rq, s.cpuLoad(rq)) },
	tickRestart:    func(s *Sim, rq *RQ, _ int64) { s.cpuLoadTick268(rq, 0) },
	wakeMigrate:    func(*Sim, *RQ, *Task) {},
	balanceMigrate: func(*Task) {},
	forkInit:       func(*Sim, *RQ, *Task) {},
	forkAttach:     func(*Sim, *RQ, *Task) {},
	exit:           func(s *Sim, _ *RQ, p *Task) { s.schedExitO1(p) }, // sched_exit() (o1.go)
	decayBlocked:   func(*Sim, *RQ) {},
}

var loadBalanceNames268 [numIdleTypes]string

var eraV268 era

// initEraV268 builds the v2.6.8 era value (called from era.go's init).
func initEraV268() {
	for i, n := range idleTypeNames {
		loadBalanceNames268[i] = "load_balance(" + n + ")"
	}
	loadBalanceNames268[cpuNewlyIdle] = "load_balance_newidle"
	eraV268 = era{
		base: BaseV268, name: "v2.6.8",
		// No NO_HZ (every CPU ticks), no nohz balancing; idle_balance() and
		// TASK_PREEMPTS_CURR are the two switches the features table shares.
		defFeatures:   1<<FeatNewidleBalance | 1<<FeatWakeupPreemption,
		defLoadMetric: LoadNrRunning, defSIS: SISOff, defNewTaskLoad: NewTaskLoadZero,
		cpuCapacity:      func(int) int64 { return capacityScale },
		sdInit:           sdInit268,
		schedstatVersion: 9,
		classFor: func(s *Sim) rqClass {
			if s.cfg.Policy.CPUScheduler == CPUSchedStaircase {
				return staircaseClass(s)
			}
			return o1Class(s)
		},
		track:             track268,
		selectTaskRQ:      (*Sim).selectTaskRQ268,
		ttwuWakeList:      func(*Sim, int, *RQ) bool { return true }, // no wake list: by IPI
		queuedIPIPolls:    true,
		idleMult:          idleMultOne,
		ttwuAvgIdle:       func(*Sim, *RQ, int64) {},
		rebalanceDomains:  (*Sim).rebalanceTick268,
		loadBalance:       loadBalance268,
		lbNames:           &loadBalanceNames268,
		migrateEligible:   func(*Sim, *Task, *lbEnv) bool { return true },
		migratePinned:     func(*Task, *lbEnv) {},
		detachAccount:     func(*Sim, *lbEnv, *Task) {},
		needActiveBalance: func(*lbEnv) bool { return false },
		newidleBalance:    newidleBalance268,
		nohzKickBusy:      func(*Sim, *RQ) bool { return false },
		nohzIdleUpdate:    func(*Sim, *RQ) {}, // no NO_HZ in 2.6.8
		activeBalance:     (*Sim).activeBalance268,
		tickIdle:          true,
		noPELT:            true,
	}
}
