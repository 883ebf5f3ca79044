package app

import (
	"runtime"
	"testing"

	"schedplay/scenarios"
)

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestShadowLoadIsLight: the page's main thread mirrors the worker's
// session with a shadow that never simulates, so loading a scenario there
// must not build what only a running simulator needs (the 16384-entry
// decision ring: 5 MB per side, a long task per load in wasm; nor the
// timeline's first checkpoint, a copy of the simulator). aim9-burst with
// A/B: the shadow allocates under 3.5 MB, a playing session over twice
// that (before: both 14 MB; with the checkpoints and a new compressor per
// link, the shadow 4.1 MB).
func TestShadowLoadIsLight(t *testing.T) {
	p, err := scenarios.Preset("aim9-burst")
	if err != nil {
		t.Fatal(err)
	}
	load := func(shadow bool) uint64 {
		s := NewSession()
		if shadow {
			s.SetShadow()
		}
		if err := s.LoadPreset(scenarios.DefaultPreset, false); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCompare([]string{"policy.load_metric=load_weight"}); err != nil {
			t.Fatal(err)
		}
		return allocated(func() {
			if err := s.Replace(p.Clone()); err != nil {
				t.Fatal(err)
			}
		})
	}
	light, full := load(true), load(false)
	t.Logf("loading aim9-burst with A/B: shadow %.1f MB, playing session %.1f MB", float64(light)/(1<<20), float64(full)/(1<<20))
	if light > 7<<19 || full < 2*light {
		t.Errorf("a shadow load allocates %d bytes, a playing session's %d: the shadow should skip the simulator's recording and checkpoints", light, full)
	}
}
