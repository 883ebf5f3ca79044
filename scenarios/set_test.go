package scenarios

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSet(t *testing.T) {
	ok := []struct {
		path, value string
		check       func(s *Scenario) any // returns the value that should equal want
		want        any
	}{
		{"seed", "7", func(s *Scenario) any { return s.Seed }, uint64(7)},
		{"seed", "", func(s *Scenario) any { return s.Seed }, uint64(1)},
		{"duration", "2s", func(s *Scenario) any { return s.Duration }, "2s"},
		{"title", "ping <pong>", func(s *Scenario) any { return s.Title }, "ping <pong>"},
		{"description", "two\nlines", func(s *Scenario) any { return s.Description }, "two\nlines"},
		{"version", "1", func(s *Scenario) any { return s.Version }, 1},
		{"machine.cores_per_cluster", "10", func(s *Scenario) any { return s.Machine.CoresPerCluster }, 10},
		{"machine.cores_per_cluster", "", func(s *Scenario) any { return s.Machine.CoresPerCluster }, 2},
		{"machine.hz", "250", func(s *Scenario) any { return s.Machine.HZ }, 250},
		{"machine.numbering", "x86", func(s *Scenario) any { return s.Machine.Numbering }, "x86"},
		{"machine.costs.cache_cold.llc", "20us", func(s *Scenario) any { return s.Machine.Costs.CacheCold.LLC }, "20us"},
		{"machine.costs.comm.same", "0s", func(s *Scenario) any { return s.Machine.Costs.Comm.Same }, "0s"},
		{"machine.costs.wakeup_ipi", "5us", func(s *Scenario) any { return s.Machine.Costs.WakeupIPI }, "5us"},
		{"machine.costs.jitter_pct", "0", func(s *Scenario) any { return *s.Machine.Costs.JitterPct }, 0},
		{"machine.costs.idle_states", `[{"name":"C1","after":"0s","exit_latency":"2us"}]`,
			func(s *Scenario) any { return s.Machine.Costs.IdleStates }, []IdleState{{Name: "C1", After: "0s", ExitLatency: "2us"}}},
		{"machine.costs.idle_states", `[]`, func(s *Scenario) any { return s.Machine.Costs.IdleStates }, []IdleState{}},
		{"machine.costs.idle_states[1].exit_latency", "50us", func(s *Scenario) any { return s.Machine.Costs.IdleStates[1].ExitLatency }, "50us"},
		{"policy.base", "v3.8", func(s *Scenario) any { return s.Policy.Base }, "v3.8"},
		{"policy.select_idle_sibling", "cpu_buddies", func(s *Scenario) any { return s.Policy.SelectIdleSibling }, "cpu_buddies"},
		{"policy.select_idle_sibling", "", func(s *Scenario) any { return s.Policy.SelectIdleSibling }, ""},
		{"policy.load_metric", "load_avg", func(s *Scenario) any { return s.Policy.LoadMetric }, "load_avg"},
		{"policy.sd_flags.MC.SD_BALANCE_WAKE", "true", func(s *Scenario) any { return s.Policy.SDFlags["MC"]["SD_BALANCE_WAKE"] }, true},
		{"policy.sd_flags.MC.SD_BALANCE_WAKE", "", func(s *Scenario) any { return s.Policy.SDFlags["MC"] }, map[string]bool{"SD_WAKE_AFFINE": false}},
		{"policy.sd_flags.DIE.SD_PREFER_SIBLING", "", func(s *Scenario) any { return s.Policy.SDFlags["DIE"] }, map[string]bool(nil)},
		{"policy.features.WAKE_AFFINE", "false", func(s *Scenario) any { return s.Policy.Features }, map[string]bool{"WAKE_AFFINE": false, "SCHED_BALANCE_MAP": true}},
		{"policy.features.SCHED_BALANCE_MAP", "", func(s *Scenario) any { return s.Policy.Features }, map[string]bool{"WAKE_AFFINE": false}},
		{"policy.tunables.MC.imbalance_pct", "117", func(s *Scenario) any { return *s.Policy.Tunables["MC"].ImbalancePct }, 117},
		{"policy.tunables.PKG.min_interval", "4ms", func(s *Scenario) any { return s.Policy.Tunables["PKG"].MinInterval }, "4ms"},
		{"policy.tunables.NUMA.busy_factor", "", func(s *Scenario) any { _, ok := s.Policy.Tunables["NUMA"]; return ok }, false},
		{"policy.migration_cost", "1ms", func(s *Scenario) any { return s.Policy.MigrationCost }, "1ms"},
		{"tasks.client.count", "40", func(s *Scenario) any { return s.Tasks[0].Count }, 40},
		{"tasks.client.nice", "5", func(s *Scenario) any { return s.Tasks[0].Nice }, 5},
		{"tasks.server.cpus", "4-7", func(s *Scenario) any { return s.Tasks[1].CPUs }, "4-7"},
		{"tasks[1].loop", "3", func(s *Scenario) any { return s.Tasks[1].Loop }, 3},
		{"tasks.tick.er-1.start", "5ms", func(s *Scenario) any { return s.Tasks[2].Start }, "5ms"},
		{"tasks.client.program[0].run", "25us", func(s *Scenario) any { return s.Tasks[0].Program[0] }, Step{Run: "25us"}},
		{"tasks.client.program[0].sleep", "1ms", func(s *Scenario) any { return s.Tasks[0].Program[0] }, Step{Sleep: "1ms"}},
		{"tasks.client.program[1].sync", "false", func(s *Scenario) any { return s.Tasks[0].Program[1] }, Step{Wake: "server", Fanout: "index"}},
		{"tasks.client.program[1].fanout", "all", func(s *Scenario) any { return s.Tasks[0].Program[1].Fanout }, "all"},
		{"tasks.client.program[3]", `{"sleep":"1ms"}`, func(s *Scenario) any { return len(s.Tasks[0].Program) }, 4},
		{"tasks.client.program[1]", `{"wake":"client"}`, func(s *Scenario) any { return s.Tasks[0].Program[1] }, Step{Wake: "client", Fanout: "index"}},
		{"tasks.server.program", `[{"wait":true},{"run":"5us"}]`, func(s *Scenario) any { return s.Tasks[1].Program }, []Step{{Wait: true}, {Run: "5us"}}},
		{"tasks.client.name", "cli", func(s *Scenario) any { return s.Tasks[0].Name }, "cli"},
	}
	for _, tc := range ok {
		t.Run(tc.path+"="+tc.value, func(t *testing.T) {
			s := mustDecode(t, kitchenSink)
			if tc.path == "tasks.client.name" {
				// Renaming a task that others wake breaks them, unless they follow.
				s.Tasks[1].Program[2].Wake = "cli"
				s.Tasks[2].Program[2].Wake = "cli"
			}
			if err := s.Set(tc.path, tc.value); err != nil {
				t.Fatalf("Set: %v", err)
			}
			if got := tc.check(s); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("after Set got %#v, want %#v", got, tc.want)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("Set left an invalid scenario: %v", err)
			}
			if s2 := mustDecode(t, string(s.Canonical())); !reflect.DeepEqual(s, s2) {
				t.Fatalf("after Set, Decode(Canonical(s)) != s")
			}
		})
	}

	bad := []struct{ path, value, want string }{
		{"colour", "red", "colour: unknown path"},
		{"machine.corez", "4", "machine.corez: unknown path"},
		{"machine.costs.cache_cold.l4", "1us", "machine.costs.cache_cold.l4: unknown path"},
		{"machine.costs.idle_states[9].after", "1us", "machine.costs.idle_states[9].after: index 9 is out of range (there are 2 idle states)"},
		{"machine.costs.idle_states", `[{"name":"C1","after":"0s","latency":"2us"}]`, "machine.costs.idle_states[0].latency: unknown field"},
		{"machine.costs.idle_states", `[{`, "machine.costs.idle_states: invalid JSON"},
		{"policy.tunables.MC.imbalance", "1", "policy.tunables.MC.imbalance: unknown path"},
		{"policy.sd_flags.MC", "true", "policy.sd_flags.MC: must be an object, not a boolean"},
		{"tasks.nobody.count", "4", `tasks.nobody.count: no task named "nobody"`},
		{"tasks[7].count", "4", "tasks[7].count: no task at index 7 (there are 3 tasks)"},
		{"tasks[0]", "4", "tasks[0]: must be an object, not a number"},
		{"tasks.client.colour", "red", "tasks.client.colour: unknown path"},
		{"tasks.client.program[9].run", "1ms", "tasks.client.program[9].run: index 9 is out of range (the program has 3 steps; index 3 appends one)"},
		{"tasks.client.program[0].jump", "1", "tasks.client.program[0].jump: unknown path"},
		{"tasks.client.program", `[{"run":"1ms"},{"sleep":1}]`, "tasks.client.program[1].sleep: must be a string, not a number"},
		{"seed", "-3", `seed: "-3" is not a non-negative integer`},
		{"machine.nodes", "two", `machine.nodes: "two" is not an integer`},
		{"policy.features.WAKE_AFFINE", "maybe", `policy.features.WAKE_AFFINE: "maybe" is not true or false`},
		// Accepted by the path, refused by validation: the message names
		// the set and the problem's own path.
		{"tasks.client.count", "5000", "tasks.client.count=5000: tasks[0].count: 5000 is out of range 0..4096"},
		{"machine.cores_per_cluster", "1000", "machine.cores_per_cluster=1000: machine.cores_per_cluster: 1000 is out of range 1..256"},
		{"policy.sd_flags.MC.SD_FOO", "true", "policy.sd_flags.MC.SD_FOO: unknown flag"},
		{"tasks.client.program[0].run", "8 ms", `tasks[0].program[0].run: "8 ms" is not a duration`},
		{"duration", "1h", `duration: "1h" is longer than the limit 600s`},
		{"tasks.server.name", "srv", `tasks[0].program[1].wake: "server" is not the name of a task`},
	}
	for _, tc := range bad {
		t.Run("bad "+tc.path+"="+tc.value, func(t *testing.T) {
			s := mustDecode(t, kitchenSink)
			before := s.Canonical()
			err := s.Set(tc.path, tc.value)
			if err == nil {
				t.Fatalf("Set succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q lacks %q", err, tc.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("no *Error in %T", err)
			}
			if after := s.Canonical(); string(after) != string(before) {
				t.Fatalf("a failed Set changed the scenario")
			}
		})
	}
}
