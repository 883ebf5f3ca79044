package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"schedplay/scenarios"
)

// stepKey is a program step with durations in ns and wake targets by
// group, so that an exported-and-imported program compares with the
// original whatever the names became.
func stepKey(t *testing.T, st scenarios.Step) string {
	t.Helper()
	d := func(s string) string {
		ns, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(int64(ns), 10)
	}
	switch {
	case st.Run != "":
		return "run " + d(st.Run)
	case st.Sleep != "":
		return "sleep " + d(st.Sleep)
	case st.Timer != "":
		return "timer " + d(st.Timer)
	case st.Wait:
		return "wait"
	}
	return "wake " + groupOf(st.Wake)
}

// groupOf strips an expanded instance's "-k".
func groupOf(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// Every preset exports to rt-app and imports back with the same programs:
// the same run, sleep and timer durations in the same order (so the same
// duty cycles), the same waits and wakes, loops, delays and instance
// counts.
func TestRTAppExportRoundTrip(t *testing.T) {
	for _, pi := range scenarios.Presets() {
		name := pi.Name
		t.Run(name, func(t *testing.T) {
			sc, err := scenarios.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "tbench-pairs" {
				sc.Set("tasks.client.count", "3") // 1:1 pairs of several instances
			}
			data, probs, err := WriteRTApp(sc)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range probs {
				// Version-2 steps (exec, fork, wait_children, exit) have
				// no rt-app 1.0 event: such a preset cannot round-trip.
				if strings.Contains(p.Message, "has no event for") {
					t.Skipf("%s: not expressible in rt-app 1.0 (%s), no round trip", name, p)
				}
			}
			back, iprobs, err := ImportRTApp(data)
			if err != nil {
				t.Fatalf("re-import: %v\n%s", err, data)
			}
			for _, p := range iprobs {
				if p.Path != "machine" && !strings.Contains(p.Message, "resume wakes every suspended thread") {
					t.Errorf("re-import problem %s", p)
				}
			}
			threads := map[string]int{}
			for _, bt := range back.Tasks {
				g := groupOf(bt.Name)
				var orig *scenarios.Task
				for i := range sc.Tasks {
					if sc.Tasks[i].Name == g {
						orig = &sc.Tasks[i]
					}
				}
				if orig == nil {
					t.Fatalf("imported task %q is no group of the scenario", bt.Name)
				}
				threads[g] += bt.Count
				if bt.Loop != orig.Loop || bt.Nice != orig.Nice || bt.CPUs != orig.CPUs {
					t.Errorf("%s: loop %d nice %d cpus %q, was %d %d %q", bt.Name, bt.Loop, bt.Nice, bt.CPUs, orig.Loop, orig.Nice, orig.CPUs)
				}
				if stepKey(t, scenarios.Step{Run: bt.Start + "0s"}) != stepKey(t, scenarios.Step{Run: orig.Start + "0s"}) {
					t.Errorf("%s: start %q, was %q", bt.Name, bt.Start, orig.Start)
				}
				var got, want []string
				for _, st := range bt.Program {
					got = append(got, stepKey(t, st))
				}
				for _, st := range orig.Program {
					want = append(want, stepKey(t, st))
				}
				if strings.Join(got, "; ") != strings.Join(want, "; ") {
					t.Errorf("%s: program\n got %v\nwant %v", bt.Name, got, want)
				}
			}
			for _, ot := range sc.Tasks {
				n := ot.Count
				if ot.CountOf != "" {
					n = threads[ot.CountOf]
				}
				if threads[ot.Name] != n {
					t.Errorf("%s: %d threads after the round trip, the scenario has %d", ot.Name, threads[ot.Name], n)
				}
			}
			for _, p := range probs {
				t.Logf("not expressed: %s", p)
			}
		})
	}
}

func TestRTAppExportDeterministic(t *testing.T) {
	sc, err := scenarios.Load("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	a, _, _ := WriteRTApp(sc)
	b, _, _ := WriteRTApp(sc.Clone())
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("two exports of one scenario differ")
	}
	golden(t, "tbench-pairs.rtapp.json", a)
}

// What rt-app cannot express is reported by the scenario path.
func TestRTAppExportProblems(t *testing.T) {
	sc, err := scenarios.Load("eligible-migration")
	if err != nil {
		t.Fatal(err)
	}
	sc.Duration = "1500ms"
	sc.Tasks[1].Program = append(sc.Tasks[1].Program, scenarios.Step{Sleep: "2500ns"})
	_, probs, err := WriteRTApp(sc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"duration: 1500ms: rt-app's duration is whole seconds; 2s",
		`tasks[0].program[1].fanout: "one": rt-app's resume wakes every suspended thread of receiver, not one of its 40`,
		"tasks[1].program[2].sleep: 2500ns: rt-app takes whole microseconds; 3us",
		"machine: ", "policy: ",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no problem %q in\n%s", want, all)
		}
	}
}

// An exported preset runs under rt-app on this machine for a second, and
// every thread logs at least one completed loop. Needs rt-app (Debian:
// apt-get install rt-app) and root (rt-app sets scheduling policies).
func TestRTAppExportRunsUnderRTApp(t *testing.T) {
	needRealRun(t)
	rtapp, err := exec.LookPath("rt-app")
	if err != nil {
		t.Skip("rt-app is not installed (Debian: apt-get install rt-app)")
	}
	if os.Geteuid() != 0 {
		t.Skip("rt-app needs root")
	}
	if testing.Short() {
		t.Skip("runs rt-app for a few seconds")
	}
	sc, err := scenarios.Load("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration", "1s"); err != nil {
		t.Fatal(err)
	}
	data, _, err := WriteRTApp(sc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "pelt-pingpong.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rtapp, file)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rt-app: %v\n%s", err, out)
	}
	// rt-app writes one log per thread: BASENAME-TASK-INDEX.log, a row per loop.
	for _, th := range []string{"hog-0", "light-1", "light-2"} {
		f, err := os.Open(filepath.Join(dir, "schedplay-"+th+".log"))
		if err != nil {
			t.Fatalf("%v\nrt-app said:\n%s", err, out)
		}
		rows := 0
		var run, period int64
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) < 4 || strings.HasPrefix(fs[0], "#") {
				continue
			}
			r, _ := strconv.ParseInt(fs[2], 10, 64)
			p, _ := strconv.ParseInt(fs[3], 10, 64)
			run, period, rows = run+r, period+p, rows+1
		}
		f.Close()
		if rows == 0 {
			t.Errorf("%s logged no loop", th)
			continue
		}
		t.Logf("%s: %d loops, measured duty cycle %.0f%% (run %d us of %d us)", th, rows, 100*float64(run)/float64(max(period, 1)), run, period)
	}
}

// A scenario with every sync step exports to rt-app's own events and
// imports back to the same programs.
func TestRTAppExportSyncRoundTrip(t *testing.T) {
	const js = `{"version":2,"duration":"2s","tasks":[
	 {"name":"prod","program":[{"run":"1ms"},{"lock":"q"},{"signal":"c"},{"broadcast":"c"},{"unlock":"q"},{"timer":"10ms"}]},
	 {"name":"cons","program":[{"lock":"q"},{"cond_wait":"c","mutex":"q"},{"unlock":"q"},{"run":"2ms"},{"barrier":"b"}]},
	 {"name":"other","program":[{"run":"3ms"},{"barrier":"b"},{"sleep":"1ms"}]}]}`
	sc, err := scenarios.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := WriteRTApp(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{`"lock1": "q"`, `"signal2": "c"`, `"broad3": "c"`, `"wait1": { "ref": "c", "mutex": "q" }`, `"barrier4": "b"`} {
		if !strings.Contains(string(data), ev) {
			t.Errorf("no %s in\n%s", ev, data)
		}
	}
	back, _, err := ImportRTApp(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, task := range sc.Tasks {
		got, _ := json.Marshal(back.Tasks[i].Program)
		want, _ := json.Marshal(task.Program)
		if string(got) != string(want) {
			t.Errorf("%s: imported back as\n%s\nwant\n%s", task.Name, got, want)
		}
	}
}
