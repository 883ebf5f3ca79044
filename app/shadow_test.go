package app

import (
	"reflect"
	"runtime"
	"testing"
	"time"

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

// TestShadowStillIsTheWorkersFirstFrame: the page draws its first picture
// of a scenario from its shadow (Still) before the worker's first frame
// arrives, so that picture must be the worker's t = 0 frame: same
// revision, machine, tasks and snapshot, on each side of an A/B. A
// playing session's Tick with no time elapsed is that frame.
func TestShadowStillIsTheWorkersFirstFrame(t *testing.T) {
	for _, preset := range []string{scenarios.DefaultPreset, "aim9-burst", "tbench-pairs"} {
		load := func(shadow bool) *Session {
			s := NewSession()
			if shadow {
				s.SetShadow()
			}
			if err := s.LoadPreset(preset, false); err != nil {
				t.Fatal(err)
			}
			if err := s.SetCompare([]string{"policy.load_metric=load_weight"}); err != nil {
				t.Fatal(err)
			}
			return s
		}
		now := time.Unix(0, 0)
		still := load(true).Still(now)
		first := load(false).Tick(now, 0)
		if still == nil || first == nil {
			t.Fatalf("%s: still %v, first frame %v", preset, still, first)
		}
		if still.Rev != first.Rev || still.Title != first.Title || still.AB != first.AB || !still.AB {
			t.Errorf("%s: still frame rev %d title %q A/B %v, the worker's rev %d title %q A/B %v",
				preset, still.Rev, still.Title, still.AB, first.Rev, first.Title, first.AB)
		}
		for i := range first.Sides {
			a, b := &still.Sides[i], &first.Sides[i]
			if a.Now != 0 || b.Now != 0 {
				t.Errorf("%s side %d: still at %d ns, first frame at %d ns, both should be at 0", preset, i, a.Now, b.Now)
			}
			if !reflect.DeepEqual(a.Topology, b.Topology) || !reflect.DeepEqual(a.Tasks, b.Tasks) || !reflect.DeepEqual(a.Snap, b.Snap) {
				t.Errorf("%s side %d: the still frame's machine, tasks or snapshot differ from the worker's first frame", preset, i)
			}
		}
	}
	if f := NewSession().Still(time.Now()); f != nil {
		t.Errorf("a session with no scenario has a still frame: %+v", f)
	}
}
