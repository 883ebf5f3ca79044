package sim

// DefaultCosts returns the documented cost-model defaults. They describe a
// Nehalem/Westmere-class server, the machines the 2012-2013 seeds measured
// on; docs/costs.md gives each value's source and derivation, and the
// per-machine values for the machines the seeds name:
//
//   - ContextSwitch 2us: the direct cost of a switch with warm caches, the
//     order lmbench lat_ctx and futex ping-pong measurements give on
//     Nehalem/Westmere Xeons (1-3us); the cache refill after a migration is
//     charged separately (CacheCold).
//   - WakeupIPI 2us: an IPI through the local APIC (~1us) plus the remote
//     enqueue's rq lock and cache misses (TTWU_QUEUE), excluding the C-state
//     exit, which IdleStates charges.
//   - WakeupIPISend 0: what sending that IPI costs the waker. On the
//     seeds' bare-metal machines it is one x2APIC ICR write (an MSR write,
//     a fraction of a microsecond), below the model's resolution; a guest
//     pays an exit to its hypervisor instead (schedsim calibrate measures
//     it: about 8 us on this project's Firecracker guests, docs/costs.md).
//   - WakeupPoll 1us: a wake-up to a CPU idle in MWAIT (or POLL) sends no
//     IPI: 3.x resched_task() skips smp_send_reschedule() when
//     tsk_is_polling(), and intel_idle keeps TS_POLLING set while it
//     monitors the thread flags; v6.17 does the same for the wake list and
//     the nohz kick (send_call_function_single_ipi()'s set_nr_if_polling()).
//     What is left of WakeupIPI's 2us is the remote enqueue (rq lock and
//     cache misses, ~1us); the APIC delivery and the interrupt entry go.
//   - IdleStates: exactly intel_idle's nehalem_cstates (idle_cpu_nehalem in
//     3.6 for Westmere-EX 0x2F and Nehalem-EP 0x1A, idle_cpu_nhx today):
//     POLL, C1 3us/6us, C1E 10us/20us, C3 20us/80us, C6 200us/800us as exit
//     latency/target residency. A CPU enters a state once it has been idle
//     for the state's target residency: the longer it idles, the deeper it
//     sleeps and the longer it takes to wake (a simplification of the menu
//     governor, which predicts the idle length instead). C1E is a package
//     state on these parts (Intel SDM vol. 4, MSR_POWER_CTL bit 1 "C1E
//     Enable": the package drops to its minimum voltage/frequency point
//     "when all execution cores enter MWAIT (C1)"): a CPU idle 20-80us
//     while another core of its package runs is in plain C1 (3us). Every
//     state polls (IdleState.Polls): POLL spins, the others are MWAIT.
//     C3 and C6 flush the core's L1 and L2 to the L3 (IdleState.Flushes;
//     Intel's datasheets for these cores, vol. 1, "Core C3 State";
//     intel_idle marks exactly these two CPUIDLE_FLAG_TLB_FLUSHED): a task
//     next run on the core pays the LLC refill below even if it never
//     moved.
//   - CacheCold: refilling a working set of 128-256 KiB after moving, as
//     lines x latency / 10 outstanding misses with the latencies of Intel's
//     Core i7/Xeon 5500 Performance Analysis Guide (L2 ~10 cycles, L3 ~40-75
//     cycles, local DRAM ~60ns, remote ~100ns): free between SMT siblings
//     (shared L1/L2), 1us within an L2 cluster (derived 0.85-1.7), 5us from
//     the shared L3 (3.4-13), 20us across LLCs of a node (12-25), 40us from a
//     remote node (20-41).
//   - Comm: the wakee pulls its waker's message (a few cache lines to a few
//     KiB), the same latencies times a handful of lines: 0.2us across SMT
//     siblings, 0.5us in a cluster, 1us in the LLC, 3us across LLCs, 5us
//     across nodes.
//   - Search costs: reading a remote runqueue's state is one miss to a line
//     another core wrote (~75 cycles), ~40ns (SearchCPU); iterating a sched
//     group ~20ns (SearchGroup); visiting a sched domain ~15ns
//     (SearchDomain); the balancer's per-CPU statistics ~50ns (BalanceCPU).
//   - SMTGain 0 (off): threads of a core never slow each other. The model
//     (smt.go) is there for a machine to switch on; at the kernel's own
//     figure for x86 Hyper-Threading, 1178 (SD_SIBLING_INIT's smt_gain,
//     "15%": each of two busy threads at 0.575 of its solo rate), it was
//     tried on the seed tables and not adopted as the default
//     (docs/costs.md gives the numbers).
//   - JitterPct 2: runs vary by ±2%, so symmetric tasks do not stay in
//     lock-step forever, as real ones do not.
//   - TimerIRQSpread 0 (off): every timer is woken at its instant. On a
//     real machine two CPUs' interrupts for the same instant are some
//     microseconds apart (schedsim calibrate measures the spread; 0-12 us
//     between the two vCPUs of this project's guests, docs/costs.md), which
//     decides who wins a wake-up race between them (timer.go); the seeds'
//     workloads wake by messages, not by timers due at the same instant.
//
// The validation report (docs/validation.md) reruns every seed table with all
// of these x0.5 and x2 and names the commit that last set them.
func DefaultCosts() Costs {
	return Costs{
		ContextSwitch: 2000,
		WakeupIPI:     2000,
		WakeupPoll:    1000,
		IdleStates: []IdleState{
			{Name: "POLL", After: 0, ExitLatency: 0, Polls: true},
			{Name: "C1", After: 6000, ExitLatency: 3000, Polls: true},
			{Name: "C1E", After: 20000, ExitLatency: 10000, Package: true, Polls: true},
			{Name: "C3", After: 80000, ExitLatency: 20000, Polls: true, Flushes: true},
			{Name: "C6", After: 800000, ExitLatency: 200000, Polls: true, Flushes: true},
		},
		CacheCold:    [NumDistances]int64{DistSame: 0, DistSMT: 0, DistCluster: 1000, DistLLC: 5000, DistPackage: 20000, DistNUMA: 40000},
		Comm:         [NumDistances]int64{DistSame: 0, DistSMT: 200, DistCluster: 500, DistLLC: 1000, DistPackage: 3000, DistNUMA: 5000},
		SearchCPU:    40,
		SearchGroup:  20,
		SearchDomain: 15,
		BalanceCPU:   50,
		JitterPct:    2,
	}
}
