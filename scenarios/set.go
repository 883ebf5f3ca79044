package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
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
// and objects (idle_states, program, program[i], tasks[i], policy.sd_flags.MC,
// machine.costs, ...) take JSON. An index into machine.costs.idle_states
// while the scenario runs on the default C-states writes them out first
// (ownIdleStates). An empty value restores the
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

// shorten cuts a user's value for an error message, and quotes it (Go
// syntax) when it holds anything but printable characters, so control and
// bidirectional characters are shown as escapes instead of acting on the
// terminal or the page.
func shorten(v string) string {
	if len(v) > 64 {
		v = strings.ToValidUTF8(v[:64], "") + "..."
	}
	for _, r := range v {
		if !unicode.IsPrint(r) || isBidiControl(r) {
			return strconv.QuoteToGraphic(v)
		}
	}
	return v
}

// setter parses a value into one field.
type setter struct {
	path string
}

func (st setter) err(problem string) error { return &Error{Path: st.path, Problem: problem} }

func (st setter) unknown() error {
	return st.err("unknown path (`schedsim fields` lists the paths)")
}

func (st setter) boolean(v string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, st.err(quote(v) + " is not true or false")
	}
	return b, nil
}
