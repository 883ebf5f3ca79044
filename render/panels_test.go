package render

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"schedplay/sim"
)

// diffMetrics are an A/B pair for the table tests: values of the widths a
// phone's talk mode saw.
func diffMetrics() (a, b *sim.Metrics) {
	a = &sim.Metrics{OpsPerS: 1344, IdleWhileOverloadedMS: 22, BusyPct: 8.6,
		WakeupLatencyUS: sim.Percentiles{P50: 1900, P99: 4200}, Migrations: sim.MigrationStats{Total: 514}}
	b = &sim.Metrics{OpsPerS: 1600, IdleWhileOverloadedMS: 0, BusyPct: 11,
		WakeupLatencyUS: sim.Percentiles{P50: 1920, P99: 4000}, Migrations: sim.MigrationStats{Total: 488}}
	return a, b
}

// checkTable fails t where a text of s runs out of r, is under minText, or
// overlaps another on its row; it returns the texts drawn.
func checkTable(t *testing.T, what string, s *Scene, r Rect, minText float64) map[string]bool {
	t.Helper()
	drawn := map[string]bool{}
	rows := map[float64][][2]float64{}
	for _, tx := range s.Texts {
		drawn[tx.S] = true
		w := ApproxMeasure(tx.S, tx.Size)
		x0 := tx.X
		if tx.Align == AlignRight {
			x0 -= w
		}
		if x0 < r.X-0.5 || x0+w > r.Right()+0.5 {
			t.Errorf("%s: %q runs out of the table (%.1f to %.1f)", what, tx.S, x0, x0+w)
		}
		if tx.Size < minText {
			t.Errorf("%s: %q at %.1f px, under %.0f", what, tx.S, tx.Size, minText)
		}
		if tx.Y-tx.Size/2 < r.Y-0.5 || tx.Y+tx.Size/2 > r.Bottom()+0.5 {
			t.Errorf("%s: %q at y=%.1f runs out of the table (%.1f to %.1f)", what, tx.S, tx.Y, r.Y, r.Bottom())
		}
		rows[tx.Y] = append(rows[tx.Y], [2]float64{x0, x0 + w})
	}
	for y, spans := range rows {
		sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
		for i := 1; i < len(spans); i++ {
			if spans[i][0] < spans[i-1][1] {
				t.Errorf("%s: texts overlap on the row at y=%.0f: %v", what, y, spans)
				break
			}
		}
	}
	return drawn
}

// namedAsMetrics fails t unless every metric shown in the table is named
// by its name or its short name, whole: a name cut to "o…" or "wa…" names
// nothing. shown is how many metrics the table must show at least.
func namedAsMetrics(t *testing.T, what string, drawn map[string]bool, shown int) {
	t.Helper()
	rows := DiffRows(diffMetrics())
	n := 0
	for _, row := range rows {
		if drawn[row.Name] || drawn[row.Short] {
			n++
		}
	}
	for s := range drawn {
		if strings.HasSuffix(s, "…") {
			t.Errorf("%s: a label cut to %q", what, s)
		}
	}
	if n < shown {
		t.Errorf("%s: %d metrics named, want at least %d (%v)", what, n, shown, drawn)
	}
}

// TestDiffTableFits: the row form on a phone held sideways in talk mode
// (the short dashboard's column, 253 px at 18 px type) had its header "A/B
// after the same time" run under "A" and "B", "B vs A" under B's values,
// and names cut to "wake-up p5"; at every width its texts stay apart and
// in the table, and each metric is named whole.
func TestDiffTableFits(t *testing.T) {
	a, b := diffMetrics()
	for _, c := range []struct {
		w, h, f, minText float64
		shown            int
	}{
		{253, 170, TalkMinText, TalkMinText, 5}, // phone landscape, talk mode: 5 of 6 named whole
		{300, 220, TalkMinText, TalkMinText, 6},
		{380, 160, 14, 0, 6}, // the wide dashboard's A/B column
		{250, 118, 11, 0, 6}, // a phone held sideways, not in talk mode
		{600, 300, 15, 0, 6},
		{368, 117, 11, 0, 6}, // a phone held upright, not in talk mode: it was drawn across, in its top half
	} {
		var s Scene
		r := Rect{10, 20, c.w, c.h}
		DiffTable(&s, r, c.f, c.minText, a, b, ApproxMeasure)
		what := fmt.Sprintf("%.0fx%.0f at %.0f px", c.w, c.h, c.f)
		drawn := checkTable(t, what, &s, r, c.minText)
		namedAsMetrics(t, what, drawn, c.shown)
		if !drawn["A/B after the same time"] && !drawn["A/B"] {
			t.Errorf("%s: drawn across, though its rows fit", what)
		}
	}
}

// TestDiffTableWideFits: the wide A/B table's values do not run into each
// other. On a phone in talk mode (370 px, 18 px type) the idle-while-
// overloaded column's "−100%" and its neighbour's "−5%" were drawn over
// each other, every column being the same width whatever it held.
func TestDiffTableWideFits(t *testing.T) {
	a, b := diffMetrics()
	for _, c := range []struct {
		w, f, minText float64
		shown         int
	}{
		{370, TalkMinText, TalkMinText, 4}, // a phone in talk mode: ops/s, migr, p50, p99
		{300, TalkMinText, TalkMinText, 3}, // too narrow for all six: the first ones that fit
		{600, TalkMinText, TalkMinText, 6},
		{300, 13, 0, 6}, // a phone, not in talk mode: the type may shrink
		{900, 13, 0, 6},
	} {
		var s Scene
		r := Rect{0, 0, c.w, math.Min(c.w/3.2, c.f*5.6)} // talk mode's A/B strip: 5.6 lines
		DiffTable(&s, r, c.f, c.minText, a, b, ApproxMeasure)
		what := fmt.Sprintf("%.0f px wide at %.0f px", c.w, c.f)
		drawn := checkTable(t, what, &s, r, c.minText)
		if !drawn["1.3k"] { // A's ops/s, the first metric: always shown
			t.Errorf("%s: the first metric (ops/s) is not shown", what)
		}
		namedAsMetrics(t, what, drawn, c.shown)
	}
}

// TestCaptionKeepsTheValues: the two sides' captions differ at their ends,
// so a caption too long for its machine keeps its end: a phone showed
// "A: policy.features.SCHED_B…" over both machines.
func TestCaptionKeepsTheValues(t *testing.T) {
	for _, c := range []struct {
		text  string
		w     float64
		wants []string // what the caption must keep
	}{
		{"A: policy.features.SCHED_BALANCE_MAP=false", 1000, []string{"A: policy.features.SCHED_BALANCE_MAP=false"}},
		{"A: policy.features.SCHED_BALANCE_MAP=false", 180, []string{"A: ", "SCHED_BALANCE_MAP=false"}},
		{"B: policy.features.SCHED_BALANCE_MAP=true", 120, []string{"B: ", "=true"}},
		{"B: policy.select_idle_sibling=cpu_buddies, policy.features.WAKE_AFFINE=false", 300, []string{"B: ", "=cpu_buddies", "WAKE_AFFINE=false"}},
		{"B: policy.select_idle_sibling=cpu_buddies, policy.features.WAKE_AFFINE=false", 120, []string{"B: …", "=false"}},
		// Two paths with one last segment keep what tells them apart.
		{"B: policy.sd_flags.MC.SD_BALANCE_EXEC=false, policy.sd_flags.NUMA.SD_BALANCE_EXEC=false", 360, []string{"B: ", "MC.SD_BALANCE_EXEC=false", "NUMA.SD_BALANCE_EXEC=false"}},
	} {
		var s Scene
		r := Rect{0, 0, c.w, 20}
		Caption(&s, r, 11, c.text, SideA, ApproxMeasure)
		if len(s.Texts) != 1 {
			t.Fatalf("%q: %d texts", c.text, len(s.Texts))
		}
		got := s.Texts[0].S
		if w := ApproxMeasure(got, 11); w > c.w-4 {
			t.Errorf("%q in %.0f px: %q is %.0f px wide", c.text, c.w, got, w)
		}
		for _, want := range c.wants {
			if !strings.Contains(got, want) {
				t.Errorf("%q in %.0f px: %q lacks %q", c.text, c.w, got, want)
			}
		}
	}
}
