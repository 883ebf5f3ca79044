//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeRefused: issue 18, item 7. validate (or import) of a named
// pipe with no writer blocked in open(2) for ever; non-regular files are
// now refused at once.
func TestNamedPipeRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "scenario.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	for _, args := range [][]string{{"validate", fifo}, {"run", fifo}, {"import", "-from", "lscpu", fifo}, {"import", "-from", "rtapp", fifo}} {
		done := make(chan struct{})
		var code int
		var errs string
		go func() {
			code, _, errs = schedsim(t, args...)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute): // generous: a refusal is immediate
			t.Fatalf("%v: still blocked on the named pipe", args)
		}
		if code != exitBadInput || !strings.Contains(errs, "regular file") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}
