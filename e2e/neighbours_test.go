//go:build !js

package e2e

import (
	"bytes"
	"fmt"
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

// userHZ is USER_HZ, the clock tick /proc's CPU times count in.
const userHZ = 100

type cpuWindow struct {
	start time.Time
	total int64            // busy jiffies of the whole machine at the start
	ours  map[int]int64    // jiffies of each browser or test process at the start
	roles map[string]int64 // jiffies of the browser's threads by role at the start
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
		comm, j, ok := readStat(p)
		if !ok {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if ownProcess(pid, comm) {
			out[pid] = j
		}
	}
	return out
}

// readStat reads a /proc stat file: the comm and the user + system CPU
// time in jiffies.
func readStat(path string) (comm string, jiffies int64, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return "", 0, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 13 { // state is f[0]; utime and stime are fields 14 and 15 of the line
		return "", 0, false
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return string(b[open+1 : close]), u + s, true
}

// The browser's own threads by role, so that a window's log says where
// the two cores went. In the first seconds after a cold load the page
// shares them with V8, which compiles the module's hot functions again
// with TurboFan on the renderer's thread pool (docs/performance.md, round
// seven), and SwiftShader rasterises every frame on the GPU process's
// threads.
var browserRoles = []string{"page main thread", "page worker", "V8 background compile", "software GL", "other browser threads"}

// browserRole names the role of a browser thread from its process's
// command line and its name (comm): Chromium names its threads (the
// renderer's thread pool ThreadPoolForegroundWorker, SwiftShader's
// Thread<NN>) but not a process's main thread, which keeps the binary's
// name.
func browserRole(cmdline, comm string) string {
	renderer := strings.Contains(cmdline, "--type=renderer")
	switch {
	case renderer && (strings.HasPrefix(comm, "chrom") || strings.HasPrefix(comm, "headless_shell")):
		return "page main thread"
	case renderer && comm == "DedicatedWorker":
		return "page worker"
	case renderer && strings.HasPrefix(comm, "ThreadPoolForeg"):
		return "V8 background compile"
	case strings.Contains(cmdline, "--type=gpu-process") && strings.HasPrefix(comm, "Thread<"):
		return "software GL"
	}
	return "other browser threads"
}

// eachBrowserThread calls fn with the role, the /proc task directory and
// the CPU time (jiffies) of every thread of the browser now.
func eachBrowserThread(fn func(role, taskDir string, jiffies int64)) {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmd, err := os.ReadFile(p + "/cmdline")
		if err != nil || !(bytes.Contains(cmd, []byte("chrom")) || bytes.Contains(cmd, []byte("headless_shell"))) {
			continue
		}
		// A zygote-forked renderer's arguments are one string.
		cmdline := string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))
		tasks, _ := filepath.Glob(p + "/task/[0-9]*/stat")
		for _, t := range tasks {
			if comm, j, ok := readStat(t); ok {
				fn(browserRole(cmdline, comm), filepath.Dir(t), j)
			}
		}
	}
}

// browserRoleJiffies is the CPU time of the browser's threads now, by
// role.
func browserRoleJiffies() map[string]int64 {
	out := map[string]int64{}
	eachBrowserThread(func(role, _ string, j int64) { out[role] += j })
	return out
}

func startCPUWindow() *cpuWindow {
	return &cpuWindow{start: time.Now(), total: machineBusyJiffies(), ours: ownJiffies(), roles: browserRoleJiffies()}
}

// browserThreads is the CPU the browser's threads used by role since the
// window started, in cores, for the log.
func (w *cpuWindow) browserThreads() string {
	now := browserRoleJiffies()
	el := time.Since(w.start).Seconds()
	if el <= 0 {
		return "-"
	}
	parts := make([]string, len(browserRoles))
	for i, r := range browserRoles {
		parts[i] = fmt.Sprintf("%s %.2f", r, float64(now[r]-w.roles[r])/userHZ/el)
	}
	return strings.Join(parts, ", ") + " cores"
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
	others := float64(total-w.total-ours) / userHZ / el
	return max(0, others)
}

// busy reports (and logs) whether the window was too busy for its
// wall-clock bounds to be asserted.
func (w *cpuWindow) busy(t *testing.T, what string) bool {
	t.Helper()
	n := w.neighbours()
	t.Logf("%s: the browser's threads used %s", what, w.browserThreads())
	if n > neighbourShare {
		t.Logf("%s: other processes used %.2f cores meanwhile: its long tasks are reported, not asserted", what, n)
		return true
	}
	t.Logf("%s: other processes used %.2f cores meanwhile (bound %.2f): quiet enough (busyMachine may still say the load was too high)", what, n, neighbourShare)
	return false
}

// TestBrowserRole: threads as /proc shows them for Chromium 156 here (a
// zygote-forked renderer's arguments in one string).
func TestBrowserRole(t *testing.T) {
	renderer := "/usr/lib/chromium/chromium --type=renderer --enable-features=x --lang=en-US"
	gpu := "/usr/lib/chromium/chromium --type=gpu-process --use-angle=swiftshader"
	for _, c := range []struct{ cmdline, comm, want string }{
		{renderer, "chromium", "page main thread"},
		{renderer, "headless_shell", "page main thread"},
		{renderer, "DedicatedWorker", "page worker"},
		{renderer, "ThreadPoolForeg", "V8 background compile"},
		{renderer, "Compositor", "other browser threads"},
		{gpu, "Thread<00>", "software GL"},
		{gpu, "Thread<01>", "software GL"},
		{gpu, "chromium", "other browser threads"},
		{"/usr/lib/chromium/chromium --headless", "ThreadPoolForeg", "other browser threads"},
	} {
		if got := browserRole(c.cmdline, c.comm); got != c.want {
			t.Errorf("browserRole(%q, %q) = %q, want %q", c.cmdline, c.comm, got, c.want)
		}
	}
}
