package sim

// Newidle balancing: a CPU about to go idle pulls work
// (sched_balance_newidle(), 3.8 idle_balance()), gated by the era, and the
// cost bookkeeping that gates it (update_newidle_cost()).

// newidleBalance mirrors sched_balance_newidle() (3.8 idle_balance()): a CPU
// about to go idle pulls work, domain by domain, while its average idle time
// can pay for the search. It reports whether a task was pulled.
func (s *Sim) newidleBalance(rq *RQ) bool {
	if !s.feature(FeatNewidleBalance) || rq.ttwuPending > 0 {
		return false
	}
	rq.idleStamp = max(s.now, 1)
	if !s.era.newidleGate(s, rq) {
		return false
	}
	s.era.track.decayBlocked(s, rq)
	pulled := 0
	var currCost int64
	cont := true
	for _, sd := range rq.domains {
		if s.era.newidleStop(s, rq, sd, currCost) {
			break
		}
		if sd.Flags&SDBalanceNewidle != 0 {
			before := s.m.balanceCost
			pulled = s.loadBalance(rq, sd, cpuNewlyIdle, &cont)
			cost := s.m.balanceCost - before
			s.updateNewidleCost(sd, cost)
			currCost += cost
		}
		if pulled > 0 || !cont {
			break
		}
	}
	if currCost > rq.maxIdleBalanceCost {
		rq.maxIdleBalanceCost = currCost
	}
	if pulled > 0 || len(rq.queue) > 0 {
		rq.idleStamp = 0
		return true
	}
	return false
}

// newidleGate617: skip newidle balancing unless the root domain is
// overloaded and the CPU's average idle time exceeds the lowest domain's
// max_newidle_lb_cost.
func (s *Sim) newidleGate617(rq *RQ) bool {
	return s.rdOverloaded && (len(rq.domains) == 0 || rq.avgIdle >= rq.domains[0].MaxNewidleLBCost)
}

// newidleStop617: stop before a domain whose cost the idle time cannot pay.
func (s *Sim) newidleStop617(rq *RQ, sd *SchedDomain, currCost int64) bool {
	return rq.avgIdle < currCost+sd.MaxNewidleLBCost
}

// newidleGate38 mirrors 3.8 idle_balance(): skip when avg_idle <
// sysctl_sched_migration_cost.
func (s *Sim) newidleGate38(rq *RQ) bool { return rq.avgIdle >= s.migrationCost }

// updateNewidleCost mirrors update_newidle_cost().
func (s *Sim) updateNewidleCost(sd *SchedDomain, cost int64) bool {
	j := s.jiffies()
	if cost > sd.MaxNewidleLBCost {
		sd.MaxNewidleLBCost = cost
		sd.LastDecayMaxLBCost = j
	} else if j > sd.LastDecayMaxLBCost+int64(s.cfg.Machine.HZ) {
		sd.MaxNewidleLBCost = sd.MaxNewidleLBCost * 253 / 256
		sd.LastDecayMaxLBCost = j
		return true
	}
	return false
}
