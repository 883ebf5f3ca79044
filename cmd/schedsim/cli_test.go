package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// schedsim runs the command in-process.
func schedsim(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// short keeps simulations in tests fast.
var short = []string{"-set", "duration=50ms"}

const brokenScenario = `{
  "version": 1,
  "duration": "1s",
  "machine": {"corez": 4, "hz": 1000},
  "tasks": [{"name": "a", "program": [{"run": "8 ms"}]}]
}`

const invalidScenario = `{
  "version": 1,
  "duration": "0s",
  "tasks": [{"name": "a", "program": [{"run": "8 ms"}, {"wake": "b"}]}]
}`

func TestExitCodes(t *testing.T) {
	broken := writeFile(t, "broken.json", brokenScenario)
	invalid := writeFile(t, "invalid.json", invalidScenario)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring; "" = must be empty
		stderr string // substring; "" = must be empty
	}{
		{"no args", nil, 2, "", "usage:"},
		{"help", []string{"help"}, 0, "tbench-pairs", ""},
		{"-h", []string{"run", "-h"}, 0, "usage:", ""},
		{"unknown command", []string{"bogus", "x"}, 2, "", `unknown command "bogus"`},
		{"validate ok", []string{"validate", "pelt-pingpong"}, 0, "ok: PELT in the balancer: one 80% task and two 40% tasks on two CPUs\n", ""},
		{"validate unknown field", []string{"validate", broken}, 2, "", broken + ": machine.corez: unknown field\n"},
		{"validate invalid", []string{"validate", invalid}, 2, "", invalid + `: tasks[0].program[0].run: "8 ms" is not a duration`},
		{"validate missing file", []string{"validate", "nope.json"}, 2, "", "nope.json: "},
		{"validate no preset", []string{"validate", "nope"}, 2, "", "nope: no such file, and no such preset"},
		{"validate two files", []string{"validate", "a", "b"}, 2, "", "want one FILE, got 2 arguments"},
		{"run bad flag", []string{"run", "-bogus", "pelt-pingpong"}, 2, "", "flag provided but not defined: -bogus"},
		{"run no file", []string{"run", "-json"}, 2, "", "want one FILE or PRESET, got 0"},
		{"run bad file", []string{"run", broken}, 2, "", "machine.corez: unknown field"},
		{"run -set unknown path", []string{"run", "-set", "colour=red", "pelt-pingpong"}, 2, "", "-set colour: unknown path"},
		{"run -set invalid", []string{"run", "-set", "tasks.hog.count=5000", "pelt-pingpong"}, 2, "", "-set tasks.hog.count=5000: tasks[0].count: 5000 is out of range 0..4096"},
		{"run -set no =", []string{"run", "-set", "seed", "pelt-pingpong"}, 2, "", `"seed": want path=value`},
		{"link two args", []string{"link", "a", "b"}, 2, "", "want one FILE or PRESET"},
		{"link -set", []string{"link", "-set", "machine.hz=5", "pelt-pingpong"}, 2, "", "machine.hz: 5 is not one of"},
		{"sweep no -vary", []string{"sweep", "pelt-pingpong"}, 2, "", "-vary path=v1,v2,... is required"},
		{"sweep bad -vary", []string{"sweep", "-vary", "seed", "pelt-pingpong"}, 2, "", `-vary "seed": want path=v1,v2,...`},
		{"sweep bad value", []string{"sweep", "-vary", "tasks.hog.count=1,2,x", "pelt-pingpong"}, 2, "", `-vary tasks.hog.count: "x" is not an integer`},
		{"sweep bad path", []string{"sweep", "-vary", "seed=1", "-compare", "policy.colour=a,b", "pelt-pingpong"}, 2, "", "-compare policy.colour: unknown path"},
		{"sweep too many cells", []string{"sweep", "-vary", "seed=" + strings.Repeat("1,", 100) + "1", "-compare", "seed=" + strings.Repeat("1,", 10) + "1", "pelt-pingpong"}, 2, "", "1111 cells; the limit is 1024"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := schedsim(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			for _, c := range []struct{ name, got, want string }{{"stdout", stdout, tc.stdout}, {"stderr", stderr, tc.stderr}} {
				if c.want == "" && c.got != "" {
					t.Errorf("%s not empty: %q", c.name, c.got)
				}
				if !strings.Contains(c.got, c.want) {
					t.Errorf("%s = %q, want it to contain %q", c.name, c.got, c.want)
				}
			}
		})
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	invalid := writeFile(t, "invalid.json", invalidScenario)
	code, _, stderr := schedsim(t, "validate", invalid)
	want := []string{
		invalid + ": duration: must be more than 0",
		invalid + `: tasks[0].program[0].run: "8 ms" is not a duration`,
		invalid + `: tasks[0].program[1].wake: "b" is not the name of a task`,
	}
	if code != 2 || stderr != strings.Join(want, "\n")+"\n" {
		t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, strings.Join(want, "\n"))
	}
}

func TestLink(t *testing.T) {
	for _, name := range []string{"pelt-pingpong", "tbench-pairs"} {
		code, stdout, stderr := schedsim(t, "link", name)
		if code != 0 || stderr != "" {
			t.Fatalf("link %s: exit %d, %s", name, code, stderr)
		}
		frag := strings.TrimSuffix(stdout, "\n")
		if !strings.HasPrefix(frag, "#s=") || strings.Contains(frag, "\n") {
			t.Fatalf("link %s printed %q, want one #s=... line", name, stdout)
		}
		got, err := scenarios.DecodeLink(frag)
		if err != nil {
			t.Fatalf("link %s does not decode: %v", name, err)
		}
		want, _ := scenarios.Load(name)
		if !bytes.Equal(got.Canonical(), want.Canonical()) {
			t.Fatalf("link %s decodes to a different scenario", name)
		}
		// The preset's default view (its chapters) comes along as "v=",
		// as the page's Copy link carries it.
		v, ok, err := scenarios.LinkView(frag)
		if err != nil || !ok || len(v.Chapters) == 0 || len(v.Chapters) != len(want.View.Chapters) {
			t.Fatalf("link %s: view %+v (found %v, %v); want the preset's %d chapters", name, v, ok, err, len(want.View.Chapters))
		}
	}
	// -base makes a whole URL (dropping the base's own fragment); -set applies.
	code, stdout, _ := schedsim(t, "link", "-base", "https://example.org/play/#old", "-set", "seed=9", "pelt-pingpong")
	if code != 0 || !strings.HasPrefix(stdout, "https://example.org/play/#s=") {
		t.Fatalf("link -base: exit %d, %q", code, stdout)
	}
	s, err := scenarios.DecodeLink(strings.TrimSpace(stdout))
	if err != nil || s.Seed != 9 {
		t.Fatalf("link -set seed=9: %v, seed %v", err, s)
	}
}

// runJSON runs `schedsim run -json` and decodes the metrics; raw keeps the
// JSON object for key checks.
func runJSON(t *testing.T, args ...string) (m sim.Metrics, raw map[string]json.RawMessage) {
	t.Helper()
	code, stdout, stderr := schedsim(t, append([]string{"run", "-json"}, args...)...)
	if code != 0 {
		t.Fatalf("run %v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("run -json output: %v\n%s", err, stdout)
	}
	json.Unmarshal([]byte(stdout), &raw)
	return m, raw
}

func TestRunJSON(t *testing.T) {
	m, raw := runJSON(t, append(short, "pelt-pingpong")...)
	for _, key := range []string{"title", "seed", "sim_ms", "wall_ms", "events", "ops", "ops_per_s", "busy_pct",
		"idle_while_overloaded_ms", "wakeup_latency_us", "migrations", "ctx_switches", "tasks", "trace_hash"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("run -json lacks %q", key)
		}
	}
	if m.Title != "PELT in the balancer: one 80% task and two 40% tasks on two CPUs" {
		t.Errorf("title = %q", m.Title)
	}
	if m.SimMS != 50 || m.Seed != 1 {
		t.Errorf("sim_ms = %v, seed = %v; want 50 and 1", m.SimMS, m.Seed)
	}
	if len(m.Tasks) != 3 {
		t.Errorf("%d tasks in the metrics, want 3 (hog/0, light/0, light/1)", len(m.Tasks))
	}
	if m.WallMS < 0 {
		t.Errorf("wall_ms = %v", m.WallMS)
	}
	// The same scenario and seed give the same run; -set order matters
	// only as the file says (seed 2 is another run, compared by hash).
	m2, _ := runJSON(t, append(short, "pelt-pingpong")...)
	m.WallMS, m2.WallMS = 0, 0
	if !reflect.DeepEqual(m, m2) {
		t.Errorf("two runs of one scenario differ:\n%+v\n%+v", m, m2)
	}
}

func TestRunTable(t *testing.T) {
	code, stdout, stderr := schedsim(t, append([]string{"run"}, append(short, "pelt-pingpong")...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if lines[0] != "PELT in the balancer: one 80% task and two 40% tasks on two CPUs" || !strings.HasPrefix(lines[1], "seed 1: 50 ms simulated") {
		t.Errorf("header:\n%s", stdout)
	}
	for _, want := range []string{"\nops ", "\nmigrations ", "\nwake-up latency us ", "\nCPU time charged ms ", "\nlatency added ms ", "\ntask ", "\nhog/0 ", "\nlight/0 "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// TestRunTableExits: kernbench's tasks all exit, so its table leads with
// the tasks exited and the last exit (make's: the build's elapsed time), not
// "ops 0 (0.00/s)"; its processes have a line, and its migrations by cause
// add up to the total (the exec migrations were left out of the list).
func TestRunTableExits(t *testing.T) {
	code, stdout, stderr := schedsim(t, "run", "-json", "-set", "duration=100ms", "kernbench-numaq")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m sim.Metrics
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = schedsim(t, "run", "-set", "duration=100ms", "kernbench-numaq")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mg := m.Migrations
	for _, want := range []string{
		fmt.Sprintf("\ntasks exited           %d, the last at %.3f ms\n", m.Exits, m.LastExitMS),
		fmt.Sprintf("\nmigrations             %d: wakeup %d, balance %d, newidle %d, nohz %d, active %d, fork %d, exec %d\n",
			mg.Total, mg.Wakeup, mg.Balance, mg.Newidle, mg.Nohz, mg.Active, mg.Fork, mg.Exec),
		fmt.Sprintf("\nprocesses              forks %d, execs %d, exits %d, at most %d alive, %d at the end; ", m.Forks, m.Execs, m.Exits, m.LiveTasksMax, m.LiveTasks),
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\nops ") || !m.CountsExits || m.Exits == 0 || mg.Exec == 0 {
		t.Errorf("counts exits %v, %d exits, %d exec migrations:\n%s", m.CountsExits, m.Exits, mg.Exec, stdout)
	}
	if sum := mg.Wakeup + mg.Balance + mg.Newidle + mg.Nohz + mg.Active + mg.Fork + mg.Exec; sum != mg.Total {
		t.Errorf("migrations by cause add up to %d of %d", sum, mg.Total)
	}
}

// TestCostLines: the table's two cost lines are -json's cost_breakdown, the
// zero parts left out and the flush refills named inside the refills.
func TestCostLines(t *testing.T) {
	cpu, lat := costLines(sim.CostBreakdown{ContextSwitchMS: 41.13, CacheRefillMS: 32.98, FlushRefillMS: 17.18, SearchMS: 3.178, IdleExitMS: 142.356})
	if want := "context switches 41.130, cache refills 32.980 (17.180 after a C-state flush), wake-up search 3.178"; cpu != want {
		t.Errorf("CPU line %q, want %q", cpu, want)
	}
	if want := "C-state exits 142.356"; lat != want {
		t.Errorf("latency line %q, want %q", lat, want)
	}
	if cpu, lat := costLines(sim.CostBreakdown{}); cpu != "none" || lat != "none" {
		t.Errorf("an empty breakdown: %q, %q", cpu, lat)
	}
}

func TestSweep(t *testing.T) {
	args := append([]string{"sweep", "-vary", "tasks.hog.count=1,2", "-compare", "policy.load_metric=load_weight,runnable_load_avg,"}, append(short, "pelt-pingpong")...)
	code, stdout, stderr := schedsim(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "# PELT in the balancer") || lines[1] != "# rows: tasks.hog.count; columns: policy.load_metric" {
		t.Fatalf("sweep table:\n%s", stdout)
	}
	if got := strings.Fields(lines[2]); !reflect.DeepEqual(got, []string{"tasks.hog.count", "load_weight", "runnable_load_avg", "(default)"}) {
		t.Errorf("header = %q", got)
	}
	for r, want := range []string{"1", "2"} {
		f := strings.Fields(lines[3+r])
		if len(f) != 4 || f[0] != want {
			t.Fatalf("row %d = %q", r, lines[3+r])
		}
		for _, cell := range f[1:] {
			if _, err := strconv.ParseFloat(cell, 64); err != nil {
				t.Errorf("cell %q is not a number", cell)
			}
		}
	}

	// -json: the cells in row-major order, each exactly the run of its
	// scenario alone (parallel cells do not disturb each other).
	code, stdout, stderr = schedsim(t, append([]string{"sweep", "-json"}, args[1:]...)...)
	if code != 0 {
		t.Fatalf("sweep -json: exit %d: %s", code, stderr)
	}
	var cells []struct {
		Vary, Compare string
		Metrics       sim.Metrics
	}
	if err := json.Unmarshal([]byte(stdout), &cells); err != nil {
		t.Fatalf("sweep -json: %v\n%s", err, stdout)
	}
	order := [][2]string{{"1", "load_weight"}, {"1", "runnable_load_avg"}, {"1", ""}, {"2", "load_weight"}, {"2", "runnable_load_avg"}, {"2", ""}}
	if len(cells) != len(order) {
		t.Fatalf("%d cells, want %d", len(cells), len(order))
	}
	for i, c := range cells {
		if c.Vary != order[i][0] || c.Compare != order[i][1] {
			t.Errorf("cell %d is (%s, %s), want %v", i, c.Vary, c.Compare, order[i])
		}
		alone, _ := runJSON(t, append(short, "-set", "tasks.hog.count="+c.Vary, "-set", "policy.load_metric="+c.Compare, "pelt-pingpong")...)
		if alone.TraceHash != c.Metrics.TraceHash || alone.Ops != c.Metrics.Ops {
			t.Errorf("cell %v: trace %s ops %d; alone: trace %s ops %d", order[i], c.Metrics.TraceHash, c.Metrics.Ops, alone.TraceHash, alone.Ops)
		}
	}

	// Several paths set to one value, no -compare: one ops/s column.
	code, stdout, _ = schedsim(t, "sweep", "-vary", "tasks.hog.count+tasks.light.count=1,2", "-set", "duration=20ms", "pelt-pingpong")
	lines = strings.Split(stdout, "\n")
	if code != 0 || len(lines) < 5 || !reflect.DeepEqual(strings.Fields(lines[2]), []string{"tasks.hog.count+tasks.light.count", "ops/s"}) {
		t.Fatalf("multi-path sweep: exit %d\n%s", code, stdout)
	}
}

// TestSweepElapsed: kernbench's tasks all exit, so its ops/s is 0 in every
// cell; the table is its elapsed time instead (the last exit, as kernbench
// prints it), and a cell whose build outlasts the run says so.
func TestSweepElapsed(t *testing.T) {
	code, stdout, stderr := schedsim(t, "sweep", "-vary", "duration=20ms,3s", "kernbench-numaq")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], ": elapsed ms (when the last task exited) over ") ||
		!reflect.DeepEqual(strings.Fields(lines[2]), []string{"duration", "elapsed"}) ||
		lines[5] != "# + tasks still alive at the end: the workload took longer than the time simulated (shown)" {
		t.Fatalf("sweep table:\n%s", stdout)
	}
	full, _ := runJSON(t, "-set", "duration=3s", "kernbench-numaq")
	if got, want := strings.Fields(lines[3]), []string{"20ms", "20.0+"}; !reflect.DeepEqual(got, want) {
		t.Errorf("20 ms row %q, want %q", got, want)
	}
	if got, want := strings.Fields(lines[4]), []string{"3s", fmt.Sprintf("%.1f", full.LastExitMS)}; !reflect.DeepEqual(got, want) || full.LiveTasks != 0 || full.LastExitMS < 1000 {
		t.Errorf("3 s row %q, want %q (%d tasks alive at the end)", got, want, full.LiveTasks)
	}
}

func TestInternalError(t *testing.T) {
	defer func(f func(*sim.Config) (*sim.Sim, error)) { newSim = f }(newSim)
	newSim = func(*sim.Config) (*sim.Sim, error) { return nil, errors.New("boom") }
	code, _, stderr := schedsim(t, "run", "pelt-pingpong")
	if code != 1 || !strings.Contains(stderr, "internal error: the simulator refused a valid scenario: boom") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = schedsim(t, "sweep", "-vary", "seed=1,2", "pelt-pingpong")
	if code != 1 || !strings.Contains(stderr, "cell vary 1: internal error") {
		t.Fatalf("sweep: exit %d, stderr %q", code, stderr)
	}
}
