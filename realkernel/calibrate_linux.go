//go:build linux

package realkernel

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"

	"schedplay/interop"
)

// Calibrate measures this machine with thread ping-pongs timed from user
// space, and from tracefs when it is available (root): a futex hand-over
// between two threads on one CPU, and wake-up latencies from one CPU to
// another after the target CPU idled for increasing lengths (5 us to 20 ms,
// the waker spinning meanwhile), and to a CPU
// that is busy with a spinning thread; and, not a cost, where the kernel
// places a small task woken by a busy thread while another CPU idles
// (wakePlacement). It needs two online CPUs.
func Calibrate(opt CalibrateOptions) (*Calibration, error) {
	rounds := opt.Rounds
	if rounds <= 0 {
		rounds = 400
	}
	cpus, err := onlineCPUs()
	if err != nil {
		return nil, fmt.Errorf("reading the online CPUs: %v", err)
	}
	if len(cpus) < 2 {
		return nil, fmt.Errorf("calibrate needs two online CPUs, this machine has %d", len(cpus))
	}
	a, b := cpus[0], cpus[1]
	old := runtime.GOMAXPROCS(8)
	defer runtime.GOMAXPROCS(old)
	oldGC := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(oldGC)

	cal := &Calibration{Kernel: KernelVersion(), Machine: MachineName()}
	rt, _, sendLocal, err := pingPong(a, a, rounds*4, 0, false, false)
	if err != nil {
		return nil, err
	}
	for i := range rt {
		rt[i] /= 2
	}
	ctx := sampleOf("context_switch", "one direction of a futex ping-pong between two threads on one CPU", rt)
	ctx.CPUA, ctx.CPUB = a, a
	cal.Samples = append(cal.Samples, ctx)
	traced := Check() == nil
	how := "futex wake call to the wakee's return, timed in user space (no tracefs here: run as root for the kernel's own latency)"
	if traced {
		how = "sched_waking to switch-in, from a tracefs instance"
	}
	// With the trace, the remote wake-ups' latencies below are the
	// kernel's interval (sched_waking to switch-in); what a remote wake-up
	// adds to a local one is then measured against the same interval on
	// one CPU, not against the user-space hand-over (deriveCosts).
	var local Sample
	if traced {
		_, ll, _, err := pingPong(a, a, rounds, 0, false, true)
		if err != nil {
			return nil, err
		}
		local = sampleOf("wake_local", "wake-up latency on the waker's own CPU (a futex ping-pong on one CPU): "+how, ll)
		local.CPUA, local.CPUB = a, a
		cal.Samples = append(cal.Samples, local)
	}
	var idle []Sample
	var sendRemote []int64
	for _, gap := range []int64{5e3, 20e3, 100e3, 500e3, 2e6, 10e6, 20e6} {
		n := rounds
		if gap >= 2e6 {
			n = max(rounds/8, 20)
		}
		_, lat, send, err := pingPong(a, b, n, gap, false, traced)
		if err != nil {
			return nil, err
		}
		if gap == 100e3 {
			sendRemote = send
		}
		s := sampleOf(fmt.Sprintf("wake_idle_%gus", float64(gap)/1e3), "wake-up latency to the other CPU after it idled this long: "+how, lat)
		s.GapUS, s.CPUA, s.CPUB = float64(gap)/1e3, a, b
		idle = append(idle, s)
		cal.Samples = append(cal.Samples, s)
	}
	sendL := sampleOf("wake_send_local", "the waker's CPU time in a futex wake-up of a thread waiting on its own CPU (CLOCK_THREAD_CPUTIME_ID around the call)", sendLocal)
	sendL.CPUA, sendL.CPUB = a, a
	sendR := sampleOf("wake_send_idle_100us", "the waker's CPU time in a futex wake-up of a thread waiting on the other CPU, idle for 100 us (the same clock)", sendRemote)
	sendR.GapUS, sendR.CPUA, sendR.CPUB = 100, a, b
	cal.Samples = append(cal.Samples, sendL, sendR)
	_, lat, _, err := pingPong(a, b, rounds, 100e3, true, traced)
	if err != nil {
		return nil, err
	}
	busy := sampleOf("wake_busy", "wake-up latency to the other CPU while a nice-0 thread spins there (wake-up preemption included): "+how, lat)
	busy.GapUS, busy.CPUA, busy.CPUB = 100, a, b
	cal.Samples = append(cal.Samples, busy)
	spread, wake, err := timerSpread(a, b, max(rounds/2, 20), 10e6, traced)
	if err != nil {
		return nil, err
	}
	how = "the two threads' clock readings after the sleep (no tracefs here)"
	if traced {
		how = "their sched_waking events, from a tracefs instance"
	}
	timers := sampleOf("timer_spread", "how far apart two threads, one per CPU, are woken by timers due at the same instant every 10 ms: "+how, spread)
	timers.GapUS, timers.CPUA, timers.CPUB = 1e4, a, b
	cal.Samples = append(cal.Samples, timers)
	var timerWake Sample
	if len(wake) > 0 {
		timerWake = sampleOf("timer_wake", "wake-up latency of those timer wake-ups, each on its own CPU after 10 ms idle (the part of the exit after the interrupt handler): sched_waking to switch-in, from a tracefs instance", wake)
		timerWake.GapUS, timerWake.CPUA, timerWake.CPUB = 1e4, a, b
		cal.Samples = append(cal.Samples, timerWake)
	}
	cal.Costs = deriveCosts(ctx, local, idle, sendL, sendR, timers, timerWake)
	for _, pct := range placementWakerPcts {
		cal.Placements = append(cal.Placements, wakePlacement(a, b, max(rounds/2, placementWarmup+20), pct))
	}
	if d, err := KernelSchedDebug(); err == nil {
		cal.SchedDebug = d
	}
	return cal, nil
}

// pingPong runs rounds of: thread A (on cpu a) spins for gap, notes the time
// and wakes thread B (on cpu b) through a futex; B notes its wake-up
// latency and wakes A back. It returns A's round trips, B's latencies and
// A's CPU time in its futex wake-up call (ns). With spin, a third thread spins on cpu b all along. With traced,
// B's latencies are the kernel's (sched_waking to switch-in, the
// simulator's definition, read from a tracefs instance) instead of the
// user-space ones (futex call to return, which add both system calls).
//
// A traced probe whose trace holds under a quarter of its wake-ups is the
// instrument failing, not a measurement (a CI run of 7 December: "the
// trace showed 4 wake-ups of 100", once in the run; every other run of the
// same probe, before and after, held them all), so it is run again, at
// most twice, before the error is returned.
func pingPong(a, b, rounds int, gap int64, spin, traced bool) (rt, lat, send []int64, err error) {
	for try := 0; try < 3; try++ {
		rt, lat, send, err = pingPongOnce(a, b, rounds, gap, spin, traced)
		if !errors.Is(err, errTraceShort) {
			break
		}
	}
	return rt, lat, send, err
}

// errTraceShort: a traced probe's trace lost most of its events.
var errTraceShort = errors.New("the trace lost most of the probe's events")

func pingPongOnce(a, b, rounds int, gap int64, spin, traced bool) ([]int64, []int64, []int64, error) {
	var word, stop, goWord uint32
	var sent int64
	rt := make([]int64, rounds)
	lat := make([]int64, rounds)
	send := make([]int64, rounds)
	var wg, ready sync.WaitGroup
	errs := make([]error, 3)
	tids := make([]int, 3)
	start := func(i, cpu int, f func()) {
		startPinned(&wg, &ready, &goWord, []int{cpu}, &tids[i], func(err error) {
			if err != nil {
				errs[i] = err
				atomic.StoreUint32(&stop, 1)
				atomic.StoreUint32(&word, 1<<31)
				futexWake(&word, 10)
				return
			}
			f()
		})
	}
	if spin {
		start(2, b, func() {
			for atomic.LoadUint32(&stop) == 0 {
			}
		})
	}
	start(1, b, func() {
		for k := uint32(1); int(k) <= rounds; k++ {
			for {
				v := atomic.LoadUint32(&word)
				if v >= 2*k-1 {
					break
				}
				futexWait(&word, v)
			}
			if atomic.LoadUint32(&stop) != 0 {
				return
			}
			lat[k-1] = monoNow() - atomic.LoadInt64(&sent)
			atomic.StoreUint32(&word, 2*k)
			futexWake(&word, 1)
		}
	})
	start(0, a, func() {
		for k := uint32(1); int(k) <= rounds; k++ {
			if gap > 0 { // spin, so that only B's CPU idles, and for exactly gap
				for end := monoNow() + gap; monoNow() < end; {
				}
			}
			t0 := monoNow()
			atomic.StoreInt64(&sent, t0)
			atomic.StoreUint32(&word, 2*k-1)
			c0 := threadCPU()
			futexWake(&word, 1)
			send[k-1] = threadCPU() - c0
			for {
				v := atomic.LoadUint32(&word)
				if v >= 2*k {
					break
				}
				futexWait(&word, v)
			}
			if atomic.LoadUint32(&stop) != 0 {
				return
			}
			rt[k-1] = monoNow() - t0
		}
		atomic.StoreUint32(&stop, 1)
	})
	ready.Wait()
	var tr *tracer
	var terr error
	if traced {
		tr, terr = newTracer([]int{tids[1]}, 8192)
		if terr == nil {
			tr.mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
		}
	}
	t0 := monoNow()
	atomic.StoreUint32(&goWord, 1)
	futexWake(&goWord, 10)
	wg.Wait()
	t1 := monoNow()
	for _, e := range errs {
		if e != nil {
			if tr != nil {
				tr.close()
			}
			return nil, nil, nil, e
		}
	}
	if tr == nil {
		return rt, lat, send, terr
	}
	defer tr.close()
	tr.mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
	data, _, err := tr.stop()
	if err != nil {
		return nil, nil, nil, err
	}
	clk, err := interop.NewFtraceClock(data)
	if err != nil {
		return nil, nil, nil, err
	}
	var klat []int64
	waking := int64(-1)
	err = interop.ParseFtrace(data, interop.RepairFtrace(nil, func(e *interop.FtraceEvent) error {
		ts := clk.NS(e.TS)
		if ts < t0 || ts > t1 {
			return nil
		}
		switch {
		case e.Kind == interop.FtraceWaking && e.TPID == tids[1]:
			waking = ts
		case e.Kind == interop.FtraceSwitch && e.NextPID == tids[1] && waking >= 0:
			klat = append(klat, ts-waking)
			waking = -1
		}
		return nil
	}))
	if err != nil {
		return nil, nil, nil, err
	}
	if len(klat) < rounds/4 {
		return nil, nil, nil, fmt.Errorf("the trace showed %d wake-ups of %d: %w", len(klat), rounds, errTraceShort)
	}
	return rt, klat, send, nil
}

// timerSpread runs rounds of: two threads, one pinned on cpu a and one on
// cpu b, each sleep to the same absolute CLOCK_MONOTONIC deadline, one
// period after the last, so that both CPUs idle until their timers expire
// at the same instant. It returns, per round, how far apart the two
// threads were woken: the two sched_waking events (the timer interrupt's
// hrtimer_wakeup(), each on its own CPU) with traced, else the two
// threads' own clock readings after the sleep. With traced it also returns
// each wake-up's latency, sched_waking to the thread's switch-in: the part
// of its idle CPU's exit that follows the interrupt's handler (the idle
// loop's way out: tick_nohz_idle_exit(), schedule_idle()).
func timerSpread(a, b, rounds int, period int64, traced bool) (spread, wake []int64, err error) {
	var goWord uint32
	var wg, ready sync.WaitGroup
	errs := make([]error, 2)
	tids := make([]int, 2)
	woke := [2][]int64{make([]int64, rounds), make([]int64, rounds)}
	var t0 int64
	for i, cpu := range []int{a, b} {
		startPinned(&wg, &ready, &goWord, []int{cpu}, &tids[i], func(err error) {
			if errs[i] = err; err != nil {
				return
			}
			for k := range rounds {
				sleepUntil(t0 + int64(k+1)*period)
				woke[i][k] = monoNow()
			}
		})
	}
	ready.Wait()
	var tr *tracer
	var terr error
	if traced {
		if tr, terr = newTracer(tids, 4096); terr == nil {
			defer tr.close()
			tr.mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
		}
	}
	t0 = monoNow() + 5e6
	atomic.StoreUint32(&goWord, 1)
	futexWake(&goWord, 10)
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return nil, nil, e
		}
	}
	if tr == nil {
		d := make([]int64, rounds)
		for k := range d {
			d[k] = abs64(woke[0][k] - woke[1][k])
		}
		return d, nil, terr
	}
	tr.mark("schedsim clock " + strconv.FormatInt(monoNow(), 10))
	data, _, err := tr.stop()
	if err != nil {
		return nil, nil, err
	}
	clk, err := interop.NewFtraceClock(data)
	if err != nil {
		return nil, nil, err
	}
	// Each round's first sched_waking of each thread after its deadline,
	// and the thread's first switch-in after that.
	waking := [2][]int64{make([]int64, rounds), make([]int64, rounds)}
	pending := [2]int{-1, -1}
	err = interop.ParseFtrace(data, interop.RepairFtrace(nil, func(e *interop.FtraceEvent) error {
		ts := clk.NS(e.TS)
		for i, tid := range tids {
			switch {
			case e.Kind == interop.FtraceWaking && e.TPID == tid:
				k := int((ts-t0)/period) - 1 // the round whose deadline is the last before ts
				if k >= 0 && k < rounds && waking[i][k] == 0 {
					waking[i][k], pending[i] = ts, k
				}
			case e.Kind == interop.FtraceSwitch && e.NextPID == tid && pending[i] >= 0:
				wake = append(wake, ts-waking[i][pending[i]])
				pending[i] = -1
			}
		}
		return nil
	}))
	if err != nil {
		return nil, nil, err
	}
	var d []int64
	for k := range rounds {
		if waking[0][k] > 0 && waking[1][k] > 0 {
			d = append(d, abs64(waking[0][k]-waking[1][k]))
		}
	}
	if len(d) < rounds/2 {
		return nil, nil, fmt.Errorf("the trace showed both timer wake-ups in %d rounds of %d", len(d), rounds)
	}
	return d, wake, nil
}

// startPinned runs f on a new OS thread pinned to cpus (its tid in *tid),
// counted in wg: the thread says it is ready (ready.Done) once pinned,
// waits until *goWord is set (the start barrier, released with a futex
// wake), then runs f with the pinning's error.
func startPinned(wg, ready *sync.WaitGroup, goWord *uint32, cpus []int, tid *int, f func(err error)) {
	wg.Add(1)
	ready.Add(1)
	go func() {
		runtime.LockOSThread()
		defer wg.Done()
		*tid = gettid()
		err := setAffinity(*tid, cpus)
		ready.Done()
		for atomic.LoadUint32(goWord) == 0 {
			futexWait(goWord, 0)
		}
		f(err)
	}()
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// wakePlacement runs the wake-up placement probe (Placement) with a waker
// of wakerPct % on cpu a and a wakee allowed on a and b, for rounds
// periods. The wakee reads the CPU it runs on with getcpu() as it returns
// from its futex wait: where it first ran after the wake-up, which is
// where try_to_wake_up() put it unless a balancer moved it before it ran
// (the waker goes on for only 100 us). A round in which the wakee was not
// asleep when woken (it had not finished its previous run) is not
// counted.
func wakePlacement(a, b, rounds, wakerPct int) Placement {
	p := Placement{Name: fmt.Sprintf("wake_placement_%d", wakerPct), WakerPct: wakerPct, CPUA: a, CPUB: b,
		About: fmt.Sprintf("of the wake-ups of a task allowed on both CPUs by a waker pinned to cpu %d that runs %d %% of every %d ms, those after which the wakee first ran on the waker's CPU while cpu %d had nothing to run (getcpu() in the wakee)",
			a, wakerPct, placementPeriod/1e6, b)}
	if sysGetcpu == 0 {
		p.Failed = "getcpu: no system call number for " + runtime.GOARCH
		return p
	}
	var seq, stop, goWord uint32
	var wg, ready sync.WaitGroup
	var wakerErr, wakeeErr error
	var tids [2]int
	onA := make([]int8, rounds) // 1: on a, 0: elsewhere, -1: not counted (a round the wakee missed too)
	for k := range onA {
		onA[k] = -1
	}
	var t0 int64
	busy := placementPeriod * int64(wakerPct) / 100
	startPinned(&wg, &ready, &goWord, []int{a}, &tids[0], func(err error) {
		if wakerErr = err; err != nil {
			atomic.StoreUint32(&stop, 1)
			atomic.StoreUint32(&seq, 1<<31)
			futexWake(&seq, 1)
			return
		}
		for k := range rounds {
			sleepUntil(t0 + int64(k)*placementPeriod)
			runCPU(busy, &stop)
			atomic.StoreUint32(&seq, uint32(k+1))
			futexWake(&seq, 1)
			runCPU(placementAfter, &stop)
		}
	})
	startPinned(&wg, &ready, &goWord, []int{a, b}, &tids[1], func(err error) {
		wakeeErr = err
		last := uint32(0)
		for {
			slept := false
			for atomic.LoadUint32(&seq) == last {
				futexWait(&seq, last)
				slept = true
			}
			last = atomic.LoadUint32(&seq)
			if last > uint32(rounds) {
				return
			}
			k := int(last) - 1
			switch {
			case !slept:
			case getcpu() == a:
				onA[k] = 1
			default:
				onA[k] = 0
			}
			if int(last) == rounds {
				return
			}
			runCPU(placementWakee, &stop)
		}
	})
	ready.Wait()
	t0 = monoNow() + 5e6
	atomic.StoreUint32(&goWord, 1)
	futexWake(&goWord, 10)
	wg.Wait()
	if err := errors.Join(wakerErr, wakeeErr); err != nil {
		p.Failed = err.Error()
		return p
	}
	for _, v := range onA[min(placementWarmup, rounds):] {
		if v >= 0 {
			p.Rounds++
			p.OnWakerCPU += int(v)
		}
	}
	return p
}
