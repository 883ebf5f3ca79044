package sim_test

import (
	"reflect"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

func presetConfig(t *testing.T, name string, sets ...string) *sim.Config {
	t.Helper()
	sc, err := scenarios.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		p, v, _ := strings.Cut(kv, "=")
		if err := sc.Set(p, v); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// For every preset: running to the end continuously, and checkpointing at
// a third of the run, restoring and running the copy to the end, give the
// same trace hash and metrics; the checkpoint is a faithful, independent
// copy of the state; and a Timeline seek (restore the checkpoint before t,
// run to t) lands on the state of a fresh run to t.
func TestCheckpointEveryPreset(t *testing.T) {
	for _, p := range scenarios.Presets() {
		cfg := presetConfig(t, p.Name)
		ref, err := sim.New(cfg)
		if err != nil {
			t.Fatal(p.Name, err)
		}
		ref.Run()
		s, _ := sim.New(cfg)
		s.SetRecording(true)
		tl := sim.NewTimeline(s, cfg.Duration/10, 64<<20)
		for s.Now() < cfg.Duration/3 {
			s.RunUntil(min(tl.Next(s.Now()), cfg.Duration/3))
			s.TakeEvents(nil)
			tl.Observe(s)
		}
		ck := s.Checkpoint()
		if errs := sim.CompareStates(s, ck.Restore()); errs != nil {
			t.Errorf("%s: restore differs from the original:\n  %s", p.Name, strings.Join(errs, "\n  "))
		}
		for s.Now() < cfg.Duration {
			s.RunUntil(tl.Next(s.Now()))
			s.TakeEvents(nil)
			tl.Observe(s)
		}
		r := ck.Restore()
		r.Run()
		for i, x := range []*sim.Sim{s, r} {
			if x.TraceHash() != ref.TraceHash() || x.Events() != ref.Events() {
				t.Errorf("%s: run %d: hash %s events %d, continuous %s %d", p.Name, i, x.TraceHash(), x.Events(), ref.TraceHash(), ref.Events())
			}
			if !reflect.DeepEqual(x.Metrics(), ref.Metrics()) {
				t.Errorf("%s: run %d: metrics differ from the continuous run's", p.Name, i)
			}
		}
		// Seek to a time between checkpoints.
		at := cfg.Duration/2 + cfg.Duration/37
		sk := tl.At(at).Restore()
		if sk.Now() > at || at-sk.Now() >= tl.Interval() {
			t.Errorf("%s: seek to %d restored %d (interval %d)", p.Name, at, sk.Now(), tl.Interval())
		}
		sk.RunUntil(at)
		fresh, _ := sim.New(cfg)
		fresh.RunUntil(at)
		if sk.TraceHash() != fresh.TraceHash() || !reflect.DeepEqual(sk.Metrics(), fresh.Metrics()) {
			t.Errorf("%s: seek to %d: hash %s, a fresh run's %s", p.Name, at, sk.TraceHash(), fresh.TraceHash())
		}
	}
}

// The 256-CPU machine (tbench-pairs with 4x32x2 CPUs and 100 pairs, as in
// the docs' screenshots): checkpoints every 20 ms of a 1 s run (doubling past the 48 MB budget) stay under
// 64 MB, and a seek restores the checkpoint less than one interval before
// the time sought.
func TestCheckpointMemory256(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 1 s of 256 CPUs")
	}
	cfg := presetConfig(t, "tbench-pairs", "machine.cores_per_cluster=32", "tasks.client.count=100", "duration=1s")
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tl := sim.NewTimeline(s, 20e6, 48<<20)
	for s.Now() < cfg.Duration {
		s.RunUntil(tl.Next(s.Now()))
		tl.Observe(s)
	}
	one := tl.At(0).Bytes()
	t.Logf("256 CPUs, 200 tasks: %d checkpoints, interval %d ms, %.1f MB (one: %.0f KB)", tl.Len(), tl.Interval()/1e6, float64(tl.Bytes())/(1<<20), float64(one)/1024)
	if tl.Bytes() >= 64<<20 {
		t.Errorf("checkpoints hold %d bytes, over 64 MB", tl.Bytes())
	}
	if tl.Len() < 2 {
		t.Errorf("only %d checkpoints", tl.Len())
	}
}
