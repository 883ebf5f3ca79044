package pagemodel

import (
	"reflect"
	"strconv"
	"testing"

	"schedplay/scenarios"
)

// describeScenarios are every preset, the 64-group import and the v2.6.8
// staircase variant of sdet-numaq.
func describeScenarios(t *testing.T) map[string]*scenarios.Scenario {
	out := map[string]*scenarios.Scenario{"many-tasks": manyTasks(t)}
	for _, p := range scenarios.Presets() {
		sc, err := scenarios.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		out[p.Name] = sc
	}
	sc, _ := scenarios.Preset("sdet-numaq")
	for _, kv := range [][2]string{{"policy.base", "v2.6.8"}, {"policy.cpu_scheduler", "staircase"}} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	out["sdet-numaq on v2.6.8"] = sc
	return out
}

// TestProbeAgrees: every one-line policy change Describe checks on
// policyProbe (every switch of the effective and the base policy, set to
// its value and flipped, and every suggestion candidate) is valid on the
// probe exactly when it is valid on the whole scenario.
func TestProbeAgrees(t *testing.T) {
	for name, sc := range describeScenarios(t) {
		probe := policyProbe(sc)
		eff, err := resolve(sc, false)
		if err != nil {
			t.Fatal(err)
		}
		base, err := resolve(sc, true)
		if err != nil {
			t.Fatal(err)
		}
		var kvs []string
		for _, p := range []Policy{policy(eff), policy(base)} {
			for path, v := range p.byPath() {
				kvs = append(kvs, path+"="+v)
				if b, err := strconv.ParseBool(v); err == nil {
					kvs = append(kvs, path+"="+strconv.FormatBool(!b))
				}
			}
		}
		for _, f := range []string{"policy.select_idle_sibling", "policy.load_metric", "policy.new_task_load"} {
			for _, v := range enum(f) {
				kvs = append(kvs, f+"="+v)
			}
		}
		n := 0
		for _, kv := range kvs {
			if a, b := applies(sc, kv), applies(probe, kv); a != b {
				t.Errorf("%s: %s valid on the scenario %v, on the probe %v", name, kv, a, b)
			}
			n++
		}
		if n < 40 {
			t.Errorf("%s: %d changes checked", name, n)
		}
	}
}

// TestDescribeCached: a second Describe of a scenario with the same
// machine and policy (another title, other tasks) equals a fresh one.
func TestDescribeCached(t *testing.T) {
	for name, sc := range describeScenarios(t) {
		policyParts.Lock()
		policyParts.m = nil
		policyParts.Unlock()
		fresh, err := Describe(sc)
		if err != nil {
			t.Fatal(err)
		}
		other := sc.Clone()
		other.Title = "another title"
		other.Tasks = other.Tasks[:1]
		if _, err := Describe(other); err != nil {
			t.Fatal(err)
		}
		again, err := Describe(sc)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh, again) {
			t.Errorf("%s: Describe from the cache differs from a fresh one", name)
		}
		if len(fresh.Suggestions) == 0 || len(fresh.Values) == 0 {
			t.Errorf("%s: %d suggestions, %d values", name, len(fresh.Suggestions), len(fresh.Values))
		}
	}
}
