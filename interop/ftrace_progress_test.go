package interop

import (
	"bytes"
	"os"
	"testing"
)

// TestFtraceProgress: ImportFtraceWith's Progress reports each of its three
// passes over the trace, in order, within [0, 1], and changes nothing of
// the import.
func TestFtraceProgress(t *testing.T) {
	data, err := os.ReadFile("testdata/ftrace-pair.txt")
	if err != nil {
		t.Fatal(err)
	}
	var fracs []float64
	sc, _, err := ImportFtraceWith(data, FtraceOptions{Progress: func(f float64) { fracs = append(fracs, f) }})
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := ImportFtrace(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sc.Canonical(), plain.Canonical()) {
		t.Error("the import with Progress differs from the one without")
	}
	lines := bytes.Count(data, []byte("\n"))
	if want := 3 * (lines / ftraceTickLines); len(fracs) < want || want == 0 {
		t.Fatalf("%d progress reports for %d lines; want at least %d", len(fracs), lines, want)
	}
	for i, f := range fracs {
		if f < 0 || f > 1 || (i > 0 && f < fracs[i-1]) {
			t.Fatalf("progress %v: not increasing within [0, 1]", fracs)
		}
	}
	if fracs[len(fracs)-1] < 2.0/3 {
		t.Errorf("progress ends at %v: the last pass was not reported", fracs[len(fracs)-1])
	}
}
