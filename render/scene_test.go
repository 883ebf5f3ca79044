package render

import (
	"image/color"
	"math"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

func tasksN(n int) []sim.TaskInfo {
	out := make([]sim.TaskInfo, n)
	for i := range out {
		out[i] = sim.TaskInfo{ID: i, Name: "client/" + strconv.Itoa(i), Index: i}
	}
	return out
}

var idle = []sim.IdleState{{Name: "C1", After: 0}, {Name: "C6", After: 1000000}}

func emptySnap(n int) *sim.Snapshot {
	s := &sim.Snapshot{CPUs: make([]sim.CPUSnap, n)}
	for i := range s.CPUs {
		s.CPUs[i] = sim.CPUSnap{Curr: -1, IdleState: -1}
	}
	return s
}

func hasQuad(s *Scene, inside Rect, c color.RGBA) bool {
	for _, q := range s.Quads {
		if q.C != c {
			continue
		}
		r := Rect{float64(q.X[0]), float64(q.Y[0]), float64(q.X[2] - q.X[0]), float64(q.Y[2] - q.Y[0])}
		if inside.Inset(-0.01).Contains(r) {
			return true
		}
	}
	return false
}

func findText(s *Scene, str string) *Text {
	for i := range s.Texts {
		if s.Texts[i].S == str {
			return &s.Texts[i]
		}
	}
	return nil
}

func TestCellsScene(t *testing.T) {
	tp := topo(t, machines[3].m) // 2 sockets x 8 cores x 2 threads, 32 CPUs
	l, err := NewLayout(tp, Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tasks := tasksN(40)
	p := NewPainter(l, tasks, idle, nil)
	snap := emptySnap(tp.NCPU)
	snap.CPUs[0] = sim.CPUSnap{Curr: 3, Queue: []int32{4, 5}, IdleState: -1, UtilAvg: 512}
	snap.CPUs[1] = sim.CPUSnap{Curr: -1, IdleState: 1}
	// More queued tasks than slots: the last slot says how many are left.
	long := make([]int32, l.QueueCols*l.QueueRows+3)
	for i := range long {
		long[i] = int32(6 + i%30)
	}
	snap.CPUs[2] = sim.CPUSnap{Curr: 7, Queue: long, IdleState: -1}
	// Leaving an idle state with a task queued: neither idle nor running.
	snap.CPUs[3] = sim.CPUSnap{Curr: -1, Queue: []int32{9}, IdleState: -1}

	var sc Scene
	p.Cells(snap, &sc)

	c0 := &l.Cells[0]
	if !hasQuad(&sc, c0.Run, TaskColor(3)) {
		t.Errorf("no block of task 3's colour in cpu0's run area")
	}
	if !hasQuad(&sc, c0.Queue, TaskColor(4)) || !hasQuad(&sc, c0.Queue, TaskColor(5)) {
		t.Errorf("queued tasks 4 and 5 not drawn in cpu0's queue")
	}
	if !hasQuad(&sc, c0.Util, UtilBar) {
		t.Errorf("no util bar on cpu0")
	}
	if tx := findText(&sc, p.look(3).run); tx == nil || !c0.Run.Contains(Rect{tx.X, tx.Y, 0, 0}) {
		t.Errorf("task 3's label %q not in cpu0's run area", p.look(3).run)
	} else if Contrast(tx.C, TaskColor(3)) < 4.5 {
		t.Errorf("task label contrast %.1f", Contrast(tx.C, TaskColor(3)))
	}
	if tx := findText(&sc, "C6"); tx == nil || !l.Cells[1].Run.Contains(Rect{tx.X, tx.Y, 0, 0}) {
		t.Errorf("idle cpu1 does not show its C-state C6")
	}
	if n := strings.Count(textsOf(&sc), "|idle|"); n != tp.NCPU-4 {
		t.Errorf("%d cells say idle, want %d", n, tp.NCPU-4)
	}
	if tx := findText(&sc, "waking"); tx == nil || !l.Cells[3].Run.Contains(Rect{tx.X, tx.Y, 0, 0}) {
		t.Errorf("cpu3, leaving idle with a queued task, does not say waking")
	}
	more := "+4" // the last slot and the 3 that did not fit
	if tx := findText(&sc, more); tx == nil || !l.Cells[2].Queue.Contains(Rect{tx.X, tx.Y, 0, 0}) {
		t.Errorf("overflowing queue of cpu2 does not show %q", more)
	}
	for _, c := range l.Cells {
		if findText(&sc, c.Label) == nil {
			t.Errorf("cpu%d label %q missing", c.CPU, c.Label)
		}
	}
	for _, q := range sc.Quads {
		for k := range 4 {
			if !l.Stage.Contains(Rect{float64(q.X[k]), float64(q.Y[k]), 0, 0}) {
				t.Fatalf("quad corner outside the stage: %v", q)
			}
		}
	}
}

func textsOf(s *Scene) string {
	var b strings.Builder
	b.WriteString("|")
	for _, t := range s.Texts {
		b.WriteString(t.S)
		b.WriteString("|")
	}
	return b.String()
}

func TestStaticScene(t *testing.T) {
	tp := topo(t, machines[2].m)
	l, err := NewLayout(tp, Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sc Scene
	StaticScene(l, &sc)
	for _, want := range []string{"node 0", "node 3"} {
		if !strings.Contains(textsOf(&sc), "|"+want) {
			t.Errorf("static scene lacks label %q: %s", want, textsOf(&sc))
		}
	}
	if len(sc.Quads) < len(l.Boxes) {
		t.Errorf("%d quads for %d boxes", len(sc.Quads), len(l.Boxes))
	}
	// Reset keeps nothing.
	sc.Reset()
	if len(sc.Quads)+len(sc.Texts) != 0 {
		t.Errorf("Reset left %d quads, %d texts", len(sc.Quads), len(sc.Texts))
	}
}

func TestGlidesScene(t *testing.T) {
	tp := topo(t, machines[0].m)
	l, err := NewLayout(tp, Rect{W: 800, H: 600}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPainter(l, tasksN(2), nil, nil)
	var g Glides
	g.Add([]sim.Event{{Kind: sim.EvMigrate, Cause: sim.CauseBalance, From: 0, CPU: 1, Task: 1}}, nil, tp, 10)
	var sc Scene
	p.Glides(&g, 10+GlideDuration/2, &sc)
	// Halfway: the block is between the two cells' run centres.
	x0, _ := l.Cells[0].Run.Center()
	x1, _ := l.Cells[1].Run.Center()
	found := false
	for _, q := range sc.Quads {
		if q.C != TaskColor(1) {
			continue
		}
		cx := float64(q.X[0]+q.X[1]) / 2
		if cx > min(x0, x1)+10 && cx < max(x0, x1)-10 {
			found = true
		}
	}
	if !found {
		t.Errorf("no gliding block between cpu0 and cpu1 at mid-flight")
	}
	if !hasQuadColor(&sc, CauseColor(sim.CauseBalance)) {
		t.Errorf("glide not outlined in the balance colour")
	}
	sc.Reset()
	p.Glides(&g, 10+GlideDuration+Linger+0.01, &sc)
	if len(sc.Quads) != 0 {
		t.Errorf("glide still drawn after it ended")
	}
}

func hasQuadColor(s *Scene, c color.RGBA) bool {
	for _, q := range s.Quads {
		if q.C == c {
			return true
		}
	}
	return false
}

func TestPELTBars(t *testing.T) {
	tp := topo(t, machines[0].m) // 2 CPUs: big cells, labelled bars
	l, err := NewLayout(tp, Rect{W: 1000, H: 600}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.BarFont == 0 {
		t.Fatalf("2-CPU cells should carry bar labels")
	}
	snap := emptySnap(2)
	snap.Tasks = []sim.TaskSnap{{LoadAvg: 300}, {LoadAvg: 200}, {LoadAvg: 900}}
	// cpu0 runs task 0 with task 1 queued; its load_avg 800 has 300 of
	// blocked load (the asleep task 2's decaying share).
	snap.CPUs[0] = sim.CPUSnap{Curr: 0, Queue: []int32{1}, IdleState: -1, UtilAvg: 512, RunnableAvg: 1500, LoadAvg: 800,
		RunnableLoadAvg: 100, BlockedLoadAvg: 50}
	width := func(sc *Scene, r Rect, c color.RGBA) float64 {
		w := 0.0
		for _, q := range sc.Quads {
			if q.C == c && float64(q.Y[0]) >= r.Y-0.01 && float64(q.Y[2]) <= r.Bottom()+0.01 && float64(q.X[0]) >= r.X-0.01 && float64(q.X[1]) <= r.Right()+0.01 {
				w += float64(q.X[1] - q.X[0])
			}
		}
		return w
	}
	c := &l.Cells[0]
	for _, v38 := range []bool{false, true} {
		p := NewPainter(l, tasksN(3), idle, nil)
		p.V38 = v38
		var sc Scene
		p.Cells(snap, &sc)
		near := func(got, want float64, what string) {
			if math.Abs(got-want) > 0.5 {
				t.Errorf("v38=%v: %s %.1f px, want %.1f", v38, what, got, want)
			}
		}
		near(width(&sc, c.Util, UtilBar), c.Util.W*512/1024, "util bar")
		if !hasQuad(&sc, c.Util, BarTick) {
			t.Errorf("v38=%v: no scale notch on the util bar", v38)
		}
		// runnable_avg above the scale: full bar, and the overflow tip.
		if !hasQuad(&sc, c.Runnable, BarOverflow) {
			t.Errorf("v38=%v: runnable_avg 1500 without the overflow tip", v38)
		}
		run, blocked := 500.0, 300.0 // v6.17: tasks 0+1 on the rq, the rest blocked
		if v38 {
			run, blocked = 100, 50
		}
		near(width(&sc, c.Load, LoadBar), c.Load.W*run/1024, "load bar, runnable part")
		near(width(&sc, c.Load, BlockedBar), c.Load.W*blocked/1024, "load bar, blocked part")
		if findText(&sc, "util") == nil || findText(&sc, "512") == nil || findText(&sc, "800") == nil && !v38 {
			t.Errorf("v38=%v: bar labels missing: %s", v38, textsOf(&sc))
		}
	}
}

func TestCompactCells(t *testing.T) {
	tp := topo(t, machines[5].m) // 256 CPUs
	l, err := NewLayout(tp, Rect{W: 600, H: 400}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Compact {
		t.Fatalf("256 CPUs in 600x400 should use the compact view (cells %.0fx%.0f)", l.Cells[0].W, l.Cells[0].H)
	}
	p := NewPainter(l, tasksN(300), idle, nil)
	snap := emptySnap(tp.NCPU)
	snap.CPUs[7] = sim.CPUSnap{Curr: 42, Queue: []int32{1, 2}, NrRunning: 3, IdleState: -1}
	snap.CPUs[8] = sim.CPUSnap{Curr: -1, IdleState: 1}
	var sc Scene
	p.Cells(snap, &sc)
	if !hasQuad(&sc, l.Cells[7].Run, TaskColor(42)) {
		t.Errorf("the running task's colour is not in cpu7's block")
	}
	if !hasQuad(&sc, l.Cells[7].Band, HeatColor(3)) {
		t.Errorf("cpu7's strip is not nr_running 3's heat colour")
	}
	if !hasQuad(&sc, l.Cells[8].Rect, IdleShade(1, 2)) {
		t.Errorf("idle cpu8 is not shaded by its C-state")
	}
	if len(sc.Texts) != 0 {
		t.Errorf("the compact view draws %d texts", len(sc.Texts))
	}
}

func TestExaminedAndPinned(t *testing.T) {
	tp := topo(t, machines[3].m) // 32 CPUs
	l, err := NewLayout(tp, Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPainter(l, tasksN(4), idle, nil)
	var g Glides
	ex := sim.MaskOf(2, 3, 9)
	g.Add([]sim.Event{{Kind: sim.EvMigrate, Cause: sim.CauseNewidle, From: 2, CPU: 9, Task: 1}}, []sim.CPUMask{ex}, tp, 5)
	outlined := func(sc *Scene) map[int]bool {
		out := map[int]bool{}
		col := WithAlpha(CauseColor(sim.CauseNewidle), 0.85)
		for cpu := range l.Cells {
			if hasQuad(sc, l.Cells[cpu].Rect.Inset(-1), col) {
				out[cpu] = true
			}
		}
		return out
	}
	var sc Scene
	p.Glides(&g, 5.1, &sc)
	if got := outlined(&sc); len(got) != 3 || !got[2] || !got[3] || !got[9] {
		t.Errorf("in flight: outlined %v, want cpus 2, 3, 9", got)
	}
	if findText(&sc, DistanceLabel(tp.Distance(2, 9))) == nil {
		t.Errorf("no distance badge %q", DistanceLabel(tp.Distance(2, 9)))
	}
	sc.Reset()
	p.Glides(&g, 5+GlideDuration+0.1, &sc)
	if len(outlined(&sc)) != 0 {
		t.Errorf("examined CPUs still outlined after the task arrived")
	}
	// Pinned (paused on the move): arrived, outlined, however late.
	sc.Reset()
	pin, _ := GlideFor(&sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseNewidle, From: 2, CPU: 9, Task: 1}, tp, ex, 0)
	p.Pinned([]Glide{pin}, &sc)
	if got := outlined(&sc); len(got) != 3 {
		t.Errorf("pinned: outlined %v", got)
	}
	x, y := l.Cells[9].Run.Center()
	if tx := findText(&sc, p.look(1).glide); p.look(1).glide != "" && (tx == nil || math.Abs(tx.X-x) > 1 || math.Abs(tx.Y-y) > 1) {
		t.Errorf("pinned task not at its destination")
	}
}

func TestIdleWhileOverloadedOutline(t *testing.T) {
	tp := topo(t, machines[3].m) // 32 CPUs
	l, err := NewLayout(tp, Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPainter(l, tasksN(8), idle, nil)
	snap := emptySnap(tp.NCPU)
	for c := range snap.CPUs {
		snap.CPUs[c] = sim.CPUSnap{Curr: int32(c % 8), NrRunning: 1, IdleState: -1}
	}
	snap.CPUs[5] = sim.CPUSnap{Curr: -1, IdleState: 0}
	outlined := func() bool {
		var sc Scene
		p.Cells(snap, &sc)
		return hasQuad(&sc, l.Cells[5].Rect, IWOColor)
	}
	if IdleWhileOverloaded(snap) || outlined() {
		t.Errorf("an idle CPU with nobody waiting is marked")
	}
	snap.CPUs[9] = sim.CPUSnap{Curr: 1, Queue: []int32{2}, NrRunning: 2, IdleState: -1}
	if !IdleWhileOverloaded(snap) || !outlined() {
		t.Errorf("idle cpu5 while task 2 waits on cpu9 is not outlined")
	}
}

// TestNoPELTBars: an era without PELT (v2.6.8: the snapshot says NoPELT)
// draws no bar, no scale notch and no bar label, even with stale values.
func TestNoPELTBars(t *testing.T) {
	tp := topo(t, machines[0].m)
	l, err := NewLayout(tp, Rect{W: 1000, H: 600}, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap := emptySnap(2)
	snap.NoPELT = true
	snap.CPUs[0] = sim.CPUSnap{Curr: 0, IdleState: -1, UtilAvg: 512, RunnableAvg: 512, LoadAvg: 512}
	p := NewPainter(l, tasksN(1), idle, nil)
	var sc Scene
	p.Cells(snap, &sc)
	for _, c := range []color.RGBA{UtilBar, RunnableBar, LoadBar, BarTick, UtilBarTrack} {
		if hasQuadColor(&sc, c) {
			t.Errorf("a PELT bar colour %v is drawn on an era without PELT", c)
		}
	}
	if findText(&sc, "util") != nil {
		t.Errorf("bar labels drawn: %s", textsOf(&sc))
	}
}
