// Package bounded checks that a decoder or importer stays within time and
// memory bounds for one input, for fuzz targets and the hostile-input
// tests: a slow or memory-hungry input is a failure (which the fuzzer saves
// to testdata/fuzz), not just a slow test.
//
// The bounds are those of issue 18's acceptance, scaled by the input's
// size: an input of n bytes may take 1 s + 1 us per byte of wall time (2 s
// at 1 MiB) and allocate 64 MiB + 200 bytes per byte (about 270 MiB at
// 1 MiB). Time is the process's CPU time where the system reports it (Linux:
// getrusage, all threads, so the garbage collector's work counts) and wall
// time elsewhere (wasm): other processes on a loaded machine (the parallel
// test packages of make test, other jobs) do not stretch it, while the
// input's own work, quadratic or not, is all counted. Every decoder measured takes under 0.7 s and 160 MB at 1 MiB
// and under a millisecond for the few-kilobyte inputs fuzzing makes, so a
// loaded 2-core machine does not flake, while a quadratic loop over a 64 KB
// input (seconds) is caught.
package bounded

import (
	"runtime"
	"testing"
	"time"
)

// Limits for an input of n bytes.
func Limits(n int) (wall time.Duration, alloc uint64) {
	return time.Second + time.Duration(n)*time.Microsecond, 64<<20 + 200*uint64(n)
}

// Measure runs f and returns the time it took (the process's CPU time
// where the system reports it, else wall time) and the bytes it allocated
// (runtime.MemStats.TotalAlloc: deterministic for a given input and
// program, unlike the peak heap).
func Measure(f func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, cpuOK := processTime()
	start := time.Now()
	f()
	el := time.Since(start)
	if cpu1, ok := processTime(); cpuOK && ok {
		el = cpu1 - cpu0
	}
	runtime.ReadMemStats(&after)
	return el, after.TotalAlloc - before.TotalAlloc
}

// Check runs f on an input of n bytes and fails tb when it took longer or
// allocated more than Limits(n).
func Check(tb testing.TB, what string, n int, f func()) {
	tb.Helper()
	wall, maxAlloc := Limits(n)
	CheckWithin(tb, what, n, wall, maxAlloc, f)
}

// CheckWithin is Check with bounds of the caller's own, for work that is not
// a decoder's (a simulation run from a fuzzed seed).
func CheckWithin(tb testing.TB, what string, n int, wall time.Duration, maxAlloc uint64, f func()) {
	tb.Helper()
	el, alloc := Measure(f)
	if el > wall {
		tb.Fatalf("%s: %v for %d bytes of input; the bound is %v", what, el, n, wall)
	}
	if alloc > maxAlloc {
		tb.Fatalf("%s: allocated %d bytes for %d bytes of input; the bound is %d", what, alloc, n, maxAlloc)
	}
}
