package realkernel

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"schedplay/sim"
)

// A hand-made trace: two threads (10, 11) and a foreign task (99) on two
// CPUs, in a nanosecond clock.
const analyzeTrace = `# tracer: nop
 x-99 [000] d..2. 1.000000: sched_switch: prev_comm=x prev_pid=99 prev_prio=120 prev_state=S ==> next_comm=a/0 next_pid=10 next_prio=120
 a/0-10 [000] d..2. 1.000010: sched_waking: comm=b/0 pid=11 prio=120 target_cpu=001
 a/0-10 [000] d..2. 1.000011: sched_migrate_task: comm=b/0 pid=11 prio=120 orig_cpu=1 dest_cpu=0
 a/0-10 [000] d..2. 1.000012: sched_wakeup: comm=b/0 pid=11 prio=120 target_cpu=000
 a/0-10 [000] d..2. 1.000020: sched_switch: prev_comm=a/0 prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=b/0 next_pid=11 next_prio=120
 b/0-11 [000] d..2. 1.000050: sched_switch: prev_comm=b/0 prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=x next_pid=99 next_prio=120
 migration/1-20 [001] d..2. 1.000060: sched_migrate_task: comm=b/0 pid=11 prio=120 orig_cpu=0 dest_cpu=1
 y-98 [001] d..2. 1.000070: sched_switch: prev_comm=y prev_pid=98 prev_prio=120 prev_state=S ==> next_comm=b/0 next_pid=11 next_prio=120
 b/0-11 [001] d..2. 1.000100: sched_switch: prev_comm=b/0 prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
`

func TestAnalyze(t *testing.T) {
	r, err := Analyze([]byte(analyzeTrace), []Thread{{Name: "a/0", TID: 10, Ops: 3}, {Name: "b/0", TID: 11, Ops: 2}},
		Window{StartNS: 1e9, EndNS: 1e9 + 200e3, NCPU: 2, Dist: func(a, b int) sim.Distance { return sim.DistLLC }})
	if err != nil {
		t.Fatal(err)
	}
	// Latency: b woken at 10 us, in at 20 us.
	if r.WakeupLatencyUS.N != 1 || r.WakeupLatencyUS.P50 != 10 {
		t.Errorf("wake-up latency %+v, want one of 10 us", r.WakeupLatencyUS)
	}
	// Migrations: one inside the wake-up, one by the stopper (active).
	if m := r.Migrations; m.Total != 2 || m.Wakeup != 1 || m.Active != 1 || m.Other != 1 || m.LLC != 2 {
		t.Errorf("migrations %+v", m)
	}
	// Switches in: a, b, b; switch to idle from b: 4.
	if r.CtxSwitches != 4 {
		t.Errorf("ctx switches %d, want 4", r.CtxSwitches)
	}
	// CPU: a 0..20 us = 20, b 20..50 + 70..100 = 60; busy = 80 us / (2 x 200 us).
	if r.Tasks[0].CPUMS != 0.02 || r.Tasks[1].CPUMS != 0.06 || r.BusyPct != 20 {
		t.Errorf("cpu %v %v busy %v", r.Tasks[0].CPUMS, r.Tasks[1].CPUMS, r.BusyPct)
	}
	// Run-queue wait of b: wakeup 12 -> 20 us, preempted 50 -> 70 us.
	if r.Tasks[1].WaitMS != 0.028 {
		t.Errorf("b waited %v ms, want 0.028", r.Tasks[1].WaitMS)
	}
	if r.Ops != 5 || r.OpsPerS != 25000 {
		t.Errorf("ops %d, %v/s", r.Ops, r.OpsPerS)
	}
	if r.TraceHash != nil || r.Tasks[0].UtilAvg != nil || !strings.Contains(strings.Join(r.Unmeasured, ","), "trace_hash") {
		t.Error("unmeasured keys must be null and listed")
	}
}

func TestWritePerfetto(t *testing.T) {
	var b strings.Builder
	threads := []Thread{{Name: "a/0", TID: 10}, {Name: "b/0", TID: 11}}
	err := WritePerfetto(&b, []byte(analyzeTrace), threads, Window{StartNS: 1e9, EndNS: 1e9 + 200e3, NCPU: 2}, "t")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Name string         `json:"name"`
			TID  int            `json:"tid"`
			TS   float64        `json:"ts"`
			Dur  float64        `json:"dur"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	var slices []string
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			slices = append(slices, fmt.Sprintf("%s@%d %.0f+%.0f %v", e.Name, e.TID, e.TS, e.Dur, e.Args["end"]))
		}
	}
	want := []string{"a/0@1000 0+20 blocked", "b/0@1000 20+30 preempted", "b/0@1001 70+30 blocked"}
	if fmt.Sprint(slices) != fmt.Sprint(want) {
		t.Errorf("slices %v, want %v", slices, want)
	}
}

// TestAnalyzeQuietTrace: a real run of testdata/pipeline.json recorded on a
// 2-vCPU guest with nothing else running, where the kernel reported none of
// the 200 switches out of CPU 1's idle task (interop/ftrace_repair.go). The
// threads completed 200 iterations each in the 2 s window: the producer ran
// 400 ms, each worker 600 ms, busy 40 % of two CPUs. Before the repair the
// same trace gave busy 30.4 % and the producer 22.6 ms.
func TestAnalyzeQuietTrace(t *testing.T) {
	data, err := os.ReadFile("../interop/testdata/ftrace-pipeline-quiet.txt")
	if err != nil {
		t.Fatal(err)
	}
	threads := []Thread{{Name: "producer/0", TID: 22751, Ops: 200}, {Name: "worker/0", TID: 22753, Ops: 200}, {Name: "worker/1", TID: 22746, Ops: 200}}
	// The window from the run's markers (CLOCK_MONOTONIC ns).
	r, err := Analyze(data, threads, Window{StartNS: 8928242247388, EndNS: 8930242247388, NCPU: 2})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.BusyPct-40) > 0.8 {
		t.Errorf("busy %.2f %%, want 40 ± 0.8", r.BusyPct)
	}
	for i, want := range []float64{400, 600, 600} {
		if got := r.Tasks[i].CPUMS; math.Abs(got-want) > 0.03*want {
			t.Errorf("%s: %.1f ms of CPU, want %.0f ± 3 %%", r.Tasks[i].Name, got, want)
		}
	}
	if r.InferredSwitchIns < 150 {
		t.Errorf("%d switch-ins inferred; the trace misses about 200", r.InferredSwitchIns)
	}
	t.Logf("busy %.2f %%, cpu %.1f / %.1f / %.1f ms, %d switch-ins inferred, wake-up latency p50 %.1f us",
		r.BusyPct, r.Tasks[0].CPUMS, r.Tasks[1].CPUMS, r.Tasks[2].CPUMS, r.InferredSwitchIns, r.WakeupLatencyUS.P50)
}

// TestCPUCheck: a trace within 5 % (or 2 ms) of the threads' clocks
// passes, and one short of them by up to 2 us more per switch-in (the
// clock starts at the pick, before the tracepoint): the 20 us pair's 4625
// ms against 4880 over 261 k switch-ins passes, a quarter of the time lost
// fails with or without switch-ins, and a trace over the clocks gets no
// switch-in allowance.
func TestCPUCheck(t *testing.T) {
	for _, c := range []struct {
		trace, clock float64
		switchIns    int64
		bad          bool
	}{{1000, 1000, 0, false}, {1015, 1000, 0, false}, {981, 1000, 0, false}, {750, 1000, 0, true}, {1060, 1000, 0, true},
		{11, 12.5, 0, false}, {4625, 4880, 0, true}, {4625, 4880, 261000, false}, {750, 1000, 30000, true}, {1060, 1000, 261000, true}} {
		err := (&CPUCheck{TraceMS: c.trace, ClockMS: c.clock, Worst: "x/0", SwitchIns: c.switchIns}).Err()
		if (err != nil) != c.bad {
			t.Errorf("trace %.1f ms, clock %.1f ms: error %v, want bad=%v", c.trace, c.clock, err, c.bad)
		}
	}
}
