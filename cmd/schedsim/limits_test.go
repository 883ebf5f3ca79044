package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/sim"
)

// fanoutScenario is issue 18's first long run: 4096 tasks whose wake-ups fan
// out to all of them, on 256 CPUs, for 600 s (hours within the old event
// budget).
const fanoutScenario = `{"version": 1, "title": "4096 tasks waking all", "seed": 1, "duration": "600s",
 "machine": {"nodes": 2, "sockets_per_node": 1, "llcs_per_socket": 1, "clusters_per_llc": 1, "cores_per_cluster": 64, "threads_per_core": 2, "hz": 1000},
 "policy": {"base": "v6.17"},
 "tasks": [{"name": "w", "count": 4096, "program": [{"run": "10us"}, {"wake": "w", "fanout": "all"}, {"wait": true}]}]}`

// TestRunStoppedByWorkBudget: exit 3, the metrics of what was simulated on
// stdout (table and JSON), the limit and how to raise it on stderr.
func TestRunStoppedByWorkBudget(t *testing.T) {
	f := writeFile(t, "fanout.json", fanoutScenario)
	code, out, errs := schedsim(t, "run", "-max-work", "30000000", f)
	if code != exitLimit || !strings.Contains(out, "STOPPED EARLY") || !strings.Contains(out, "ops ") ||
		!strings.Contains(errs, "budget of 30000000 work units") || !strings.Contains(errs, "-max-work 120000000") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, errs = schedsim(t, "run", "-json", "-max-work", "30000000", f)
	var m sim.Metrics
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != exitLimit {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errs)
	}
	if m.Work < 30_000_000 || m.Stopped == "" || m.SimMS <= 0 || m.SimMS >= 600_000 || m.Ops == 0 {
		t.Fatalf("metrics %+v", m)
	}
	// The same budget stops the run at the same point, every time.
	_, out2, _ := schedsim(t, "run", "-json", "-max-work", "30000000", f)
	var m2 sim.Metrics
	json.Unmarshal([]byte(out2), &m2)
	if m2.TraceHash != m.TraceHash || m2.Work != m.Work {
		t.Fatalf("two runs stopped at %s/%d and %s/%d", m.TraceHash, m.Work, m2.TraceHash, m2.Work)
	}
}

// TestRunStoppedByTimeout: the wall-clock limit stops a long run (exit 3,
// metrics, the flag to raise it).
func TestRunStoppedByTimeout(t *testing.T) {
	code, out, errs := schedsim(t, "run", "-timeout", "1ms", "-set", "duration=600s", "-set", "tasks.client.count=80", "tbench-pairs")
	if code != exitLimit || !strings.Contains(out, "STOPPED EARLY") || !strings.Contains(errs, "-timeout 1ms") || !strings.Contains(errs, "-timeout 0") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, bad := range [][]string{{"-timeout", "-1s"}, {"-max-work", "0"}} {
		if code, _, errs := schedsim(t, append(append([]string{"run"}, bad...), "tbench-pairs")...); code != exitBadInput {
			t.Errorf("%v: exit %d %s", bad, code, errs)
		}
	}
}

// TestSweepStoppedCells: a sweep whose cells a limit stopped still prints
// its table and exits 3 naming the cells.
func TestSweepStoppedCells(t *testing.T) {
	code, out, errs := schedsim(t, "sweep", "-max-work", "1000000", "-vary", "tasks.client.count=1,40", "-set", "duration=1s", "tbench-pairs")
	if code != exitLimit || !strings.Contains(out, "ops/s") || !strings.Contains(out, "* stopped early") || !strings.Contains(errs, "cell vary 40") || strings.Contains(errs, "cell vary 1:") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestExportStoppedByBudget: an export that reaches the work budget ends
// (it used to spin for ever: interop's drive ignored Step's false) and
// writes what was simulated.
func TestExportStoppedByBudget(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.csv")
	code, stdout, errs := schedsim(t, "export", "-format", "csv", "-o", out, "-max-work", "200000", "-set", "duration=10s", "tbench-pairs")
	b, _ := os.ReadFile(out)
	if code != exitLimit || !strings.Contains(errs, "-max-work") || !strings.HasPrefix(string(b), "time_ms,") || !strings.Contains(stdout, "wrote") {
		t.Fatalf("exit %d, %d bytes\n%s\n%s", code, len(b), stdout, errs)
	}
}

// TestExportSizeCap: -max-size stops an export that grows too big, with a
// clear error, and leaves no file (issue 18, item 5: 1.9 GB in 10 s).
func TestExportSizeCap(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "big.csv")
	code, _, errs := schedsim(t, "export", "-format", "csv", "-interval", "1us", "-max-size", "1000000", "-o", out, "-set", "duration=600s", "tbench-pairs")
	if code != exitLimit || !strings.Contains(errs, "-max-size 1000000") || !strings.Contains(errs, "nothing was written") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
	// The same cap on stdout says where the output was cut.
	code, _, errs = schedsim(t, "export", "-format", "perfetto", "-max-size", "100000", "-o", "-", "-set", "duration=600s", "tbench-pairs")
	if code != exitLimit || !strings.Contains(errs, "cut there") {
		t.Fatalf("stdout: exit %d: %s", code, errs)
	}
}

// TestExportInterruptedLeavesNoFile: an interrupt during an export leaves
// neither a partial file nor a temporary one, and an existing file of that
// name untouched.
func TestExportInterruptedLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.json")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(f func() (context.Context, context.CancelFunc)) { exportContext = f }(exportContext)
	exportContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // as if Ctrl-C came at once
		return ctx, func() {}
	}
	for _, format := range []string{"perfetto", "schedstat"} { // schedstat: one snapshot at the end
		code, _, errs := schedsim(t, "export", "-format", format, "-o", out, "-set", "duration=10s", "-set", "tasks.client.count=40", "tbench-pairs")
		if code != exitInterrupted || !strings.Contains(errs, "interrupted") {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
	}
	ents, _ := os.ReadDir(dir)
	b, _ := os.ReadFile(out)
	if len(ents) != 1 || string(b) != "old" {
		t.Fatalf("after the interrupt: %v, %q", ents, b)
	}
}

// TestControlBytesQuoted: issue 18, item 7. -set values with control
// bytes (an escape sequence) were echoed raw to the terminal, and a U+202E
// in a title was accepted.
func TestControlBytesQuoted(t *testing.T) {
	for _, tc := range []struct{ set, want string }{
		{"title=a\x01b", `"a\x01b"`},
		{"seed=1\x1b[31m", `\x1b[31m`},
		{"title=evil\u202egnp.exe", `\u202e`},
		{"tit\x1ble=x", `\x1b`},
	} {
		code, _, errs := schedsim(t, "link", "-set", tc.set, "tbench-pairs")
		if code != exitBadInput || !strings.Contains(errs, tc.want) {
			t.Errorf("-set %q: exit %d: %s", tc.set, code, errs)
		}
		for _, r := range errs {
			if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x202a && r <= 0x202e) {
				t.Errorf("-set %q: stderr has the raw character %U: %q", tc.set, r, errs)
			}
		}
	}
}
