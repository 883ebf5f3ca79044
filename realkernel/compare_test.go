package realkernel

import (
	"fmt"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// testdataScenario loads testdata/name and sets each path, value pair of
// sets on it.
func testdataScenario(t *testing.T, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(sets); i += 2 {
		if err := s.Set(sets[i], sets[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSimScenarioAsTheHarnessRuns: the simulator's side of a comparison
// runs the v6.17 base on the host's machine with the harness's two
// properties: run steps exact (no jitter) and threads without PELT history
// (they slept in the start barrier; not fresh forks), whatever the
// scenario or the costs say.
func TestSimScenarioAsTheHarnessRuns(t *testing.T) {
	s := testdataScenario(t, "four-30.json")
	host := scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 250}
	jitter := 30
	for _, costs := range []*scenarios.Costs{nil, {ContextSwitch: "4us", JitterPct: &jitter}} {
		ss, _, err := SimScenario(s, host, costs)
		if err != nil {
			t.Fatal(err)
		}
		if j := ss.Machine.Costs.JitterPct; j == nil || *j != 0 || ss.Policy.NewTaskLoad != "zero" || ss.Policy.Base != "v6.17" {
			t.Errorf("costs %+v: jitter %v, new_task_load %q, base %q; want 0, zero, v6.17", costs, j, ss.Policy.NewTaskLoad, ss.Policy.Base)
		}
	}
}

// TestTickPhases: run i of SimulatePhases starts every task i/8 of a jiffy
// later (HZ 250: 500 us steps, on top of a start of its own), and
// PhaseRows gives each row's mean over the runs with its range.
func TestTickPhases(t *testing.T) {
	s := testdataScenario(t, "pipeline.json")
	s.Machine.HZ = 250
	s.Tasks[1].Start = "1ms"
	for i, want := range [][2]string{{"0s", "1ms"}, {"500µs", "1.5ms"}, {"3.5ms", "4.5ms"}} {
		k := []int{0, 1, 7}[i]
		p, err := TickPhase(s, k)
		if err != nil {
			t.Fatal(err)
		}
		if p.Tasks[0].Start != want[0] || p.Tasks[1].Start != want[1] {
			t.Errorf("phase %d: starts %q, %q; want %q, %q", k, p.Tasks[0].Start, p.Tasks[1].Start, want[0], want[1])
		}
	}
	real := &Result{SimMS: 1000, OpsPerS: 300}
	rows := PhaseRows(real, []sim.Metrics{{SimMS: 1000, OpsPerS: 290}, {SimMS: 1000, OpsPerS: 310}, {SimMS: 1000, OpsPerS: 306}})
	if r := rows[0]; r.Name != "ops/s" || r.Sim != 302 || r.SimMin != 290 || r.SimMax != 310 || r.Ratio == nil || *r.Ratio != 1.007 {
		t.Errorf("ops/s row %+v (ratio %v): want the mean 302 over 290-310, 1.007 of the real 300", r, r.Ratio)
	}
}

// TestReleaseFeatures: v6.17's newidle rules (the cost bump) from 6.17 to
// 6.18.5, the proportional newidle balance from 6.18.6 and in 6.19, neither
// before 6.17; the wake-up check that dequeues a delayed pick from 6.18.33
// in 6.18 and from 7.1.
func TestReleaseFeatures(t *testing.T) {
	for _, c := range []struct {
		release              string
		bump, random, wakeup string // "" = the v6.17 default
	}{
		{"6.17.0", "", "", ""},
		{"6.18.5-arch1", "", "", ""},
		{"6.18.6", "false", "true", ""},
		{"6.18.32", "false", "true", ""},
		{"6.18.33", "false", "true", "true"},
		{"6.18.44-fc-v1252", "false", "true", "true"},
		{"6.19.0-rc3", "false", "true", ""},
		{"7.0.4", "false", "true", ""},
		{"7.1.2", "false", "true", "true"},
		{"6.12.40", "false", "", ""},
		{"5.15", "false", "", ""},
		{"garbage", "", "", ""},
	} {
		f, note := ReleaseFeatures(c.release)
		got := func(name string) string {
			if on, ok := f[name]; ok {
				return fmt.Sprint(on)
			}
			return ""
		}
		if got("NEWIDLE_BUMP") != c.bump || got("NI_RANDOM") != c.random || got("WAKEUP_DEQUEUE_DELAYED") != c.wakeup {
			t.Errorf("%s: NEWIDLE_BUMP %q NI_RANDOM %q WAKEUP_DEQUEUE_DELAYED %q, want %q %q %q", c.release,
				got("NEWIDLE_BUMP"), got("NI_RANDOM"), got("WAKEUP_DEQUEUE_DELAYED"), c.bump, c.random, c.wakeup)
		}
		if (f == nil) != (note == "") {
			t.Errorf("%s: switches %v with note %q: a note goes with every change", c.release, f, note)
		}
	}
}
