package sim

// NOHZ idle balancing: a busy CPU's tick kicks one idle CPU
// (nohz_balancer_kick(), 3.8 nohz_kick_needed()), which balances on behalf
// of every idle CPU whose balance is due (_nohz_idle_balance()).

// nohzBalancerKick mirrors nohz_balancer_kick() (3.8 nohz_kick_needed()):
// a busy CPU's tick asks an idle CPU to balance on behalf of all idle CPUs.
func (s *Sim) nohzBalancerKick(rq *RQ) {
	if s.m.nIdle == 0 || s.jiffies() < s.nohzNextBalance || s.nohzKickPending {
		return
	}
	if rq.nrRunning < 2 && !s.era.nohzKickBusy(s, rq) {
		return
	}
	s.nohzNextBalance = s.jiffies() + 1
	// find_new_ilb(): the first idle CPU.
	ilb := -1
	for c := 0; c < s.topo.NCPU; c++ {
		if s.idleCPU(c) {
			ilb = c
			break
		}
	}
	if ilb < 0 {
		return
	}
	s.nohzKickPending = true
	irq := s.cpus[ilb]
	lat := s.costs.WakeupIPI + s.costs.exitLatency(s.now-irq.idleSince)
	s.q.push(qev{t: s.now + lat, kind: evNohzKick, cpu: int32(ilb)})
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
		if g := s.cpuGroups[rq.cpu][i]; g.NrBusy > 1 {
			return true
		}
	}
	return false
}

// nohzIdleBalance mirrors _nohz_idle_balance(): the kicked idle CPU decays
// the blocked load of every idle CPU and balances those whose next_balance
// is due, starting after itself and ending with itself.
func (s *Sim) nohzIdleBalance(ilb *RQ) {
	s.nohzKickPending = false
	if ilb.idle {
		ilb.idleSince = s.now // it woke up to do this
	}
	n := s.topo.NCPU
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	s.nohzBalancing = true
	for i := 1; i <= n; i++ {
		c := (ilb.cpu + i) % n
		if !s.idleCPU(c) {
			continue
		}
		if !s.idleCPU(ilb.cpu) && ilb.needResched {
			break
		}
		rq := s.cpus[c]
		s.era.track.decayBlocked(s, rq)
		if j >= rq.nextBalance {
			s.era.rebalanceDomains(s, rq, cpuIdle)
		}
		if next > rq.nextBalance {
			next = rq.nextBalance
			update = true
		}
	}
	s.nohzBalancing = false
	if update {
		s.nohzNextBalance = next
	}
}
