//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRealNotRoot: schedsim real and its check as an unprivileged user (the
// test binary as the CLI, as uid 65534 when the test runs as root) exit 2
// and say root is needed.
func TestRealNotRoot(t *testing.T) {
	exe := os.Args[0]
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// A copy of the test binary that uid 65534 may execute.
		dir, err := os.MkdirTemp("", "schedsim-notroot")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		data, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		exe = filepath.Join(dir, "schedsim.test")
		if err := os.WriteFile(exe, data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	cmd := exec.Command(exe, "real", "pelt-pingpong") // a preset: nothing to read
	cmd.Env = append(os.Environ(), "SCHEDSIM_AS_CLI=1")
	cmd.Dir = "/"
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitBadInput || !strings.Contains(errb.String(), "needs root (uid 0)") {
		t.Errorf("as a non-root user: %v, %q", err, errb.String())
	}
}
