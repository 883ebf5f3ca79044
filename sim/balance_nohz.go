package sim

// NOHZ idle balancing: a busy CPU's tick kicks one idle CPU
// (nohz_balancer_kick(), 3.8 nohz_kick_needed()), which balances on behalf
// of every idle CPU whose balance is due (_nohz_idle_balance()).

// nohzFlags are a kick's NOHZ_*_KICK flags.
type nohzFlags uint8

const (
	nohzBalanceKick nohzFlags = 1 << iota // balance the idle CPUs that are due
	nohzStatsKick                         // decay their blocked load (v6.17; every 3.8 kick does)
	nohzNextKick                          // collate their next_balance (v6.17)
)

// nohzBalancerKick mirrors nohz_balancer_kick() (3.8 nohz_kick_needed()):
// a busy CPU's tick asks an idle CPU to balance on behalf of all idle CPUs
// (NOHZ_BALANCE_KICK) when one is due and this CPU has work to spare. In
// v6.17 it also kicks, at most every LOAD_AVG_PERIOD ms while some idle CPU
// may still carry blocked load, only to decay that load (NOHZ_STATS_KICK:
// `if (READ_ONCE(nohz.has_blocked) && time_after(now,
// READ_ONCE(nohz.next_blocked))) flags = NOHZ_STATS_KICK;`), even when no
// balancing is due, and while a CPU has entered nohz idle since the last
// collation, only to collate the idle CPUs' next_balance (NOHZ_NEXT_KICK:
// `if (READ_ONCE(nohz.needs_update)) flags |= NOHZ_NEXT_KICK;`).
//
// A kick while one is pending adds its flags to the pending one (kick_ilb():
// atomic_fetch_or() into nohz_flags(ilb_cpu); no second IPI).
func (s *Sim) nohzBalancerKick(rq *RQ) {
	rq.nohzStopped = false // nohz_balance_exit_idle(): its first busy tick
	if s.m.nIdle == s.nTickRetained {
		// No CPU in nohz.idle_cpus_mask (!nohz.nr_cpus).
		return
	}
	j := s.jiffies()
	var flags nohzFlags
	if s.era.nohzStatsKick && s.nohzHasBlocked && j > s.nohzNextBlocked {
		flags |= nohzStatsKick
	}
	if j >= s.nohzNextBalance && (rq.nrRunning >= 2 || s.era.nohzKickBusy(s, rq)) {
		// NOHZ_KICK_MASK: a balance kick decays blocked load too.
		flags |= nohzBalanceKick | nohzStatsKick
		s.nohzNextBalance = j + 1
	}
	if s.era.nohzNextKick && s.nohzNeedsUpdate {
		flags |= nohzNextKick
	}
	if flags == 0 {
		return
	}
	if s.nohzKick != 0 {
		s.nohzKick |= flags
		return
	}
	// find_new_ilb(): the first idle CPU of nohz.idle_cpus_mask.
	ilb := -1
	for c := 0; c < s.topo.NCPU; c++ {
		if s.nohzIdleCPU(c) {
			ilb = c
			break
		}
	}
	if ilb < 0 {
		return
	}
	s.nohzKick = flags
	irq := s.cpus[ilb]
	// The kick's IPI; none to a polling CPU in v6.17 (kick_ilb()'s
	// smp_call_function_single_async(): era.queuedIPIPolls).
	ipi, _ := s.wakeSignal(irq, true)
	_, exit := s.leaveIdle(irq, s.now-irq.idleSince, ipi)
	lat := ipi + exit
	s.m.cost.ipi += ipi
	s.q.push(qev{t: s.now + lat, kind: evNohzKick, cpu: int32(ilb)})
}

// nohzIdleCPU: cpu is idle and in nohz.idle_cpus_mask (its tick stopped;
// every idle CPU but one that keeps its tick under NOHZ_AFTER_TICK).
func (s *Sim) nohzIdleCPU(cpu int) bool {
	return s.idleCPU(cpu) && !s.cpus[cpu].tickRetained
}

// nohzKickBusy617: the LLC has more than one busy CPU (nr_busy_cpus).
func nohzKickBusy617(s *Sim, rq *RQ) bool { return rq.llc.nrBusyCPUs > 1 }

// nohzKickBusy38 mirrors 3.8 nohz_kick_needed(): a SHARE_PKG_RESOURCES
// level whose local group has more than one busy CPU.
func nohzKickBusy38(s *Sim, rq *RQ) bool {
	for i, sd := range rq.domains {
		if sd.Flags&SDShareLLC == 0 {
			break
		}
		if g := s.cpuGroups[rq.cpu][i]; s.nrBusy(g) > 1 {
			return true
		}
	}
	return false
}

// nohzBalanceEnterIdle mirrors v6.17 nohz_balance_enter_idle(), called as
// the CPU's tick stops in idle (at idle entry in the model): the idle CPUs
// may carry blocked load, and a CPU whose tick had run busy since it last
// entered is new to nohz, so nohz.next_balance must take its next_balance.
func (s *Sim) nohzBalanceEnterIdle(rq *RQ) {
	if !rq.nohzStopped {
		rq.nohzStopped = true
		s.nohzNeedsUpdate = true
	}
	s.nohzHasBlocked = true
}

// nohzIdleBalance mirrors _nohz_idle_balance(): the kicked idle CPU visits
// every idle CPU, starting after itself and ending with itself: for a stats
// kick it decays their blocked load, for a balance kick it balances those
// whose next_balance is due, and for any kick it collates their
// next_balance into nohz.next_balance. A 3.8 idle CPU's cpu_load[] is
// brought up to date first (update_idle_cpu_load(), 3.8 fair.c:5576); a
// 3.8 kick is always a balance kick and decays as one.
func (s *Sim) nohzIdleBalance(ilb *RQ) {
	flags := s.nohzKick
	s.nohzKick = 0
	balance, stats, nextKick := flags&nohzBalanceKick != 0, flags&nohzStatsKick != 0, flags&nohzNextKick != 0
	if nextKick {
		s.nohzNeedsUpdate = false
	}
	if ilb.idle {
		ilb.idleSince = s.now // it woke up to do this
	}
	n := s.topo.NCPU
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update, hasBlocked, aborted := false, false, false
	s.nohzBalancing = true
	for i := 1; i <= n; i++ {
		c := (ilb.cpu + i) % n
		if !s.nohzIdleCPU(c) {
			continue
		}
		if !s.idleCPU(ilb.cpu) && ilb.needResched {
			// The pass was cut short: keep trying.
			hasBlocked = stats
			if nextKick {
				s.nohzNeedsUpdate = true
			}
			aborted = true
			break
		}
		rq := s.cpus[c]
		if stats {
			s.era.track.decayBlocked(s, rq)
			if rq.cfsAvg.LoadAvg > 0 || rq.cfsAvg.UtilAvg > 0 {
				hasBlocked = true // update_nohz_stats(): still blocked load
			}
		}
		if balance && j >= rq.nextBalance {
			if f := s.era.nohzIdleUpdate; f != nil {
				f(s, rq)
			}
			s.era.rebalanceDomains(s, rq, cpuIdle)
		}
		if next > rq.nextBalance {
			next = rq.nextBalance
			update = true
		}
	}
	s.nohzBalancing = false
	if ilb.idle {
		// It re-enters idle: the governor chooses again, with the cpu_load
		// the pass left (era.idleMult).
		s.setIdleMult(ilb)
	}
	if aborted && s.era.nohzNextKick {
		// v6.17 `goto abort`: nohz.next_balance and next_blocked stay as
		// they were (3.8 sets next_balance from the CPUs it visited).
		if hasBlocked {
			s.nohzHasBlocked = true
		}
		return
	}
	if stats {
		// nohz.next_blocked = now + LOAD_AVG_PERIOD ms; has_blocked stays
		// set while some idle CPU still has blocked load.
		s.nohzNextBlocked = j + (32*int64(s.cfg.Machine.HZ)+999)/1000
		s.nohzHasBlocked = hasBlocked
	}
	if update {
		s.nohzNextBalance = next
	}
}

// updateIdleCPULoad38 mirrors 3.8 update_idle_cpu_load() (core.c:2638): an
// idle CPU with no load catches its cpu_load[] up for the ticks it missed.
func (s *Sim) updateIdleCPULoad38(rq *RQ) {
	if rq.loadWeight != 0 {
		return
	}
	s.cpuLoadTick38(rq, 0, s.jiffies())
}
