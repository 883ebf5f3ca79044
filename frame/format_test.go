package frame

import (
	"testing"

	"schedplay/sim"
)

func TestFormat(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 3.25: "3.2", 12: "12", 950: "950", 1500: "1.5k", 12_500: "12k", 3.2e6: "3.2M", 4.5e9: "4.5G", -1500: "-1.5k"} {
		if got := FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
	}
	for ns, want := range map[int64]string{480_000: "480 µs", 4_800_000: "4.8 ms", 1_950_000: "1.95 ms", 1_200_000_000: "1.2 s"} {
		if got := FormatSimTime(ns); got != want {
			t.Errorf("FormatSimTime(%d) = %q, want %q", ns, got, want)
		}
	}
	for ch, want := range map[float64]string{0: "+0%", 12.4: "+12%", -35.2: "−35%", 400: "×5.0"} {
		if got := FormatChange(ch); got != want {
			t.Errorf("FormatChange(%v) = %q, want %q", ch, got, want)
		}
	}
	for x, want := range map[float64]string{1: "real time", 2: "2× real time", 1e-3: "1 ms/s", 2e-5: "20 µs/s"} {
		if got := FormatSpeed(x); got != want {
			t.Errorf("FormatSpeed(%v) = %q, want %q", x, got, want)
		}
	}
	for ns, want := range map[int64]string{12_500: "12.5 µs", 4_800_000: "4.800 ms", 1_200_000_000: "1.200 s"} {
		if got := FormatClock(ns); got != want {
			t.Errorf("FormatClock(%d) = %q, want %q", ns, got, want)
		}
	}
	if got := FormatCount(1234567); got != "1\u2009234\u2009567" {
		t.Errorf("FormatCount = %q", got)
	}
	for _, c := range []struct {
		a, b float64
		want string
	}{{100, 112, "+12%"}, {100, 100, "="}, {0, 3, "+3"}, {0, -3, "-3"}, {100, 50, "−50%"}} {
		if got := FormatDelta(c.a, c.b, FormatCount); got != c.want {
			t.Errorf("FormatDelta(%v, %v) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

// TestMetrics: every canvas row is a page row, ids are unique, and every
// row reads its own field.
func TestMetrics(t *testing.T) {
	seen := map[string]bool{}
	m := &sim.Metrics{OpsPerS: 1, Ops: 2, BusyPct: 5, IdleWhileOverloadedMS: 6, CtxSwitches: 7}
	m.WakeupLatencyUS.P50, m.WakeupLatencyUS.P99 = 3, 4
	m.Migrations.Total, m.Migrations.Wakeup, m.Migrations.Balance, m.Migrations.Newidle = 8, 9, 10, 11
	m.Migrations.Nohz, m.Migrations.Active, m.Migrations.Fork, m.Migrations.Exec = 12, 13, 14, 15
	m.Exits = 16
	values := map[float64]bool{}
	for _, r := range Metrics {
		if seen[r.ID] || r.Name == "" || r.Format == nil {
			t.Errorf("row %+v", r)
		}
		seen[r.ID] = true
		values[r.Value(m)] = true
	}
	if len(values) != len(Metrics) {
		t.Errorf("%d rows read %d distinct fields", len(Metrics), len(values))
	}
	for _, id := range CanvasMetrics {
		if _, ok := MetricByID(id); !ok {
			t.Errorf("canvas row %s is not a metric", id)
		}
	}
}

// TestVerdict: a change is an improvement or a regression by the metric's
// direction, and neither within 2 %, without a direction or from zero.
func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		better int
		a, b   float64
		want   int
	}{
		{+1, 1000, 1110, +1}, // ops/s up 11 %
		{+1, 1000, 900, -1},
		{-1, 5.2, 5.0, +1},  // wake-up p50 down 3.8 %
		{-1, 53, 60, -1},    // idle while overloaded up
		{-1, 205.8, 206, 0}, // within 2 %
		{0, 84, 92, 0},      // busy: no direction
		{+1, 0, 10, 0},      // no change defined from zero
	} {
		if got := Verdict(c.better, c.a, c.b); got != c.want {
			t.Errorf("Verdict(%d, %v, %v) = %d, want %d", c.better, c.a, c.b, got, c.want)
		}
	}
}

// TestFormatNarrow: the page's A/B table spells a million and more in four
// digits (1 421 851 ops/s across four columns in an 18rem panel pushed the
// change column out of sight), and everything smaller as the single table.
func TestFormatNarrow(t *testing.T) {
	ops, _ := MetricByID("ops-per-s")
	p99, _ := MetricByID("p99")
	iwo, _ := MetricByID("iwo")
	for _, c := range []struct {
		r    Metric
		v    float64
		want string
		full bool
	}{
		{ops, 999_999, "999\u2009999", true},
		{ops, 1_421_851, "1.422M", false},
		{ops, 12_345_678, "12.35M", false},
		{ops, 123_456_789, "123.5M", false},
		{ops, 9_999_999, "10.00M", false},
		{ops, 2_500_000_000, "2.500G", false},
		{ops, 0, "0", true},
		{p99, 205.8, "205.8", true},
		{iwo, 999.99, "999.99", true},
		{iwo, 4132.88, "4\u2009133", false},
		{p99, 1_250_000, "1.250M", false},
	} {
		got, full := c.r.FormatNarrow(c.v)
		if got != c.want || full != c.full {
			t.Errorf("%s %v: %q (full %v), want %q (%v)", c.r.ID, c.v, got, full, c.want, c.full)
		}
	}
}

// TestCanvasMetricsFor: kernbench's make and SDET's scripts exit instead of
// looping, so both sides' ops/s is 0 and the A/B table led with "0 0 =";
// there it leads with the tasks exited by the same time. A workload that
// counts ops keeps ops/s, whatever exits.
func TestCountsExits(t *testing.T) {
	run := func(ops, exits int64) *sim.Metrics { return &sim.Metrics{Ops: ops, Exits: exits} }
	for _, c := range []struct {
		a, b *sim.Metrics
		want bool
	}{
		{run(0, 12), nil, true},       // kernbench alone
		{run(0, 0), nil, false},       // nothing done yet
		{run(0, 0), run(0, 3), true},  // side B's first job exited
		{run(3, 3), run(0, 3), false}, // aim9: a finished worker is an op
		{nil, nil, false},             // no metrics yet
		// kernbench before its first job's exit: every program exits, so
		// it counts exits from the start (not "0 ops/s" until the first).
		{&sim.Metrics{CountsExits: true}, nil, true},
		{&sim.Metrics{CountsExits: true}, &sim.Metrics{CountsExits: true}, true},
		// A/B of two workloads, only one of which exits: the rule above.
		{&sim.Metrics{CountsExits: true}, run(0, 0), false},
	} {
		if got := CountsExits(c.a, c.b); got != c.want {
			t.Errorf("CountsExits(%+v, %+v) = %v", c.a, c.b, got)
		}
	}
}

func TestCanvasMetricsFor(t *testing.T) {
	run := func(ops, exits int64) *sim.Metrics { return &sim.Metrics{Ops: ops, Exits: exits} }
	for _, c := range []struct {
		a, b  *sim.Metrics
		first string
	}{
		{run(0, 180), run(0, 450), "exits"},
		{run(0, 0), run(0, 3), "exits"},
		{run(0, 0), run(0, 0), "ops-per-s"},         // nothing done yet on either side
		{run(464, 464), run(312, 312), "ops-per-s"}, // aim9: a finished worker is an op
		{run(0, 5), run(1, 5), "ops-per-s"},
	} {
		ids := CanvasMetricsFor(c.a, c.b)
		if ids[0] != c.first || len(ids) != len(CanvasMetrics) || (c.first == "exits") != (ids[1] == "last-exit") {
			t.Errorf("ops %d/%d, exits %d/%d: %v", c.a.Ops, c.b.Ops, c.a.Exits, c.b.Exits, ids)
		}
	}
	if CanvasMetrics[0] != "ops-per-s" {
		t.Errorf("CanvasMetricsFor changed CanvasMetrics: %v", CanvasMetrics)
	}
}
