package interop

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"schedplay/internal/bounded"
	"schedplay/scenarios"
)

// addTestdata seeds a fuzz corpus with the testdata files matching glob.
func addTestdata(f *testing.F, glob string) {
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
}

// checkImported: whatever an importer returns without an error decodes as
// a valid scenario, and every problem says something.
func checkImported(t *testing.T, s *scenarios.Scenario, probs []Problem, err error) {
	if err != nil {
		if s != nil {
			t.Fatalf("an error (%v) and a scenario", err)
		}
		return
	}
	if _, err := scenarios.Decode(s.Canonical()); err != nil {
		t.Fatalf("the imported scenario does not decode: %v\n%s", err, s.Canonical())
	}
	for _, p := range probs {
		if p.Message == "" {
			t.Fatalf("a problem without a message at %q", p.Path)
		}
	}
}

// sameAgain: importing the same input again gives the same scenario and
// the same problems (no map order or other accident leaks out).
func sameAgain(t *testing.T, s *scenarios.Scenario, probs []Problem, err error, again func() (*scenarios.Scenario, []Problem, error)) {
	s2, probs2, err2 := again()
	if (err == nil) != (err2 == nil) || len(probs) != len(probs2) {
		t.Fatalf("two imports differ: %v / %v, %d / %d problems", err, err2, len(probs), len(probs2))
	}
	for i := range probs {
		if probs[i] != probs2[i] {
			t.Fatalf("problem %d differs: %v / %v", i, probs[i], probs2[i])
		}
	}
	if s != nil && !bytes.Equal(s.Canonical(), s2.Canonical()) {
		t.Fatal("two imports of one input give different scenarios")
	}
}

func FuzzImportRTApp(f *testing.F) {
	addTestdata(f, "rtapp-*.json")
	f.Add([]byte(`{"tasks": {"a": {"run": 10, "resume": "a", "suspend": "a", "sem_post": "s", "sem_wait": "s"}}}`))
	f.Add([]byte(`{"tasks": {"t": {"phases": {"p": {"loop": 40, "run": 1, "timer": {"period": 3}}}}}, "global": {"duration": 0}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s *scenarios.Scenario
		var probs []Problem
		var err error
		bounded.Check(t, "ImportRTApp", len(data), func() { s, probs, err = ImportRTApp(data) })
		checkImported(t, s, probs, err)
		sameAgain(t, s, probs, err, func() (*scenarios.Scenario, []Problem, error) { return ImportRTApp(data) })
	})
}

func FuzzImportLscpu(f *testing.F) {
	addTestdata(f, "lscpu-*.txt")
	f.Add([]byte("# CPU,Core,Socket,Node,Online,MaxMHz\n0,0,0,0,Y,1\n1,-,-,-,N,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m scenarios.Machine
		var probs []Problem
		var err error
		bounded.Check(t, "ImportLscpu", len(data), func() { m, probs, err = ImportLscpu(data) })
		if err == nil {
			n := m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore
			if len(m.CPUs) > 0 {
				n = len(m.CPUs)
			}
			if n < 1 || n > scenarios.MaxCPUs {
				t.Fatalf("a machine of %d CPUs", n)
			}
		}
		s, probs, err := LscpuScenario(data)
		checkImported(t, s, probs, err)
		sameAgain(t, s, probs, err, func() (*scenarios.Scenario, []Problem, error) { return LscpuScenario(data) })
	})
}
