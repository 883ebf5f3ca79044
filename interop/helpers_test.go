package interop

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with
// -update. On a mismatch it writes name-bad next to it for a person to diff.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		os.Remove(path + "-bad")
		return
	}
	os.WriteFile(path+"-bad", got, 0o644)
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs from the golden file at line %d (wrote %s-bad):\n got: %.300s\nwant: %.300s", path, i+1, path, g, w)
		}
	}
}

// newSim builds a simulator for a preset or file with -set overrides.
func newSim(t testing.TB, name string, sets ...string) *sim.Sim {
	t.Helper()
	s, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		path, value, _ := strings.Cut(kv, "=")
		if err := s.Set(path, value); err != nil {
			t.Fatal(err)
		}
	}
	return simOf(t, s)
}

func simOf(t testing.TB, s *scenarios.Scenario) *sim.Sim {
	t.Helper()
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
