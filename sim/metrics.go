package sim

// Metrics are the run's results, with the CLI contract's JSON keys. The CLI
// fills Title and WallMS; everything else is computed by the simulator.
type Metrics struct {
	Title                 string      `json:"title"`
	Seed                  uint64      `json:"seed"`
	SimMS                 float64     `json:"sim_ms"`
	WallMS                float64     `json:"wall_ms"`
	Events                int64       `json:"events"`
	Ops                   int64       `json:"ops"`
	OpsPerS               float64     `json:"ops_per_s"`
	BusyPct               float64     `json:"busy_pct"`
	IdleWhileOverloadedMS float64     `json:"idle_while_overloaded_ms"`
	WakeupLatencyUS       Percentiles `json:"wakeup_latency_us"`
	RunqWaitUS            Percentiles `json:"runq_wait_us"`
	// MigrationWaitUS: from a balancer migration (periodic, newidle, nohz,
	// active) to the moved task's first run at its new CPU.
	MigrationWaitUS Percentiles    `json:"migration_wait_us"`
	Migrations      MigrationStats `json:"migrations"`
	Balance         BalanceStats   `json:"balance"`
	CtxSwitches     int64          `json:"ctx_switches"`
	// Preemptions: the context switches that took the CPU from a task
	// still runnable (sched_switch with prev_state R; the kernel's
	// involuntary switches, nivcsw), by a wakee, the tick or the balancer.
	Preemptions           int64   `json:"preemptions"`
	Wakeups               int64   `json:"wakeups"`
	SearchCostMS          float64 `json:"search_cost_ms"`
	CPUsExaminedPerWakeup float64 `json:"cpus_examined_per_wakeup"`
	// Processes (fork, exec and exit steps; initial instances count as
	// alive and their exits count): children forked by fork steps, exec
	// steps run, tasks exited, the most tasks alive at once, and the
	// lifetimes of exited tasks (fork to exit).
	Forks        int64 `json:"forks"`
	Execs        int64 `json:"execs"`
	Exits        int64 `json:"exits"`
	LiveTasksMax int   `json:"live_tasks_max"`
	// LiveTasks are the tasks alive now (forked or started, not exited):
	// 0 once a workload whose tasks all exit has finished.
	LiveTasks  int         `json:"live_tasks"`
	LifetimeUS Percentiles `json:"lifetime_us"`
	// LastExitMS is when a task last exited (absent: none has). Where every
	// task exits (CountsExits) it is, once all have, the workload's elapsed
	// time: a kernbench's make exits after its last job.
	LastExitMS float64 `json:"last_exit_ms,omitzero"`
	// CountsExits: every task group's program has an exit step, so no task
	// ever completes a pass and no op is counted; the run's throughput is
	// its exits (kernbench's make and its jobs; SDET's users loop, so it
	// counts ops). A property of the scenario, true from the run's start.
	CountsExits bool `json:"counts_exits,omitempty"`
	// Costs is where the cost model's time went (cost_breakdown).
	Costs     CostBreakdown `json:"cost_breakdown"`
	Tasks     []TaskMetrics `json:"tasks"`
	TraceHash string        `json:"trace_hash"`
	// Work is Sim.Work: the deterministic work units the run did.
	Work int64 `json:"work"`
	// Stopped is Sim.Err's text when a budget stopped the run before its
	// duration (the metrics then cover what was simulated); empty otherwise.
	Stopped string `json:"stopped,omitempty"`
	// Schedstat9 is the v2.6.8 era's 2004 schedstats (absent in the
	// other eras).
	Schedstat9 *Schedstat9 `json:"schedstat_v9,omitempty"`
	// Switches says which policy switches the run never consulted, and
	// why (switches.go).
	Switches SwitchUse `json:"switches"`
}

// Schedstat9 sums the 2004 schedstat counters (version 9) that the seed-004
// thread's graphs used, over every CPU and domain.
type Schedstat9 struct {
	LoadBalance struct {
		Idle    LB9 `json:"idle"`
		Busy    LB9 `json:"busy"`
		Newidle LB9 `json:"newidle"`
	} `json:"load_balance"`
	// PullTask counts pull_task() by the idle type of the pulling CPU.
	PullTask struct {
		Idle    int64 `json:"idle"`
		Busy    int64 `json:"busy"`
		Newidle int64 `json:"newidle"`
	} `json:"pull_task"`
	SchedBalanceExec struct {
		Count    int64 `json:"count"`
		Attempts int64 `json:"attempts"`
		Pushed   int64 `json:"pushed"`
	} `json:"sched_balance_exec"`
	TTWU struct {
		Count       int64 `json:"count"`
		Attempts    int64 `json:"attempts"`
		Moved       int64 `json:"moved"`
		WakeAffine  int64 `json:"wake_affine"`
		WakeBalance int64 `json:"wake_balance"`
	} `json:"ttwu"`
	ActiveBalance struct {
		Count  int64 `json:"count"`
		Pushed int64 `json:"pushed"`
		Failed int64 `json:"failed"`
	} `json:"active_balance"`
	// ArraySwitches: schedule() swapped the active and expired arrays
	// (sched_switch; always 0 under staircase).
	ArraySwitches int64 `json:"array_switches"`
	// RunDelayMS and Pcount are rq_sched_info's run_delay (runqueue wait)
	// and the timeslices run.
	RunDelayMS float64 `json:"run_delay_ms"`
	Pcount     int64   `json:"pcount"`
}

// LB9 are one idle type's load_balance() counters of version 9.
type LB9 struct {
	Count     int64 `json:"count"`
	Failed    int64 `json:"failed"`
	Imbalance int64 `json:"imbalance"`
	NoBusyQ   int64 `json:"nobusyq"`
	NoBusyG   int64 `json:"nobusyg"`
}

// CostBreakdown is the time the cost model charged, by kind, summed over the
// run (ms). CPU time charged to tasks: context switches, cache refills after
// a migration or on a core whose caches a C-state flushed, fetching a waker's message (comm), the wake-up placement's
// search (charged to the waker) and the balancer's statistics. Latency added
// before a task could run (no CPU is busy meanwhile): wake-up and kick IPIs
// (Costs.WakeupPoll where the target polls and needs none), and C-state
// exits.
type CostBreakdown struct {
	ContextSwitchMS float64 `json:"context_switch_ms"`
	CacheRefillMS   float64 `json:"cache_refill_ms"`
	CommMS          float64 `json:"comm_ms"`
	SearchMS        float64 `json:"search_ms"`
	BalanceMS       float64 `json:"balance_ms"`
	IPIMS           float64 `json:"ipi_ms"`
	IdleExitMS      float64 `json:"idle_exit_ms"`
	// RemoteMemMS is CPU time lost running away from the node holding the
	// task's memory (Costs.RemoteMemPct, numa_cost.go); absent when zero.
	RemoteMemMS float64 `json:"remote_mem_ms,omitzero"`
	// SMTShareMS is wall time tasks held a CPU beyond the work they did
	// there, because an SMT sibling of the CPU was running too
	// (Costs.SMTGain, smt.go); absent when zero.
	SMTShareMS float64 `json:"smt_share_ms,omitzero"`
	// IPISendMS is the CPU time wakers spent sending wake-up IPIs
	// (Costs.WakeupIPISend); absent when zero.
	IPISendMS float64 `json:"ipi_send_ms,omitzero"`
	// FlushRefillMS is the part of CacheRefillMS that tasks paid because
	// their core had slept in a state that flushes its caches (beyond what
	// a move would have cost: IdleState.Flushes); absent when zero.
	FlushRefillMS float64 `json:"flush_refill_ms,omitzero"`
}

// costAcc accumulates CostBreakdown in ns.
type costAcc struct {
	ctxSwitch, cacheRefill, comm, ipi, idleExit int64
	remoteMem                                   int64 // numa_cost.go
	smt                                         int64 // smt.go
	ipiSend                                     int64 // Costs.WakeupIPISend
	flushRefill                                 int64 // IdleState.Flushes, within cacheRefill
}

// Percentiles of a latency distribution, in microseconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	N    int64   `json:"n"`
}

// MigrationStats counts migrations by cause and by the cache distance crossed.
type MigrationStats struct {
	Total   int64 `json:"total"`
	Wakeup  int64 `json:"wakeup"`
	Balance int64 `json:"balance"`
	Newidle int64 `json:"newidle"`
	Nohz    int64 `json:"nohz"`
	Active  int64 `json:"active"`
	Fork    int64 `json:"fork"`
	Exec    int64 `json:"exec"` // sched_exec() moved the exec'ing task
	SMT     int64 `json:"smt"`
	Cluster int64 `json:"cluster"`
	LLC     int64 `json:"llc"`
	Package int64 `json:"package"`
	NUMA    int64 `json:"numa"`
	// Ineligible counts tasks the balancer moved onto a CPU with queued
	// tasks while their EEVDF lag was negative (v6.17 only): with PLACE_LAG
	// they arrive ineligible there too (seed 001).
	Ineligible int64 `json:"ineligible"`
	// IneligibleFirstTry are those moved while the domain had no failed
	// balance (nr_balance_failed == 0): what ELIGIBLE_FIRST forbids.
	IneligibleFirstTry int64 `json:"ineligible_first_try"`
}

// BalanceStats sum the balancer's schedstat counters over every CPU's
// domains and idle types: passes (lb_count), passes that found balance
// (lb_balanced), passes that wanted to move load but could not (lb_failed),
// and tasks moved (lb_gained); active balances pushed (alb_pushed).
type BalanceStats struct {
	Count        int64 `json:"count"`
	Balanced     int64 `json:"balanced"`
	Failed       int64 `json:"failed"`
	Gained       int64 `json:"gained"`
	HotGained    int64 `json:"hot_gained"`
	ActivePushed int64 `json:"active_pushed"`
}

// TaskMetrics are per task instance.
type TaskMetrics struct {
	Name       string  `json:"name"`
	Ops        int64   `json:"ops"`
	CPUMS      float64 `json:"cpu_ms"`
	WaitMS     float64 `json:"wait_ms"`
	Migrations int64   `json:"migrations"`
	UtilAvg    int64   `json:"util_avg"`
	LoadAvg    int64   `json:"load_avg"`
	// ExitMS is when the slot's task last exited (absent: never): a
	// make's exit is a kernbench's elapsed time.
	ExitMS float64 `json:"exit_ms,omitempty"`
}

// metricsAcc accumulates the run's metrics as events happen.
type metricsAcc struct {
	ops                int64
	ctxSwitches        int64
	preemptions        int64
	wakeups            int64
	searchCost         int64
	balanceCost        int64
	cost               costAcc
	cpusExamined       int64
	migIneligible      int64
	migIneligibleFirst int64
	migWait            hist
	mig                [NumCauses]int64
	migDist            [NumDistances]int64
	wakeLat            hist
	runqWait           hist
	forks, execs       int64
	exits              int64
	lastExit           int64 // when a task last exited, ns (0: none has)
	liveMax            int
	lifetime           hist
	// idle-while-overloaded: the integral over time of min(idle CPUs,
	// tasks waiting behind a running task) — CPU time left idle while
	// runnable work queued elsewhere. Tasks queued on a CPU that is still
	// leaving its idle state are not counted: they wait for the hardware,
	// not for a CPU. Affinity is ignored.
	// Which switches the run read (switches.go).
	sisCalls, bwSlow, bwBypassed int64

	nIdle    int
	nQueued  int // all queued tasks
	nWaiting int // queued on CPUs that run a task
	iwoArea  int64
}

// integrate accounts the time from s.now to t with the current counts.
func (m *metricsAcc) integrate(s *Sim, t int64) {
	if dt := t - s.now; dt > 0 && m.nIdle > 0 && m.nWaiting > 0 {
		m.iwoArea += int64(min(m.nIdle, m.nWaiting)) * dt
	}
}

// hist is a log-linear latency histogram (ns): exact below 1us, then 64
// sub-buckets per power of two (~1.6% resolution), deterministic and
// allocation-free after creation.
type hist struct {
	counts []int64
	n      int64
	sum    int64
	max    int64
}

const histSub = 64

func histBucket(v int64) int {
	if v < 1024 {
		return int(v)
	}
	e := 63 - leadingZeros64(uint64(v)) // >= 10
	sub := int((v >> uint(e-6)) & (histSub - 1))
	return 1024 + (e-10)*histSub + sub
}

func histValue(b int) int64 {
	if b < 1024 {
		return int64(b)
	}
	e := (b-1024)/histSub + 10
	sub := int64((b - 1024) % histSub)
	lo := int64(1)<<uint(e) + sub<<uint(e-6)
	return lo + (int64(1)<<uint(e-6))/2 // bucket midpoint
}

func (h *hist) add(v int64) {
	if v < 0 {
		v = 0
	}
	b := histBucket(v)
	if b >= len(h.counts) {
		n := make([]int64, b+histSub)
		copy(n, h.counts)
		h.counts = n
	}
	h.counts[b]++
	h.n++
	h.sum += v
	if v > h.max {
		h.max = v
	}
}

// quantile returns the q-quantile (0..1) in ns.
func (h *hist) quantile(q float64) int64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(q*float64(h.n-1)) + 1
	var c int64
	for b, k := range h.counts {
		c += k
		if c >= rank {
			return min(histValue(b), h.max)
		}
	}
	return h.max
}

func (h *hist) percentiles() Percentiles {
	p := Percentiles{N: h.n}
	if h.n == 0 {
		return p
	}
	us := func(ns int64) float64 { return round3(float64(ns) / 1e3) }
	p.P50, p.P95, p.P99 = us(h.quantile(0.50)), us(h.quantile(0.95)), us(h.quantile(0.99))
	p.Max = us(h.max)
	p.Mean = round3(float64(h.sum) / float64(h.n) / 1e3)
	return p
}

func round3(v float64) float64 {
	if v < 0 {
		return -float64(int64(-v*1000+0.5)) / 1000
	}
	return float64(int64(v*1000+0.5)) / 1000
}

// Metrics computes the metrics at the current time.
func (s *Sim) Metrics() Metrics {
	m := &s.m
	simNS := s.now
	out := Metrics{
		Title:       s.cfg.Title,
		Seed:        s.cfg.Seed,
		SimMS:       round3(float64(simNS) / 1e6),
		Events:      s.nEvents,
		Ops:         m.ops,
		CtxSwitches: m.ctxSwitches,
		Preemptions: m.preemptions,
		Wakeups:     m.wakeups,
		TraceHash:   s.TraceHash(),
		Work:        s.work,
	}
	if s.err != nil {
		out.Stopped = s.err.Error()
	}
	if simNS > 0 {
		out.OpsPerS = round3(float64(m.ops) / (float64(simNS) / 1e9))
		var busy int64
		for _, rq := range s.cpus {
			busy += rq.busyTime
			if rq.busySince >= 0 {
				busy += s.now - rq.busySince
			}
		}
		out.BusyPct = round3(100 * float64(busy) / (float64(simNS) * float64(len(s.cpus))))
	}
	out.IdleWhileOverloadedMS = round3(float64(m.iwoArea) / 1e6)
	out.WakeupLatencyUS = m.wakeLat.percentiles()
	out.RunqWaitUS = m.runqWait.percentiles()
	out.MigrationWaitUS = m.migWait.percentiles()
	out.SearchCostMS = round3(float64(m.searchCost) / 1e6)
	out.Switches = s.switchUse()
	ms := func(ns int64) float64 { return round3(float64(ns) / 1e6) }
	out.Costs = CostBreakdown{
		ContextSwitchMS: ms(m.cost.ctxSwitch), CacheRefillMS: ms(m.cost.cacheRefill), CommMS: ms(m.cost.comm),
		SearchMS: ms(m.searchCost), BalanceMS: ms(m.balanceCost), IPIMS: ms(m.cost.ipi), IdleExitMS: ms(m.cost.idleExit),
		RemoteMemMS: ms(m.cost.remoteMem), SMTShareMS: ms(m.cost.smt), IPISendMS: ms(m.cost.ipiSend),
		FlushRefillMS: ms(m.cost.flushRefill),
	}
	if m.wakeups > 0 {
		out.CPUsExaminedPerWakeup = round3(float64(m.cpusExamined) / float64(m.wakeups))
	}
	mg := &out.Migrations
	mg.Wakeup, mg.Balance, mg.Newidle = m.mig[CauseWakeup], m.mig[CauseBalance], m.mig[CauseNewidle]
	mg.Nohz, mg.Active, mg.Fork = m.mig[CauseNohz], m.mig[CauseActive], m.mig[CauseFork]
	mg.Exec = m.mig[CauseExec]
	out.Forks, out.Execs, out.Exits, out.LiveTasksMax, out.LiveTasks = m.forks, m.execs, m.exits, m.liveMax, s.live
	out.LifetimeUS = m.lifetime.percentiles()
	if m.exits > 0 {
		out.LastExitMS = round3(float64(m.lastExit) / 1e6)
	}
	out.CountsExits = s.countsExits
	for _, v := range m.mig {
		mg.Total += v
	}
	mg.SMT, mg.Cluster, mg.LLC = m.migDist[DistSMT], m.migDist[DistCluster], m.migDist[DistLLC]
	mg.Package, mg.NUMA = m.migDist[DistPackage], m.migDist[DistNUMA]
	mg.Ineligible = m.migIneligible
	mg.IneligibleFirstTry = m.migIneligibleFirst
	for _, rq := range s.cpus {
		for _, sd := range rq.domains {
			for _, lb := range sd.Stats.LB {
				b := &out.Balance
				b.Count += lb.Count
				b.Balanced += lb.Balanced
				b.Failed += lb.Failed
				b.Gained += lb.Gained
				b.HotGained += lb.HotGained
			}
			out.Balance.ActivePushed += sd.Stats.ALBPushed
		}
	}
	if s.era.noPELT {
		out.Schedstat9 = s.schedstat9()
	}
	out.Tasks = make([]TaskMetrics, len(s.tasks))
	for i, t := range s.tasks {
		cpu := t.cpuTime
		if rq := s.cpuOf(t); rq != nil && rq.curr == t {
			cpu += s.now - rq.execStart
		}
		out.Tasks[i] = TaskMetrics{
			Name: t.info.Name, Ops: t.ops,
			CPUMS: round3(float64(cpu) / 1e6), WaitMS: round3(float64(t.waitTime) / 1e6),
			Migrations: t.migrations, UtilAvg: int64(t.avg.UtilAvg), LoadAvg: int64(t.avg.LoadAvg),
		}
		if t.exitTime > 0 {
			out.Tasks[i].ExitMS = round3(float64(t.exitTime) / 1e6)
		}
	}
	return out
}

func (s *Sim) cpuOf(t *Task) *RQ {
	if t.cpu < 0 {
		return nil
	}
	return s.cpus[t.cpu]
}

// schedstat9 sums the version-9 counters.
func (s *Sim) schedstat9() *Schedstat9 {
	out := &Schedstat9{}
	lbs := [3]*LB9{&out.LoadBalance.Idle, &out.LoadBalance.Busy, &out.LoadBalance.Newidle}
	pts := [3]*int64{&out.PullTask.Idle, &out.PullTask.Busy, &out.PullTask.Newidle}
	var runDelay int64
	for _, rq := range s.cpus {
		o := rq.o1
		for it := range lbs {
			*pts[it] += o.ptGained[it]
		}
		out.SchedBalanceExec.Count += o.sbeCnt
		out.TTWU.Count += o.ttwuCnt
		out.TTWU.Attempts += o.ttwuAttempts
		out.TTWU.Moved += o.ttwuMoved
		out.ActiveBalance.Count += o.albCnt
		out.ActiveBalance.Pushed += o.albLost
		out.ActiveBalance.Failed += o.albFailed
		out.ArraySwitches += o.schedSwitch
		runDelay += rq.runDelay
		out.Pcount += rq.pcount
		for _, sd := range rq.domains {
			st := &sd.Stats
			for it, lb := range lbs {
				x := &st.LB[it]
				lb.Count += x.Count
				lb.Failed += x.Failed
				lb.Imbalance += x.Imbalance
				lb.NoBusyQ += x.NoBusyQ
				lb.NoBusyG += x.NoBusyG
			}
			out.SchedBalanceExec.Attempts += st.SBECount
			out.SchedBalanceExec.Pushed += st.SBEPushed
			out.TTWU.WakeAffine += st.TTWUMoveAffine
			out.TTWU.WakeBalance += st.TTWUMoveBalance
		}
	}
	out.RunDelayMS = round3(float64(runDelay) / 1e6)
	return out
}
