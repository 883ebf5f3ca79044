package frame

import (
	"math"
	"strconv"
	"strings"

	"schedplay/sim"
)

// The formatters the canvas (render) and the page share: one spelling of a
// speed, a simulated time, a number and a B-against-A change everywhere.

// FormatSpeed prints a speed (simulated seconds per wall second): "1 ms/s",
// "20 µs/s", "real time", "2× real time".
func FormatSpeed(x float64) string {
	switch {
	case x == 1:
		return "real time"
	case x > 1:
		return strconv.FormatFloat(x, 'g', 3, 64) + "× real time"
	case x >= 1e-3:
		return strconv.FormatFloat(x*1e3, 'g', 3, 64) + " ms/s"
	}
	return strconv.FormatFloat(x*1e6, 'g', 3, 64) + " µs/s"
}

// FormatSimTime prints simulated ns compactly, for axis captions: 480 µs,
// 4.8 ms, 1.2 s.
func FormatSimTime(ns int64) string {
	switch {
	case ns < 1e6:
		return strconv.FormatFloat(float64(ns)/1e3, 'f', -1, 64) + " µs"
	case ns < 1e9:
		return strconv.FormatFloat(math.Round(float64(ns)/1e4)/1e2, 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(float64(ns)/1e7)/1e2, 'f', -1, 64) + " s"
}

// FormatClock prints simulated ns for a running clock, with a fixed number
// of decimals so that the text does not jitter: 12.5 µs, 4.800 ms, 1.200 s.
func FormatClock(ns int64) string {
	switch {
	case ns < 1e6:
		return strconv.FormatFloat(float64(ns)/1e3, 'f', 1, 64) + " µs"
	case ns < 1e9:
		return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(float64(ns)/1e9, 'f', 3, 64) + " s"
}

// FormatValue prints a rate or count compactly (the canvas): 950, 12.5k, 3.2M.
func FormatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return strconv.FormatFloat(v/1e9, 'f', 1, 64) + "G"
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	case a >= 10 || v == 0:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// FormatCount prints a count or rate in full with thin-space thousands
// separators (the page's tables): 12 345.
func FormatCount(x float64) string {
	neg := x < 0
	if neg {
		x = -x
	}
	s := strconv.FormatFloat(x, 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u2009")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// FormatFixed prints x with prec decimals.
func FormatFixed(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }

// FormatRTF prints a real-time factor: "0×", "1.5×".
func FormatRTF(x float64) string {
	if x == 0 {
		return "0×"
	}
	return strconv.FormatFloat(x, 'g', 2, 64) + "×"
}

// Change is b relative to a in percent, and whether it is defined (a ≠ 0).
func Change(a, b float64) (float64, bool) {
	if a == 0 {
		return 0, false
	}
	return (b - a) / math.Abs(a) * 100, true
}

// Verdict says whether B against A is an improvement (+1) or a regression
// (−1) for a metric where more is better (better > 0) or less is (better <
// 0); 0 when the metric has no direction, the change is not defined, or it
// is within 2 %. The canvas' A/B table and the page's metrics table colour
// their changes by it.
func Verdict(better int, a, b float64) int {
	ch, ok := Change(a, b)
	if !ok || better == 0 || math.Abs(ch) < 2 {
		return 0
	}
	if (ch > 0) == (better > 0) {
		return +1
	}
	return -1
}

// FormatChange prints a change in percent: "+12%", "−35%", "×4.2".
func FormatChange(ch float64) string {
	switch {
	case ch >= 200:
		return "×" + strconv.FormatFloat(1+ch/100, 'f', 1, 64)
	case ch <= -0.5:
		return "−" + strconv.FormatFloat(-ch, 'f', 0, 64) + "%"
	}
	return "+" + strconv.FormatFloat(math.Max(ch, 0), 'f', 0, 64) + "%"
}

// FormatDelta is B against A: the change in percent (FormatChange), "="
// when equal, or the difference in f's spelling when A is 0.
func FormatDelta(a, b float64, f func(float64) string) string {
	if a == b {
		return "="
	}
	if ch, ok := Change(a, b); ok {
		return FormatChange(ch)
	}
	if b > 0 {
		return "+" + f(b)
	}
	return f(b)
}

// Metric is one row of the metrics tables: the page's (every row) and the
// canvas' A/B table (CanvasMetrics).
type Metric struct {
	ID   string // the page's cells are m-ID (A), mb-ID (B), md-ID (B against A)
	Name string // the canvas' label
	// Short is the label of a narrow column (a phone's A/B table), where
	// Name cut to fit read "o…" and "wa…".
	Short  string
	Unit   string // " µs", " ms", " %", or ""
	Better int    // +1 if more is better, -1 if less is better, 0 if neither
	Value  func(m *sim.Metrics) float64
	Format func(float64) string // the page's spelling
}

func oneDecimal(x float64) string  { return FormatFixed(x, 1) }
func twoDecimals(x float64) string { return FormatFixed(x, 2) }

func threeDecimals(x float64) string { return FormatFixed(x, 3) }

// Metrics are the metrics the front ends show, in the page's order.
var Metrics = []Metric{
	{"ops-per-s", "ops/s", "ops/s", "", +1, func(m *sim.Metrics) float64 { return m.OpsPerS }, FormatCount},
	{"ops", "ops", "ops", "", +1, func(m *sim.Metrics) float64 { return float64(m.Ops) }, FormatCount},
	// Jobs done where a workload's tasks exit instead of looping (a make's
	// jobs, SDET's commands): more in the same time is more work done.
	{"exits", "tasks exited", "exited", "", +1, func(m *sim.Metrics) float64 { return float64(m.Exits) }, FormatCount},
	// When a task last exited, where every task exits (CountsExits): once
	// all have, the workload's elapsed time (a kernbench's make exits
	// after its last job), which is the number its benchmark reports.
	{"last-exit", "last exit", "last exit", " s", -1, func(m *sim.Metrics) float64 { return m.LastExitMS / 1000 }, threeDecimals},
	{"p50", "wake-up p50", "p50", " µs", -1, func(m *sim.Metrics) float64 { return m.WakeupLatencyUS.P50 }, oneDecimal},
	{"p99", "wake-up p99", "p99", " µs", -1, func(m *sim.Metrics) float64 { return m.WakeupLatencyUS.P99 }, oneDecimal},
	{"busy", "busy", "busy", " %", 0, func(m *sim.Metrics) float64 { return m.BusyPct }, oneDecimal},
	{"iwo", "idle while overloaded", "idle/wait", " ms", -1, func(m *sim.Metrics) float64 { return m.IdleWhileOverloadedMS }, twoDecimals},
	{"ctx", "context switches", "ctxsw", "", 0, func(m *sim.Metrics) float64 { return float64(m.CtxSwitches) }, FormatCount},
	{"migrations", "migrations", "migr", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Total) }, FormatCount},
	{"wakeup-mig", "wake-up migrations", "wake migr", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Wakeup) }, FormatCount},
	{"balance", "balancer migrations", "bal migr", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Balance) }, FormatCount},
	{"newidle", "newidle migrations", "newidle", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Newidle) }, FormatCount},
	{"nohz", "nohz migrations", "nohz", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Nohz) }, FormatCount},
	{"active", "active migrations", "active", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Active) }, FormatCount},
	{"fork", "fork placements", "fork", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Fork) }, FormatCount},
	{"exec", "exec migrations", "exec", "", 0, func(m *sim.Metrics) float64 { return float64(m.Migrations.Exec) }, FormatCount},
}

// CanvasMetrics are the IDs of the rows the canvas' A/B table shows, in
// its order.
//
// Migrations come second: a narrow table shows the first ones that fit,
// and moves are what the page is about.
var CanvasMetrics = []string{"ops-per-s", "migrations", "p50", "p99", "iwo", "busy"}

// FormatShort is r's spelling in the canvas' A/B table: FormatValue's two
// or three digits ("1.3k"), except where those would hide the difference
// the row is there to show (a kernbench's elapsed 1.648 against 1.653 s
// read "1.6" against "1.7").
func (r Metric) FormatShort(v float64) string {
	if r.ID == "last-exit" {
		return r.Format(v)
	}
	return FormatValue(v)
}

// FormatNarrow is r's spelling in a narrow column (the page's A/B table
// in its side panel, four columns in 18rem): a value of a million or more
// in four digits, "1.422M" for 1 421 851, where the full form would push
// the table past the panel's edge; anything smaller as Format spells it.
// full reports whether the text is Format's.
//
// A value of a thousand or more loses its decimals there ("4 133" for an
// idle-while-overloaded of 4132.88 ms), so that no value is wider than
// seven characters.
func (r Metric) FormatNarrow(v float64) (text string, full bool) {
	if math.Abs(v) < 1e6 {
		text = r.Format(v)
		if math.Abs(v) >= 1e3 && strings.Contains(text, ".") {
			return FormatCount(v), false
		}
		return text, true
	}
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}} {
		if x := v / u.div; math.Abs(x) >= 1 {
			prec := 3
			switch a := math.Abs(x); {
			case a >= 99.95:
				prec = 1
			case a >= 9.995:
				prec = 2
			}
			return strconv.FormatFloat(x, 'f', prec, 64) + u.suffix, false
		}
	}
	return r.Format(v), true
}

// CountsExits reports whether a run's throughput is its tasks' exits, not
// its ops: every task's program exits (sim.Metrics.CountsExits, kernbench's
// make and its jobs; SDET's users loop, so it counts ops), or neither side
// has counted an op and a task exited. b is nil without A/B. The canvas'
// A/B table (CanvasMetricsFor), its throughput chart
// (render.ChartStyle.Exits), the talk strip and the page's table all ask
// this.
func CountsExits(a, b *sim.Metrics) bool {
	if a == nil {
		return false
	}
	if a.CountsExits && (b == nil || b.CountsExits) {
		return true
	}
	var bOps, bExits int64
	if b != nil {
		bOps, bExits = b.Ops, b.Exits
	}
	return a.Ops == 0 && bOps == 0 && a.Exits+bExits > 0
}

// CanvasExitMetrics are CanvasMetrics where the runs count exits: the
// tasks exited and when the last one did (the elapsed time a kernbench
// reports) lead, and the idle while overloaded that decides it comes
// before the moves.
var CanvasExitMetrics = []string{"exits", "last-exit", "iwo", "migrations", "p99", "busy"}

// CanvasMetricsFor are CanvasMetrics for two runs, or CanvasExitMetrics
// where they count exits (CountsExits) instead of an ops/s of 0 against 0.
func CanvasMetricsFor(a, b *sim.Metrics) []string {
	if CountsExits(a, b) {
		return CanvasExitMetrics
	}
	return CanvasMetrics
}

// MetricByID returns the row with id.
func MetricByID(id string) (Metric, bool) {
	for _, m := range Metrics {
		if m.ID == id {
			return m, true
		}
	}
	return Metric{}, false
}
