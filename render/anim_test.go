package render

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"schedplay/sim"
)

func TestEase(t *testing.T) {
	if Ease(0) != 0 || Ease(1) != 1 || math.Abs(Ease(0.5)-0.5) > 1e-12 {
		t.Errorf("Ease endpoints: %v %v %v", Ease(0), Ease(0.5), Ease(1))
	}
	prev := 0.0
	for i := 1; i <= 100; i++ {
		v := Ease(float64(i) / 100)
		if v < prev {
			t.Fatalf("Ease not monotonic at %d", i)
		}
		prev = v
	}
	if Ease(-1) != 0 || Ease(2) != 1 {
		t.Errorf("Ease does not clamp")
	}
}

func TestGlides(t *testing.T) {
	g := Glides{Max: 3}
	evs := []sim.Event{
		{Kind: sim.EvWakeup, From: 0, CPU: 1, Task: 1},
		{Kind: sim.EvSwitch, CPU: 1, Task: 1},
		{Kind: sim.EvMigrate, Cause: sim.CauseNewidle, From: 1, CPU: 2, Task: 2},
	}
	g.Add(evs, nil, nil, 0)
	act := g.Active(0.1)
	if len(act) != 2 {
		t.Fatalf("%d glides, want 2", len(act))
	}
	if act[0].Cause != sim.CauseWakeup {
		t.Errorf("a wake-up without cause glides as %v, want wakeup", act[0].Cause)
	}
	// Task 1 moves again: its glide is replaced, not doubled.
	g.Add([]sim.Event{{Kind: sim.EvMigrate, Cause: sim.CauseActive, From: 1, CPU: 3, Task: 1}}, nil, nil, 0.2)
	act = g.Active(0.2)
	if len(act) != 2 || act[1].Task != 1 || act[1].From != 1 || act[1].To != 3 {
		t.Fatalf("after re-move: %+v", act)
	}
	// Max: while the screen is full, new moves are not animated (those on
	// screen finish their flight); the rate says so.
	g.Add([]sim.Event{
		{Kind: sim.EvMigrate, From: 0, CPU: 3, Task: 7},
		{Kind: sim.EvMigrate, From: 0, CPU: 3, Task: 8},
	}, nil, nil, 0.25)
	act = g.Active(0.25)
	if len(act) != 3 || act[0].Task != 2 || act[2].Task != 7 {
		t.Fatalf("after overflow: %+v", act)
	}
	if seen, shown := g.Rate(1.3); seen != 5 || shown != 4 {
		t.Errorf("Rate() = %d seen, %d shown; want 5, 4", seen, shown)
	}
	// Finished glides go.
	if n := len(g.Active(0.25 + GlideDuration + Linger)); n != 0 {
		t.Errorf("%d glides left after they all ended", n)
	}
	if p := (&Glide{Start: 1}).Progress(1+GlideDuration/2, GlideDuration); math.Abs(p-0.5) > 1e-9 {
		t.Errorf("Progress = %v", p)
	}
}

// The mapping from trace events to animations.
func TestGlideFor(t *testing.T) {
	tp := topo(t, machines[2].m) // 4x10x2, x86: cpu0/cpu40 siblings, cpu0/cpu1 same LLC, cpu0/cpu10 other node
	ex := sim.MaskOf(0, 1, 2)
	for _, tc := range []struct {
		e     sim.Event
		ok    bool
		cause sim.Cause
		dist  sim.Distance
	}{
		{sim.Event{Kind: sim.EvWakeup, From: 0, CPU: 40, Task: 1}, true, sim.CauseWakeup, sim.DistSMT},
		{sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseWakeup, From: 0, CPU: 1, Task: 1}, true, sim.CauseWakeup, sim.DistLLC},
		{sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseBalance, From: 0, CPU: 10, Task: 1}, true, sim.CauseBalance, sim.DistNUMA},
		{sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseNewidle, From: 1, CPU: 2, Task: 3}, true, sim.CauseNewidle, sim.DistLLC},
		{sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseNohz, From: 1, CPU: 41, Task: 3}, true, sim.CauseNohz, sim.DistSMT},
		{sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseActive, From: 5, CPU: 25, Task: 3}, true, sim.CauseActive, sim.DistNUMA},
		{sim.Event{Kind: sim.EvFork, From: 0, CPU: 30, Task: 4}, true, sim.CauseFork, sim.DistNUMA},
		{sim.Event{Kind: sim.EvFork, From: 0, CPU: 0, Task: 4}, false, 0, 0},
		{sim.Event{Kind: sim.EvSwitch, From: 0, CPU: 3, Task: 4}, false, 0, 0},
		{sim.Event{Kind: sim.EvBalance, From: 0, CPU: 3, Task: -1}, false, 0, 0},
	} {
		g, ok := GlideFor(&tc.e, tp, ex, 7)
		if ok != tc.ok {
			t.Errorf("%+v: animated %v, want %v", tc.e, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if g.Cause != tc.cause || g.Dist != tc.dist || g.From != tc.e.From || g.To != tc.e.CPU || g.Start != 7 || g.Examined != ex {
			t.Errorf("%+v: glide %+v, want cause %v distance %v", tc.e, g, tc.cause, tc.dist)
		}
	}
}

// Causes are told apart by colour and by line pattern; the arc rises with
// the distance crossed.
func TestCauseStyles(t *testing.T) {
	seen := map[string]sim.Cause{}
	for c := sim.CauseWakeup; c < sim.NumCauses; c++ {
		st := CauseStyle(c)
		key := fmt.Sprint(st.Color, st.Dash, st.Double)
		if o, dup := seen[key]; dup {
			t.Errorf("%v and %v are drawn alike", c, o)
		}
		seen[key] = c
		if st.Name == "" || st.Width <= 0 {
			t.Errorf("%v: style %+v", c, st)
		}
		for _, o := range []sim.Cause{sim.CauseWakeup, sim.CauseBalance, sim.CauseNewidle, sim.CauseNohz, sim.CauseActive, sim.CauseFork} {
			if o != c && CauseColor(o) == st.Color {
				t.Errorf("%v and %v share a colour", c, o)
			}
		}
	}
	prev := -1.0
	for d := sim.DistSMT; d < sim.NumDistances; d++ {
		if l := ArcLift(d); l <= prev {
			t.Errorf("ArcLift(%v) = %v, not above the nearer distance's %v", d, l, prev)
		} else {
			prev = l
		}
		if DistanceLabel(d) == "" {
			t.Errorf("no label for %v", d)
		}
	}
}

func TestArc(t *testing.T) {
	// Ends at the cells' centres; the apex is lift x distance off the chord,
	// on the side of the machine's centre.
	x, y := Arc(0, 0, 100, 0, 0.3, 0, 50, 80)
	if x != 0 || y != 0 {
		t.Errorf("start (%v,%v)", x, y)
	}
	x, y = Arc(0, 0, 100, 0, 0.3, 1, 50, 80)
	if math.Abs(x-100) > 1e-9 || math.Abs(y) > 1e-9 {
		t.Errorf("end (%v,%v)", x, y)
	}
	x, y = Arc(0, 0, 100, 0, 0.3, 0.5, 50, 80)
	if math.Abs(x-50) > 1e-9 || math.Abs(y-30) > 1e-9 {
		t.Errorf("apex (%v,%v), want (50,30): towards the centre below", x, y)
	}
	if _, y = Arc(0, 0, 100, 0, 0.3, 0.5, 50, -80); math.Abs(y+30) > 1e-9 {
		t.Errorf("apex y %v, want -30 (centre above)", y)
	}
	if x, _ = Arc(0, 0, 0, 100, 0.3, 0.5, 200, 50); math.Abs(x-30) > 1e-9 {
		t.Errorf("vertical move bulges to x=%v, want 30 (towards the centre on the right)", x)
	}
}

func TestWakeupMigrationIsOneGlide(t *testing.T) {
	// A wake-up placed on another CPU is two events (EvWakeup, EvMigrate) of
	// one decision: one glide, keeping the examined CPUs.
	var g Glides
	ex := sim.MaskOf(4, 5)
	g.Add([]sim.Event{
		{Kind: sim.EvWakeup, From: 1, CPU: 5, Task: 9},
		{Kind: sim.EvMigrate, Cause: sim.CauseWakeup, From: 1, CPU: 5, Task: 9},
	}, []sim.CPUMask{ex, {}}, nil, 1)
	act := g.Active(1)
	if len(act) != 1 || act[0].Examined != ex || act[0].Cause != sim.CauseWakeup {
		t.Fatalf("glides %+v", act)
	}
	if f := act[0].Fade(1+GlideDuration+Linger/2, GlideDuration); math.Abs(f-0.5) > 1e-9 {
		t.Errorf("halfway through the linger the trail's opacity is %v", f)
	}
}

// A task that moves often glides faster, so that it arrives before its
// next move; the first move of a task takes the full duration.
func TestGlideDurationAdapts(t *testing.T) {
	var g Glides
	move := func(now float64) Glide {
		g.Add([]sim.Event{{Kind: sim.EvMigrate, Cause: sim.CauseBalance, From: 0, CPU: 1, Task: 3}}, nil, nil, now)
		act := g.Active(now)
		return act[len(act)-1]
	}
	if d := move(1).Dur; d != GlideDuration {
		t.Errorf("first move: %v s", d)
	}
	if d := move(1.3).Dur; math.Abs(d-0.24) > 1e-9 {
		t.Errorf("0.3 s after the last move: %v s, want 0.24", d)
	}
	if d := move(1.32).Dur; d != MinGlide {
		t.Errorf("20 ms after the last move: %v s, want the minimum %v", d, MinGlide)
	}
	if d := move(5).Dur; d != GlideDuration {
		t.Errorf("a long time after: %v s", d)
	}
	if len(g.Active(5)) != 1 {
		t.Errorf("one task, %d glides", len(g.Active(5)))
	}
}

// A long move across a wide, low machine keeps its arc inside the machine
// (ArcLiftIn), bulging towards the centre as far as there is room.
func TestArcLiftIn(t *testing.T) {
	r := Rect{X: 0, Y: 0, W: 1000, H: 200}
	cx, cy := r.Center()
	for _, m := range [][4]float64{{20, 40, 980, 40}, {20, 160, 980, 40}, {500, 20, 520, 180}, {30, 100, 970, 100}} {
		lift := ArcLiftIn(m[0], m[1], m[2], m[3], 0.38, cx, cy, r)
		if lift < 0 || lift > 0.38 {
			t.Errorf("%v: lift %v", m, lift)
		}
		for k := 0; k <= 20; k++ {
			x, y := Arc(m[0], m[1], m[2], m[3], lift, float64(k)/20, cx, cy)
			if !r.Inset(-1e-6).Contains(Rect{X: x, Y: y}) {
				t.Errorf("%v: lift %.3f puts the arc at (%.1f,%.1f), outside %v", m, lift, x, y, r)
				break
			}
		}
	}
	// Room enough: the lift is kept.
	if l := ArcLiftIn(400, 90, 600, 110, 0.3, cx, cy, r); l != 0.3 {
		t.Errorf("a short move in the middle: lift %v, want 0.3", l)
	}
}

// TestGlideBadgesInsideMachine: every part of a glide (trail, badge, block)
// is drawn inside the machine, whatever the move. The front end repaints
// only the stage each frame, so anything outside stays on screen: on a
// phone in talk mode with 256 CPUs the badges name both ends ("128→130
// LLC", the cells too small for their numbers), and one centred on an arc
// near the machine's edge stuck out past it and stayed there.
func TestGlideBadgesInsideMachine(t *testing.T) {
	tp := topo(t, sim.Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 32, ThreadsPerCore: 2, Numbering: sim.NumberX86})
	for _, stage := range []Rect{{X: 10, Y: 245, W: 370, H: 508}, {X: 10, Y: 130, W: 400, H: 205}} {
		l, err := NewLayoutWith(tp, stage, nil, LayoutOptions{Talk: true})
		if err != nil {
			t.Fatal(err)
		}
		p := NewPainter(l, tasksN(1), idle, nil)
		bad := 0
		for from := 0; from < tp.NCPU && bad < 3; from += 5 {
			for to := 3; to < tp.NCPU && bad < 3; to += 7 {
				if from == to {
					continue
				}
				gl := Glide{From: int16(from), To: int16(to), Cause: sim.CauseWakeup, Dist: sim.DistLLC, Start: 0}
				var sc Scene
				p.DrawGlides([]Glide{gl}, GlideDuration/2, GlideDuration, &sc)
				r := l.Stage.Inset(-0.5)
				for _, q := range sc.Quads {
					for k := range 4 {
						if !r.Contains(Rect{X: float64(q.X[k]), Y: float64(q.Y[k])}) {
							t.Errorf("%v: cpu%d→cpu%d: a quad at (%.1f,%.1f), outside the machine %v", stage, from, to, q.X[k], q.Y[k], l.Stage)
							bad++
							break
						}
					}
				}
				for _, tx := range sc.Texts {
					w := ApproxMeasure(tx.S, tx.Size)
					x0 := tx.X - w/2 // badges are centred
					if tx.Align == AlignLeft {
						x0 = tx.X
					}
					if !r.Contains(Rect{X: x0, Y: tx.Y - tx.Size/2, W: w, H: tx.Size}) {
						t.Errorf("%v: cpu%d→cpu%d: %q from x=%.1f to %.1f, outside the machine %v", stage, from, to, tx.S, x0, x0+w, l.Stage)
						bad++
					}
				}
			}
		}
	}
}

// TestGlideBadgesDoNotOverlap: the badges of moves in flight at once never
// cover each other. 40 tbench pairs on a phone in talk mode (the cells too
// small for their numbers, so each badge names both CPUs) piled "30→31
// LLC", "32→33 LLC" and "39→36 LLC" into one unreadable block; now a badge
// that would cover a newer one is left out, and the newest move always has
// its badge.
func TestGlideBadgesDoNotOverlap(t *testing.T) {
	// 256 CPUs on a phone in talk mode: cells without numbers.
	tp := topo(t, sim.Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 32, ThreadsPerCore: 2, Numbering: sim.NumberX86})
	l, err := NewLayoutWith(tp, Rect{X: 10, Y: 245, W: 370, H: 508}, nil, LayoutOptions{Talk: true})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPainter(l, tasksN(1), idle, nil)
	// Six moves between neighbouring CPUs of one socket, started together:
	// their arcs' apexes are a few pixels apart.
	var act []Glide
	for k := range 6 {
		act = append(act, Glide{From: int16(130 + k), To: int16(138 + k), Cause: sim.CauseWakeup, Dist: sim.DistLLC, Start: float64(k) * 0.01})
	}
	var sc Scene
	p.DrawGlides(act, 0.1, GlideDuration, &sc)
	var boxes []Rect
	var names []string
	for _, tx := range sc.Texts {
		if !strings.HasSuffix(tx.S, "LLC") {
			continue
		}
		w := ApproxMeasure(tx.S, tx.Size)
		boxes = append(boxes, Rect{X: tx.X - w/2, Y: tx.Y - tx.Size/2, W: w, H: tx.Size})
		names = append(names, tx.S)
	}
	for i := range boxes {
		for j := range i {
			if boxes[i].Overlaps(boxes[j]) {
				t.Errorf("badges %q and %q overlap (%v, %v)", names[j], names[i], boxes[j], boxes[i])
			}
		}
	}
	if !slices.Contains(names, "135→143 LLC") {
		t.Errorf("badges %q: the newest move's (135→143 LLC) is not among them", names)
	}
	t.Logf("badges shown: %q", names)
}

// TestGlideBadgesSpareCPUNumbers: a move's badge does not hide a CPU's
// number where a place along its arc leaves them all readable. On the
// desktop page's 80-CPU Westmere (tbench-pairs) a wake-up from cpu11 to
// cpu13 bows into the row below, and the "LLC" at its apex sat on cpu52's
// and cpu53's numbers; the badge now slides along the arc to the nearest
// place that covers none.
func TestGlideBadgesSpareCPUNumbers(t *testing.T) {
	tp := topo(t, sim.Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 10, ThreadsPerCore: 2, Numbering: sim.NumberX86})
	l, err := NewLayout(tp, Rect{X: 470, Y: 148, W: 764, H: 444}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPainter(l, tasksN(1), idle, nil)
	// The numbers as the cells draw them.
	numbers := func() (rs []Rect) {
		var sc Scene
		p.Cells(emptySnap(tp.NCPU), &sc)
		labels := map[string]bool{}
		for i := range l.Cells {
			labels[l.Cells[i].Label] = true
		}
		for _, tx := range sc.Texts {
			if !labels[tx.S] {
				continue
			}
			w := p.Measure(tx.S, tx.Size)
			x0 := tx.X - w/2
			if tx.Align == AlignLeft {
				x0 = tx.X
			}
			rs = append(rs, Rect{X: x0, Y: tx.Y - tx.Size/2, W: w, H: tx.Size})
		}
		return rs
	}()
	if len(numbers) != tp.NCPU {
		t.Fatalf("%d of %d cells carry their number: the layout is not the page's", len(numbers), tp.NCPU)
	}
	moves, spared := 0, 0
	for from := range tp.NCPU {
		for _, to := range []int{from + 1, from + 2, from + 3} {
			if to >= tp.NCPU || tp.Distance(from, to) != sim.DistLLC {
				continue
			}
			gl := Glide{From: int16(from), To: int16(to), Cause: sim.CauseWakeup, Dist: sim.DistLLC}
			var sc Scene
			p.DrawGlides([]Glide{gl}, GlideDuration/2, GlideDuration, &sc)
			var badge *Text
			for k := range sc.Texts {
				if sc.Texts[k].S == "LLC" {
					badge = &sc.Texts[k]
				}
			}
			if badge == nil {
				continue // too short a move for a badge
			}
			moves++
			w := p.Measure(badge.S, badge.Size) + badge.Size*0.6
			box := Rect{X: badge.X - w/2, Y: badge.Y - badge.Size*0.7, W: w, H: badge.Size * 1.4}
			if !slices.ContainsFunc(numbers, box.Overlaps) {
				spared++
				continue
			}
			t.Errorf("cpu%d→cpu%d: the badge at (%.0f,%.0f) covers a CPU's number", from, to, badge.X, badge.Y)
		}
	}
	if moves < 40 {
		t.Fatalf("only %d moves had a badge", moves)
	}
	t.Logf("%d of %d LLC moves' badges cover no CPU's number", spared, moves)
}
