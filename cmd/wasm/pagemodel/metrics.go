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
// count exits (frame.CountsExits: kernbench's make), whose ops/s is 0; there
// the last exit, once every task has exited the workload's elapsed time
// (what a kernbench reports), takes the moves' place.
func Strip(a, b *sim.Metrics) string {
	if frame.CountsExits(a, b) {
		return exitStrip(a, b)
	}
	if b == nil {
		return frame.FormatCount(a.OpsPerS) + " ops/s · " + runTail(a)
	}
	// "A 1 000 ops/s · B 1 500 ops/s (+50%) · migrations A 10, B 12".
	return fmt.Sprintf("A %s ops/s · B %s ops/s (%s) · migrations A %s, B %s", frame.FormatCount(a.OpsPerS), frame.FormatCount(b.OpsPerS),
		frame.FormatDelta(a.OpsPerS, b.OpsPerS, frame.FormatCount),
		frame.FormatCount(float64(a.Migrations.Total)), frame.FormatCount(float64(b.Migrations.Total)))
}

// runTail is the rest of a single run's strip, after its throughput.
func runTail(a *sim.Metrics) string {
	return fmt.Sprintf("wake-up p99 %s µs · %s migrations · idle while overloaded %.1f ms",
		frame.FormatFixed(a.WakeupLatencyUS.P99, 1), frame.FormatCount(float64(a.Migrations.Total)), a.IdleWhileOverloadedMS)
}

// exitStrip is Strip for runs that count exits: "tasks exited A 1 281 · B
// 1 281 (=) · last exit A 1.648 s, B 1.653 s (+0%)".
func exitStrip(a, b *sim.Metrics) string {
	last, _ := frame.MetricByID("last-exit")
	if b == nil {
		s := fmt.Sprintf("%s tasks exited", frame.FormatCount(float64(a.Exits)))
		if a.Exits > 0 {
			s += fmt.Sprintf(", the last at %s s", last.Format(last.Value(a)))
		}
		return s + " · " + runTail(a)
	}
	ea, eb := float64(a.Exits), float64(b.Exits)
	s := fmt.Sprintf("tasks exited A %s · B %s (%s)", frame.FormatCount(ea), frame.FormatCount(eb), frame.FormatDelta(ea, eb, frame.FormatCount))
	if la, lb := last.Value(a), last.Value(b); la > 0 && lb > 0 {
		s += fmt.Sprintf(" · last exit A %s s, B %s s (%s)", last.Format(la), last.Format(lb), frame.FormatDelta(la, lb, last.Format))
	}
	return s
}
