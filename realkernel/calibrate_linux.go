//go:build linux

package realkernel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Calibrate measures this machine with thread ping-pongs timed from user
// space (no tracing, so it needs no root): a futex hand-over between two
// threads on one CPU, and wake-up latencies from one CPU to another after
// the target CPU idled for increasing lengths (0 to 20 ms), and to a CPU
// that is busy with a spinning thread. It needs two online CPUs.
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
	rt, _, err := pingPong(a, a, rounds*4, 0, false)
	if err != nil {
		return nil, err
	}
	for i := range rt {
		rt[i] /= 2
	}
	ctx := sampleOf("context_switch", "one direction of a futex ping-pong between two threads on one CPU", rt)
	ctx.CPUA, ctx.CPUB = a, a
	cal.Samples = append(cal.Samples, ctx)
	var idle []Sample
	for _, gap := range []int64{0, 20e3, 100e3, 500e3, 2e6, 10e6, 20e6} {
		n := rounds
		if gap >= 2e6 {
			n = max(rounds/8, 20)
		}
		_, lat, err := pingPong(a, b, n, gap, false)
		if err != nil {
			return nil, err
		}
		s := sampleOf(fmt.Sprintf("wake_idle_%gus", float64(gap)/1e3), "wake-up latency (futex wake to the wakee running) to the other CPU after it idled this long", lat)
		s.GapUS, s.CPUA, s.CPUB = float64(gap)/1e3, a, b
		idle = append(idle, s)
		cal.Samples = append(cal.Samples, s)
	}
	_, lat, err := pingPong(a, b, rounds, 100e3, true)
	if err != nil {
		return nil, err
	}
	busy := sampleOf("wake_busy", "wake-up latency to the other CPU while a nice-0 thread spins there (wake-up preemption included)", lat)
	busy.GapUS, busy.CPUA, busy.CPUB = 100, a, b
	cal.Samples = append(cal.Samples, busy)
	cal.Costs = deriveCosts(ctx, idle)
	return cal, nil
}

// pingPong runs rounds of: thread A (on cpu a) sleeps gap, notes the time
// and wakes thread B (on cpu b) through a futex; B notes its wake-up
// latency and wakes A back. It returns A's round trips and B's latencies
// (ns). With spin, a third thread spins on cpu b all along.
func pingPong(a, b, rounds int, gap int64, spin bool) ([]int64, []int64, error) {
	var word, stop uint32
	var sent int64
	rt := make([]int64, rounds)
	lat := make([]int64, rounds)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	start := func(i, cpu int, f func()) {
		wg.Add(1)
		go func() {
			runtime.LockOSThread()
			defer wg.Done()
			if err := setAffinity(gettid(), []int{cpu}); err != nil {
				errs[i] = err
				atomic.StoreUint32(&stop, 1)
				atomic.StoreUint32(&word, 1<<31)
				futexWake(&word, 10)
				return
			}
			f()
		}()
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
			if gap > 0 {
				sleepUntil(monoNow() + gap)
			}
			t0 := monoNow()
			atomic.StoreInt64(&sent, t0)
			atomic.StoreUint32(&word, 2*k-1)
			futexWake(&word, 1)
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
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return nil, nil, e
		}
	}
	return rt, lat, nil
}
