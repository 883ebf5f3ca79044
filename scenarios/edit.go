package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"schedplay/sim"
)

// Structural edits: what the page's editor does to a scenario besides
// setting one field. Each works on a copy and validates it; on error the
// scenario is unchanged. The editor names no field: it asks for these.

func (s *Scenario) edit(f func(c *Scenario) error) error {
	c := s.Clone()
	if err := f(c); err != nil {
		return err
	}
	c.normalize()
	if err := c.Validate(); err != nil {
		return err
	}
	*s = *c
	return nil
}

func (s *Scenario) taskIndex(i int) error {
	if i < 0 || i >= len(s.Tasks) {
		return &Error{Path: index("tasks", i), Problem: fmt.Sprintf("no task at index %d (there are %d tasks)", i, len(s.Tasks))}
	}
	return nil
}

// RenameTask renames task group i and every reference to it (count_of,
// wake steps).
func (s *Scenario) RenameTask(i int, name string) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		old := c.Tasks[i].Name
		c.Tasks[i].Name = name
		for t := range c.Tasks {
			if c.Tasks[t].CountOf == old {
				c.Tasks[t].CountOf = name
			}
			for j := range c.Tasks[t].Program {
				if st := &c.Tasks[t].Program[j]; st.Wake == old {
					st.Wake = name
				}
			}
		}
		return nil
	})
}

// RemoveTask removes task group i with the references that point at it: a
// group that took its count from it keeps that count as its own, and wake
// steps that woke it go.
func (s *Scenario) RemoveTask(i int) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		gone := c.Tasks[i]
		c.Tasks = append(c.Tasks[:i], c.Tasks[i+1:]...)
		for t := range c.Tasks {
			tk := &c.Tasks[t]
			if tk.CountOf == gone.Name {
				tk.CountOf, tk.Count = "", gone.Count
			}
			prog := tk.Program[:0]
			for _, st := range tk.Program {
				if st.Wake != gone.Name {
					prog = append(prog, st)
				}
			}
			tk.Program = prog
		}
		return nil
	})
}

// AddTask appends a task group with a fresh name ("task2") running 20% of
// every 10 ms.
func (s *Scenario) AddTask() error {
	return s.edit(func(c *Scenario) error {
		taken := map[string]bool{}
		for _, t := range c.Tasks {
			taken[t.Name] = true
		}
		n := len(c.Tasks)
		for taken["task"+strconv.Itoa(n)] {
			n++
		}
		c.Tasks = append(c.Tasks, Task{Name: "task" + strconv.Itoa(n), Count: 1, Program: []Step{{Run: "2ms"}, {Timer: "10ms"}}})
		return nil
	})
}

// AddStep appends a step (a 1 ms sleep) to task group i's program.
func (s *Scenario) AddStep(i int) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		c.Tasks[i].Program = append(c.Tasks[i].Program, Step{Sleep: "1ms"})
		return nil
	})
}

// MoveStep moves step j of group i by d places (-1 up, +1 down); d = 0
// removes it.
func (s *Scenario) MoveStep(i, j, d int) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		prog := c.Tasks[i].Program
		path := index(join(index("tasks", i), "program"), j)
		if j < 0 || j >= len(prog) {
			return &Error{Path: path, Problem: fmt.Sprintf("no step at index %d (the program has %d)", j, len(prog))}
		}
		if d == 0 {
			c.Tasks[i].Program = append(prog[:j], prog[j+1:]...)
			return nil
		}
		k := j + d
		if k < 0 || k >= len(prog) {
			return &Error{Path: path, Problem: "cannot move past the end of the program"}
		}
		prog[j], prog[k] = prog[k], prog[j]
		return nil
	})
}

// SetStepKind makes step j of group i a step of kind (run, sleep, timer,
// wake, wait, and in version 2 exec, fork, wait_children, exit, repeat),
// keeping its duration where the new kind has one (a repeat's body runs it),
// and waking or forking the first group for a wake or a fork.
func (s *Scenario) SetStepKind(i, j int, kind string) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		path := index(join(index("tasks", i), "program"), j)
		if j < 0 || j >= len(c.Tasks[i].Program) {
			return &Error{Path: path, Problem: "no such step"}
		}
		st := c.Tasks[i].Program[j]
		d := st.Run + st.Sleep + st.Timer
		if d == "" {
			d = "1ms"
		}
		value := map[string]string{"run": d, "sleep": d, "timer": d, "wake": c.Tasks[0].Name, "wait": "true",
			"exec": "true", "fork": c.Tasks[0].Name, "wait_children": "true", "exit": "true", "repeat": "2",
			"lock": "m", "unlock": "m", "cond_wait": "c", "signal": "c", "broadcast": "c", "barrier": "b"}[kind]
		if value == "" {
			return &Error{Path: path, Problem: fmt.Sprintf("%s is not a step kind (%s)", quote(kind), stepKindList())}
		}
		if err := c.set(join(path, kind), value); err != nil {
			return err
		}
		if kind == "cond_wait" {
			return c.set(join(path, "mutex"), "m")
		}
		if kind == "repeat" {
			// A block needs a body with time in it: the step's duration as a run.
			return c.set(join(path, "program"), `[{"run":"`+d+`"}]`)
		}
		return nil
	})
}

// StepKinds are the keys of which a step has exactly one, in table order.
func StepKinds() []string {
	var out []string
	for _, f := range Fields() {
		if f.OneOf == "step" {
			out = append(out, lastKey(f.Path))
		}
	}
	return out
}

func stepKindList() string {
	s := ""
	for i, k := range StepKinds() {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}

// SetDutyCycle makes group i's program the common periodic task: run pct
// percent (more than 0, at most 100) of every period (a duration), the
// run rounded to whole microseconds and at least 1us.
func (s *Scenario) SetDutyCycle(i int, pct float64, period string) error {
	return s.edit(func(c *Scenario) error {
		if err := c.taskIndex(i); err != nil {
			return err
		}
		path := join(index("tasks", i), "program")
		if !(pct > 0 && pct <= 100) {
			return &Error{Path: path, Problem: "the duty cycle is a percentage: more than 0, at most 100"}
		}
		per, err := time.ParseDuration(period)
		if err != nil || per <= 0 {
			return &Error{Path: path, Problem: quote(period) + " is not a duration (for example 10ms)"}
		}
		run := time.Duration(math.Max(1000, math.Round(float64(per)*pct/100/1000)*1000))
		c.Tasks[i].Program = []Step{{Run: FormatDuration(int64(run))}, {Timer: FormatDuration(int64(per))}}
		return nil
	})
}

// DutyCycle is group i's duty cycle in percent and its period, when its
// program is [run, timer]; ok is false otherwise.
func (s *Scenario) DutyCycle(i int) (pct float64, period string, ok bool) {
	if i < 0 || i >= len(s.Tasks) {
		return 0, "", false
	}
	p := s.Tasks[i].Program
	if len(p) != 2 || p[0].Run == "" || p[1].Timer == "" {
		return 0, "", false
	}
	r, err1 := time.ParseDuration(p[0].Run)
	t, err2 := time.ParseDuration(p[1].Timer)
	if err1 != nil || err2 != nil || t <= 0 {
		return 0, "", false
	}
	return math.Round(float64(r)/float64(t)*1000) / 10, p[1].Timer, true
}

// ownIdleStates makes the default C-states the scenario's own, written out,
// when it has none of its own (nil: the defaults; an empty list, "no
// C-states", is the user's and stays). An edit of one state of a scenario
// that ran on the defaults (AddIdleState, Set of idle_states[i].field) then
// starts from the table the scenario was running, not from nothing.
func (s *Scenario) ownIdleStates() {
	if s.Machine.Costs.IdleStates != nil {
		return
	}
	states := []IdleState{}
	for _, d := range sim.DefaultCosts().IdleStates {
		states = append(states, IdleState{Name: d.Name, After: FormatDuration(d.After), ExitLatency: FormatDuration(d.ExitLatency), Package: d.Package, Polls: d.Polls, Flushes: d.Flushes})
	}
	s.Machine.Costs.IdleStates = states
}

// AddIdleState appends a C-state entered ten times later than the deepest
// (1 ms after the first), with the same exit latency; the scenario's idle
// states become its own (a copy of the defaults first, when it had none).
func (s *Scenario) AddIdleState() error {
	return s.edit(func(c *Scenario) error {
		c.ownIdleStates()
		states := c.Machine.Costs.IdleStates
		st := IdleState{Name: "C" + strconv.Itoa(len(states)), After: "0s", ExitLatency: "1us"}
		if n := len(states); n > 0 {
			last := states[n-1]
			after, _ := time.ParseDuration(last.After)
			next := after * 10
			if next == 0 {
				next = time.Millisecond
			}
			st.After, st.ExitLatency = FormatDuration(int64(next)), last.ExitLatency
			st.Polls = last.Polls     // a deeper MWAIT state polls as the one before it
			st.Flushes = last.Flushes // and flushes the core's caches if it did
		}
		c.Machine.Costs.IdleStates = append(states, st)
		return nil
	})
}

// FormatDuration writes ns the way scenario files do, in the largest unit
// that keeps it whole: "0s", "2s", "1500us", "20us", "40ns".
func FormatDuration(ns int64) string {
	switch {
	case ns == 0:
		return "0s"
	case ns%1e9 == 0:
		return strconv.FormatInt(ns/1e9, 10) + "s"
	case ns%1e6 == 0:
		return strconv.FormatInt(ns/1e6, 10) + "ms"
	case ns%1e3 == 0:
		return strconv.FormatInt(ns/1e3, 10) + "us"
	}
	return strconv.FormatInt(ns, 10) + "ns"
}
