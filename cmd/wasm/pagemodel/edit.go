package pagemodel

import (
	"fmt"
	"math"

	"schedplay/scenarios"
)

// EditOp turns the page's edit(op, ...args) into a structural edit of the
// scenario (the scenarios package does it): num(i) and str(i) read argument
// i (NaN and "" when it is missing or of another type).
func EditOp(op string, num func(int) float64, str func(int) string) (func(*scenarios.Scenario) error, error) {
	idx := func(i int) (int, error) {
		v := num(i)
		if math.IsNaN(v) || v != math.Trunc(v) || v < 0 || v > scenarios.MaxTaskGroups*scenarios.MaxSteps {
			return 0, fmt.Errorf("edit(%q): argument %d must be an index", op, i)
		}
		return int(v), nil
	}
	ints := func(n int) ([]int, error) {
		out := make([]int, n)
		for i := range out {
			v, err := idx(i + 1)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	switch op {
	case "renameTask":
		a, err := ints(1)
		if err != nil {
			return nil, err
		}
		name := str(2)
		return func(s *scenarios.Scenario) error { return s.RenameTask(a[0], name) }, nil
	case "removeTask":
		a, err := ints(1)
		if err != nil {
			return nil, err
		}
		// With what names it (RemoveGroup): the page asks first.
		return func(s *scenarios.Scenario) error { return RemoveGroup(s, a[0]) }, nil
	case "addTask":
		return (*scenarios.Scenario).AddTask, nil
	case "addStep":
		a, err := ints(1)
		if err != nil {
			return nil, err
		}
		return func(s *scenarios.Scenario) error { return s.AddStep(a[0]) }, nil
	case "moveStep":
		a, err := ints(2)
		if err != nil {
			return nil, err
		}
		d := num(3)
		if d != -1 && d != 0 && d != 1 {
			return nil, fmt.Errorf("edit(%q): the move is -1, 0 (remove) or 1", op)
		}
		return func(s *scenarios.Scenario) error { return s.MoveStep(a[0], a[1], int(d)) }, nil
	case "stepKind":
		a, err := ints(2)
		if err != nil {
			return nil, err
		}
		kind := str(3)
		return func(s *scenarios.Scenario) error { return s.SetStepKind(a[0], a[1], kind) }, nil
	case "dutyCycle":
		a, err := ints(1)
		if err != nil {
			return nil, err
		}
		pct, period := num(2), str(3)
		if math.IsNaN(pct) {
			if v, perr := parsePct(str(2)); perr == nil {
				pct = v
			}
		}
		return func(s *scenarios.Scenario) error { return s.SetDutyCycle(a[0], pct, period) }, nil
	case "addIdleState":
		return (*scenarios.Scenario).AddIdleState, nil
	}
	return nil, fmt.Errorf("edit(%q): no such operation", op)
}

// parsePct reads a percentage typed in a text field ("33.3", "50 %").
func parsePct(s string) (float64, error) {
	var v float64
	_, err := fmt.Sscanf(s, "%g", &v)
	return v, err
}
