package scenarios

import (
	"testing"

	"schedplay/sim"
)

func traceHash(t *testing.T, s *Scenario) string {
	t.Helper()
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sm.Run()
	return sm.Metrics().TraceHash
}

// TestUpgradeV1: a version-1 file that sets SD_BALANCE_WAKE at or below the
// LLC on v3.8 meant Preeti's merge patch; its version-2 form says so with
// BALANCE_WAKE_MERGE and gives the same run. In version 2 the flag alone is
// the stock kernel's: an affine wake-up never consults it, so on tbench
// pairs (every wake-up affine) it changes nothing.
func TestUpgradeV1(t *testing.T) {
	v1, err := Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"duration", "40ms"}, {"tasks.client.count", "5"},
		{"policy.sd_flags.SMT.SD_BALANCE_WAKE", "true"}, {"policy.sd_flags.MC.SD_BALANCE_WAKE", "true"}} {
		if err := v1.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if v1.Version != 1 || v1.Policy.Base != "v3.8" {
		t.Fatalf("the preset is version %d, base %q; the test needs a v3.8 version-1 file", v1.Version, v1.Policy.Base)
	}
	v2 := v1.Upgrade()
	if v2.Version != 2 || !v2.Policy.Features["BALANCE_WAKE_MERGE"] || v1.Policy.Features["BALANCE_WAKE_MERGE"] {
		t.Fatalf("upgrade: version %d, features %v (the original's %v)", v2.Version, v2.Policy.Features, v1.Policy.Features)
	}
	// The upgraded form survives its own encoding.
	back, err := Decode(v2.Canonical())
	if err != nil {
		t.Fatal(err)
	}
	h1, h2, hBack := traceHash(t, v1), traceHash(t, v2), traceHash(t, back)
	if h1 != h2 || h2 != hBack {
		t.Fatalf("version 1 %s, its upgrade %s, decoded again %s: want one run", h1, h2, hBack)
	}

	// Version 2, the flag alone: stock meaning.
	stock := v1.Clone()
	stock.Version = 2
	plain, err := Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"duration", "40ms"}, {"tasks.client.count", "5"}} {
		if err := plain.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	hStock, hPlain := traceHash(t, stock), traceHash(t, plain)
	if hStock != hPlain || hStock == h1 {
		t.Fatalf("version 2 with SD_BALANCE_WAKE alone %s, without it %s, version 1 with it %s: want the first two equal and the third different", hStock, hPlain, h1)
	}

	// Nothing to upgrade: v6.17, or no flag at or below the LLC.
	for _, s := range []*Scenario{plain, func() *Scenario {
		c := v1.Clone()
		c.Policy.Base = "v6.17"
		return c
	}()} {
		if u := s.Upgrade(); u.Version != 2 || u.Policy.Features["BALANCE_WAKE_MERGE"] {
			t.Errorf("upgrade of a scenario without the v1 meaning set BALANCE_WAKE_MERGE: %v", u.Policy.Features)
		}
	}
}
