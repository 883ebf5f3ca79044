package sim

// Newidle balancing: a CPU about to go idle pulls work
// (sched_balance_newidle(), 3.8 idle_balance()), gated by the era, and the
// cost bookkeeping that gates it (update_newidle_cost()).

// newidleBalance is the era's newidle balancing of a CPU about to go idle:
// domain by domain, while its average idle time can pay for the search. It
// reports whether a task was pulled.
func (s *Sim) newidleBalance(rq *RQ) bool {
	if !s.feature(FeatNewidleBalance) || rq.ttwuPending > 0 {
		return false
	}
	rq.idleStamp = max(s.now, 1)
	return s.era.newidleBalance(s, rq)
}

// newidleBalance617 mirrors sched_balance_newidle(): skip unless the root
// domain is overloaded and the CPU's average idle time exceeds the lowest
// domain's max_newidle_lb_cost; stop before a domain whose cost the idle
// time cannot pay. Either way the CPU's next_balance moves forward to the
// earliest idle interval of the domains it visited ("Move the next balance
// forward": a CPU that goes idle after busy ticks had set next_balance a
// busy_factor away is balanced, and kicked by nohz, at idle intervals).
//
// Each domain's pass updates its max_newidle_lb_cost. With NEWIDLE_BUMP
// (v6.17) a pass that pulled nothing is recorded as costing half as much
// again as that maximum ("Failing newidle means it is not effective; bump
// the cost so we end up doing less of it"), so a CPU whose idle periods
// are short gives up newidle balancing after a few failures. With
// NI_RANDOM (the proportional newidle balance of v6.19 and the later
// stables) a die of 1024 sides is thrown before each domain's pass, which
// runs only if it shows at most 1 + the domain's success rate, and a
// success counts with the inverse of that chance.
func newidleBalance617(s *Sim, rq *RQ) bool {
	next := s.jiffies() + int64(s.cfg.Machine.HZ)
	if !s.rdOverloaded || (len(rq.domains) > 0 && rq.avgIdle < rq.domains[0].MaxNewidleLBCost) {
		if len(rq.domains) > 0 {
			s.updateNextBalance(rq.domains[0], &next)
		}
		rq.nextBalance = min(rq.nextBalance, next)
		return false
	}
	s.era.track.decayBlocked(s, rq)
	pulled := 0
	var currCost int64
	cont := true
	for _, sd := range rq.domains {
		s.updateNextBalance(sd, &next)
		if rq.avgIdle < currCost+sd.MaxNewidleLBCost {
			break
		}
		if sd.Flags&SDBalanceNewidle == 0 {
			continue
		}
		weight := 1
		if s.feature(FeatNIRandom) {
			weight = 1 + sd.NewidleRatio
			if int(s.rng.Uint32()%1024) > weight { // sched_rng() % 1024
				sd.updateNewidleStats(0)
				continue
			}
			weight = (1024 + weight/2) / weight
		}
		var cost int64
		pulled, cost = s.newidleDomain(rq, sd, &cont)
		currCost += cost
		if s.feature(FeatNIRandom) {
			sd.updateNewidleStats(weight * min(pulled, 1))
		}
		capAt := int64(0)
		if s.feature(FeatNewidleBump) {
			if pulled == 0 {
				cost = 3 * sd.MaxNewidleLBCost / 2
			}
			capAt = s.migrationCost + 200
		}
		s.updateNewidleCost(sd, cost, capAt)
		if pulled > 0 || !cont {
			break
		}
	}
	rq.nextBalance = min(rq.nextBalance, next)
	return s.newidleDone(rq, pulled, currCost)
}

// updateNewidleStats mirrors update_newidle_stats() (NI_RANDOM): count a
// pass and its weighted success; every 1024 passes the successes become
// the ratio and both counts halve.
func (sd *SchedDomain) updateNewidleStats(success int) {
	sd.NewidleCall++
	sd.NewidleSuccess += success
	if sd.NewidleCall >= 1024 {
		sd.NewidleRatio = sd.NewidleSuccess
		sd.NewidleCall /= 2
		sd.NewidleSuccess /= 2
	}
}

// updateNextBalance mirrors update_next_balance() (v6.17): the domain's
// next balance at its idle interval ("used by idle balance, so cpu_busy =
// 0"), if earlier than *next.
func (s *Sim) updateNextBalance(sd *SchedDomain, next *int64) {
	if n := sd.LastBalance + s.balanceInterval(sd, false, 1); *next > n {
		*next = n
	}
}

// newidleBalance38 mirrors 3.8 idle_balance(): skip when avg_idle <
// sysctl_sched_migration_cost; then every domain until a task is pulled,
// taking next_balance as the earliest last_balance + balance_interval of
// the domains walked (the idle interval: no busy_factor, no clamp), which
// becomes the CPU's next_balance when it pulled a task or its own has
// passed ("We are going idle. next_balance may be set based on a busy
// processor. So reset next_balance."): a CPU that pulled balances next at
// its domains' idle intervals, not busy_factor intervals away, and one
// whose next balance was due gets it recomputed from those intervals (the
// idle load balancer skips it until then).
func newidleBalance38(s *Sim, rq *RQ) bool {
	if rq.avgIdle < s.migrationCost {
		return false
	}
	s.era.track.decayBlocked(s, rq)
	j := s.jiffies()
	next := j + int64(s.cfg.Machine.HZ)
	pulled := 0
	var currCost int64
	cont := true
	for _, sd := range rq.domains {
		var cost int64
		pulled, cost = s.newidleDomain(rq, sd, &cont)
		if sd.Flags&SDBalanceNewidle != 0 {
			s.updateNewidleCost(sd, cost, 0)
		}
		currCost += cost
		if n := sd.LastBalance + msToJiffies(sd.BalanceInterval, s.cfg.Machine.HZ); next > n {
			next = n
		}
		if pulled > 0 || !cont {
			break
		}
	}
	if pulled > 0 || j > rq.nextBalance {
		rq.nextBalance = next
	}
	return s.newidleDone(rq, pulled, currCost)
}

// newidleDomain balances one SD_BALANCE_NEWIDLE domain as CPU_NEWLY_IDLE;
// it returns the tasks pulled (0 for a domain without the flag) and what
// the pass cost.
func (s *Sim) newidleDomain(rq *RQ, sd *SchedDomain, cont *bool) (int, int64) {
	if sd.Flags&SDBalanceNewidle == 0 {
		return 0, 0
	}
	before := s.m.balanceCost
	pulled := s.loadBalance(rq, sd, cpuNewlyIdle, cont)
	return pulled, s.m.balanceCost - before
}

// newidleDone is the tail of newidle balancing: the CPU's
// max_idle_balance_cost, its idle_stamp, and whether it has work now, so
// that the pick runs again.
//
// A pass that moved tasks clears idle_stamp (3.8 idle_balance(): "if
// (pulled_task) { this_rq->idle_stamp = 0; break; }"; v6.17 the same), but
// the CPU has work only if a task is queued on it: 3.8's load_balance()
// may move the tasks that cannot run here to another CPU of this CPU's
// group (LBF_SOME_PINNED, new_dst_cpu: 3.8.13's load_balance() gives a
// newly idle pass the group's mask too; later kernels set dst_grpmask to
// NULL for CPU_NEWLY_IDLE, "we don't need to consider other cpus in our
// group"), counts them in ld_moved all the same, and __schedule() then
// picks the idle task: it calls idle_balance() once.
func (s *Sim) newidleDone(rq *RQ, pulled int, currCost int64) bool {
	if currCost > rq.maxIdleBalanceCost {
		rq.maxIdleBalanceCost = currCost
	}
	if pulled > 0 || len(rq.queue) > 0 {
		rq.idleStamp = 0
	}
	return len(rq.queue) > 0
}

// updateNewidleCost mirrors update_newidle_cost(): a dearer pass raises
// the domain's max_newidle_lb_cost, to at most capAt when capAt > 0 (v6.17
// with NEWIDLE_BUMP: sysctl_sched_migration_cost + 200 ns, "we don't want
// things to grow out of control"; the kernel caps after comparing, so a
// bumped cost at the cap keeps resetting the decay's clock); otherwise, a
// second after the last change, the maximum decays by 3/256.
func (s *Sim) updateNewidleCost(sd *SchedDomain, cost, capAt int64) bool {
	j := s.jiffies()
	if cost > sd.MaxNewidleLBCost {
		if capAt > 0 {
			cost = min(cost, capAt)
		}
		sd.MaxNewidleLBCost = cost
		sd.LastDecayMaxLBCost = j
	} else if j > sd.LastDecayMaxLBCost+int64(s.cfg.Machine.HZ) {
		sd.MaxNewidleLBCost = sd.MaxNewidleLBCost * 253 / 256
		sd.LastDecayMaxLBCost = j
		return true
	}
	return false
}

// newidleBalance268 mirrors 2.6.8 idle_balance(): no gate on the idle time
// (there is no avg_idle yet); every SD_BALANCE_NEWIDLE domain bottom-up,
// load_balance_newidle() in each, until a task is pulled.
func newidleBalance268(s *Sim, rq *RQ) bool {
	s.era.track.decayBlocked(s, rq)
	pulled := 0
	var currCost int64
	cont := true
	for _, sd := range rq.domains {
		var cost int64
		pulled, cost = s.newidleDomain(rq, sd, &cont)
		if sd.Flags&SDBalanceNewidle != 0 {
			s.updateNewidleCost(sd, cost, 0)
		}
		currCost += cost
		if pulled > 0 || !cont {
			break
		}
	}
	return s.newidleDone(rq, pulled, currCost)
}
