package scenarios

import (
	"time"

	"schedplay/sim"
)

// Limits. Every one is checked before anything proportional to it is
// allocated: the raw size first, then counts while arrays are streamed, then
// the products (CPUs, instances) before a Config is built. Together they
// bound what a share link can make a browser tab do.
const (
	// MaxScenarioBytes bounds a scenario file, and what a link may inflate to.
	MaxScenarioBytes = 256 << 10
	// MaxLinkBytes bounds a share link (the whole URL or fragment as given).
	MaxLinkBytes = 64 << 10
	// MaxCPUs is the largest machine: the product of the six machine
	// dimensions. It is the simulator's own limit (its CPU masks are fixed-size).
	MaxCPUs = sim.MaxCPUs
	// MaxTaskGroups bounds len(tasks).
	MaxTaskGroups = 64
	// MaxInstances bounds the sum of all counts: the tasks the machine runs.
	MaxInstances = 4096
	// MaxSteps bounds the steps of one task's program, and of each repeat
	// block's body.
	MaxSteps = 64
	// MaxProgramSteps bounds the steps of one task's program counting every
	// repeat body's (version 2), so that a program stays small however its
	// blocks nest.
	MaxProgramSteps = 256
	// MaxRepeatDepth bounds how deep repeat blocks nest (the simulator
	// keeps a fixed stack of frames per task).
	MaxRepeatDepth = sim.MaxRepeatDepth
	// MaxForkCount bounds the children one fork step starts.
	MaxForkCount = MaxInstances
	// MaxLiveTasks and MaxForks are run-time limits of the simulator on
	// tasks started by fork steps: alive at once (initial instances
	// included), and forked in a whole run. A run that reaches one stops
	// (the CLI exits 3 with the metrics of what was simulated).
	MaxLiveTasks = sim.DefaultMaxLiveTasks
	MaxForks     = sim.DefaultMaxForks
	// MaxIdleStates bounds machine.costs.idle_states.
	MaxIdleStates = 8
	// MaxDuration bounds the simulated time of a run, and every duration in a
	// scenario except the cost model's (see MaxCost).
	MaxDuration = 600 * time.Second
	// MaxCost bounds each duration of machine.costs: a cost above a second
	// models no machine, it only stalls the simulation.
	MaxCost = time.Second
	// MaxTitle and MaxDescription bound those texts, in characters (runes).
	MaxTitle       = 200
	MaxDescription = 4000
	// MaxSeed is 2^53-1, so that a seed survives a trip through JavaScript.
	MaxSeed = 1<<53 - 1
	// MinTimer is the shortest timer period: shorter periods model nothing a
	// tick-driven kernel can do and only multiply events.
	MinTimer = 10 * time.Microsecond
)

// Version is the scenario format this package reads and writes.
const Version = 1

// MaxVersion is the newest format version this package reads. Version 2
// adds the structured program steps (exec, fork, wait_children, exit,
// repeat) and groups of count 0, and gives SD_BALANCE_WAKE its stock meaning
// (Preeti's merge patch is BALANCE_WAKE_MERGE); a version-1 file means what
// it meant (upgrade.go).
const MaxVersion = 2

// Scenario is a scenario file, version 1, as written: durations are strings
// ("20us"), tasks refer to each other by name, policy switches by the
// kernel's names. Config resolves it for the simulator. The zero value is not
// valid; Decode fills the defaults (see doc.go and FORMAT.md for every field).
type Scenario struct {
	Version     int     `json:"version"`
	Title       string  `json:"title"`
	Description string  `json:"description,omitempty"`
	Seed        uint64  `json:"seed"`
	Duration    string  `json:"duration"`
	Machine     Machine `json:"machine"`
	Policy      Policy  `json:"policy"`
	Tasks       []Task  `json:"tasks"`
	// Summary and View are for the page (a preset's one-line summary and
	// default view); Canonical leaves them out, so they change neither the
	// share link's s= part nor the run.
	Summary string `json:"summary,omitempty"`
	View    View   `json:"view,omitzero"`
}

// Machine is the simulated hardware: a tree of nodes, sockets, last-level
// caches, clusters, cores and SMT threads; CPUs = the product of the six.
type Machine struct {
	// The six counts; 0 (omitted) when the machine is given per CPU.
	Nodes           int    `json:"nodes,omitempty"`
	SocketsPerNode  int    `json:"sockets_per_node,omitempty"`
	LLCsPerSocket   int    `json:"llcs_per_socket,omitempty"`
	ClustersPerLLC  int    `json:"clusters_per_llc,omitempty"`
	CoresPerCluster int    `json:"cores_per_cluster,omitempty"`
	ThreadsPerCore  int    `json:"threads_per_core,omitempty"`
	HZ              int    `json:"hz"`
	Numbering       string `json:"numbering"` // "linear" | "x86"
	// LLCSize and L2Size label the caches in the picture ("30MB", "1.25MiB");
	// the simulator does not use them.
	LLCSize string `json:"llc_size,omitempty"`
	L2Size  string `json:"l2_size,omitempty"`
	// CPUs gives the machine per CPU, as lscpu does (version 2); the counts
	// are then omitted. NUMADistance is its node distance table, one row
	// per node in ascending node id, as /sys/devices/system/node/nodeN/distance
	// prints it ("10 21").
	CPUs         []CPU    `json:"cpus,omitempty"`
	NUMADistance []string `json:"numa_distance,omitempty"`
	Costs        Costs    `json:"costs,omitzero"`
}

// CPU is one online CPU of a machine given per CPU: the kernel's numbers
// (cpu, core, cluster, llc, socket, node ids as lscpu prints them).
type CPU struct {
	CPU     *int `json:"cpu"`
	Core    *int `json:"core"`
	Cluster *int `json:"cluster,omitempty"` // absent: the core has its own L2
	LLC     *int `json:"llc,omitempty"`     // absent: one LLC per socket and node
	Socket  int  `json:"socket"`
	Node    int  `json:"node"`
}

// Costs overrides parts of the simulator's cost model (sim.DefaultCosts).
// An empty string or nil pointer keeps the default; "0s" is an explicit zero.
type Costs struct {
	ContextSwitch string `json:"context_switch,omitempty"`
	WakeupIPI     string `json:"wakeup_ipi,omitempty"`
	// WakeupIPISend: the waker's CPU time for that IPI (sim.Costs).
	WakeupIPISend string `json:"wakeup_ipi_send,omitempty"`
	// WakeupPoll: the latency of a wake-up to a CPU idle in a polling
	// state, which needs no IPI (sim.Costs, IdleState.Polls).
	WakeupPoll string `json:"wakeup_poll,omitempty"`
	// IdleStates: nil keeps the default C-states; a non-nil empty list means
	// the CPUs have no idle states at all.
	IdleStates   []IdleState `json:"idle_states,omitzero"`
	CacheCold    CacheCold   `json:"cache_cold,omitzero"`
	Comm         Comm        `json:"comm,omitzero"`
	SearchCPU    string      `json:"search_cpu,omitempty"`
	SearchGroup  string      `json:"search_group,omitempty"`
	SearchDomain string      `json:"search_domain,omitempty"`
	BalanceCPU   string      `json:"balance_cpu,omitempty"`
	JitterPct    *int        `json:"jitter_pct,omitzero"`
	// TimerIRQSpread: the CPUs' timer interrupts for one instant come up to
	// this long after it, each CPU's drawn apart (sim.Costs); absent: 0.
	TimerIRQSpread string `json:"timer_irq_spread,omitempty"`
	// TimerWakeup: each wake-up a timer interrupt makes takes this long, so
	// its later ones come later (sim.Costs); absent: 0.
	TimerWakeup string `json:"timer_wakeup,omitempty"`
	// IdleReturn: the part of an idle CPU's exit that comes after its own
	// interrupt's handler (sim.Costs); absent: 0.
	IdleReturn string `json:"idle_return,omitempty"`
	// RemoteMemPct: a run step begun away from the node holding the task's
	// memory costs this percent more (sim/numa_cost.go); 0 turns it off.
	RemoteMemPct *int `json:"remote_mem_pct,omitzero"`
	// SMTGain: what a core whose threads all run delivers, 1024 = one
	// thread alone (sim/smt.go); 0 turns SMT sharing off.
	SMTGain *int `json:"smt_gain,omitzero"`
}

// IdleState is one C-state: entered after After of idle time, left in ExitLatency.
type IdleState struct {
	Name        string `json:"name"`
	After       string `json:"after"`
	ExitLatency string `json:"exit_latency"`
	// Package: entered only once every CPU of the package has idled After
	// (sim.IdleState.Package; the default table's C1E).
	Package bool `json:"package,omitempty"`
	// Polls: a CPU in this state watches its thread flags (POLL, MWAIT), so
	// a wake-up sends it no IPI (sim.IdleState.Polls; every state of the
	// default table).
	Polls bool `json:"polls,omitempty"`
	// Flushes: a core in this state has flushed its private caches (core
	// C3 and C6 on Nehalem/Westmere), so a task that next runs there
	// refills them (sim.IdleState.Flushes; the default table's C3, C6).
	Flushes bool `json:"flushes,omitempty"`
}

// CacheCold is the cache refill penalty of a migration, by distance.
type CacheCold struct {
	SMT     string `json:"smt,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	LLC     string `json:"llc,omitempty"`
	Package string `json:"package,omitempty"`
	NUMA    string `json:"numa,omitempty"`
}

// Comm is the cost of a woken task reading its waker's data, by distance.
type Comm struct {
	Same    string `json:"same,omitempty"`
	SMT     string `json:"smt,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	LLC     string `json:"llc,omitempty"`
	Package string `json:"package,omitempty"`
	NUMA    string `json:"numa,omitempty"`
}

// Policy selects the kernel behaviour. Base fills every default; the other
// fields override single switches. Empty strings and absent map entries mean
// "the base's own".
type Policy struct {
	Base              string                     `json:"base"` // "v2.6.8" | "v3.8" | "v6.17"
	LoadMetric        string                     `json:"load_metric,omitempty"`
	SelectIdleSibling string                     `json:"select_idle_sibling,omitempty"`
	NewTaskLoad       string                     `json:"new_task_load,omitempty"`
	SDFlags           map[string]map[string]bool `json:"sd_flags,omitzero"` // level -> flag -> on
	Tunables          map[string]Tunables        `json:"tunables,omitzero"` // level -> tunables
	MigrationCost     string                     `json:"migration_cost,omitempty"`
	BaseSlice         string                     `json:"base_slice,omitempty"`
	Features          map[string]bool            `json:"features,omitzero"`
	// v2.6.8 only.
	CPUScheduler         string `json:"cpu_scheduler,omitempty"`
	StaircaseMode        string `json:"staircase_mode,omitempty"`
	ExecBalanceThreshold *int   `json:"exec_balance_threshold,omitzero"`
}

// Tunables overrides one domain level's tunables; nil/"" keeps the base's.
type Tunables struct {
	ImbalancePct   *int   `json:"imbalance_pct,omitzero"`
	BusyFactor     *int   `json:"busy_factor,omitzero"`
	MinInterval    string `json:"min_interval,omitempty"`
	MaxInterval    string `json:"max_interval,omitempty"`
	CacheNiceTries *int   `json:"cache_nice_tries,omitzero"`
}

// Task is a group of Count identical tasks named Name/0 ... Name/Count-1.
type Task struct {
	Name    string `json:"name"`
	Count   int    `json:"count"`
	CountOf string `json:"count_of,omitempty"` // take the count of another group (a 1:1 partner)
	Nice    int    `json:"nice,omitempty"`
	CPUs    string `json:"cpus,omitempty"`
	Start   string `json:"start,omitempty"`
	Loop    int    `json:"loop,omitempty"`
	Program []Step `json:"program"`
}

// Step is one program instruction: exactly one of Run, Sleep, Timer, Wake
// (with Sync and Fanout), Wait, or (version 2) Exec, Fork (with Count),
// WaitChildren, Exit, Repeat (with Program) is set.
type Step struct {
	Run    string `json:"run,omitempty"`
	Sleep  string `json:"sleep,omitempty"`
	Timer  string `json:"timer,omitempty"`
	Wake   string `json:"wake,omitempty"`
	Sync   bool   `json:"sync,omitempty"`
	Fanout string `json:"fanout,omitempty"` // "index" | "all" | "one" | "waker"
	Wait   bool   `json:"wait,omitempty"`
	// Version 2.
	Exec         bool   `json:"exec,omitempty"`
	Fork         string `json:"fork,omitempty"`
	Count        int    `json:"count,omitempty"` // a fork: children (absent: 1)
	WaitChildren bool   `json:"wait_children,omitempty"`
	Exit         bool   `json:"exit,omitempty"`
	Repeat       int    `json:"repeat,omitempty"`
	Program      []Step `json:"program,omitempty"` // a repeat's body
	// Synchronisation steps (version 2), nil for every other step: a
	// pointer, so that the steps of long programs stay small.
	*SyncStep
}

// SyncStep holds a synchronisation step's fields: objects by name (their
// JSON keys are the step's own).
type SyncStep struct {
	Lock      string `json:"lock,omitempty"`
	Unlock    string `json:"unlock,omitempty"`
	CondWait  string `json:"cond_wait,omitempty"`
	Mutex     string `json:"mutex,omitempty"` // a cond_wait's mutex
	Signal    string `json:"signal,omitempty"`
	Broadcast string `json:"broadcast,omitempty"`
	Barrier   string `json:"barrier,omitempty"`
}

// syncPart returns the step's sync fields (all empty for other steps).
func (st *Step) syncPart() SyncStep {
	if st.SyncStep == nil {
		return SyncStep{}
	}
	return *st.SyncStep
}

// Defaults a decoded scenario gets for absent fields.
const (
	DefaultSeed            = 1
	DefaultCoresPerCluster = 2
	DefaultHZ              = 1000
	DefaultNumbering       = "linear"
	DefaultBase            = "v6.17"
	DefaultFanout          = "index"
)

// Clone returns a deep copy.
func (s *Scenario) Clone() *Scenario {
	c := *s
	c.Machine.Costs.IdleStates = cloneSlice(s.Machine.Costs.IdleStates)
	c.Machine.CPUs = cloneSlice(s.Machine.CPUs)
	for i := range c.Machine.CPUs {
		cp := &c.Machine.CPUs[i]
		cp.CPU, cp.Core, cp.Cluster, cp.LLC = cloneInt(cp.CPU), cloneInt(cp.Core), cloneInt(cp.Cluster), cloneInt(cp.LLC)
	}
	c.Machine.NUMADistance = cloneSlice(s.Machine.NUMADistance)
	c.Machine.Costs.JitterPct = cloneInt(s.Machine.Costs.JitterPct)
	c.Machine.Costs.RemoteMemPct = cloneInt(s.Machine.Costs.RemoteMemPct)
	c.Machine.Costs.SMTGain = cloneInt(s.Machine.Costs.SMTGain)
	if s.Policy.SDFlags != nil {
		c.Policy.SDFlags = make(map[string]map[string]bool, len(s.Policy.SDFlags))
		for l, fl := range s.Policy.SDFlags {
			c.Policy.SDFlags[l] = cloneMap(fl)
		}
	}
	if s.Policy.Tunables != nil {
		c.Policy.Tunables = make(map[string]Tunables, len(s.Policy.Tunables))
		for l, t := range s.Policy.Tunables {
			t.ImbalancePct = cloneInt(t.ImbalancePct)
			t.BusyFactor = cloneInt(t.BusyFactor)
			t.CacheNiceTries = cloneInt(t.CacheNiceTries)
			c.Policy.Tunables[l] = t
		}
	}
	c.Policy.Features = cloneMap(s.Policy.Features)
	c.View = s.View.clone()
	if s.Tasks != nil {
		c.Tasks = make([]Task, len(s.Tasks))
		for i, t := range s.Tasks {
			t.Program = cloneSteps(t.Program)
			c.Tasks[i] = t
		}
	}
	return &c
}

// cloneSteps copies a program with its repeat bodies.
func cloneSteps(steps []Step) []Step {
	c := cloneSlice(steps)
	for i := range c {
		if c[i].SyncStep != nil {
			v := *c[i].SyncStep
			c[i].SyncStep = &v
		}
		if c[i].Program != nil {
			c[i].Program = cloneSteps(c[i].Program)
		}
	}
	return c
}

// cloneSlice copies a slice, keeping nil nil and empty empty (the difference
// is meaningful for idle_states).
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	c := make([]T, len(s))
	copy(c, s)
	return c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// normalize fills the defaults that are spelled as empty strings in a
// hand-built Scenario (Decode never leaves them empty), so that Canonical
// writes one spelling for one meaning.
// countOf returns the index of the group whose count tasks[i] takes
// (count_of), or -1 when it has none or the reference is invalid.
func (s *Scenario) countOf(i int) int {
	name := s.Tasks[i].CountOf
	if name == "" {
		return -1
	}
	for j := range s.Tasks {
		if j != i && s.Tasks[j].Name == name && s.Tasks[j].CountOf == "" {
			return j
		}
	}
	return -1
}

func (s *Scenario) normalize() {
	s.Machine.normalizePerCPU()
	if s.Machine.Numbering == "" {
		s.Machine.Numbering = DefaultNumbering
	}
	if s.Policy.Base == "" {
		s.Policy.Base = DefaultBase
	}
	if s.Tasks == nil {
		s.Tasks = []Task{}
	}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if j := s.countOf(i); j >= 0 {
			t.Count = s.Tasks[j].Count
		}
		if t.Program == nil {
			t.Program = []Step{}
		}
		normalizeSteps(t.Program)
	}
}

// normalizeSteps fills the lazy defaults of a program's steps: a wake's
// fanout, a fork's count; and repeat bodies' steps likewise.
func normalizeSteps(steps []Step) {
	for j := range steps {
		st := &steps[j]
		if st.Wake != "" && st.Fanout == "" {
			st.Fanout = DefaultFanout
		}
		if st.Fork != "" && st.Count == 0 {
			st.Count = 1
		}
		normalizeSteps(st.Program)
	}
}
