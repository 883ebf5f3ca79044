package render

import (
	"fmt"
	"testing"

	"schedplay/render/glyphs"
)

// legendInside checks that everything lg draws at (ox, oy) lies in r: the
// quads, and each text's whole run at device pixel ratio dpr (the
// renderer draws text at size×dpr and rounds its origin to a device pixel).
func legendInside(t *testing.T, what string, lg *Legend, ox, oy float64, r Rect, dpr float64) {
	t.Helper()
	var sc Scene
	lg.Draw(&sc, ox, oy)
	in := r.Inset(-0.5)
	for _, q := range sc.Quads {
		for k := range 4 {
			if !in.Contains(Rect{X: float64(q.X[k]), Y: float64(q.Y[k])}) {
				t.Errorf("%s: legend quad corner (%.1f,%.1f) outside %v", what, q.X[k], q.Y[k], r)
				return
			}
		}
	}
	for _, tx := range sc.Texts {
		w := glyphs.Measure(tx.S, tx.Size*dpr) / dpr
		x0 := tx.X
		switch tx.Align {
		case AlignCenter:
			x0 -= w / 2
		case AlignRight:
			x0 -= w
		}
		half := (glyphs.Ascent(tx.Size) + glyphs.Descent(tx.Size)) / 2
		if x0 < in.X || x0+w > in.Right()+1/dpr || tx.Y-half < in.Y || tx.Y+half > in.Bottom() {
			t.Errorf("%s: legend text %q spans x %.1f..%.1f, y %.1f..%.1f: outside %v", what, tx.S, x0, x0+w, tx.Y-half, tx.Y+half, r)
		}
	}
}

// The legend never draws past its width: an item too long for a row of its
// own wraps beside its icon (issue 20: at 390 px "cache distance crossed
// (SMT L2 LLC pkg NUMA; higher arc = farther)" ran 12 px past a phone's
// stage and off the screen).
func TestLegendFitsWidth(t *testing.T) {
	opts := []LegendOptions{{}, {V38: true}, {Compact: true}, {Keys: true}, {V268: true}, {Talk: true}}
	for _, o := range opts {
		items := LegendItems(o)
		for w := 160.0; w <= 1600; w += 3 {
			for _, f := range []float64{11, 12.5, 15, TalkMinText} {
				lg := LayoutLegend(items, w, f, glyphs.Measure)
				legendInside(t, fmt.Sprintf("%+v w=%v f=%v", o, w, f), &lg, 0, 0, Rect{W: w, H: lg.H}, 3)
				if t.Failed() {
					return
				}
			}
		}
	}
}

// The legend of the page's small screens (issue 20), with the stage the
// page gives the canvas (#stage less its margins), at device pixel ratio 3:
// when the dashboard keeps a legend, it lies in the stage and draws inside
// its own rectangle.
func TestLegendOnPhones(t *testing.T) {
	stages := []struct {
		name  string
		stage Rect
	}{
		// 390x844 portrait: under the header, the chapters bar and above
		// the scrubber; and without them (the canvas tests' phone stage).
		{"390x844", Rect{X: 10, Y: 176, W: 370, H: 591}},
		{"390x844 tall", Rect{X: 10, Y: 79, W: 370, H: 755}},
		{"360x640", Rect{X: 10, Y: 176, W: 340, H: 381}},
		{"844x390", Rect{X: 10, Y: 101, W: 824, H: 231}},
		// A 1040x1000 window with the editor and the panel beside the
		// stage (e2e TestLegendInStage: #stage 384x734 at (368,200)).
		{"1040x1000 editor", Rect{X: 378, Y: 202, W: 364, H: 722}},
	}
	for _, st := range stages {
		for _, o := range []LegendOptions{{}, {V38: true}, {Compact: true}, {V268: true}} {
			items := LegendItems(o)
			d := NewDash(st.stage, DashOptions{LegendH: func(w, f float64) float64 {
				return LayoutLegend(items, w, f, glyphs.Measure).H
			}})
			name := fmt.Sprintf("%s %+v", st.name, o)
			if d.Legend.H == 0 {
				t.Logf("%s: no legend (the machine keeps the room)", name)
				continue
			}
			if !st.stage.Contains(d.Legend) {
				t.Errorf("%s: legend %v outside the stage %v", name, d.Legend, st.stage)
			}
			lg := LayoutLegend(items, d.Legend.W, d.LegendFont, glyphs.Measure)
			if lg.H != d.Legend.H {
				t.Errorf("%s: legend laid out %.0f px high in a %.0f px rectangle", name, lg.H, d.Legend.H)
			}
			legendInside(t, name, &lg, d.Legend.X, d.Legend.Y, d.Legend, 3)
			t.Logf("%s: legend %.0fx%.0f at font %.0f", name, d.Legend.W, d.Legend.H, d.LegendFont)
		}
	}
}
