package scenarios

import (
	"strings"
	"testing"
)

// TestStructuredStepErrors: the version-2 steps are checked with paths,
// and their limits hold before anything runs.
func TestStructuredStepErrors(t *testing.T) {
	nest := func(depth int) string {
		s := `{"run":"1ms"}`
		for i := 0; i < depth; i++ {
			s = `{"repeat":2,"program":[` + s + `]}`
		}
		return s
	}
	many := make([]string, 0, 5)
	for i := 0; i < 5; i++ {
		body := strings.Repeat(`{"run":"1ms"},`, 60) + `{"run":"1ms"}`
		many = append(many, `{"repeat":2,"program":[`+body+`]}`)
	}
	for _, tc := range []struct {
		name, tasks string
		version     int
		want        string
	}{
		{"exec in version 1", `[{"name":"a","program":[{"run":"1ms"},{"exec":true}]}]`, 1, `tasks[0].program[1].exec: needs "version": 2`},
		{"repeat in version 1", `[{"name":"a","program":[{"repeat":2,"program":[{"run":"1ms"}]}]}]`, 1, `tasks[0].program[0].repeat: needs "version": 2`},
		{"count 0 in version 1", `[{"name":"a","program":[{"run":"1ms"}]},{"name":"b","count":0,"program":[{"run":"1ms"}]}]`, 1, `tasks[1].count: 0 needs "version": 2`},
		{"count 0 never forked", `[{"name":"a","program":[{"run":"1ms"}]},{"name":"b","count":0,"program":[{"run":"1ms"}]}]`, 2, `tasks[1].count: 0, and no fork step starts this group`},
		{"fork of a started group", `[{"name":"a","program":[{"run":"1ms"},{"fork":"a"}]}]`, 2, `tasks[0].program[1].fork: "a" must have count 0`},
		{"fork of nothing", `[{"name":"a","program":[{"run":"1ms"},{"fork":"zz"}]}]`, 2, `tasks[0].program[1].fork: "zz" is not the name of a task`},
		{"fork count too big", `[{"name":"a","program":[{"run":"1ms"},{"fork":"b","count":5000}]},{"name":"b","count":0,"program":[{"run":"1ms"}]}]`, 2, `tasks[0].program[1].count: 5000 is out of range 1..4096`},
		{"count on a run step", `[{"name":"a","program":[{"run":"1ms","count":2}]}]`, 2, `tasks[0].program[0].count: only a fork step has count`},
		{"wake of a forked group", `[{"name":"a","program":[{"run":"1ms"},{"fork":"b"},{"wake":"b"}]},{"name":"b","count":0,"program":[{"run":"1ms"}]}]`, 2, `tasks[0].program[2].wake: "b" has count 0`},
		{"two kinds", `[{"name":"a","program":[{"run":"1ms","exit":true}]}]`, 2, `tasks[0].program[0]: has run and exit`},
		{"untimed repeat body", `[{"name":"a","program":[{"run":"1ms"},{"repeat":3,"program":[{"exec":true}]}]}]`, 2, `tasks[0].program[1].program: needs a run, sleep or timer step`},
		{"empty repeat body", `[{"name":"a","program":[{"run":"1ms"},{"repeat":3,"program":[]}]}]`, 2, `tasks[0].program[1].program: a repeat needs a body`},
		{"repeat 0", `[{"name":"a","program":[{"repeat":0,"program":[{"run":"1ms"}]}]}]`, 2, `tasks[0].program[0].repeat: 0 is out of range`},
		{"nested 5 deep", `[{"name":"a","program":[` + nest(5) + `]}]`, 2, `tasks[0].program[0].program[0].program[0].program[0].program[0].program: repeat blocks nest more than 4 deep`},
		{"too many steps in all", `[{"name":"a","program":[` + strings.Join(many, ",") + `]}]`, 2, `the program has more than 256 steps, counting every repeat block's`},
	} {
		data := `{"version":` + itoa(tc.version) + `,"duration":"1s","tasks":` + tc.tasks + `}`
		_, err := Decode([]byte(data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Nested 4 deep is fine, and Set reaches into a body.
	s, err := Decode([]byte(`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[` + nest(4) + `]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := "tasks.a.program[0].program[0].program[0].program[0].program[0].run"
	if err := s.Set(p, "3ms"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get(p); v != "3ms" {
		t.Errorf("Get(%s) = %q", p, v)
	}
	if err := s.Set("tasks.a.program[0].program[0].program[0].program[0].program[0].program", `[{"run":"1ms"}]`); err == nil {
		t.Errorf("Set made a fifth level")
	}
}
