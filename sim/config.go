package sim

// Config is a fully resolved scenario: durations are nanoseconds, task names
// are resolved to indices, policy defaults are not yet applied (New applies
// them from Policy.Base). The scenarios package turns a scenario file (JSON,
// version 1) into a Config; the simulator never sees JSON.
type Config struct {
	Title    string
	Seed     uint64
	Duration int64 // simulated time to run, ns (> 0)
	// MaxEvents bounds the internal events a run may process (0: the
	// default, DefaultMaxEvents). A run that reaches it stops, and Err says so.
	MaxEvents int64
	Machine   Machine
	Policy    Policy
	Tasks     []TaskGroup
	// Syncs are the mutexes, condition variables and barriers that steps
	// name (sync.go).
	Syncs []SyncObject
	// MaxLiveTasks and MaxForks bound tasks started by fork steps (0: the
	// defaults, DefaultMaxLiveTasks and DefaultMaxForks). A run that
	// reaches one stops, and Err says so.
	MaxLiveTasks int
	MaxForks     int64

	// MaxWork bounds the work a run may do, in work units (0: the default,
	// DefaultMaxWork); Sim.Work says what counts. A run that reaches it
	// stops between two events, and Err returns a *LimitError.
	MaxWork int64
}

// Numbering says how logical CPU ids map onto the topology.
type Numbering uint8

const (
	// NumberLinear numbers CPUs depth-first: the SMT siblings of a core are
	// adjacent (cpu0, cpu1 on core 0). ARM and most simulators do this.
	NumberLinear Numbering = iota
	// NumberX86 numbers the first thread of every core first, then the second
	// thread of every core, ... as Linux enumerates x86 ACPI tables: on a
	// 4x10x2 machine cpu0 and cpu40 are siblings.
	NumberX86
)

// Machine is the simulated hardware.
type Machine struct {
	Nodes           int // NUMA nodes
	SocketsPerNode  int
	LLCsPerSocket   int // last-level caches (L3) per socket
	ClustersPerLLC  int // L2 clusters per LLC (1 = no CLS level)
	CoresPerCluster int
	ThreadsPerCore  int // SMT threads (1 = no SMT level)
	HZ              int // tick rate: 100, 250, 300 or 1000
	Numbering       Numbering
	Costs           Costs
	// CPUs, when not empty, gives the machine per CPU instead (the counts
	// above are then unused): see CPUPlace and topology_percpu.go.
	CPUs []CPUPlace
	// NUMADistance is the node distance table of a per-CPU machine, rows and
	// columns in ascending node id; nil: LOCAL_DISTANCE 10 on the diagonal,
	// REMOTE_DISTANCE 20 elsewhere (include/linux/topology.h).
	NUMADistance [][]int
}

// NCPU is the number of logical CPUs of the machine.
func (m *Machine) NCPU() int {
	if len(m.CPUs) > 0 {
		return len(m.CPUs)
	}
	return m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore
}

// Distance is how far apart two CPUs are in the cache hierarchy. The order is
// a contract: larger means farther (and more expensive to cross).
type Distance uint8

const (
	DistSame    Distance = iota // the same logical CPU
	DistSMT                     // SMT siblings: share L1/L2
	DistCluster                 // same cluster: share L2
	DistLLC                     // same last-level cache
	DistPackage                 // same NUMA node (package level), different LLC
	DistNUMA                    // different NUMA node
	NumDistances
)

var distanceNames = [NumDistances]string{"same", "smt", "cluster", "llc", "package", "numa"}

func (d Distance) String() string {
	if d < NumDistances {
		return distanceNames[d]
	}
	return "?"
}

// IdleState is one C-state: a CPU that has been idle for at least After
// enters it, and pays ExitLatency to leave it.
type IdleState struct {
	Name        string
	After       int64 // ns of idle time before the CPU is in this state
	ExitLatency int64 // ns to return to C0
	// Package: a package-wide state, entered only once every CPU of the
	// package has been idle for After (Nehalem/Westmere C1E); until then
	// a CPU idle that long stays in the shallower state before it.
	Package bool
	// Polls: a CPU in this state watches its thread flags, so the kernel
	// wakes it by setting TIF_NEED_RESCHED and sends no IPI (POLL, and every
	// MWAIT state: intel_idle keeps TS_POLLING / TIF_POLLING_NRFLAG set and
	// monitors the flags word; a HLT state clears it first). Such a wake-up
	// costs Costs.WakeupPoll instead of Costs.WakeupIPI.
	Polls bool
	// Flushes: a core in this state has written back and dropped its
	// private caches (Nehalem/Westmere core C3 and C6: L1 and L2 flushed
	// to the L3), so a task that next runs on the core refills its working
	// set from the first cache its core shares (Costs.CacheCold).
	Flushes bool
}

// Costs is the machine cost model. All values are nanoseconds. DefaultCosts
// documents the defaults and why they were chosen.
type Costs struct {
	ContextSwitch int64 // CPU time of one context switch, charged to the incoming task
	WakeupIPI     int64 // latency of a wake-up sent to another CPU (IPI + remote enqueue)
	// WakeupIPISend is the CPU time a waker spends sending that IPI (the
	// wake list's, or the resched IPI to the CPU it enqueued on): on bare
	// metal one APIC register write, in a virtual machine an exit to the
	// hypervisor. Charged to the waker; 0: none.
	WakeupIPISend int64
	// WakeupPoll is the latency of a wake-up that needs no IPI, to a CPU
	// idle in a polling state (IdleState.Polls): the remote enqueue and the
	// flags' cache line, without the interrupt's delivery and entry.
	WakeupPoll int64
	// IdleStates, shallowest first; After must increase. Empty = no C-states.
	IdleStates []IdleState
	// CacheCold[d] is the CPU time a task loses refilling its caches when it
	// runs on a CPU at distance d from the one it last ran on.
	CacheCold [NumDistances]int64
	// Comm[d] is the extra CPU time a woken task spends fetching the data its
	// waker produced, when the waker ran at distance d (message passing).
	Comm [NumDistances]int64
	// The scheduler's own search cost, charged to the CPU doing the search.
	SearchCPU    int64 // per CPU examined (reading a remote runqueue)
	SearchGroup  int64 // per sched group examined
	SearchDomain int64 // per sched domain visited (what SCHED_BALANCE_MAP saves)
	// BalanceCPU is charged per CPU whose statistics the load balancer reads.
	BalanceCPU int64
	// RemoteMemPct is the percent of CPU time a run step costs more when it
	// begins on a node other than the one holding the task's memory, at
	// REMOTE_DISTANCE (scaled by the node distance above LOCAL_DISTANCE);
	// 0: off. sim/numa_cost.go.
	RemoteMemPct int
	// SMTGain is what a core whose threads all run tasks delivers, in units
	// of 1024 = one thread running alone (the kernel's smt_gain unit): each
	// of k busy threads progresses at SMTGain/(1024·k) of its solo rate,
	// capped at 1. 0: off (threads never slow each other). sim/smt.go.
	SMTGain int64
	// JitterPct spreads each `run` uniformly by ±JitterPct percent (seeded PRNG),
	// so that symmetric tasks do not stay in artificial lock-step.
	JitterPct int
	// TimerIRQSpread spreads the CPUs' timer interrupts: the timers that
	// expire on one CPU at one instant are woken by one interrupt, handled
	// a delay drawn uniformly from [0, TimerIRQSpread] (seeded PRNG) after
	// that instant, so two CPUs' interrupts for the same instant come in
	// either order, some microseconds apart, as on real hardware. 0: every
	// timer is woken at its instant, in the order armed. timer.go.
	TimerIRQSpread int64
	// TimerWakeup is the CPU time of each wake-up a timer interrupt makes
	// (hrtimer_wakeup() -> try_to_wake_up() from the interrupt): the
	// interrupt's later wake-ups for one instant come this much later each.
	// 0 (the default): all of them at once.
	TimerWakeup int64
	// IdleReturn is the part of an idle CPU's exit that comes after its own
	// interrupt's handler: the idle loop's way out (do_idle() leaves its
	// loop on need_resched, tick_nohz_idle_exit() restarts a stopped tick,
	// schedule_idle() switches to the wakee). A wake-up sent by another
	// CPU's IPI is handled at the end of the whole exit, as before; a
	// timer's wake-up on the idle CPU (its sched_waking, its placement)
	// comes IdleReturn before the end of the exit, and a wakee that stays
	// there runs at that end (timer.go). At most the exit. 0 (the
	// default): the handler runs at the end of the exit.
	IdleReturn int64
}

// Base selects the kernel era whose defaults fill the policy.
type Base uint8

const (
	BaseV617 Base = iota // v6.17: EEVDF, modern PELT load_avg, SIS_UTIL, sched_balance_rq
	BaseV38              // v3.8: CFS, load.weight + cpu_load[], 3.6 select_idle_sibling, load_balance
	BaseV268             // v2.6.8: O(1) or staircase runqueues, nr_running load, the first sched-domains balancer
)

// CPUScheduler is the v2.6.8 era's runqueue policy (policy.cpu_scheduler).
type CPUScheduler uint8

const (
	CPUSchedO1        CPUScheduler = iota // Ingo Molnar's O(1) scheduler of 2.6.8: active/expired arrays, sleep_avg
	CPUSchedStaircase                     // Con Kolivas' staircase (2.6.8-rc2-mm1 patch): one array, bursts
)

// StaircaseMode is the staircase scheduler's sysctls: interactive and compute.
type StaircaseMode uint8

const (
	StairInteractive    StaircaseMode = iota // interactive=1 compute=0 (the default, Martin's runs)
	StairNonInteractive                      // interactive=0: no bursts on the top stair
	StairCompute                             // compute=1: ten times longer RR_INTERVAL, delayed preemption
)

// LoadMetric is what the balancer and wake_affine read as "load".
type LoadMetric uint8

const (
	LoadDefault             LoadMetric = iota // the base's own: load_weight for v3.8, load_avg for v6.17
	LoadWeight                                // rq->load.weight (3.8 weighted_cpuload)
	LoadRunnableAvg                           // cfs.runnable_load_avg (Preeti/Alex Shi's patches)
	LoadRunnablePlusBlocked                   // runnable_load_avg + blocked_load_avg (Paul/Preeti)
	LoadAvg                                   // modern cfs_rq->avg.load_avg (includes blocked)
	LoadNrRunning                             // 2.6.8: nr_running * SCHED_LOAD_SCALE (the era's only load)
)

// SIS is the select_idle_sibling() variant.
type SIS uint8

const (
	SISDefault  SIS = iota // the base's own: v3.8 for v3.8, sis_util for v6.17
	SISV36                 // top-down search for a fully idle group within sd_llc
	SISBuddies             // CPU buddies (commit 970e178985ca: 3.6-rc, reverted before 3.6 final)
	SISBottomUp            // Preeti's / Alex Shi's bottom-up any-idle-CPU search
	SISUtil                // modern: prev, recent_used_cpu, idle core, SIS_UTIL scan
	SISOff                 // the target wake_affine chose
	SISV38                 // v3.8: as v3.6, but prev if idle and cache-affine, and groups holding target skipped
)

// Domain levels, bottom-up. The order is a contract.
type Level uint8

const (
	LevelSMT Level = iota
	LevelCLS
	LevelMC
	LevelPKG
	LevelNUMA
	NumLevels
)

var levelNames = [NumLevels]string{"SMT", "CLS", "MC", "PKG", "NUMA"}

func (l Level) String() string {
	if l < NumLevels {
		return levelNames[l]
	}
	return "?"
}

// Feature is a scheduler feature switch (features.h, and a few of ours).
type Feature uint8

const (
	FeatWakeAffine       Feature = iota // wake_affine() (WAKE_AFFINE / SD_WAKE_AFFINE use)
	FeatWakeWide                        // wake_wide() (modern)
	FeatNewidleBalance                  // newidle balancing
	FeatNohzIdleBalance                 // nohz idle balancing
	FeatEligibleFirst                   // commit 873199d27bb2: prefer migrating eligible tasks
	FeatSchedBalanceMap                 // seed 003: schedule balance map (v3.8: patch 3/3's wake-up order, domain lookups; sbm.go)
	FeatPlaceLag                        // EEVDF PLACE_LAG
	FeatRunToParity                     // EEVDF RUN_TO_PARITY
	FeatWakeupPreemption                // WAKEUP_PREEMPTION
	FeatLBBias                          // 3.8 LB_BIAS (source_load/target_load use cpu_load[])
	FeatTTWUQueue                       // TTWU_QUEUE: remote wake-ups go through the wake list + IPI
	FeatSISUtil                         // modern SIS_UTIL scan limit
	// FeatBalanceWakeMerge is Preeti U Murthy's "sched: Merge
	// select_idle_sibling with the behaviour of SD_BALANCE_WAKE" (seed 000,
	// v3.8 only): an affine wake-up whose target's LLC has SD_BALANCE_WAKE at
	// some level takes an idle target, else descends with
	// find_idlest_group() instead of calling select_idle_sibling(). Without
	// it SD_BALANCE_WAKE means what it means in stock kernels: an affine
	// wake-up never consults it.
	FeatBalanceWakeMerge
	// FeatDelayDequeue is DELAY_DEQUEUE (v6.12+, SCHED_FEAT(DELAY_DEQUEUE,
	// true); EEVDF only): a task that blocks while not eligible stays on the
	// runqueue as sched_delayed, keeping its load, until it is picked (then
	// it is dequeued) or woken (then it is requeued in place).
	FeatDelayDequeue
	// FeatLastBuddy is LAST_BUDDY (v3.8 features.h: SCHED_FEAT(LAST_BUDDY,
	// true); gone with EEVDF): a task preempted by a wake-up on a runqueue
	// of at least sched_nr_latency tasks is picked again next if that is
	// not too unfair.
	FeatLastBuddy
	// FeatNewidleBump is 155213a2aed4 "sched/fair: Bump
	// sd->max_newidle_lb_cost when newidle balance fails" (v6.17-rc1;
	// reverted by d206fbad9328 for v6.19 and in the stable kernels that had
	// it): a newidle pass of a domain that pulls nothing records half as
	// much again as the domain's max_newidle_lb_cost for its cost (capped
	// at sysctl_sched_migration_cost + 200 ns), so a CPU whose average
	// idle time is shorter stops newidle balancing there. On in v6.17.
	FeatNewidleBump
	// FeatNIRandom is NI_RANDOM, 33cf66d88306 "sched/fair: Proportional
	// newidle balance" (v6.19, and the 6.12-6.18 stables with the revert
	// above): a newidle pass of a domain runs with the probability of the
	// domain's recent success rate (sd->newidle_ratio of 1024), a die
	// thrown per pass. Off in v6.17, which does not have it.
	FeatNIRandom
	// FeatNohzAfterTick is f4c31b07b136 "sched: idle: Consolidate the
	// handling of two special cases" (2026, in the 5.10-6.19 stables): on
	// a CPU without a cpuidle driver (or with a single idle state),
	// do_idle() passes cpuidle_idle_call() whether the tick woke the CPU
	// in the loop's previous pass (got_tick), and the tick is stopped only
	// then: a CPU that goes idle keeps its tick, and enters nohz
	// (nohz_balance_enter_idle()) at the first tick that finds it still
	// idle, after that tick's own idle balance. Off in v6.17, whose idle
	// loop stops the tick as the CPU goes idle; v6.17 only.
	FeatNohzAfterTick
	// FeatNewidlePullOne is the newly idle balance of a kernel built with
	// kernel preemption: 3.8 move_tasks() under CONFIG_PREEMPT and v6.17
	// detach_tasks() under CONFIG_PREEMPTION stop after the first task a
	// CPU_NEWLY_IDLE pass moves ("NEWIDLE balancing is a source of latency,
	// so preemptible kernels will stop after the first task is pulled").
	// On in both eras: v6.17's default x86 configuration has
	// CONFIG_PREEMPTION whatever its boot-time model (PREEMPT_DYNAMIC,
	// default y there, selects PREEMPT_BUILD); off is
	// a 3.8 kernel of the Kconfig default, PREEMPT_NONE, whose newly idle
	// pass pulls until the imbalance is gone. The seeds do not say how
	// their kernels were built (sim/doc.go).
	FeatNewidlePullOne
	// FeatWakeupDequeueDelayed is ac8e69e69363 "sched/fair: Fix
	// wakeup_preempt_fair() vs delayed dequeue" (7.1; 6.18.33 and later
	// 6.18 stables), with its fix 9f6d929ee2c6: the wake-up preemption
	// check picks with pick_next_entity(), which dequeues a sched_delayed
	// entity it finds (DEQUEUE_SLEEP | DEQUEUE_DELAYED), and picks again
	// while the runqueue still has entities. v6.17's check asks
	// __pick_eevdf() alone: a delayed sleeper with the earliest eligible
	// deadline answers "not the wakee" and stays queued, so the wakee does
	// not preempt a waker that has run past the average. Off in v6.17,
	// which does not have it; v6.17 only.
	FeatWakeupDequeueDelayed
	NumFeatures
)

var featureNames = [NumFeatures]string{
	"WAKE_AFFINE", "WAKE_WIDE", "NEWIDLE_BALANCE", "NOHZ_IDLE_BALANCE", "ELIGIBLE_FIRST",
	"SCHED_BALANCE_MAP", "PLACE_LAG", "RUN_TO_PARITY", "WAKEUP_PREEMPTION", "LB_BIAS",
	"TTWU_QUEUE", "SIS_UTIL", "BALANCE_WAKE_MERGE", "DELAY_DEQUEUE", "LAST_BUDDY",
	"NEWIDLE_BUMP", "NI_RANDOM", "NOHZ_AFTER_TICK", "NEWIDLE_PULL_ONE",
	"WAKEUP_DEQUEUE_DELAYED",
}

func (f Feature) String() string {
	if f < NumFeatures {
		return featureNames[f]
	}
	return "?"
}

// FeatureByName returns the feature with the kernel-style name, or false.
func FeatureByName(name string) (Feature, bool) {
	for i, n := range featureNames {
		if n == name {
			return Feature(i), true
		}
	}
	return 0, false
}

// LevelByName returns the level with the given name (SMT, CLS, MC, PKG, NUMA;
// DIE is accepted as the pre-6.7 name of PKG).
func LevelByName(name string) (Level, bool) {
	if name == "DIE" {
		return LevelPKG, true
	}
	for i, n := range levelNames {
		if n == name {
			return Level(i), true
		}
	}
	return 0, false
}

// NewTaskLoad is how much load history a forked task starts with.
type NewTaskLoad uint8

const (
	NewTaskLoadDefault NewTaskLoad = iota // v3.8: none; v6.17: full weight
	NewTaskLoadZero                       // 3.8: runnable_avg_sum = period = 0, load_avg_contrib inherited from the parent
	NewTaskLoadFull                       // init_entity_runnable_average(): load_avg = weight
)

// Tunables are per-domain-level overrides; zero means "the base's default".
type Tunables struct {
	ImbalancePct   int
	BusyFactor     int
	MinInterval    int64 // ms
	MaxInterval    int64 // ms
	CacheNiceTries int   // -1 means 0 explicitly
}

// FlagOverride sets (Set) or clears (Clear) SD_* flags of one level.
type FlagOverride struct {
	Set, Clear SDFlag
}

// Policy selects the kernel behaviour. Zero values mean "the base's default".
type Policy struct {
	Base        Base
	LoadMetric  LoadMetric
	SIS         SIS
	NewTaskLoad NewTaskLoad
	// Features: Set/Clear override the base's defaults.
	FeatSet, FeatClear uint32 // bit i = Feature(i)
	SDFlags            [NumLevels]FlagOverride
	Tunables           [NumLevels]Tunables
	MigrationCost      int64 // sysctl_sched_migration_cost, ns (0 = 500us, -1 = 0: never cache-hot, MigrationCostAlwaysHot = the sysctl's -1)
	BaseSlice          int64 // EEVDF base slice as the kernel uses it (sysctl_sched_base_slice, scaled), ns (0 = era default: DefaultBaseSlice)
	// The v2.6.8 era's switches (ignored by the other eras; the scenarios
	// package refuses them there).
	CPUScheduler  CPUScheduler
	StaircaseMode StaircaseMode
	// ExecBalanceThreshold: sched_balance_exec() stays put while this
	// runqueue has at most this many tasks (0 = 1, the sched-domains
	// kernels from 2.6.7 on; 2 = the 2.6.0-2.6.6 NUMA scheduler's
	// sched_best_cpu(), which Andrew Theurer recalls in seed 004).
	ExecBalanceThreshold int
}

// MigrationCostAlwaysHot as Policy.MigrationCost is the kernel's
// sysctl_sched_migration_cost = -1: every task is cache-hot (3.8 task_hot()).
const MigrationCostAlwaysHot int64 = -2

// Op is the kind of a program step.
type Op uint8

const (
	OpRun   Op = iota // burn Dur of CPU time
	OpSleep           // block for Dur
	OpTimer           // block until the next multiple of Dur since the task was forked
	OpWake            // wake instance(s) of task group Target
	OpWait            // block until woken (counted, like a semaphore)
	// Structured programs (scenario format version 2; core.go, exec.go).
	OpExec         // sched_exec(): exec balancing through SD_BALANCE_EXEC
	OpFork         // fork Count children of task group Target (SD_BALANCE_FORK)
	OpWaitChildren // block until every child of this task has exited
	OpExit         // the task exits (do_exit())
	OpRepeat       // run the next Len steps Count times (a repeat block, not unrolled)
	// Synchronisation objects (sync.go): Obj indexes Config.Syncs.
	OpLock      // take mutex Obj, blocking while another task holds it
	OpUnlock    // release mutex Obj (handed to its first waiter)
	OpCondWait  // release mutex Mutex, block on condition Obj, retake the mutex once woken
	OpSignal    // wake the first waiter of condition Obj (lost if none)
	OpBroadcast // wake every waiter of condition Obj
	OpBarrier   // block until all Parties of barrier Obj have arrived
)

// syscall reports whether a step that goes on without blocking is a system
// call that can wake or create a task (a wake, a fork, a synchronisation
// step), whose return to user space is a preemption point (runTask).
func (o Op) syscall() bool {
	switch o {
	case OpWake, OpFork, OpLock, OpUnlock, OpCondWait, OpSignal, OpBroadcast, OpBarrier:
		return true
	}
	return false
}

// SyncKind is the kind of a synchronisation object.
type SyncKind uint8

const (
	SyncMutex   SyncKind = iota // a PI futex mutex (rt-app's pthread mutexes)
	SyncCond                    // a condition variable
	SyncBarrier                 // rt-app's barrier: a counter, a mutex and a condition
)

// SyncObject is one mutex, condition variable or barrier that steps name.
type SyncObject struct {
	Name    string
	Kind    SyncKind
	Parties int // a barrier: the tasks that must arrive before any goes on
}

// Limits of structured programs. The scenarios package checks them (with
// paths) before a Config exists; New checks them again, and the run-time
// ones stop a run (Err) before anything is allocated past them.
const (
	// MaxRepeatDepth bounds how deep repeat blocks nest: each task keeps a
	// fixed stack of this many repeat frames.
	MaxRepeatDepth = 4
	// DefaultMaxLiveTasks bounds the tasks alive at once (forked and not
	// yet exited, initial instances included) unless Config.MaxLiveTasks
	// says otherwise. A fork past it stops the run before a task slot is
	// allocated.
	DefaultMaxLiveTasks = 4096
	// DefaultMaxForks bounds the fork steps' children over a whole run
	// unless Config.MaxForks says otherwise.
	DefaultMaxForks = 1_000_000
)

// Fanout says which instances of the target group a wake step wakes.
type Fanout uint8

const (
	FanoutIndex Fanout = iota // same count: same index; target count 1: that one; else index mod count
	FanoutAll                 // every instance
	FanoutOne                 // one instance, round-robin
	FanoutWaker               // the task whose wake ended this task's last wait (a reply)
)

// Step is one program instruction. A program is flat: a repeat block is
// an OpRepeat step followed by its Len body steps (nested blocks inside),
// so that a task plays it with a program counter and a small stack of
// repeat frames instead of an unrolled copy.
type Step struct {
	Op     Op
	Dur    int64 // run, sleep, timer
	Target int   // wake, fork: task group index
	Sync   bool  // wake: WF_SYNC (the waker is about to sleep)
	Fanout Fanout
	Count  int // fork: children to start; repeat: iterations (>= 1)
	Len    int // repeat: number of steps in the body (>= 1)
	Obj    int // lock, unlock, cond_wait, signal, broadcast, barrier: index into Config.Syncs
	Mutex  int // cond_wait: the mutex (index into Config.Syncs)
}

// TaskGroup is `count` identical tasks. A group with Count 0 has no
// instances at the start: fork steps of other tasks start them.
type TaskGroup struct {
	Name    string
	Count   int
	Nice    int     // -20..19
	CPUs    CPUMask // allowed CPUs; empty = all
	Start   int64   // fork delay, ns
	Loop    int     // program iterations, 0 = forever
	Program []Step
}
