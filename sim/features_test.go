package sim

import "testing"

func runHash(t *testing.T, cfg *Config) (string, Metrics) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	m := s.Metrics()
	return m.TraceHash, m
}

// TestFeatureDefaults: v6.17 runs with ELIGIBLE_FIRST on, as mainline does
// since 873199d27bb2 (6.14); setting a feature to its base's default changes
// nothing, clearing it is an A/B switch.
func TestFeatureDefaults(t *testing.T) {
	cfg := func(set, clear uint32) *Config {
		return &Config{Seed: 1, Duration: 200e6, Machine: machine(1, 1, 1, 4, 2, NumberX86),
			Policy: Policy{Base: BaseV617, FeatSet: set, FeatClear: clear}, Tasks: mixed()}
	}
	s, err := New(cfg(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Feature(FeatEligibleFirst) {
		t.Fatal("v6.17 without overrides: ELIGIBLE_FIRST off, want on (mainline)")
	}
	def, _ := runHash(t, cfg(0, 0))
	on, _ := runHash(t, cfg(1<<FeatEligibleFirst, 0))
	if def != on {
		t.Errorf("ELIGIBLE_FIRST=true (the default) changed the run: %s vs %s", on, def)
	}
	off, m := runHash(t, cfg(0, 1<<FeatEligibleFirst))
	if off == def || m.Migrations.IneligibleFirstTry == 0 {
		t.Errorf("ELIGIBLE_FIRST=false: same run (%v) or no ineligible task moved at a first try (%d)", off == def, m.Migrations.IneligibleFirstTry)
	}
	s38, _ := New(&Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: Policy{Base: BaseV38}, Tasks: mixed()})
	if s38.Feature(FeatEligibleFirst) {
		t.Error("v3.8 has no EEVDF: ELIGIBLE_FIRST must be off")
	}
}
