//go:build linux

package realkernel

import (
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// How a scenario runs on the real kernel.
//
// Every task instance is one OS thread: a goroutine locked to its thread
// (runtime.LockOSThread) that never unlocks, so the thread exits with it.
// The thread names itself "group/i" (its comm in the trace), sets its nice
// value (setpriority on its tid) and its affinity (sched_setaffinity), then
// all wait at a barrier and start together at t0 (+ their start delay) on
// an absolute CLOCK_MONOTONIC sleep. Steps:
//
//   - run D: spin in user space until the thread has had D of CPU time
//     (runCPU: the vDSO clock, less the preemptions getrusage counts; no
//     read of the thread's CPU clock, which would check its slice);
//   - sleep D: clock_nanosleep for D;
//   - timer P: clock_nanosleep (absolute) to the next multiple of P since
//     the task started;
//   - wake: post one token into the target's ring (waker id, for fanout
//     "waker") and ring its doorbell: a futex wake (FUTEX_WAKE_PRIVATE, a
//     plain try_to_wake_up), or, when any wake aimed at the target's group
//     has "sync", a one-byte pipe write (pipe_write wakes its reader with
//     wake_up_interruptible_sync_poll: WF_SYNC, what the kernel gives a
//     pipe's reader, as in tbench);
//   - wait: take a token, blocking on the doorbell while there is none.
//
// Tokens are counted, so a wake that arrives before the wait is not lost,
// as in the simulator. A completed program iteration is an op; ops complete
// after the window's end do not count.
//
// The Go runtime must stay out of the way: GOMAXPROCS is raised above the
// thread count (every locked goroutine keeps a P, none waits for one), the
// GC is off during the run (nothing is allocated in it), and every blocking
// call is a raw system call from a go:nosplit helper, so the worker loop has
// no function prologue where a pending preemption request could park the
// thread. Asynchronous preemption (signals) must be off:
// GODEBUG=asyncpreemptoff=1, which schedsim sets by re-executing itself;
// Run refuses to start without it.

// MaxThreads bounds the task instances of a real run: every one is an OS
// thread in a trace filter, and a real machine of a few CPUs measures
// nothing useful with more.
const MaxThreads = 64

// ringN is a task's token ring: wakes beyond it while it does not wait are
// counted as dropped (the simulator keeps 4096 wakers too).
const ringN = 4096

type worker struct {
	name     string
	group    int
	index    int
	tid      int
	prog     []sim.Step
	loop     int
	start    int64
	nice     int
	cpus     []int
	rr       []int
	replyTo  int
	ops      int64
	dropped  int64
	clock    int64 // CLOCK_THREAD_CPUTIME_ID advance over loopRun (CPUCheck)
	pipeR    int
	pipeW    int
	tail     uint32 // futex word: tokens posted
	head     uint32 // tokens taken
	buf      [256]byte
	ring     [ringN]uint32
	firstIdx int // index of this group's first worker
	err      error
}

type runner struct {
	w       []*worker
	gfirst  []int
	gcount  []int
	goWord  uint32
	stop    uint32
	t0, end int64
	syncs   []syncObj // the scenario's mutexes, conditions and barriers (Config.Syncs)

	clockAtRunEnd bool // Options.clockAtRunEnd
}

// Options of a real run.
type Options struct {
	// KeepTrace keeps the raw tracefs text in Run's second result.
	KeepTrace bool
	// Isolate shifts every task's nice value by the same amount so that the
	// most favoured group runs at nice -20: other work on the machine (a
	// build, say) then gets about 1 % of a CPU where it competes with the
	// scenario's threads, whose weights keep their ratios (a nice step is
	// the same factor everywhere on the scale).
	Isolate bool
	// Untraced runs the scenario once more before the traced run, with the
	// same threads and no trace, and reports its rate by the threads' own
	// counts (Result.UntracedOpsPerS): what recording the sched events
	// costs the scenario.
	Untraced bool

	// clockAtRunEnd makes every run step end with a read of the thread's
	// CPU clock, as the run step did until 5 December: the tests' control
	// for the preemption that read causes (runCPU).
	clockAtRunEnd bool
}

// AsyncPreemptOff says whether the Go runtime runs with
// GODEBUG=asyncpreemptoff=1, which Run needs.
func AsyncPreemptOff() bool {
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if strings.TrimSpace(kv) == "asyncpreemptoff=1" {
			return true
		}
	}
	return false
}

// Check says what is missing for a real run here (nil: nothing).
func Check() error {
	root, mounted, err := findTracefs()
	if err != nil {
		return err
	}
	if mounted {
		syscall.Unmount(root, 0)
	}
	return nil
}

// Run runs the scenario on this machine's kernel for its duration and
// measures it from the kernel's sched events. With opt.KeepTrace the
// recording (trace text, threads, window) is returned too.
func Run(s *scenarios.Scenario, opt Options) (*Result, *Recording, error) {
	var untraced *Result
	if opt.Untraced {
		var err error
		if untraced, _, err = run(s, opt, false); err != nil {
			return nil, nil, err
		}
	}
	res, rec, err := run(s, opt, true)
	if res != nil && untraced != nil {
		res.UntracedOpsPerS = &untraced.OpsPerS
	}
	return res, rec, err
}

// unsupportedStep names the step kinds a real run refuses, as the scenario
// format spells them.
var unsupportedStep = map[sim.Op]string{
	sim.OpExec: "exec", sim.OpFork: "fork", sim.OpWaitChildren: "wait_children", sim.OpExit: "exit",
}

// run is Run's one pass: traced, the threads run under the tracer and
// the result is the trace's analysis; without, only the threads' own
// operation counts are read (Result.Ops, OpsPerS).
func run(s *scenarios.Scenario, opt Options, traced bool) (*Result, *Recording, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, nil, err
	}
	n := 0
	for _, g := range cfg.Tasks {
		n += g.Count
	}
	if n > MaxThreads {
		return nil, nil, fmt.Errorf("tasks: the scenario has %d task instances; a real run starts one thread per instance and is limited to %d", n, MaxThreads)
	}
	if n == 0 {
		return nil, nil, fmt.Errorf("tasks: the scenario has no tasks to run")
	}
	syncTarget := make([]bool, len(cfg.Tasks))
	for _, g := range cfg.Tasks {
		for _, st := range g.Program {
			switch st.Op {
			case sim.OpRun, sim.OpSleep, sim.OpTimer, sim.OpWake, sim.OpWait, sim.OpRepeat,
				sim.OpLock, sim.OpUnlock, sim.OpCondWait, sim.OpSignal, sim.OpBroadcast, sim.OpBarrier:
			default: // processes: a thread cannot exec, and the Go runtime clones new threads elsewhere
				kind, ok := unsupportedStep[st.Op]
				if !ok {
					kind = fmt.Sprintf("kind-%d", st.Op) // a step kind added after this runner was written
				}
				return nil, nil, fmt.Errorf("tasks.%s.program: a %s step, which has no real-kernel equivalent in schedsim real yet: a real run plays run, sleep, timer, wake, wait, repeat and the synchronisation steps, one thread per task instance, and a thread can neither fork a process nor exec",
					g.Name, kind)
			}
			if st.Op == sim.OpWake && st.Sync {
				syncTarget[st.Target] = true
			}
		}
	}
	if !AsyncPreemptOff() {
		return nil, nil, fmt.Errorf("a real run needs GODEBUG=asyncpreemptoff=1 (the Go runtime's preemption signals would wake the threads); schedsim sets it itself")
	}
	cpus, err := onlineCPUs()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the online CPUs: %v", err)
	}
	if err := Check(); err != nil {
		return nil, nil, err
	}
	wallStart := time.Now()
	r := &runner{clockAtRunEnd: opt.clockAtRunEnd, syncs: make([]syncObj, len(cfg.Syncs))}
	for i, o := range cfg.Syncs {
		r.syncs[i].parties = int32(o.Parties)
	}
	var notes []string
	niceShift := 0
	if opt.Isolate {
		lo := 19
		for _, g := range cfg.Tasks {
			lo = min(lo, g.Nice)
		}
		niceShift = -20 - lo
		notes = append(notes, fmt.Sprintf("isolated: every nice value shifted by %d (the most favoured group at nice -20), so other work on the machine hardly competes", niceShift))
		// With CONFIG_SCHED_AUTOGROUP a nice value counts only inside the
		// session's group; the group's own nice decides against others.
		if restore, err := setAutogroupNice(-20); err == nil {
			defer restore()
			notes = append(notes, "isolated: this process's autogroup at nice -20 for the run (sched_autogroup is on: task nice values weigh only inside a session)")
		}
	} else {
		notes = append(notes, "not isolated: the machine's other work and this harness's own Go runtime thread (sysmon: about 6 us every 10 ms while the workers run, in the scenario's session at nice 0) compete with the scenario's threads at their own weights; -isolate gives the scenario the machine")
	}
	for gi, g := range cfg.Tasks {
		r.gfirst = append(r.gfirst, len(r.w))
		r.gcount = append(r.gcount, g.Count)
		var allowed []int
		if !g.CPUs.Empty() {
			for _, c := range cpus {
				if c < sim.MaxCPUs && g.CPUs.Has(c) {
					allowed = append(allowed, c)
				}
			}
			if len(allowed) == 0 {
				return nil, nil, fmt.Errorf("tasks[%d].cpus: none of its CPUs is online here (online: %v)", gi, cpus)
			}
		}
		for i := 0; i < g.Count; i++ {
			w := &worker{name: g.Name + "/" + strconv.Itoa(i), group: gi, index: i, prog: g.Program, loop: g.Loop,
				start: g.Start, nice: g.Nice + niceShift, cpus: allowed, rr: make([]int, len(g.Program)), replyTo: -1,
				pipeR: -1, pipeW: -1, firstIdx: r.gfirst[gi]}
			if syncTarget[gi] {
				var p [2]int
				if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
					return nil, nil, fmt.Errorf("pipe: %v", err)
				}
				syscall.SetNonblock(p[1], true)
				w.pipeR, w.pipeW = p[0], p[1]
			}
			r.w = append(r.w, w)
		}
	}
	mixed := false
	for _, g := range cfg.Tasks {
		for _, st := range g.Program {
			if st.Op == sim.OpWake && !st.Sync && syncTarget[st.Target] {
				mixed = true
			}
		}
	}
	if mixed {
		notes = append(notes, "a non-sync wake of a task that is also woken with sync rings its pipe too: it is a WF_SYNC wake-up on the real kernel")
	}
	defer func() {
		for _, w := range r.w {
			if w.pipeR >= 0 {
				syscall.Close(w.pipeR)
				syscall.Close(w.pipeW)
			}
		}
	}()

	// The Go runtime: a P for every thread and some to spare, no GC.
	oldProcs := runtime.GOMAXPROCS(n + 4)
	defer runtime.GOMAXPROCS(oldProcs)
	oldGC := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(oldGC)
	runtime.GC()

	var ready, done sync.WaitGroup
	ready.Add(n)
	done.Add(n)
	for _, w := range r.w {
		go w.main(r, &ready, &done)
	}
	ready.Wait()
	for _, w := range r.w {
		if w.err != nil {
			r.release()
			done.Wait()
			return nil, nil, w.err
		}
	}
	tids := make([]int, n)
	for i, w := range r.w {
		tids[i] = w.tid
	}
	dur := cfg.Duration
	var tr *tracer // nil: an untraced pass
	if traced {
		// A 20 us pair on one CPU records about 135 k events a second there
		// (sched events and the sys_exit returns), about 7 MB/s; 16 MB per
		// second per CPU leaves room, and the kernel may give less (halved
		// until it can allocate, reported with any loss).
		bufKB := int(min(max(dur/1e9, 1)*16*1024, 256*1024))
		if tr, err = newTracer(tids, bufKB); err != nil {
			r.release()
			done.Wait()
			return nil, nil, err
		}
		defer tr.close()
	}
	mark := func(m string) {
		if tr != nil {
			tr.mark(m)
		}
	}
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)

	mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
	r.t0 = monoNow() + 20e6
	r.end = r.t0 + dur
	steal0, stealOK := stealNS(cpus)
	r.release()
	sleepUntil(r.t0)
	mark("schedsim start " + strconv.FormatInt(r.t0, 10))
	select {
	case <-time.After(time.Duration(r.end - monoNow())):
	case <-sigc:
		r.end = monoNow()
	}
	atomic.StoreUint32(&r.stop, 1)
	mark("schedsim end " + strconv.FormatInt(r.end, 10))
	for _, w := range r.w {
		r.post(w, -1)
	}
	released := make(chan struct{})
	go r.releaseSyncs(released)
	done.Wait()
	close(released)
	if tr == nil {
		res := &Result{Title: s.Title, SimMS: float64(r.end-r.t0) / 1e6}
		for _, w := range r.w {
			res.Ops += w.ops
		}
		res.OpsPerS = round3(float64(res.Ops) / (float64(r.end-r.t0) / 1e9))
		return res, nil, nil
	}
	steal1, steal1OK := stealNS(cpus)
	tr.mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
	trace, lost, err := tr.stop()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the trace: %v", err)
	}
	threads := make([]Thread, n)
	_ = opt
	var dropped int64
	for i, w := range r.w {
		threads[i] = Thread{Name: w.name, TID: w.tid, Ops: w.ops, ClockNS: w.clock}
		dropped += w.dropped
	}
	win := Window{StartNS: r.t0, EndNS: r.end, NCPU: len(cpus), Dist: distFunc(), Harness: harnessThreads(threads)}
	res, err := Analyze(trace, threads, win)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the trace: %v", err)
	}
	res.Title = s.Title
	res.Kernel = KernelVersion()
	res.Machine = MachineName()
	res.LostEvents = lost
	res.WallMS = round3(float64(time.Since(wallStart).Microseconds()) / 1000)
	clock := "mono"
	if tr.clockRaw {
		clock = "x86-tsc"
	}
	notes = append(notes, "trace_clock "+clock)
	if lost > 0 {
		notes = append(notes, fmt.Sprintf("the trace buffer (%d KB per CPU) lost %d events: counts are low bounds", tr.bufKB, lost))
	}
	if res.InferredSwitchIns > 0 {
		notes = append(notes, fmt.Sprintf("%d switch-ins of the scenario's threads were not in the trace (the kernel reports no event from an idle task's own context on some CPUs here) and were put back from the events around them (interop.RepairFtrace): each at the interrupt that woke the thread, a few microseconds early", res.InferredSwitchIns))
	}
	if n := interruptionNote(&res.Interruptions, res.SimMS); n != "" {
		notes = append(notes, n)
	}
	var checkErr error
	if c := res.CPUCheck; c != nil && stealOK && steal1OK {
		c.StealMS, c.StealCPUs = round3(float64(steal1-steal0)/1e6), len(cpus)
		if c.TraceMS > 0 {
			res.StealPct = round3(res.BusyPct * c.StolenMS() / c.TraceMS)
		}
	}
	if c := res.CPUCheck; c != nil {
		notes = append(notes, fmt.Sprintf("CPU time check: the trace shows %.1f ms, the threads' own clocks %.1f ms (%.1f ms of it before their switch-ins from idle), the host's steal %.0f ms", c.TraceMS, c.ClockMS, c.ClockLeadMS, c.StealMS))
		checkErr = c.Err()
		if checkErr != nil && lost > 0 {
			checkErr = fmt.Errorf("%w (the trace buffer, %d KB per CPU, lost %d events)", checkErr, tr.bufKB, lost)
		}
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d wake-ups found their target's token ring full (%d) and were dropped", dropped, ringN))
	}
	res.Notes = notes
	if !opt.KeepTrace {
		if checkErr != nil {
			return nil, nil, checkErr
		}
		return res, nil, nil
	}
	// A refused run keeps its recording (nil result), so that the trace
	// that failed the check can be written and looked at.
	rec := &Recording{Trace: trace, Threads: threads, Window: Window{StartNS: r.t0, EndNS: r.end, NCPU: len(cpus), Harness: win.Harness}}
	if checkErr != nil {
		return nil, rec, checkErr
	}
	return res, rec, nil
}

// release opens the start barrier.
// harnessThreads lists this process's threads other than the scenario's:
// the Go runtime's own (sysmon among them), which the trace shows taking a
// CPU from a scenario thread now and then (Interruptions). Go keeps its
// threads to the end, so the list read after the run holds every one that
// ran during it.
func harnessThreads(scenario []Thread) []int {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	ours := make(map[int]bool, len(scenario))
	for _, t := range scenario {
		ours[t.TID] = true
	}
	var tids []int
	for _, e := range ents {
		if tid, err := strconv.Atoi(e.Name()); err == nil && !ours[tid] {
			tids = append(tids, tid)
		}
	}
	return tids
}

func (r *runner) release() {
	atomic.StoreUint32(&r.goWord, 1)
	futexWake(&r.goWord, 1<<30)
}

// main is a worker thread's life.
func (w *worker) main(r *runner, ready, done *sync.WaitGroup) {
	runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
	defer done.Done()
	w.tid = gettid()
	setName(w.name)
	if w.nice != 0 {
		if err := setNice(w.tid, w.nice); err != nil {
			w.err = err
		}
	}
	if len(w.cpus) > 0 && w.err == nil {
		w.err = setAffinity(w.tid, w.cpus)
	}
	ready.Done()
	for atomic.LoadUint32(&r.goWord) == 0 {
		futexWait(&r.goWord, 0)
	}
	if w.err != nil || r.t0 == 0 {
		return
	}
	c0 := threadCPU()
	w.loopRun(r)
	w.clock = threadCPU() - c0
}

// loopRun interprets the program until the run ends. It calls only
// go:nosplit functions and compiler intrinsics (see the package comment).
func (w *worker) loopRun(r *runner) {
	start := r.t0 + w.start
	if start >= r.end {
		return // forked after the window: never runs
	}
	sleepUntil(start)
	iter := 0
	// Repeat blocks as the simulator plays them (sim/core.go): an OpRepeat
	// step opens a frame over its next Len steps, played Count times; the
	// program is flat, so pc walks it and a small stack of frames brings it
	// back to a block's start.
	type frame struct{ start, end, left int }
	var stack [sim.MaxRepeatDepth]frame
	for atomic.LoadUint32(&r.stop) == 0 {
		sp := 0
		for pc := 0; pc < len(w.prog); {
			st := &w.prog[pc]
			if st.Op == sim.OpRepeat {
				stack[sp] = frame{pc + 1, pc + 1 + st.Len, st.Count}
				sp++
				pc++
				continue
			}
			switch st.Op {
			case sim.OpRun:
				runCPU(st.Dur, &r.stop)
				if r.clockAtRunEnd {
					threadCPU()
				}
				if atomic.LoadUint32(&r.stop) != 0 {
					return
				}
			case sim.OpSleep:
				t := monoNow() + st.Dur
				if t > r.end {
					return
				}
				sleepUntil(t)
			case sim.OpTimer:
				now := monoNow()
				t := start + ((now-start)/st.Dur+1)*st.Dur
				if t > r.end {
					return
				}
				sleepUntil(t)
			case sim.OpWake:
				w.wake(r, pc, st)
			case sim.OpWait:
				if !w.wait(r) {
					return
				}
			case sim.OpLock:
				if !lockMutex(&r.syncs[st.Obj].word, &r.stop) {
					return
				}
			case sim.OpUnlock:
				unlockMutex(&r.syncs[st.Obj].word)
			case sim.OpCondWait:
				if !condWait(&r.syncs[st.Obj].word, &r.syncs[st.Mutex].word, &r.stop) {
					return
				}
			case sim.OpSignal:
				condWake(&r.syncs[st.Obj].word, 1)
			case sim.OpBroadcast:
				condWake(&r.syncs[st.Obj].word, math.MaxInt32)
			case sim.OpBarrier:
				if !r.syncs[st.Obj].barrier(&r.stop) {
					return
				}
			}
			if atomic.LoadUint32(&r.stop) != 0 {
				return
			}
			// The end of a repeat body: again from its start, or out of
			// the block (and perhaps out of the enclosing one too).
			for pc++; sp > 0 && pc == stack[sp-1].end; sp-- {
				if f := &stack[sp-1]; f.left > 1 {
					f.left--
					pc = f.start
					break
				}
			}
		}
		w.ops++
		iter++
		if w.loop > 0 && iter >= w.loop {
			return
		}
	}
}

// wake posts to the instance(s) the step names (sim.Sim.wakeStep's fanout).
//
//go:nosplit
func (w *worker) wake(r *runner, pc int, st *sim.Step) {
	first, count := r.gfirst[st.Target], r.gcount[st.Target]
	me := w.firstIdx + w.index
	switch st.Fanout {
	case sim.FanoutAll:
		for i := 0; i < count; i++ {
			r.post(r.w[first+i], me)
		}
	case sim.FanoutOne:
		i := w.rr[pc] % count
		w.rr[pc] = i + 1
		r.post(r.w[first+i], me)
	case sim.FanoutWaker:
		if x := w.replyTo; x >= first && x < first+count {
			r.post(r.w[x], me)
		}
	default:
		i := 0
		if count > 1 {
			i = w.index % count
		}
		r.post(r.w[first+i], me)
	}
}

// post puts a token from worker id from (-1: the runner's stop) into t's
// ring and rings its doorbell.
//
//go:nosplit
func (r *runner) post(t *worker, from int) {
	// head first: tail only grows, so tail-head cannot wrap below zero
	// (read the other way round, a token posted and taken between the two
	// loads made the difference 2^32-1, and a wake-up was dropped as if the
	// ring were full: a 1:N server lost requests and starved clients).
	h := atomic.LoadUint32(&t.head)
	if atomic.LoadUint32(&t.tail)-h >= ringN {
		atomic.AddInt64(&t.dropped, 1)
		return
	}
	s := atomic.AddUint32(&t.tail, 1) - 1
	atomic.StoreUint32(&t.ring[s%ringN], uint32(from+2))
	if t.pipeW >= 0 {
		var b byte = 1
		rawWrite1(t.pipeW, &b)
	} else {
		futexWake(&t.tail, 1)
	}
}

// wait takes one token, blocking while there is none; false when the run
// is over.
//
//go:nosplit
func (w *worker) wait(r *runner) bool {
	for {
		if atomic.LoadUint32(&r.stop) != 0 {
			return false
		}
		t := atomic.LoadUint32(&w.tail)
		h := atomic.LoadUint32(&w.head)
		if h != t {
			var v uint32
			for v == 0 {
				v = atomic.LoadUint32(&w.ring[h%ringN])
			}
			atomic.StoreUint32(&w.ring[h%ringN], 0)
			atomic.StoreUint32(&w.head, h+1)
			if v == 1 { // the stop token
				return false
			}
			w.replyTo = int(v) - 2
			return true
		}
		if w.pipeR >= 0 {
			rawRead(w.pipeR, &w.buf[0], len(w.buf)) // the doorbell: drains stale rings too
		} else {
			futexWait(&w.tail, t)
		}
	}
}

// setAutogroupNice sets this process's autogroup nice (/proc/self/autogroup,
// present with CONFIG_SCHED_AUTOGROUP when sched_autogroup_enabled is 1)
// and returns a function that restores the old value.
func setAutogroupNice(n int) (func(), error) {
	if readTrim("/proc/sys/kernel/sched_autogroup_enabled") != "1" {
		return nil, fmt.Errorf("autogroup off")
	}
	old := readTrim("/proc/self/autogroup") // "/autogroup-16 nice 0"
	_, v, ok := strings.Cut(old, " nice ")
	if !ok {
		return nil, fmt.Errorf("unreadable autogroup %q", old)
	}
	if err := writeFile("/proc/self/autogroup", strconv.Itoa(n)); err != nil {
		return nil, err
	}
	return func() { writeFile("/proc/self/autogroup", strings.TrimSpace(v)) }, nil
}

// syncObj is one of the scenario's synchronisation objects in a real run:
// futex words used as glibc and rt-app use them, which is what the
// simulator models (sim/sync.go).
type syncObj struct {
	// word is a mutex's lock word (glibc's lll lock: 0 free, 1 held, 2
	// held with waiters) or a condition variable's sequence.
	word uint32
	// A barrier (rt-app's): a count of the tasks arrived, under a mutex,
	// and a condition the arrivals but the last wait on.
	m, c    uint32
	arrived int32 // guarded by m
	parties int32
}

// lockMutex takes a plain futex mutex as glibc's lll_lock() does: an
// uncontended lock stays in user space; a contended one marks the word 2
// and futex_wait()s until it takes the lock, retried when woken (another
// task may take it first: no hand-off). It gives up when the run stops.
//
//go:nosplit
func lockMutex(word, stop *uint32) bool {
	if atomic.CompareAndSwapUint32(word, 0, 1) {
		return true
	}
	for atomic.SwapUint32(word, 2) != 0 {
		if atomic.LoadUint32(stop) != 0 {
			return false
		}
		futexWait(word, 2)
	}
	return true
}

// unlockMutex frees the lock and, if a task waits, futex_wake()s one
// (lll_unlock(): a wake-up without WF_SYNC).
//
//go:nosplit
func unlockMutex(word *uint32) {
	if atomic.SwapUint32(word, 0) == 2 {
		futexWake(word, 1)
	}
}

// condWait releases the mutex, blocks until the condition is signalled
// (its sequence moves on), and retakes the mutex. A signal before this
// task read the sequence is lost to it, as pthread_cond_signal()'s is to a
// task not yet waiting.
//
//go:nosplit
func condWait(seq, mutex, stop *uint32) bool {
	s := atomic.LoadUint32(seq)
	unlockMutex(mutex)
	for atomic.LoadUint32(seq) == s {
		if atomic.LoadUint32(stop) != 0 {
			return false
		}
		futexWait(seq, s)
	}
	if atomic.LoadUint32(stop) != 0 {
		return false
	}
	return lockMutex(mutex, stop)
}

// condWake signals (n = 1) or broadcasts (n = MaxInt32) a condition:
// futex_wake() of that many waiters, none if nobody waits.
//
//go:nosplit
func condWake(seq *uint32, n int) {
	atomic.AddUint32(seq, 1)
	futexWake(seq, n)
}

// barrier is rt-app's: each arriving task takes the barrier's mutex and
// counts itself; all but the last wait on the condition, the last resets
// the count and broadcasts.
//
//go:nosplit
func (b *syncObj) barrier(stop *uint32) bool {
	if !lockMutex(&b.m, stop) {
		return false
	}
	b.arrived++
	if b.arrived >= b.parties {
		b.arrived = 0
		condWake(&b.c, math.MaxInt32)
		unlockMutex(&b.m)
		return true
	}
	if !condWait(&b.c, &b.m, stop) {
		return false
	}
	unlockMutex(&b.m)
	return true
}

// releaseSyncs wakes, until released is closed, every task blocked on a
// synchronisation object once the run has stopped: each wait loop sees the
// stop and returns. It repeats every millisecond, since a task may block
// again just after a wake-up that came before it looked.
func (r *runner) releaseSyncs(released chan struct{}) {
	if len(r.syncs) == 0 {
		return
	}
	for {
		for i := range r.syncs {
			o := &r.syncs[i]
			atomic.AddUint32(&o.c, 1)
			futexWake(&o.word, math.MaxInt32)
			futexWake(&o.m, math.MaxInt32)
			futexWake(&o.c, math.MaxInt32)
		}
		select {
		case <-released:
			return
		case <-time.After(time.Millisecond):
		}
	}
}
