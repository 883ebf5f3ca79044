//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/internal/headless"
)

// TestRunInChromium runs a js/wasm test binary in headless Chromium the
// way -engine chromium does: its benchmark line comes back on stdout and
// parses, and a failing binary is an error with its output kept.
func TestRunInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	if why := headless.Missing(); why != "" {
		t.Skip(why)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	bin := filepath.Join(t.TempDir(), "wasmbench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./testdata/wasmbench")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the js/wasm test binary: %v\n%s", err, out)
	}

	out, err := runInChromium(bin, wasmExec, []string{"-test.run", "^$", "-test.bench", "Sum", "-test.benchtime", "5x"})
	if err != nil {
		t.Fatalf("runInChromium: %v\n%s", err, out)
	}
	r := results{}
	r.parse("./wasmbench", out)
	if got := r["wasmbench Sum"]["iterations"]; got != 5 {
		t.Errorf("iterations = %v, want 5; output:\n%s", got, out)
	}

	out, err = runInChromium(bin, wasmExec, []string{"-test.run", "TestFails"})
	if err == nil || !strings.Contains(err.Error(), "exited with 1") {
		t.Errorf("a failing binary gave error %v, want one saying it exited with 1", err)
	}
	if !strings.Contains(string(out), "this test fails on purpose") {
		t.Errorf("the failing binary's output was not kept:\n%s", out)
	}
}
