package scenarios

import (
	"strings"
	"testing"

	"schedplay/sim"
)

// TestSMTGainField: machine.costs.smt_gain reaches the cost model, off by
// default; on the tbench preset's 4x10x2 machine it slows the run once pairs
// share cores, and a value out of range is a path: problem.
func TestSMTGainField(t *testing.T) {
	run := func(sets ...string) (int64, float64) {
		t.Helper()
		s, err := Preset("tbench-pairs")
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range append([]string{"tasks.client.count=64", "duration=100ms"}, sets...) {
			k, v, _ := strings.Cut(kv, "=")
			if err := s.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		cfg, err := s.Config()
		if err != nil {
			t.Fatal(err)
		}
		if len(sets) == 0 && cfg.Machine.Costs.SMTGain != 0 {
			t.Fatalf("default smt_gain %d, want 0 (off)", cfg.Machine.Costs.SMTGain)
		}
		x, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		x.Run()
		m := x.Metrics()
		return m.Ops, m.Costs.SMTShareMS
	}
	offOps, offShare := run()
	onOps, onShare := run("machine.costs.smt_gain=1178")
	if offShare != 0 || onShare <= 0 {
		t.Errorf("smt_share_ms off %.3f, on %.3f: want 0 and > 0", offShare, onShare)
	}
	if onOps >= offOps {
		t.Errorf("64 pairs on 40 cores: %d ops with SMT sharing, %d without: want fewer", onOps, offOps)
	}

	s, _ := Preset("tbench-pairs")
	if err := s.Set("machine.costs.smt_gain", "9000"); err == nil {
		if _, err := s.Config(); err == nil || !strings.Contains(err.Error(), "machine.costs.smt_gain") {
			t.Errorf("smt_gain 9000: %v, want a machine.costs.smt_gain problem", err)
		}
	} else if !strings.Contains(err.Error(), "machine.costs.smt_gain") {
		t.Errorf("smt_gain 9000: %v, want a machine.costs.smt_gain problem", err)
	}
}
