//go:build linux

package realkernel

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// TestNoTracefs: a machine without tracefs mounted, where it cannot be
// mounted either, gets a clear error wrapping ErrNoTracing (the CLI's exit
// 2), and a mounted one is found without mounting anything.
func TestNoTracefs(t *testing.T) {
	noMount := func(string) error { t.Error("mounted"); return nil }
	mounts := []byte("proc /proc proc rw 0 0\nsysfs /sys sysfs rw 0 0\n")
	_, _, err := tracefsIn(mounts, "/nonexistent/tracing", noMount)
	if !errors.Is(err, ErrNoTracing) || !strings.Contains(err.Error(), "tracefs is not mounted and /nonexistent/tracing does not exist") {
		t.Errorf("no tracefs, no mount point: %v", err)
	}
	_, _, err = tracefsIn(mounts, t.TempDir(), func(string) error { return syscall.EPERM })
	if !errors.Is(err, ErrNoTracing) || !strings.Contains(err.Error(), "mount -t tracefs nodev") || !strings.Contains(err.Error(), "operation not permitted") {
		t.Errorf("mount refused: %v", err)
	}
	root, mounted, err := tracefsIn(append(mounts, "tracefs /sys/kernel/debug/tracing tracefs rw,relatime 0 0\n"...), "/nonexistent", noMount)
	if err != nil || mounted || root != "/sys/kernel/debug/tracing" {
		t.Errorf("mounted tracefs: %q %v %v", root, mounted, err)
	}
}
