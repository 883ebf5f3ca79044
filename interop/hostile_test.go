package interop

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"schedplay/internal/bounded"
)

// TestLscpuHugeCPUIDRefused: issue 18, item 1. A 40-byte file naming cpu
// 2^30 made the importer walk (and list) every missing id below it: out of
// memory at 2^30, 12 s and 2.3 GB at 10^8. Ids above MaxLscpuCPUID are now
// an error by line, in bounded time and memory.
func TestLscpuHugeCPUIDRefused(t *testing.T) {
	for _, id := range []int{1 << 30, 100_000_000, MaxLscpuCPUID + 1} {
		data := []byte(fmt.Sprintf("# CPU,Core,Socket,Node\n%d,0,0,0\n", id))
		var err error
		bounded.Check(t, fmt.Sprintf("cpu%d", id), len(data), func() { _, _, err = ImportLscpu(data) })
		if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") || !strings.Contains(err.Error(), fmt.Sprint(MaxLscpuCPUID)) {
			t.Errorf("cpu%d: %v", id, err)
		}
	}
}

// TestLscpuSparseIDs: the largest ids allowed, spread out, are accepted and
// the missing ones listed as ranges, in time and memory linear in the input.
func TestLscpuSparseIDs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# CPU,Core,Socket,Node\n")
	for i := 0; i < 1024; i++ {
		id := i * 8
		fmt.Fprintf(&b, "%d,%d,0,0\n", id, i)
	}
	fmt.Fprintf(&b, "%d,1024,0,0\n", MaxLscpuCPUID)
	data := []byte(b.String())
	var probs []Problem
	var err error
	bounded.Check(t, "sparse ids", len(data), func() { _, probs, err = ImportLscpu(data) })
	if err == nil || !strings.Contains(err.Error(), "more than 1024 CPUs") {
		t.Fatalf("1025 rows: %v", err)
	}
	data = data[:strings.LastIndex(b.String()[:len(b.String())-1], "\n")+1] // without the last row
	bounded.Check(t, "sparse ids", len(data), func() { _, probs, err = ImportLscpu(data) })
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range probs {
		found = found || strings.Contains(p.Message, "CPUs 1-7,9-15,") && strings.Contains(p.Message, ",8177-8183 are not listed")
	}
	if !found {
		t.Fatalf("missing CPUs not listed as ranges: %v", probs)
	}
}

// TestRTAppLinear: issue 18, item 4. 120 thousand duplicate "run" keys
// (960 KB) took 15 s (41 s on a loaded machine): task() looked up
// "phases" once per key. 60 thousand phases took 3.3 s: the step budget
// summed the phases after each phase.
func TestRTAppLinear(t *testing.T) {
	for _, name := range []string{"rtapp-dup-run-120k.json", "rtapp-phases-60k.json"} {
		data, err := os.ReadFile("../testdata/hostile/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var probs []Problem
		bounded.Check(t, name, len(data), func() { _, probs, err = ImportRTApp(data) })
		if err != nil || len(probs) == 0 {
			t.Fatalf("%s: %v, %d problems", name, err, len(probs))
		}
	}
}

// TestProblemsBounded: a file with a problem every few bytes lists at most
// MaxProblems of them, and says so.
func TestProblemsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tasks":{"t":{"run":1`)
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, `,"x%d":1`, i)
	}
	b.WriteString("}}}")
	_, probs, err := ImportRTApp([]byte(b.String()))
	if err != nil || len(probs) != MaxProblems+1 || !strings.Contains(probs[MaxProblems].Message, "not listed") {
		t.Fatalf("%v, %d problems", err, len(probs))
	}
}
