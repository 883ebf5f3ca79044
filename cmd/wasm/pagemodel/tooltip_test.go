package pagemodel

import (
	"strings"
	"testing"
	"time"

	"schedplay/app"
	"schedplay/render"
	"schedplay/render/canvas"
	"schedplay/render/raster"
)

// Hovering a running task names it with its state and PELT values; a CPU
// gives its runqueue; the last decision comes from the event log.
func TestTooltip(t *testing.T) {
	s := app.NewSession()
	if err := s.LoadPreset("pelt-pingpong", false); err != nil {
		t.Fatal(err)
	}
	s.SetBudget(time.Hour)
	c := canvas.New(raster.Measure)
	log := &EventLog{}
	t0 := time.Unix(1000, 0)
	for i := range 200 {
		f := s.Tick(t0.Add(time.Duration(i)*time.Second/30), time.Second/30)
		log.Add(f)
		c.Take(f, float64(i)/30)
	}
	stage := render.Rect{X: 10, Y: 100, W: 1200, H: 800}
	c.Build(stage, 7)
	f, l := c.Frame(), c.Layout(0)
	if f == nil || l == nil {
		t.Fatal("no frame")
	}
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
