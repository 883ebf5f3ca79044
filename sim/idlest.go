package sim

// The slow path of select_task_rq_fair(): find_idlest_group() and
// find_idlest_cpu() (v6.17: sched_balance_find_dst_group/_cpu), used by fork
// and exec balancing and by wake-ups on SD_BALANCE_WAKE domains.

// findIdlestDescent38 mirrors the v3.8 descent loop of select_task_rq_fair():
// at each level with the flag, pick the idlest group and its idlest CPU,
// then continue on that CPU's lower domains. newCPU is the fallback.
func (s *Sim) findIdlestDescent38(sd *SchedDomain, p *Task, cpu, newCPU int, flag SDFlag, wake bool, d *Decision) int {
	moved, kept := false, false
	for sd != nil {
		if sd.Flags&flag == 0 {
			sd = sd.Child
			continue
		}
		idx := sd.ForkexecIdx
		if wake {
			idx = sd.WakeIdx
		}
		g := s.findIdlestGroup38(sd, p, cpu, idx, d)
		if g == nil {
			kept = true
			sd = sd.Child
			continue
		}
		c := s.findIdlestCPU38(g, p, cpu, d)
		if c >= 0 {
			newCPU = c
		}
		if c == -1 || c == cpu {
			sd = sd.Child
			continue
		}
		moved = true
		d.Level = int8(sd.Level)
		cpu = c
		w := sd.Weight
		sd = nil
		for _, tmp := range s.cpus[cpu].domains {
			s.visitDomain(d)
			if w <= tmp.Weight {
				break
			}
			if tmp.Flags&flag != 0 {
				sd = tmp
			}
		}
	}
	if d.Reason == "" {
		d.Reason = descentReason(moved, kept)
	}
	d.Chosen = int16(newCPU)
	return newCPU
}

// descentReason says how a descent ended: it moved to an idlest group at
// some level (Decision.Level, the last such level; a level below it may
// have kept the local group), the local group was idle enough at every
// level that had one, or the idlest group's idlest CPU was this one.
func descentReason(moved, kept bool) string {
	switch {
	case moved:
		return "idlest group"
	case kept:
		return "local group idle enough at every level"
	}
	return "idlest CPU"
}

// Numbers a descent adds once per level, named by the level
// ("MC.this_load"): each level's comparison, told apart (the strings are
// made once, so a decision adds constants).
const (
	keyThisLoad = iota
	keyMinLoad
	keyLocalType
	keyIdlestType
	numLevelKeys
)

var levelKeys = func() (k [NumLevels][numLevelKeys]string) {
	for l := range k {
		n := levelNames[l]
		k[l] = [numLevelKeys]string{n + ".this_load", n + ".min_load", n + ".local_type", n + ".idlest_type"}
	}
	return k
}()

// findIdlestGroup38 mirrors v3.8 find_idlest_group(): the group with the
// least power-scaled load (source_load locally, target_load elsewhere),
// unless the local group is within half the imbalance_pct of it.
func (s *Sim) findIdlestGroup38(sd *SchedDomain, p *Task, this, idx int, d *Decision) *SchedGroup {
	var idlest *SchedGroup
	minLoad := ^uint64(0)
	var thisLoad uint64
	imbalance := uint64(100 + (sd.ImbalancePct-100)/2)
	for _, g := range sd.Groups {
		s.examineGroup(d)
		if !g.Span.Intersects(&p.allowed) {
			continue
		}
		local := g.Span.Has(this)
		var avg uint64
		for c := g.Span.First(); c >= 0; c = g.Span.Next(c) {
			s.examine(d, c)
			if local {
				avg += s.sourceLoad(c, idx)
			} else {
				avg += s.targetLoad(c, idx)
			}
		}
		avg = avg * capacityScale / uint64(g.Capacity)
		if local {
			thisLoad = avg
		} else if avg < minLoad {
			minLoad = avg
			idlest = g
		}
	}
	if idlest == nil {
		return nil
	}
	d.add(levelKeys[sd.Level][keyThisLoad], int64(thisLoad))
	d.add(levelKeys[sd.Level][keyMinLoad], int64(minLoad))
	if 100*thisLoad < imbalance*minLoad {
		return nil // the local group is idle enough
	}
	return idlest
}

// findIdlestCPU38 mirrors v3.8 find_idlest_cpu(): least weighted_cpuload,
// ties to this CPU.
func (s *Sim) findIdlestCPU38(g *SchedGroup, p *Task, this int, d *Decision) int {
	idlest := -1
	minLoad := ^uint64(0)
	m := g.Span.And(&p.allowed)
	for c := m.First(); c >= 0; c = m.Next(c) {
		s.examine(d, c)
		load := s.cpuLoad(s.cpus[c])
		if load < minLoad || (load == minLoad && c == this) {
			minLoad = load
			idlest = c
		}
	}
	return idlest
}

// cpuLoadWithout mirrors cpu_load_without(): a CPU's load without p's
// (blocked) contribution when p last ran there.
//
// An exec'ing task runs on rq (rq.curr == p): the kernel discounts it there
// too (cpu_load_without() tests only task_cpu(p) and last_update_time).
func (s *Sim) cpuLoadWithout(rq *RQ, p *Task) uint64 {
	l := s.cpuLoad(rq)
	if p.cpu != rq.cpu || (p.onRq && rq.curr != p) {
		return l
	}
	if s.lm == LoadAvg && (p.avg.LastUpdateTime != 0 || rq.curr == p) {
		subPositive(&l, p.avg.LoadAvg)
	} else if s.lm == LoadRunnablePlusBlocked {
		subPositive(&l, p.avg38.LoadAvgContrib)
	}
	return l
}

// cpuUtilWithout mirrors cpu_util_without(), that is v6.17 cpu_util(cpu, p,
// -1, 0): p's util_avg leaves its CPU's; so does its util_est, but only
// while p is enqueued there ("During exec (@dst_cpu = -1) @p is enqueued
// and does contribute to cpu_rq(cpu)->cfs.util_est. Remove it"), which
// here means p is current (the exec'ing task): a waking task, the other
// case that gets this far, is not enqueued.
func (s *Sim) cpuUtilWithout(rq *RQ, p *Task) uint64 {
	u := rq.cfsAvg.UtilAvg
	est := rq.cfsAvg.UtilEst
	if p.cpu == rq.cpu && ((p.avg.LastUpdateTime != 0 && !p.onRq) || rq.curr == p) {
		subPositive(&u, p.avg.UtilAvg)
		if rq.curr == p {
			subPositive(&est, taskUtilEst(p))
		}
	}
	return min(max(u, est), uint64(rq.capacity))
}

// updateSgWakeupStats mirrors update_sg_wakeup_stats().
func (s *Sim) updateSgWakeupStats(sd *SchedDomain, g *SchedGroup, p *Task, d *Decision) sgStats {
	var sgs sgStats
	m := g.Span.And(&p.allowed)
	for c := m.First(); c >= 0; c = m.Next(c) {
		s.examine(d, c)
		rq := s.cpus[c]
		sgs.groupLoad += s.cpuLoadWithout(rq, p)
		sgs.groupUtil += s.cpuUtilWithout(rq, p)
		run := rq.cfsAvg.RunnableAvg
		// local: p itself runs here, exec'ing (task_running_on_cpu()). A
		// running task is attached (last_update_time != 0 in the kernel;
		// here a task attached at time 0 also reads 0).
		local := 0
		if p.cpu == c && rq.curr == p {
			local = 1
		}
		if p.cpu == c && ((!p.onRq && p.avg.LastUpdateTime != 0) || local == 1) {
			subPositive(&run, p.avg.RunnableAvg)
		}
		sgs.groupRunnable += run
		sgs.sumHNrRunning += rq.hNrRunnable() - local // h_nr_runnable, as update_sg_lb_stats()
		sgs.sumNrRunning += rq.nrRunning - local
		// idle_cpu_without(): idle, or running only p with no wake-up in flight.
		if rq.nrRunning-local == 0 && (s.idleCPU(c) || (local == 1 && rq.ttwuPending == 0)) {
			sgs.idleCPUs++
		}
	}
	sgs.groupCapacity = uint64(g.Capacity)
	sgs.groupWeight = g.Weight
	sgs.groupType = groupClassify(sd.ImbalancePct, g, &sgs, false)
	if sgs.groupType == groupFullyBusy || sgs.groupType == groupOverloaded {
		sgs.avgLoad = sgs.groupLoad * capacityScale / sgs.groupCapacity
	}
	return sgs
}

// updatePickIdlest mirrors update_pick_idlest().
func updatePickIdlest(idlest *sgStats, sgs *sgStats) bool {
	if sgs.groupType < idlest.groupType {
		return true
	}
	if sgs.groupType > idlest.groupType {
		return false
	}
	switch sgs.groupType {
	case groupOverloaded, groupFullyBusy:
		if idlest.avgLoad <= sgs.avgLoad {
			return false
		}
	case groupImbalanced, groupAsymPacking, groupSMTBalance, groupMisfitTask:
		return false
	case groupHasSpare:
		if idlest.idleCPUs > sgs.idleCPUs {
			return false
		}
		if idlest.idleCPUs == sgs.idleCPUs && idlest.groupUtil <= sgs.groupUtil {
			return false
		}
	}
	return true
}

// findIdlestGroup617 mirrors sched_balance_find_dst_group() (v6.17).
func (s *Sim) findIdlestGroup617(sd *SchedDomain, p *Task, this int, d *Decision) *SchedGroup {
	var idlest, local *SchedGroup
	idlestSgs := sgStats{avgLoad: ^uint64(0), groupType: groupOverloaded}
	var localSgs sgStats
	for _, g := range sd.Groups {
		s.examineGroup(d)
		if !g.Span.Intersects(&p.allowed) {
			continue
		}
		sgs := s.updateSgWakeupStats(sd, g, p, d)
		if g.Span.Has(this) {
			local = g
			localSgs = sgs
			continue
		}
		if updatePickIdlest(&idlestSgs, &sgs) {
			idlest = g
			idlestSgs = sgs
		}
	}
	if idlest == nil {
		return nil
	}
	if local == nil {
		return idlest
	}
	d.add(levelKeys[sd.Level][keyLocalType], int64(localSgs.groupType))
	d.add(levelKeys[sd.Level][keyIdlestType], int64(idlestSgs.groupType))
	if localSgs.groupType < idlestSgs.groupType {
		return nil
	}
	if localSgs.groupType > idlestSgs.groupType {
		return idlest
	}
	switch localSgs.groupType {
	case groupOverloaded, groupFullyBusy:
		imb := uint64(nice0Load * (sd.ImbalancePct - 100) / 100)
		if sd.Flags&SDNuma != 0 && idlestSgs.avgLoad+imb >= localSgs.avgLoad {
			return nil
		}
		if idlestSgs.avgLoad >= localSgs.avgLoad+imb {
			return nil
		}
		if 100*localSgs.avgLoad <= uint64(sd.ImbalancePct)*idlestSgs.avgLoad {
			return nil
		}
	case groupImbalanced, groupAsymPacking, groupSMTBalance, groupMisfitTask:
		return nil
	case groupHasSpare:
		if sd.Flags&SDNuma != 0 {
			// adjust_numa_imbalance(): keep the task near its waker while
			// the local node runs fewer than imb_numa_nr tasks.
			imb := absInt(localSgs.idleCPUs - idlestSgs.idleCPUs)
			if localSgs.sumNrRunning+1 < sd.ImbNumaNr && imb <= 2 {
				return nil
			}
		}
		if localSgs.idleCPUs >= idlestSgs.idleCPUs {
			return nil
		}
	}
	return idlest
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// findIdlestGroupCPU617 mirrors sched_balance_find_dst_group_cpu(): the idle
// CPU in the shallowest C-state (ties: most recently idled), else the least
// loaded one.
func (s *Sim) findIdlestGroupCPU617(g *SchedGroup, p *Task, this int, d *Decision) int {
	if g.Weight == 1 {
		return g.First
	}
	minExit := int64(1 << 62)
	var latestIdle int64 = -1 << 62
	shallowest := -1
	minLoad := ^uint64(0)
	least := this
	m := g.Span.And(&p.allowed)
	for c := m.First(); c >= 0; c = m.Next(c) {
		s.examine(d, c)
		rq := s.cpus[c]
		if s.idleCPU(c) {
			// idle_get_state(rq)->exit_latency: the state the CPU
			// requested (package states, the governor's multiplier);
			// its wake-up may pay less, on a core whose sibling is
			// shallower (coreExit), which the kernel does not see.
			_, exit := s.idleExit(rq, s.now-rq.idleSince)
			if exit < minExit {
				minExit = exit
				latestIdle = rq.idleSince
				shallowest = c
			} else if exit == minExit && rq.idleSince > latestIdle {
				latestIdle = rq.idleSince
				shallowest = c
			}
		} else if shallowest == -1 {
			if l := s.cpuLoad(rq); l < minLoad {
				minLoad = l
				least = c
			}
		}
	}
	if shallowest != -1 {
		return shallowest
	}
	return least
}

// findIdlestCPU617 mirrors sched_balance_find_dst_cpu(): the v6.17 descent.
func (s *Sim) findIdlestCPU617(sd *SchedDomain, p *Task, cpu, prev int, flag SDFlag, d *Decision) int {
	if !sd.Span.Intersects(&p.allowed) {
		d.Reason = "no allowed CPU in the domain: prev"
		d.Chosen = int16(prev)
		return prev
	}
	newCPU := cpu
	moved := false
	for sd != nil {
		if sd.Flags&flag == 0 {
			sd = sd.Child
			continue
		}
		g := s.findIdlestGroup617(sd, p, cpu, d)
		if g == nil {
			sd = sd.Child
			continue
		}
		newCPU = s.findIdlestGroupCPU617(g, p, cpu, d)
		if newCPU == cpu {
			sd = sd.Child
			continue
		}
		moved = true
		d.Level = int8(sd.Level)
		cpu = newCPU
		w := sd.Weight
		sd = nil
		for _, tmp := range s.cpus[cpu].domains {
			s.visitDomain(d)
			if w <= tmp.Weight {
				break
			}
			if tmp.Flags&flag != 0 {
				sd = tmp
			}
		}
	}
	if moved {
		d.Reason = "idlest group and CPU"
	} else {
		d.Reason = "the local group at every level" // sched_balance_find_dst_group() returned NULL or this CPU
	}
	d.Chosen = int16(newCPU)
	return newCPU
}
