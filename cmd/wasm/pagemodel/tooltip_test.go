package pagemodel

import (
	"strings"
	"testing"
	"time"

	"schedplay/app"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/render/canvas"
	"schedplay/render/raster"
)

// Hovering a running task names it with its state and PELT values; a CPU
// gives its runqueue; the last decision comes from the event log.
func TestTooltip(t *testing.T) {
	log := &EventLog{}
	f, l := playedStage(t, "pelt-pingpong", 200, log)
	found := false
	for cpu, cell := range l.Cells {
		cs := f.A().Snap.CPUs[cpu]
		cx, cy := cell.Run.Center()
		tip := Tooltip(f, [2]*render.Layout{l}, log, cx, cy)
		if cs.Curr >= 0 {
			found = true
			name := f.A().Tasks[cs.Curr].Name
			if !strings.HasPrefix(tip, name+": running on cpu") || !strings.Contains(tip, "util_avg") {
				t.Errorf("cpu%d's running task: %q", cpu, tip)
			}
		}
		bx, by := cell.Band.Center()
		if tip := Tooltip(f, [2]*render.Layout{l}, log, bx, by); !strings.HasPrefix(tip, "cpu") || !strings.Contains(tip, "nr_running") {
			t.Errorf("cpu%d: %q", cpu, tip)
		}
		t.Logf("cpu%d: %q", cpu, Tooltip(f, [2]*render.Layout{l}, log, bx, by))
	}
	if !found {
		t.Error("no CPU was running a task at the end")
	}
	if tip := Tooltip(f, [2]*render.Layout{l}, log, 1, 1); tip != "" {
		t.Errorf("outside the machine: %q", tip)
	}
}

// An idle CPU in a state that flushes the core's caches says so, and what
// it costs the next task (a walking tbench pair leaves its cores in C6); one
// in a state that does not flush says nothing of caches.
func TestTooltipFlush(t *testing.T) {
	f, l := playedStage(t, "tbench-pairs", 60, nil)
	seen := map[bool]bool{}
	for cpu, cell := range l.Cells {
		cs := f.A().Snap.CPUs[cpu]
		if cs.Curr >= 0 || cs.IdleState < 0 {
			continue
		}
		st := f.A().IdleStates[cs.IdleState]
		bx, by := cell.Band.Center()
		tip := Tooltip(f, [2]*render.Layout{l}, nil, bx, by)
		if says := strings.Contains(tip, st.Name+" flushes the core's L1/L2"); says != st.Flushes {
			t.Errorf("cpu%d idle in %s (flushes %v): %q", cpu, st.Name, st.Flushes, tip)
		}
		seen[st.Flushes] = true
	}
	if !seen[true] {
		t.Error("no idle CPU in a flushing state: the test saw nothing")
	}
}

// playedStage plays preset on a page session for frames frames of 1/30 s
// (each added to log, if any) and lays its last frame out on a 1200x800
// stage, as the page would.
func playedStage(t *testing.T, preset string, frames int, log *EventLog) (*frame.Frame, *render.Layout) {
	t.Helper()
	s := app.NewSession()
	if err := s.LoadPreset(preset, false); err != nil {
		t.Fatal(err)
	}
	s.SetBudget(time.Hour)
	c := canvas.New(raster.Measure)
	t0 := time.Unix(1000, 0)
	for i := range frames {
		f := s.Tick(t0.Add(time.Duration(i)*time.Second/30), time.Second/30)
		if log != nil {
			log.Add(f)
		}
		c.Take(f, float64(i)/30)
	}
	c.Build(render.Rect{X: 10, Y: 100, W: 1200, H: 800}, 7)
	f, l := c.Frame(), c.Layout(0)
	if f == nil || l == nil {
		t.Fatal("no frame")
	}
	return f, l
}
