package importjob

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"schedplay/cmd/wasm/pagemodel"
	"schedplay/scenarios"
)

func current(t *testing.T) []byte {
	t.Helper()
	p, err := scenarios.Preset("aim9-burst")
	if err != nil {
		t.Fatal(err)
	}
	return p.Canonical()
}

// TestRunTrace: a recorded trace is recognised (its '#' header is not
// lscpu), imported with the file's name as title and the current policy,
// with progress reported in order.
func TestRunTrace(t *testing.T) {
	data, err := os.ReadFile("../../../interop/testdata/ftrace-pair.txt")
	if err != nil {
		t.Fatal(err)
	}
	var fracs []float64
	r := Run(data, "pair.txt", "", current(t), func(f float64) { fracs = append(fracs, f) })
	if r.Err != nil || r.Kind != KindFtrace {
		t.Fatalf("kind %q, error %v", r.Kind, r.Err)
	}
	sc, err := scenarios.Decode(r.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := scenarios.Decode(current(t))
	if sc.Title != "trace: pair.txt" || sc.Policy.Base != cur.Policy.Base || len(sc.Tasks) != 2 {
		t.Errorf("imported %q, policy %q (current %q), %d task groups", sc.Title, sc.Policy.Base, cur.Policy.Base, len(sc.Tasks))
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "policy: kept the current scenario's") {
		t.Errorf("notes %q do not say the policy was kept", r.Notes)
	}
	if len(fracs) == 0 {
		t.Error("no progress reported")
	}
	// The editor's model comes with the scenario, as describe() makes it.
	want, err := pagemodel.DescribeJSON(sc.Canonical())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.Model, want) || !bytes.Contains(r.Model, []byte(`"schema"`)) {
		t.Errorf("the import's model (%d bytes) is not describe()'s of its scenario (%d bytes)", len(r.Model), len(want))
	}
	for i := 1; i < len(fracs); i++ {
		if fracs[i] < fracs[i-1] {
			t.Fatalf("progress goes back: %v", fracs)
		}
	}
}

// TestRunErrors: bad input gets "what: problem" and no scenario (the page
// replaces nothing); size limits are checked before anything is decoded.
func TestRunErrors(t *testing.T) {
	data, err := os.ReadFile("../../../interop/testdata/ftrace-pair.txt")
	if err != nil {
		t.Fatal(err)
	}
	half := bytes.IndexByte(data[len(data)/2:], '\n') + len(data)/2 + 1
	broken := append(append(append([]byte(nil), data[:half]...), "this is not an event line\n"...), data[half:]...)
	big := bytes.Repeat([]byte("# comment\n"), MaxText/10+1)
	huge := append([]byte("# tracer: nop\n"), bytes.Repeat([]byte("#\n"), MaxBytes/2)...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"broken trace", broken, `^ftrace: line \d+: not a tracefs or trace-cmd event line`},
		{"1 MiB of lscpu comments", big, `^\d+ bytes is too large to import \(the limit is 1048576; only a sched trace may be up to 33554432\)$`},
		{"a trace over 32 MiB", huge, `^\d+ bytes is too large to import`},
		{"a scenario with a mistake", []byte(`{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"8 ms"}]}]}`), `tasks\[0\]\.program\[0\]\.run: "8 ms" is not a duration`},
		{"nothing the page knows", []byte("hello, world"), `not a scenario JSON, an rt-app JSON or lscpu -p output`},
	} {
		r := Run(c.data, c.name, "", current(t), nil)
		if r.Err == nil || r.Scenario != nil || !regexp.MustCompile(c.want).MatchString(r.Err.Error()) {
			t.Errorf("%s: error %v, %d bytes of scenario; want an error matching %s and none", c.name, r.Err, len(r.Scenario), c.want)
		}
	}
}

// TestRunHostile: every hostile file (testdata/hostile) goes through the
// worker's import without a panic, as an error or a scenario that loads.
func TestRunHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile files take a few seconds")
	}
	files, err := filepath.Glob("../../../testdata/hostile/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile files: %v", err)
	}
	cur := current(t)
	for _, f := range files {
		if strings.HasSuffix(f, ".py") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := Run(data, filepath.Base(f), "", cur, nil)
		if r.Err == nil {
			if _, err := scenarios.Decode(r.Scenario); err != nil {
				t.Errorf("%s: imported a scenario that does not decode: %v", f, err)
			}
		} else if r.Err.Error() == "" {
			t.Errorf("%s: an empty error", f)
		}
	}
}
