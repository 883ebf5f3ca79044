package pagemodel

import (
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// TestSwitchLine: on the tbench preset every wake-up is affine, so a
// version-2 SD_BALANCE_WAKE at MC is never consulted and the line says so
// and why; BALANCE_WAKE_MERGE switched on without the flag is not
// consulted either; the preset as it is sets nothing unread.
func TestSwitchLine(t *testing.T) {
	line := func(sets ...string) string {
		t.Helper()
		sc, err := scenarios.Preset("tbench-pairs")
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range append([]string{"duration=20ms", "version=2"}, sets...) {
			k, v, _ := strings.Cut(kv, "=")
			if err := sc.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		cfg, err := sc.Config()
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		m := s.Metrics()
		return SwitchLine(&m)
	}
	if l := line(); l != "" {
		t.Errorf("the preset: %q, want no line", l)
	}
	if l := line("policy.sd_flags.MC.SD_BALANCE_WAKE=true"); !strings.Contains(l, "SD_BALANCE_WAKE") || !strings.Contains(l, "affine") {
		t.Errorf("SD_BALANCE_WAKE under affine wake-ups: %q", l)
	}
	if l := line("policy.features.BALANCE_WAKE_MERGE=true"); !strings.Contains(l, "features.BALANCE_WAKE_MERGE") {
		t.Errorf("BALANCE_WAKE_MERGE without the flag: %q", l)
	}
}
