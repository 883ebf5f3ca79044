package render

import (
	"math"
	"strings"
	"testing"

	"schedplay/frame"
	"schedplay/sim"
)

func TestNiceCeil(t *testing.T) {
	for _, tc := range []struct{ v, want float64 }{
		{0, 1}, {-3, 1}, {1, 1}, {1.01, 2}, {3, 5}, {7, 10}, {40_000, 50_000}, {150_000, 200_000}, {0.003, 0.005},
	} {
		if got := NiceCeil(tc.v); math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("NiceCeil(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestHeatRows(t *testing.T) {
	tp := topo(t, machines[2].m) // 4 nodes x 10 cores x 2 threads, x86 numbering
	hr := NewHeatRows(tp, 1000)
	if len(hr.Groups) != 80 || len(hr.NodeStart) != 4 {
		t.Fatalf("%d rows, %d nodes", len(hr.Groups), len(hr.NodeStart))
	}
	// Topology order: core 0's threads (cpu0, cpu40) first and adjacent.
	if hr.Groups[0][0] != 0 || hr.Groups[1][0] != 40 || hr.Groups[2][0] != 1 {
		t.Errorf("first rows %v %v %v, want cpu0, cpu40, cpu1", hr.Groups[0], hr.Groups[1], hr.Groups[2])
	}
	for k, start := range hr.NodeStart {
		if start != 20*k || tp.CPU[hr.Groups[start][0]].Node != k {
			t.Errorf("node %d starts at row %d", k, start)
		}
	}
	// Fewer rows than CPUs: groups of adjacent CPUs, every CPU once.
	hr = NewHeatRows(tp, 30)
	seen := map[int]bool{}
	for _, g := range hr.Groups {
		for _, c := range g {
			if seen[c] {
				t.Fatalf("cpu%d in two rows", c)
			}
			seen[c] = true
		}
	}
	if len(seen) != 80 || len(hr.Groups) > 30 {
		t.Errorf("%d CPUs in %d rows", len(seen), len(hr.Groups))
	}
}

func TestHeatPixels(t *testing.T) {
	tp := topo(t, machines[0].m) // 2 CPUs
	hr := NewHeatRows(tp, 100)
	mk := func(nr0, nr1 uint8, iwo int) *frame.Sample {
		s := &frame.Sample{NR: []uint8{nr0, nr1}, IWO: iwo}
		for c, nr := range s.NR {
			if nr == 0 {
				s.Idle.Set(c)
			}
		}
		return s
	}
	samples := []*frame.Sample{mk(1, 0, 0), mk(3, 0, 1), mk(9, 2, 0)}
	pix := HeatPixels(nil, samples, hr)
	if len(pix) != frame.SeriesLen*2*4 {
		t.Fatalf("%d bytes", len(pix))
	}
	at := func(x, y int) [4]byte {
		o := (y*frame.SeriesLen + x) * 4
		return [4]byte{pix[o], pix[o+1], pix[o+2], pix[o+3]}
	}
	rgba := func(c [4]uint8) [4]byte { return c }
	col := func(nr int) [4]byte { c := HeatColor(nr); return rgba([4]uint8{c.R, c.G, c.B, 0xff}) }
	x0 := frame.SeriesLen - 3 // the newest sample is the right-most column
	if at(0, 0)[3] != 0 || at(x0-1, 1)[3] != 0 {
		t.Errorf("slots without samples are not transparent")
	}
	if at(x0, 0) != col(1) || at(x0, 1) != col(0) {
		t.Errorf("sample 0: %v %v", at(x0, 0), at(x0, 1))
	}
	iwo := [4]byte{IWOColor.R, IWOColor.G, IWOColor.B, 0xff}
	if at(x0+1, 0) != col(3) || at(x0+1, 1) != iwo {
		t.Errorf("sample 1 (cpu1 idle while cpu0 has 2 waiting): %v %v", at(x0+1, 0), at(x0+1, 1))
	}
	if at(x0+2, 0) != col(HeatLevels-1) || at(x0+2, 1) != col(2) {
		t.Errorf("sample 2: %v %v", at(x0+2, 0), at(x0+2, 1))
	}
}

// Charts draw inside their panels, whatever the data.
func TestChartsStayInside(t *testing.T) {
	var ss []*frame.Sample
	for i := range frame.SeriesLen + 10 {
		s := &frame.Sample{T: int64(i+1) * 1000, Dt: 1000, Ops: int64(i % 7), OpsRate: float64(i%7) * 1e6,
			LatP50: float64(i % 5), LatP95: float64(i%5) * 10, LatP99: float64(i%5) * 100, NR: []uint8{1, 2}}
		if i%9 == 0 {
			s.LatP50, s.LatP95, s.LatP99 = -1, -1, -1
		}
		s.Mig[sim.CauseWakeup] = int32(i % 3)
		s.Mig[sim.CauseBalance] = int32(i % 4)
		ss = append(ss, s)
	}
	series := &frame.Series{Samples: ss[len(ss)-frame.SeriesLen:]}
	few := &frame.Series{Samples: ss[:3]}
	r := Rect{X: 20, Y: 30, W: 300, H: 160}
	st := ChartStyle{Font: 13}
	for _, sd := range []Sides{{A: series}, {A: series, B: few}, {A: &frame.Series{}}, {A: few, B: series}} {
		for i, draw := range []func(*Scene, Rect, ChartStyle, Sides){OpsChart, LatencyChart, MigrationChart} {
			var sc Scene
			draw(&sc, r, st, sd)
			for _, q := range sc.Quads {
				for k := range 4 {
					if !r.Inset(-1).Contains(Rect{float64(q.X[k]), float64(q.Y[k]), 0, 0}) {
						t.Fatalf("chart %d: quad corner (%v,%v) outside %v", i, q.X[k], q.Y[k], r)
					}
				}
			}
		}
	}
}

// The texts of a chart never overlap, however narrow its panel: talk mode
// at 1280x720 gives each chart ~180 px at an 18 px font, where the title ran
// under the newest value and the latency legend under the time caption.
func TestChartTextsDoNotOverlap(t *testing.T) {
	samples := func(dt int64) []*frame.Sample {
		var ss []*frame.Sample
		for i := range frame.SeriesLen {
			s := &frame.Sample{T: int64(i+1) * dt, Dt: dt, Ops: 5, OpsRate: 5000,
				LatP50: 1, LatP95: 10, LatP99: 212, NR: []uint8{1, 2}}
			s.Mig[sim.CauseWakeup] = 20
			ss = append(ss, s)
		}
		return ss
	}
	one := Sides{A: &frame.Series{Samples: samples(1000)}}
	// A/B at 1 ms samples: 5k ops/s and 20k migrations/s a side.
	two := Sides{A: &frame.Series{Samples: samples(1e6)}, B: &frame.Series{Samples: samples(1e6)}}
	for _, c := range []struct {
		sd     Sides
		font   float64
		widths []float64
	}{
		// 123 px: a phone held sideways in talk mode, the charts two by
		// two beside the machine, where "p99" of the latency legend ran
		// out of the panel and "p99 212" covered the title down to
		// "lat. µ".
		{one, 18, []float64{123, 180, 240, 300, 420}},
		// 180 px at 22 px type: talk mode at 1280x720 with A/B under a
		// three-line chapter caption, where "A 78k B 98k" covered the
		// titles down to "op" and "la".
		{two, 22, []float64{180, 240, 300}},
	} {
		for _, w := range c.widths {
			st := ChartStyle{Font: c.font, MinText: TalkMinText, AB: c.sd.B != nil}
			r := Rect{X: 0, Y: 0, W: w, H: 180}
			for i, draw := range []func(*Scene, Rect, ChartStyle, Sides){OpsChart, LatencyChart, MigrationChart} {
				var sc Scene
				ChartFrame(&sc, r, Chart(i), st)
				draw(&sc, r, st, c.sd)
				type box struct{ x0, x1, y float64 }
				var boxes []box
				shown := false
				for _, tx := range sc.Texts {
					shown = shown || strings.HasSuffix(tx.S, "5.0k") || strings.HasSuffix(tx.S, "212") || strings.HasSuffix(tx.S, "20k") || strings.HasSuffix(tx.S, "20.0M")
					wd := ApproxMeasure(tx.S, tx.Size)
					x0 := tx.X
					if tx.Align == AlignRight {
						x0 -= wd
					}
					boxes = append(boxes, box{x0, x0 + wd, tx.Y})
					if x0 < r.X || x0+wd > r.Right() {
						t.Errorf("chart %d at %.0f px: %q (%.0f to %.0f) runs out of the panel", i, w, tx.S, x0, x0+wd)
					}
				}
				if w >= 300 && !shown {
					t.Errorf("chart %d at %.0f px, A/B %v: the newest value is not shown", i, w, c.sd.B != nil)
				}
				// A value drawn on its own panel-coloured band covers the
				// title beneath it (headValues). Values with a shorter
				// form ("212" for "p99 212", "78k" for "A 78k") must leave
				// the title whole; numbers alone may cover its end.
				for a := range boxes {
					for b := a + 1; b < len(boxes); b++ {
						A, B := boxes[a], boxes[b]
						if math.Abs(A.y-B.y) > 1 || A.x1 <= B.x0 || B.x1 <= A.x0 {
							continue
						}
						if covered(sc, sc.Texts[a], sc.Texts[b]) && Chart(i) != ChartLatency && c.sd.B == nil {
							continue
						}
						t.Errorf("chart %d at %.0f px, A/B %v: %q and %q overlap", i, w, c.sd.B != nil, sc.Texts[a].S, sc.Texts[b].S)
					}
				}
			}
		}
	}
}

// covered: one of two overlapping texts is the title, and the other is a
// head value drawn on a panel band that starts left of the value.
func covered(sc Scene, a, b Text) bool {
	if b.Align != AlignRight {
		a, b = b, a
	}
	if b.Align != AlignRight || a.Align != AlignLeft {
		return false
	}
	for _, q := range sc.Quads {
		if q.C == Panel && float64(q.X[0]) <= b.X-ApproxMeasure(b.S, b.Size) && float64(q.X[1]) >= b.X-1 && math.Abs(float64(q.Y[0]+q.Y[2])/2-b.Y) < b.Size {
			return true
		}
	}
	return false
}

// TestHeatDecorSides: with A/B each half of the heatmap is marked in its
// side's colour; the side's letter goes in its corner only where it hides
// little (a phone's talk mode had an 18 px "A" over a heatmap 60 px tall).
func TestHeatDecorSides(t *testing.T) {
	tp := topo(t, machines[2].m)
	st := ChartStyle{Font: TalkMinText, MinText: TalkMinText}
	for _, c := range []struct {
		a      Rect
		letter bool
	}{
		{Rect{50, 40, 60, 60}, false},  // phone portrait, talk mode
		{Rect{50, 40, 140, 150}, true}, // a projector's heatmap
		{Rect{50, 40, 400, 60}, false}, // wide but low
	} {
		for _, side := range []string{"A", "B"} {
			var s Scene
			HeatDecor(&s, c.a, st, NewHeatRows(tp, int(c.a.H)), side)
			want := SideA
			if side == "B" {
				want = SideB
			}
			bar := false
			for _, q := range s.Quads {
				if q.C == want && float64(q.Y[0]) >= c.a.Bottom()-0.5 && float64(q.X[1]-q.X[0]) >= c.a.W-0.5 {
					bar = true
				}
			}
			if !bar {
				t.Errorf("%v side %s: no bar in the side's colour under the area", c.a, side)
			}
			letter := false
			for _, tx := range s.Texts {
				letter = letter || tx.S == side
			}
			if letter != c.letter {
				t.Errorf("%v side %s: letter drawn %v, want %v", c.a, side, letter, c.letter)
			}
		}
	}
}

// TestAxisValuesOverTheData: an axis value drawn over a plot ("5.0k" at
// the ops chart's top, the latency decades, "A ↑ 20k") sits on a backing
// of the panel's colour added after every line and column it crosses, so
// the data does not run through its digits (at 1280x720 the latency
// chart's "100" was crossed by its p99 line). Quads are drawn in order,
// texts after all of them.
func TestAxisValuesOverTheData(t *testing.T) {
	samples := func(dt int64) []*frame.Sample {
		var ss []*frame.Sample
		for i := range frame.SeriesLen {
			// Values just under the axis tops: the lines and columns run
			// through the top values' band.
			s := &frame.Sample{T: int64(i+1) * dt, Dt: dt, Ops: 5, OpsRate: 4900,
				LatP50: 0.85, LatP95: 8.5, LatP99: 85, NR: []uint8{1, 2}}
			s.Mig[sim.CauseWakeup] = int32(19 + i%2)
			ss = append(ss, s)
		}
		return ss
	}
	one := Sides{A: &frame.Series{Samples: samples(1e6)}}
	two := Sides{A: &frame.Series{Samples: samples(1e6)}, B: &frame.Series{Samples: samples(1e6)}}
	for _, sd := range []Sides{one, two} {
		st := ChartStyle{Font: 14, AB: sd.B != nil}
		r := Rect{X: 0, Y: 0, W: 300, H: 200}
		a := plotArea(r, st)
		for i, draw := range []func(*Scene, Rect, ChartStyle, Sides){OpsChart, LatencyChart, MigrationChart} {
			var sc Scene
			ChartFrame(&sc, r, Chart(i), st)
			draw(&sc, r, st, sd)
			n, crossed := 0, 0
			for _, tx := range sc.Texts {
				if tx.Y < a.Y || tx.Y > a.Bottom() || tx.X < a.X || tx.X > a.X+st.small() {
					continue // not an axis value: the title line, the caption
				}
				n++
				box := Rect{tx.X, tx.Y - tx.Size*0.5, ApproxMeasure(tx.S, tx.Size), tx.Size}
				backing, lastData := -1, -1
				for k, q := range sc.Quads {
					qr := quadRect(q)
					if qr.X > box.Right() || qr.Right() < box.X || qr.Y > box.Bottom() || qr.Bottom() < box.Y {
						continue
					}
					if q.C == WithAlpha(Panel, 0.8) && qr.X <= box.X && qr.Right() >= box.Right() && qr.Y <= box.Y && qr.Bottom() >= box.Bottom() {
						backing = k
					} else if q.C != Panel && q.C != PanelBorder && q.C != GridLine {
						lastData = k
					}
				}
				if lastData >= 0 {
					crossed++
				}
				if backing < lastData {
					t.Errorf("chart %d, A/B %v: %q is crossed by data drawn after its backing (quad %d, backing %d)", i, sd.B != nil, tx.S, lastData, backing)
				}
			}
			if n == 0 || crossed == 0 {
				t.Errorf("chart %d, A/B %v: %d axis values drawn, %d crossed by the data: the test does not test it", i, sd.B != nil, n, crossed)
			}
		}
	}
}

func quadRect(q Quad) Rect {
	x0, x1 := min(q.X[0], q.X[1], q.X[2], q.X[3]), max(q.X[0], q.X[1], q.X[2], q.X[3])
	y0, y1 := min(q.Y[0], q.Y[1], q.Y[2], q.Y[3]), max(q.Y[0], q.Y[1], q.Y[2], q.Y[3])
	return Rect{float64(x0), float64(y0), float64(x1 - x0), float64(y1 - y0)}
}

// The throughput panel of a workload whose tasks exit instead of looping
// (kernbench's make: frame.CountsExits) plots the tasks exited per second
// under its own title, with the rate over the panel as its value: "ops/s"
// with "A 0 B 0" and a flat line said nothing.
func TestThroughputChartCountsExits(t *testing.T) {
	var ss []*frame.Sample
	for i := range 40 {
		ss = append(ss, &frame.Sample{T: int64(i+1) * 1e6, Dt: 1e6, Exits: 1, ExitRate: 640, NR: []uint8{1}})
	}
	sd := Sides{A: &frame.Series{Samples: ss}, B: &frame.Series{Samples: ss}}
	for _, exits := range []bool{false, true} {
		st := ChartStyle{Font: 14, AB: true, Exits: exits}
		sc := panel(ChartOps, OpsChart, st, sd)
		texts := map[string]bool{}
		for _, tx := range sc.Texts {
			texts[tx.S] = true
		}
		title, value := "ops/s", "A 0"
		if exits {
			// The value is the rate over the panel (one exit a ms), not
			// the newest smoothed sample's.
			title, value = "tasks exited/s", "A "+frame.FormatValue(1000)
		}
		if !texts[title] || !texts[value] {
			t.Errorf("Exits %v: want the title %q and the value %q, the panel has %v", exits, title, value, texts)
		}
		if exits && texts["ops/s"] {
			t.Errorf("an exits panel titled ops/s: %v", texts)
		}
	}
	// A narrow panel keeps a title that says exits.
	st := ChartStyle{Font: 14, AB: true, Exits: true}
	if got := chartTitleIn(ChartOps, 200, st); got != "exits/s" {
		t.Errorf("narrow exits panel titled %q", got)
	}
}

// The migrations panel's head value is the rate over its width, not the
// newest sample's: that read "A 0 B 0" between kernbench's waves while the
// panel showed hundreds, and "0" for a walking tbench pair (one move every
// 220 us, samples of 14 us at 1 ms/s) under a headline of thousands a
// second. Whether or not the runs count exits.
func TestMigrationHeadOverThePanel(t *testing.T) {
	wave := func(i int) int32 { // a wave of 2 moves a ms, then none
		if i < 20 {
			return 2
		}
		return 0
	}
	walk := func(i int) int32 { // one move every 16 samples, none in the newest
		if i%16 == 3 {
			return 1
		}
		return 0
	}
	for _, c := range []struct {
		name  string
		moves func(int) int32
		dt    int64
		want  string
	}{
		{"waves", wave, 1e6, frame.FormatValue(1000)},
		{"a walking pair", walk, 14000, frame.FormatValue(3 * 1e9 / float64(40*14000))},
	} {
		var ss []*frame.Sample
		for i := range 40 {
			smp := &frame.Sample{T: int64(i+1) * c.dt, Dt: c.dt, NR: []uint8{1}}
			smp.Mig[sim.CauseExec] = c.moves(i)
			ss = append(ss, smp)
		}
		if ss[len(ss)-1].MigTotal() != 0 {
			t.Fatalf("%s: the newest sample should hold no move", c.name)
		}
		sd := Sides{A: &frame.Series{Samples: ss}, B: &frame.Series{Samples: ss}}
		for _, exits := range []bool{false, true} {
			st := ChartStyle{Font: 14, AB: true, Exits: exits}
			if got := textsOf(panel(ChartMigrations, MigrationChart, st, sd)); !strings.Contains(got, "|A "+c.want+"|") {
				t.Errorf("%s, Exits %v: want the head value %q, the panel has %s", c.name, exits, "A "+c.want, got)
			}
		}
	}
}

// The throughput panel's head value is the rate over the panel too: with
// an op every 16 samples and none in the newest window of SmoothSamples,
// the newest smoothed rate is 0 where the run does 5 357 ops a second.
func TestOpsHeadOverThePanel(t *testing.T) {
	var ss []*frame.Sample
	for i := range 40 {
		smp := &frame.Sample{T: int64(i+1) * 14000, Dt: 14000, NR: []uint8{1}}
		if i%16 == 3 {
			smp.Ops = 1
		}
		ss = append(ss, smp) // OpsRate stays 0: what the newest window holds
	}
	want := "A " + frame.FormatValue(3*1e9/float64(40*14000))
	sd := Sides{A: &frame.Series{Samples: ss}, B: &frame.Series{Samples: ss}}
	st := ChartStyle{Font: 14, AB: true}
	if got := textsOf(panel(ChartOps, OpsChart, st, sd)); !strings.Contains(got, "|"+want+"|") {
		t.Errorf("want the head value %q, the panel has %s", want, got)
	}
}

// panel draws chart c, its frame and its data (draw), in a 320x160 panel.
func panel(c Chart, draw func(*Scene, Rect, ChartStyle, Sides), st ChartStyle, sd Sides) *Scene {
	var sc Scene
	r := Rect{X: 0, Y: 0, W: 320, H: 160}
	ChartFrame(&sc, r, c, st)
	draw(&sc, r, st, sd)
	return &sc
}
