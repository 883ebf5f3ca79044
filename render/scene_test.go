package render

import (
	"image/color"
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
	if tx := findText(&sc, p.runLabels[3]); tx == nil || !c0.Run.Contains(Rect{tx.X, tx.Y, 0, 0}) {
		t.Errorf("task 3's label %q not in cpu0's run area", p.runLabels[3])
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
