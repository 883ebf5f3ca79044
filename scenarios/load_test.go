package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", kitchenSink)
	bad := write("bad.json", patch(t, patch(t, minimal, "duration", `"8 ms"`), "machine.hz", "5"))
	huge := write("huge.json", strings.Repeat(" ", MaxScenarioBytes+1))

	s, err := Load(good)
	if err != nil || s.Title != "every field" {
		t.Fatalf("Load(file) = %v, %v", s, err)
	}
	s, err = Load("tbench-pairs")
	if err != nil || s.Machine.Nodes != 4 {
		t.Fatalf("Load(preset) = %v, %v", s, err)
	}
	for _, tc := range []struct {
		arg   string
		lines []string
	}{
		{bad, []string{bad + `: duration: "8 ms" is not a duration`, bad + ": machine.hz: 5 is not one of 100, 250, 300, 1000"}},
		{huge, []string{huge + ": larger than 262144 bytes (256 KiB)"}},
		{filepath.Join(dir, "missing.json"), []string{filepath.Join(dir, "missing.json") + ": no such file or directory"}},
		{"tbench-pair", []string{"tbench-pair: no such file, and no such preset (presets: aim9-burst, eligible-migration, kernbench-numaq, overload-on-wakeup, pelt-pingpong, pgbench-1toN, sdet-numaq, tbench-pairs)"}},
		{dir, []string{dir + ": "}},
	} {
		_, err := Load(tc.arg)
		if err == nil {
			t.Errorf("Load(%s) succeeded", tc.arg)
			continue
		}
		got := strings.Split(err.Error(), "\n")
		if len(got) != len(tc.lines) {
			t.Errorf("Load(%s) = %q, want %d lines", tc.arg, err, len(tc.lines))
			continue
		}
		for i := range got {
			// Lower case: js/wasm spells ENOENT "No such file or directory".
			if !strings.HasPrefix(strings.ToLower(got[i]), strings.ToLower(tc.lines[i])) {
				t.Errorf("Load(%s) line %d = %q, want %q", tc.arg, i, got[i], tc.lines[i])
			}
		}
		if len(Problems(err)) != len(tc.lines) {
			t.Errorf("Problems(Load(%s)) = %v", tc.arg, Problems(err))
		}
	}
}
