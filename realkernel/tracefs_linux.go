//go:build linux

package realkernel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrNoTracing is wrapped by every error that means "this machine or user
// cannot trace the scheduler here" (not root, no tracefs, no sched events).
var ErrNoTracing = errors.New("cannot trace the scheduler")

// The events a real run records.
var traceEvents = []string{"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit"}

// tracer is one tracefs instance of our own (instances/schedsim-PID): the
// global buffer and every other instance are left alone, and close removes
// the instance and unmounts tracefs if it was mounted here.
type tracer struct {
	root     string // the tracefs mount
	dir      string // our instance
	mounted  bool   // we mounted root
	clockRaw bool   // trace_clock x86-tsc (timestamps are TSC counts)
	marker   *os.File
	sysExit  bool // raw_syscalls/sys_exit enabled
	sysEnter bool // raw_syscalls/sys_enter enabled
	bufKB    int  // the per-CPU buffer the kernel gave
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// findTracefs returns the tracefs mount point, mounting it on
// /sys/kernel/tracing when it is not mounted anywhere.
func findTracefs() (root string, mounted bool, err error) {
	if os.Geteuid() != 0 {
		return "", false, fmt.Errorf("%w: schedsim real needs root (uid 0) to read the kernel's sched events through tracefs; this is uid %d", ErrNoTracing, os.Geteuid())
	}
	mounts, _ := os.ReadFile("/proc/self/mounts")
	return tracefsIn(mounts, "/sys/kernel/tracing", func(dir string) error {
		return syscall.Mount("nodev", dir, "tracefs", 0, "")
	})
}

// tracefsIn finds tracefs in a mount table (/proc/self/mounts' format), or
// mounts it on dir.
func tracefsIn(mounts []byte, dir string, mount func(string) error) (root string, mounted bool, err error) {
	if mp := mountPoints(mounts, "tracefs"); len(mp) > 0 {
		return mp[0], false, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return "", false, fmt.Errorf("%w: tracefs is not mounted and %s does not exist (a kernel without CONFIG_TRACING?)", ErrNoTracing, dir)
	}
	if err := mount(dir); err != nil {
		return "", false, fmt.Errorf("%w: tracefs is not mounted and mount -t tracefs nodev %s failed: %v", ErrNoTracing, dir, err)
	}
	return dir, true, nil
}

// mountPoints lists where a mount table (/proc/self/mounts' format) has
// file systems of type fstype.
func mountPoints(mounts []byte, fstype string) []string {
	var out []string
	for _, line := range strings.Split(string(mounts), "\n") {
		if fs := strings.Fields(line); len(fs) >= 3 && fs[2] == fstype {
			out = append(out, fs[1])
		}
	}
	return out
}

func writeFile(path, v string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(v)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %q to %s: %v", v, path, err)
	}
	return nil
}

// newTracer creates and configures the instance: the events above, each
// filtered to the given thread ids, a per-CPU buffer of bufKB, and the
// finest clock available (x86-tsc, else mono).
func newTracer(tids []int, bufKB int) (*tracer, error) {
	root, mounted, err := findTracefs()
	if err != nil {
		return nil, err
	}
	t := &tracer{root: root, mounted: mounted}
	fail := func(err error) (*tracer, error) {
		t.close()
		return nil, err
	}
	for _, ev := range []string{"sched_switch", "sched_waking", "sched_migrate_task"} {
		if _, err := os.Stat(filepath.Join(root, "events/sched", ev)); err != nil {
			return fail(fmt.Errorf("%w: %s has no events/sched/%s (a kernel without CONFIG_SCHED_TRACER events?)", ErrNoTracing, root, ev))
		}
	}
	for i := 0; ; i++ {
		name := "schedsim-" + strconv.Itoa(os.Getpid())
		if i > 0 {
			name += "-" + strconv.Itoa(i)
		}
		dir := filepath.Join(root, "instances", name)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			t.dir = dir
			break
		}
		if !os.IsExist(err) || i > 20 {
			return fail(fmt.Errorf("%w: cannot create a tracefs instance %s: %v", ErrNoTracing, dir, err))
		}
	}
	clocks := readTrim(filepath.Join(t.dir, "trace_clock"))
	clock := "mono"
	if strings.Contains(" "+strings.NewReplacer("[", "", "]", "").Replace(clocks)+" ", " x86-tsc ") {
		clock, t.clockRaw = "x86-tsc", true
	}
	if err := writeFile(filepath.Join(t.dir, "trace_clock"), clock); err != nil {
		return fail(err)
	}
	// The buffer: ask for bufKB per CPU, halving while the kernel cannot
	// allocate it (a shared machine's memory); lost events are reported.
	for {
		err := writeFile(filepath.Join(t.dir, "buffer_size_kb"), strconv.Itoa(bufKB))
		if err == nil {
			break
		}
		if bufKB <= 2048 {
			return fail(err)
		}
		bufKB /= 2
	}
	t.bufKB = bufKB
	var pidEq, switchEq, forkEq []string
	for _, tid := range tids {
		s := strconv.Itoa(tid)
		pidEq = append(pidEq, "pid=="+s)
		switchEq = append(switchEq, "prev_pid=="+s, "next_pid=="+s)
		forkEq = append(forkEq, "parent_pid=="+s)
	}
	filter := map[string]string{
		"sched_switch": strings.Join(switchEq, "||"), "sched_process_fork": strings.Join(forkEq, "||"),
	}
	for _, ev := range traceEvents {
		d := filepath.Join(t.dir, "events/sched", ev)
		if _, err := os.Stat(d); err != nil {
			continue // an older kernel without sched_waking, say
		}
		f, ok := filter[ev]
		if !ok {
			f = strings.Join(pidEq, "||")
		}
		if err := writeFile(filepath.Join(d, "filter"), f); err != nil {
			return fail(fmt.Errorf("setting the %s filter for %d threads: %v", ev, len(tids), err))
		}
		if err := writeFile(filepath.Join(d, "enable"), "1"); err != nil {
			return fail(err)
		}
	}
	// The entries to and returns from the system calls of the threads'
	// program steps (read and write of a pipe, futex, clock_nanosleep).
	// A return is the first event in a thread's own context after it was
	// switched in, which dates a switch-in the kernel did not report
	// (interop.RepairFtrace); the two together give the threads' time in
	// the kernel (Result.SyscallPct). The syscall number is tested first,
	// so the threads' clock_gettime calls while they spin cost one
	// comparison chain.
	f := fmt.Sprintf("(id == %d || id == %d || id == %d || id == %d) && (%s)", syscall.SYS_READ, syscall.SYS_WRITE, syscall.SYS_FUTEX, syscall.SYS_CLOCK_NANOSLEEP,
		strings.ReplaceAll(strings.Join(pidEq, "||"), "pid==", "common_pid=="))
	for _, ev := range []struct {
		name string
		on   *bool
	}{{"sys_exit", &t.sysExit}, {"sys_enter", &t.sysEnter}} {
		d := filepath.Join(t.dir, "events/raw_syscalls", ev.name)
		if !fileExists(d) {
			continue
		}
		if err := writeFile(filepath.Join(d, "filter"), f); err != nil {
			return fail(fmt.Errorf("setting the %s filter for %d threads: %v", ev.name, len(tids), err))
		}
		if err := writeFile(filepath.Join(d, "enable"), "1"); err != nil {
			return fail(err)
		}
		*ev.on = true
	}
	if t.marker, err = os.OpenFile(filepath.Join(t.dir, "trace_marker"), os.O_WRONLY, 0); err != nil {
		return fail(err)
	}
	if err := writeFile(filepath.Join(t.dir, "tracing_on"), "1"); err != nil {
		return fail(err)
	}
	return t, nil
}

// mark writes a line into the trace.
func (t *tracer) mark(s string) {
	t.marker.WriteString(s)
}

// stop ends recording and returns the trace text and the events the buffer
// lost.
func (t *tracer) stop() ([]byte, int64, error) {
	if err := writeFile(filepath.Join(t.dir, "tracing_on"), "0"); err != nil {
		return nil, 0, err
	}
	var lost int64
	cpus, _ := filepath.Glob(filepath.Join(t.dir, "per_cpu", "cpu*", "stats"))
	for _, p := range cpus {
		b, _ := os.ReadFile(p)
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && (k == "overrun" || k == "dropped events") {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				lost += n
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(t.dir, "trace"))
	return data, lost, err
}

// close disables our events, removes the instance and unmounts tracefs if
// we mounted it: tracefs is left as it was found.
func (t *tracer) close() {
	if t.marker != nil {
		t.marker.Close()
	}
	if t.dir != "" {
		writeFile(filepath.Join(t.dir, "tracing_on"), "0")
		for _, ev := range traceEvents {
			writeFile(filepath.Join(t.dir, "events/sched", ev, "enable"), "0")
		}
		if t.sysExit {
			writeFile(filepath.Join(t.dir, "events/raw_syscalls/sys_exit", "enable"), "0")
		}
		if t.sysEnter {
			writeFile(filepath.Join(t.dir, "events/raw_syscalls/sys_enter", "enable"), "0")
		}
		os.Remove(t.dir)
	}
	if t.mounted {
		syscall.Unmount(t.root, 0)
	}
}
