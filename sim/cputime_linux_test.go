//go:build linux

package sim

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// TestCPUTimePerEvent prints, for each benchmark scenario, the CPU time of
// the simulating thread per trace event (getrusage(RUSAGE_THREAD) around
// the runs of simulators built beforehand). On a loaded machine it is far
// steadier than the benchmarks' wall time: compare two trees by building
// both test binaries and running them alternately, e.g.
//
//	SCHEDPLAY_CPUTIME=3 go test -pgo=$PWD/cmd/schedsim/default.pgo -run CPUTimePerEvent -v ./sim
//
// (the value is the number of simulators per scenario, times 40 for
// duty-2cpu and 4 for tbench-1, whose runs are short). Skipped unless set.
func TestCPUTimePerEvent(t *testing.T) {
	reps, _ := strconv.Atoi(os.Getenv("SCHEDPLAY_CPUTIME"))
	if reps <= 0 {
		t.Skip("set SCHEDPLAY_CPUTIME=N to measure")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, name := range []string{"duty-2cpu", "tbench-1", "tbench-40", "mixed-256"} {
		cfg := benchConfig(name)
		n := reps
		switch name {
		case "duty-2cpu":
			n *= 40
		case "tbench-1":
			n *= 4
		}
		sims := make([]*Sim, n)
		for i := range sims {
			var err error
			if sims[i], err = New(cfg); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		t0 := threadCPU()
		for _, s := range sims {
			s.Run()
		}
		cpu := threadCPU() - t0
		var ev int64
		for _, s := range sims {
			ev += s.Events()
		}
		// The trace hash and event count say whether two trees being
		// compared run the same model (equal hashes: a speed claim).
		fmt.Printf("cputime %s %.1f ns/event (trace %s, %d events)\n", name, float64(cpu)/float64(ev), sims[0].TraceHash(), sims[0].Events())
	}
}

// threadCPU is the calling thread's user+system CPU time in ns.
func threadCPU() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return ru.Utime.Nano() + ru.Stime.Nano()
}
