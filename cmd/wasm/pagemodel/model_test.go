package pagemodel

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"schedplay/scenarios"
)

func preset(t *testing.T, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		k, v, _ := strings.Cut(kv, "=")
		if err := sc.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return sc
}

func TestDescribeTbench(t *testing.T) {
	m, err := Describe(preset(t, "tbench-pairs", "policy.sd_flags.MC.SD_BALANCE_WAKE=true", "policy.features.WAKE_AFFINE=false", "policy.tunables.MC.imbalance_pct=140"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Preset != "" {
		t.Errorf("a changed tbench-pairs is reported as preset %q", m.Preset)
	}
	if p, _ := Describe(preset(t, "tbench-pairs")); p == nil || p.Preset != "tbench-pairs" {
		t.Errorf("the unchanged preset is not recognised: %+v", p)
	}
	if m.NCPU != 80 {
		t.Errorf("NCPU = %d, want 80", m.NCPU)
	}
	// 4 nodes x 10 cores x 2 threads: SMT, MC, NUMA (PKG spans the same CPUs as MC: degenerate).
	if got := strings.Join(m.Levels, ","); got != "SMT,MC,NUMA" {
		t.Errorf("levels %s, want SMT,MC,NUMA", got)
	}
	for _, c := range []struct {
		what      string
		eff, base bool
	}{
		{"MC SD_BALANCE_WAKE", m.Effective.SDFlags["MC"]["SD_BALANCE_WAKE"], m.Base.SDFlags["MC"]["SD_BALANCE_WAKE"]},
		{"SMT SD_WAKE_AFFINE", m.Effective.SDFlags["SMT"]["SD_WAKE_AFFINE"], m.Base.SDFlags["SMT"]["SD_WAKE_AFFINE"]},
		{"WAKE_AFFINE", m.Effective.Features["WAKE_AFFINE"], m.Base.Features["WAKE_AFFINE"]},
		{"LB_BIAS", m.Effective.Features["LB_BIAS"], m.Base.Features["LB_BIAS"]},
	} {
		want := map[string][2]bool{
			"MC SD_BALANCE_WAKE": {true, false}, // 3.8 SD_MC_INIT has no SD_BALANCE_WAKE; the scenario sets it
			"SMT SD_WAKE_AFFINE": {true, true},
			"WAKE_AFFINE":        {false, true},
			"LB_BIAS":            {true, true}, // a v3.8 feature
		}[c.what]
		if c.eff != want[0] || c.base != want[1] {
			t.Errorf("%s: effective %v base %v, want %v %v", c.what, c.eff, c.base, want[0], want[1])
		}
	}
	if got := m.Effective.Tunables["MC"].ImbalancePct; got != 140 {
		t.Errorf("MC imbalance_pct %d, want 140", got)
	}
	if got := m.Base.Tunables["MC"].ImbalancePct; got != 125 {
		t.Errorf("base MC imbalance_pct %d, want 125 (SD_MC_INIT)", got)
	}
	if m.Effective.SelectIdleSibling != "v3.6" || m.Base.SelectIdleSibling != "v3.8" {
		t.Errorf("sis effective %q base %q", m.Effective.SelectIdleSibling, m.Base.SelectIdleSibling)
	}
	if m.Effective.LoadMetric != "load_weight" || m.Effective.NewTaskLoad != "zero" {
		t.Errorf("load metric %q new task load %q", m.Effective.LoadMetric, m.Effective.NewTaskLoad)
	}
	if m.CostDefaults.CacheCold["llc"] != "5us" || len(m.IdleStates) == 0 {
		t.Errorf("cost defaults %+v, idle states %v", m.CostDefaults, m.IdleStates)
	}
	var back map[string]any
	if err := json.Unmarshal(m.Scenario, &back); err != nil || m.JSON != string(m.Scenario) {
		t.Errorf("scenario is not its canonical JSON: %v", err)
	}
}

func TestDescribeModernDefaults(t *testing.T) {
	m, err := Describe(preset(t, "eligible-migration"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Effective.LoadMetric != "load_avg" || m.Effective.SelectIdleSibling != "sis_util" || m.Effective.NewTaskLoad != "full" {
		t.Errorf("v6.17 defaults: %+v", m.Effective)
	}
	// 873199d27bb2 is unconditional in mainline: on in the v6.17 base.
	if !m.Effective.Features["ELIGIBLE_FIRST"] || !m.Base.Features["ELIGIBLE_FIRST"] {
		t.Errorf("ELIGIBLE_FIRST effective %v base %v, want true true", m.Effective.Features["ELIGIBLE_FIRST"], m.Base.Features["ELIGIBLE_FIRST"])
	}
	if !m.Effective.Features["WAKE_WIDE"] {
		t.Errorf("WAKE_WIDE is a v6.17 default")
	}
}

func TestDescribeNoIdleStates(t *testing.T) {
	m, err := Describe(preset(t, "pelt-pingpong", "machine.costs.idle_states=[]"))
	if err != nil {
		t.Fatal(err)
	}
	if m.IdleStates == nil || len(m.IdleStates) != 0 {
		t.Errorf("idle states %v, want an empty list", m.IdleStates)
	}
	if b, _ := json.Marshal(m); !strings.Contains(string(b), `"idle_states":[]`) {
		t.Errorf("no idle states must marshal as [], not null: %s", b)
	}
}

func TestProblemsSeeThroughSet(t *testing.T) {
	sc := preset(t, "tbench-pairs")
	err := sc.Set("machine.cores_per_cluster", "1000")
	if err == nil {
		t.Fatal("a 8000-CPU machine was accepted")
	}
	ps := Problems(err)
	if len(ps) == 0 || !strings.HasPrefix(ps[0].Path, "machine") {
		t.Errorf("Problems(%v) = %+v, want a machine path", err, ps)
	}
	err = sc.Set("tasks[0].count", "abc")
	ps = Problems(err)
	if len(ps) != 1 || ps[0].Path != "tasks[0].count" || !strings.Contains(ps[0].Problem, "not an integer") {
		t.Errorf("Problems(%v) = %+v", err, ps)
	}
	// Two problems behind one wrapper: both listed.
	_, err = scenarios.Decode([]byte(`{"version":1,"duration":"1s","tasks":[{"name":"a","count":-1,"program":[{"run":"8 ms"}]}]}`))
	ps = Problems(errors.Join(err))
	if len(ps) != 2 {
		t.Errorf("Problems = %+v, want 2", ps)
	}
	if Problems(nil) != nil {
		t.Errorf("Problems(nil) is not nil")
	}
	if ps := Problems(errors.New("plain")); len(ps) != 1 || ps[0].Path != "" || ps[0].Problem != "plain" {
		t.Errorf("plain error: %+v", ps)
	}
}

func TestPresetsHaveSummaries(t *testing.T) {
	ps := Presets()
	if len(ps) != len(scenarios.Presets()) {
		t.Fatalf("%d presets, want %d", len(ps), len(scenarios.Presets()))
	}
	for _, p := range ps {
		sc, err := scenarios.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Summary == "" {
			t.Errorf("preset %s has no one-line summary for the picker", p.Name)
		}
		if p.Summary == "" || strings.Contains(p.Summary, "\n") || len([]rune(p.Summary)) > 160 {
			t.Errorf("preset %s: summary %q is not one short line", p.Name, p.Summary)
		}
	}
}

func TestDuration(t *testing.T) {
	for ns, want := range map[int64]string{0: "0s", 500_000: "500us", 1_500_000: "1.5ms", 2_000_000_000: "2s", 90_000_000_000: "90s", 40: "40ns"} {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ns, got, want)
		}
	}
}

// TestSuggestions: every suggestion applies to the scenario and changes it.
func TestSuggestions(t *testing.T) {
	sc, err := scenarios.Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Describe(sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Suggestions) < 20 {
		t.Fatalf("%d suggestions", len(m.Suggestions))
	}
	for _, kv := range m.Suggestions {
		path, value, _ := strings.Cut(kv, "=")
		c := sc.Clone()
		if err := c.Set(path, value); err != nil {
			t.Errorf("%s: %v", kv, err)
		}
	}
}

// TestValuesByPath: every path of Values, BaseValues and Defaults is a
// path Set takes, and Get agrees where the scenario sets it.
func TestValuesByPath(t *testing.T) {
	sc, err := scenarios.Preset("overload-on-wakeup")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Describe(sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Values) < 20 || len(m.BaseValues) != len(m.Values) || len(m.Defaults) < 10 {
		t.Fatalf("%d values, %d base values, %d defaults", len(m.Values), len(m.BaseValues), len(m.Defaults))
	}
	for _, vals := range []map[string]string{m.Values, m.BaseValues, m.Defaults} {
		for path, v := range vals {
			c := sc.Clone()
			if err := c.Set(path, v); err != nil {
				t.Errorf("%s=%s: %v", path, v, err)
			}
		}
	}
	if m.Values["policy.sd_flags.NUMA.SD_WAKE_AFFINE"] != "true" {
		t.Errorf("NUMA SD_WAKE_AFFINE: %q", m.Values["policy.sd_flags.NUMA.SD_WAKE_AFFINE"])
	}
}

// TestDescribeCarriesSchema: describe() hands the page every field of the
// schema, with its words and editor group.
func TestDescribeCarriesSchema(t *testing.T) {
	sc, err := scenarios.Preset("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Describe(sc)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]scenarios.Field{}
	for _, f := range m.Schema.Fields {
		got[f.Path] = f
	}
	for _, f := range scenarios.Fields() {
		g, ok := got[f.Path]
		if !ok || g.Group == "" || g.Kind != f.Kind || (f.Kind != scenarios.KindObject && f.Kind != scenarios.KindMap && g.RangeText == "" && f.Kind != scenarios.KindSize && f.Kind != scenarios.KindCPUList) {
			t.Errorf("describe() lacks %s or its words: %+v", f.Path, g)
		}
	}
}
