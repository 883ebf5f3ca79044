package scenarios

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Set changes one field, addressed by a dotted path in the file's own
// vocabulary, and validates the result; on any error the scenario is left
// unchanged. The value is text, as on a command line:
//
//	seed=7  duration=2s  title=...  description=...
//	machine.cores_per_cluster=10  machine.hz=250  machine.numbering=x86
//	machine.costs.wakeup_ipi=5us  machine.costs.cache_cold.llc=20us
//	machine.costs.comm.numa=2us  machine.costs.jitter_pct=5
//	machine.costs.idle_states=[{"name":"C1","after":"0s","exit_latency":"2us"}]
//	machine.costs.idle_states[1].exit_latency=80us
//	policy.base=v3.8  policy.select_idle_sibling=cpu_buddies
//	policy.load_metric=runnable_load_avg  policy.new_task_load=zero
//	policy.sd_flags.MC.SD_BALANCE_WAKE=true  policy.features.WAKE_AFFINE=false
//	policy.tunables.MC.imbalance_pct=125  policy.tunables.PKG.min_interval=4ms
//	policy.migration_cost=250us  policy.base_slice=3ms
//	tasks.client.count=40  tasks.client.nice=5  tasks[0].cpus=0-3
//	tasks.client.program[0].run=20us  tasks.client.program=[{"run":"1ms"},{"sleep":"9ms"}]
//
// Tasks are addressed by name (tasks.NAME.field; a name may contain dots,
// the longest matching name wins) or by index (tasks[i].field). Setting a
// step's kind (run, sleep, timer, wake, wait) replaces the step's old kind;
// program[i] with i equal to the program's length appends a step. Lists
// (idle_states, program, program[i]) take JSON. An empty value restores the
// default: it removes an override (a flag, a feature, a tunable, a cost) or
// resets a field with a default (count=1, hz=1000, ...).
func (s *Scenario) Set(path, value string) error {
	if len(path) > 256 || len(value) > MaxScenarioBytes {
		return &Error{Path: shorten(path), Problem: "path or value too long"}
	}
	c := s.Clone()
	if err := c.set(path, value); err != nil {
		return err
	}
	c.normalize()
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%s=%s: %w", path, shorten(value), err)
	}
	*s = *c
	return nil
}

func shorten(v string) string {
	if len(v) > 64 {
		return strings.ToValidUTF8(v[:64], "") + "..."
	}
	return v
}

// setter parses a value into one field.
type setter struct {
	path string
}

func (st setter) err(problem string) error { return &Error{Path: st.path, Problem: problem} }

func (st setter) unknown() error {
	return st.err("unknown path (the settable paths are listed in scenarios/FORMAT.md)")
}

func (st setter) integer(dst *int, v string, def int) error {
	if v == "" {
		*dst = def
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return st.err(quote(v) + " is not an integer")
	}
	*dst = n
	return nil
}

func (st setter) intPtr(dst **int, v string) error {
	if v == "" {
		*dst = nil
		return nil
	}
	var n int
	if err := st.integer(&n, v, 0); err != nil {
		return err
	}
	*dst = &n
	return nil
}

func (st setter) boolean(v string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, st.err(quote(v) + " is not true or false")
	}
	return b, nil
}

// jsonValue decodes a JSON value with the scenario decoder, so that the
// value's problems have paths below the set path.
func (st setter) jsonValue(v string, decode func(d *decoder, raw json.RawMessage)) error {
	raw, err := single([]byte(v))
	if err != nil {
		return st.err(err.Error())
	}
	d := &decoder{}
	decode(d, raw)
	return d.err()
}

func (s *Scenario) set(path, value string) error {
	st := setter{path}
	if strings.HasPrefix(path, "tasks.") || strings.HasPrefix(path, "tasks[") {
		return s.setTask(path, value)
	}
	seg := strings.Split(path, ".")
	switch {
	case len(seg) == 1:
		switch seg[0] {
		case "version":
			return st.integer(&s.Version, value, Version)
		case "title":
			s.Title = value
		case "description":
			s.Description = value
		case "seed":
			if value == "" {
				s.Seed = DefaultSeed
				return nil
			}
			n, err := strconv.ParseUint(strings.TrimSpace(value), 10, 64)
			if err != nil {
				return st.err(quote(value) + " is not a non-negative integer")
			}
			s.Seed = n
		case "duration":
			s.Duration = value
		default:
			return st.unknown()
		}
		return nil
	case seg[0] == "machine":
		return s.Machine.set(st, seg[1:], value)
	case seg[0] == "policy":
		return s.Policy.set(st, seg[1:], value)
	}
	return st.unknown()
}

func (m *Machine) set(st setter, seg []string, value string) error {
	def := defaultMachine()
	if len(seg) == 1 {
		switch seg[0] {
		case "nodes":
			return st.integer(&m.Nodes, value, def.Nodes)
		case "sockets_per_node":
			return st.integer(&m.SocketsPerNode, value, def.SocketsPerNode)
		case "llcs_per_socket":
			return st.integer(&m.LLCsPerSocket, value, def.LLCsPerSocket)
		case "clusters_per_llc":
			return st.integer(&m.ClustersPerLLC, value, def.ClustersPerLLC)
		case "cores_per_cluster":
			return st.integer(&m.CoresPerCluster, value, def.CoresPerCluster)
		case "threads_per_core":
			return st.integer(&m.ThreadsPerCore, value, def.ThreadsPerCore)
		case "hz":
			return st.integer(&m.HZ, value, def.HZ)
		case "numbering":
			m.Numbering = value
			return nil
		case "llc_size":
			m.LLCSize = value
			return nil
		case "l2_size":
			m.L2Size = value
			return nil
		case "costs":
			if value == "" {
				m.Costs = Costs{}
				return nil
			}
		}
		return st.unknown()
	}
	if len(seg) >= 2 && seg[0] == "costs" {
		return m.Costs.set(st, seg[1:], value)
	}
	return st.unknown()
}

func (c *Costs) set(st setter, seg []string, value string) error {
	if len(seg) == 1 {
		var dst *string
		switch seg[0] {
		case "context_switch":
			dst = &c.ContextSwitch
		case "wakeup_ipi":
			dst = &c.WakeupIPI
		case "search_cpu":
			dst = &c.SearchCPU
		case "search_group":
			dst = &c.SearchGroup
		case "search_domain":
			dst = &c.SearchDomain
		case "balance_cpu":
			dst = &c.BalanceCPU
		case "jitter_pct":
			return st.intPtr(&c.JitterPct, value)
		case "cache_cold":
			if value == "" {
				c.CacheCold = CacheCold{}
				return nil
			}
			return st.unknown()
		case "comm":
			if value == "" {
				c.Comm = Comm{}
				return nil
			}
			return st.unknown()
		case "idle_states":
			if value == "" {
				c.IdleStates = nil
				return nil
			}
			return st.jsonValue(value, func(d *decoder, raw json.RawMessage) {
				if states, ok := d.idleStates(raw, st.path); ok && d.ok() {
					c.IdleStates = states
				}
			})
		default:
			if name, _, ok := splitIndex(seg[0]); ok && name == "idle_states" {
				return st.err("needs a field: " + st.path + ".name, .after or .exit_latency")
			}
			return st.unknown()
		}
		*dst = value
		return nil
	}
	if len(seg) == 2 {
		switch seg[0] {
		case "cache_cold":
			if dst := cacheColdField(&c.CacheCold, seg[1]); dst != nil {
				*dst = value
				return nil
			}
		case "comm":
			if dst := commField(&c.Comm, seg[1]); dst != nil {
				*dst = value
				return nil
			}
		default:
			name, i, ok := splitIndex(seg[0])
			if !ok || name != "idle_states" {
				return st.unknown()
			}
			if i >= len(c.IdleStates) {
				return st.err(fmt.Sprintf("index %d is out of range (there are %d idle states)", i, len(c.IdleStates)))
			}
			is := &c.IdleStates[i]
			switch seg[1] {
			case "name":
				is.Name = value
			case "after":
				is.After = value
			case "exit_latency":
				is.ExitLatency = value
			default:
				return st.unknown()
			}
			return nil
		}
	}
	return st.unknown()
}

// splitIndex splits "name[3]" into ("name", 3, true).
func splitIndex(seg string) (string, int, bool) {
	open := strings.IndexByte(seg, '[')
	if open < 0 || !strings.HasSuffix(seg, "]") {
		return seg, 0, false
	}
	n, err := strconv.Atoi(seg[open+1 : len(seg)-1])
	if err != nil || n < 0 {
		return seg, 0, false
	}
	return seg[:open], n, true
}

func (pol *Policy) set(st setter, seg []string, value string) error {
	switch len(seg) {
	case 1:
		switch seg[0] {
		case "base":
			pol.Base = value
		case "load_metric":
			pol.LoadMetric = value
		case "select_idle_sibling":
			pol.SelectIdleSibling = value
		case "new_task_load":
			pol.NewTaskLoad = value
		case "migration_cost":
			pol.MigrationCost = value
		case "base_slice":
			pol.BaseSlice = value
		case "sd_flags", "tunables", "features":
			if value != "" {
				return st.unknown()
			}
			switch seg[0] {
			case "sd_flags":
				pol.SDFlags = nil
			case "tunables":
				pol.Tunables = nil
			case "features":
				pol.Features = nil
			}
		default:
			return st.unknown()
		}
		return nil
	case 2:
		if seg[0] != "features" {
			return st.unknown()
		}
		if value == "" {
			delete(pol.Features, seg[1])
			if len(pol.Features) == 0 {
				pol.Features = nil
			}
			return nil
		}
		on, err := st.boolean(value)
		if err != nil {
			return err
		}
		if pol.Features == nil {
			pol.Features = map[string]bool{}
		}
		pol.Features[seg[1]] = on
		return nil
	case 3:
		level, key := seg[1], seg[2]
		switch seg[0] {
		case "sd_flags":
			if value == "" {
				delete(pol.SDFlags[level], key)
				if len(pol.SDFlags[level]) == 0 {
					delete(pol.SDFlags, level)
				}
				if len(pol.SDFlags) == 0 {
					pol.SDFlags = nil
				}
				return nil
			}
			on, err := st.boolean(value)
			if err != nil {
				return err
			}
			if pol.SDFlags == nil {
				pol.SDFlags = map[string]map[string]bool{}
			}
			if pol.SDFlags[level] == nil {
				pol.SDFlags[level] = map[string]bool{}
			}
			pol.SDFlags[level][key] = on
			return nil
		case "tunables":
			t := pol.Tunables[level]
			var err error
			switch key {
			case "imbalance_pct":
				err = st.intPtr(&t.ImbalancePct, value)
			case "busy_factor":
				err = st.intPtr(&t.BusyFactor, value)
			case "cache_nice_tries":
				err = st.intPtr(&t.CacheNiceTries, value)
			case "min_interval":
				t.MinInterval = value
			case "max_interval":
				t.MaxInterval = value
			default:
				return st.unknown()
			}
			if err != nil {
				return err
			}
			if pol.Tunables == nil {
				pol.Tunables = map[string]Tunables{}
			}
			if t == (Tunables{}) {
				delete(pol.Tunables, level)
				if len(pol.Tunables) == 0 {
					pol.Tunables = nil
				}
			} else {
				pol.Tunables[level] = t
			}
			return nil
		}
	}
	return st.unknown()
}

// setTask handles tasks.NAME.field and tasks[i].field.
func (s *Scenario) setTask(path, value string) error {
	st := setter{path}
	var t *Task
	var rest string
	if after, ok := strings.CutPrefix(path, "tasks["); ok {
		end := strings.IndexByte(after, ']')
		if end < 0 {
			return st.unknown()
		}
		i, err := strconv.Atoi(after[:end])
		if err != nil || i < 0 || i >= len(s.Tasks) {
			return st.err(fmt.Sprintf("no task at index %s (there are %d tasks)", after[:end], len(s.Tasks)))
		}
		t = &s.Tasks[i]
		rest, ok = strings.CutPrefix(after[end+1:], ".")
		if !ok {
			return st.err("needs a field, for example " + path + ".count")
		}
	} else {
		after := strings.TrimPrefix(path, "tasks.")
		best := -1
		for i := range s.Tasks {
			n := s.Tasks[i].Name
			if n == "" || !strings.HasPrefix(after, n+".") {
				continue
			}
			if best < 0 || len(n) > len(s.Tasks[best].Name) {
				best = i
			}
		}
		if best < 0 {
			name, _, _ := strings.Cut(after, ".")
			return st.err(fmt.Sprintf("no task named %s", quote(name)))
		}
		t = &s.Tasks[best]
		rest = after[len(t.Name)+1:]
	}
	return t.set(st, rest, value)
}

func (t *Task) set(st setter, field, value string) error {
	switch field {
	case "name":
		t.Name = value
	case "count":
		if t.CountOf != "" {
			return st.err("this group takes its count from " + quote(t.CountOf) + " (count_of); set that group's count")
		}
		return st.integer(&t.Count, value, 1)
	case "count_of":
		t.CountOf = value
	case "nice":
		return st.integer(&t.Nice, value, 0)
	case "cpus":
		t.CPUs = value
	case "start":
		t.Start = value
	case "loop":
		return st.integer(&t.Loop, value, 0)
	case "program":
		return st.jsonValue(value, func(d *decoder, raw json.RawMessage) {
			prog := d.program(raw, st.path)
			if d.ok() {
				t.Program = prog
			}
		})
	default:
		stepSeg, key, hasKey := strings.Cut(field, ".")
		name, i, ok := splitIndex(stepSeg)
		if !ok || name != "program" {
			return st.unknown()
		}
		if i > len(t.Program) {
			return st.err(fmt.Sprintf("index %d is out of range (the program has %d steps; index %d appends one)", i, len(t.Program), len(t.Program)))
		}
		if i == len(t.Program) {
			t.Program = append(t.Program, Step{})
		}
		step := &t.Program[i]
		if !hasKey {
			return st.jsonValue(value, func(d *decoder, raw json.RawMessage) {
				if one := d.step(raw, st.path); d.ok() {
					*step = one
				}
			})
		}
		return step.set(st, key, value)
	}
	return nil
}

func (step *Step) set(st setter, key, value string) error {
	kind := func() { *step = Step{} }
	switch key {
	case "run":
		kind()
		step.Run = value
	case "sleep":
		kind()
		step.Sleep = value
	case "timer":
		kind()
		step.Timer = value
	case "wake":
		if step.Wake == "" {
			kind()
		}
		step.Wake = value
	case "wait":
		on, err := st.boolean(value)
		if err != nil {
			return err
		}
		kind()
		step.Wait = on
	case "sync":
		on, err := st.boolean(value)
		if err != nil {
			return err
		}
		step.Sync = on
	case "fanout":
		step.Fanout = value
	default:
		return st.unknown()
	}
	return nil
}
