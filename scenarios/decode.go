package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Decode parses a scenario file strictly and validates it. Input larger than
// MaxScenarioBytes is rejected before it is parsed; syntax errors, trailing
// data, unknown or duplicate fields and values of the wrong JSON type are
// reported with their path, then Validate runs. Absent fields get their
// defaults (doc.go lists them), so the result is explicit.
func Decode(data []byte) (*Scenario, error) {
	if len(data) > MaxScenarioBytes {
		return nil, &Error{Problem: fmt.Sprintf("scenario is %d bytes; the limit is %d (256 KiB)", len(data), MaxScenarioBytes)}
	}
	// A byte-order mark, as some editors write, is not JSON; skip it.
	raw, err := single(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")))
	if err != nil {
		return nil, err
	}
	d := &decoder{}
	s := d.scenario(raw)
	if !d.ok() {
		return nil, d.err()
	}
	s.normalize()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// single checks that data is exactly one JSON value and returns it.
func single(data []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, syntaxError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := position(data, off)
		return nil, &Error{Problem: fmt.Sprintf("unexpected data after the scenario at line %d, column %d", line, col)}
	}
	return raw, nil
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case err == io.EOF:
		return &Error{Problem: "empty input: a scenario is a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Problem: "invalid JSON: unexpected end of input"}
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return &Error{Problem: fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())}
	}
	return &Error{Problem: "invalid JSON: " + err.Error()}
}

// position turns a byte offset into 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}

// decoder walks json.RawMessage values by hand, so that every problem gets
// the exact path where it is, and keeps going after a problem to report as
// many as it can (up to maxReported).
type decoder struct{ problems }

// kindOf returns the JSON type of a raw value: '{', '[', '"', 't' (true or
// false), 'n' (null) or '0' (a number).
func kindOf(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; c {
	case '{', '[', '"', 'n':
		return c
	case 't', 'f':
		return 't'
	}
	return '0'
}

var kindNames = map[byte]string{'{': "an object", '[': "an array", '"': "a string", 't': "a boolean", 'n': "null", '0': "a number"}

func (d *decoder) want(path string, raw json.RawMessage, want byte) bool {
	got := kindOf(raw)
	if got == want {
		return true
	}
	d.add(path, "must be "+kindNames[want]+", not "+kindNames[got])
	return false
}

// object calls field for each member of the object raw, in order. Duplicate
// keys are reported (encoding/json would silently keep the last one).
func (d *decoder) object(raw json.RawMessage, path string, field func(key string, val json.RawMessage, path string)) {
	if !d.want(path, raw, '{') {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		d.add(path, "invalid JSON object")
		return
	}
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			d.add(path, "invalid JSON object")
			return
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			d.add(path, "invalid JSON object")
			return
		}
		p := join(path, key)
		if seen[key] {
			d.add(p, "duplicate field")
			continue
		}
		seen[key] = true
		field(key, val, p)
	}
}

// array calls elem for each element of the array raw, and stops with a
// problem at the (max+1)th element, before anything is allocated for it.
func (d *decoder) array(raw json.RawMessage, path string, max int, what string, elem func(i int, val json.RawMessage, path string)) bool {
	if !d.want(path, raw, '[') {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		d.add(path, "invalid JSON array")
		return false
	}
	for i := 0; dec.More(); i++ {
		if i == max {
			d.add(path, fmt.Sprintf("more than %d %s", max, what))
			return false
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			d.add(path, "invalid JSON array")
			return false
		}
		elem(i, val, index(path, i))
	}
	return true
}

func (d *decoder) unknown(path string) { d.add(path, "unknown field") }

func (d *decoder) str(raw json.RawMessage, path string, dst *string) {
	if !d.want(path, raw, '"') {
		return
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		d.add(path, "invalid string")
	}
}

func (d *decoder) boolean(raw json.RawMessage, path string, dst *bool) {
	if !d.want(path, raw, 't') {
		return
	}
	*dst = bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("true"))
}

// integer decodes a JSON number that is written as an integer ("8", not
// "8.0" or "8e0") and fits an int.
func (d *decoder) integer(raw json.RawMessage, path string, dst *int) bool {
	if !d.want(path, raw, '0') {
		return false
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseInt(text, 10, 64)
	switch {
	case err == nil && v >= math.MinInt && v <= math.MaxInt:
		*dst = int(v)
		return true
	case errors.Is(err, strconv.ErrRange), err == nil:
		d.add(path, text+" is out of range")
	default:
		d.add(path, text+" is not an integer")
	}
	return false
}

func (d *decoder) intPtr(raw json.RawMessage, path string, dst **int) {
	var v int
	if d.integer(raw, path, &v) {
		*dst = &v
	}
}

func (d *decoder) uinteger(raw json.RawMessage, path string, dst *uint64) {
	if !d.want(path, raw, '0') {
		return
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseUint(text, 10, 64)
	switch {
	case err == nil:
		*dst = v
	case errors.Is(err, strconv.ErrRange):
		d.add(path, text+" is out of range")
	default:
		d.add(path, text+" is not a non-negative integer")
	}
}

func (d *decoder) scenario(raw json.RawMessage) *Scenario {
	s := &Scenario{Seed: DefaultSeed}
	s.Machine = defaultMachine()
	hasVersion := false
	d.object(raw, "", func(key string, val json.RawMessage, path string) {
		switch key {
		case "version":
			hasVersion = true
			d.integer(val, path, &s.Version)
		case "title":
			d.str(val, path, &s.Title)
		case "description":
			d.str(val, path, &s.Description)
		case "seed":
			d.uinteger(val, path, &s.Seed)
		case "duration":
			d.str(val, path, &s.Duration)
		case "machine":
			d.machine(val, path, &s.Machine)
		case "policy":
			d.policy(val, path, &s.Policy)
		case "tasks":
			d.tasks(val, path, &s.Tasks)
		default:
			d.unknown(path)
		}
	})
	if d.ok() && !hasVersion {
		d.add("version", "missing; this reader understands version 1")
	}
	return s
}

func defaultMachine() Machine {
	return Machine{
		Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1,
		CoresPerCluster: DefaultCoresPerCluster, ThreadsPerCore: 1,
		HZ: DefaultHZ, Numbering: DefaultNumbering,
	}
}

func (d *decoder) machine(raw json.RawMessage, path string, m *Machine) {
	d.object(raw, path, func(key string, val json.RawMessage, path string) {
		switch key {
		case "nodes":
			d.integer(val, path, &m.Nodes)
		case "sockets_per_node":
			d.integer(val, path, &m.SocketsPerNode)
		case "llcs_per_socket":
			d.integer(val, path, &m.LLCsPerSocket)
		case "clusters_per_llc":
			d.integer(val, path, &m.ClustersPerLLC)
		case "cores_per_cluster":
			d.integer(val, path, &m.CoresPerCluster)
		case "threads_per_core":
			d.integer(val, path, &m.ThreadsPerCore)
		case "hz":
			d.integer(val, path, &m.HZ)
		case "numbering":
			d.str(val, path, &m.Numbering)
		case "llc_size":
			d.str(val, path, &m.LLCSize)
		case "l2_size":
			d.str(val, path, &m.L2Size)
		case "costs":
			d.costs(val, path, &m.Costs)
		default:
			d.unknown(path)
		}
	})
}

func (d *decoder) costs(raw json.RawMessage, path string, c *Costs) {
	d.object(raw, path, func(key string, val json.RawMessage, path string) {
		switch key {
		case "context_switch":
			d.str(val, path, &c.ContextSwitch)
		case "wakeup_ipi":
			d.str(val, path, &c.WakeupIPI)
		case "idle_states":
			if states, ok := d.idleStates(val, path); ok {
				c.IdleStates = states
			}
		case "cache_cold":
			d.object(val, path, func(key string, val json.RawMessage, path string) {
				if dst := cacheColdField(&c.CacheCold, key); dst != nil {
					d.str(val, path, dst)
				} else {
					d.unknown(path)
				}
			})
		case "comm":
			d.object(val, path, func(key string, val json.RawMessage, path string) {
				if dst := commField(&c.Comm, key); dst != nil {
					d.str(val, path, dst)
				} else {
					d.unknown(path)
				}
			})
		case "search_cpu":
			d.str(val, path, &c.SearchCPU)
		case "search_group":
			d.str(val, path, &c.SearchGroup)
		case "search_domain":
			d.str(val, path, &c.SearchDomain)
		case "balance_cpu":
			d.str(val, path, &c.BalanceCPU)
		case "jitter_pct":
			d.intPtr(val, path, &c.JitterPct)
		default:
			d.unknown(path)
		}
	})
}

// idleStates decodes a list of C-states; ok is false if the list is too
// long or not a list.
func (d *decoder) idleStates(raw json.RawMessage, path string) ([]IdleState, bool) {
	states := []IdleState{}
	ok := d.array(raw, path, MaxIdleStates, "idle states", func(i int, val json.RawMessage, path string) {
		var st IdleState
		d.object(val, path, func(key string, val json.RawMessage, path string) {
			switch key {
			case "name":
				d.str(val, path, &st.Name)
			case "after":
				d.str(val, path, &st.After)
			case "exit_latency":
				d.str(val, path, &st.ExitLatency)
			default:
				d.unknown(path)
			}
		})
		states = append(states, st)
	})
	return states, ok
}

func cacheColdField(c *CacheCold, key string) *string {
	switch key {
	case "smt":
		return &c.SMT
	case "cluster":
		return &c.Cluster
	case "llc":
		return &c.LLC
	case "package":
		return &c.Package
	case "numa":
		return &c.NUMA
	}
	return nil
}

func commField(c *Comm, key string) *string {
	switch key {
	case "same":
		return &c.Same
	case "smt":
		return &c.SMT
	case "cluster":
		return &c.Cluster
	case "llc":
		return &c.LLC
	case "package":
		return &c.Package
	case "numa":
		return &c.NUMA
	}
	return nil
}

func (d *decoder) policy(raw json.RawMessage, path string, p *Policy) {
	d.object(raw, path, func(key string, val json.RawMessage, path string) {
		switch key {
		case "base":
			d.str(val, path, &p.Base)
		case "load_metric":
			d.str(val, path, &p.LoadMetric)
		case "select_idle_sibling":
			d.str(val, path, &p.SelectIdleSibling)
		case "new_task_load":
			d.str(val, path, &p.NewTaskLoad)
		case "sd_flags":
			p.SDFlags = map[string]map[string]bool{}
			d.object(val, path, func(level string, val json.RawMessage, path string) {
				flags := map[string]bool{}
				d.object(val, path, func(flag string, val json.RawMessage, path string) {
					var on bool
					d.boolean(val, path, &on)
					flags[flag] = on
				})
				p.SDFlags[level] = flags
			})
		case "tunables":
			p.Tunables = map[string]Tunables{}
			d.object(val, path, func(level string, val json.RawMessage, path string) {
				var t Tunables
				d.object(val, path, func(key string, val json.RawMessage, path string) {
					switch key {
					case "imbalance_pct":
						d.intPtr(val, path, &t.ImbalancePct)
					case "busy_factor":
						d.intPtr(val, path, &t.BusyFactor)
					case "min_interval":
						d.str(val, path, &t.MinInterval)
					case "max_interval":
						d.str(val, path, &t.MaxInterval)
					case "cache_nice_tries":
						d.intPtr(val, path, &t.CacheNiceTries)
					default:
						d.unknown(path)
					}
				})
				p.Tunables[level] = t
			})
		case "migration_cost":
			d.str(val, path, &p.MigrationCost)
		case "base_slice":
			d.str(val, path, &p.BaseSlice)
		case "features":
			p.Features = map[string]bool{}
			d.object(val, path, func(name string, val json.RawMessage, path string) {
				var on bool
				d.boolean(val, path, &on)
				p.Features[name] = on
			})
		default:
			d.unknown(path)
		}
	})
}

func (d *decoder) tasks(raw json.RawMessage, path string, dst *[]Task) {
	tasks := []Task{}
	d.array(raw, path, MaxTaskGroups, "task groups", func(i int, val json.RawMessage, path string) {
		t := Task{Count: 1}
		d.object(val, path, func(key string, val json.RawMessage, path string) {
			switch key {
			case "name":
				d.str(val, path, &t.Name)
			case "count":
				d.integer(val, path, &t.Count)
			case "count_of":
				d.str(val, path, &t.CountOf)
			case "nice":
				d.integer(val, path, &t.Nice)
			case "cpus":
				d.str(val, path, &t.CPUs)
			case "start":
				d.str(val, path, &t.Start)
			case "loop":
				d.integer(val, path, &t.Loop)
			case "program":
				t.Program = d.program(val, path)
			default:
				d.unknown(path)
			}
		})
		tasks = append(tasks, t)
	})
	*dst = tasks
}

// program decodes a list of steps; each step is an object with exactly one
// of the keys run, sleep, timer, wake or wait (wake may add sync and fanout).
// Validate checks the one-of rule, so that a hand-built Step gets the same
// message.
func (d *decoder) program(raw json.RawMessage, path string) []Step {
	steps := []Step{}
	d.array(raw, path, MaxSteps, "steps", func(i int, val json.RawMessage, path string) {
		steps = append(steps, d.step(val, path))
	})
	return steps
}

func (d *decoder) step(raw json.RawMessage, path string) Step {
	var st Step
	d.object(raw, path, func(key string, val json.RawMessage, path string) {
		switch key {
		case "run", "sleep", "timer":
			dst := stepDuration(&st, key)
			d.str(val, path, dst)
			if *dst == "" && kindOf(val) == '"' {
				d.add(path, `"" is not a duration`)
			}
		case "wake":
			d.str(val, path, &st.Wake)
			if st.Wake == "" && kindOf(val) == '"' {
				d.add(path, "needs the name of the task to wake")
			}
		case "sync":
			d.boolean(val, path, &st.Sync)
		case "fanout":
			d.str(val, path, &st.Fanout)
		case "wait":
			d.boolean(val, path, &st.Wait)
			if !st.Wait && kindOf(val) == 't' {
				d.add(path, `must be true ("wait": false is not a step)`)
			}
		default:
			d.unknown(path)
		}
	})
	return st
}

func stepDuration(st *Step, key string) *string {
	switch key {
	case "run":
		return &st.Run
	case "sleep":
		return &st.Sleep
	case "timer":
		return &st.Timer
	}
	return nil
}
