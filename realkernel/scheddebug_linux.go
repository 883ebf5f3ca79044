//go:build linux

package realkernel

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

var schedDebugOnce = sync.OnceValues(readSchedDebug)

// KernelSchedDebug reads the running kernel's scheduler debug file (once
// per process): from debugfs where it is mounted, else, as root, from a
// debugfs mounted for the read in a directory of its own and unmounted
// after it.
func KernelSchedDebug() (*SchedDebug, error) { return schedDebugOnce() }

func readSchedDebug() (*SchedDebug, error) {
	mounts, _ := os.ReadFile("/proc/self/mounts")
	for _, mp := range mountPoints(mounts, "debugfs") {
		if b, err := os.ReadFile(filepath.Join(mp, "sched", "debug")); err == nil {
			return ParseSchedDebug(b)
		}
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("debugfs is not mounted and mounting it needs root")
	}
	dir, err := os.MkdirTemp("", "schedsim-debugfs-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(dir)
	if err := syscall.Mount("none", dir, "debugfs", 0, ""); err != nil {
		return nil, fmt.Errorf("mount -t debugfs none %s: %v", dir, err)
	}
	defer syscall.Unmount(dir, 0)
	b, err := os.ReadFile(filepath.Join(dir, "sched", "debug"))
	if err != nil {
		return nil, fmt.Errorf("debugfs has no readable sched/debug (CONFIG_SCHED_DEBUG, 6.x): %v", err)
	}
	return ParseSchedDebug(b)
}
