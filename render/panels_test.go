package render

import (
	"sort"
	"testing"

	"schedplay/sim"
)

// TestDiffTableWideFits: the wide A/B table's values do not run into each
// other. On a phone in talk mode (370 px, 18 px type) the idle-while-
// overloaded column's "−100%" and its neighbour's "−5%" were drawn over
// each other, every column being the same width whatever it held.
func TestDiffTableWideFits(t *testing.T) {
	a := &sim.Metrics{OpsPerS: 1344, IdleWhileOverloadedMS: 22, BusyPct: 8.6,
		WakeupLatencyUS: sim.Percentiles{P50: 1900, P99: 4200}, Migrations: sim.MigrationStats{Total: 514}}
	b := &sim.Metrics{OpsPerS: 1600, IdleWhileOverloadedMS: 0, BusyPct: 11,
		WakeupLatencyUS: sim.Percentiles{P50: 1920, P99: 4000}, Migrations: sim.MigrationStats{Total: 488}}
	for _, c := range []struct {
		w, f, minText float64
	}{
		{370, TalkMinText, TalkMinText}, // a phone in talk mode
		{300, TalkMinText, TalkMinText}, // too narrow for all six: the first ones that fit
		{600, TalkMinText, TalkMinText},
		{300, 13, 0}, // a phone, not in talk mode: the type may shrink
		{900, 13, 0},
	} {
		var s Scene
		r := Rect{0, 0, c.w, c.w / 3.2}
		DiffTable(&s, r, c.f, c.minText, a, b, ApproxMeasure)
		rows := map[float64][][2]float64{}
		ops := false
		for _, tx := range s.Texts {
			ops = ops || tx.S == "1.3k" // A's ops/s, the first metric: always shown
			w := ApproxMeasure(tx.S, tx.Size)
			x0 := tx.X
			if tx.Align == AlignRight {
				x0 -= w
			}
			if x0 < r.X-0.5 || x0+w > r.Right()+0.5 {
				t.Errorf("%.0f px wide at %.0f px: %q runs out of the table (%.1f to %.1f)", c.w, c.f, tx.S, x0, x0+w)
			}
			if tx.Size < c.minText {
				t.Errorf("%.0f px wide: %q at %.1f px, under %.0f", c.w, tx.S, tx.Size, c.minText)
			}
			rows[tx.Y] = append(rows[tx.Y], [2]float64{x0, x0 + w})
		}
		if !ops {
			t.Errorf("%.0f px wide at %.0f px: the first metric (ops/s) is not shown", c.w, c.f)
		}
		for y, spans := range rows {
			sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
			for i := 1; i < len(spans); i++ {
				if spans[i][0] < spans[i-1][1] {
					t.Errorf("%.0f px wide at %.0f px: texts overlap on the row at y=%.0f: %v", c.w, c.f, y, spans)
					break
				}
			}
		}
	}
}
