//go:build linux

package main

import (
	"strings"
	"testing"
)

// The real-kernel commands' bad input, checked before anything runs (no
// root or tracefs needed): too many threads, -costs without -compare, a
// bad costs file, an ftrace import of something else.
func TestRealBadInput(t *testing.T) {
	code, _, stderr := schedsim(t, "real", "-set", "tasks.duty.count=4096", "../../realkernel/testdata/four-30.json")
	if code != exitBadInput || !strings.Contains(stderr, "4096 task instances") || !strings.Contains(stderr, "limited to 64") {
		t.Errorf("4096 tasks: exit %d, %q", code, stderr)
	}
	code, _, stderr = schedsim(t, "real", "-costs", "x.json", "../../realkernel/testdata/four-30.json")
	if code != exitBadInput || !strings.Contains(stderr, "-costs is for -compare") {
		t.Errorf("-costs alone: exit %d, %q", code, stderr)
	}
	bad := writeFile(t, "costs.json", `{"costs": {"context_switch": "fast"}}`)
	code, _, stderr = schedsim(t, "real", "-compare", "-costs", bad, "../../realkernel/testdata/four-30.json")
	if code != exitBadInput || !strings.Contains(stderr, "context_switch") {
		t.Errorf("bad costs: exit %d, %q", code, stderr)
	}
	js := writeFile(t, "trace.json", `{"traceEvents": [{"ph": "X"}]}`)
	code, _, stderr = schedsim(t, "import", "-from", "ftrace", js)
	if code != exitBadInput || !strings.Contains(stderr, "line 1: not a tracefs or trace-cmd event line") {
		t.Errorf("ftrace import of JSON: exit %d, %q", code, stderr)
	}
	// perf script's text of the same tracepoints (perf record -e sched:sched_switch)
	perf := writeFile(t, "perf.txt", "            perf 25306 [000]  9019.290033: sched:sched_switch: prev_comm=perf prev_pid=25306 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0\n")
	code, _, stderr = schedsim(t, "import", "-from", "ftrace", perf)
	if code != exitBadInput || !strings.Contains(stderr, "perf.txt: line 1: not a tracefs or trace-cmd event line") {
		t.Errorf("ftrace import of perf script output: exit %d, %q", code, stderr)
	}
	code, _, stderr = schedsim(t, "import", "-from", "rtapp", "-comm", "x", js)
	if code != exitBadInput || !strings.Contains(stderr, "-comm is for -from ftrace") {
		t.Errorf("-comm with rtapp: exit %d, %q", code, stderr)
	}
}

// import -from ftrace of a trace recorded here (interop's acceptance data).
func TestImportFtraceCLI(t *testing.T) {
	code, stdout, stderr := schedsim(t, "import", "-from", "ftrace", "../../interop/testdata/ftrace-pipeline.txt")
	if code != exitOK || !strings.Contains(stdout, `"wake": "worker"`) || !strings.Contains(stderr, "sync true inferred") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}
