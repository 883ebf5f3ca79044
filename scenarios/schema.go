package scenarios

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"schedplay/sim"
)

// The schema: one table of every field of the scenario format. Decode walks
// it to read a file, Set and Get address fields through it, Decode fills
// its defaults, resolve takes its enum names and limits from the same
// tables, `schedsim fields` prints it, FORMAT.md's field reference is
// generated from it (TestFormatFieldReference), and the page's editor builds
// its controls from it (Schema, through describe()). A new field is a new
// row.
//
// A path pattern is the dotted path Set takes, with placeholders where a
// file names or numbers things: "[i]" is an index into a list ("tasks[i]",
// "program[j]"), "<level>", "<flag>" and "<feature>" are names of map keys
// (Placeholders lists the names each takes).

// Kind is the type of a field's value, as a file writes it and as Set takes
// it on a command line.
type Kind string

// The kinds. Containers (object, map, list) take JSON in Set; the others
// take their text ("5s", "true", "40", "cpu_buddies").
const (
	KindInt      Kind = "int"      // a JSON integer in [Min, Max]; Enum, when given, lists the only values
	KindUint     Kind = "uint"     // a non-negative JSON integer ≤ Max (the seed)
	KindBool     Kind = "bool"     // true or false
	KindString   Kind = "string"   // free text of at most Max characters
	KindDuration Kind = "duration" // a time.ParseDuration string in [Min, Max] nanoseconds
	KindEnum     Kind = "enum"     // one of Enum
	KindName     Kind = "name"     // a task group's name, or a reference to one
	KindCPUList  Kind = "cpulist"  // a cpulist ("0-3,8") of CPUs the machine has
	KindSize     Kind = "size"     // a cache size label ("30MB")
	KindObject   Kind = "object"   // fixed keys: the rows below it
	KindMap      Kind = "map"      // keys are names (a placeholder): the rows below it
	KindList     Kind = "list"     // at most Max elements: the row below it ("[i]")
	KindNumber   Kind = "number"   // a JSON number in [MinF, MaxF] (the view's speed)
)

// Field is one row of the schema.
type Field struct {
	Path    string   `json:"path"`              // pattern, e.g. "policy.sd_flags.<level>.<flag>"
	Kind    Kind     `json:"kind"`              // see Kind
	Default string   `json:"default,omitempty"` // the value Decode fills when the field is absent ("" = none)
	Absent  string   `json:"absent,omitempty"`  // what an absent field means, when it has no Default
	Min     int64    `json:"min,omitempty"`     // int: lowest value; duration: shortest, in ns
	Max     int64    `json:"max,omitempty"`     // int/uint: highest; duration: longest (ns); string: characters; list: elements
	MinF    float64  `json:"min_f,omitempty"`   // number: lowest value
	MaxF    float64  `json:"max_f,omitempty"`   // number: highest value
	Enum    []string `json:"enum,omitempty"`    // the values an enum (or an int with a fixed set) takes
	Unit    string   `json:"unit,omitempty"`    // what the number counts ("ms" of a whole-millisecond duration, "%", "CPUs")
	Since   int      `json:"since"`             // the format version the field appeared in
	Doc     string   `json:"doc"`               // one line
	Example string   `json:"example,omitempty"` // a valid value for Set (in tbench-pairs), used by docs and the schema test
	OneOf   string   `json:"one_of,omitempty"`  // "step": the object has exactly one of the fields that say so (a step's kind)
	With    string   `json:"with,omitempty"`    // the step kind this field goes with (a wake's sync and fanout, a fork's count, a repeat's program)
	// EnumDocs explain Enum's values, one line each, in the same order.
	EnumDocs []string `json:"enum_docs,omitempty"`
	// Group is the editor section the field belongs to: about, topology,
	// hardware, cost-model, refill-by-distance, waker-data-by-distance,
	// c-states, task-group, program-step, kernel-policy, domain-flags,
	// balancer-tunables, feature-switches, page-view.
	Group string `json:"group,omitempty"`
	// RangeText is Range() in words, filled by Schema for the page.
	RangeText string `json:"range,omitempty"`
	// Bases lists the policy.base values the field exists on (empty: all);
	// setting it on another base is an error at its path.
	Bases []string `json:"bases,omitempty"`

	required string // Decode: the message when the field is absent (only version)
	lazy     bool   // Default applies only where the field is meaningful (a wake's fanout): normalize fills it
	appends  bool   // list: index len(list) in Set appends an element
	what     string // list: what its elements are called in messages ("task groups")
	rangeMsg string // list: Set's message for an index out of range (%[1]d the index, %[2]d the length)
	notEmpty string // Decode: the message for an empty string ("" is not a duration)
	trueOnly string // Decode: the message for false (a wait step)

	at     func(s *Scenario, k keys) slot            // leaf: the value
	onSet  func(s *Scenario, k keys, v string) error // leaf: called by Set before the value is written (a step's kind, a count taken from another group)
	val    func(s *Scenario, k keys) any             // container: the value, for Get
	enter  func(s *Scenario, k keys)                 // container: make it for Decode (an empty map or list, a map entry)
	reset  func(s *Scenario, k keys)                 // container: Set's "": remove it, or empty it (its defaults are filled again)
	length func(s *Scenario, k keys) int             // list: its length
	elem   func(s *Scenario, k keys, i int)          // list: append element i (Decode, and Set at index len for appends)
	own    func(s *Scenario, k keys)                 // list: Set at an index of the list while it is absent first writes out the defaults it stands for
	keyset func() []string                           // map key placeholder: the names it takes
}

// keys are the values of a path's placeholders, in order: names for
// <level>, <flag>, <feature>; indices for [i].
type keys struct {
	names [2]string
	nn    int
	idx   [2 + MaxRepeatDepth]int // a task, a step, then the steps of nested repeat bodies
	ni    int
}

func (k keys) name(i int) string { return k.names[i] }
func (k keys) index(i int) int   { return k.idx[i] }

func (k keys) withName(n string) keys {
	if k.nn < len(k.names) {
		k.names[k.nn] = n
		k.nn++
	}
	return k
}

func (k keys) withIndex(i int) keys {
	if k.ni < len(k.idx) {
		k.idx[k.ni] = i
		k.ni++
	}
	return k
}

// slot is a leaf's value in one scenario.
type slot interface {
	// get returns the value as Set takes it, and whether the field is
	// present (false: absent, meaning its default or the base's own).
	get() (string, bool)
	// set parses v; "" restores the default (def) or removes the field.
	set(st setter, v, def string) error
	decode(d *decoder, raw json.RawMessage, path string)
}

type strSlot struct{ p *string }

func (s strSlot) get() (string, bool) { return *s.p, *s.p != "" }
func (s strSlot) set(_ setter, v, def string) error {
	if v == "" {
		v = def
	}
	*s.p = v
	return nil
}
func (s strSlot) decode(d *decoder, raw json.RawMessage, path string) { d.str(raw, path, s.p) }

type intSlot struct{ p *int }

func (s intSlot) get() (string, bool) { return strconv.Itoa(*s.p), true }
func (s intSlot) set(st setter, v, def string) error {
	if v == "" {
		v = def
	}
	if v == "" {
		v = "0"
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return st.err(quote(v) + " is not an integer")
	}
	*s.p = n
	return nil
}
func (s intSlot) decode(d *decoder, raw json.RawMessage, path string) { d.integer(raw, path, s.p) }

// lazyIntSlot is an integer that only some steps have: 0 is absent.
type lazyIntSlot struct{ intSlot }

func (s lazyIntSlot) get() (string, bool) {
	if *s.p == 0 {
		return "", false
	}
	return s.intSlot.get()
}

// optIntSlot is an optional integer: nil is absent.
type optIntSlot struct{ p **int }

func (s optIntSlot) get() (string, bool) {
	if *s.p == nil {
		return "", false
	}
	return strconv.Itoa(**s.p), true
}
func (s optIntSlot) set(st setter, v, _ string) error {
	if v == "" {
		*s.p = nil
		return nil
	}
	var n int
	if err := (intSlot{&n}).set(st, v, ""); err != nil {
		return err
	}
	*s.p = &n
	return nil
}
func (s optIntSlot) decode(d *decoder, raw json.RawMessage, path string) { d.intPtr(raw, path, s.p) }

type uintSlot struct{ p *uint64 }

func (s uintSlot) get() (string, bool) { return strconv.FormatUint(*s.p, 10), true }
func (s uintSlot) set(st setter, v, def string) error {
	if v == "" {
		v = def
	}
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return st.err(quote(v) + " is not a non-negative integer")
	}
	*s.p = n
	return nil
}
func (s uintSlot) decode(d *decoder, raw json.RawMessage, path string) { d.uinteger(raw, path, s.p) }

type boolSlot struct{ p *bool }

func (s boolSlot) get() (string, bool) { return strconv.FormatBool(*s.p), *s.p }
func (s boolSlot) set(st setter, v, _ string) error {
	if v == "" {
		*s.p = false
		return nil
	}
	b, err := st.boolean(v)
	if err != nil {
		return err
	}
	*s.p = b
	return nil
}
func (s boolSlot) decode(d *decoder, raw json.RawMessage, path string) { d.boolean(raw, path, s.p) }

// switchSlot is a bool kept in a map (an sd_flags flag, a feature): absent
// keys mean "the base's own"; "" in Set removes the key.
type switchSlot struct {
	read func() (on, ok bool)
	put  func(on bool)
	del  func()
}

func (s switchSlot) get() (string, bool) {
	on, ok := s.read()
	if !ok {
		return "", false
	}
	return strconv.FormatBool(on), true
}
func (s switchSlot) set(st setter, v, _ string) error {
	if v == "" {
		s.del()
		return nil
	}
	on, err := st.boolean(v)
	if err != nil {
		return err
	}
	s.put(on)
	return nil
}
func (s switchSlot) decode(d *decoder, raw json.RawMessage, path string) {
	var on bool
	d.boolean(raw, path, &on)
	s.put(on)
}

// copySlot edits a copy of a value kept in a map (a level's tunables) and
// writes it back; Set removes the entry when it became empty.
type copySlot struct {
	slot
	commit func(prune bool)
}

func (c copySlot) set(st setter, v, def string) error {
	if err := c.slot.set(st, v, def); err != nil {
		return err
	}
	c.commit(true)
	return nil
}

func (c copySlot) decode(d *decoder, raw json.RawMessage, path string) {
	c.slot.decode(d, raw, path)
	c.commit(false)
}

// Accessors for rows.

func task(s *Scenario, k keys) *Task { return &s.Tasks[k.index(0)] }

// step is the step the path's indices name: tasks[i].program[j], then
// .program[k] ... inside repeat blocks.
func step(s *Scenario, k keys) *Step {
	st := &task(s, k).Program[k.index(1)]
	for i := 2; i < k.ni; i++ {
		st = &st.Program[k.index(i)]
	}
	return st
}
func idle(s *Scenario, k keys) *IdleState {
	return &s.Machine.Costs.IdleStates[k.index(0)]
}

func strAt(f func(s *Scenario, k keys) *string) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot { return strSlot{f(s, k)} }
}

func intAt(f func(s *Scenario, k keys) *int) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot { return intSlot{f(s, k)} }
}

func optIntAt(f func(s *Scenario, k keys) **int) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot { return optIntSlot{f(s, k)} }
}

func boolAt(f func(s *Scenario, k keys) *bool) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot { return boolSlot{f(s, k)} }
}

// tunable is a field of policy.tunables.<level>.
func tunable(f func(t *Tunables) slot) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot {
		level := k.name(0)
		t := s.Policy.Tunables[level]
		return copySlot{f(&t), func(prune bool) {
			if s.Policy.Tunables == nil {
				s.Policy.Tunables = map[string]Tunables{}
			}
			if prune && t == (Tunables{}) {
				delete(s.Policy.Tunables, level)
				if len(s.Policy.Tunables) == 0 {
					s.Policy.Tunables = nil
				}
				return
			}
			s.Policy.Tunables[level] = t
		}}
	}
}

// resetStep empties a step before its kind is set: a step has one kind.
// Setting a kind the step does not have to nothing ("", false) changes
// nothing.
func resetStep(s *Scenario, k keys, v string) error {
	if on, err := strconv.ParseBool(v); v == "" || (err == nil && !on) {
		return nil
	}
	*step(s, k) = Step{}
	return nil
}

func names[T any](table []named[T]) []string {
	out := make([]string, len(table))
	for i, e := range table {
		out[i] = e.name
	}
	return out
}

// Placeholders lists the names each placeholder of a path pattern takes.
func Placeholders() map[string][]string {
	return map[string][]string{
		"<level>":   levelNames(),
		"<flag>":    sim.SDFlagNames(),
		"<feature>": featureNames(),
	}
}

// levelNames are the sched-domain levels bottom-up, then DIE (the pre-6.7
// name of PKG).
func levelNames() []string {
	out := make([]string, 0, sim.NumLevels+1)
	for l := sim.Level(0); l < sim.NumLevels; l++ {
		out = append(out, l.String())
	}
	return append(out, "DIE")
}

func featureNames() []string {
	out := make([]string, sim.NumFeatures)
	for i := range out {
		out[i] = sim.Feature(i).String()
	}
	return out
}

func hzNames() []string {
	out := make([]string, len(hzValues))
	for i, v := range hzValues {
		out[i] = strconv.Itoa(v)
	}
	return out
}

const (
	ms  = int64(time.Millisecond)
	sec = int64(time.Second)
)

func dimension(key, doc, def string, dst func(m *Machine) *int) Field {
	return Field{Path: "machine." + key, Kind: KindInt, Default: def, Min: 1, Max: MaxCPUs, Doc: doc, Example: def,
		at: intAt(func(s *Scenario, _ keys) *int { return dst(&s.Machine) })}
}

func cost(path, doc string, dst func(c *Costs) *string) Field {
	return Field{Path: "machine.costs." + path, Kind: KindDuration, Max: int64(MaxCost), Absent: "the simulator's default",
		Doc: doc, Example: "3us", at: strAt(func(s *Scenario, _ keys) *string { return dst(&s.Machine.Costs) })}
}

func stepDur(key string, min time.Duration, doc, example string, dst func(st *Step) *string) Field {
	return Field{Path: "tasks[i].program[j]." + key, Kind: KindDuration, Min: int64(min), Max: int64(MaxDuration),
		Doc: doc, Example: example, notEmpty: `"" is not a duration`, onSet: resetStep, OneOf: "step",
		at: strAt(func(s *Scenario, k keys) *string { return dst(step(s, k)) })}
}

// fieldRows builds the table. Its order is the order of the docs, of
// `schedsim fields` and of the editor.
func fieldRows() []Field {
	rows := []Field{
		{Path: "version", Kind: KindInt, Default: "1", Min: Version, Max: MaxVersion, Doc: "the format version of the file (2: structured program steps, and SD_BALANCE_WAKE with its stock meaning; in 1, SD_BALANCE_WAKE at or below the LLC on v3.8 also means BALANCE_WAKE_MERGE)", Example: "2", required: "missing; this reader understands versions 1 and 2",
			at: intAt(func(s *Scenario, _ keys) *int { return &s.Version })},
		{Path: "title", Kind: KindString, Max: MaxTitle, Doc: "one line, no control characters", Example: "a title",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Title })},
		{Path: "description", Kind: KindString, Max: MaxDescription, Doc: "free text; newlines allowed", Example: "a description",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Description })},
		{Path: "seed", Kind: KindUint, Default: "1", Max: MaxSeed, Doc: "the PRNG seed: same scenario and seed, same run (at most 2^53-1, so JavaScript holds it)", Example: "7",
			at: func(s *Scenario, _ keys) slot { return uintSlot{&s.Seed} }},
		{Path: "duration", Kind: KindDuration, Min: 1, Max: int64(MaxDuration), Doc: "simulated time of a run (required)", Example: "2s",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Duration })},

		{Path: "machine", Kind: KindObject, Doc: "the simulated hardware: CPUs = the product of the six counts, at most 256",
			val: func(s *Scenario, _ keys) any { return s.Machine }, reset: func(s *Scenario, _ keys) { s.Machine = Machine{} }},
		dimension("nodes", "NUMA nodes", "1", func(m *Machine) *int { return &m.Nodes }),
		dimension("sockets_per_node", "sockets per NUMA node", "1", func(m *Machine) *int { return &m.SocketsPerNode }),
		dimension("llcs_per_socket", "last-level caches per socket", "1", func(m *Machine) *int { return &m.LLCsPerSocket }),
		dimension("clusters_per_llc", "L2 clusters per LLC (1: no CLS level)", "1", func(m *Machine) *int { return &m.ClustersPerLLC }),
		dimension("cores_per_cluster", "cores per cluster", strconv.Itoa(DefaultCoresPerCluster), func(m *Machine) *int { return &m.CoresPerCluster }),
		dimension("threads_per_core", "SMT threads per core (1: no SMT level)", "1", func(m *Machine) *int { return &m.ThreadsPerCore }),
		{Path: "machine.hz", Kind: KindInt, Default: strconv.Itoa(DefaultHZ), Enum: hzNames(), Doc: "the scheduler tick rate", Unit: "Hz", Example: "250",
			at: intAt(func(s *Scenario, _ keys) *int { return &s.Machine.HZ })},
		{Path: "machine.numbering", Kind: KindEnum, Default: DefaultNumbering, Enum: names(numberings), Example: "x86",
			Doc: "CPU ids: linear (a core's threads adjacent) or x86 (thread 0 of every core first)",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.Machine.Numbering })},
		{Path: "machine.llc_size", Kind: KindSize, Absent: "no label", Doc: "label of a last-level cache in the picture (the simulator does not use it)", Example: "30MB",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Machine.LLCSize })},
		{Path: "machine.l2_size", Kind: KindSize, Absent: "no label", Doc: "label of an L2 cluster in the picture (the simulator does not use it)", Example: "1.25MiB",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Machine.L2Size })},
	}
	rows = append(rows, machinePerCPURows()...)
	rows = append(rows, []Field{

		{Path: "machine.costs", Kind: KindObject, Absent: "the simulator's defaults", Doc: "overrides of the cost model (sim.DefaultCosts); \"0s\" is an explicit zero",
			val: func(s *Scenario, _ keys) any { return s.Machine.Costs }, reset: func(s *Scenario, _ keys) { s.Machine.Costs = Costs{} }},
		cost("context_switch", "CPU time of one context switch", func(c *Costs) *string { return &c.ContextSwitch }),
		cost("wakeup_ipi", "latency of a wake-up sent to another CPU (IPI and remote enqueue)", func(c *Costs) *string { return &c.WakeupIPI }),
		cost("wakeup_ipi_send", "CPU time the waker spends sending that IPI (an exit to the hypervisor in a VM; default 0)", func(c *Costs) *string { return &c.WakeupIPISend }),
		cost("wakeup_poll", "latency of a wake-up to a CPU idle in a polling state (`polls`), which needs no IPI", func(c *Costs) *string { return &c.WakeupPoll }),
		cost("timer_irq_spread", "how far apart the CPUs' timer interrupts for one instant come: each CPU's is drawn from 0 to this after it (default 0: all at the instant)", func(c *Costs) *string { return &c.TimerIRQSpread }),
		cost("timer_wakeup", "CPU time of each wake-up a timer interrupt makes: its later wake-ups for one instant come this much later each (default 0: all at once)", func(c *Costs) *string { return &c.TimerWakeup }),
		cost("idle_return", "the part of an idle CPU's exit after its own interrupt's handler: a timer's wake-up there comes this much before the exit ends (default 0: at its end)", func(c *Costs) *string { return &c.IdleReturn }),
		{Path: "machine.costs.idle_states", Kind: KindList, Max: MaxIdleStates, what: "idle states", rangeMsg: "index %[1]d is out of range (there are %[2]d idle states)", Absent: "the default C-states",
			Doc: "C-states, shallowest first; [] means none", Example: `[{"name":"C1","after":"0s","exit_latency":"2us"}]`,
			val:    func(s *Scenario, _ keys) any { return s.Machine.Costs.IdleStates },
			enter:  func(s *Scenario, _ keys) { s.Machine.Costs.IdleStates = []IdleState{} },
			reset:  func(s *Scenario, _ keys) { s.Machine.Costs.IdleStates = nil },
			length: func(s *Scenario, _ keys) int { return len(s.Machine.Costs.IdleStates) },
			own:    func(s *Scenario, _ keys) { s.ownIdleStates() },
			elem: func(s *Scenario, _ keys, i int) {
				s.Machine.Costs.IdleStates = append(s.Machine.Costs.IdleStates, IdleState{})
			}},
		{Path: "machine.costs.idle_states[i]", Kind: KindObject, Doc: "one C-state",
			val:   func(s *Scenario, k keys) any { return *idle(s, k) },
			reset: func(s *Scenario, k keys) { *idle(s, k) = IdleState{} }},
		{Path: "machine.costs.idle_states[i].name", Kind: KindString, Max: 16, Doc: "the C-state's name (required)", Example: "C6",
			at: strAt(func(s *Scenario, k keys) *string { return &idle(s, k).Name })},
		{Path: "machine.costs.idle_states[i].after", Kind: KindDuration, Max: int64(MaxCost), Doc: "idle time after which a CPU is in this state; increases strictly", Example: "0s",
			at: strAt(func(s *Scenario, k keys) *string { return &idle(s, k).After })},
		{Path: "machine.costs.idle_states[i].exit_latency", Kind: KindDuration, Max: int64(MaxCost), Doc: "time to leave this state", Example: "80us",
			at: strAt(func(s *Scenario, k keys) *string { return &idle(s, k).ExitLatency })},
		{Path: "machine.costs.idle_states[i].package", Kind: KindBool, Absent: "false", Doc: "a package-wide state, entered only once every CPU of the package has idled `after` (Nehalem/Westmere C1E); until then the CPU stays in the state before it", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &idle(s, k).Package })},
		{Path: "machine.costs.idle_states[i].polls", Kind: KindBool, Absent: "false", Doc: "a CPU in this state watches its thread flags (POLL, MWAIT), so a wake-up sends it no IPI and costs `wakeup_poll` instead of `wakeup_ipi`; a HLT state does not poll", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &idle(s, k).Polls })},
		{Path: "machine.costs.idle_states[i].flushes", Kind: KindBool, Absent: "false", Doc: "a core in this state has flushed its private caches (Nehalem/Westmere core C3 and C6: L1 and L2 written back to the L3), so a task that next runs on it refills them at `cache_cold`'s price from its L2 cluster, else the LLC, even if it never moved", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &idle(s, k).Flushes })},
		{Path: "machine.costs.cache_cold", Kind: KindObject, Absent: "the simulator's defaults", Doc: "CPU time a task loses refilling its caches after a migration, by distance (cluster or llc: also after a C-state that flushes the core)",
			val: func(s *Scenario, _ keys) any { return s.Machine.Costs.CacheCold }, reset: func(s *Scenario, _ keys) { s.Machine.Costs.CacheCold = CacheCold{} }},
		cost("cache_cold.smt", "after a move to the SMT sibling", func(c *Costs) *string { return &c.CacheCold.SMT }),
		cost("cache_cold.cluster", "after a move within the L2 cluster", func(c *Costs) *string { return &c.CacheCold.Cluster }),
		cost("cache_cold.llc", "after a move within the LLC", func(c *Costs) *string { return &c.CacheCold.LLC }),
		cost("cache_cold.package", "after a move within the package", func(c *Costs) *string { return &c.CacheCold.Package }),
		cost("cache_cold.numa", "after a move to another NUMA node", func(c *Costs) *string { return &c.CacheCold.NUMA }),
		{Path: "machine.costs.comm", Kind: KindObject, Absent: "the simulator's defaults", Doc: "CPU time a woken task spends fetching its waker's data, by distance",
			val: func(s *Scenario, _ keys) any { return s.Machine.Costs.Comm }, reset: func(s *Scenario, _ keys) { s.Machine.Costs.Comm = Comm{} }},
		cost("comm.same", "waker and wakee on the same CPU", func(c *Costs) *string { return &c.Comm.Same }),
		cost("comm.smt", "on SMT siblings", func(c *Costs) *string { return &c.Comm.SMT }),
		cost("comm.cluster", "within an L2 cluster", func(c *Costs) *string { return &c.Comm.Cluster }),
		cost("comm.llc", "within an LLC", func(c *Costs) *string { return &c.Comm.LLC }),
		cost("comm.package", "within a package", func(c *Costs) *string { return &c.Comm.Package }),
		cost("comm.numa", "across NUMA nodes", func(c *Costs) *string { return &c.Comm.NUMA }),
		cost("search_cpu", "per CPU the scheduler examines while placing a task", func(c *Costs) *string { return &c.SearchCPU }),
		cost("search_group", "per sched group examined", func(c *Costs) *string { return &c.SearchGroup }),
		cost("search_domain", "per sched domain visited", func(c *Costs) *string { return &c.SearchDomain }),
		cost("balance_cpu", "per CPU whose statistics the load balancer reads", func(c *Costs) *string { return &c.BalanceCPU }),
		{Path: "machine.costs.jitter_pct", Kind: KindInt, Min: 0, Max: 50, Unit: "%", Absent: "the simulator's default",
			Doc: "every run is stretched or shrunk by up to this percent (seeded)", Example: "5",
			at: optIntAt(func(s *Scenario, _ keys) **int { return &s.Machine.Costs.JitterPct })},
		{Path: "machine.costs.remote_mem_pct", Kind: KindInt, Min: 0, Max: 1000, Unit: "%", Absent: "the simulator's default",
			Doc:     "a run step begun on a node other than the one holding the task's memory costs this much more, at node distance 20 (scaled by distance − 10); 0 turns remote memory off",
			Example: "45",
			at:      optIntAt(func(s *Scenario, _ keys) **int { return &s.Machine.Costs.RemoteMemPct })},
		{Path: "machine.costs.smt_gain", Kind: KindInt, Min: 0, Max: 8192, Absent: "the simulator's default (0: off)",
			Doc:     "SMT sharing: what a core whose threads all run tasks delivers, in 1024ths of one thread alone (the kernel's smt_gain unit); each of k busy threads runs at smt_gain/(1024·k) of its solo speed, at most 1; 0 turns it off",
			Example: "1178",
			at:      optIntAt(func(s *Scenario, _ keys) **int { return &s.Machine.Costs.SMTGain })},

		{Path: "policy", Kind: KindObject, Doc: "the kernel behaviour: a base fills every default, the other fields override single switches",
			val: func(s *Scenario, _ keys) any { return s.Policy }, reset: func(s *Scenario, _ keys) { s.Policy = Policy{} }},
		{Path: "policy.base", Kind: KindEnum, Default: DefaultBase, Enum: names(bases), Example: "v3.8",
			Doc: "the kernel era whose defaults fill the policy: O(1)/staircase, CFS or EEVDF, metrics, flags, tunables",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.Policy.Base })},
		{Path: "policy.load_metric", Bases: []string{"v3.8", "v6.17"}, Kind: KindEnum, Enum: names(loadNames), Absent: "the base's", Example: "runnable_load_avg",
			Doc: "what the balancer and wake_affine read as a CPU's load",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.Policy.LoadMetric })},
		{Path: "policy.select_idle_sibling", Bases: []string{"v3.8", "v6.17"}, Kind: KindEnum, Enum: names(sisNames), Absent: "the base's", Example: "cpu_buddies",
			Doc: "the select_idle_sibling() variant",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.Policy.SelectIdleSibling })},
		{Path: "policy.new_task_load", Bases: []string{"v3.8", "v6.17"}, Kind: KindEnum, Enum: names(newTaskLoads), Absent: "the base's", Example: "full",
			Doc: "the load history a forked task starts with",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.Policy.NewTaskLoad })},
		{Path: "policy.sd_flags", Kind: KindMap, Absent: "the base's flags", Doc: "sets or clears single sched-domain flags, per level",
			val:   func(s *Scenario, _ keys) any { return s.Policy.SDFlags },
			enter: func(s *Scenario, _ keys) { s.Policy.SDFlags = map[string]map[string]bool{} },
			reset: func(s *Scenario, _ keys) { s.Policy.SDFlags = nil }},
		{Path: "policy.sd_flags.<level>", Kind: KindMap, keyset: levelNames, Doc: "the flags of one domain level",
			val: func(s *Scenario, k keys) any { return s.Policy.SDFlags[k.name(0)] },
			enter: func(s *Scenario, k keys) {
				if s.Policy.SDFlags == nil {
					s.Policy.SDFlags = map[string]map[string]bool{}
				}
				s.Policy.SDFlags[k.name(0)] = map[string]bool{}
			},
			reset: func(s *Scenario, k keys) {
				delete(s.Policy.SDFlags, k.name(0))
				if len(s.Policy.SDFlags) == 0 {
					s.Policy.SDFlags = nil
				}
			}},
		{Path: "policy.sd_flags.<level>.<flag>", Kind: KindBool, Absent: "the base's", keyset: sim.SDFlagNames,
			Doc: "one flag on (true) or off (false) at one level", Example: "true",
			at: func(s *Scenario, k keys) slot {
				level, flag := k.name(0), k.name(1)
				return switchSlot{
					read: func() (bool, bool) { on, ok := s.Policy.SDFlags[level][flag]; return on, ok },
					put: func(on bool) {
						if s.Policy.SDFlags == nil {
							s.Policy.SDFlags = map[string]map[string]bool{}
						}
						if s.Policy.SDFlags[level] == nil {
							s.Policy.SDFlags[level] = map[string]bool{}
						}
						s.Policy.SDFlags[level][flag] = on
					},
					del: func() {
						delete(s.Policy.SDFlags[level], flag)
						if len(s.Policy.SDFlags[level]) == 0 {
							delete(s.Policy.SDFlags, level)
						}
						if len(s.Policy.SDFlags) == 0 {
							s.Policy.SDFlags = nil
						}
					},
				}
			}},
		{Path: "policy.tunables", Kind: KindMap, Absent: "the base's tunables", Doc: "per-level balancing tunables",
			val:   func(s *Scenario, _ keys) any { return s.Policy.Tunables },
			enter: func(s *Scenario, _ keys) { s.Policy.Tunables = map[string]Tunables{} },
			reset: func(s *Scenario, _ keys) { s.Policy.Tunables = nil }},
		{Path: "policy.tunables.<level>", Kind: KindObject, keyset: levelNames, Doc: "the tunables of one domain level",
			val: func(s *Scenario, k keys) any { return s.Policy.Tunables[k.name(0)] },
			enter: func(s *Scenario, k keys) {
				if s.Policy.Tunables == nil {
					s.Policy.Tunables = map[string]Tunables{}
				}
				s.Policy.Tunables[k.name(0)] = Tunables{}
			},
			reset: func(s *Scenario, k keys) {
				delete(s.Policy.Tunables, k.name(0))
				if len(s.Policy.Tunables) == 0 {
					s.Policy.Tunables = nil
				}
			}},
		{Path: "policy.tunables.<level>.imbalance_pct", Kind: KindInt, Min: minImbalancePct, Max: maxImbalancePct, Unit: "%", Absent: "the base's",
			Doc: "how much busier the busiest group must be before the balancer acts", Example: "125",
			at: tunable(func(t *Tunables) slot { return optIntSlot{&t.ImbalancePct} })},
		{Path: "policy.tunables.<level>.busy_factor", Kind: KindInt, Min: minBusyFactor, Max: maxBusyFactor, Absent: "the base's",
			Doc: "balance interval multiplier while the CPU is busy", Example: "32",
			at: tunable(func(t *Tunables) slot { return optIntSlot{&t.BusyFactor} })},
		{Path: "policy.tunables.<level>.min_interval", Kind: KindDuration, Min: ms, Max: int64(maxInterval), Unit: "ms", Absent: "the base's",
			Doc: "shortest balance interval, whole milliseconds", Example: "4ms",
			at: tunable(func(t *Tunables) slot { return strSlot{&t.MinInterval} })},
		{Path: "policy.tunables.<level>.max_interval", Kind: KindDuration, Min: ms, Max: int64(maxInterval), Unit: "ms", Absent: "the base's",
			Doc: "longest balance interval, whole milliseconds, not shorter than min_interval", Example: "64ms",
			at: tunable(func(t *Tunables) slot { return strSlot{&t.MaxInterval} })},
		{Path: "policy.tunables.<level>.cache_nice_tries", Kind: KindInt, Min: 0, Max: maxCacheNiceTries, Absent: "the base's",
			Doc: "failed balance attempts before cache-hot tasks may move (0 is a real value)", Example: "0",
			at: tunable(func(t *Tunables) slot { return optIntSlot{&t.CacheNiceTries} })},
		{Path: "policy.migration_cost", Bases: []string{"v3.8", "v6.17"}, Kind: KindDuration, Max: int64(MaxDuration), Absent: "500us",
			Doc: "sysctl_sched_migration_cost: how long a task stays cache-hot (0s: never)", Example: "250us",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Policy.MigrationCost })},
		{Path: "policy.base_slice", Bases: []string{"v3.8", "v6.17"}, Kind: KindDuration, Min: int64(minBaseSlice), Max: int64(maxBaseSlice), Absent: "the base's",
			Doc: "EEVDF base slice", Example: "3ms",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Policy.BaseSlice })},
		{Path: "policy.features", Kind: KindMap, Absent: "the base's features", Doc: "turns single scheduler features on or off",
			val:   func(s *Scenario, _ keys) any { return s.Policy.Features },
			enter: func(s *Scenario, _ keys) { s.Policy.Features = map[string]bool{} },
			reset: func(s *Scenario, _ keys) { s.Policy.Features = nil }},
		{Path: "policy.features.<feature>", Kind: KindBool, Absent: "the base's", keyset: featureNames,
			Doc: "one feature on (true) or off (false)", Example: "false",
			at: func(s *Scenario, k keys) slot {
				name := k.name(0)
				return switchSlot{
					read: func() (bool, bool) { on, ok := s.Policy.Features[name]; return on, ok },
					put: func(on bool) {
						if s.Policy.Features == nil {
							s.Policy.Features = map[string]bool{}
						}
						s.Policy.Features[name] = on
					},
					del: func() {
						delete(s.Policy.Features, name)
						if len(s.Policy.Features) == 0 {
							s.Policy.Features = nil
						}
					},
				}
			}},

		{Path: "policy.cpu_scheduler", Bases: []string{"v2.6.8"}, Kind: KindEnum, Enum: names(cpuScheds), Absent: "o1",
			Doc: "2.6.8's runqueue: the O(1) scheduler or Con Kolivas' staircase (2.6.8-rc2-mm1 patch)", Example: "staircase",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Policy.CPUScheduler })},
		{Path: "policy.staircase_mode", Bases: []string{"v2.6.8"}, Kind: KindEnum, Enum: names(stairModes), Absent: "interactive",
			Doc: "the staircase sysctls: interactive (bursts), noninteractive, or compute (10x intervals, delayed preemption)", Example: "compute",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Policy.StaircaseMode })},
		{Path: "policy.exec_balance_threshold", Bases: []string{"v2.6.8"}, Kind: KindInt, Min: 0, Max: 64, Absent: "1 (2.6.8-rc2)",
			Doc: "sched_balance_exec() stays put while the runqueue has at most this many tasks (2: the NUMA scheduler of 2.6.0-2.6.6, which Andrew Theurer recalls; 2.6.7 already had 1)", Example: "2",
			at: optIntAt(func(s *Scenario, _ keys) **int { return &s.Policy.ExecBalanceThreshold })},

		{Path: "tasks", Kind: KindList, Max: MaxTaskGroups, what: "task groups", rangeMsg: "no task at index %[1]d (there are %[2]d tasks)", Doc: "groups of identical tasks (required; at most 4096 instances in all)",
			Example: `[{"name":"hog","count":2,"program":[{"run":"8ms"},{"timer":"10ms"}]}]`,
			val:     func(s *Scenario, _ keys) any { return s.Tasks },
			enter:   func(s *Scenario, _ keys) { s.Tasks = []Task{} },
			reset:   func(s *Scenario, _ keys) { s.Tasks = nil },
			length:  func(s *Scenario, _ keys) int { return len(s.Tasks) },
			elem:    func(s *Scenario, _ keys, i int) { s.Tasks = append(s.Tasks, Task{}) }},
		{Path: "tasks[i]", Kind: KindObject, Doc: "a group of count tasks named name/0 ... name/count-1 (Set addresses it as tasks.NAME too)",
			val:   func(s *Scenario, k keys) any { return *task(s, k) },
			reset: func(s *Scenario, k keys) { *task(s, k) = Task{} }},
		{Path: "tasks[i].name", Kind: KindName, Doc: "unique, 1 to 32 of A-Z a-z 0-9 _ . - (required)", Example: "client",
			at: strAt(func(s *Scenario, k keys) *string { return &task(s, k).Name })},
		{Path: "tasks[i].count", Kind: KindInt, Default: "1", Min: 0, Max: MaxInstances, Doc: "instances of the group (0, version 2: none at the start, fork steps start them)", Example: "40",
			onSet: func(s *Scenario, k keys, v string) error {
				if t := task(s, k); t.CountOf != "" && v != strconv.Itoa(t.Count) {
					return &Error{Problem: "this group takes its count from " + quote(t.CountOf) + " (count_of); set that group's count"}
				}
				return nil
			},
			at: intAt(func(s *Scenario, k keys) *int { return &task(s, k).Count })},
		{Path: "tasks[i].count_of", Kind: KindName, Absent: "its own count", Doc: "take the count of another group (a 1:1 partner); does not chain", Example: "client",
			at: strAt(func(s *Scenario, k keys) *string { return &task(s, k).CountOf })},
		{Path: "tasks[i].nice", Kind: KindInt, Default: "0", Min: -20, Max: 19, Doc: "the nice value", Example: "5",
			at: intAt(func(s *Scenario, k keys) *int { return &task(s, k).Nice })},
		{Path: "tasks[i].cpus", Kind: KindCPUList, Absent: "all CPUs", Doc: "affinity, as a cpulist", Example: "0-3,8",
			at: strAt(func(s *Scenario, k keys) *string { return &task(s, k).CPUs })},
		{Path: "tasks[i].start", Kind: KindDuration, Max: int64(MaxDuration), Absent: "0s", Doc: "delay before the group is forked", Example: "10ms",
			at: strAt(func(s *Scenario, k keys) *string { return &task(s, k).Start })},
		{Path: "tasks[i].loop", Kind: KindInt, Default: "0", Min: 0, Max: maxLoop, Doc: "program iterations (0: forever)", Example: "100",
			at: intAt(func(s *Scenario, k keys) *int { return &task(s, k).Loop })},
		{Path: "tasks[i].program", Kind: KindList, Max: MaxSteps, what: "steps", appends: true, rangeMsg: "index %[1]d is out of range (the program has %[2]d steps; index %[2]d appends one)", Doc: "the steps run in a loop; one iteration is one op (required)",
			Example: `[{"run":"1ms"},{"sleep":"9ms"}]`,
			val:     func(s *Scenario, k keys) any { return task(s, k).Program },
			enter:   func(s *Scenario, k keys) { task(s, k).Program = []Step{} },
			reset:   func(s *Scenario, k keys) { task(s, k).Program = nil },
			length:  func(s *Scenario, k keys) int { return len(task(s, k).Program) },
			elem:    func(s *Scenario, k keys, i int) { t := task(s, k); t.Program = append(t.Program, Step{}) }},
		{Path: "tasks[i].program[j]", Kind: KindObject, Doc: "one step: exactly one of run, sleep, timer, wake, wait, exec, fork, wait_children, exit, repeat, lock, unlock, cond_wait, signal, broadcast, barrier",
			val:   func(s *Scenario, k keys) any { return *step(s, k) },
			reset: func(s *Scenario, k keys) { *step(s, k) = Step{} }},
		stepDur("run", 1, "burn this much CPU time (stretched by cache-cold penalties)", "20us", func(st *Step) *string { return &st.Run }),
		stepDur("sleep", 1, "block for this long", "9ms", func(st *Step) *string { return &st.Sleep }),
		stepDur("timer", MinTimer, "block until the next multiple of this period since the task started", "10ms", func(st *Step) *string { return &st.Timer }),
		{Path: "tasks[i].program[j].wake", Kind: KindName, Doc: "wake instances of this group", Example: "server",
			notEmpty: "needs the name of the task to wake", OneOf: "step",
			onSet: func(s *Scenario, k keys, v string) error {
				if step(s, k).Wake == "" {
					return resetStep(s, k, v)
				}
				return nil
			},
			at: strAt(func(s *Scenario, k keys) *string { return &step(s, k).Wake })},
		{Path: "tasks[i].program[j].sync", Kind: KindBool, Default: "false", With: "wake", Doc: "a wake: the waker is about to sleep (WF_SYNC)", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &step(s, k).Sync })},
		{Path: "tasks[i].program[j].fanout", Kind: KindEnum, Default: DefaultFanout, Enum: names(fanouts), lazy: true, Example: "all", With: "wake",
			Doc: "a wake: which instances (index: the same index or the only one; all; one; waker: whoever ended this task's wait)",
			at:  strAt(func(s *Scenario, k keys) *string { return &step(s, k).Fanout })},
		{Path: "tasks[i].program[j].wait", Kind: KindBool, Doc: "block until woken (an earlier wake is not lost)", Example: "true",
			trueOnly: `must be true ("wait": false is not a step)`, onSet: resetStep, OneOf: "step",
			at: boolAt(func(s *Scenario, k keys) *bool { return &step(s, k).Wait })},
	}...)
	rows = append(rows, structuredStepRows()...)
	rows = append(rows, syncStepRows()...)
	rows = append(rows, viewRows()...)
	for i := range rows {
		if rows[i].Since == 0 {
			rows[i].Since = 1
		}
	}
	return rows
}

// nestedProgram is the row of a repeat block's body: a list whose elements
// are steps again (the schema tree points its [i] back at
// tasks[i].program[j]).
const nestedProgram = "tasks[i].program[j].program"

// structuredStepRows are the program steps of format version 2: processes
// (exec, fork, wait_children, exit) and repeat blocks.
func structuredStepRows() []Field {
	rows := []Field{
		{Path: "tasks[i].program[j].exec", Kind: KindBool, Doc: "the task execs: sched_exec() may move it to the CPU select_task_rq_fair(SD_BALANCE_EXEC) finds, and the new image's memory is where it lands", Example: "true",
			trueOnly: `must be true ("exec": false is not a step)`, onSet: resetStep, OneOf: "step",
			at: boolAt(func(s *Scenario, k keys) *bool { return &step(s, k).Exec })},
		{Path: "tasks[i].program[j].fork", Kind: KindName, Example: "cmd",
			Doc:      fmt.Sprintf("start count children of this group (its count must be 0), placed by fork balancing (SD_BALANCE_FORK) from this task's CPU; at most %d tasks alive at once and %d forks in a run (a run stops at either)", MaxLiveTasks, MaxForks),
			notEmpty: "needs the name of the group to fork", OneOf: "step",
			onSet: func(s *Scenario, k keys, v string) error {
				if step(s, k).Fork == "" {
					return resetStep(s, k, v)
				}
				return nil
			},
			at: strAt(func(s *Scenario, k keys) *string { return &step(s, k).Fork })},
		{Path: "tasks[i].program[j].count", Kind: KindInt, Default: "1", Min: 1, Max: MaxForkCount, lazy: true, Example: "4", With: "fork",
			Doc: "a fork: how many children",
			onSet: func(s *Scenario, k keys, v string) error {
				if step(s, k).Fork == "" && v != "" {
					return &Error{Problem: "only a fork step has count"}
				}
				return nil
			},
			at: func(s *Scenario, k keys) slot { return lazyIntSlot{intSlot{&step(s, k).Count}} }},
		{Path: "tasks[i].program[j].wait_children", Kind: KindBool, Doc: "block until every child this task forked has exited", Example: "true",
			trueOnly: `must be true ("wait_children": false is not a step)`, onSet: resetStep, OneOf: "step",
			at: boolAt(func(s *Scenario, k keys) *bool { return &step(s, k).WaitChildren })},
		{Path: "tasks[i].program[j].exit", Kind: KindBool, Doc: "the task exits here (its iteration is not an op); its parent's wait_children may end", Example: "true",
			trueOnly: `must be true ("exit": false is not a step)`, onSet: resetStep, OneOf: "step",
			at: boolAt(func(s *Scenario, k keys) *bool { return &step(s, k).Exit })},
		{Path: "tasks[i].program[j].repeat", Kind: KindInt, Min: 1, Max: maxLoop, Example: "300", OneOf: "step",
			Doc: fmt.Sprintf("run the steps of program this many times (a loop, not unrolled); blocks nest at most %d deep, and a program has at most %d steps counting every block's", MaxRepeatDepth, MaxProgramSteps),
			onSet: func(s *Scenario, k keys, v string) error {
				if step(s, k).Repeat == 0 {
					return resetStep(s, k, v)
				}
				return nil
			},
			at: func(s *Scenario, k keys) slot { return lazyIntSlot{intSlot{&step(s, k).Repeat}} }},
		{Path: nestedProgram, Kind: KindList, Max: MaxSteps, what: "steps", appends: true, With: "repeat", rangeMsg: "index %[1]d is out of range (the block has %[2]d steps; index %[2]d appends one)",
			Doc: "a repeat: its body, steps with the fields of tasks[i].program[j] (it needs a run, sleep or timer step)", Example: `[{"run":"1ms"},{"sleep":"1ms"}]`,
			val:    func(s *Scenario, k keys) any { return step(s, k).Program },
			enter:  func(s *Scenario, k keys) { step(s, k).Program = []Step{} },
			reset:  func(s *Scenario, k keys) { step(s, k).Program = nil },
			length: func(s *Scenario, k keys) int { return len(step(s, k).Program) },
			elem:   func(s *Scenario, k keys, i int) { st := step(s, k); st.Program = append(st.Program, Step{}) }},
	}
	for i := range rows {
		rows[i].Since = 2
	}
	return rows
}
