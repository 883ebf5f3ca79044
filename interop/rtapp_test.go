package interop

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// indentJSON is how goldens (and the CLI) print a scenario.
func indentJSON(t testing.TB, s *scenarios.Scenario) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, s.Canonical(), "", "  "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func problemText(ps []Problem) []byte {
	var b bytes.Buffer
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.Bytes()
}

func TestRTAppGolden(t *testing.T) {
	for _, name := range []string{"rtapp-periodic", "rtapp-phases", "rtapp-unsupported"} {
		t.Run(name, func(t *testing.T) {
			s, probs, err := ImportRTApp(readTestdata(t, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".scenario.json", indentJSON(t, s))
			golden(t, name+".problems", problemText(probs))
		})
	}
}

// Everything the mp3 example does that a scenario cannot is reported by
// its path in the file, and nothing else is.
func TestRTAppReportsWhatItDrops(t *testing.T) {
	_, probs, err := ImportRTApp(readTestdata(t, "rtapp-unsupported.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"tasks.loader.mem", "tasks.loader.iorun", "tasks.loader.yield", "tasks.loader.util_min",
		"tasks.watchdog.policy", "tasks.watchdog.fork",
		"tasks.AudioTick.phases.p1.resume", "machine",
	}
	got := map[string]bool{}
	for _, p := range probs {
		got[p.Path] = true
		if p.Message == "" {
			t.Errorf("%s: empty message", p.Path)
		}
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("no problem reported at %s", w)
		}
	}
	for p := range got {
		found := false
		for _, w := range want {
			found = found || p == w
		}
		if !found {
			t.Errorf("unexpected problem at %s", p)
		}
	}
}

// The acceptance test of the issue: a periodic rt-app task, imported and
// run alone on an idle machine, keeps its duty cycle.
func TestRTAppDutyCycleRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		run, period int64 // us
		base        string
	}{{5000, 20000, "v6.17"}, {5000, 20000, "v3.8"}, {1000, 10000, "v6.17"}, {30000, 40000, "v3.8"}} {
		js := `{"tasks": {"thread0": {"instance": 1, "loop": -1, "run": ` + itoa(int(tc.run)) +
			`, "timer": {"ref": "unique", "period": ` + itoa(int(tc.period)) + `}}}, "global": {"duration": 2}}`
		s, _, err := ImportRTApp([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set("policy.base", tc.base); err != nil {
			t.Fatal(err)
		}
		sm := simOf(t, s)
		sm.Run()
		m := sm.Metrics()
		want := float64(tc.run) / float64(tc.period)
		got := m.Tasks[0].CPUMS / m.SimMS
		if math.Abs(got-want)/want > 0.03 {
			t.Errorf("run %dus every %dus (%s): duty cycle %.4f, want %.4f within 3%%", tc.run, tc.period, tc.base, got, want)
		}
		if periods := float64(m.SimMS) * 1000 / float64(tc.period); math.Abs(float64(m.Tasks[0].Ops)-periods) > 1 {
			t.Errorf("%d periods completed in %.0f ms, want about %.0f", m.Tasks[0].Ops, m.SimMS, periods)
		}
	}
	// The file in testdata, as the CLI would read it.
	s, _, err := ImportRTApp(readTestdata(t, "rtapp-periodic.json"))
	if err != nil {
		t.Fatal(err)
	}
	sm := simOf(t, s)
	sm.Run()
	m := sm.Metrics()
	if got := m.Tasks[0].CPUMS / m.SimMS; math.Abs(got-0.25) > 0.25*0.03 {
		t.Errorf("rtapp-periodic.json: duty cycle %.4f, want 0.25", got)
	}
	// thread1 of the phases file loops 5 times and exits.
	s, _, _ = ImportRTApp(readTestdata(t, "rtapp-phases.json"))
	sm = simOf(t, s)
	sm.Run()
	for _, tm := range sm.Metrics().Tasks {
		if tm.Name == "thread1/0" && tm.Ops != 5 {
			t.Errorf("thread1 completed %d loops, the file says 5", tm.Ops)
		}
	}
}

func TestRTAppMapping(t *testing.T) {
	type check func(t *testing.T, s *scenarios.Scenario, probs []Problem)
	hasProblem := func(path, substr string) check {
		return func(t *testing.T, _ *scenarios.Scenario, probs []Problem) {
			t.Helper()
			for _, p := range probs {
				if p.Path == path && strings.Contains(p.Message, substr) {
					return
				}
			}
			t.Errorf("no problem %s: ...%s... in\n%s", path, substr, problemText(probs))
		}
	}
	noProblem := func(substr string) check {
		return func(t *testing.T, _ *scenarios.Scenario, probs []Problem) {
			t.Helper()
			for _, p := range probs {
				if strings.Contains(p.Message, substr) {
					t.Errorf("unexpected problem %s: %s", p.Path, p.Message)
				}
			}
		}
	}
	task := func(i int, want string) check {
		return func(t *testing.T, s *scenarios.Scenario, _ []Problem) {
			t.Helper()
			b, _ := json.Marshal(s.Tasks[i])
			if string(b) != want {
				t.Errorf("task %d:\n got %s\nwant %s", i, b, want)
			}
		}
	}
	field := func(name string, f func(*scenarios.Scenario) any, want any) check {
		return func(t *testing.T, s *scenarios.Scenario, _ []Problem) {
			t.Helper()
			if got := f(s); got != want {
				t.Errorf("%s = %v, want %v", name, got, want)
			}
		}
	}
	ntasks := func(n int) check { return field("tasks", func(s *scenarios.Scenario) any { return len(s.Tasks) }, n) }
	dur := func(d string) check {
		return field("duration", func(s *scenarios.Scenario) any { return s.Duration }, d)
	}
	cases := []struct {
		name   string
		in     string
		checks []check
	}{
		{"comments, trailing commas, repeated keys in order",
			`{ // a line comment
			  "tasks": { "t": { "run": 1000, /* block */ "sleep": 2000, "run": 3000, "sleep": 4000, }, },
			  "global": { "duration": 3, },
			}`,
			[]check{dur("3s"), task(0, `{"name":"t","count":1,"program":[{"run":"1ms"},{"sleep":"2ms"},{"run":"3ms"},{"sleep":"4ms"}]}`)}},
		{"numbered event keys, runtime, loop and delay",
			`{"tasks": {"t": {"loop": 7, "delay": 1500, "runtime0": 250, "sleep1": 750, "timer2": {"ref": "x", "period": 5000}}}}`,
			[]check{task(0, `{"name":"t","count":1,"start":"1500us","loop":7,"program":[{"run":"250us"},{"sleep":"750us"},{"timer":"5ms"}]}`),
				dur("10s"), hasProblem("machine", "describe no machine")}},
		{"duration forever", `{"tasks": {"t": {"run": 10, "sleep": 10}}, "global": {"duration": -1}}`,
			[]check{dur("10s"), hasProblem("global.duration", "needs a duration")}},
		{"duration too long", `{"tasks": {"t": {"run": 10, "sleep": 10}}, "global": {"duration": 3600}}`,
			[]check{dur("600s"), hasProblem("global.duration", "capped at 600s")}},
		{"policies and priorities",
			`{"global": {"default_policy": "SCHED_BATCH"}, "tasks": {
				"a": {"priority": 5, "run": 10, "sleep": 10},
				"b": {"policy": "SCHED_IDLE", "run": 10, "sleep": 10},
				"c": {"policy": "SCHED_OTHER", "priority": -30, "run": 10, "sleep": 10},
				"d": {"policy": "SCHED_FIFO", "priority": 50, "run": 10, "sleep": 10}}}`,
			[]check{
				field("a.nice", func(s *scenarios.Scenario) any { return s.Tasks[0].Nice }, 5),
				field("b.nice", func(s *scenarios.Scenario) any { return s.Tasks[1].Nice }, 19),
				field("c.nice", func(s *scenarios.Scenario) any { return s.Tasks[2].Nice }, -20),
				field("d.nice", func(s *scenarios.Scenario) any { return s.Tasks[3].Nice }, 0),
				hasProblem("global.default_policy", "SCHED_BATCH runs as SCHED_OTHER (batch tasks' wake-up preemption rules are not modelled) (task a)"),
				hasProblem("tasks.b.policy", "nice 19"),
				hasProblem("tasks.c.priority", "out of range"),
				hasProblem("tasks.d.policy", "real-time classes are not modelled"),
			}},
		{"suspend and resume (rt-app's example4)",
			`{"tasks": {"thread0": {"loop": -1, "run": 10000, "resume": "thread1", "suspend": "thread0"},
			            "thread1": {"loop": -1, "run": 10000, "resume": "thread0", "suspend": "thread1"}}}`,
			[]check{task(0, `{"name":"thread0","count":1,"program":[{"run":"10ms"},{"wake":"thread1","fanout":"index"},{"wait":true}]}`),
				hasProblem("tasks.thread0.resume", "lost if nobody is suspended")}},
		{"resume every instance",
			`{"tasks": {"w": {"run": 100, "resume": "s", "sleep": 900}, "s": {"instance": 3, "suspend": "s", "run": 50}}}`,
			[]check{task(0, `{"name":"w","count":1,"program":[{"run":"100us"},{"wake":"s","fanout":"all"},{"sleep":"900us"}]}`)}},
		{"semaphores",
			`{"tasks": {"producer": {"run": 100, "sem_post": "items", "sleep": 400},
			            "consumer": {"instance": 2, "sem_wait": "items", "run": 300},
			            "lonely": {"run": 10, "sem_post": "nobody", "sleep": 90}}}`,
			[]check{task(0, `{"name":"producer","count":1,"program":[{"run":"100us"},{"wake":"consumer","fanout":"one"},{"sleep":"400us"}]}`),
				task(1, `{"name":"consumer","count":2,"program":[{"wait":true},{"run":"300us"}]}`),
				hasProblem("tasks.lonely.sem_post", "no imported task waits on semaphore")}},
		{"instance 0 and the resume of a dropped task",
			`{"tasks": {"a": {"instance": 0, "run": 10, "sleep": 10}, "b": {"run": 10, "resume": "a", "sleep": 10},
			            "c": {"lock": "m", "unlock": "m"}}}`,
			[]check{ntasks(1), hasProblem("tasks.a.instance", "creates no thread"), hasProblem("tasks.b.resume", `"a" is not a task`),
				hasProblem("tasks.c", "no run, sleep or timer left"), task(0, `{"name":"b","count":1,"program":[{"run":"10us"},{"sleep":"10us"}]}`)}},
		{"a task that only waits is dropped, then the wakes of it",
			`{"tasks": {"a": {"suspend": "a"}, "b": {"run": 10, "resume": "a", "sleep": 10}}}`,
			[]check{ntasks(1), hasProblem("tasks.a", "no run, sleep or timer left"), hasProblem("tasks.b.resume", "wakes a task that was dropped")}},
		{"phases as repeat blocks",
			`{"tasks": {"t": {"loop": 3, "phases": {
				"p1": {"loop": 2, "run": 1000, "sleep": 1000},
				"p2": {"run": 5000, "timer": {"ref": "unique", "period": 10000}}}}}}`,
			[]check{task(0, `{"name":"t","count":1,"loop":3,"program":[{"repeat":2,"program":[{"run":"1ms"},{"sleep":"1ms"}]},{"run":"5ms"},{"timer":"10ms"}]}`),
				field("version", func(s *scenarios.Scenario) any { return s.Version }, 2)}},
		{"a 300-iteration phase is one block, without a truncation warning",
			`{"tasks": {"t": {"phases": {
				"warm": {"loop": 300, "run": 1000, "sleep": 1000},
				"hot": {"run": 5000, "sleep": 100}}}}}`,
			[]check{task(0, `{"name":"t","count":1,"program":[{"repeat":300,"program":[{"run":"1ms"},{"sleep":"1ms"}]},{"run":"5ms"},{"sleep":"100us"}]}`),
				noProblem("unrolled"), noProblem("do not fit")}},
		{"a looping phase that takes no time is unrolled as far as it fits",
			`{"tasks": {"t": {"phases": {
				"post": {"loop": 100, "resume": "u"},
				"work": {"run": 5000, "sleep": 100}}},
			  "u": {"suspend": "u", "run": 10}}}`,
			[]check{hasProblem("tasks.t.phases.post.loop", "unrolled only 62 times"),
				field("steps", func(s *scenarios.Scenario) any { return len(s.Tasks[0].Program) }, 64)}},
		{"a phase that loops forever",
			`{"tasks": {"t": {"phases": {"a": {"loop": -1, "run": 10, "sleep": 10}, "b": {"run": 20, "sleep": 20}}}}}`,
			[]check{hasProblem("tasks.t.phases.a.loop", "never run"), task(0, `{"name":"t","count":1,"program":[{"run":"10us"},{"sleep":"10us"}]}`)}},
		{"per-phase changes", `{"tasks": {"t": {"cpus": [0], "phases": {"a": {"cpus": [1], "priority": 3, "run": 10, "sleep": 10}}}}}`,
			[]check{hasProblem("tasks.t.phases.a.cpus", "affinity changes per phase"), hasProblem("tasks.t.phases.a.priority", "per phase")}},
		{"affinity widens the default machine",
			`{"tasks": {"t": {"cpus": [7, 0, 3, 2], "run": 10, "sleep": 10}}}`,
			[]check{task(0, `{"name":"t","count":1,"cpus":"0,2-3,7","program":[{"run":"10us"},{"sleep":"10us"}]}`),
				field("cores", func(s *scenarios.Scenario) any { return s.Machine.CoresPerCluster }, 8)}},
		{"timers", `{"tasks": {"t": {"run": 10, "timer": {"ref": "a", "period": 5}, "timer1": {"ref": "b", "period": 40, "mode": "absolute"}, "timer2": {"ref": "c"}}}}`,
			[]check{task(0, `{"name":"t","count":1,"program":[{"run":"10us"},{"timer":"10us"},{"timer":"40us"}]}`),
				hasProblem("tasks.t.timer.period", "shorter than the shortest timer"), hasProblem("tasks.t", "timers with different periods")}},
		{"names", `{"tasks": {"my task!": {"run": 10, "sleep": 10}, "my_task_": {"run": 10, "sleep": 10}, "a-very-long-name-that-goes-on-and-on-and-on": {"run": 1, "sleep": 1}}}`,
			[]check{field("name0", func(s *scenarios.Scenario) any { return s.Tasks[0].Name }, "my_task_"),
				field("name1", func(s *scenarios.Scenario) any { return s.Tasks[1].Name }, "my_task_-2"),
				field("name2", func(s *scenarios.Scenario) any { return s.Tasks[2].Name }, "a-very-long-name-that-goes-on-an"),
				hasProblem(`tasks["my task!"]`, `named "my_task_"`)}},
		{"bad values", `{"tasks": {"t": {"run": 1.5, "sleep": -3, "run1": "10", "sleep1": 10, "instance": "2", "foo": 1}}, "bar": {}}`,
			[]check{task(0, `{"name":"t","count":1,"program":[{"sleep":"10us"}]}`),
				hasProblem("tasks.t.run", "not an integer"), hasProblem("tasks.t.sleep", "negative"), hasProblem("tasks.t.run1", "not an integer"),
				hasProblem("tasks.t.instance", "not a thread count"), hasProblem("tasks.t.foo", "unknown key"), hasProblem("bar", "unknown top-level key")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, probs, err := ImportRTApp([]byte(tc.in))
			if err != nil {
				t.Fatalf("%v\n%s", err, problemText(probs))
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, c := range tc.checks {
				c(t, s, probs)
			}
		})
	}
}

func TestRTAppOnAGivenMachine(t *testing.T) {
	m := scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 2, HZ: 250, Numbering: "x86"}
	s, probs, err := ImportRTAppWith([]byte(`{"tasks": {"a": {"cpus": [1, 3, 9], "run": 10, "sleep": 10}, "b": {"cpus": [8], "run": 10, "sleep": 10}}}`), RTAppOptions{Machine: &m})
	if err != nil {
		t.Fatal(err)
	}
	if s.Machine.HZ != 250 || s.Machine.Numbering != "x86" || s.Tasks[0].CPUs != "1,3" || s.Tasks[1].CPUs != "" {
		t.Errorf("machine %+v, cpus %q %q", s.Machine, s.Tasks[0].CPUs, s.Tasks[1].CPUs)
	}
	text := string(problemText(probs))
	if !strings.Contains(text, "tasks.a.cpus: the machine has 4 CPUs: 9 dropped") || !strings.Contains(text, "tasks.b.cpus: the machine has 4 CPUs and none of 8") ||
		strings.Contains(text, "describe no machine") {
		t.Errorf("problems:\n%s", text)
	}
}

func TestRTAppRefusesWhatIsNotRTApp(t *testing.T) {
	for _, in := range []string{``, `[1, 2]`, `{"tasks": [1]}`, `{"global": {}}`, `{"tasks": {"a": {"run": 10}`, `{"tasks": {}} x`,
		`{"tasks": {"t": {"lock": "m"}}}`, strings.Repeat("[", 100) + strings.Repeat("]", 100)} {
		if s, _, err := ImportRTApp([]byte(in)); err == nil {
			t.Errorf("%.40q imported: %+v", in, s)
		}
	}
	if _, _, err := ImportRTApp(bytes.Repeat([]byte(" "), MaxRTAppBytes+1)); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("an oversized file: %v", err)
	}
	_, _, err := ImportRTApp([]byte("{\n\"tasks\": {\n\"a\": {\"run\": 10,,}}}"))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a syntax error should name its line: %v", err)
	}
}
