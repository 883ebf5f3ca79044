package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"schedplay/sim"
	"strings"
	"testing"
)

func TestPresetsDecode(t *testing.T) {
	infos := Presets()
	if len(infos) < 2 {
		t.Fatalf("Presets() = %v, want at least pelt-pingpong and tbench-pairs", infos)
	}
	for i, info := range infos {
		if i > 0 && infos[i-1].Name >= info.Name {
			t.Errorf("Presets() not sorted: %q before %q", infos[i-1].Name, info.Name)
		}
		s, err := Preset(info.Name)
		if err != nil {
			t.Errorf("preset %s: %v", info.Name, err)
			continue
		}
		if info.Title == "" || info.Title != s.Title || info.Description != s.Description {
			t.Errorf("preset %s: info %+v does not match the scenario's title/description", info.Name, info)
		}
		if s.Description == "" {
			t.Errorf("preset %s has no description", info.Name)
		}
		if _, err := s.Config(); err != nil {
			t.Errorf("preset %s: Config: %v", info.Name, err)
		}
	}
	if _, err := Preset(DefaultPreset); err != nil {
		t.Errorf("DefaultPreset %q: %v", DefaultPreset, err)
	}
	if _, err := Preset("no-such-preset"); err == nil || !strings.Contains(err.Error(), "tbench-pairs") {
		t.Errorf("Preset(no-such-preset) = %v, want an error listing the presets", err)
	}
}

func TestPresetIsACopy(t *testing.T) {
	a, _ := Preset("tbench-pairs")
	a.Tasks[0].Program[0].Run = "1s"
	a.Policy.SDFlags = map[string]map[string]bool{"MC": {"SD_BALANCE_WAKE": true}}
	b, _ := Preset("tbench-pairs")
	if b.Tasks[0].Program[0].Run != "20us" || b.Policy.SDFlags != nil {
		t.Fatalf("changing one Preset() result changed the next: %+v", b.Tasks[0].Program[0])
	}
}

func TestCanonicalRoundTrip(t *testing.T) {
	inputs := map[string]string{"minimal": minimal, "kitchen sink": kitchenSink}
	for _, p := range Presets() {
		data, err := presetFS.ReadFile(p.Name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		inputs["preset "+p.Name] = string(data)
	}
	// Explicit empty lists and maps mean something different from absent
	// ones (idle_states) or nothing at all; either way they must survive.
	inputs["empty idle states"] = patch(t, minimal, "machine.costs", `{"idle_states": []}`)
	inputs["empty maps"] = patch(t, minimal, "policy", `{"sd_flags": {"MC": {}}, "features": {}, "tunables": {"SMT": {}}}`)
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			s := mustDecode(t, in)
			c1 := s.Canonical()
			s2 := mustDecode(t, string(c1))
			if !reflect.DeepEqual(withoutView(s), s2) {
				t.Fatalf("Decode(Canonical(s)) != s\n s: %#v\ns2: %#v", s, s2)
			}
			if c2 := s2.Canonical(); !bytes.Equal(c1, c2) {
				t.Fatalf("Canonical not idempotent:\n%s\n%s", c1, c2)
			}
			if c3 := s.Clone().Canonical(); !bytes.Equal(c1, c3) {
				t.Fatalf("Clone changed the canonical form:\n%s\n%s", c1, c3)
			}
		})
	}
}

func TestCanonicalForm(t *testing.T) {
	s := mustDecode(t, patch(t, minimal, "tasks[0].program", `[{"wait":true},{"run":"1ms"},{"wake":"a"}]`))
	got := string(s.Canonical())
	want := `{"version":1,"title":"","seed":1,"duration":"1s",` +
		`"machine":{"nodes":1,"sockets_per_node":1,"llcs_per_socket":1,"clusters_per_llc":1,"cores_per_cluster":2,"threads_per_core":1,"hz":1000,"numbering":"linear"},` +
		`"policy":{"base":"v6.17"},` +
		`"tasks":[{"name":"a","count":1,"program":[{"wait":true},{"run":"1ms"},{"wake":"a","fanout":"index"}]}]}`
	if got != want {
		t.Fatalf("Canonical:\n got %s\nwant %s", got, want)
	}
	// Key order in the input does not matter; neither does whitespace.
	reordered := `{ "tasks":[{"program":[{"wait":true},{"run":"1ms"},{"fanout":"index","wake":"a"}],"name":"a"}],
		"duration":"1s", "version":1, "policy":{}, "machine":{"numbering":"linear"} }`
	if got2 := string(mustDecode(t, reordered).Canonical()); got2 != want {
		t.Fatalf("Canonical of a reordered file:\n got %s\nwant %s", got2, want)
	}
	// A hand-built scenario with empty enums gets the same spelling.
	hand := &Scenario{Version: 1, Seed: 1, Duration: "1s", Machine: defaultMachine(),
		Tasks: []Task{{Name: "a", Count: 1, Program: []Step{{Wait: true}, {Run: "1ms"}, {Wake: "a"}}}}}
	hand.Machine.Numbering = ""
	if got3 := string(hand.Canonical()); got3 != want {
		t.Fatalf("Canonical of a hand-built scenario:\n got %s\nwant %s", got3, want)
	}
}

func TestDecodeDefaults(t *testing.T) {
	s := mustDecode(t, minimal)
	want := Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Numbering: "linear"}
	if !reflect.DeepEqual(s.Machine, want) {
		t.Errorf("default machine = %+v, want %+v", s.Machine, want)
	}
	if s.Seed != 1 || s.Policy.Base != "v6.17" || s.Tasks[0].Count != 1 {
		t.Errorf("defaults: seed %d base %q count %d", s.Seed, s.Policy.Base, s.Tasks[0].Count)
	}
	if s.Machine.Costs.IdleStates != nil {
		t.Errorf("absent idle_states decoded as %#v, want nil", s.Machine.Costs.IdleStates)
	}
	s = mustDecode(t, patch(t, minimal, "seed", "0"))
	if s.Seed != 0 {
		t.Errorf("explicit seed 0 decoded as %d", s.Seed)
	}
}

// decodeErrorCases: each input must fail with a message containing every
// one of the wanted lines.
func decodeErrorCases(t *testing.T) []struct {
	name string
	in   string
	want []string
} {
	p := func(path, raw string) string { return patch(t, minimal, path, raw) }
	many := func(n int, elem string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(elem+",", n), ",") + "]"
	}
	return []struct {
		name string
		in   string
		want []string
	}{
		{"empty", ``, []string{"empty input"}},
		{"not an object", `[]`, []string{"must be an object, not an array"}},
		{"syntax", "{\"version\": 1,\n \"title\": x}", []string{"invalid JSON at line 2, column"}},
		{"truncated", `{"version": 1, "title": "a`, []string{"unexpected end of input"}},
		{"trailing data", minimal + ` {}`, []string{"unexpected data after the scenario"}},
		{"unknown top field", p("colour", `"red"`), []string{"colour: unknown field"}},
		{"duplicate field", `{"version":1,"duration":"1s","duration":"2s","tasks":[]}`, []string{"duration: duplicate field"}},
		{"odd key is quoted", p("machine.a b", `1`), []string{`machine["a b"]: unknown field`}},
		{"version missing", p("version", "DELETE"), []string{"version: missing"}},
		{"version 3", p("version", "3"), []string{"version: 3 is not supported"}},
		{"version string", p("version", `"1"`), []string{"version: must be a number, not a string"}},
		{"seed negative", p("seed", "-1"), []string{"seed: -1 is not a non-negative integer"}},
		{"seed huge", p("seed", "18446744073709551615"), []string{"seed: 18446744073709551615 is more than 2^53-1"}},
		{"seed overflow", p("seed", "18446744073709551616"), []string{"seed: 18446744073709551616 is out of range"}},
		{"duration missing", p("duration", "DELETE"), []string{"duration: missing"}},
		{"duration bad", p("duration", `"8 ms"`), []string{`duration: "8 ms" is not a duration`}},
		{"duration zero", p("duration", `"0s"`), []string{"duration: must be more than 0"}},
		{"duration negative", p("duration", `"-1s"`), []string{`duration: "-1s" is negative`}},
		{"duration too long", p("duration", `"601s"`), []string{`duration: "601s" is longer than the limit 600s`}},
		{"duration long", p("duration", `"`+strings.Repeat("0", 40)+`1s"`), []string{`duration: "00000000000000000000000000000000000000001s" is not a duration`}},
		{"duration number", p("duration", `5`), []string{"duration: must be a string, not a number"}},
		{"title too long", p("title", `"`+strings.Repeat("é", 201)+`"`), []string{"title: is 201 characters; the limit is 200"}},
		{"title newline", p("title", `"a\nb"`), []string{"title: contains the control character U+000A"}},
		{"description too long", p("description", `"`+strings.Repeat("x", 4001)+`"`), []string{"description: is 4001 characters; the limit is 4000"}},
		{"null", p("title", `null`), []string{"title: must be a string, not null"}},

		{"machine unknown", p("machine.corez", "4"), []string{"machine.corez: unknown field"}},
		{"machine zero", p("machine.nodes", "0"), []string{"machine.nodes: 0 is out of range 1..256"}},
		{"machine fraction", p("machine.nodes", "1.5"), []string{"machine.nodes: 1.5 is not an integer"}},
		{"machine exponent", p("machine.nodes", "1e2"), []string{"machine.nodes: 1e2 is not an integer"}},
		{"machine overflow", p("machine.nodes", "99999999999999999999"), []string{"machine.nodes: 99999999999999999999 is out of range"}},
		{"machine too many CPUs", p("machine", `{"nodes":4,"cores_per_cluster":10,"threads_per_core":8}`), []string{"machine: 320 CPUs (4×1×1×1×10×8); the limit is 256"}},
		{"machine hz", p("machine.hz", "500"), []string{"machine.hz: 500 is not one of 100, 250, 300, 1000"}},
		{"machine numbering", p("machine.numbering", `"arm"`), []string{`machine.numbering: "arm" is not one of linear, x86`}},
		{"costs unknown", p("machine.costs.l4", `"1us"`), []string{"machine.costs.l4: unknown field"}},
		{"costs bad duration", p("machine.costs.context_switch", `"2"`), []string{`machine.costs.context_switch: "2" is not a duration`}},
		{"costs too big", p("machine.costs.wakeup_ipi", `"2s"`), []string{`machine.costs.wakeup_ipi: "2s" is longer than the limit 1s`}},
		{"costs jitter", p("machine.costs.jitter_pct", "51"), []string{"machine.costs.jitter_pct: 51 is out of range 0..50"}},
		{"cache_cold unknown", p("machine.costs.cache_cold", `{"l4":"1us"}`), []string{"machine.costs.cache_cold.l4: unknown field"}},
		{"comm bad", p("machine.costs.comm", `{"numa":"far"}`), []string{`machine.costs.comm.numa: "far" is not a duration`}},
		{"idle states too many", p("machine.costs.idle_states", many(9, `{"name":"C","after":"1us","exit_latency":"1us"}`)), []string{"machine.costs.idle_states: more than 8 idle states"}},
		{"idle state order", p("machine.costs.idle_states", `[{"name":"C1","after":"10us","exit_latency":"1us"},{"name":"C2","after":"10us","exit_latency":"5us"}]`),
			[]string{"machine.costs.idle_states[1].after: must be longer than the previous state's"}},
		{"idle state fields", p("machine.costs.idle_states", `[{"after":"10us","latency":"1us"}]`), []string{"machine.costs.idle_states[0].latency: unknown field"}},
		{"idle state missing", p("machine.costs.idle_states", `[{"after":"10us"}]`), []string{"machine.costs.idle_states[0].name: missing", "machine.costs.idle_states[0].exit_latency: missing"}},

		{"policy unknown", p("policy.balance", "true"), []string{"policy.balance: unknown field"}},
		{"policy base", p("policy.base", `"v4.0"`), []string{`policy.base: "v4.0" is not one of v2.6.8, v3.8, v6.17`}},
		{"policy load_metric", p("policy.load_metric", `"pelt"`), []string{`policy.load_metric: "pelt" is not one of load_weight, runnable_load_avg, runnable_plus_blocked, load_avg`}},
		{"policy sis", p("policy.select_idle_sibling", `"buddies"`), []string{`policy.select_idle_sibling: "buddies" is not one of v3.6, cpu_buddies, bottom_up, sis_util, off`}},
		{"policy new_task_load", p("policy.new_task_load", `"half"`), []string{`policy.new_task_load: "half" is not one of zero, full`}},
		{"sd_flags level", p("policy.sd_flags", `{"L3":{"SD_BALANCE_WAKE":true}}`), []string{"policy.sd_flags.L3: unknown domain level"}},
		{"sd_flags flag", p("policy.sd_flags", `{"MC":{"SD_BALANCE_SLEEP":true}}`), []string{"policy.sd_flags.MC.SD_BALANCE_SLEEP: unknown flag"}},
		{"sd_flags value", p("policy.sd_flags", `{"MC":{"SD_BALANCE_WAKE":"yes"}}`), []string{"policy.sd_flags.MC.SD_BALANCE_WAKE: must be a boolean, not a string"}},
		{"sd_flags not an object", p("policy.sd_flags", `{"MC":true}`), []string{"policy.sd_flags.MC: must be an object, not a boolean"}},
		{"sd_flags alias twice", p("policy.sd_flags", `{"DIE":{"SD_BALANCE_WAKE":true},"PKG":{"SD_BALANCE_WAKE":false}}`),
			[]string{"policy.sd_flags.PKG.SD_BALANCE_WAKE: the same switch as policy.sd_flags.DIE.SD_BALANCE_WAKE"}},
		{"sd_flags old name twice", p("policy.sd_flags", `{"SMT":{"SD_SHARE_CPUPOWER":true,"SD_SHARE_CPUCAPACITY":true}}`),
			[]string{"policy.sd_flags.SMT.SD_SHARE_CPUPOWER: the same switch as policy.sd_flags.SMT.SD_SHARE_CPUCAPACITY"}},
		{"tunables level", p("policy.tunables", `{"LLC":{"busy_factor":8}}`), []string{"policy.tunables.LLC: unknown domain level"}},
		{"tunables alias twice", p("policy.tunables", `{"DIE":{"busy_factor":8},"PKG":{"busy_factor":8}}`), []string{"policy.tunables.PKG: the same level as policy.tunables.DIE"}},
		{"tunables unknown", p("policy.tunables", `{"MC":{"imbalance":125}}`), []string{"policy.tunables.MC.imbalance: unknown field"}},
		{"tunables pct", p("policy.tunables", `{"MC":{"imbalance_pct":99}}`), []string{"policy.tunables.MC.imbalance_pct: 99 is out of range 100..1000"}},
		{"tunables busy", p("policy.tunables", `{"MC":{"busy_factor":0}}`), []string{"policy.tunables.MC.busy_factor: 0 is out of range 1..1024"}},
		{"tunables tries", p("policy.tunables", `{"MC":{"cache_nice_tries":-1}}`), []string{"policy.tunables.MC.cache_nice_tries: -1 is out of range 0..100"}},
		{"tunables whole ms", p("policy.tunables", `{"MC":{"min_interval":"1.5ms"}}`), []string{`policy.tunables.MC.min_interval: "1.5ms" is not a whole number of milliseconds`}},
		{"tunables min > max", p("policy.tunables", `{"MC":{"min_interval":"8ms","max_interval":"4ms"}}`), []string{"policy.tunables.MC.max_interval: is shorter than min_interval"}},
		{"migration_cost negative", p("policy.migration_cost", `"-1ms"`), []string{"policy.migration_cost: \"-1ms\" is negative"}},
		{"base_slice small", p("policy.base_slice", `"1us"`), []string{`policy.base_slice: "1us" is shorter than the minimum 100us`}},
		{"features unknown", p("policy.features", `{"WAKE_AFFINITY":true}`), []string{"policy.features.WAKE_AFFINITY: unknown feature"}},
		{"features value", p("policy.features", `{"WAKE_AFFINE":1}`), []string{"policy.features.WAKE_AFFINE: must be a boolean, not a number"}},

		{"tasks missing", p("tasks", "DELETE"), []string{"tasks: at least one task is needed"}},
		{"tasks empty", p("tasks", "[]"), []string{"tasks: at least one task is needed"}},
		{"tasks too many", p("tasks", many(65, `{}`)), []string{"tasks: more than 64 task groups"}},
		{"task unknown", p("tasks[0].prio", "1"), []string{"tasks[0].prio: unknown field"}},
		{"task name missing", p("tasks[0].name", "DELETE"), []string{"tasks[0].name: missing"}},
		{"task name chars", p("tasks[0].name", `"a b"`), []string{`tasks[0].name: "a b" is not a task name`}},
		{"task name long", p("tasks[0].name", `"`+strings.Repeat("a", 33)+`"`), []string{"is not a task name (1 to 32 of"}},
		{"task name duplicate", p("tasks", `[{"name":"a","program":[{"run":"1ms"}]},{"name":"a","program":[{"run":"1ms"}]}]`),
			[]string{`tasks[1].name: "a" is also the name of tasks[0]`}},
		{"task count zero in version 1", p("tasks[0].count", "0"), []string{`tasks[0].count: 0 needs "version": 2`}},
		{"task count big", p("tasks[0].count", "4097"), []string{"tasks[0].count: 4097 is out of range 0..4096"}},
		{"task instances", p("tasks", `[{"name":"a","count":3000,"program":[{"run":"1ms"}]},{"name":"b","count":3000,"program":[{"run":"1ms"}]}]`),
			[]string{"tasks: 6000 task instances in all (the sum of the counts); the limit is 4096"}},
		{"task nice", p("tasks[0].nice", "20"), []string{"tasks[0].nice: 20 is out of range -20..19"}},
		{"task cpus range", p("tasks[0].cpus", `"0-9"`), []string{"tasks[0].cpus: CPU 9 does not exist (the machine has 2 CPUs)"}},
		{"task cpus syntax", p("tasks[0].cpus", `"zero"`), []string{`tasks[0].cpus: "zero" is not a CPU range`}},
		{"task cpus long", p("tasks[0].cpus", `"`+strings.Repeat("0,", 600)+`1"`), []string{"tasks[0].cpus: longer than 1024 characters"}},
		{"task start", p("tasks[0].start", `"-1ms"`), []string{`tasks[0].start: "-1ms" is negative`}},
		{"task loop", p("tasks[0].loop", "-1"), []string{"tasks[0].loop: -1 is out of range 0..1000000000"}},
		{"program missing", p("tasks[0].program", "DELETE"), []string{"tasks[0].program: must have at least one step"}},
		{"program not a list", p("tasks[0].program", `{"run":"1ms"}`), []string{"tasks[0].program: must be an array, not an object"}},
		{"program too long", p("tasks[0].program", many(65, `{"run":"1ms"}`)), []string{"tasks[0].program: more than 64 steps"}},
		{"step empty", p("tasks[0].program[1]", `{}`), []string{"tasks[0].program[1]: a step needs exactly one of run, sleep, timer, wake, wait"}},
		{"step two kinds", p("tasks[0].program[1]", `{"run":"1ms","sleep":"1ms"}`), []string{"tasks[0].program[1]: has run and sleep; a step needs exactly one"}},
		{"step bad run", p("tasks[0].program[0].run", `"8 ms"`), []string{`tasks[0].program[0].run: "8 ms" is not a duration`}},
		{"step empty run", p("tasks[0].program[0].run", `""`), []string{`tasks[0].program[0].run: "" is not a duration`}},
		{"step zero sleep", p("tasks[0].program[1].sleep", `"0s"`), []string{"tasks[0].program[1].sleep: must be more than 0"}},
		{"step short timer", p("tasks[0].program[1]", `{"timer":"5us"}`), []string{`tasks[0].program[1].timer: "5us" is shorter than the minimum 10us`}},
		{"step unknown", p("tasks[0].program[1]", `{"sleep":"1ms","until":"2ms"}`), []string{"tasks[0].program[1].until: unknown field"}},
		{"wake nobody", p("tasks[0].program[1]", `{"wake":"b"}`), []string{`tasks[0].program[1].wake: "b" is not the name of a task`}},
		{"wake empty", p("tasks[0].program[1]", `{"wake":""}`), []string{"tasks[0].program[1].wake: needs the name of the task to wake"}},
		{"wake fanout", p("tasks[0].program[1]", `{"wake":"a","fanout":"some"}`), []string{`tasks[0].program[1].fanout: "some" is not one of index, all, one, waker`}},
		{"wake sync type", p("tasks[0].program[1]", `{"wake":"a","sync":1}`), []string{"tasks[0].program[1].sync: must be a boolean, not a number"}},
		{"sync without wake", p("tasks[0].program[1]", `{"sleep":"1ms","sync":true}`), []string{"tasks[0].program[1].sync: only a wake step has sync"}},
		{"fanout without wake", p("tasks[0].program[1]", `{"sleep":"1ms","fanout":"all"}`), []string{"tasks[0].program[1].fanout: only a wake step has fanout"}},
		{"wait false", p("tasks[0].program[1]", `{"wait":false}`), []string{`tasks[0].program[1].wait: must be true`}},
		{"no time passes", p("tasks[0].program", `[{"wake":"a"},{"wait":true}]`), []string{"tasks[0].program: needs a run, sleep or timer step"}},
		{"waker without wait", p("tasks[0].program[1]", `{"wake":"a","fanout":"waker"}`), []string{`tasks[0].program[1].fanout: "waker" replies to whoever ended a wait, and this program has no wait step`}},

		{"several problems", p("machine", `{"hz":5,"nodes":0}`), []string{"machine.nodes: 0 is out of range", "machine.hz: 5 is not one of"}},
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range decodeErrorCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			if err == nil {
				t.Fatalf("Decode succeeded, want %q\ninput: %.300s", tc.want, tc.in)
			}
			lines := strings.Split(err.Error(), "\n")
			for _, w := range tc.want {
				found := false
				for _, l := range lines {
					found = found || strings.Contains(l, w)
				}
				if !found {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			// Every problem is an *Error whose message is its line.
			probs := Problems(err)
			if len(probs) != len(lines) {
				t.Errorf("Problems() = %d, message has %d lines", len(probs), len(lines))
			}
			for i, pr := range probs {
				if i < len(lines) && pr.Error() != lines[i] {
					t.Errorf("problem %d = %q, line = %q", i, pr.Error(), lines[i])
				}
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("errors.As(*Error) failed for %T", err)
			}
		})
	}
}

func TestManyProblemsAreCapped(t *testing.T) {
	steps := "[" + strings.TrimSuffix(strings.Repeat(`{"run":"x"},`, 60), ",") + "]"
	_, err := Decode([]byte(patch(t, minimal, "tasks[0].program", steps)))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxReported+1 || lines[maxReported] != "... and 35 more problems" {
		t.Fatalf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestValidateHandBuilt(t *testing.T) {
	s := mustDecode(t, minimal)
	s.Tasks[0].Program = append(s.Tasks[0].Program, Step{Run: "1ms", Wait: true})
	s.Tasks = append(s.Tasks, Task{Name: "b", Count: 1, Program: []Step{{Run: "1ms"}}})
	err := s.Validate()
	if err == nil || !strings.Contains(err.Error(), "tasks[0].program[2]: has run and wait") {
		t.Fatalf("Validate = %v", err)
	}
	// Validate and Config agree.
	if _, cerr := s.Config(); cerr == nil || cerr.Error() != err.Error() {
		t.Fatalf("Config error %v differs from Validate error %v", cerr, err)
	}
}

// TestLimitsBeforeAllocation: absurd sizes are refused from the numbers
// alone; nothing proportional to them is allocated.
func TestLimitsBeforeAllocation(t *testing.T) {
	t.Run("input size", func(t *testing.T) {
		big := make([]byte, MaxScenarioBytes+1)
		var err error
		allocs := testing.AllocsPerRun(10, func() { _, err = Decode(big) })
		if err == nil || !strings.Contains(err.Error(), "the limit is 262144") {
			t.Fatalf("err = %v", err)
		}
		if allocs > 5 {
			t.Fatalf("refusing an oversized input took %v allocations", allocs)
		}
	})
	t.Run("huge numbers", func(t *testing.T) {
		// The same three problems, with small and with absurd numbers.
		small := patch(t, patch(t, minimal, "machine.cores_per_cluster", "300"), "tasks[0].count", "5000")
		small = patch(t, small, "machine.threads_per_core", "300")
		huge := patch(t, patch(t, minimal, "machine.cores_per_cluster", "1000000000"), "tasks[0].count", "1000000000000")
		huge = patch(t, huge, "machine.threads_per_core", "1000000000")
		var err error
		a1 := testing.AllocsPerRun(10, func() { _, err = Decode([]byte(small)) })
		if err == nil {
			t.Fatal("small-but-too-big scenario accepted")
		}
		a2 := testing.AllocsPerRun(10, func() { _, err = Decode([]byte(huge)) })
		if err == nil || !strings.Contains(err.Error(), "tasks[0].count: 1000000000000 is out of range") {
			t.Fatalf("err = %v", err)
		}
		if a2 > a1+3 {
			t.Fatalf("10^9 CPUs and 10^12 tasks took %v allocations, 300 cores and 5000 tasks %v", a2, a1)
		}
	})
	t.Run("long arrays stop at the limit", func(t *testing.T) {
		// ~87000 empty task objects fit in 256 KiB; decoding must stop at 65.
		n := (MaxScenarioBytes - 200) / 3
		in := patch(t, minimal, "tasks", "[]")
		in = strings.Replace(in, `"tasks":[]`, `"tasks":[`+strings.TrimSuffix(strings.Repeat("{},", n), ",")+`]`, 1)
		var err error
		allocs := testing.AllocsPerRun(3, func() { _, err = Decode([]byte(in)) })
		if err == nil || !strings.Contains(err.Error(), "tasks: more than 64 task groups") {
			t.Fatalf("err = %v", err)
		}
		if allocs > 20*MaxTaskGroups {
			t.Fatalf("%v allocations: the array was decoded past the limit", allocs)
		}
	})
	t.Run("hand-built", func(t *testing.T) {
		s := mustDecode(t, minimal)
		s.Tasks = make([]Task, 100000)
		s.Machine.Nodes = 1 << 40
		var err error
		allocs := testing.AllocsPerRun(10, func() { err = s.Validate() })
		if err == nil || !strings.Contains(err.Error(), "tasks: 100000 task groups; the limit is 64") {
			t.Fatalf("err = %v", err)
		}
		if allocs > 200 {
			t.Fatalf("%v allocations", allocs)
		}
	})
}

func TestConfig(t *testing.T) {
	s := mustDecode(t, kitchenSink)
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("title", cfg.Title, "every field")
	check("seed", cfg.Seed, uint64(42))
	check("duration", cfg.Duration, int64(250e6))
	m := cfg.Machine
	check("ncpu", m.NCPU(), 32)
	check("hz", m.HZ, 250)
	check("numbering", m.Numbering, sim.NumberX86)
	def := sim.DefaultCosts()
	check("context switch", m.Costs.ContextSwitch, int64(3000))
	check("wakeup ipi (explicit 0)", m.Costs.WakeupIPI, int64(0))
	check("idle states", m.Costs.IdleStates, []sim.IdleState{{Name: "C1", After: 0, ExitLatency: 2000}, {Name: "C6", After: 600000, ExitLatency: 100000}})
	check("cache cold", m.Costs.CacheCold, [sim.NumDistances]int64{0, 0, 1000, 4000, 15000, 30000})
	check("comm", m.Costs.Comm, [sim.NumDistances]int64{0, 100, 300, 1000, 2000, 4000})
	check("search", []int64{m.Costs.SearchCPU, m.Costs.SearchGroup, m.Costs.SearchDomain, m.Costs.BalanceCPU}, []int64{50, 25, 0, 60})
	check("jitter", m.Costs.JitterPct, 0)

	pol := cfg.Policy
	check("base", pol.Base, sim.BaseV38)
	check("load metric", pol.LoadMetric, sim.LoadRunnablePlusBlocked)
	check("sis", pol.SIS, sim.SISBuddies)
	check("new task load", pol.NewTaskLoad, sim.NewTaskLoadZero)
	check("MC flags", pol.SDFlags[sim.LevelMC], sim.FlagOverride{Set: sim.SDBalanceWake, Clear: sim.SDWakeAffine})
	check("DIE is PKG", pol.SDFlags[sim.LevelPKG], sim.FlagOverride{Clear: sim.SDPreferSibling})
	check("MC tunables", pol.Tunables[sim.LevelMC], sim.Tunables{ImbalancePct: 125, BusyFactor: 64, MinInterval: 1, MaxInterval: 4, CacheNiceTries: -1})
	check("NUMA tunables", pol.Tunables[sim.LevelNUMA], sim.Tunables{BusyFactor: 32})
	check("migration cost", pol.MigrationCost, int64(250e3))
	check("base slice", pol.BaseSlice, int64(3e6))
	// A version-1 file with SD_BALANCE_WAKE on MC on v3.8: Preeti's merge
	// patch, as version 1 meant it (upgrade.go).
	check("features set", pol.FeatSet, uint32(1)<<sim.FeatSchedBalanceMap|uint32(1)<<sim.FeatBalanceWakeMerge)
	check("features clear", pol.FeatClear, uint32(1)<<sim.FeatWakeAffine)

	check("tasks", len(cfg.Tasks), 3)
	c := cfg.Tasks[0]
	check("client", []any{c.Name, c.Count, c.Nice, c.Start, c.Loop}, []any{"client", 4, -5, int64(1e6), 100})
	check("client cpus", c.CPUs, sim.MaskOf(0, 1, 2, 3, 8))
	check("client program", c.Program, []sim.Step{
		{Op: sim.OpRun, Dur: 20000},
		{Op: sim.OpWake, Target: 1, Sync: true, Fanout: sim.FanoutIndex},
		{Op: sim.OpWait},
	})
	check("server program", cfg.Tasks[1].Program[2], sim.Step{Op: sim.OpWake, Target: 0, Sync: true, Fanout: sim.FanoutWaker})
	check("server cpus (all)", cfg.Tasks[1].CPUs.Empty(), true)
	check("ticker program", cfg.Tasks[2].Program, []sim.Step{
		{Op: sim.OpTimer, Dur: 10e6}, {Op: sim.OpRun, Dur: 1e6},
		{Op: sim.OpWake, Target: 0, Fanout: sim.FanoutAll}, {Op: sim.OpWake, Target: 1, Fanout: sim.FanoutOne},
	})

	// Absent costs are the simulator's defaults, untouched.
	cfg2, err := mustDecode(t, minimal).Config()
	if err != nil {
		t.Fatal(err)
	}
	check("default costs", cfg2.Machine.Costs, def)
	check("default policy", cfg2.Policy, sim.Policy{Base: sim.BaseV617})
	// An explicit empty idle_states list means no C-states.
	cfg3, _ := mustDecode(t, patch(t, minimal, "machine.costs", `{"idle_states":[]}`)).Config()
	check("no idle states", len(cfg3.Machine.Costs.IdleStates), 0)
	check("other costs kept", cfg3.Machine.Costs.CacheCold, def.CacheCold)
}

func TestTbenchPresetConfig(t *testing.T) {
	s, err := Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	if n := cfg.Machine.NCPU(); n != 80 {
		t.Errorf("tbench-pairs has %d CPUs, want 80 (4x10x2)", n)
	}
	if cfg.Machine.Numbering != sim.NumberX86 || cfg.Policy.Base != sim.BaseV38 || cfg.Policy.SIS != sim.SISV36 {
		t.Errorf("tbench-pairs machine/policy: %+v %+v", cfg.Machine.Numbering, cfg.Policy)
	}
	if cfg.Tasks[0].Program[1].Target != 1 || cfg.Tasks[1].Program[2].Target != 0 {
		t.Errorf("client and server do not wake each other: %+v", cfg.Tasks)
	}
	pp, _ := Preset("pelt-pingpong")
	cfg, _ = pp.Config()
	if cfg.Machine.NCPU() != 2 || cfg.Duration != 10e9 || cfg.Tasks[0].Count != 1 || cfg.Tasks[1].Count != 2 {
		t.Errorf("pelt-pingpong: %d CPUs, %d ns, %d hogs, %d light tasks", cfg.Machine.NCPU(), cfg.Duration, cfg.Tasks[0].Count, cfg.Tasks[1].Count)
	}
}

func ExampleScenario_Validate() {
	_, err := Decode([]byte(`{"version": 1, "duration": "1s",
		"tasks": [{"name": "hog", "program": [{"run": "8 ms"}, {"timer": "10ms"}]}]}`))
	fmt.Println(err)
	// Output: tasks[0].program[0].run: "8 ms" is not a duration
}

func TestDecodeByteOrderMark(t *testing.T) {
	s := mustDecode(t, "\xEF\xBB\xBF"+minimal)
	if !bytes.Equal(s.Canonical(), mustDecode(t, minimal).Canonical()) {
		t.Fatal("a leading BOM changed the scenario")
	}
}

// TestCanonicalSizeLimit: a file under the size limit whose canonical form
// is over it (escaping "<" as \u003c is 6 bytes for 1) is refused, since its
// share link would be.
func TestCanonicalSizeLimit(t *testing.T) {
	build := func(desc string) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"version":1,"duration":"1s","description":%q,"tasks":[`, desc)
		cpus := strings.TrimSuffix(strings.Repeat("0,1,", 255), ",")
		run := `{"run":"` + strings.Repeat("0", 29) + `1ms"}`
		for i := range MaxTaskGroups {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"t%d","cpus":%q,"program":[%s]}`, i, cpus, strings.TrimSuffix(strings.Repeat(run+",", MaxSteps), ","))
		}
		b.WriteString("]}")
		return b.String()
	}
	plain := build(strings.Repeat("a", MaxDescription))
	s := mustDecode(t, plain)
	if n := len(s.Canonical()); n > MaxScenarioBytes {
		t.Fatalf("plain variant: canonical %d bytes", n)
	}
	escaped := build(strings.Repeat("<", MaxDescription))
	if len(escaped) > MaxScenarioBytes {
		t.Fatalf("test input is %d bytes, over the input limit", len(escaped))
	}
	_, err := Decode([]byte(escaped))
	if err == nil || !strings.Contains(err.Error(), "the scenario's canonical JSON is") {
		t.Fatalf("err = %v", err)
	}
}
