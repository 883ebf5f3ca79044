package scenarios

import (
	"slices"
	"strings"
	"testing"

	"schedplay/sim"
)

func TestRenameAndRemoveTask(t *testing.T) {
	s, err := Preset("tbench-pairs") // client <-> server, server has count_of client
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RenameTask(0, "cli"); err != nil {
		t.Fatal(err)
	}
	if s.Tasks[0].Name != "cli" || s.Tasks[1].CountOf != "cli" || !strings.Contains(string(s.Canonical()), `"wake":"cli"`) || strings.Contains(string(s.Canonical()), `"client"`) {
		t.Errorf("rename left a reference: %s", s.Canonical())
	}
	before := string(s.Canonical())
	if err := s.RenameTask(0, "bad name!"); err == nil || string(s.Canonical()) != before {
		t.Errorf("bad name: %v", err)
	}
	if err := s.RenameTask(0, "server"); err == nil {
		t.Error("a duplicate name was accepted")
	}
	// Removing the client: the server keeps the count it took from it and
	// loses the wake steps that woke the client, and is still valid.
	count := s.Tasks[0].Count
	if err := s.RemoveTask(0); err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks) != 1 || s.Tasks[0].CountOf != "" || s.Tasks[0].Count != count || strings.Contains(string(s.Canonical()), `"wake":"cli"`) {
		t.Errorf("after remove: %s", s.Canonical())
	}
	if err := s.RemoveTask(0); err == nil {
		t.Error("removed the last group")
	}
	if err := s.RemoveTask(5); err == nil || !strings.Contains(err.Error(), "no task at index 5") {
		t.Errorf("remove 5: %v", err)
	}
}

func TestStepsAndDutyCycle(t *testing.T) {
	s, _ := Preset("pelt-pingpong") // hog: [run 8ms, timer 10ms]
	if pct, per, ok := s.DutyCycle(0); !ok || pct != 80 || per != "10ms" {
		t.Errorf("DutyCycle = %v %q %v", pct, per, ok)
	}
	if err := s.SetDutyCycle(0, 33.3, "3ms"); err != nil {
		t.Fatal(err)
	}
	if p := s.Tasks[0].Program; p[0].Run != "999us" || p[1].Timer != "3ms" {
		t.Errorf("program %+v", p)
	}
	for _, bad := range []struct {
		pct float64
		per string
	}{{0, "10ms"}, {101, "10ms"}, {50, "ten"}, {50, "-1ms"}} {
		if err := s.SetDutyCycle(0, bad.pct, bad.per); err == nil {
			t.Errorf("SetDutyCycle(%v, %q) accepted", bad.pct, bad.per)
		}
	}
	if err := s.AddStep(0); err != nil || len(s.Tasks[0].Program) != 3 || s.Tasks[0].Program[2].Sleep != "1ms" {
		t.Fatalf("AddStep: %v %+v", err, s.Tasks[0].Program)
	}
	if err := s.MoveStep(0, 2, -1); err != nil || s.Tasks[0].Program[1].Sleep != "1ms" {
		t.Fatalf("MoveStep: %v %+v", err, s.Tasks[0].Program)
	}
	if err := s.MoveStep(0, 0, -1); err == nil {
		t.Error("moved a step past the start")
	}
	if err := s.SetStepKind(0, 1, "timer"); err != nil || s.Tasks[0].Program[1].Timer != "1ms" {
		t.Fatalf("SetStepKind timer: %v %+v", err, s.Tasks[0].Program)
	}
	if err := s.SetStepKind(0, 1, "wake"); err != nil || s.Tasks[0].Program[1].Wake != "hog" {
		t.Fatalf("SetStepKind wake: %v %+v", err, s.Tasks[0].Program)
	}
	if err := s.SetStepKind(0, 1, "jump"); err == nil || !strings.Contains(err.Error(), "run, sleep, timer, wake, wait") {
		t.Errorf("bad kind: %v", err)
	}
	if err := s.MoveStep(0, 1, 0); err != nil || len(s.Tasks[0].Program) != 2 {
		t.Fatalf("remove step: %v", err)
	}
	if !slices.Equal(StepKinds(), []string{"run", "sleep", "timer", "wake", "wait", "exec", "fork", "wait_children", "exit", "repeat",
		"lock", "unlock", "cond_wait", "signal", "broadcast", "barrier"}) {
		t.Errorf("StepKinds = %v", StepKinds())
	}
	// The version-2 kinds: a repeat gets a body that runs the step's
	// duration; in a version-1 file the kind is refused by path.
	if err := s.Set("version", "1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStepKind(0, 0, "repeat"); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("repeat in a version-1 scenario: %v", err)
	}
	if err := s.Set("version", "2"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStepKind(0, 0, "repeat"); err != nil {
		t.Fatalf("repeat: %v", err)
	}
	if st := s.Tasks[0].Program[0]; st.Repeat != 2 || len(st.Program) != 1 || st.Program[0].Run == "" {
		t.Errorf("repeat step = %+v", st)
	}
}

func TestAddTaskAndIdleState(t *testing.T) {
	s, _ := Preset("pelt-pingpong")
	if err := s.AddTask(); err != nil || s.Tasks[2].Name != "task2" {
		t.Fatalf("AddTask: %v %+v", err, s.Tasks)
	}
	if err := s.AddIdleState(); err != nil {
		t.Fatal(err)
	}
	st := s.Machine.Costs.IdleStates
	if len(st) < 2 {
		t.Fatalf("idle states %+v", st)
	}
	last, prev := st[len(st)-1], st[len(st)-2]
	if last.ExitLatency != prev.ExitLatency || last.Name != "C"+itoa(len(st)-1) {
		t.Errorf("new state %+v after %+v", last, prev)
	}
	// The defaults were copied whole (C6 polls and flushes the core's
	// caches), and a deeper state polls and flushes as the one before it.
	if !prev.Polls || !prev.Flushes || !last.Polls || !last.Flushes {
		t.Errorf("new state %+v after %+v: want both polling and flushing", last, prev)
	}
	for ns, want := range map[int64]string{0: "0s", 2e9: "2s", 1.5e6: "1500us", 20e3: "20us", 40: "40ns", 3e6: "3ms"} {
		if got := FormatDuration(ns); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", ns, got, want)
		}
	}
}

// TestSetOneDefaultIdleState: a scenario on the default C-states takes a
// Set of one state's field (the CLI's -set, the page's editor): the table
// it was running is written out first, so the run is the defaults' run but
// for that field. Before, the absent table had 0 states and the Set failed
// with "index 4 is out of range (there are 0 idle states)". A table the user
// emptied ("no C-states") stays empty and refuses the index.
func TestSetOneDefaultIdleState(t *testing.T) {
	const p, clients = "pgbench-1toN", "1"
	s, _ := Preset(p)
	if s.Machine.Costs.IdleStates != nil {
		t.Fatalf("%s has its own idle states; the test wants one on the defaults", p)
	}
	def := sim.DefaultCosts().IdleStates
	c6 := "machine.costs.idle_states[" + itoa(len(def)-1) + "]"
	if err := s.Set(c6+".flushes", "true"); err != nil {
		t.Fatal(err)
	}
	if got := len(s.Machine.Costs.IdleStates); got != len(def) {
		t.Fatalf("%d idle states written out, want the %d defaults", got, len(def))
	}
	runs := map[string]sim.Metrics{}
	for name, sets := range map[string][]string{
		"defaults":              nil,
		"written out, the same": {c6 + ".flushes", "true"},
		"C3 and C6 not flushing": {
			"machine.costs.idle_states[" + itoa(len(def)-2) + "].flushes", "false", c6 + ".flushes", "false"},
	} {
		runs[name] = runPreset(t, p, append([]string{"tasks.client.count", clients}, sets...)...)
	}
	if a, b := runs["defaults"], runs["written out, the same"]; a.TraceHash != b.TraceHash {
		t.Errorf("the written-out defaults ran differently: trace %s against %s", b.TraceHash, a.TraceHash)
	}
	// One backend and its driver, each back on a core that slept in C3/C6
	// at every transaction: without the flush they come back to warm caches.
	if a, b := runs["defaults"], runs["C3 and C6 not flushing"]; a.TraceHash == b.TraceHash || b.Ops <= a.Ops {
		t.Errorf("flushes off: ops %d against %d with them (want more)", b.Ops, a.Ops)
	}

	none, _ := Preset(p)
	if err := none.Set("machine.costs.idle_states", "[]"); err != nil {
		t.Fatal(err)
	}
	err := none.Set(c6+".flushes", "true")
	if err == nil || !strings.Contains(err.Error(), "there are 0 idle states") {
		t.Errorf("Set on an emptied table: %v, want index out of range", err)
	}
}
