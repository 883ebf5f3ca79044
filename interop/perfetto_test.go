package interop

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

// traceEvent is the part of a trace event the checks read.
type traceEvent struct {
	Ph   string          `json:"ph"`
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	PID  *int            `json:"pid"`
	TID  int             `json:"tid"`
	TS   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	ID   int64           `json:"id"`
	BP   string          `json:"bp"`
	S    string          `json:"s"`
	Args json.RawMessage `json:"args"`
}

type traceFile struct {
	DisplayTimeUnit string            `json:"displayTimeUnit"`
	OtherData       map[string]string `json:"otherData"`
	TraceEvents     []traceEvent      `json:"traceEvents"`
}

func exportPerfetto(t *testing.T, s *sim.Sim, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WritePerfetto(&b, s, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkTrace validates an exported trace against the run that made it:
// valid JSON; slices with non-negative durations that never overlap on a
// CPU and add up to the tasks' CPU time; flows that start inside the
// waker's slice and end inside the wakee's; counters and metadata present.
func checkTrace(t *testing.T, data []byte, s, rerun *sim.Sim) {
	t.Helper()
	if !json.Valid(data) {
		t.Fatal("the trace is not valid JSON")
	}
	var tf traceFile
	if err := json.Unmarshal(data, &tf); err != nil {
		t.Fatal(err)
	}
	ncpu := s.Topology().NCPU
	type slice struct {
		start, end float64
		name       string
	}
	perTID := map[int][]slice{}
	var sumUS float64
	threadNames := map[int]string{}
	counters := map[string]int{}
	flows := map[int64][]traceEvent{}
	for _, e := range tf.TraceEvents {
		if e.PID == nil || *e.PID != perfettoPID {
			t.Fatalf("event without pid 1: %+v", e)
		}
		if e.Ph != "M" && e.TS == nil {
			t.Fatalf("event without ts: %+v", e)
		}
		switch e.Ph {
		case "X":
			if e.Dur == nil || *e.Dur < 0 {
				t.Fatalf("slice with a negative or no duration: %+v", e)
			}
			if e.TID < perfettoTaskTID || e.TID >= perfettoTaskTID+ncpu || e.Cat != "task" {
				t.Fatalf("slice on a track that is not a CPU's: %+v", e)
			}
			perTID[e.TID] = append(perTID[e.TID], slice{*e.TS, *e.TS + *e.Dur, e.Name})
			sumUS += *e.Dur
		case "M":
			if e.Name == "thread_name" {
				var a struct{ Name string }
				json.Unmarshal(e.Args, &a)
				threadNames[e.TID] = a.Name
			}
		case "C":
			var a map[string]float64
			if err := json.Unmarshal(e.Args, &a); err != nil || len(a) != 2 {
				t.Fatalf("counter args %s: %v", e.Args, err)
			}
			counters[e.Name]++
		case "s", "f":
			flows[e.ID] = append(flows[e.ID], e)
		case "i":
			if e.S != "t" || e.TID < perfettoEventsTID || e.TID >= perfettoEventsTID+ncpu {
				t.Fatalf("instant not on a CPU's events track: %+v", e)
			}
		default:
			t.Fatalf("unexpected phase %q", e.Ph)
		}
	}
	for c := range ncpu {
		if threadNames[perfettoTaskTID+c] != "cpu"+itoa(c) || threadNames[perfettoEventsTID+c] != "cpu"+itoa(c)+" events" {
			t.Errorf("cpu%d tracks are named %q and %q", c, threadNames[perfettoTaskTID+c], threadNames[perfettoEventsTID+c])
		}
		if counters["cpu"+itoa(c)] == 0 {
			t.Errorf("no counter samples for cpu%d", c)
		}
	}
	// Slices of one CPU never overlap.
	for tid, sl := range perTID {
		sort.Slice(sl, func(i, j int) bool { return sl[i].start < sl[j].start })
		for i := 1; i < len(sl); i++ {
			if sl[i].start < sl[i-1].end-1e-6 {
				t.Fatalf("tid %d: %s [%v,%v] overlaps %s [%v,%v]", tid, sl[i-1].name, sl[i-1].start, sl[i-1].end, sl[i].name, sl[i].start, sl[i].end)
			}
		}
	}
	// They add up to the simulated CPU time of the tasks.
	m := s.Metrics()
	var cpuMS float64
	for _, tm := range m.Tasks {
		cpuMS += tm.CPUMS
	}
	// Metrics round each task to 1 us; the slices are exact to 1 ns.
	if tol := 0.0005*float64(len(m.Tasks)) + 1e-6; math.Abs(sumUS/1000-cpuMS) > tol {
		t.Errorf("slices add up to %.6f ms, the tasks ran %.6f ms", sumUS/1000, cpuMS)
	}
	if cpuMS == 0 {
		t.Error("no task ran: the check above proves nothing")
	}
	// Every flow has a start inside a slice of its waker and an end inside
	// a slice of its wakee ("bp":"e": bound to the enclosing slice).
	enclosing := func(tid int, ts float64) string {
		for _, s := range perTID[tid] {
			if s.start <= ts && ts <= s.end {
				return s.name
			}
		}
		return ""
	}
	want := expectedFlows(t, rerun)
	for id, fl := range flows {
		if len(fl) != 2 || fl[0].Ph != "s" || fl[1].Ph != "f" || fl[1].BP != "e" {
			t.Fatalf("flow %d is %+v", id, fl)
		}
		w, ok := want[id]
		if !ok {
			t.Fatalf("flow %d: no such wake-up in the run", id)
		}
		if got := enclosing(fl[0].TID, *fl[0].TS); fl[0].TID != perfettoTaskTID+w.wakerCPU || got != w.waker {
			t.Fatalf("flow %d starts in a slice of %q on tid %d, its waker is %q on cpu%d", id, got, fl[0].TID, w.waker, w.wakerCPU)
		}
		if got := enclosing(fl[1].TID, *fl[1].TS); fl[1].TID != perfettoTaskTID+w.runCPU || got != w.wakee {
			t.Fatalf("flow %d ends in a slice of %q on tid %d, its wakee is %q on cpu%d", id, got, fl[1].TID, w.wakee, w.runCPU)
		}
		if math.Abs(*fl[0].TS-w.wakeUS) > 0.0011 || math.Abs(*fl[1].TS-w.runUS) > 0.0011 || *fl[0].TS > *fl[1].TS {
			t.Fatalf("flow %d from %v to %v; the wake-up was at %v, the run at %v", id, *fl[0].TS, *fl[1].TS, w.wakeUS, w.runUS)
		}
		delete(want, id)
	}
	// Wake-ups whose wakee ran again before the end all have a flow.
	for id, w := range want {
		if w.runCPU >= 0 {
			t.Fatalf("wake-up %d of %s by %s has no flow", id, w.wakee, w.waker)
		}
	}
}

type wantFlow struct {
	waker, wakee     string
	wakerCPU, runCPU int
	wakeUS, runUS    float64
}

// expectedFlows replays a second, identical run from its recorded events:
// the n-th wake-up by a running task is flow n, from the waker's CPU at the
// wake-up to the wakee's next switch-in (runCPU -1: it never ran again, or
// was woken again first).
func expectedFlows(t *testing.T, s *sim.Sim) map[int64]*wantFlow {
	s.SetRecording(true)
	running := map[int32]int{}
	pending := map[int32]*wantFlow{}
	out := map[int64]*wantFlow{}
	var n int64
	var evs []sim.Event
	for !s.Done() {
		s.RunUntil(min(s.Now()+100_000, s.Config().Duration))
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			switch e.Kind {
			case sim.EvSwitch:
				for task, c := range running {
					if c == int(e.CPU) {
						delete(running, task)
					}
				}
				if e.Task >= 0 {
					running[e.Task] = int(e.CPU)
					if w := pending[e.Task]; w != nil {
						w.runCPU, w.runUS = int(e.CPU), float64(e.T)/1000
						delete(pending, e.Task)
					}
				}
			case sim.EvWakeup:
				c, ok := running[e.Arg]
				if e.Arg < 0 || !ok {
					continue
				}
				n++
				if old := pending[e.Task]; old != nil {
					old.runCPU = -1
				}
				w := &wantFlow{waker: s.TaskName(int(e.Arg)), wakee: s.TaskName(int(e.Task)), wakerCPU: c, runCPU: -1, wakeUS: float64(e.T) / 1000}
				out[n], pending[e.Task] = w, w
			}
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestPerfettoTraceIsValidAndAddsUp(t *testing.T) {
	cases := []struct {
		name   string
		preset string
		sets   []string
		busy   bool // tasks wake each other and CPUs balance
	}{
		{"fixture v3.8", "testdata/export-small.json", []string{"duration=300ms"}, true},
		{"fixture v6.17", "testdata/export-small.json", []string{"duration=300ms", "policy.base=v6.17"}, true},
		{"pelt-pingpong", "pelt-pingpong", []string{"duration=300ms"}, false},
		// Pairs of tasks waking each other on 80 CPUs: flows, wake-up
		// migrations and balancing on a NUMA machine.
		{"tbench-pairs", "tbench-pairs", []string{"duration=30ms", "tasks.client.count=8"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.preset, tc.sets...)
			data := exportPerfetto(t, s, Options{})
			checkTrace(t, data, s, newSim(t, tc.preset, tc.sets...))
			if tc.busy && !bytes.Contains(data, []byte(`"ph":"f"`)) {
				t.Error("no wake-up flows in a trace of tasks waking each other")
			}
			// One instant per migration (forks are "fork" instants).
			mg := s.Metrics().Migrations
			if got := bytes.Count(data, []byte(`"name":"migrate:`)); int64(got) != mg.Total-mg.Fork {
				t.Errorf("%d migration instants, the run migrated %d tasks (not counting forks)", got, mg.Total-mg.Fork)
			}
			if tc.busy && (!bytes.Contains(data, []byte(`"name":"balance:`)) || !bytes.Contains(data, []byte(`"decision":`))) {
				t.Error("no balance instants with their decisions")
			}
			if s.Now() != s.Config().Duration {
				t.Errorf("the export stopped at %d ns, not the scenario's end", s.Now())
			}
		})
	}
}

// The export observes the run; it must not change it, and the same
// scenario must give the same bytes.
func TestPerfettoDeterministicAndFaithful(t *testing.T) {
	sets := []string{"duration=40ms", "tasks.client.count=4"}
	a := newSim(t, "tbench-pairs", sets...)
	da := exportPerfetto(t, a, Options{Interval: 250_000})
	b := newSim(t, "tbench-pairs", sets...)
	db := exportPerfetto(t, b, Options{Interval: 250_000})
	if !bytes.Equal(da, db) {
		t.Fatal("two exports of one scenario differ")
	}
	plain := newSim(t, "tbench-pairs", sets...)
	plain.Run()
	if a.TraceHash() != plain.TraceHash() {
		t.Fatalf("exporting changed the run: trace %s, plain run %s", a.TraceHash(), plain.TraceHash())
	}
}

// An export may start in the middle of a run and stop before its end.
func TestPerfettoWindow(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=100ms")
	s.RunUntil(20_000_000 + 123)
	data := exportPerfetto(t, s, Options{Until: 50_000_000})
	if s.Now() != 50_000_000 {
		t.Fatalf("stopped at %d", s.Now())
	}
	var tf traceFile
	if err := json.Unmarshal(data, &tf); err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, e := range tf.TraceEvents {
		if e.Ph == "X" {
			if *e.TS < 20000.123-1e-9 || *e.TS+*e.Dur > 50000+1e-9 {
				t.Fatalf("slice outside the window: %+v", e)
			}
			sum += *e.Dur
		}
	}
	// Three 80% tasks and a pair that keeps one CPU about busy: the
	// slices of a 30 ms window cover between two and four CPUs' worth.
	if sum < 2*30000*0.7 || sum > 4*30000 {
		t.Errorf("slices cover %v us of a 4 x 30 ms window", sum)
	}
}

func TestPerfettoGolden(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=25ms")
	golden(t, "export-small.perfetto.json", exportPerfetto(t, s, Options{}))
}

func TestAppendDecimal(t *testing.T) {
	for _, c := range []struct {
		v      int64
		digits int
		want   string
	}{{0, 3, "0"}, {1, 3, "0.001"}, {1000, 3, "1"}, {1234567, 3, "1234.567"}, {1234500, 3, "1234.5"}, {50, 6, "0.00005"}, {7, 0, "7"}} {
		if got := string(appendDecimal(nil, c.v, c.digits)); got != c.want {
			t.Errorf("appendDecimal(%d, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
	for _, s := range []string{"plain", `q"uote\`, "tab\tnl\n", "\x01\u2028", "\xff bad utf-8", "π"} {
		b := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q -> %s: %v", s, b, err)
		}
		if strings.ToValidUTF8(s, "\uFFFD") != back {
			t.Errorf("%q -> %s -> %q", s, b, back)
		}
	}
}
