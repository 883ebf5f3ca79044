package sim

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: the simulator imports nothing but the standard
// library (go list -deps lists every package it builds on).
func TestStandardLibraryOnly(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command here (wasm under node): checked natively")
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "schedplay/sim" {
			t.Errorf("sim depends on %s, which is not in the standard library", p)
		}
	}
}
