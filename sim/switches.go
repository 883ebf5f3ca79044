package sim

// Which policy switches a run consulted (issue 14: "the page shows when a
// switch is bypassed and why"). A feature counts as consulted when the
// simulator read it (feature()) at a point where its value could change
// what happens; select_idle_sibling counts its calls; SD_BALANCE_WAKE
// counts the wake-ups it sent down the slow path and the affine wake-ups
// that stopped before reaching it.

// SwitchUse is Metrics.Switches.
type SwitchUse struct {
	// NotConsulted lists the switches the run never read, each with where
	// the simulator reads it (so a reader knows what the run lacked).
	NotConsulted []SwitchNote `json:"not_consulted"`
	// SelectIdleSiblingCalls: wake-ups that reached select_idle_sibling()
	// (policy.select_idle_sibling's variant).
	SelectIdleSiblingCalls int64 `json:"select_idle_sibling_calls"`
	// BalanceWakeSlowPath: wake-ups sent to find_idlest_group() by
	// SD_BALANCE_WAKE (not affine). BalanceWakeBypassed: affine wake-ups
	// while a domain of the waking CPU had SD_BALANCE_WAKE: the domain walk
	// stops at the first SD_WAKE_AFFINE domain spanning prev (3.8 and v6.17
	// select_task_rq_fair()), so the flag was never consulted for them.
	BalanceWakeSlowPath int64 `json:"balance_wake_slow_path"`
	BalanceWakeBypassed int64 `json:"balance_wake_bypassed"`
}

// SwitchNote is one switch the run did not consult, and why.
type SwitchNote struct {
	Switch string `json:"switch"` // a scenario path (policy.features.X, ...)
	Why    string `json:"why"`
	// Set: the scenario sets this switch itself (a feature it sets or
	// clears, a select_idle_sibling variant, the flag on some level): a
	// change the run never looked at.
	Set bool `json:"set"`
}

// featureReadAt says, per feature, where the simulator reads it.
var featureReadAt = [NumFeatures]string{
	FeatWakeAffine:           "read at a wake-up whose waker's CPU the task may run on (v3.8, v6.17 select_task_rq_fair())",
	FeatWakeWide:             "read at a v6.17 wake-up with a waking task (wake_wide())",
	FeatNewidleBalance:       "read when a CPU is about to go idle",
	FeatNohzIdleBalance:      "read at the tick of a busy CPU and when a CPU goes idle",
	FeatEligibleFirst:        "read by v6.17 can_migrate_task() when the balancer considers a queued task",
	FeatSchedBalanceMap:      "read at every domain walk (placement and balancing) and at v3.8 wake-ups",
	FeatPlaceLag:             "read by v6.17 place_entity() when a task with lag joins a busy runqueue, and by ELIGIBLE_FIRST",
	FeatRunToParity:          "read by v6.17 pick_eevdf() with more than one task runnable",
	FeatWakeupPreemption:     "read when a task wakes onto a CPU that runs another",
	FeatLBBias:               "read by v3.8 source_load()/target_load() at a non-zero load index",
	FeatTTWUQueue:            "read at a remote wake-up (3.8 ttwu_queue(): the wake list only across LLCs; v6.17 ttwu_queue_cond(): across LLCs, or to a CPU with nothing queued); 2.6.8 has no wake list",
	FeatSISUtil:              "read by v6.17 select_idle_cpu() and the balancer's LLC statistics",
	FeatBalanceWakeMerge:     "read at a v3.8 affine wake-up whose target's LLC has SD_BALANCE_WAKE at some level",
	FeatDelayDequeue:         "read by v6.17 dequeue_entity() when a task sleeps while other tasks share its runqueue and it is not eligible",
	FeatLastBuddy:            "read by v3.8 check_preempt_wakeup() when a wake-up preempts a task on a runqueue of at least 8 tasks",
	FeatNewidleBump:          "read by v6.17 sched_balance_newidle() when a domain's newidle pass pulls nothing",
	FeatNIRandom:             "read by v6.17 sched_balance_newidle() before each domain's newidle pass",
	FeatNohzAfterTick:        "read by the v6.17 idle loop when a CPU goes idle, with nohz idle balancing on",
	FeatNewidlePullOne:       "read by a newly idle pass after it moves a task (3.8 move_tasks(), v6.17 detach_tasks())",
	FeatWakeupDequeueDelayed: "read by v6.17 check_preempt_wakeup_fair() when its pick finds a sched_delayed task",
}

// countBalanceWakeBypass counts an affine wake-up issued on cpu while one
// of cpu's domains has SD_BALANCE_WAKE (never consulted: the walk stopped).
func (s *Sim) countBalanceWakeBypass(cpu int) {
	for _, sd := range s.cpus[cpu].domains {
		if sd.Flags&SDBalanceWake != 0 {
			s.m.bwBypassed++
			return
		}
	}
}

// switchUse builds Metrics.Switches.
func (s *Sim) switchUse() SwitchUse {
	u := SwitchUse{NotConsulted: []SwitchNote{}, SelectIdleSiblingCalls: s.m.sisCalls,
		BalanceWakeSlowPath: s.m.bwSlow, BalanceWakeBypassed: s.m.bwBypassed}
	for f := Feature(0); f < NumFeatures; f++ {
		if s.consulted&(1<<f) == 0 {
			set := (s.cfg.Policy.FeatSet|s.cfg.Policy.FeatClear)&(1<<f) != 0
			u.NotConsulted = append(u.NotConsulted, SwitchNote{Switch: "policy.features." + f.String(), Why: featureReadAt[f], Set: set})
		}
	}
	if s.era.base != BaseV268 && s.m.wakeups > 0 && s.m.sisCalls == 0 {
		u.NotConsulted = append(u.NotConsulted, SwitchNote{Switch: "policy.select_idle_sibling",
			Why: "no wake-up reached select_idle_sibling(): each was placed by the SD_BALANCE_WAKE slow path, BALANCE_WAKE_MERGE or SCHED_BALANCE_MAP's order, or was pinned",
			Set: s.cfg.Policy.SIS != SISDefault})
	}
	if s.m.bwBypassed > 0 && s.m.bwSlow == 0 {
		u.NotConsulted = append(u.NotConsulted, SwitchNote{Switch: "policy.sd_flags.<level>.SD_BALANCE_WAKE",
			Why: "set, but every wake-up was affine: select_task_rq_fair()'s domain walk stops at the first SD_WAKE_AFFINE domain spanning prev, before the flag is looked at",
			Set: true})
	}
	return u
}
