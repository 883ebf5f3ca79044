package interop

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"schedplay/sim"
)

// A protobuf wire-format reader for the tests: it knows no message, only
// the field numbers it is asked about, so it checks the writer's framing
// independently of protoc.
type pbField struct {
	num  int
	wire int
	v    uint64 // varint
	b    []byte // length-delimited
}

func pbFields(t *testing.T, b []byte) []pbField {
	t.Helper()
	var out []pbField
	for len(b) > 0 {
		key, n := pbVarint(b)
		if n <= 0 {
			t.Fatalf("bad key varint")
		}
		b = b[n:]
		f := pbField{num: int(key >> 3), wire: int(key & 7)}
		switch f.wire {
		case 0:
			f.v, n = pbVarint(b)
			if n <= 0 {
				t.Fatalf("field %d: bad varint", f.num)
			}
			b = b[n:]
		case 2:
			l, n := pbVarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				t.Fatalf("field %d: length %d past the end (%d left)", f.num, l, len(b)-n)
			}
			f.b = b[n : n+int(l)]
			b = b[n+int(l):]
		default:
			t.Fatalf("field %d: wire type %d, the writer only uses 0 and 2", f.num, f.wire)
		}
		out = append(out, f)
	}
	return out
}

func pbVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

func pbGet(fs []pbField, num int) (pbField, bool) {
	for _, f := range fs {
		if f.num == num {
			return f, true
		}
	}
	return pbField{}, false
}

// ppCounts are the counts of a decoded trace by event kind.
type ppCounts struct {
	events    map[string]int64 // ftrace event name -> count
	instants  map[string]int64 // decision instant name prefix ("migrate", "balance", "fork") -> count
	counters  int64
	runNS     map[int64]int64 // pid -> ns on a CPU, from sched_switch
	processes int64           // process-tree entries
}

var ppEventNames = map[int]string{
	fEvSchedSwitch: "sched_switch", fEvSchedWakeup: "sched_wakeup", fEvSchedWaking: "sched_waking",
	fEvSchedWakeupNew: "sched_wakeup_new", fEvTaskNewtask: "task_newtask", fEvSchedProcExit: "sched_process_exit",
	fEvSchedProcFork: "sched_process_fork", fEvSchedMigrate: "sched_migrate_task",
}

// decodeProto walks a trace: every packet, every bundle's events (in time
// order per CPU, each switch's prev_pid the previous switch's next_pid),
// every track event; end is the export's last timestamp.
func decodeProto(t *testing.T, data []byte, ncpu int, end int64) ppCounts {
	t.Helper()
	c := ppCounts{events: map[string]int64{}, instants: map[string]int64{}, runNS: map[int64]int64{}}
	lastTS := make([]int64, ncpu)
	curPID := make([]int64, ncpu)
	since := make([]int64, ncpu)
	for i := range curPID {
		curPID[i], lastTS[i] = -1, -1
	}
	for _, top := range pbFields(t, data) {
		if top.num != fTracePacket || top.wire != 2 {
			t.Fatalf("Trace has field %d (wire %d); only packets (1) expected", top.num, top.wire)
		}
		pkt := pbFields(t, top.b)
		if seq, ok := pbGet(pkt, fPktSeqID); !ok || seq.v == 0 {
			t.Fatal("packet without a trusted_packet_sequence_id")
		}
		if f, ok := pbGet(pkt, fPktFtraceEvents); ok {
			bundle := pbFields(t, f.b)
			cf, ok := pbGet(bundle, fBundleCPU)
			if !ok || int(cf.v) >= ncpu {
				t.Fatalf("bundle without a valid cpu: %+v", cf)
			}
			cpu := int(cf.v)
			for _, ef := range bundle {
				if ef.num != fBundleEvent {
					continue
				}
				ev := pbFields(t, ef.b)
				ts, ok := pbGet(ev, fEvTimestamp)
				if !ok || int64(ts.v) < lastTS[cpu] {
					t.Fatalf("cpu%d: event at %d after one at %d", cpu, ts.v, lastTS[cpu])
				}
				lastTS[cpu] = int64(ts.v)
				if _, ok := pbGet(ev, fEvPID); !ok {
					t.Fatal("ftrace event without pid")
				}
				kinds := 0
				for _, x := range ev {
					name, ok := ppEventNames[x.num]
					if !ok {
						continue
					}
					kinds++
					c.events[name]++
					if x.num != fEvSchedSwitch {
						continue
					}
					sw := pbFields(t, x.b)
					prev, _ := pbGet(sw, fSwitchPrevPID)
					next, _ := pbGet(sw, fSwitchNextPID)
					if curPID[cpu] >= 0 && int64(prev.v) != curPID[cpu] {
						t.Fatalf("cpu%d at %d: sched_switch from pid %d, but pid %d was running", cpu, ts.v, prev.v, curPID[cpu])
					}
					if curPID[cpu] > 0 {
						c.runNS[curPID[cpu]] += int64(ts.v) - since[cpu]
					}
					curPID[cpu], since[cpu] = int64(next.v), int64(ts.v)
				}
				if kinds != 1 {
					t.Fatalf("ftrace event with %d event messages", kinds)
				}
			}
		}
		if f, ok := pbGet(pkt, fPktTrackEvent); ok {
			te := pbFields(t, f.b)
			ty, _ := pbGet(te, fTEType)
			switch ty.v {
			case teInstant:
				name, _ := pbGet(te, fTEName)
				kind, _, _ := strings.Cut(string(name.b), ":")
				c.instants[kind]++
			case teCounter:
				c.counters++
			default:
				t.Fatalf("track event of type %d", ty.v)
			}
		}
		if f, ok := pbGet(pkt, fPktProcessTree); ok {
			for _, x := range pbFields(t, f.b) {
				if x.num == fTreeProcesses {
					c.processes++
				}
			}
		}
	}
	for cpu := range ncpu {
		if curPID[cpu] > 0 {
			c.runNS[curPID[cpu]] += end - since[cpu]
		}
	}
	return c
}

// simCounts are what the simulator itself counted in a plain run of the
// same scenario: its metrics, its task states and its event stream.
func simCounts(t *testing.T, s *sim.Sim) (m sim.Metrics, forked, exited, balances int64) {
	t.Helper()
	s.SetRecording(true)
	var evs []sim.Event
	for s.NextEventTime() >= 0 && s.NextEventTime() <= s.Config().Duration {
		s.Step()
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			if e.Kind == sim.EvBalance {
				balances++
			}
		}
	}
	s.RunUntil(s.Config().Duration)
	var snap sim.Snapshot
	s.SnapshotInto(&snap)
	for _, ts := range snap.Tasks {
		if ts.State != sim.TaskUnborn {
			forked++
		}
		if ts.State == sim.TaskExited {
			exited++
		}
	}
	return s.Metrics(), forked, exited, balances
}

func exportProto(t *testing.T, s *sim.Sim, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WritePerfettoProto(&b, s, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// ppCases are scenarios with every kind of event: wake-ups by tasks and
// timers, wake-up and balance migrations, several domain levels, exits.
var ppCases = []struct {
	name, preset string
	sets         []string
}{
	{"fixture v3.8", "testdata/export-small.json", []string{"duration=300ms"}},
	{"fixture v6.17", "testdata/export-small.json", []string{"duration=300ms", "policy.base=v6.17"}},
	{"fixture exits", "testdata/export-small.json", []string{"duration=100ms", "tasks.hog.loop=3"}},
	{"pelt-pingpong", "pelt-pingpong", []string{"duration=300ms"}},
	{"tbench-pairs", "tbench-pairs", []string{"duration=30ms", "tasks.client.count=8"}},
}

// checkProtoCounts compares a decoded trace with the simulator's counts.
func checkProtoCounts(t *testing.T, got ppCounts, m sim.Metrics, forked, exited, balances int64) {
	t.Helper()
	mg := m.Migrations
	want := map[string]int64{
		"sched_switch":       m.CtxSwitches,
		"sched_waking":       m.Wakeups,
		"sched_wakeup":       m.Wakeups,
		"sched_migrate_task": mg.Total - mg.Fork, // fork placement is __set_task_cpu(): no event
		"task_newtask":       forked,
		"sched_process_fork": forked,
		"sched_wakeup_new":   forked,
		"sched_process_exit": exited,
	}
	for name, w := range want {
		if got.events[name] != w {
			t.Errorf("%s: %d in the trace, the simulator counted %d", name, got.events[name], w)
		}
	}
	if got.instants["migrate"] != mg.Total-mg.Fork || got.instants["fork"] != forked || got.instants["balance"] != balances {
		t.Errorf("decision instants %v; the simulator: %d migrations (not forks), %d forks, %d balance passes",
			got.instants, mg.Total-mg.Fork, forked, balances)
	}
	if got.processes != 1+forked {
		t.Errorf("%d processes described, want the launcher and %d tasks", got.processes, forked)
	}
	if m.CtxSwitches == 0 || m.Wakeups == 0 || forked == 0 || got.counters == 0 {
		t.Error("a run without switches, wake-ups, forks or counters proves little")
	}
	// Running time per task from sched_switch adds up to its CPU time
	// (metrics round to 1 us).
	for i, tm := range m.Tasks {
		ms := float64(got.runNS[ppTaskPID+int64(i)]) / 1e6
		if math.Abs(ms-tm.CPUMS) > 0.0011 {
			t.Errorf("%s ran %.4f ms by sched_switch, %.4f ms by the simulator", tm.Name, ms, tm.CPUMS)
		}
	}
}

func TestPerfettoProtoCountsMatchTheSimulator(t *testing.T) {
	for _, tc := range ppCases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.preset, tc.sets...)
			data := exportProto(t, s, Options{})
			got := decodeProto(t, data, s.Topology().NCPU, s.Now())
			m, forked, exited, balances := simCounts(t, newSim(t, tc.preset, tc.sets...))
			checkProtoCounts(t, got, m, forked, exited, balances)
			if tc.name == "fixture exits" && exited == 0 {
				t.Error("no task exited")
			}
			if strings.HasPrefix(tc.name, "fixture v") && (mg(m) == 0 || balances == 0) {
				t.Error("the fixture should migrate tasks and balance")
			}
		})
	}
}

func mg(m sim.Metrics) int64 { return m.Migrations.Total - m.Migrations.Fork }

// The export observes the run: it must not change it, and the same
// scenario must give the same bytes.
func TestPerfettoProtoDeterministicAndFaithful(t *testing.T) {
	sets := []string{"duration=40ms", "tasks.client.count=4"}
	a := newSim(t, "tbench-pairs", sets...)
	da := exportProto(t, a, Options{Interval: 250_000})
	db := exportProto(t, newSim(t, "tbench-pairs", sets...), Options{Interval: 250_000})
	if !bytes.Equal(da, db) {
		t.Fatal("two exports of one scenario differ")
	}
	plain := newSim(t, "tbench-pairs", sets...)
	plain.Run()
	if a.TraceHash() != plain.TraceHash() {
		t.Fatalf("exporting changed the run: trace %s, plain run %s", a.TraceHash(), plain.TraceHash())
	}
}

// An export that starts mid-run describes the tasks alive then and
// continues each CPU's switch chain from the task running there.
func TestPerfettoProtoWindow(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=100ms")
	s.RunUntil(20_000_000 + 123)
	data := exportProto(t, s, Options{Until: 50_000_000})
	got := decodeProto(t, data, s.Topology().NCPU, s.Now())
	if got.processes != 1+5 || got.events["task_newtask"] != 0 || got.events["sched_switch"] == 0 {
		t.Errorf("window export: %d processes, %v", got.processes, got.events)
	}
}

// protocDecode runs protoc --decode against testdata/perfetto_trace.proto.
func protocDecode(t *testing.T, data []byte) string {
	return protocDecodeWith(t, data, "testdata/perfetto_trace.proto")
}

func protocDecodeWith(t *testing.T, data []byte, proto string) string {
	t.Helper()
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc is not installed (Debian: apt-get install protobuf-compiler); the proto decode checks are skipped")
	}
	cmd := exec.Command(protoc, "--decode=perfetto.protos.Trace", "-I", filepath.Dir(proto), filepath.Base(proto))
	cmd.Stdin = bytes.NewReader(data)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("protoc --decode: %v\n%s", err, stderr.String())
	}
	return out.String()
}

var unknownField = regexp.MustCompile(`(?m)^\s*[0-9]+[:{ ]`)

// protoc decodes the trace with the project's definitions of Perfetto's
// messages; every field the writer wrote has a name there (protoc prints
// unknown fields by number), and the counts of each event kind in protoc's
// text equal the simulator's.
func TestPerfettoProtoDecodesWithProtoc(t *testing.T) {
	for _, tc := range ppCases[:3] {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.preset, tc.sets...)
			data := exportProto(t, s, Options{})
			text := protocDecode(t, data)
			// With Perfetto's own definitions (the one-file
			// protos/perfetto/trace/perfetto_trace.proto of its repository),
			// protoc prints the same text.
			if official := os.Getenv("SCHEDPLAY_PERFETTO_PROTO"); official != "" {
				if got := protocDecodeWith(t, data, official); got != text {
					t.Errorf("decoded with %s, the text differs from the decoding with testdata/perfetto_trace.proto", official)
				}
			} else if tc.name == ppCases[0].name {
				t.Log("set SCHEDPLAY_PERFETTO_PROTO=/path/to/perfetto_trace.proto to decode with Perfetto's own definitions too")
			}
			if loc := unknownField.FindStringIndex(text); loc != nil {
				t.Fatalf("protoc printed a field by number (not in perfetto_trace.proto): %q", text[loc[0]:min(len(text), loc[0]+80)])
			}
			got := ppCounts{events: map[string]int64{}, instants: map[string]int64{}, runNS: map[int64]int64{}}
			for _, name := range ppEventNames {
				got.events[name] = int64(strings.Count(text, "\n      "+name+" {"))
			}
			for _, k := range []string{"fork", "migrate", "balance"} {
				got.instants[k] = int64(strings.Count(text, "name: \""+k))
			}
			got.counters = int64(strings.Count(text, "type: TYPE_COUNTER"))
			got.processes = int64(strings.Count(text, "  processes {"))
			m, forked, exited, balances := simCounts(t, newSim(t, tc.preset, tc.sets...))
			// Per-task run time is checked by the wire decoder; here the counts.
			got.runNS = nil
			for i := range m.Tasks {
				m.Tasks[i].CPUMS = 0
			}
			checkProtoCounts(t, got, m, forked, exited, balances)
		})
	}
}

// The golden trace of a small run: the binary exactly, and protoc's
// decoding of it (for people to read; regenerated with -update).
func TestPerfettoProtoGolden(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=6ms")
	data := exportProto(t, s, Options{})
	golden(t, "export-small.perfetto-trace", data)
	text := protocDecode(t, data)
	golden(t, "export-small.perfetto-trace.txt", []byte(text))
}
