package render

import (
	"image/color"
	"testing"

	"schedplay/sim"
)

// quadAt reports whether s has a quad of colour c whose top-left corner is
// at (x, y), to a pixel.
func quadAt(s *Scene, c color.RGBA, x, y float64) bool {
	for _, q := range s.Quads {
		if q.C == c && absf(float64(q.X[0])-x) < 1 && absf(float64(q.Y[0])-y) < 1 {
			return true
		}
	}
	return false
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestO1ArraysDrawn: a v2.6.8 O(1) cell draws its active array in the upper
// half of the bars' band and its expired array in the lower, each task at
// x = band.X + (prio-100)/40 of the band's width, and frames the expired
// tasks in the queue grid; staircase draws one strip ("stairs") and no
// expired frame. Task 1 (prio 115) and 2 (120) are active, 3 (125) expired.
func TestO1ArraysDrawn(t *testing.T) {
	tp := topo(t, machines[0].m)
	l, err := NewLayout(tp, Rect{W: 1000, H: 600}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"o1", "staircase"} {
		snap := emptySnap(2)
		snap.NoPELT, snap.CPUScheduler = true, sched
		cs := sim.CPUSnap{Curr: 0, CurrPrio: 120, IdleState: -1, Queue: []int32{1, 2, 3}, QueuePrio: []int16{115, 120, 125}, NrRunning: 4}
		if sched == "o1" {
			cs.Expired = 1
		}
		snap.CPUs[0] = cs
		p := NewPainter(l, tasksN(4), idle, nil)
		var sc Scene
		p.Cells(snap, &sc)
		c := &l.Cells[0]
		w := c.Util.W / 40
		band := Rect{X: c.Util.X, Y: c.Util.Y, W: c.Util.W, H: c.Load.Bottom() - c.Util.Y}
		gap := min(2, band.H/8)
		lower := band.Y + (band.H-gap)/2 + gap
		col := func(id int32) color.RGBA { b, _ := p.taskColor(id); return b }
		if !quadAt(&sc, col(1), c.Util.X+15*w, c.Util.Y) || !quadAt(&sc, col(2), c.Util.X+20*w, c.Util.Y) {
			t.Errorf("%s: active tasks not at prio 115 and 120 on the top strip", sched)
		}
		y3 := lower
		if sched == "staircase" {
			y3 = band.Y
		}
		if !quadAt(&sc, col(3), band.X+25*w, y3) {
			t.Errorf("%s: task 3 not at prio 125 on its strip", sched)
		}
		framed := hasQuadColor(&sc, ExpiredMark)
		if framed != (sched == "o1") {
			t.Errorf("%s: expired frame drawn %v", sched, framed)
		}
		if l.BarFont > 0 && (findText(&sc, "expired") != nil) != (sched == "o1") {
			t.Errorf("%s: labels %s", sched, textsOf(&sc))
		}
		// The running task's frame (prio 120) is on the top strip only.
		frames := 0
		for _, q := range sc.Quads {
			if q.C == CellLabel && absf(float64(q.X[0])-(band.X+20*w-1)) < 1 {
				frames++
			}
		}
		if frames != 3 { // a frame: top, bottom and left edges start at its left
			t.Errorf("%s: %d quads of the running task's frame, want 3", sched, frames)
		}
		if hasQuadColor(&sc, UtilBar) || hasQuadColor(&sc, LoadBar) {
			t.Errorf("%s: a PELT bar is drawn", sched)
		}
	}
	items := LegendItems(LegendOptions{V268: true})
	for _, it := range items {
		if it.Text == "util_avg" {
			t.Errorf("v2.6.8 legend lists util_avg")
		}
	}
}
