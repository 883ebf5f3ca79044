package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Task is a task_struct with its sched_entity and the workload program it runs.
//
// The fields the event loop touches come first and the cold ones (the
// task's name, the process tree, the 2.6.8 era's state) last, so that a
// task's hot state spans a few cache lines.
type Task struct {
	// Line 0: what every event of the task reads first (the program
	// interpreter, the wake-up's state checks, where it is).
	id      int32
	replyTo int32 // the task whose wake ended the last wait
	state   TaskState
	inStep  bool // the step at pc has begun
	// sched_entity flags.
	onRq         bool
	delayed      bool // se->sched_delayed: blocked but still on the runqueue (DELAY_DEQUEUE)
	waiting      bool // blocked in a wait step (wakes from tasks end it)
	wakeMigrated bool // the wake-up in flight moved it to another CPU
	utilEstKeep  bool // PELT util unchanged since enqueue (UTIL_AVG_UNCHANGED)
	relDeadline  bool
	timerGen     uint32
	timerLate    bool // its timer's wake-up waits for its CPU's interrupt (timer.go)
	// relock is the mutex (index+1, 0: none) a cond_wait retakes once
	// woken (sync.go).
	relock    int32
	pc        int
	sp        int   // repeat frames in use (stack)
	remaining int64 // CPU work left before the current step completes, ns
	cpu       int   // task_cpu(): the runqueue it is on or last ran on (-1 before fork)
	commFrom  int   // CPU of the waker whose message it must fetch (-1: none)

	// Line 1.
	prog       []Step
	lastRanCPU int // where its cache footprint is (-1: nowhere)
	// flushSeen is its core's coreFlushes when it last started running
	// there: a later flush emptied its footprint (IdleState.Flushes);
	// noFlushSeen while an exec'd image has no footprint to lose.
	flushSeen uint32
	homeNode  int // node holding its memory (-1: none yet): numa_cost.go
	pending   int // wakes received while not waiting (semaphore count)
	weight    uint64

	// Line 2: the sched_entity's clocks.
	invW        uint32
	lastWakee   int32
	nrAllow     int
	vruntime    int64
	execStart   int64 // se->exec_start: when it last ran (task_hot)
	sumExec     int64
	prevSumExec int64
	queuedAt    int64 // when it last became runnable-but-not-running
	// lastWakeupStart is the time of the wake that made it runnable
	// (latency).
	lastWakeupStart int64

	// Line 3: accounting.
	migratedAt     int64 // time the balancer last moved it, until it runs (0: none)
	cpuTime        int64
	waitTime       int64
	ops            int64
	loops          int
	loop           int
	forkTime       int64
	wakeeFlips     int
	wakeeFlipDecay int64 // jiffies

	// Lines 4 and 5: PELT (both eras) and the EEVDF entity.
	avg           SchedAvg
	avg38         SchedAvg38
	recentUsedCPU int
	deadline      int64
	vlag          int64
	slice         int64

	// Line 6.
	allowed CPUMask
	vprot   int64
	enqSeq  int64 // order of its last enqueue (3.8 cfs_tasks order)
	listPos int64 // position in rq->cfs_tasks (v6.17: enqueue or pick)

	// Line 7: pending wakers, fanout "one".
	wakers     []int32 // FIFO of tasks whose wakes are pending (for fanout "waker"), from wakersHead
	wakersHead int
	rr         []int // per step: next instance for fanout "one"
	// syncWait: blocked on a sync object (wakes from wake steps only
	// count, as for a busy task).
	syncWait bool

	// Repeat blocks: the frames of the blocks the program counter is in,
	// innermost last (sp of them).
	stack [MaxRepeatDepth]repeatFrame

	migrations int64

	// Cold: set at fork and exit, read by reports.
	info TaskInfo

	// Process tree (fork steps). A task slot is reused after its task
	// exited, so a parent is named by slot and life.
	life       uint32 // incremented each time the slot starts a new task
	parent     int32  // the forking task's slot, -1: none
	parentLife uint32
	nrChildren int   // children forked and not yet exited
	exitTime   int64 // when the slot's task last exited (0: never)
	waitChild  bool  // blocked in a wait_children step

	// O(1) / staircase task state (2.6.8 era, o1.go).
	o1 o1Task
}

// repeatFrame is one repeat block being played: its body is
// prog[start:end], left iterations remain (this one included).
type repeatFrame struct {
	start, end int32
	left       int32
}

// llcShared is struct sched_domain_shared: per-LLC state of select_idle_sibling.
type llcShared struct {
	hasIdleCores bool
	nrIdleScan   int
	nrBusyCPUs   int
}

// hNrRunnable is cfs_rq->h_nr_runnable: the queued tasks, curr included,
// less the sched_delayed ones (DELAY_DEQUEUE; none before v6.17).
func (rq *RQ) hNrRunnable() int { return rq.nrRunning - rq.nrDelayed }

// RQ is one CPU's runqueue (struct rq with its cfs_rq).
type RQ struct {
	cpu      int
	capacity int64 // capacity_of() v6.17 / power_of() v3.8

	curr  *Task
	queue []*Task // runnable entities not running (the rb-tree), unordered
	gen   uint32  // generation of the pending evRunDone
	// execStart is when curr's current accounting segment began.
	execStart int64
	// vPending is run time curr has been charged for its step's work but
	// not yet in its vruntime: v6.17 advances vruntime only in update_curr(),
	// and the kernel calls none at the end of a step of user work
	// (chargeWork), so between its calls curr's vruntime is as stale as the
	// kernel's, which every reader of avg_vruntime() without an update_curr()
	// first sees (requeue_delayed_entity(); can_migrate_task()'s
	// eligibility test on the source runqueue).
	vPending int64
	// progAt is when curr's step work was last brought up to date
	// (progress, smt.go; kept only with SMT sharing on); smtOthers is how
	// many of its SMT siblings had a curr when its core was last settled.
	progAt    int64
	smtOthers int32

	nrRunning   int    // on_rq tasks, curr included (sched_delayed ones too: nr_queued)
	nrDelayed   int    // of which sched_delayed (h_nr_runnable = nrRunning - nrDelayed)
	loadWeight  uint64 // cfs_rq->load.weight
	minVruntime int64
	avgVruntime int64 // EEVDF: sum of (v - min_vruntime) * w over queue
	avgLoad     int64 // EEVDF: sum of w over queue

	// State of the CPU itself.
	idle      bool  // running the idle task with nothing queued or in flight
	idleSince int64 // when it went idle
	idleMult  int64 // the governor's performance multiplier at idle entry (era.idleMult)
	exiting   bool  // leaving an idle state (evIdleReady pending)
	exitState int   // the C-state it is leaving
	// coreFlushes counts the times this CPU's core left a state that
	// flushes its caches (kept on the core's first thread).
	coreFlushes uint32
	readyAt     int64 // when that exit ends (evIdleReady), while exiting
	ttwuPending int   // wake-ups in flight to this CPU
	// ipiLag delays the idle exit of a CPU whose wake-up was enqueued
	// directly by a remote waker (3.8 ttwu_queue() within the LLC): the
	// task is on the runqueue at once, the CPU starts waking when the
	// IPI arrives. Set only around that activate().
	ipiLag int64
	// The timer interrupt of this CPU for the expiry instant timerIRQAt
	// comes timerIRQDelay after it (Costs.TimerIRQSpread, timer.go).
	timerIRQAt, timerIRQDelay int64
	// tickJ: the jiffy of this CPU's tick while its interrupt is late
	// (evTickCPU, tickIRQDelay).
	tickJ         int64
	timerIRQWakes int64 // the wake-ups that interrupt has made so far

	needResched bool
	// v3.8 CFS buddies (cfs_rq->next, cfs_rq->last): set by
	// check_preempt_wakeup(), preferred by pick_next_entity(), cleared
	// when picked, dequeued, or when the last buddy overran its slice.
	nextBuddy, lastBuddy *Task
	tickOn               bool
	tickFrom             int64 // first jiffy its restarted tick fires
	// nohzStopped is rq->nohz_tick_stopped (v6.17): set when the CPU's
	// tick stops in idle (nohz_balance_enter_idle()), cleared at its first
	// busy tick (nohz_balance_exit_idle()), not at every wake-up.
	nohzStopped        bool
	idleStamp          int64 // rq->idle_stamp (0: not idle)
	avgIdle            int64 // rq->avg_idle
	maxIdleBalanceCost int64

	// PELT.
	cfsAvg          SchedAvg
	removedLoad     uint64
	removedUtil     uint64
	removedRunnable uint64
	removedNr       int
	// v3.8 PELT.
	runnableLoadAvg uint64
	blockedLoadAvg  uint64
	decayCounter    int64 // from 1, as 3.8 init_cfs_rq() sets it: a sleeper's decay_count is never 0
	lastDecay       int64 // clock >> 20
	removedLoad38   uint64
	cpuLoad         [5]uint64
	lastLoadUpdate  int64 // jiffies

	// Balancing.
	nextBalance int64 // jiffies
	// tickRetained: idle with its tick still running, so not yet in
	// nohz.idle_cpus_mask (NOHZ_AFTER_TICK).
	tickRetained      bool
	activeBalance     bool
	lastBlockedUpdate int64

	sdLLC   *SchedDomain // per_cpu(sd_llc)
	llc     *llcShared
	domains []*SchedDomain

	// The O(1) / staircase runqueue (2.6.8 era, o1.go).
	o1 *o1RQ

	// Metrics.
	busyTime    int64
	busySince   int64
	nrSwitches  int64
	ttwuCount   int64
	ttwuLocal   int64
	runDelay    int64
	pcount      int64
	schedGoidle int64
	schedCount  int64

	// irqExit is how long this CPU, idle at the instant timerIRQAt, took
	// to leave its C-state before that interrupt's handler ran, the exit
	// less Costs.IdleReturn (-1: not computed yet; timer.go). irqReady is
	// when the whole exit ends: a wake-up
	// landing before it waits only for what is left of it (leaveIdle), and
	// one landing at it finds the CPU out of its C-state. Last in the
	// struct, with the metrics: the hot fields keep their cache lines.
	irqExit, irqReady int64
}

// coldExecStart is the exec_start of a task whose cache footprint is long
// gone (never ran, or just migrated in v6.17): task_hot() says cold.
const coldExecStart = -1 << 50

// Sim is the simulator. It is single-threaded and deterministic: the same
// Config gives the same event stream, on every platform.
type Sim struct {
	cfg   Config
	costs Costs
	topo  *Topology
	syncs []syncState // mutexes, condition variables, barriers (sync.go)
	feat  uint32
	// consulted: the features feature() has read (switches.go).
	consulted uint32
	lm        LoadMetric
	sis       SIS
	ntl       NewTaskLoad

	now       int64
	q         eventQueue
	rng       *rand.Rand
	pcg       *rand.PCG // rng's source (a checkpoint copies its state)
	cpus      []*RQ
	tasks     []*Task
	infos     []TaskInfo
	groups    []*SchedGroup // task groups' first task index
	gfirst    []int
	sgroups   []*SchedGroup
	cpuGroups [][]*SchedGroup // per CPU: the groups holding it, one per level
	llcs      []*llcShared

	tickNS        int64
	baseSlice     int64 // EEVDF sysctl_sched_base_slice
	latency       int64 // 3.8 sysctl_sched_latency
	minGran       int64
	wakeupGran    int64
	migrationCost int64
	// migrationAlwaysHot: sysctl_sched_migration_cost == -1 (task_hot()).
	migrationAlwaysHot bool
	spawnCPU           int
	// smtOn: Costs.SMTGain is set and some core has several threads;
	// smtDirty holds the CPUs whose busy state changed this event (smt.go).
	smtOn    bool
	smtDirty CPUMask
	// polls: which idle states poll (IdleState.Polls; idlePolls).
	polls uint8
	// menuDefault is the index of the governor's default state, the first
	// with an exit latency (menu_select() takes CPUIDLE_DRIVER_STATE_START,
	// C1, whatever the multiplier): deeper ones obey RQ.idleMult.
	menuDefault int
	// flushRefill is the distance a flushed core refills from: its L2
	// cluster's, else the LLC (IdleState.Flushes).
	flushRefill Distance

	dirty []int // CPUs needing a reschedule after the current event

	tickArmed bool    // the jiffy event is queued
	idleMask  CPUMask // CPUs idle_cpu() is true of
	busyMask  CPUMask // CPUs not running their idle task (!rq.idle)
	processed int64   // internal events processed
	maxEvents int64
	work      int64     // work units done (see Work)
	maxWork   int64     // work budget
	openDec   *Decision // the decision whose examined CPUs are not yet counted in work
	err       error     // why the run stopped early (a *LimitError), nil if it did not

	// Balancing state of the root domain and nohz.
	rdOverloaded    bool
	nohzNextBalance int64 // jiffies
	// nohzKick is the pending kick's flags (nohz_flags(ilb_cpu)), 0 when
	// none is pending. A kick while one is pending adds its flags to it.
	nohzKick nohzFlags
	// nohz.has_blocked and nohz.next_blocked (jiffies), v6.17.
	nohzHasBlocked  bool
	nohzNextBlocked int64
	// nohz.needs_update (v6.17): a CPU has entered nohz idle since
	// nohz.next_balance was last collated.
	nohzNeedsUpdate bool
	nohzBalancing   bool
	// nTickRetained counts the idle CPUs whose tick still runs
	// (RQ.tickRetained): idle, but not in nohz.idle_cpus_mask.
	nTickRetained int
	lruBuf        []*Task
	// Task slots of fork steps: per group, the slots whose task exited
	// (reused last-in first-out) and the number of slots it has.
	freeSlots [][]int32
	nSlots    []int
	live      int // tasks forked and not exited
	maxLive   int
	// countsExits: every group's program exits (Metrics.CountsExits).
	countsExits bool
	maxForks    int64
	enqSeq      int64
	orderBuf    []*Task
	candBuf     []*Task
	movedBuf    []*Task // lbEnv.moved's backing array, reused by every balancing pass

	// Trace.
	hash      uint64
	nEvents   int64
	recording bool
	events    []Event
	decisions []Decision
	decSeq    int64
	scratch   Decision

	// Metrics accumulators.
	m metricsAcc

	// era is what differs between kernel eras (era.go), chosen once by
	// New from Policy.Base; nothing else tests the base. (Kept after the
	// hot fields above, so that its size does not spread them apart.)
	era era
	// sisVariant is the select_idle_sibling() variant, chosen once.
	sisVariant sisVariant
	// The balancing pass's and the active balance's lb_env.
	lbEnv, albEnv lbEnv
	// The v2.6.8 era's constants (o1.go), zero in the other eras.
	o1p o1Params
}

// DefaultMaxEvents is the event budget of a run: about a minute of work on
// one core natively. It bounds what a scenario (or a shared link) can make a
// CLI run or a browser tab do.
const DefaultMaxEvents = 300_000_000

// DefaultMaxWork is the work budget of a run (see Work). Events bound the
// loop, not the work inside an event: one wake step with fanout "all" wakes
// up to 4096 tasks, one tick runs on 256 CPUs, one balancing pass examines
// 256 CPUs, a pick scans the whole runqueue. Work units count that inner
// work, so a budget of them bounds time for every scenario alike, and
// deterministically: the CLI and the page stop at the same event. Measured
// in CPU time natively on this kind of machine (2-core VM, Go 1.26, two
// runs): 135 to 190 million units a second for the slowest kinds (a 1 ns
// loop on one CPU: 143 million; tbench with 2048 pairs on 256 CPUs), about
// 250 million for 4096 tasks waking each other, 680 million for long
// runqueue scans; so 10^9 units are at most about 7.5 s of one core (wasm:
// about three times that).
// The presets need 0.1 to 3 million; tbench-pairs with 80 pairs, 130
// million per simulated second.
const DefaultMaxWork = 1_000_000_000

// New builds a simulator for cfg. cfg is not modified; its validation with
// paths is the scenarios package's job, so errors here are terse.
func New(cfg *Config) (*Sim, error) {
	if cfg.Duration <= 0 {
		return nil, errorf("duration must be positive")
	}
	m := cfg.Machine
	switch m.HZ {
	case 100, 250, 300, 1000:
	default:
		return nil, errorf("hz %d: must be 100, 250, 300 or 1000", m.HZ)
	}
	topo, err := NewTopology(&m)
	if err != nil {
		return nil, err
	}
	s := &Sim{cfg: *cfg, topo: topo, costs: m.Costs, maxEvents: cfg.MaxEvents, maxWork: cfg.MaxWork}
	if topo.Irregular() {
		// A machine given per CPU: the SMT tests that read the counts
		// (sched_smt_present) see its largest core.
		s.cfg.Machine.ThreadsPerCore = topo.MaxThreads
		m.ThreadsPerCore = topo.MaxThreads
	}
	s.smtOn = s.costs.SMTGain > 0 && topo.MaxThreads > 1
	all, some := len(s.costs.IdleStates) > 0, false
	for _, st := range s.costs.IdleStates {
		all, some = all && st.Polls, some || st.Polls
	}
	s.menuDefault = len(s.costs.IdleStates)
	s.flushRefill = DistLLC
	if topo.HasClusters {
		s.flushRefill = DistCluster
	}
	for i, st := range s.costs.IdleStates {
		if st.ExitLatency > 0 {
			s.menuDefault = i
			break
		}
	}
	switch {
	case all && !s.costs.IdleStates[0].Package:
		s.polls = pollsAll
	case some:
		s.polls = pollsSome
	default:
		s.polls = pollsNone
	}
	if s.maxEvents <= 0 {
		s.maxEvents = DefaultMaxEvents
	}
	if s.maxWork <= 0 {
		s.maxWork = DefaultMaxWork
	}
	s.pcg = rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)
	s.rng = rand.New(s.pcg)
	s.era = *eraFor(cfg.Policy.Base)
	if s.era.classFor != nil {
		s.era.class = s.era.classFor(s)
	}
	s.resolvePolicy()
	s.tickNS = 1_000_000_000 / int64(m.HZ)
	f := int64(1 + ilog2(min(topo.NCPU, 8)))
	s.baseSlice = DefaultBaseSlice(topo.NCPU)
	if cfg.Policy.BaseSlice > 0 {
		s.baseSlice = cfg.Policy.BaseSlice
	}
	s.latency, s.minGran, s.wakeupGran = 6_000_000*f, 750_000*f, 1_000_000*f
	s.migrationCost = 500_000
	switch {
	case cfg.Policy.MigrationCost == MigrationCostAlwaysHot:
		// sysctl_sched_migration_cost = -1: an unsigned int, so UINT_MAX ns
		// wherever it is compared (the 3.8 newidle gate), and task_hot()'s
		// "always hot".
		s.migrationCost, s.migrationAlwaysHot = math.MaxUint32, true
	case cfg.Policy.MigrationCost > 0:
		s.migrationCost = cfg.Policy.MigrationCost
	case cfg.Policy.MigrationCost < 0:
		s.migrationCost = 0
	}
	for _, st := range s.costs.IdleStates {
		if st.After < 0 || st.ExitLatency < 0 {
			return nil, errorf("idle state %q: negative time", st.Name)
		}
	}

	n := topo.NCPU
	capacity := make([]int64, n)
	for c := 0; c < n; c++ {
		capacity[c] = s.era.cpuCapacity(topo.SMT[c].Weight())
	}
	perCPU, sgroups := buildDomains(topo, m.Nodes, cfg.Policy.Base, &cfg.Policy, capacity)
	s.sgroups = sgroups
	s.llcs = make([]*llcShared, topo.LLCs)
	for i := range s.llcs {
		s.llcs[i] = &llcShared{}
	}
	s.cpus = make([]*RQ, n)
	for c := 0; c < n; c++ {
		rq := &RQ{cpu: c, capacity: capacity[c], domains: perCPU[c], idle: true, busySince: -1, idleSince: -1_000_000_000, idleMult: 1, o1: new(o1RQ), timerIRQAt: -1, irqReady: -1}
		rq.avgIdle = 2 * s.migrationCost        // sched_init()
		rq.maxIdleBalanceCost = s.migrationCost // sched_init()
		rq.decayCounter = 1                     // init_cfs_rq() (TestDecayCounterStartsAtOne)
		rq.sdLLC = highestFlagDomain(perCPU[c], SDShareLLC)
		rq.llc = s.llcs[topo.CPU[c].LLC]
		// The LLC state of a machine that has been idle a while (not of a
		// fresh boot, where nr_idle_scan starts at 0 until the first
		// LLC-level balance): idle cores exist, the scan may cover the LLC.
		rq.llc.hasIdleCores = true
		rq.timerIRQAt = -1
		if rq.sdLLC != nil {
			setIdleBuddies(rq.sdLLC)
			rq.llc.nrIdleScan = rq.sdLLC.Weight
		}
		s.cpus[c] = rq
	}

	s.m.nIdle = n
	s.idleMask = topo.All
	s.cpuGroups = make([][]*SchedGroup, n)
	for c := 0; c < n; c++ {
		for _, sd := range perCPU[c] {
			for _, g := range sd.Groups {
				if g.Span.Has(c) {
					s.cpuGroups[c] = append(s.cpuGroups[c], g)
				}
			}
		}
	}
	s.initO1()
	// Tasks.
	if err := s.buildTasks(); err != nil {
		return nil, err
	}
	if s.era.tickIdle {
		for _, rq := range s.cpus {
			s.startTick(rq)
		}
	}
	return s, nil
}

// resolvePolicy applies the era's defaults and the scenario's overrides,
// and chooses the select_idle_sibling() variant once.
func (s *Sim) resolvePolicy() {
	p := &s.cfg.Policy
	s.feat = (s.era.defFeatures | p.FeatSet) &^ p.FeatClear
	s.lm = p.LoadMetric
	if s.lm == LoadDefault {
		s.lm = s.era.defLoadMetric
	}
	s.sis = p.SIS
	if s.sis == SISDefault {
		s.sis = s.era.defSIS
	}
	s.sisVariant = sisVariantOf(s.sis)
	s.ntl = p.NewTaskLoad
	if s.ntl == NewTaskLoadDefault {
		s.ntl = s.era.defNewTaskLoad
	}
}

func (s *Sim) feature(f Feature) bool {
	s.consulted |= 1 << f
	return s.feat&(1<<f) != 0
}

func (s *Sim) buildTasks() error {
	s.initSyncs()
	n := s.topo.NCPU
	total := 0
	for gi := range s.cfg.Tasks {
		g := &s.cfg.Tasks[gi]
		if g.Count < 0 {
			return errorf("task %q: count must not be negative", g.Name)
		}
		if g.Nice < -20 || g.Nice > 19 {
			return errorf("task %q: nice %d out of range", g.Name, g.Nice)
		}
		if err := s.checkProgram(g); err != nil {
			return err
		}
		total += g.Count
	}
	if total == 0 {
		return errorf("no task starts: every group has count 0")
	}
	s.maxLive, s.maxForks = s.cfg.MaxLiveTasks, s.cfg.MaxForks
	if s.maxLive <= 0 {
		s.maxLive = DefaultMaxLiveTasks
	}
	if s.maxForks <= 0 {
		s.maxForks = DefaultMaxForks
	}
	if total > s.maxLive {
		return errorf("%d tasks at the start; the limit of live tasks is %d", total, s.maxLive)
	}
	s.q.init(s.topo.NCPU, total)
	s.gfirst = make([]int, len(s.cfg.Tasks))
	s.freeSlots = make([][]int32, len(s.cfg.Tasks))
	s.nSlots = make([]int, len(s.cfg.Tasks))
	s.tasks = make([]*Task, 0, total)
	s.infos = make([]TaskInfo, 0, total)
	for gi := range s.cfg.Tasks {
		g := &s.cfg.Tasks[gi]
		s.gfirst[gi] = len(s.tasks)
		allowed := g.CPUs
		if allowed.Empty() {
			allowed = s.topo.All
		}
		allowed = allowed.And(&s.topo.All)
		if allowed.Empty() {
			return errorf("task %q: no allowed CPU exists on this %d-CPU machine", g.Name, n)
		}
		for i := 0; i < g.Count; i++ {
			t := s.newSlot(gi)
			s.live++
			s.q.push(qev{t: g.Start, kind: evSpawn, task: t.id})
		}
	}
	s.m.liveMax = s.live
	s.countsExits = len(s.cfg.Tasks) > 0
	for gi := range s.cfg.Tasks {
		s.countsExits = s.countsExits && slices.ContainsFunc(s.cfg.Tasks[gi].Program, func(st Step) bool { return st.Op == OpExit })
	}
	return nil
}

// newSlot appends a task slot of group gi: "name/index", unborn.
func (s *Sim) newSlot(gi int) *Task {
	g := &s.cfg.Tasks[gi]
	id := int32(len(s.tasks))
	i := s.nSlots[gi]
	s.nSlots[gi]++
	info := TaskInfo{ID: int(id), Name: fmt.Sprintf("%s/%d", g.Name, i), Group: gi, Index: i, Nice: g.Nice}
	t := &Task{id: id, info: info, rr: make([]int, len(g.Program))}
	s.initTask(t)
	s.tasks = append(s.tasks, t)
	s.infos = append(s.infos, info)
	return t
}

// initTask sets a slot's task to a fresh unborn task of its group.
func (s *Sim) initTask(t *Task) {
	g := &s.cfg.Tasks[t.info.Group]
	allowed := g.CPUs
	if allowed.Empty() {
		allowed = s.topo.All
	}
	allowed = allowed.And(&s.topo.All)
	t.prog, t.loop, t.state = g.Program, g.Loop, TaskUnborn
	t.weight, t.invW = NiceWeight(g.Nice), schedPrioToWmult[g.Nice+20]
	t.allowed, t.nrAllow = allowed, allowed.Weight()
	t.cpu, t.lastRanCPU, t.commFrom = -1, -1, -1
	t.homeNode = -1
	t.replyTo, t.lastWakee, t.recentUsedCPU = -1, -1, -1
	t.execStart = coldExecStart
	t.parent = -1
}

// checkProgram checks a group's flat program: step operands, repeat blocks
// nested at most MaxRepeatDepth deep and inside their enclosing block,
// every repeat body and the whole program taking time (so that every
// iteration advances the clock).
func (s *Sim) checkProgram(g *TaskGroup) error {
	if len(g.Program) == 0 {
		return errorf("task %q: empty program", g.Name)
	}
	var ends [MaxRepeatDepth + 1]int
	depth := 0
	ends[0] = len(g.Program)
	timed := func(from, to int) bool {
		for _, st := range g.Program[from:to] {
			if st.Op == OpRun || st.Op == OpSleep || st.Op == OpTimer {
				return true
			}
		}
		return false
	}
	for pc, st := range g.Program {
		for depth > 0 && pc == ends[depth] {
			depth--
		}
		switch st.Op {
		case OpRun, OpSleep, OpTimer:
			if st.Dur <= 0 {
				return errorf("task %q: a run, sleep or timer step needs a positive duration", g.Name)
			}
		case OpWake:
			if st.Target < 0 || st.Target >= len(s.cfg.Tasks) {
				return errorf("task %q: wake target %d does not exist", g.Name, st.Target)
			}
			if s.cfg.Tasks[st.Target].Count == 0 {
				return errorf("task %q: a wake step cannot target %q, whose instances are started by forks", g.Name, s.cfg.Tasks[st.Target].Name)
			}
		case OpLock, OpUnlock, OpCondWait, OpSignal, OpBroadcast, OpBarrier:
			if err := s.checkSyncStep(g, &st); err != nil {
				return err
			}
		case OpFork:
			if st.Target < 0 || st.Target >= len(s.cfg.Tasks) || st.Count <= 0 {
				return errorf("task %q: a fork step needs an existing group and a positive count", g.Name)
			}
		case OpRepeat:
			end := pc + 1 + st.Len
			if st.Count <= 0 || st.Len <= 0 || end > ends[depth] {
				return errorf("task %q: repeat block at step %d does not fit its program", g.Name, pc)
			}
			if depth == MaxRepeatDepth {
				return errorf("task %q: repeat blocks nest more than %d deep", g.Name, MaxRepeatDepth)
			}
			if !timed(pc+1, end) {
				return errorf("task %q: the repeat block at step %d needs a run, sleep or timer step", g.Name, pc)
			}
			depth++
			ends[depth] = end
		}
	}
	if !timed(0, len(g.Program)) {
		return errorf("task %q: the program needs at least one run, sleep or timer step", g.Name)
	}
	return nil
}

// ---- Public API ----

// Now returns the simulated time in ns.
func (s *Sim) Now() int64 { return s.now }

// Done reports whether the configured duration has been simulated, or the
// run stopped early (Err).
func (s *Sim) Done() bool { return s.now >= s.cfg.Duration || s.err != nil }

// Config returns the configuration the simulator was built from.
func (s *Sim) Config() *Config { return &s.cfg }

// Costs returns the cost model in use.
func (s *Sim) Costs() Costs { return s.costs }

// Topology returns the machine layout (read-only).
func (s *Sim) Topology() *Topology { return s.topo }

// Domains returns read-only views of cpu's sched domains, bottom-up, as
// they stand now (a copy: later events do not change it).
func (s *Sim) Domains(cpu int) []DomainView { return s.DomainsInto(cpu, nil) }

// DomainsInto is Domains appending to dst (for a caller that refreshes the
// views often and wants to reuse their memory).
func (s *Sim) DomainsInto(cpu int, dst []DomainView) []DomainView {
	for _, sd := range s.cpus[cpu].domains {
		dst = append(dst, sd.view())
	}
	return dst
}

// Tasks returns the static description of every task.
func (s *Sim) Tasks() []TaskInfo { return s.infos }

// TaskName returns a task's "group/index" name.
func (s *Sim) TaskName(id int) string {
	if id < 0 || id >= len(s.infos) {
		return "idle"
	}
	return s.infos[id].Name
}

// Run simulates until the configured duration.
func (s *Sim) Run() { s.RunUntil(s.cfg.Duration) }

// RunUntil processes every event up to time t and advances the clock to t.
// A run that exhausts its event budget stops where it is (see Err).
func (s *Sim) RunUntil(t int64) {
	for s.err == nil && s.q.len() > 0 && s.q.peekTime() <= t {
		s.step()
	}
	if s.err == nil && t > s.now {
		s.advance(t)
	}
}

// Step processes the next event; it reports false when none is left or a
// budget is spent (then Err says which).
func (s *Sim) Step() bool {
	if s.err != nil || s.q.len() == 0 {
		return false
	}
	s.step()
	return s.err == nil
}

// Err reports why the run stopped early: nil, or a *LimitError naming the
// budget (events or work) it reached.
func (s *Sim) Err() error { return s.err }

// eventWork is what an internal event counts in work units: its fixed cost
// (the queue, the clock, the metrics' integration, the reschedule loop) was
// measured at about eight times that of a unit of inner work, such as
// waking a task (a 1 ns loop on one CPU: about 70 ns of CPU per event; a
// wake-up that only counts: a few ns).
const eventWork = 8

// Work is the number of work units done so far: eventWork per internal
// event, one per trace event emitted, per task woken (a wake that only counts, as a
// semaphore post, included), per CPU visited by a tick, per task queued on
// the CPU of an event or of a reschedule (the runqueue is a slice that
// picks scan), and per CPU, sched group and domain a placement or balancing
// decision examined. It depends
// only on the scenario, so it is the same natively and in wasm.
func (s *Sim) Work() int64 { return s.work }

// chargeDecision adds what the open decision examined to the work count.
// Decisions do not nest (a wake-up never starts a balancing pass nor the
// reverse), so the open one is complete when the next starts or the event
// ends, whether it lives in the recording ring or in s.scratch.
func (s *Sim) chargeDecision() {
	if d := s.openDec; d != nil {
		s.work += int64(d.NCPUs + d.NGroups + d.NDomains)
		s.openDec = nil
	}
}

// NextEventTime is the time of the next queued event (-1: none).
func (s *Sim) NextEventTime() int64 {
	if s.q.len() == 0 {
		return -1
	}
	return s.q.peekTime()
}

// SetRecording turns on the collection of Events (TakeEvents) and
// Decisions (Decision); the trace hash covers every event regardless.
func (s *Sim) SetRecording(on bool) {
	s.recording = on
	if on && s.decisions == nil {
		s.decisions = make([]Decision, decisionRing)
	}
}

// TakeEvents appends the events recorded since the last call to dst.
func (s *Sim) TakeEvents(dst []Event) []Event {
	dst = append(dst, s.events...)
	s.events = s.events[:0]
	return dst
}

const decisionRing = 1 << 14

// Decision returns the decision with sequence number seq if it is still
// held (the last 16384 are kept while recording).
func (s *Sim) Decision(seq int64) (*Decision, bool) {
	if seq < 0 || s.decisions == nil || seq > s.decSeq || s.decSeq-seq >= decisionRing {
		return nil, false
	}
	d := &s.decisions[seq%decisionRing]
	if d.Seq != seq {
		return nil, false
	}
	return d, true
}

// Explain renders an event in words.
func (s *Sim) Explain(e Event) string {
	name := s.TaskName(int(e.Task))
	var txt string
	switch e.Kind {
	case EvFork:
		txt = fmt.Sprintf("%s forked on cpu%d", name, e.CPU)
	case EvWakeup:
		by := "timer"
		if e.Arg >= 0 {
			by = s.TaskName(int(e.Arg))
		}
		txt = fmt.Sprintf("%s woken by %s onto cpu%d (prev cpu%d)", name, by, e.CPU, e.From)
	case EvSwitch:
		txt = fmt.Sprintf("cpu%d: %s -> %s", e.CPU, s.TaskName(int(e.Arg)), name)
	case EvMigrate:
		txt = fmt.Sprintf("%s moved cpu%d -> cpu%d (%s, %s)", name, e.From, e.CPU, e.Cause, s.topo.Distance(int(e.From), int(e.CPU)))
	case EvBlock:
		txt = fmt.Sprintf("%s blocked on cpu%d", name, e.CPU)
	case EvExit:
		txt = fmt.Sprintf("%s exited on cpu%d", name, e.CPU)
	case EvBalance:
		txt = fmt.Sprintf("cpu%d balanced %s: moved %d", e.CPU, Level(e.Level), e.Arg)
	}
	if d, ok := s.Decision(e.Why); ok {
		txt += ": " + d.Text(s.TaskName)
	}
	return fmt.Sprintf("t=%.3fms %s", float64(e.T)/1e6, txt)
}

// ---- Event loop ----

func (s *Sim) step() {
	s.processed++
	if s.processed > s.maxEvents {
		s.err = &LimitError{Limit: "events", Budget: s.maxEvents, At: s.now}
		return
	}
	if s.work >= s.maxWork {
		s.err = &LimitError{Limit: "work", Budget: s.maxWork, At: s.now}
		return
	}
	s.work += eventWork
	t, kind, cpu, task, gen := s.q.popFields()
	s.advance(t)
	if kind != evTick && cpu >= 0 && int(cpu) < len(s.cpus) {
		// Its accounting (update_curr, min_vruntime) scans the CPU's queue.
		s.work += int64(len(s.cpus[cpu].queue))
	}
	switch kind {
	case evRunDone:
		rq := s.cpus[cpu]
		if gen == rq.gen && rq.curr != nil {
			s.runDone(rq)
		}
	case evTick:
		for _, rq := range s.cpus {
			s.work += 1 + int64(len(rq.queue))
		}
		s.tickAll()
	case evTickCPU:
		s.work++
		rq := s.cpus[cpu]
		s.tick(rq, rq.tickJ)
	case evTimer:
		p := s.tasks[task]
		if gen == p.timerGen && p.state == TaskBlocked && !s.timerIRQ(p) {
			s.tryToWakeUp(p, nil, p.cpu, false)
		}
	case evArrive:
		s.arrive(s.tasks[task], s.cpus[cpu])
	case evIdleReady:
		rq := s.cpus[cpu]
		rq.exiting = false
		s.markResched(rq)
	case evSpawn:
		s.wakeUpNewTask(s.tasks[task], s.spawnCPU)
	case evNohzKick:
		s.nohzIdleBalance(s.cpus[cpu])
	case evActiveBalance:
		s.era.activeBalance(s, s.cpus[cpu], int(task))
	}
	s.flush()
	if s.smtOn && !s.smtDirty.Empty() {
		s.smtSync()
	}
	s.chargeDecision()
}

// advance moves the clock to t, integrating the time-weighted metrics.
func (s *Sim) advance(t int64) {
	if t < s.now {
		panic(fmt.Sprintf("sim: time went backwards: %d < %d", t, s.now))
	}
	s.m.integrate(s, t)
	s.now = t
}

func (s *Sim) markResched(rq *RQ) {
	if !rq.needResched {
		rq.needResched = true
		s.dirty = append(s.dirty, rq.cpu)
	}
}

// flush reschedules every CPU marked during the current event, in the order
// they were marked.
func (s *Sim) flush() {
	for i := 0; i < len(s.dirty); i++ {
		rq := s.cpus[s.dirty[i]]
		if rq.needResched {
			s.work += int64(len(rq.queue)) // the pick scans the queue
			rq.needResched = false
			s.schedule(rq)
		}
	}
	s.dirty = s.dirty[:0]
}

// emit appends an event to the trace. The trace hash is FNV-1a taken over
// 64-bit words (each event is four words: time; kind, cause, level; CPU and
// from; task and arg), which is as deterministic as the byte-wise form and
// four times cheaper.
//
// The event comes by address: an Event (40 bytes) passed by value goes on
// the stack, built there with narrow stores and copied with wide loads that
// the CPU cannot forward from its store buffer (perf annotate put 9-11 % of
// schedule()'s samples on that copy). Read field by field, each load matches
// a store. Only a recording run copies the whole event.
func (s *Sim) emit(e *Event) {
	t := s.now
	s.nEvents++
	s.work++
	h := s.hash
	if h == 0 {
		h = 14695981039346656037
	}
	h = (h ^ uint64(t)) * 1099511628211
	h = (h ^ (uint64(e.Kind) | uint64(e.Cause)<<8 | uint64(uint8(e.Level))<<16)) * 1099511628211
	h = (h ^ (uint64(uint16(e.CPU)) | uint64(uint16(e.From))<<16)) * 1099511628211
	h = (h ^ (uint64(uint32(e.Task)) | uint64(uint32(e.Arg))<<32)) * 1099511628211
	s.hash = h
	if s.recording {
		e.T = t
		s.events = append(s.events, *e)
	}
}

// TraceHash is the FNV-1a digest of the whole event stream so far.
func (s *Sim) TraceHash() string { return fmt.Sprintf("%016x", s.hash) }

// Events is the number of trace events emitted so far.
func (s *Sim) Events() int64 { return s.nEvents }

// newDecision starts a decision record (held in the ring while recording).
func (s *Sim) newDecision(path string, p *Task, this int) *Decision {
	s.chargeDecision()
	var d *Decision
	if s.recording {
		s.decSeq++
		d = &s.decisions[s.decSeq%decisionRing]
		*d = Decision{Seq: s.decSeq}
	} else {
		// Field by field: the whole record holds ten strings, and a
		// struct store of it is a bulk write barrier in Go's wasm port
		// while a collection is marking. Nums past NNums are never read
		// (TestScratchDecisionReset).
		d = &s.scratch
		d.Seq, d.Reason, d.Examined = -1, "", CPUMask{}
		d.NCPUs, d.NGroups, d.NDomains, d.Cost, d.NNums = 0, 0, 0, 0, 0
	}
	d.T = s.now
	d.Path = path
	d.Task = -1
	if p != nil {
		d.Task = p.id
	}
	d.This, d.Prev, d.Target, d.Chosen, d.Level = int16(this), -1, -1, -1, -1
	s.openDec = d
	return d
}

func (s *Sim) jiffies() int64 { return s.now / s.tickNS }

// DefaultBaseSlice is v6.17's sysctl_sched_base_slice on a machine of ncpu
// CPUs, in ns: normalized_sysctl_sched_base_slice (0.7 ms since
// 2ae891b82695 "sched: Reduce the default slice to avoid tasks getting an
// extra tick", v6.15 and the 6.12 stables; 0.75 ms from v6.6 to it) times
// get_update_sysctl_factor() under the default SCHED_TUNABLESCALING_LOG,
// 1 + ilog2(min(ncpu, 8)) (update_sysctl(), kernel/sched/fair.c).
func DefaultBaseSlice(ncpu int) int64 {
	return 700_000 * int64(1+ilog2(min(max(ncpu, 1), 8)))
}
