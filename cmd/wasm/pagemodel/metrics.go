package pagemodel

import (
	"fmt"

	"schedplay/frame"
	"schedplay/sim"
)

// Cell is one text cell of the page, by element id.
type Cell struct {
	ID   string
	Text string
	// Verdict is a change cell's frame.Verdict: "better", "worse", or ""
	// (the page colours the cell by its data-verdict, as the canvas' A/B
	// table colours its changes).
	Verdict string
	// Full is the value in full where Text shortens it (the A/B table's
	// millions, frame.Metric.FormatNarrow), "" where Text is full; the
	// page shows it as the cell's title.
	Full string
}

// MetricCells are the metrics table's cells (frame.Metrics): m-ID for side
// A, and with A/B on (b not nil) mb-ID for B and md-ID for B against A.
// With A/B the values are spelled for a narrow column.
func MetricCells(a, b *sim.Metrics) []Cell {
	var out []Cell
	for _, r := range frame.Metrics {
		av := r.Value(a)
		if b == nil {
			out = append(out, Cell{ID: "m-" + r.ID, Text: r.Format(av)})
			continue
		}
		bv := r.Value(b)
		verdict := [...]string{"worse", "", "better"}[frame.Verdict(r.Better, av, bv)+1]
		out = append(out, narrowCell("m-"+r.ID, r, av), narrowCell("mb-"+r.ID, r, bv),
			Cell{ID: "md-" + r.ID, Text: frame.FormatDelta(av, bv, func(v float64) string { t, _ := r.FormatNarrow(v); return t }), Verdict: verdict})
	}
	return out
}

func narrowCell(id string, r frame.Metric, v float64) Cell {
	text, full := r.FormatNarrow(v)
	c := Cell{ID: id, Text: text}
	if !full {
		c.Full = r.Format(v)
	}
	return c
}

// Strip is talk mode's one-line summary of the metrics (A, or A against B).
// It leads with the throughput, or with the tasks exited where the runs
// count exits (frame.CountsExits: kernbench's make), whose ops/s is 0.
func Strip(a, b *sim.Metrics) string {
	unit, val := "ops/s", func(m *sim.Metrics) float64 { return m.OpsPerS }
	if frame.CountsExits(a, b) {
		unit, val = "tasks exited", func(m *sim.Metrics) float64 { return float64(m.Exits) }
	}
	if b == nil {
		return fmt.Sprintf("%s %s · wake-up p99 %s µs · %s migrations · idle while overloaded %.1f ms",
			frame.FormatCount(val(a)), unit, frame.FormatFixed(a.WakeupLatencyUS.P99, 1),
			frame.FormatCount(float64(a.Migrations.Total)), a.IdleWhileOverloadedMS)
	}
	// "A 1 000 ops/s · B 1 500 ops/s", or "tasks exited A 320 · B 128".
	sides := fmt.Sprintf("A %s %s · B %s %s", frame.FormatCount(val(a)), unit, frame.FormatCount(val(b)), unit)
	if unit != "ops/s" {
		sides = fmt.Sprintf("%s A %s · B %s", unit, frame.FormatCount(val(a)), frame.FormatCount(val(b)))
	}
	return fmt.Sprintf("%s (%s) · migrations A %s, B %s", sides, frame.FormatDelta(val(a), val(b), frame.FormatCount),
		frame.FormatCount(float64(a.Migrations.Total)), frame.FormatCount(float64(b.Migrations.Total)))
}
