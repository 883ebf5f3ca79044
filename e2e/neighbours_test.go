//go:build !js

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The long-task bounds are wall-clock bounds on the page's main thread. On
// this 2-core machine a neighbour that takes a core (a benchmark, a build)
// stretches every task the browser runs, whatever the page does; the load
// average at a test's start (busyMachine) misses a neighbour that starts
// during the window. A cpuWindow measures, over a measured window, the CPU
// time the machine spent outside the browser and this test: when that is
// more than a third of a core, the window's bounds are reported, not
// asserted.

// neighbourShare is the share of one core above which a window is busy.
const neighbourShare = 1.0 / 3

type cpuWindow struct {
	start time.Time
	total int64         // busy jiffies of the whole machine at the start
	ours  map[int]int64 // jiffies of each browser or test process at the start
}

// ownProcess is a process whose CPU time is the page's or the test's.
func ownProcess(pid int, comm string) bool {
	return pid == os.Getpid() || strings.Contains(comm, "chrom") || strings.Contains(comm, "headless_shell")
}

func machineBusyJiffies() int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 8 || f[0] != "cpu" {
		return -1
	}
	var busy int64
	for i, s := range f[1:] {
		v, _ := strconv.ParseInt(s, 10, 64)
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		if i >= 8 { // guest time is counted in user already
			break
		}
		busy += v
	}
	return busy
}

// ownJiffies is the CPU time (user + system) of every browser or test
// process now, by pid.
func ownJiffies() map[int]int64 {
	out := map[int]int64{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || close < open {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:open])))
		if !ownProcess(pid, string(b[open+1:close])) {
			continue
		}
		f := strings.Fields(string(b[close+1:]))
		if len(f) < 13 { // state is f[0]; utime and stime are fields 14 and 15 of the line
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		out[pid] = u + s
	}
	return out
}

func startCPUWindow() *cpuWindow {
	return &cpuWindow{start: time.Now(), total: machineBusyJiffies(), ours: ownJiffies()}
}

// neighbours is the CPU the machine spent outside the browser and this
// test since the window started, in cores (0 when /proc cannot say).
func (w *cpuWindow) neighbours() float64 {
	total := machineBusyJiffies()
	el := time.Since(w.start).Seconds()
	if w.total < 0 || total < 0 || el <= 0 {
		return 0
	}
	var ours int64
	for pid, j := range ownJiffies() {
		ours += j - w.ours[pid] // a process started in the window counts from 0
	}
	const hz = 100 // USER_HZ: /proc's clock ticks
	others := float64(total-w.total-ours) / hz / el
	return max(0, others)
}

// busy reports (and logs) whether the window was too busy for its
// wall-clock bounds to be asserted.
func (w *cpuWindow) busy(t *testing.T, what string) bool {
	t.Helper()
	n := w.neighbours()
	if n > neighbourShare {
		t.Logf("%s: other processes used %.2f cores meanwhile: its long tasks are reported, not asserted", what, n)
		return true
	}
	t.Logf("%s: other processes used %.2f cores meanwhile (bound %.2f): quiet enough (busyMachine may still say the load was too high)", what, n, neighbourShare)
	return false
}
