//go:build linux

package realkernel

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"schedplay/interop"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Raw system calls the worker threads make. Each is go:nosplit and calls
// only syscall.RawSyscall6 (also nosplit), so a worker's loop never passes a
// function prologue where the Go runtime could act on a preemption request
// (which, for a goroutine locked to its thread, means handing the thread's
// P away and waking it again: scheduler events the scenario did not ask
// for). See run_linux.go.

const (
	clockMonotonic     = 1
	clockThreadCPUTime = 3
	timerAbstime       = 1
	futexWaitPrivate   = 128
	futexWakePrivate   = 129
	prSetName          = 15
	rusageThread       = 1
)

//go:nosplit
func monoNow() int64 {
	var ts syscall.Timespec
	syscall.RawSyscall6(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0, 0, 0, 0)
	return ts.Sec*1e9 + ts.Nsec
}

// nanotime is the Go runtime's CLOCK_MONOTONIC read through the vDSO:
// no system call, so no kernel entry (runtime.nanotime is go:nosplit and
// kept linkable for packages outside the runtime).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// spinGap is the longest step between two clock reads a run step counts as
// its own CPU time. Alone on a CPU of this 2-vCPU guest, a thread reading
// the clock in a loop sees about 2700 steps of 20-80 us in 2 s (120-150 ms
// in all: hypervisor exits) and a handful of 0.16-0.64 ms, and the kernel
// counts all of them as the thread's CPU time (1994 of 2000 ms). A step
// longer than spinGap is taken as time the thread was off its CPU
// (preempted by work that ran at least a millisecond); a shorter
// preemption is counted by the spin, and runCPU makes up for it. Counting
// too much (a gap the kernel charged to the thread) would make the step
// run long, so the limit is generous.
const spinGap = 1_000_000

// nGaps is how many of a spin's longest counted steps it remembers: the
// candidates for preemptions shorter than spinGap (runCPU).
const nGaps = 8

// spinGaps is what a spin saw of its steps between clock reads.
type spinGaps struct {
	long int          // steps longer than spinGap (not counted)
	top  [nGaps]int64 // the longest counted steps, longest first
}

// add records a counted step of dt ns among the longest.
//
//go:nosplit
func (g *spinGaps) add(dt int64) {
	if dt <= g.top[nGaps-1] {
		return
	}
	i := nGaps - 1
	for ; i > 0 && g.top[i-1] < dt; i-- {
		g.top[i] = g.top[i-1]
	}
	g.top[i] = dt
}

// spinCPU spins in user space until about d ns of this thread's CPU time
// have passed, by the vDSO clock, leaving out every step longer than
// spinGap, and records the steps in g. It makes no system call: a thread
// that entered the kernel while it ran (clock_gettime(CLOCK_THREAD_CPUTIME_ID)
// calls update_curr()) would have its slice checked at every read, and
// EEVDF would preempt it at the end of its slice instead of at the tick,
// unlike the program the scenario describes (CPU work) and unlike the
// simulator's. It returns early when stop is set.
//
//go:nosplit
func spinCPU(d int64, stop *uint32, g *spinGaps) {
	var ran int64
	last := nanotime()
	for ran < d {
		if atomic.LoadUint32(stop) != 0 {
			return
		}
		now := nanotime()
		if dt := now - last; dt <= spinGap {
			ran += dt
			g.add(dt)
		} else {
			g.long++
		}
		last = now
	}
}

// runCPU is a run step: about d ns of this thread's CPU time, spent in user
// space. The spin counts every short step between its clock reads as CPU
// time, which is right for the hypervisor's exits (the kernel charges them
// to the thread) and wrong for a preemption shorter than spinGap. The
// thread's involuntary context switches (getrusage(RUSAGE_THREAD): its
// nivcsw, read without update_curr(), so without a slice check) tell how
// many preemptions the spin sat through; those its long steps do not
// account for are taken to be its longest counted steps, and the step spins
// that much more (and checks again).
//
// It does not read the thread's CPU clock at its end: that read runs
// update_curr(), and a thread whose EEVDF slice has run out while another
// waits on its CPU is preempted right there, before its next step (a
// sleep) can take it off the runqueue. Four 30 % tasks on two CPUs, each
// running 3 ms of every 10 ms, were preempted so at the end of most runs
// that shared a CPU, and the CPU that finished its work first pulled the
// waiting task: 26-220 migrations in 5 s with the CPU-clock read (the run
// step until 5 December), 11-18 with this step; a C program of four
// threads spinning on the vDSO clock gets 0-7, and 18-472 when it reads
// its CPU clock at the end of each run (TestRunStepEndsInUserSpace).
//
//go:nosplit
func runCPU(d int64, stop *uint32) {
	n0 := nivcsw()
	for d > 0 {
		var g spinGaps
		spinCPU(d, stop, &g)
		if atomic.LoadUint32(stop) != 0 {
			return
		}
		n1 := nivcsw()
		k := int(n1-n0) - g.long
		n0 = n1
		d = 0
		for i := 0; i < k && i < nGaps; i++ {
			d += g.top[i]
		}
	}
}

// nivcsw is this thread's count of involuntary context switches.
//
//go:nosplit
func nivcsw() int64 {
	var ru syscall.Rusage
	syscall.RawSyscall6(syscall.SYS_GETRUSAGE, rusageThread, uintptr(unsafe.Pointer(&ru)), 0, 0, 0, 0)
	return ru.Nivcsw
}

//go:nosplit
func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.RawSyscall6(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0, 0, 0, 0)
	return ts.Sec*1e9 + ts.Nsec
}

// sleepUntil blocks until CLOCK_MONOTONIC reaches t (ns).
//
//go:nosplit
func sleepUntil(t int64) {
	ts := syscall.Timespec{Sec: t / 1e9, Nsec: t % 1e9}
	for {
		_, _, e := syscall.RawSyscall6(syscall.SYS_CLOCK_NANOSLEEP, clockMonotonic, timerAbstime, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}

// sysGetcpu is getcpu(2)'s number, which package syscall lists for arm64
// only; 0 on other architectures (the probes that need it say so).
var sysGetcpu = map[string]uintptr{"amd64": 309, "arm64": 168}[runtime.GOARCH]

// getcpu is the CPU this thread runs on.
//
//go:nosplit
func getcpu() int {
	var cpu uint32
	syscall.RawSyscall6(sysGetcpu, uintptr(unsafe.Pointer(&cpu)), 0, 0, 0, 0, 0)
	return int(cpu)
}

//go:nosplit
func futexWait(addr *uint32, val uint32) {
	syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWaitPrivate, uintptr(val), 0, 0, 0)
}

//go:nosplit
func futexWake(addr *uint32, n int) {
	syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWakePrivate, uintptr(n), 0, 0, 0)
}

//go:nosplit
func rawWrite1(fd int, b *byte) {
	syscall.RawSyscall6(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(b)), 1, 0, 0, 0)
}

//go:nosplit
func rawRead(fd int, b *byte, n int) int {
	r, _, e := syscall.RawSyscall6(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(b)), uintptr(n), 0, 0, 0)
	if e != 0 {
		return -1
	}
	return int(r)
}

var _ = atomic.AddUint32 // the worker's ring uses sync/atomic (compiler intrinsics, no calls)

// gettid, setName, setNice, setAffinity run once per thread before the
// measured window.
func gettid() int { return syscall.Gettid() }

func setName(name string) {
	b := []byte(name)
	if len(b) > 15 {
		b = b[:15]
	}
	b = append(b, 0)
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetName, uintptr(unsafe.Pointer(&b[0])), 0)
}

func setNice(tid, nice int) error {
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil {
		return fmt.Errorf("setpriority(tid %d, nice %d): %v", tid, nice, err)
	}
	return nil
}

func setAffinity(tid int, cpus []int) error {
	var mask [16]uint64 // 1024 CPUs
	for _, c := range cpus {
		if c >= 0 && c < 1024 {
			mask[c/64] |= 1 << (c % 64)
		}
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(mask), uintptr(unsafe.Pointer(&mask[0])))
	if e != 0 {
		return fmt.Errorf("sched_setaffinity(tid %d, cpus %v): %v", tid, cpus, e)
	}
	return nil
}

// stealNS sums the steal time of cpus from /proc/stat (the time the host
// kept their vCPUs from running while the guest had work for them: the
// paravirt steal clock, account_steal_time()), in ns, at USER_HZ
// resolution. ok is false when the file or a CPU's line cannot be read.
func stealNS(cpus []int) (ns int64, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return parseStealNS(b, cpus)
}

// parseStealNS is stealNS on /proc/stat's text.
func parseStealNS(b []byte, cpus []int) (ns int64, ok bool) {
	want := map[string]bool{}
	for _, c := range cpus {
		want["cpu"+strconv.Itoa(c)] = true
	}
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		// cpuN user nice system idle iowait irq softirq steal ...
		if len(f) < 9 || !want[f[0]] {
			continue
		}
		v, err := strconv.ParseInt(f[8], 10, 64)
		if err != nil {
			return 0, false
		}
		ns += v * (1e9 / userHZ)
		found++
	}
	return ns, found == len(cpus)
}

// onlineCPUs lists the online CPUs (sysfs).
func onlineCPUs() ([]int, error) {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return nil, err
	}
	return parseCPUList(strings.TrimSpace(string(b)))
}

func parseCPUList(s string) ([]int, error) {
	var out []int
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("cpu list %q: %v", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("cpu list %q: %v", s, err)
			}
		}
		for c := a; c <= b && c < 4096; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

func readTrim(path string) string {
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}

// distFunc reads the cache distance between CPUs from sysfs: SMT siblings,
// a shared L2 (cluster), a shared LLC, the same package, else NUMA.
func distFunc() func(a, b int) sim.Distance {
	cpu := func(c int, f string) string {
		return readTrim(filepath.Join("/sys/devices/system/cpu", "cpu"+strconv.Itoa(c), f))
	}
	has := func(list string, c int) bool {
		cs, _ := parseCPUList(list)
		for _, x := range cs {
			if x == c {
				return true
			}
		}
		return false
	}
	llcOf := func(c int) string {
		best, lvl := "", 0
		for i := 0; i < 8; i++ {
			l, _ := strconv.Atoi(cpu(c, fmt.Sprintf("cache/index%d/level", i)))
			if l > lvl {
				lvl, best = l, cpu(c, fmt.Sprintf("cache/index%d/shared_cpu_list", i))
			}
		}
		return best
	}
	cache := map[[2]int]sim.Distance{}
	return func(a, b int) sim.Distance {
		if a == b {
			return sim.DistSame
		}
		if d, ok := cache[[2]int{a, b}]; ok {
			return d
		}
		d := sim.DistNUMA
		switch {
		case has(cpu(a, "topology/thread_siblings_list"), b):
			d = sim.DistSMT
		case cpu(a, "topology/cluster_cpus_list") != "" && has(cpu(a, "topology/cluster_cpus_list"), b) &&
			cpu(a, "topology/cluster_cpus_list") != llcOf(a):
			d = sim.DistCluster
		case has(llcOf(a), b):
			d = sim.DistLLC
		case cpu(a, "topology/physical_package_id") == cpu(b, "topology/physical_package_id"):
			d = sim.DistPackage
		}
		cache[[2]int{a, b}] = d
		return d
	}
}

// KernelVersion is "Linux <release>" from uname.
func KernelVersion() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "Linux (uname failed)"
	}
	return "Linux " + cstr(u.Release[:]) + " " + cstr(u.Machine[:])
}

// KernelRelease is uname's release ("6.18.44-fc-v1252").
func KernelRelease() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return ""
	}
	return cstr(u.Release[:])
}

// KernelSchedParams lists the kernel command line's parameters that change
// scheduling or idle behaviour (sched_*, *idle*, *haltpoll*, isolcpus,
// nohz*), for the report: a kernel booted with such parameters, or a custom
// build, is not the one the simulator models.
func KernelSchedParams() []string {
	b, err := os.ReadFile("/proc/cmdline")
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range strings.Fields(string(b)) {
		if f == "--" {
			break // init's arguments follow
		}
		k, _, _ := strings.Cut(f, "=")
		if strings.HasPrefix(k, "sched") || strings.Contains(k, "idle") || strings.Contains(k, "haltpoll") ||
			k == "isolcpus" || strings.HasPrefix(k, "nohz") || k == "mitigations" {
			out = append(out, f)
		}
	}
	return out
}

// cstr reads a NUL-terminated utsname field (int8 on amd64, uint8 on arm64).
func cstr[T int8 | uint8](a []T) string {
	b := make([]byte, 0, len(a))
	for _, c := range a {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

// MachineName is the CPU model, the CPU count and "KVM guest" style
// hypervisor note, from /proc/cpuinfo and sysfs.
func MachineName() string {
	model, hyper := "", false
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if model == "" && (k == "model name" || k == "Model" || k == "cpu model") {
				model = v
			}
			if k == "flags" && strings.Contains(" "+v+" ", " hypervisor ") {
				hyper = true
			}
		}
		f.Close()
	}
	cpus, _ := onlineCPUs()
	out := fmt.Sprintf("%d CPUs", len(cpus))
	if model != "" {
		out = model + ", " + out
	}
	if v := readTrim("/sys/hypervisor/type"); v != "" {
		out += " (" + v + " guest)"
	} else if hyper {
		out += " (virtual machine)"
	}
	return out
}

// KernelHZ reads CONFIG_HZ from /proc/config.gz or /boot/config-*, 0 when
// neither says.
func KernelHZ() int {
	var r io.Reader
	if f, err := os.Open("/proc/config.gz"); err == nil {
		defer f.Close()
		if z, err := gzip.NewReader(f); err == nil {
			r = z
		}
	}
	if r == nil {
		var u syscall.Utsname
		syscall.Uname(&u)
		f, err := os.Open("/boot/config-" + cstr(u.Release[:]))
		if err != nil {
			return 0
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "CONFIG_HZ="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// HostMachine is this machine as a scenario machine: `lscpu -p` through the
// lscpu importer when lscpu is installed, else one LLC of the online CPUs;
// HZ from the kernel's config when it is readable. The notes say what was
// assumed.
func HostMachine() (scenarios.Machine, []string, error) {
	var notes []string
	var m scenarios.Machine
	out, err := exec.Command("lscpu", "-p").Output()
	if err == nil {
		var probs []interop.Problem
		m, probs, err = interop.ImportLscpu(out)
		for _, p := range probs {
			notes = append(notes, "lscpu: "+p.String())
		}
	}
	if err != nil {
		cpus, cerr := onlineCPUs()
		if cerr != nil {
			return m, notes, fmt.Errorf("this machine's topology: lscpu -p: %v; sysfs: %v", err, cerr)
		}
		notes = append(notes, fmt.Sprintf("lscpu -p failed (%v): one LLC of %d CPUs assumed", err, len(cpus)))
		m = scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: len(cpus),
			ThreadsPerCore: 1, HZ: scenarios.DefaultHZ, Numbering: scenarios.DefaultNumbering}
	}
	if hz := KernelHZ(); hz == 100 || hz == 250 || hz == 300 || hz == 1000 {
		m.HZ = hz
	} else {
		notes = append(notes, fmt.Sprintf("CONFIG_HZ not readable: HZ %d assumed", m.HZ))
	}
	return m, notes, nil
}
