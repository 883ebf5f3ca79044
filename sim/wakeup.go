package sim

// Wake-up placement: try_to_wake_up(), select_task_rq_fair() of both eras,
// wake_affine(), wake_wide()/record_wakee(). The select_idle_sibling()
// variants live in sis.go, the slow path (find_idlest_*) in idlest.go.

// wakeStep runs a program's wake step: it wakes the chosen instance(s) of the
// target group and returns the CPU time the wake-ups cost the waker.
func (s *Sim) wakeStep(rq *RQ, p *Task, st *Step) int64 {
	g := &s.cfg.Tasks[st.Target]
	first := s.gfirst[st.Target]
	var cost int64
	switch st.Fanout {
	case FanoutAll:
		for i := 0; i < g.Count; i++ {
			cost += s.tryToWakeUp(s.tasks[first+i], p, rq.cpu, st.Sync)
		}
	case FanoutOne:
		i := p.rr[p.pc] % g.Count
		p.rr[p.pc] = i + 1
		cost += s.tryToWakeUp(s.tasks[first+i], p, rq.cpu, st.Sync)
	case FanoutWaker:
		// Reply to the task whose wake ended the last wait, if it belongs
		// to the named group; a reply with nobody to answer wakes nobody.
		if r := p.replyTo; r >= 0 && int(r) >= first && int(r) < first+g.Count {
			cost += s.tryToWakeUp(s.tasks[r], p, rq.cpu, st.Sync)
		}
	default: // FanoutIndex
		i := 0
		if g.Count > 1 {
			i = p.info.Index % g.Count
		}
		cost += s.tryToWakeUp(s.tasks[first+i], p, rq.cpu, st.Sync)
	}
	return cost
}

const maxPendingWakers = 4096

// tryToWakeUp mirrors try_to_wake_up(p) issued on CPU cpu by waker (nil for
// a timer). A task not blocked in a wait only counts the wake (a semaphore
// post). It returns what the waking CPU is charged: the search's cost and
// the IPI's (Costs.WakeupIPISend).
func (s *Sim) tryToWakeUp(p *Task, waker *Task, cpu int, sync bool) int64 {
	s.work++ // a work unit per task woken (see Sim.Work)
	if waker != nil && !(p.state == TaskBlocked && p.waiting) {
		if p.state == TaskExited {
			return 0
		}
		p.pending++
		if len(p.wakers)-p.wakersHead < maxPendingWakers {
			if p.wakersHead > 0 && len(p.wakers) == cap(p.wakers) { // full: slide the live part down
				n := copy(p.wakers, p.wakers[p.wakersHead:])
				p.wakers, p.wakersHead = p.wakers[:n], 0
			}
			p.wakers = append(p.wakers, waker.id)
		}
		return 0
	}
	s.m.wakeups++
	p.lastWakeupStart = s.now
	p.waiting = false
	p.commFrom = -1
	if waker != nil {
		p.commFrom = cpu
		p.replyTo = waker.id
	}
	prev := p.cpu
	prq := s.cpus[prev]
	if p.delayed {
		s.ttwuRunnable(prq, p, waker, cpu)
		return 0
	}
	s.era.class.taskWaking(s, prq, p)
	target, d := s.selectTaskRQ(p, cpu, prev, sync, waker, SDBalanceWake)
	crq := s.cpus[cpu]
	crq.ttwuCount++
	if target == cpu {
		crq.ttwuLocal++
	} else {
		// ttwu_stat(): the first domain of this CPU spanning the target.
		for _, sd := range crq.domains {
			if sd.Span.Has(target) {
				sd.Stats.TTWUWakeRemote++
				break
			}
		}
	}
	p.state = TaskWaking
	arg := int32(-1)
	if waker != nil {
		arg = waker.id
	}
	s.emit(&Event{Kind: EvWakeup, CPU: int16(target), From: int16(prev), Task: p.id, Arg: arg, Level: d.Level, Why: d.Seq})
	if target != prev {
		// set_task_cpu() -> migrate_task_rq_fair().
		s.era.track.wakeMigrate(s, prq, p)
		p.wakeMigrated = true
		s.countMigration(p, prev, target, CauseWakeup)
		s.emit(&Event{Kind: EvMigrate, Cause: CauseWakeup, CPU: int16(target), From: int16(prev), Task: p.id, Arg: -1, Level: d.Level, Why: d.Seq})
	}
	p.cpu = target
	trq := s.cpus[target]
	var send int64 // the waker's cost of the IPI (Costs.WakeupIPISend)
	if target == cpu {
		s.activate(trq, p, p.takeWakeFlags())
	} else if !s.era.ttwuWakeList(s, cpu, trq) {
		// The waker takes the target's rq lock and ttwu_do_activate()s p
		// there now; the resched IPI makes an idle target start its exit.
		if s.activateByIPI(trq, p, p.takeWakeFlags(), d.Cost) {
			send = s.costs.WakeupIPISend
		}
	} else {
		// The wake list (ttwu_queue_wakelist() / 3.8's ttwu_queue_remote())
		// and 2.6.8's remote wake-up: the wakee arrives by IPI, sent once
		// the search (d.Cost) is done.
		// A polling idle target is woken by its flags, without the IPI
		// (era.queuedIPIPolls).
		lag, ipi := s.wakeSignal(trq, true)
		if ipi {
			send = s.costs.WakeupIPISend
		}
		trq.ttwuPending++
		s.updIdleMask(trq)
		s.m.cost.ipi += lag
		s.q.push(qev{t: s.now + d.Cost + lag, kind: evArrive, cpu: int32(target), task: p.id})
	}
	s.m.searchCost += d.Cost
	s.m.cpusExamined += int64(d.NCPUs)
	if waker == nil {
		send = 0 // a timer's interrupt: its time is not modelled
	}
	s.m.cost.ipiSend += send
	return d.Cost + send
}

// ttwuRunnable mirrors try_to_wake_up()'s ttwu_runnable() path for a task
// still on its runqueue as sched_delayed (DELAY_DEQUEUE): it is requeued in
// place (enqueue_task(ENQUEUE_DELAYED)) and woken there, with no
// select_task_rq() and no migration; ttwu_stat() counts the wake-up against
// task_cpu(p) as for any other.
func (s *Sim) ttwuRunnable(prq *RQ, p *Task, waker *Task, cpu int) {
	crq := s.cpus[cpu]
	crq.ttwuCount++
	if prq.cpu == cpu {
		crq.ttwuLocal++
	} else {
		for _, sd := range crq.domains {
			if sd.Span.Has(prq.cpu) {
				sd.Stats.TTWUWakeRemote++
				break
			}
		}
	}
	arg := int32(-1)
	if waker != nil {
		arg = waker.id
	}
	s.emit(&Event{Kind: EvWakeup, CPU: int16(prq.cpu), From: int16(prq.cpu), Task: p.id, Arg: arg, Level: -1, Why: -1})
	s.requeueDelayed(prq, p)
}

// idleCPU mirrors idle_cpu(): running the idle task, nothing queued, no
// wake-up in flight.
func (s *Sim) idleCPU(cpu int) bool { return s.idleMask.Has(cpu) }

// nrBusy is 3.8 sgp->nr_busy_cpus of group g: its CPUs that are not idle
// (nohz's accounting: rq.idle, kept in busyMask by goIdle and wakeIdle).
func (s *Sim) nrBusy(g *SchedGroup) int {
	m := g.Span.And(&s.busyMask)
	return m.Weight()
}

// updIdleMask keeps idleMask (the CPUs idle_cpu() is true of) in step with
// rq.idle and rq.ttwuPending.
func (s *Sim) updIdleMask(rq *RQ) {
	if rq.idle && rq.ttwuPending == 0 {
		s.idleMask.Set(rq.cpu)
	} else {
		s.idleMask.Clear(rq.cpu)
	}
}

// examine charges one CPU look-up to decision d. The examined set is
// only read from recorded decisions (explanations), so it is kept only
// while recording.
func (s *Sim) examine(d *Decision, cpu int) {
	if s.recording {
		d.Examined.Set(cpu)
	}
	d.NCPUs++
	d.Cost += s.costs.SearchCPU
}

func (s *Sim) examineGroup(d *Decision) {
	d.NGroups++
	d.Cost += s.costs.SearchGroup
}

// visitDomain charges one step of a for_each_domain() walk; with the
// schedule balance map (seed 003) domains are looked up directly, so only
// the first visit of a walk is charged.
func (s *Sim) visitDomain(d *Decision) {
	d.NDomains++
	if s.feature(FeatSchedBalanceMap) && d.NDomains > 1 {
		return
	}
	d.Cost += s.costs.SearchDomain
}

// selectTaskRQ mirrors select_task_rq_fair() of the era for a wake-up (fork
// false) or a fork, issued on CPU cpu for a task whose previous CPU is prev.
//
// sdFlag is the kind of placement, as the kernel passes it: SDBalanceWake
// (try_to_wake_up(), WF_TTWU), SDBalanceFork (wake_up_new_task(), WF_FORK)
// or SDBalanceExec (sched_exec(), WF_EXEC).
func (s *Sim) selectTaskRQ(p *Task, cpu, prev int, sync bool, waker *Task, sdFlag SDFlag) (int, *Decision) {
	path := "select_task_rq_fair(wake)"
	switch sdFlag {
	case SDBalanceFork:
		path = "select_task_rq_fair(fork)"
	case SDBalanceExec:
		path = "select_task_rq_fair(exec)"
	}
	d := s.newDecision(path, p, cpu)
	d.Prev = int16(prev)
	return s.era.selectTaskRQ(s, p, cpu, prev, sync, waker, sdFlag, d), d
}

// selectTaskRQ38 mirrors v3.8 select_task_rq_fair() (fair.c:3309-3396).
// The domain walk stops at the first SD_WAKE_AFFINE domain spanning prev, so
// an affine wake-up never consults SD_BALANCE_WAKE (the flag matters only
// for wake-ups that are not affine).
//
// With BALANCE_WAKE_MERGE and SD_BALANCE_WAKE set on a level at or below
// sd_llc, the affine path follows Preeti U Murthy's patch "sched: Merge
// select_idle_sibling with the behaviour of SD_BALANCE_WAKE" (seed 000
// lines 320-455): after wake_affine() picks the target, an idle target (the
// waking or the previous CPU) is taken at once; otherwise
// find_idlest_group()/find_idlest_cpu() descend from sd_llc(target) over the
// SD_BALANCE_WAKE levels.
//
// For fork and exec (3.8 sched_exec() calls select_task_rq(p,
// SD_BALANCE_EXEC, 0)) there is no affine path: the descent starts at the
// highest domain of this CPU with the flag, new_cpu = this CPU, and the
// loads are read at sd->forkexec_idx.
func selectTaskRQ38(s *Sim, p *Task, cpu, prev int, sync bool, waker *Task, sdFlag SDFlag, d *Decision) int {
	fork := sdFlag != SDBalanceWake
	if p.nrAllow == 1 {
		d.Reason = "pinned to one CPU"
		d.Chosen = int16(prev)
		return prev
	}
	if !fork && s.feature(FeatSchedBalanceMap) {
		return s.selectTaskRQSBM(p, cpu, prev, sync, waker, d) // seed 003's order (sbm.go)
	}
	flag := sdFlag
	newCPU := cpu
	wantAffine := false
	if !fork {
		wantAffine = p.allowed.Has(cpu) && s.feature(FeatWakeAffine)
		newCPU = prev
	}
	var affine, sd *SchedDomain
	for _, tmp := range s.cpus[cpu].domains {
		s.visitDomain(d)
		if tmp.Flags&SDLoadBalance == 0 {
			continue
		}
		if wantAffine && tmp.Flags&SDWakeAffine != 0 && tmp.Span.Has(prev) {
			affine = tmp
			break
		}
		if tmp.Flags&flag != 0 {
			sd = tmp
		}
	}
	if affine != nil {
		target := prev
		if cpu != prev && s.wakeAffine38(affine, p, cpu, prev, sync, waker, d) {
			target = cpu
		}
		d.Target = int16(target)
		if llc := s.cpus[target].sdLLC; llc != nil && s.balanceWakeBelow(llc) && s.feature(FeatBalanceWakeMerge) {
			// Preeti's patch.
			if (target == prev || target == cpu) && s.idleCPU(target) {
				s.examine(d, target)
				d.Reason = "SD_BALANCE_WAKE: target idle"
				d.Chosen = int16(target)
				return target
			}
			d.Path = "find_idlest_group(SD_BALANCE_WAKE in sd_llc)"
			return s.findIdlestDescent38(llc, p, cpu, prev, flag, true, d)
		}
		s.countBalanceWakeBypass(cpu)
		return s.selectIdleSibling(p, prev, target, d)
	}
	if sd == nil {
		d.Reason = "no domain with the balance flag"
		d.Chosen = int16(newCPU)
		return newCPU
	}
	if !fork {
		s.m.bwSlow++
	}
	d.Path += ": find_idlest_group"
	return s.findIdlestDescent38(sd, p, cpu, newCPU, flag, !fork, d)
}

// balanceWakeBelow reports whether sd or a lower level has SD_BALANCE_WAKE.
func (s *Sim) balanceWakeBelow(sd *SchedDomain) bool {
	for ; sd != nil; sd = sd.Child {
		if sd.Flags&SDBalanceWake != 0 {
			return true
		}
	}
	return false
}

// selectTaskRQ617 mirrors v6.17 select_task_rq_fair() (no EAS, no
// WF_CURRENT_CPU).
//
// Fork (wake_up_new_task(): WF_FORK) and exec (sched_exec(): WF_EXEC) pass
// sd_flag SD_BALANCE_FORK or SD_BALANCE_EXEC: no affine path, the walk
// keeps the highest domain with the flag and stops at the first without
// it, then sched_balance_find_dst_cpu() descends; new_cpu = prev_cpu =
// task_cpu(p), which is this CPU for both.
func selectTaskRQ617(s *Sim, p *Task, cpu, prev int, sync bool, waker *Task, sdFlag SDFlag, d *Decision) int {
	fork := sdFlag != SDBalanceWake
	flag := sdFlag
	newCPU := prev
	wantAffine := false
	if fork {
		newCPU = cpu
	} else {
		if waker != nil {
			s.recordWakee(waker, p)
		}
		wide := waker != nil && s.feature(FeatWakeWide) && s.wakeWide(waker, p, cpu)
		if wide {
			d.add("wake_wide", 1)
		}
		wantAffine = !wide && p.allowed.Has(cpu) && s.feature(FeatWakeAffine)
	}
	var sd *SchedDomain
	for _, tmp := range s.cpus[cpu].domains {
		s.visitDomain(d)
		if wantAffine && tmp.Flags&SDWakeAffine != 0 && tmp.Span.Has(prev) {
			if cpu != prev {
				newCPU = s.wakeAffine617(tmp, p, cpu, prev, sync, waker, d)
			}
			s.countBalanceWakeBypass(cpu)
			sd = nil
			break
		}
		if tmp.Flags&flag != 0 {
			sd = tmp
		} else if !wantAffine {
			break
		}
	}
	if sd != nil {
		if !fork {
			s.m.bwSlow++
		}
		d.Path += ": find_idlest_cpu"
		return s.findIdlestCPU617(sd, p, cpu, prev, flag, d)
	}
	if fork {
		d.Reason = "no domain with " + sdFlag.String()
		d.Chosen = int16(newCPU)
		return newCPU
	}
	d.Target = int16(newCPU)
	return s.selectIdleSibling(p, prev, newCPU, d)
}

// recordWakee mirrors record_wakee(): count how often current switches
// wakees, halving once a second.
func (s *Sim) recordWakee(curr, p *Task) {
	j := s.jiffies()
	if j > curr.wakeeFlipDecay+int64(s.cfg.Machine.HZ) {
		curr.wakeeFlips >>= 1
		curr.wakeeFlipDecay = j
	}
	if curr.lastWakee != p.id {
		curr.lastWakee = p.id
		curr.wakeeFlips++
	}
}

// wakeWide mirrors wake_wide(): a 1:N waker/wakee relation wider than the
// LLC is not pulled together.
func (s *Sim) wakeWide(curr, p *Task, cpu int) bool {
	master, slave := curr.wakeeFlips, p.wakeeFlips
	if master < slave {
		master, slave = slave, master
	}
	factor := 1
	if llc := s.cpus[cpu].sdLLC; llc != nil {
		factor = llc.Weight
	}
	return !(slave < factor || master < slave*factor)
}

// sourceLoad and targetLoad mirror 3.8 source_load()/target_load(): a low
// (high) guess of a CPU's load from cpu_load[idx-1] and the current load.
func (s *Sim) sourceLoad(cpu, idx int) uint64 {
	rq := s.cpus[cpu]
	total := s.cpuLoad(rq)
	if idx == 0 || !s.feature(FeatLBBias) {
		return total
	}
	return min(rq.cpuLoad[idx-1], total)
}

func (s *Sim) targetLoad(cpu, idx int) uint64 {
	rq := s.cpus[cpu]
	total := s.cpuLoad(rq)
	if idx == 0 || !s.feature(FeatLBBias) {
		return total
	}
	return max(rq.cpuLoad[idx-1], total)
}

// cpuAvgLoadPerTask mirrors cpu_avg_load_per_task().
func (s *Sim) cpuAvgLoadPerTask(cpu int) uint64 {
	rq := s.cpus[cpu]
	if rq.nrRunning == 0 {
		return 0
	}
	return s.cpuLoad(rq) / uint64(rq.nrRunning)
}

// wakeAffine38 mirrors v3.8 wake_affine(): pull the wakee to the waking CPU
// unless that unbalances the pair by more than half the imbalance_pct.
func (s *Sim) wakeAffine38(sd *SchedDomain, p *Task, this, prev int, sync bool, waker *Task, d *Decision) bool {
	idx := sd.WakeIdx
	load := int64(s.sourceLoad(prev, idx))
	thisLoad := int64(s.targetLoad(this, idx))
	s.examine(d, prev)
	s.examine(d, this)
	// wake_affine() weighs the tasks by se.load.weight whatever
	// weighted_cpuload() returns (v3.8 fair.c: "weight =
	// current->se.load.weight", "weight = p->se.load.weight"; unchanged by
	// the PELT-in-the-balancer patches of seeds 000/002, which changed
	// only weighted_cpuload() and cpu_avg_load_per_task(), and still so in
	// v4.x): with runnable_load_avg the CPUs' loads are averages and the
	// tasks' weights are full ones.
	if sync && waker != nil {
		thisLoad -= int64(waker.weight) // effective_load(tg, this, -w, -w) without groups
	}
	weight := int64(p.weight)
	balanced := true
	if thisLoad > 0 {
		thisEff := 100 * s.cpus[prev].capacity * (thisLoad + weight)
		prevEff := int64(100+(sd.ImbalancePct-100)/2) * s.cpus[this].capacity * load
		balanced = thisEff <= prevEff
	}
	d.add("this_load", thisLoad)
	d.add("prev_load", load)
	d.add("task_load", weight)
	if sync && balanced {
		sd.Stats.TTWUMoveAffine++
		d.add("affine", 1)
		return true
	}
	tlPerTask := int64(s.cpuAvgLoadPerTask(this))
	if balanced || (thisLoad <= load && thisLoad+int64(s.targetLoad(prev, idx)) <= tlPerTask) {
		sd.Stats.TTWUMoveAffine++
		d.add("affine", 1)
		return true
	}
	d.add("affine", 0)
	return false
}

// wakeAffine617 mirrors v6.17 wake_affine(): WA_IDLE, then WA_WEIGHT with
// WA_BIAS. It returns this CPU or prev.
func (s *Sim) wakeAffine617(sd *SchedDomain, p *Task, this, prev int, sync bool, waker *Task, d *Decision) int {
	target := -1
	s.examine(d, this)
	s.examine(d, prev)
	// wake_affine_idle()
	if s.idleCPU(this) && s.topo.SharesCache(this, prev) {
		if s.idleCPU(prev) {
			target = prev
		} else {
			target = this
		}
	} else if sync && s.cpus[this].nrRunning == 1 {
		target = this
	} else if s.idleCPU(prev) {
		target = prev
	}
	if target < 0 {
		// wake_affine_weight()
		thisEff := int64(s.cpuLoad(s.cpus[this]))
		weighted := true
		if sync && waker != nil {
			cur := int64(s.taskLoad(waker))
			if cur > thisEff {
				target = this
				weighted = false
			} else {
				thisEff -= cur
			}
		}
		if weighted {
			tl := int64(s.taskLoad(p))
			thisEff = (thisEff + tl) * 100 * s.cpus[prev].capacity
			prevEff := (int64(s.cpuLoad(s.cpus[prev])) - tl) * int64(100+(sd.ImbalancePct-100)/2) * s.cpus[this].capacity
			if sync {
				prevEff++
			}
			d.add("this_eff_load", thisEff)
			d.add("prev_eff_load", prevEff)
			if thisEff < prevEff {
				target = this
			}
		}
	}
	if target != this {
		d.add("affine", 0)
		return prev
	}
	sd.Stats.TTWUMoveAffine++
	d.add("affine", 1)
	return this
}

// ttwuWakeList38 mirrors 3.8 ttwu_queue(): with TTWU_QUEUE, the wake list
// only for a target outside the waker's LLC.
func ttwuWakeList38(s *Sim, cpu int, trq *RQ) bool {
	return s.feature(FeatTTWUQueue) && !s.topo.SharesCache(cpu, trq.cpu)
}

// ttwuWakeList617 mirrors v6.17 ttwu_queue_wakelist(): with TTWU_QUEUE,
// ttwu_queue_cond() sends a wake-up through the wake list when the target
// does not share the waker's cache, or does and has nothing on its
// runqueue ("If the wakee cpu is idle ... use the wakelist to offload the
// task activation to the idle (or soon-to-be-idle) CPU as the current CPU
// is likely busy"); a busy target in the LLC is enqueued by the waker.
func ttwuWakeList617(s *Sim, cpu int, trq *RQ) bool {
	return s.feature(FeatTTWUQueue) && (!s.topo.SharesCache(cpu, trq.cpu) || trq.nrRunning == 0)
}
