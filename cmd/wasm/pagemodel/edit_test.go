package pagemodel

import (
	"math"
	"strings"
	"testing"

	"schedplay/scenarios"
)

func args(vals ...any) (func(int) float64, func(int) string) {
	num := func(i int) float64 {
		if i < len(vals) {
			if f, ok := vals[i].(float64); ok {
				return f
			}
		}
		return math.NaN()
	}
	str := func(i int) string {
		if i < len(vals) {
			if s, ok := vals[i].(string); ok {
				return s
			}
		}
		return ""
	}
	return num, str
}

func TestEditOp(t *testing.T) {
	sc, _ := scenarios.Preset("tbench-pairs")
	for _, c := range []struct {
		args  []any
		check func(s *scenarios.Scenario) bool
	}{
		{[]any{"renameTask", 0.0, "cli"}, func(s *scenarios.Scenario) bool { return s.Tasks[0].Name == "cli" }},
		{[]any{"addTask"}, func(s *scenarios.Scenario) bool { return len(s.Tasks) == 3 }},
		{[]any{"addStep", 1.0}, func(s *scenarios.Scenario) bool { return len(s.Tasks[1].Program) == 4 }},
		{[]any{"moveStep", 0.0, 0.0, 1.0}, func(s *scenarios.Scenario) bool { return s.Tasks[0].Program[0].Run == "" }},
		{[]any{"stepKind", 0.0, 0.0, "sleep"}, func(s *scenarios.Scenario) bool { return s.Tasks[0].Program[0].Sleep != "" }},
		{[]any{"dutyCycle", 0.0, "50", "2ms"}, func(s *scenarios.Scenario) bool { return s.Tasks[0].Program[0].Run == "1ms" }},
		{[]any{"addIdleState"}, func(s *scenarios.Scenario) bool { return len(s.Machine.Costs.IdleStates) > 0 }},
		{[]any{"removeTask", 1.0}, func(s *scenarios.Scenario) bool { return len(s.Tasks) == 1 }},
	} {
		num, str := args(c.args...)
		edit, err := EditOp(c.args[0].(string), num, str)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		s := sc.Clone()
		if err := edit(s); err != nil || !c.check(s) {
			t.Errorf("%v: %v %s", c.args, err, s.Canonical())
		}
	}
	for _, bad := range [][]any{{"fly"}, {"removeTask"}, {"removeTask", -1.0}, {"moveStep", 0.0, 0.0, 2.0}, {"renameTask", 0.5, "x"}} {
		num, str := args(bad...)
		if _, err := EditOp(bad[0].(string), num, str); err == nil || !strings.HasPrefix(err.Error(), "edit(") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}
