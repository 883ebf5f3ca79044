//go:build linux

package bounded

import (
	"syscall"
	"time"
)

// processTime is the CPU time (user + system) this process has used so far,
// all threads included (getrusage(RUSAGE_SELF)); ok is false if the kernel
// refused.
func processTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
