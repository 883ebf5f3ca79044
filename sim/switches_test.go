package sim

import (
	"strings"
	"testing"
)

// TestSwitchUse: Metrics.Switches names the switches a run never consulted.
// Pairs on one 4-core package of 2 threads with sync wake-ups are affine,
// so SD_BALANCE_WAKE set at SMT and MC is bypassed at every wake-up (counted, and
// noted with the reason), and each wake-up reaches select_idle_sibling();
// with WAKE_AFFINE off the same wake-ups take the flag's slow path and
// select_idle_sibling() is never reached. TTWU_QUEUE is never read (not
// modelled); on v3.8 neither is DELAY_DEQUEUE, on v6.17 BALANCE_WAKE_MERGE
// is not. Reading the switches changes no run.
func TestSwitchUse(t *testing.T) {
	run := func(base Base, bw bool, clear uint32) Metrics {
		t.Helper()
		cfg := &Config{Seed: 1, Duration: 20e6, Machine: machine(1, 1, 1, 4, 2, NumberLinear),
			Policy: Policy{Base: base, FeatClear: clear}, Tasks: pairs(2, 20000)}
		if bw { // on SMT too: v6.17's walk stops at the first level without the flag
			cfg.Policy.SDFlags[LevelSMT].Set = SDBalanceWake
			cfg.Policy.SDFlags[LevelMC].Set = SDBalanceWake
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		return s.Metrics()
	}
	has := func(u SwitchUse, sw string) string {
		for _, n := range u.NotConsulted {
			if n.Switch == sw {
				return n.Why
			}
		}
		return ""
	}
	for _, base := range []Base{BaseV38, BaseV617} {
		m := run(base, true, 0)
		u := m.Switches
		if u.BalanceWakeBypassed != m.Wakeups || u.BalanceWakeSlowPath != 0 || u.SelectIdleSiblingCalls != m.Wakeups {
			t.Errorf("%v, SD_BALANCE_WAKE at SMT and MC, affine pairs: bypassed %d, slow path %d, select_idle_sibling %d of %d wake-ups; want all, 0, all",
				base, u.BalanceWakeBypassed, u.BalanceWakeSlowPath, u.SelectIdleSiblingCalls, m.Wakeups)
		}
		if why := has(u, "policy.sd_flags.<level>.SD_BALANCE_WAKE"); !strings.Contains(why, "affine") {
			t.Errorf("%v: SD_BALANCE_WAKE bypassed but not noted: %+v", base, u.NotConsulted)
		}
		// TTWU_QUEUE: read by both eras at a remote wake-up (3.8
		// ttwu_queue(), v6.17 ttwu_queue_wakelist()), WAKE_AFFINE at every
		// wake-up: neither is noted.
		if has(u, "policy.features.TTWU_QUEUE") != "" || has(u, "policy.features.WAKE_AFFINE") != "" {
			t.Errorf("%v: TTWU_QUEUE or WAKE_AFFINE noted as not consulted (both are read at these remote wake-ups): %+v", base, u.NotConsulted)
		}
		only := "policy.features.DELAY_DEQUEUE"
		if base == BaseV617 {
			only = "policy.features.BALANCE_WAKE_MERGE"
		}
		if has(u, only) == "" {
			t.Errorf("%v: %s (the other era's) not noted: %+v", base, only, u.NotConsulted)
		}
		plain := run(base, false, 0)
		if plain.TraceHash != m.TraceHash || plain.Switches.BalanceWakeBypassed != 0 || has(plain.Switches, "policy.sd_flags.<level>.SD_BALANCE_WAKE") != "" {
			t.Errorf("%v: the flag under affine wake-ups changed the run (%s vs %s) or was noted without being set", base, m.TraceHash, plain.TraceHash)
		}
		slow := run(base, true, 1<<FeatWakeAffine)
		us := slow.Switches
		if us.BalanceWakeSlowPath != slow.Wakeups || us.SelectIdleSiblingCalls != 0 || has(us, "policy.select_idle_sibling") == "" {
			t.Errorf("%v, WAKE_AFFINE off: slow path %d of %d wake-ups, select_idle_sibling %d: want all, 0 and the variant noted", base, us.BalanceWakeSlowPath, slow.Wakeups, us.SelectIdleSiblingCalls)
		}
	}
}
