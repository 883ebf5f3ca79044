//go:build !linux

package realkernel

import (
	"errors"
	"fmt"
	"runtime"

	"schedplay/scenarios"
)

// ErrNoTracing: see the Linux version.
var ErrNoTracing = errors.New("cannot trace the scheduler")

// MaxThreads: see the Linux version.
const MaxThreads = 64

// Options of a real run.
type Options struct{ KeepTrace, Isolate, Untraced bool }

func unsupported() error {
	return fmt.Errorf("%w: real-kernel runs need Linux (tracefs and its sched events); this is %s", ErrNoTracing, runtime.GOOS)
}

// Check says what is missing for a real run here.
func Check() error { return unsupported() }

// AsyncPreemptOff is false: there is nothing to run here.
func AsyncPreemptOff() bool { return false }

// Run needs Linux.
func Run(*scenarios.Scenario, Options) (*Result, *Recording, error) { return nil, nil, unsupported() }

// Calibrate needs Linux.
func Calibrate(CalibrateOptions) (*Calibration, error) { return nil, unsupported() }

// KernelVersion is empty off Linux.
func KernelVersion() string { return runtime.GOOS }

// KernelRelease is empty off Linux.
func KernelRelease() string { return "" }

// KernelSchedParams is empty off Linux.
func KernelSchedParams() []string { return nil }

// MachineName is empty off Linux.
func MachineName() string { return "" }

// KernelHZ is unknown off Linux.
func KernelHZ() int { return 0 }

// HostMachine needs Linux.
func HostMachine() (scenarios.Machine, []string, error) {
	return scenarios.Machine{}, nil, unsupported()
}

// KernelSchedDebug needs Linux.
func KernelSchedDebug() (*SchedDebug, error) { return nil, unsupported() }
