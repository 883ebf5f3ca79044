package main

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestReadmeSweepTable: README.md shows the table `schedsim sweep` prints
// for the command above it. It was typed in once and went stale as the
// model changed (v3.6 at 5 pairs: 21730 ops/s written, 56408 run); here the
// command runs and its table must be the one the README shows.
func TestReadmeSweepTable(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("twelve runs of up to 80 CPUs: native only")
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const marker = "This is the table `sweep` prints for the command above"
	i := strings.Index(readme, marker)
	if i < 0 {
		t.Fatalf("README.md no longer has %q", marker)
	}
	rest := readme[i:]
	start := strings.Index(rest, "```\n")
	end := strings.Index(rest[start+4:], "```")
	if start < 0 || end < 0 {
		t.Fatal("README.md: no code block after the sweep table's sentence")
	}
	shown := rest[start+4 : start+4+end]
	var out bytes.Buffer
	args := []string{"-vary", "tasks.client.count=1,5,10,20,40,80", "-compare", "policy.select_idle_sibling=v3.6,cpu_buddies", "tbench-pairs"}
	// The command as the README writes it, above the table.
	if !strings.Contains(readme, "schedsim sweep -vary tasks.client.count=1,5,10,20,40,80 \\\n               -compare policy.select_idle_sibling=v3.6,cpu_buddies tbench-pairs") {
		t.Fatal("README.md's sweep command is not the one this test runs")
	}
	if err := cmdSweep(args, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != shown {
		t.Errorf("README.md's sweep table is not what the command prints now; the command prints:\n%s", got)
	}
}
