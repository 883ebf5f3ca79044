package pagemodel

import (
	"strings"
	"testing"

	"schedplay/frame"
	"schedplay/sim"
)

// logTotals is each revision's running LogTotal, as app's frames carry it.
var logTotals = map[int64]int64{}

func logFrame(rev int64, n, dropped int) *frame.Frame {
	f := &frame.Frame{Rev: rev}
	a := f.A()
	a.Tasks = []sim.TaskInfo{{Name: "hog/0"}}
	a.LogDropped = dropped
	logTotals[rev] += int64(n + dropped)
	a.LogTotal = logTotals[rev]
	for i := range n {
		a.Log = append(a.Log, frame.LogEntry{T: int64(i) * 1000, Kind: "wakeup", Task: 0, CPU: 1, From: -1, Text: "x"})
	}
	return f
}

func TestEventLog(t *testing.T) {
	var l EventLog
	if p := l.Since(-1); p.Entries == nil || len(p.Entries) != 0 || p.Next != -1 {
		t.Fatalf("empty log: %+v", p)
	}
	l.Add(logFrame(1, 3, 2))
	p := l.Since(-1)
	if len(p.Entries) != 3 || p.Next != 2 || p.Dropped != 2 || p.Rev != "1" {
		t.Fatalf("after 3: %+v", p)
	}
	if p.Entries[0].Task != "hog/0" || p.Entries[1].TMS != 0.001 {
		t.Errorf("entries %+v", p.Entries)
	}
	if p := l.Since(1); len(p.Entries) != 1 || p.Entries[0].Seq != 2 {
		t.Errorf("since 1: %+v", p.Entries)
	}
	// Only the newest LogKeep stay.
	l.Add(logFrame(1, LogKeep+10, 0))
	if p := l.Since(-1); len(p.Entries) != LogKeep || p.Entries[LogKeep-1].Seq != int64(LogKeep+12) {
		t.Errorf("kept %d, newest %d", len(p.Entries), p.Entries[len(p.Entries)-1].Seq)
	}
	// A new revision starts a new log (the sequence goes on).
	l.Add(logFrame(2, 1, 0))
	if p := l.Since(-1); len(p.Entries) != 1 || p.Rev != "2" || p.Dropped != 0 {
		t.Errorf("new revision: %+v", p)
	}
}

func TestMetricCells(t *testing.T) {
	a := &sim.Metrics{OpsPerS: 1000, Ops: 5000, WakeupLatencyUS: sim.Percentiles{P50: 10, P99: 100}, BusyPct: 50}
	b := &sim.Metrics{OpsPerS: 1500, Ops: 5000, WakeupLatencyUS: sim.Percentiles{P50: 20, P99: 101}, BusyPct: 80}
	cells := map[string]string{}
	verdicts := map[string]string{}
	for _, c := range MetricCells(a, b) {
		cells[c.ID] = c.Text
		verdicts[c.ID] = c.Verdict
	}
	// The changes are coloured as the canvas colours them: more ops/s is
	// better, a longer p50 worse; p99 within 2 %, ops unchanged and busy
	// (no direction) neither.
	for id, want := range map[string]string{"md-ops-per-s": "better", "md-p50": "worse", "md-p99": "", "md-ops": "", "md-busy": "", "mb-ops-per-s": ""} {
		if verdicts[id] != want {
			t.Errorf("%s: verdict %q, want %q", id, verdicts[id], want)
		}
	}
	if len(cells) != 3*len(frame.Metrics) {
		t.Fatalf("%d cells for %d rows", len(cells), len(frame.Metrics))
	}
	if cells["m-ops-per-s"] != "1\u2009000" || cells["mb-ops-per-s"] != "1\u2009500" || cells["md-ops-per-s"] != "+50%" || cells["md-ops"] != "=" {
		t.Errorf("cells %v", cells)
	}
	// Millions are spelled short with A/B, the full value kept for the
	// cell's title; A alone has room for them whole.
	big := &sim.Metrics{OpsPerS: 1_421_851}
	for _, c := range MetricCells(big, a) {
		if c.ID == "m-ops-per-s" && (c.Text != "1.422M" || c.Full != "1\u2009421\u2009851") {
			t.Errorf("A/B: A's ops/s %+v", c)
		}
		if c.ID == "mb-ops-per-s" && c.Full != "" {
			t.Errorf("A/B: B's 1 000 ops/s has a title %q", c.Full)
		}
	}
	if c := MetricCells(big, nil)[0]; c.Text != "1\u2009421\u2009851" || c.Full != "" {
		t.Errorf("A alone: %+v", c)
	}
	if n := len(MetricCells(a, nil)); n != len(frame.Metrics) {
		t.Errorf("A alone: %d cells", n)
	}
	if s := Strip(a, b); !strings.Contains(s, "A 1\u2009000 ops/s · B 1\u2009500 ops/s (+50%)") {
		t.Errorf("strip %q", s)
	}
	if s := Strip(a, nil); !strings.HasPrefix(s, "1\u2009000 ops/s") {
		t.Errorf("strip %q", s)
	}
	// kernbench: its jobs exit instead of looping, so the strip leads with
	// the tasks exited, not "A 0 ops/s · B 0 ops/s (=)".
	ka, kb := &sim.Metrics{Exits: 320}, &sim.Metrics{Exits: 128}
	if s := Strip(ka, kb); !strings.HasPrefix(s, "tasks exited A 320 · B 128 (−60%)") {
		t.Errorf("kernbench's A/B strip %q", s)
	}
	if s := Strip(ka, nil); !strings.HasPrefix(s, "320 tasks exited") {
		t.Errorf("kernbench's strip %q", s)
	}
	// After its make's exit the strip says when each side's last task
	// exited: the elapsed time the seed's kernbench table compares.
	ka.LastExitMS, kb.LastExitMS = 1648.042, 1653.2
	if s := Strip(ka, kb); !strings.HasSuffix(s, " · last exit A 1.648 s, B 1.653 s (+0%)") {
		t.Errorf("kernbench's A/B strip after its exits %q", s)
	}
	if s := Strip(ka, nil); !strings.HasPrefix(s, "320 tasks exited, the last at 1.648 s · ") {
		t.Errorf("kernbench's strip after its exits %q", s)
	}
	// Before its first job's exit: tasks exited (every program exits), not
	// "0 ops/s".
	if s := Strip(&sim.Metrics{CountsExits: true}, nil); !strings.HasPrefix(s, "0 tasks exited · ") {
		t.Errorf("kernbench's strip before its first exit %q", s)
	}
}

// TestEventLogCountsMissedFrames: issue 18, item 7. A listener whose
// channel was full missed whole frames, and their log lines went
// uncounted (only LogDropped was); the frames' running total counts them.
func TestEventLogCountsMissedFrames(t *testing.T) {
	var l EventLog
	l.Add(logFrame(7, 5, 1))  // received: 5 lines, 1 left out
	logFrame(7, 40, 3)        // a frame the listener never got
	l.Add(logFrame(7, 10, 0)) // received
	if p := l.Since(-1); len(p.Entries) != 15 || p.Dropped != 1+43 {
		t.Fatalf("%d entries, dropped %d; want 15 and 44", len(p.Entries), p.Dropped)
	}
}
