package app

import (
	"testing"

	"schedplay/scenarios"
)

// Every preset gets a speed that shows one of its ops within a few seconds
// (issue 20: pelt-pingpong at 1 ms/s took 18 s for its first op).
func TestSpeedFor(t *testing.T) {
	want := map[string]float64{
		"tbench-pairs":    0.001, // 20 µs steps: already a frame each at the default
		"pelt-pingpong":   0.01,  // 18 ms hog iteration: 9 ms/s, up to 10 ms/s
		"sdet-numaq":      0.002, // 3.2 ms command: 1.6 ms/s, up to 2 ms/s
		"kernbench-numaq": 0.02,  // its own view.speed: make's job server's one pass is the whole build (128 ms of its own steps), the 20.1 ms compile is what to follow
	}
	for _, p := range scenarios.Presets() {
		sc, err := scenarios.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		x := SpeedFor(sc)
		if w, ok := want[p.Name]; ok && x != w {
			t.Errorf("%s: speed %g, want %g", p.Name, x, w)
		}
		if x < DefaultSpeed || x > MaxSpeed {
			t.Errorf("%s: speed %g out of range", p.Name, x)
		}
		// One op within OpWall (plus the 1-2-5 rounding) unless the
		// default is already faster, or the preset sets its own speed
		// (kernbench: make's one pass is the whole build).
		op := 0.0
		for _, tk := range sc.Tasks {
			op = max(op, iteration(tk.Program, 0).Seconds())
		}
		if wall := op / x; wall > OpWall.Seconds() && x > DefaultSpeed && sc.View.Speed == 0 {
			t.Errorf("%s: an op of %.3g s takes %.2g s on screen at %g", p.Name, op, wall, x)
		}
		t.Logf("%-20s op %8.3g ms  speed %g", p.Name, op*1e3, x)
	}
	// A scenario's own view.speed wins.
	sc, _ := scenarios.Preset("tbench-pairs")
	sc.View.Speed = 0.05
	if x := SpeedFor(sc); x != 0.05 {
		t.Errorf("view.speed 0.05 gave %g", x)
	}
}
