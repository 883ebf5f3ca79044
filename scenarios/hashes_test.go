package scenarios

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateHashes = flag.Bool("update-hashes", false, "rewrite testdata/trace_hashes.txt")

// TestTraceHashes pins the trace hash of every preset (shortened runs) in
// testdata/trace_hashes.txt. `make test` runs this test natively and as
// WebAssembly under node: both must produce the same hashes, so a platform
// difference (map order, float rounding, int size) cannot hide.
func TestTraceHashes(t *testing.T) {
	var b strings.Builder
	for _, p := range Presets() {
		s, err := Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set("duration", "40ms"); err != nil {
			t.Fatal(err)
		}
		m := runScenario(t, s).Metrics()
		fmt.Fprintf(&b, "%s %s events=%d ops=%d\n", p.Name, m.TraceHash, m.Events, m.Ops)
	}
	path := "testdata/trace_hashes.txt"
	if *updateHashes {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./scenarios -run TraceHashes -update-hashes)", err)
	}
	if string(want) != b.String() {
		t.Fatalf("trace hashes differ from %s:\nwant:\n%sgot:\n%s", path, want, b.String())
	}
}
