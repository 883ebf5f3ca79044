package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// A periodic rt-app task shaped like rt-app's doc/examples/tutorial/example2.json.
const rtappPeriodic = `{
	/* 25% load: run 5 ms every 20 ms */
	"tasks" : {
		"thread0" : {
			"instance" : 1,
			"loop" : -1,
			"run" :   5000,
			"timer" : { "ref" : "unique", "period" : 20000 }
		}
	},
	"global" : {
		"duration" : 2,
		"calibration" : "CPU0",
		"default_policy" : "SCHED_OTHER",
		"log_basename" : "rt-app2",
		"gnuplot" : true,
	}
}`

// lscpu -p of a 4-core laptop with HT (Intel numbers the siblings apart),
// shared with the interop package's tests.
const lscpuLaptop = "../../interop/testdata/lscpu-laptop.txt"

func TestExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.json")
	code, stdout, stderr := schedsim(t, "export", "-format", "perfetto", "-o", out, "-set", "duration=50ms", "pelt-pingpong")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "wrote "+out+": perfetto, ") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var tf struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &tf); err != nil || len(tf.TraceEvents) < 10 {
		t.Fatalf("not a trace: %v, %d events", err, len(tf.TraceEvents))
	}
	// -o - writes to stdout, and the same scenario gives the same bytes.
	_, again, _ := schedsim(t, "export", "-format", "perfetto", "-o", "-", "-set", "duration=50ms", "pelt-pingpong")
	if again != string(data) {
		t.Error("the export to stdout differs from the export to a file")
	}

	_, ss, _ := schedsim(t, "export", "-format", "schedstat", "-o", "-", "-set", "duration=50ms", "pelt-pingpong")
	if !strings.HasPrefix(ss, "version 15\ntimestamp 50\ncpu0 ") {
		t.Errorf("schedstat (v3.8): %.60q", ss)
	}
	_, ss, _ = schedsim(t, "export", "-format", "schedstat", "-o", "-", "-set", "duration=50ms", "-set", "policy.base=v6.17", "pelt-pingpong")
	if !strings.HasPrefix(ss, "version 17\ntimestamp 50\ncpu0 ") || !strings.Contains(ss, "\ndomain0 MC 3 ") {
		t.Errorf("schedstat (v6.17): %.120q", ss)
	}
	_, ss, _ = schedsim(t, "export", "-format", "schedstat", "-interval", "10ms", "-o", "-", "-set", "duration=50ms", "pelt-pingpong")
	if n := strings.Count(ss, "version 15\n"); n != 6 {
		t.Errorf("schedstat -interval 10ms over 50ms: %d snapshots, want 6", n)
	}
	_, csv, _ := schedsim(t, "export", "-format", "csv", "-interval", "10ms", "-o", "-", "-set", "duration=50ms", "pelt-pingpong")
	lines := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	if lines[0] != "time_ms,kind,id,signal,value" || !strings.HasPrefix(lines[len(lines)-1], "50,task,") {
		t.Errorf("csv: first %q, last %q", lines[0], lines[len(lines)-1])
	}
}

func TestExportErrors(t *testing.T) {
	broken := writeFile(t, "broken.json", brokenScenario)
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no format", []string{"export", "-o", "-", "pelt-pingpong"}, "-format perfetto|schedstat|csv|perfetto-proto|rtapp is required"},
		{"bad format", []string{"export", "-format", "xml", "-o", "-", "pelt-pingpong"}, `-format "xml": want one of`},
		{"no -o", []string{"export", "-format", "csv", "pelt-pingpong"}, "-o OUT is required (- for stdout)"},
		{"bad interval", []string{"export", "-format", "csv", "-interval", "0s", "-o", "-", "pelt-pingpong"}, "-interval 0s: want at least 1us"},
		{"bad scenario", []string{"export", "-format", "csv", "-o", "-", broken}, "machine.corez: unknown field"},
		{"bad -set", []string{"export", "-format", "csv", "-o", "-", "-set", "duration=0s", "pelt-pingpong"}, "-set duration=0s"},
		{"unwritable", []string{"export", "-format", "csv", "-o", filepath.Join(dir, "no", "such", "dir"), "pelt-pingpong"}, filepath.Join(dir, "no", "such", "dir") + ": cannot write there: no such file or directory"},
		{"two files", []string{"export", "-format", "csv", "-o", "-", "a", "b"}, "want one FILE or PRESET"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := schedsim(t, tc.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tc.stderr)
			}
		})
	}
	defer func(f func(*sim.Config) (*sim.Sim, error)) { newSim = f }(newSim)
	newSim = func(*sim.Config) (*sim.Sim, error) { return nil, errors.New("boom") }
	if code, _, stderr := schedsim(t, "export", "-format", "csv", "-o", "-", "pelt-pingpong"); code != 1 || !strings.Contains(stderr, "boom") {
		t.Errorf("internal error: exit %d, %q", code, stderr)
	}
}

// rt-app -> scenario -> run keeps the duty cycle, through the CLI.
func TestImportRTAppRoundTrip(t *testing.T) {
	in := writeFile(t, "periodic.json", rtappPeriodic)
	code, stdout, stderr := schedsim(t, "import", "-from", "rtapp", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stderr, "machine: rt-app files describe no machine") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr: %q", stderr)
	}
	s, err := scenarios.Decode([]byte(stdout))
	if err != nil {
		t.Fatalf("the output is not a scenario: %v\n%s", err, stdout)
	}
	if s.Title != "rt-app: periodic.json" || s.Duration != "2s" {
		t.Errorf("title %q, duration %q", s.Title, s.Duration)
	}
	file := writeFile(t, "scenario.json", stdout)
	m, _ := runJSON(t, file)
	if got := m.Tasks[0].CPUMS / m.SimMS; math.Abs(got-0.25) > 0.25*0.03 {
		t.Errorf("duty cycle %.4f after the round trip, want 0.25", got)
	}
}

func TestImportLscpuThenRTAppOnIt(t *testing.T) {
	dir := t.TempDir()
	box := filepath.Join(dir, "laptop.json")
	code, stdout, stderr := schedsim(t, "import", "-from", "lscpu", "-o", box, lscpuLaptop)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "wrote "+box) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	laptop, err := scenarios.Load(box)
	if err != nil {
		t.Fatal(err)
	}
	if mm := laptop.Machine; len(mm.CPUs) != 8 || *mm.CPUs[4].Core != 0 || len(laptop.Tasks) != 1 || laptop.Tasks[0].Count != 8 {
		t.Errorf("laptop: %+v, tasks %+v", mm, laptop.Tasks)
	}
	code, stdout, stderr = schedsim(t, "import", "-from", "rtapp", "-machine", box, writeFile(t, "w.json", rtappPeriodic))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	s, err := scenarios.Decode([]byte(stdout))
	if err != nil || len(s.Machine.CPUs) != 8 || *s.Machine.CPUs[4].Core != 0 {
		t.Fatalf("%v: machine %+v", err, s.Machine)
	}
}

func TestImportProblemsAndErrors(t *testing.T) {
	mixed := writeFile(t, "mixed.json", `{"tasks": {"a": {"run": 100, "yield": "", "sleep": 900, "iorun": 10}}}`)
	code, stdout, stderr := schedsim(t, "import", "-from", "rtapp", mixed)
	if code != 0 || !strings.Contains(stderr, "tasks.a.yield: sched_yield() is not modelled; dropped\n") || !strings.Contains(stderr, "tasks.a.iorun: ") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := scenarios.Decode([]byte(stdout)); err != nil {
		t.Error(err)
	}
	notJSON := writeFile(t, "x.json", "run 10 sleep 10")
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no -from", []string{"import", mixed}, "-from rtapp|lscpu|sysfs|ftrace is required"},
		{"bad -from", []string{"import", "-from", "sched", mixed}, `-from "sched": want rtapp, lscpu, sysfs or ftrace`},
		{"missing file", []string{"import", "-from", "rtapp", "nope.json"}, "no such file"},
		{"not rt-app", []string{"import", "-from", "rtapp", notJSON}, notJSON + ": not rt-app JSON"},
		{"not lscpu", []string{"import", "-from", "lscpu", mixed}, ""},
		{"lscpu -machine", []string{"import", "-from", "lscpu", "-machine", "pelt-pingpong", mixed}, "-machine is for -from rtapp"},
		{"bad -machine", []string{"import", "-from", "rtapp", "-machine", "nope", mixed}, "nope: no such file, and no such preset"},
		{"no file", []string{"import", "-from", "rtapp"}, "want one FILE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := schedsim(t, tc.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tc.stderr)
			}
		})
	}
}

// The round-two formats: a binary Perfetto trace (the same bytes as the
// interop package writes, which its tests decode), and an rt-app file whose
// problems go to stderr and which imports back.
func TestExportPerfettoProtoAndRTApp(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.perfetto-trace")
	code, stdout, stderr := schedsim(t, "export", "-format", "perfetto-proto", "-o", out, "-set", "duration=50ms", "pelt-pingpong")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "wrote "+out+": perfetto-proto, ") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, again, _ := schedsim(t, "export", "-format", "perfetto-proto", "-o", "-", "-set", "duration=50ms", "pelt-pingpong")
	if len(data) < 1000 || data[0] != 0x0a || again != string(data) {
		t.Fatalf("%d bytes starting %x; stdout export equal: %v", len(data), data[:min(4, len(data))], again == string(data))
	}

	rt := filepath.Join(dir, "tbench.rtapp.json")
	code, stdout, stderr = schedsim(t, "export", "-format", "rtapp", "-o", rt, "tbench-pairs")
	if code != 0 || !strings.HasPrefix(stdout, "wrote "+rt+": rtapp, ") || !strings.Contains(stderr, "tasks[0].program[1].sync: ") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	code, stdout, stderr = schedsim(t, "import", "-from", "rtapp", rt)
	if code != 0 || !strings.Contains(stdout, `"name": "server"`) {
		t.Fatalf("re-import: exit %d\nstdout: %.300s\nstderr: %s", code, stdout, stderr)
	}
}
