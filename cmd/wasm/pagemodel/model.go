// Package pagemodel is what the page's editor reads besides the scenario
// itself: the policy as the simulator resolves it (every switch's effective
// value, and the value the base era alone would give), the sched-domain
// levels the machine has, the cost model's defaults, and one-line summaries
// of the presets. It imports no syscall/js, so it is tested natively; the
// wasm bridge marshals a Model to JSON for window.schedplay.describe().
//
// The editor shows each switch with its effective value and marks the ones
// the scenario overrides; clicking a switch back to its base value removes
// the override instead of writing it out, so that links stay short and
// equal scenarios keep equal links.
package pagemodel

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// Model is the editor's view of one scenario.
type Model struct {
	// Scenario is the canonical JSON of the scenario (an object in JS).
	Scenario json.RawMessage `json:"scenario"`
	// JSON is the same canonical JSON as a string: the editor compares it to
	// tell whether anything changed.
	JSON string `json:"json"`
	// NCPU is the machine's CPU count.
	NCPU int `json:"ncpu"`
	// Levels are the sched-domain levels CPU 0 has, bottom-up (SMT, CLS,
	// MC, PKG, NUMA; degenerate levels are not built, as in the kernel).
	Levels []string `json:"levels"`
	// Effective is the resolved policy; Base is what the base era alone
	// gives on this machine (no overrides).
	Effective Policy `json:"effective"`
	Base      Policy `json:"base"`
	// CostDefaults are sim.DefaultCosts as duration strings (the editor's
	// placeholders); IdleStates the C-states in effect.
	CostDefaults Costs       `json:"cost_defaults"`
	IdleStates   []IdleState `json:"cstates"`
	// Values, BaseValues and Defaults are the same by scenario path, as
	// Set would write them ("policy.sd_flags.MC.SD_BALANCE_WAKE": "true";
	// levels by their own name, not DIE): the resolved policy, the base
	// era's alone, and the cost model's defaults. The editor looks values
	// up by the paths it builds from the schema.
	Values     map[string]string `json:"values"`
	BaseValues map[string]string `json:"base_values"`
	Defaults   map[string]string `json:"defaults"`
	// Preset is the name of the preset this scenario is, unchanged; "" if
	// it is none of them.
	Preset string `json:"preset"`
	// Schema is every field of the format (scenarios.Schema): the editor
	// builds its controls from it.
	Schema scenarios.SchemaDoc `json:"schema"`
	// Duty is each task group's duty cycle, when its program is [run, timer].
	Duty []Duty `json:"duty"`
	// Removals is, for each task group, what removing it takes with it
	// (the editor asks before it removes a group that others name).
	Removals []Removal `json:"removals"`
	// LevelKeys spell each level as the scenario's maps do, by map path:
	// {"policy.sd_flags": {"PKG": "DIE", ...}} when the file says DIE.
	LevelKeys map[string]map[string]string `json:"level_keys"`
	// Suggestions are one-line changes for side B of an A/B comparison,
	// each flipping or varying one switch of the effective policy.
	Suggestions []string `json:"suggestions"`
}

// Duty is a group's duty cycle: run Pct percent of every Period.
type Duty struct {
	OK     bool    `json:"ok"`
	Pct    float64 `json:"pct"`
	Period string  `json:"period"`
}

// Policy is a resolved policy in the scenario's vocabulary.
type Policy struct {
	LoadMetric        string                     `json:"load_metric"`
	SelectIdleSibling string                     `json:"select_idle_sibling"`
	NewTaskLoad       string                     `json:"new_task_load"`
	SDFlags           map[string]map[string]bool `json:"sd_flags"` // level -> flag -> on
	Tunables          map[string]Tunables        `json:"tunables"` // level -> values
	Features          map[string]bool            `json:"features"`
}

// Tunables of one level, resolved; intervals as duration strings ("4ms").
type Tunables struct {
	ImbalancePct   int    `json:"imbalance_pct"`
	BusyFactor     int    `json:"busy_factor"`
	MinInterval    string `json:"min_interval"`
	MaxInterval    string `json:"max_interval"`
	CacheNiceTries int    `json:"cache_nice_tries"`
}

// Costs are the cost model's values as the scenario format writes them.
type Costs struct {
	ContextSwitch string            `json:"context_switch"`
	WakeupIPI     string            `json:"wakeup_ipi"`
	WakeupIPISend string            `json:"wakeup_ipi_send"`
	WakeupPoll    string            `json:"wakeup_poll"`
	TimerSpread   string            `json:"timer_irq_spread"`
	SearchCPU     string            `json:"search_cpu"`
	SearchGroup   string            `json:"search_group"`
	SearchDomain  string            `json:"search_domain"`
	BalanceCPU    string            `json:"balance_cpu"`
	JitterPct     int               `json:"jitter_pct"`
	CacheCold     map[string]string `json:"cache_cold"` // smt, cluster, llc, package, numa
	Comm          map[string]string `json:"comm"`       // same, smt, cluster, llc, package, numa
}

// IdleState is one C-state in the scenario's spelling.
type IdleState struct {
	Name        string `json:"name"`
	After       string `json:"after"`
	ExitLatency string `json:"exit_latency"`
	Package     bool   `json:"package"`
	Polls       bool   `json:"polls"`
	Flushes     bool   `json:"flushes"`
}

// EditableFlags are the SD_* flags the editor offers, in the order it shows
// them (scenarios.EditableFlags). The others (SD_SHARE_*, SD_NUMA,
// SD_CLUSTER, SD_OVERLAP, ...) describe the topology and stay as the
// machine makes them.
var EditableFlags = scenarios.EditableFlags()

// Describe resolves sc's policy and machine for the editor. sc must be
// valid (the session only ever holds valid scenarios).
//
// What depends on the machine and the policy only (the resolved policies,
// levels, C-states and the A/B suggestions but the base's) is computed on
// policyProbe(sc) and kept for the next call with the same machine and
// policy: an import replaces the tasks and keeps the rest.
func Describe(sc *scenarios.Scenario) (*Model, error) {
	canon := sc.Canonical()
	probe := policyProbe(sc)
	pp, err := policyPartOf(probe)
	if err != nil {
		return nil, err
	}
	m := &Model{Scenario: canon, JSON: string(canon), CostDefaults: pp.costDefaults, Schema: schema(),
		NCPU: pp.ncpu, Levels: pp.levels, Effective: pp.eff, Base: pp.base,
		Values: pp.values, BaseValues: pp.baseValues, Defaults: pp.defaults,
		LevelKeys: pp.levelKeys, IdleStates: pp.idle}
	m.Preset = scenarios.PresetOf(sc)
	m.Suggestions = append(pp.suggestions[:len(pp.suggestions):len(pp.suggestions)], baseSuggestion(sc)...)
	m.Duty = make([]Duty, len(sc.Tasks))
	for i := range sc.Tasks {
		d := &m.Duty[i]
		d.Pct, d.Period, d.OK = sc.DutyCycle(i)
	}
	m.Removals = Removals(sc)
	return m, nil
}

// DescribeJSON is Describe of the scenario whose canonical JSON is
// canonical, as JSON: what the page's describe() returns (cmd/wasm), made
// on the main thread or, for an import, in the worker (importjob).
func DescribeJSON(canonical []byte) ([]byte, error) {
	sc, err := scenarios.Decode(canonical)
	if err != nil {
		return nil, err
	}
	m, err := Describe(sc)
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// schema is scenarios.Schema(), made once: it never changes.
var schema = sync.OnceValue(scenarios.Schema)

// policyPart is the part of a Model that depends on the machine and the
// policy only. Its maps and slices are shared by the Models made from it:
// read-only.
type policyPart struct {
	ncpu                         int
	levels                       []string
	eff, base                    Policy
	costDefaults                 Costs
	values, baseValues, defaults map[string]string
	levelKeys                    map[string]map[string]string
	idle                         []IdleState
	suggestions                  []string // but the base's
}

// policyParts keeps the last few policy parts by their probe's canonical
// JSON.
var policyParts struct {
	sync.Mutex
	m map[string]*policyPart
}

func policyPartOf(probe *scenarios.Scenario) (*policyPart, error) {
	key := string(probe.Canonical())
	policyParts.Lock()
	pp := policyParts.m[key]
	policyParts.Unlock()
	if pp != nil {
		return pp, nil
	}
	pp, err := newPolicyPart(probe)
	if err != nil {
		return nil, err
	}
	policyParts.Lock()
	if len(policyParts.m) >= 16 || policyParts.m == nil {
		policyParts.m = map[string]*policyPart{}
	}
	policyParts.m[key] = pp
	policyParts.Unlock()
	return pp, nil
}

func newPolicyPart(probe *scenarios.Scenario) (*policyPart, error) {
	eff, err := resolve(probe, false)
	if err != nil {
		return nil, err
	}
	base, err := resolve(probe, true)
	if err != nil {
		return nil, err
	}
	pp := &policyPart{ncpu: eff.Topology().NCPU, costDefaults: costs(sim.DefaultCosts())}
	for _, sd := range eff.Domains(0) {
		pp.levels = append(pp.levels, sd.Level.String())
	}
	pp.eff, pp.base = policy(eff), policy(base)
	pp.values, pp.baseValues, pp.defaults = pp.eff.byPath(), pp.base.byPath(), pp.costDefaults.byPath()
	if probe.Policy.Base == "v2.6.8" {
		// That base lacks the later eras' switches: no value to show.
		for _, vals := range []map[string]string{pp.values, pp.baseValues} {
			for path, v := range vals {
				if !applies(probe, path+"="+v) {
					delete(vals, path)
				}
			}
		}
	}
	pp.suggestions = suggestions(pp.eff, pp.levels, probe)
	pp.levelKeys = map[string]map[string]string{}
	for path, has := range map[string]func(string) bool{
		"policy.sd_flags": func(l string) bool { _, ok := probe.Policy.SDFlags[l]; return ok },
		"policy.tunables": func(l string) bool { _, ok := probe.Policy.Tunables[l]; return ok },
	} {
		keys := map[string]string{}
		for _, l := range pp.levels {
			keys[l] = l
			if l == sim.LevelPKG.String() && has("DIE") && !has(l) {
				keys[l] = "DIE"
			}
		}
		pp.levelKeys[path] = keys
	}
	pp.idle = []IdleState{}
	for _, st := range eff.Costs().IdleStates {
		pp.idle = append(pp.idle, IdleState{Name: st.Name, After: Duration(st.After), ExitLatency: Duration(st.ExitLatency), Package: st.Package, Polls: st.Polls, Flushes: st.Flushes})
	}
	return pp, nil
}

// policyProbe is sc with its task groups replaced by one trivial task (as
// resolve builds it) and its texts and run length fixed: whether a change
// of policy (but of the base) is valid does not depend on them, and
// validating 64 task groups once per switch made describe() of an
// imported workload take most of its time. TestProbeAgrees checks that
// the answers equal those on the whole scenario.
func policyProbe(sc *scenarios.Scenario) *scenarios.Scenario {
	c := *sc
	c.Title, c.Description, c.Duration = "probe", "", "1s"
	c.Tasks = []scenarios.Task{{Name: "t", Count: 1, Program: []scenarios.Step{{Run: "1ms"}}}}
	return c.Clone()
}

// resolve builds a simulator for sc's machine and policy (bare: without
// policy overrides) with one trivial task: the policy and the domains do
// not depend on the tasks, and a 4096-task scenario should not be built
// twice more for the editor.
func resolve(sc *scenarios.Scenario, bare bool) (*sim.Sim, error) {
	c := sc.Clone()
	if bare {
		c.Policy = scenarios.Policy{Base: c.Policy.Base}
	}
	c.Duration = "1s"
	c.Tasks = []scenarios.Task{{Name: "t", Count: 1, Program: []scenarios.Step{{Run: "1ms"}}}}
	cfg, err := c.Config()
	if err != nil {
		return nil, err
	}
	return sim.New(cfg)
}

func policy(s *sim.Sim) Policy {
	p := Policy{
		LoadMetric:        scenarios.LoadMetricName(s.LoadMetric()),
		SelectIdleSibling: scenarios.SISName(s.SIS()),
		NewTaskLoad:       scenarios.NewTaskLoadName(s.NewTaskLoad()),
		SDFlags:           map[string]map[string]bool{},
		Tunables:          map[string]Tunables{},
		Features:          map[string]bool{},
	}
	for _, sd := range s.Domains(0) {
		l := sd.Level.String()
		flags := map[string]bool{}
		for _, name := range EditableFlags {
			f, _ := sim.SDFlagByName(name)
			flags[name] = sd.HasFlag(f)
		}
		p.SDFlags[l] = flags
		p.Tunables[l] = Tunables{
			ImbalancePct:   sd.ImbalancePct,
			BusyFactor:     sd.BusyFactor,
			MinInterval:    strconv.FormatInt(sd.MinInterval, 10) + "ms",
			MaxInterval:    strconv.FormatInt(sd.MaxInterval, 10) + "ms",
			CacheNiceTries: sd.CacheNiceTries,
		}
	}
	for f := sim.Feature(0); f < sim.NumFeatures; f++ {
		p.Features[f.String()] = s.Feature(f)
	}
	return p
}

var distKeys = [sim.NumDistances]string{"same", "smt", "cluster", "llc", "package", "numa"}

func costs(c sim.Costs) Costs {
	out := Costs{
		ContextSwitch: Duration(c.ContextSwitch),
		WakeupIPI:     Duration(c.WakeupIPI),
		WakeupIPISend: Duration(c.WakeupIPISend),
		WakeupPoll:    Duration(c.WakeupPoll),
		TimerSpread:   Duration(c.TimerIRQSpread),
		SearchCPU:     Duration(c.SearchCPU),
		SearchGroup:   Duration(c.SearchGroup),
		SearchDomain:  Duration(c.SearchDomain),
		BalanceCPU:    Duration(c.BalanceCPU),
		JitterPct:     c.JitterPct,
		CacheCold:     map[string]string{},
		Comm:          map[string]string{},
	}
	for d := sim.Distance(0); d < sim.NumDistances; d++ {
		if d != sim.DistSame {
			out.CacheCold[distKeys[d]] = Duration(c.CacheCold[d])
		}
		out.Comm[distKeys[d]] = Duration(c.Comm[d])
	}
	return out
}

// Duration writes ns the way scenario files do: "500us", "1.5ms", "2s",
// "0s"; never "µs" (hard to type) nor "1m0s".
func Duration(ns int64) string {
	d := time.Duration(ns)
	if d >= time.Second && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strings.ReplaceAll(d.String(), "µ", "u")
}

// Problem is one "path: problem" of an error, for the page to show next to
// the field at Path.
type Problem struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// Problems lists the problems of an error returned by the scenarios package
// or the session, seeing through wrappers such as Set's "path=value: ..."
// and the share-link prefix (scenarios.Problems alone stops at the first
// problem of a wrapped list).
func Problems(err error) []Problem {
	if err == nil {
		return nil
	}
	for {
		if _, ok := err.(*scenarios.Error); ok {
			break
		}
		if _, ok := err.(interface{ Unwrap() []error }); ok {
			break
		}
		u := errors.Unwrap(err)
		if u == nil {
			break
		}
		err = u
	}
	var out []Problem
	for _, e := range scenarios.Problems(err) {
		out = append(out, Problem{Path: e.Path, Problem: e.Problem})
	}
	return out
}

// suggestions are the A/B changes the page offers: every other
// select_idle_sibling variant and load metric, every editable flag flipped
// at every level (but SD_BALANCE_EXEC: the model has no exec) and every
// feature flipped, of the effective policy eff on levels; only those valid
// on probe (policyProbe of the scenario). The other base is
// baseSuggestion's.
func suggestions(eff Policy, levels []string, probe *scenarios.Scenario) []string {
	var out []string
	for _, v := range enum("policy.select_idle_sibling") {
		if v != eff.SelectIdleSibling {
			out = append(out, "policy.select_idle_sibling="+v)
		}
	}
	for _, v := range enum("policy.load_metric") {
		if v != eff.LoadMetric {
			out = append(out, "policy.load_metric="+v)
		}
	}
	for _, l := range levels {
		for _, flag := range EditableFlags {
			if flag != "SD_BALANCE_EXEC" {
				out = append(out, "policy.sd_flags."+l+"."+flag+"="+strconv.FormatBool(!eff.SDFlags[l][flag]))
			}
		}
	}
	for _, k := range schema().Keys["<feature>"] {
		out = append(out, "policy.features."+k.Name+"="+strconv.FormatBool(!eff.Features[k.Name]))
	}
	// Only what applies to the scenario's base (a v2.6.8 scenario has no
	// select_idle_sibling, load metric or PELT features).
	kept := out[:0]
	for _, kv := range out {
		if applies(probe, kv) {
			kept = append(kept, kv)
		}
	}
	return kept
}

// baseSuggestion is the first other base sc is valid on, as a one-line
// change, checked on the whole scenario (its tasks may use what another
// base lacks).
func baseSuggestion(sc *scenarios.Scenario) []string {
	for _, b := range enum("policy.base") {
		if b != sc.Policy.Base && applies(sc, "policy.base="+b) {
			return []string{"policy.base=" + b}
		}
	}
	return nil
}

// enum is the values of the schema's row at path.
func enum(path string) []string {
	for _, f := range schema().Fields {
		if f.Path == path {
			return f.Enum
		}
	}
	return nil
}

// applies reports whether the one-line change kv is valid on sc.
func applies(sc *scenarios.Scenario, kv string) bool {
	path, value, _ := strings.Cut(kv, "=")
	return sc.Clone().Set(path, value) == nil // Set works on a copy; sc is shared
}

// byPath spells a resolved policy by scenario path.
func (p Policy) byPath() map[string]string {
	out := map[string]string{
		"policy.load_metric":         p.LoadMetric,
		"policy.select_idle_sibling": p.SelectIdleSibling,
		"policy.new_task_load":       p.NewTaskLoad,
	}
	for l, flags := range p.SDFlags {
		for f, on := range flags {
			out["policy.sd_flags."+l+"."+f] = strconv.FormatBool(on)
		}
	}
	for l, t := range p.Tunables {
		pre := "policy.tunables." + l + "."
		out[pre+"imbalance_pct"] = strconv.Itoa(t.ImbalancePct)
		out[pre+"busy_factor"] = strconv.Itoa(t.BusyFactor)
		out[pre+"min_interval"] = t.MinInterval
		out[pre+"max_interval"] = t.MaxInterval
		out[pre+"cache_nice_tries"] = strconv.Itoa(t.CacheNiceTries)
	}
	for f, on := range p.Features {
		out["policy.features."+f] = strconv.FormatBool(on)
	}
	return out
}

// byPath spells the cost defaults by scenario path.
func (c Costs) byPath() map[string]string {
	pre := "machine.costs."
	out := map[string]string{
		pre + "context_switch": c.ContextSwitch, pre + "wakeup_ipi": c.WakeupIPI, pre + "wakeup_ipi_send": c.WakeupIPISend, pre + "wakeup_poll": c.WakeupPoll,
		pre + "timer_irq_spread": c.TimerSpread,
		pre + "search_cpu":       c.SearchCPU, pre + "search_group": c.SearchGroup,
		pre + "search_domain": c.SearchDomain, pre + "balance_cpu": c.BalanceCPU,
		pre + "jitter_pct": strconv.Itoa(c.JitterPct),
	}
	for k, v := range c.CacheCold {
		out[pre+"cache_cold."+k] = v
	}
	for k, v := range c.Comm {
		out[pre+"comm."+k] = v
	}
	return out
}
