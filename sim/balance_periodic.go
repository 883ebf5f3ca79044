package sim

// Periodic load balancing: the tick raises the balance softirq when a CPU's
// next_balance is due (sched_balance_trigger(), 3.8 trigger_load_balance()),
// and the softirq walks the CPU's domains bottom-up, balancing each whose
// interval has passed (sched_balance_domains(), 3.8 rebalance_domains(); the
// era chooses the walk). One balancing pass is balance.go's (v6.17) or
// balance38.go's (v3.8).

// triggerLoadBalance mirrors sched_balance_trigger() at a tick: raise the
// balance softirq when due (run inline) and kick the idle load balancer.
func (s *Sim) triggerLoadBalance(rq *RQ, idle bool, j int64) {
	if j >= rq.nextBalance {
		it := cpuNotIdle
		if idle {
			it = cpuIdle
		}
		s.era.track.decayBlocked(s, rq)
		s.era.rebalanceDomains(s, rq, it)
	}
	if !idle && s.feature(FeatNohzIdleBalance) {
		s.nohzBalancerKick(rq)
	}
}

// balanceInterval mirrors get_sd_balance_interval(), in jiffies; a busy
// CPU's interval is shortened by busyTrim jiffies (v6.17: one, "so that
// the busy CPU does not balance at the same time as an idle one"; 3.8:
// none) before it is clamped.
func (s *Sim) balanceInterval(sd *SchedDomain, busy bool, busyTrim int64) int64 {
	iv := sd.BalanceInterval
	if busy {
		iv *= int64(sd.BusyFactor)
	}
	iv = msToJiffies(iv, s.cfg.Machine.HZ)
	if busy {
		iv -= busyTrim
	}
	maxIv := int64(s.cfg.Machine.HZ) * int64(s.topo.NCPU) / 10
	return min(max(iv, 1), max(maxIv, 1))
}

func msToJiffies(ms int64, hz int) int64 { return (ms*int64(hz) + 999) / 1000 }

// rebalanceDomains617 mirrors sched_balance_domains(): balance every domain
// whose interval has passed, bottom-up; after should_we_balance() said no,
// keep walking only to decay max_newidle_lb_cost.
func rebalanceDomains617(s *Sim, rq *RQ, idle int) {
	cont := true
	busy := idle != cpuIdle
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	var maxCost int64
	needDecay := false
	for _, sd := range rq.domains {
		needDecay = s.updateNewidleCost(sd, 0, 0) || needDecay
		maxCost += sd.MaxNewidleLBCost
		if !cont {
			if needDecay {
				continue
			}
			break
		}
		iv := s.balanceInterval(sd, busy, 1)
		if j >= sd.LastBalance+iv {
			if s.loadBalance(rq, sd, idle, &cont) > 0 {
				// We pulled tasks: re-read idle_cpu().
				idle = cpuNotIdle
				if s.idleCPU(rq.cpu) {
					idle = cpuIdle
				}
				busy = idle != cpuIdle
			}
			sd.LastBalance = j
			iv = s.balanceInterval(sd, busy, 1)
		}
		if next > sd.LastBalance+iv {
			next = sd.LastBalance + iv
			update = true
		}
	}
	s.rebalanceDone(rq, needDecay, maxCost, update, next)
}

// rebalanceDomains38 mirrors 3.8 rebalance_domains(): as v6.17, but a
// pass that pulled tasks makes the CPU busy for the levels above, and the
// walk stops where load_balance() cleared balance.
func rebalanceDomains38(s *Sim, rq *RQ, idle int) {
	cont := true
	busy := idle != cpuIdle
	j := s.jiffies()
	next := j + 60*int64(s.cfg.Machine.HZ)
	update := false
	var maxCost int64
	needDecay := false
	for _, sd := range rq.domains {
		needDecay = s.updateNewidleCost(sd, 0, 0) || needDecay
		maxCost += sd.MaxNewidleLBCost
		iv := s.balanceInterval(sd, busy, 0)
		if j >= sd.LastBalance+iv {
			if s.loadBalance(rq, sd, idle, &cont) > 0 {
				// We pulled tasks: no longer idle.
				idle = cpuNotIdle
				busy = true
			}
			sd.LastBalance = j
		}
		if next > sd.LastBalance+iv {
			next = sd.LastBalance + iv
			update = true
		}
		if !cont {
			break
		}
	}
	s.rebalanceDone(rq, needDecay, maxCost, update, next)
}

// rebalanceDone is the tail of the periodic walk: the decayed newidle cost
// and the next balance time.
func (s *Sim) rebalanceDone(rq *RQ, needDecay bool, maxCost int64, update bool, next int64) {
	if needDecay {
		rq.maxIdleBalanceCost = max(s.migrationCost, maxCost)
	}
	if update {
		rq.nextBalance = next
	}
}
