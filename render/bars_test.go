package render

import (
	"image/color"
	"testing"

	"schedplay/sim"
)

// The PELT bars' labels ("util", "runnable", "load" and the values) read
// wherever the bar ends (issue 20): each letter contrasts at least 4.5:1
// with what is under its middle, the bar's colour or its dark track. The
// names were black whatever was under them: "uti|l" and "runnab|le" lost
// their last letters on the dark track of a short bar (seen at 390x844 on
// pelt-pingpong), in both themes.
func TestPELTBarTextReads(t *testing.T) {
	defer SetTheme(ThemeDark)
	for _, th := range []string{ThemeDark, ThemeLight} {
		SetTheme(th)
		tp := topo(t, machines[0].m) // 2 CPUs: big cells, labelled bars
		for _, stage := range []Rect{{W: 1000, H: 600}, {W: 370, H: 350}} {
			l, err := NewLayout(tp, stage, nil)
			if err != nil {
				t.Fatal(err)
			}
			if l.BarFont == 0 {
				t.Fatalf("%v: 2-CPU cells should carry bar labels", stage)
			}
			c := &l.Cells[0]
			for v := int64(0); v <= 1200; v += 8 {
				snap := emptySnap(2)
				snap.Tasks = []sim.TaskSnap{{LoadAvg: v / 2}}
				snap.CPUs[0] = sim.CPUSnap{Curr: 0, IdleState: -1, UtilAvg: v, RunnableAvg: v / 2, LoadAvg: v}
				p := NewPainter(l, tasksN(1), idle, nil)
				var sc Scene
				p.Cells(snap, &sc)
				for _, bar := range []Rect{c.Util, c.Runnable, c.Load} {
					for _, tx := range sc.Texts {
						if tx.Y < bar.Y || tx.Y > bar.Bottom() || tx.X < bar.X || tx.X > bar.Right() {
							continue
						}
						x0 := tx.X
						switch tx.Align {
						case AlignCenter:
							x0 -= p.Measure(tx.S, tx.Size) / 2
						case AlignRight:
							x0 -= p.Measure(tx.S, tx.Size)
						}
						r := []rune(tx.S)
						for i := range r {
							mid := x0 + (p.Measure(string(r[:i]), tx.Size)+p.Measure(string(r[:i+1]), tx.Size))/2
							bg, ok := under(&sc, mid, tx.Y, bar)
							if !ok {
								t.Fatalf("%s %v v=%d: nothing under %q", th, stage, v, tx.S)
							}
							if cr := Contrast(tx.C, bg); cr < 4.5 {
								t.Errorf("%s %v value %d: %q of %q on %v: contrast %.1f:1, want 4.5", th, stage, v, string(r[i]), tx.S, bg, cr)
								return
							}
						}
					}
				}
			}
		}
	}
}

// under is the colour of the newest quad of sc that covers (x, y) inside
// bar, leaving out the 1 px scale notch (BarTick), which a letter's middle
// may fall on without a letter being unreadable.
func under(sc *Scene, x, y float64, bar Rect) (c color.RGBA, ok bool) {
	for _, q := range sc.Quads {
		x0, x1, y0, y1 := float64(q.X[0]), float64(q.X[1]), float64(q.Y[0]), float64(q.Y[2])
		if x < x0 || x >= x1 || y < y0 || y > y1 || x0 < bar.X-0.01 || x1 > bar.Right()+0.01 || y0 < bar.Y-0.01 || y1 > bar.Bottom()+0.01 {
			continue
		}
		if q.C == BarTick && x1-x0 <= 1.01 {
			continue
		}
		c, ok = q.C, true
	}
	return c, ok
}
