package sim

import (
	"math"
	"slices"
	"testing"
)

// timerRun runs four tasks, each running 3 ms of every 10 ms (timers), on
// two CPUs of one LLC (v6.17, no PELT history at fork, so that
// select_idle_sibling() may scan) for 200 ms with the timer interrupts
// spread by spread, and returns the timer wake-ups, which are all the
// wake-ups there are.
func timerRun(t *testing.T, seed uint64, spread int64) []Event {
	return timerRunEach(t, seed, spread, 0)
}

// timerRunEach is timerRun with each of an interrupt's wake-ups taking
// each (Costs.TimerWakeup). The CPUs idle in POLL only, so that no C-state
// exit delays an interrupt (TestTimerIRQAfterIdleExit has them).
func timerRunEach(t *testing.T, seed uint64, spread, each int64) []Event {
	t.Helper()
	m := machine(1, 1, 1, 2, 1, NumberLinear)
	m.Costs.TimerIRQSpread = spread
	m.Costs.TimerWakeup = each
	m.Costs.IdleStates = []IdleState{{Name: "POLL", Polls: true}}
	cfg := &Config{Seed: seed, Duration: 200e6, Machine: m, Policy: Policy{Base: BaseV617, NewTaskLoad: NewTaskLoadZero},
		Tasks: []TaskGroup{{Name: "duty", Count: 4, Program: []Step{{Op: OpRun, Dur: 3e6}, {Op: OpTimer, Dur: 10e6}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	s.RunUntil(cfg.Duration)
	var wakes []Event
	for _, e := range s.TakeEvents(nil) {
		if e.Kind == EvWakeup {
			wakes = append(wakes, e)
		}
	}
	if len(wakes) < 70 {
		t.Fatalf("seed %d: %d wake-ups in 200 ms, want about 80", seed, len(wakes))
	}
	return wakes
}

// interrupts groups a run's timer wake-ups by expiry (the multiple of
// 10 ms before them) and by the CPU whose timer it was (the wakee's prev):
// at[T][c] lists the times of c's wake-ups for T.
func interrupts(wakes []Event) map[int64]map[int16][]int64 {
	at := map[int64]map[int16][]int64{}
	for _, e := range wakes {
		T := e.T / 10e6 * 10e6
		if at[T] == nil {
			at[T] = map[int16][]int64{}
		}
		at[T][e.From] = append(at[T][e.From], e.T)
	}
	return at
}

// TestTimerIRQSpreadOff: without a spread every timer is woken at its
// instant (the runs of before the spread existed), on CPUs that need no
// exit from a C-state.
func TestTimerIRQSpreadOff(t *testing.T) {
	for _, e := range timerRun(t, 1, 0) {
		if e.T%10e6 != 0 {
			t.Errorf("task %d woken at %d ns, not at its timer's expiry", e.Task, e.T)
		}
	}
}

// TestTimerIRQSpreadInterrupts: with a spread of 20 us, each CPU wakes all
// its timers of one expiry together, at one instant at most 20 us after it
// (hrtimer_interrupt() runs every expired timer of its CPU), and the two
// CPUs' interrupts come apart and in either order.
func TestTimerIRQSpreadInterrupts(t *testing.T) {
	const spread = 20000
	apart, first := 0, map[int16]int{}
	periods := 0
	for T, cpus := range interrupts(timerRun(t, 1, spread)) {
		var when [2]int64
		for c, ts := range cpus {
			for _, x := range ts {
				if x != ts[0] {
					t.Errorf("expiry %d ms: cpu%d woke its timers at %v, want one interrupt", T/1e6, c, ts)
				}
			}
			if d := ts[0] - T; d < 0 || d > spread {
				t.Errorf("expiry %d ms: cpu%d's interrupt %d ns after it, want 0-%d", T/1e6, c, d, spread)
			}
			when[c] = ts[0]
		}
		if len(cpus) == 2 {
			periods++
			if when[0] != when[1] {
				apart++
				if when[0] < when[1] {
					first[0]++
				} else {
					first[1]++
				}
			}
		}
	}
	if periods < 15 || apart < periods*9/10 || first[0] == 0 || first[1] == 0 {
		t.Errorf("%d expiries with timers on both CPUs, %d of them apart, first: %v; want most apart and both orders", periods, apart, first)
	}
}

// TestTimerWakeup: each wake-up an interrupt makes takes
// Costs.TimerWakeup (hrtimer_wakeup() -> try_to_wake_up(), one expired
// timer after another), so an interrupt's k-th wake-up comes k times that
// after its first; with no spread the first is at the expiry. Traced on
// this project's guest (docs/real-kernel.md, four 30 % tasks): 3.2 us from
// a CPU's first timer wake-up to its second, p50 of 601.
func TestTimerWakeup(t *testing.T) {
	const each = 3000
	seen := 0
	for T, cpus := range interrupts(timerRunEach(t, 1, 0, each)) {
		for c, ts := range cpus {
			for k, x := range ts {
				if x != T+int64(k)*each {
					t.Errorf("expiry %d ms: cpu%d's wake-ups at %v, want %d + k*%d ns", T/1e6, c, ts, T, each)
					break
				}
			}
			if len(ts) > 1 {
				seen++
			}
		}
	}
	if seen < 10 {
		t.Errorf("%d interrupts woke more than one timer, want most", seen)
	}
}

// TestTimerIRQSpreadRace: a wakee woken by its CPU's interrupt after
// another (its prev busy with that one) moves to the other CPU only while
// that CPU's own interrupt for the expiry has not come (so it is still
// idle): the race the spread decides. With 20 us it happens in these runs;
// the CPU that lost the race then has its own wakees come to a busy
// machine.
func TestTimerIRQSpreadRace(t *testing.T) {
	moves := 0
	for seed := uint64(1); seed <= 5; seed++ {
		wakes := timerRun(t, seed, 20000)
		at := interrupts(wakes)
		seen := map[int64]map[int16]int{} // wakees already woken per expiry and CPU
		for _, e := range wakes {
			T := e.T / 10e6 * 10e6
			if seen[T] == nil {
				seen[T] = map[int16]int{}
			}
			c := e.From
			if e.CPU != c && seen[T][c] > 0 {
				moves++
				if other, ok := at[T][e.CPU]; ok && other[0] <= e.T {
					t.Errorf("seed %d, expiry %d ms: task %d moved cpu%d -> cpu%d at %d ns, after cpu%d's own interrupt (%d ns)",
						seed, T/1e6, e.Task, c, e.CPU, e.T, e.CPU, other[0])
				}
			}
			seen[T][c]++
		}
	}
	if moves == 0 {
		t.Error("no wakee moved to the other CPU behind its CPU's first wakee in 5 runs of 200 ms")
	}
}

// tickRun runs two hogs pinned to each of two CPUs (HZ 1000, v6.17's 1.4 ms
// slice: each pair takes turns at the tick) for 100 ms with the timer
// interrupts spread by spread, and returns the switches from one hog to
// another, which only a tick makes.
func tickRun(t *testing.T, seed uint64, spread int64) []Event {
	t.Helper()
	m := machine(1, 1, 1, 2, 1, NumberLinear)
	m.Costs.TimerIRQSpread = spread
	var on0, on1 CPUMask
	on0.Set(0)
	on1.Set(1)
	hog := []Step{{Op: OpRun, Dur: 50e6}}
	cfg := &Config{Seed: seed, Duration: 100e6, Machine: m, Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{{Name: "a", Count: 2, CPUs: on0, Program: hog}, {Name: "b", Count: 2, CPUs: on1, Program: hog}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	s.RunUntil(cfg.Duration)
	var sw []Event
	for _, e := range s.TakeEvents(nil) {
		if e.Kind == EvSwitch && e.Task >= 0 && e.Arg >= 0 && e.T > 0 {
			sw = append(sw, e)
		}
	}
	if len(sw) < 60 {
		t.Fatalf("seed %d: %d switches between hogs in 100 ms, want one about every 2 ms on each CPU", seed, len(sw))
	}
	return sw
}

// TestTickIRQSpread: a CPU's tick comes in its timer interrupt for the
// jiffy (tick_sched_timer() is one of the hrtimers hrtimer_interrupt()
// runs), so with a spread of 20 us each CPU's tick, and the switch it
// makes, is 0-20 us after the jiffy, and the two CPUs' ticks of one jiffy
// come in either order; without a spread every tick is at its jiffy, the
// CPUs in order (the runs of before).
func TestTickIRQSpread(t *testing.T) {
	for _, e := range tickRun(t, 1, 0) {
		if e.T%1e6 != 0 {
			t.Fatalf("no spread: a switch at %d ns, not at a jiffy", e.T)
		}
	}
	const spread = 20000
	at := map[int64]map[int16]int64{} // jiffy -> CPU -> the switch's time
	for _, e := range tickRun(t, 1, spread) {
		j := e.T / 1e6
		if d := e.T - j*1e6; d > spread {
			t.Errorf("a switch on cpu%d %d ns after the jiffy, want 0-%d", e.CPU, d, spread)
		}
		if at[j] == nil {
			at[j] = map[int16]int64{}
		}
		at[j][e.CPU] = e.T
	}
	first := map[int16]int{}
	for _, c := range at {
		if len(c) == 2 && c[0] != c[1] {
			if c[0] < c[1] {
				first[0]++
			} else {
				first[1]++
			}
		}
	}
	if first[0] < 3 || first[1] < 3 {
		t.Errorf("jiffies where both CPUs switched, by the CPU whose tick came first: %v; want both orders", first)
	}
}

// dutyOn runs one task, 1 ms of every 10 ms (a timer), on one CPU (v6.17,
// the default costs), with a hog beside it when hog is set, and returns
// its wake-ups and switch-ins and the run.
func dutyOn(t *testing.T, hog bool) (wakes, ins []Event, s *Sim) {
	t.Helper()
	return dutyOnWith(t, hog, 0)
}

// dutyOnWith is dutyOn with Costs.IdleReturn set to idleReturn.
func dutyOnWith(t *testing.T, hog bool, idleReturn int64) (wakes, ins []Event, s *Sim) {
	t.Helper()
	m := machine(1, 1, 1, 1, 1, NumberLinear)
	m.Costs.JitterPct = 0
	m.Costs.IdleReturn = idleReturn
	tasks := []TaskGroup{{Name: "duty", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpTimer, Dur: 10e6}}}}
	if hog {
		tasks = append(tasks, TaskGroup{Name: "hog", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 1e9}}})
	}
	s, err := New(&Config{Seed: 1, Duration: 95e6, Machine: m, Policy: Policy{Base: BaseV617}, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	s.RunUntil(95e6)
	for _, e := range s.TakeEvents(nil) {
		switch {
		case e.Kind == EvWakeup && e.Task == 0:
			wakes = append(wakes, e)
		case e.Kind == EvSwitch && e.Task == 0:
			ins = append(ins, e)
		}
	}
	if len(wakes) < 8 {
		t.Fatalf("%d wake-ups of the duty task in 95 ms, want 9", len(wakes))
	}
	return wakes, ins, s
}

// TestTimerIRQAfterIdleExit: a timer's interrupt on an idle CPU runs its
// handler, and so try_to_wake_up() and its sched_waking, only once the CPU
// has left its C-state. The duty task sleeps 9 ms of every 10, and its CPU
// is then in C6 (800 us residency, 200 us exit; v6.17's menu has no load
// multiplier): every wake-up comes
// 200 us after its expiry, the task runs at once on the CPU the interrupt
// woke (no second exit: a wake-up latency of 0), and the exits charged
// are 200 us a wake-up, and one more for the fork (the CPU had idled since
// boot). Beside a hog, the CPU is busy when the timer
// expires: the wake-up comes at the expiry.
func TestTimerIRQAfterIdleExit(t *testing.T) {
	const exit = 200_000 // C6 (DefaultCosts)
	wakes, ins, s := dutyOn(t, false)
	for i, e := range wakes {
		if e.T%10e6 != exit {
			t.Errorf("wake-up at %d ns: want its expiry + %d ns (C6's exit)", e.T, exit)
		}
		if i+1 < len(ins) && ins[i+1].T != e.T {
			t.Errorf("woken at %d ns, ran at %d: want at once (the interrupt left the CPU awake)", e.T, ins[i+1].T)
		}
	}
	if got, want := s.Metrics().Costs.IdleExitMS, float64(len(wakes)+1)*exit/1e6; got != want {
		t.Errorf("idle exits charged %.3f ms, want %.3f (one C6 exit a wake-up, one for the fork)", got, want)
	}
	if p50 := s.Metrics().WakeupLatencyUS.P50; p50 != 0 {
		t.Errorf("wake-up latency p50 %.2f us, want 0 (sched_waking comes after the exit)", p50)
	}
	wakes, _, _ = dutyOn(t, true)
	for _, e := range wakes {
		if e.T%10e6 != 0 {
			t.Errorf("beside a hog: wake-up at %d ns, want at its expiry (the CPU is busy)", e.T)
		}
	}
}

// TestIdleReturn: the part of an idle CPU's exit that follows its own
// interrupt's handler (Costs.IdleReturn) puts a timer's sched_waking that
// much before the end of the exit, and the wakee, staying on its CPU, runs
// at the end: the kernel's hrtimer_wakeup() runs in the interrupt, and the
// idle loop then leaves (tick_nohz_idle_exit(), schedule_idle()) before
// the wakee's switch-in. The whole exit, and what it is charged, are as
// without it; more than the exit is the exit.
func TestIdleReturn(t *testing.T) {
	const exit = 200_000 // C6 (DefaultCosts)
	for _, ret := range []int64{50_000, exit, 1e6} {
		wakes, ins, s := dutyOnWith(t, false, ret)
		part := min(ret, exit)
		for i, e := range wakes {
			if e.T%10e6 != exit-part {
				t.Errorf("IdleReturn %d: wake-up at %d ns, want its expiry + %d ns (C6's exit less the part after the handler)", ret, e.T, exit-part)
			}
			if i+1 < len(ins) && ins[i+1].T != e.T+part {
				t.Errorf("IdleReturn %d: woken at %d ns, ran at %d: want %d ns later (the exit's end)", ret, e.T, ins[i+1].T, part)
			}
		}
		if got, want := s.Metrics().Costs.IdleExitMS, float64(len(wakes)+1)*exit/1e6; got != want {
			t.Errorf("IdleReturn %d: idle exits charged %.3f ms, want %.3f (one C6 exit a wake-up, one for the fork)", ret, got, want)
		}
		// (The metric's histogram holds a value to 1 %.)
		if p50, want := s.Metrics().WakeupLatencyUS.P50, float64(part)/1e3; math.Abs(p50-want) > want/100 {
			t.Errorf("IdleReturn %d: wake-up latency p50 %.2f us, want %.2f", ret, p50, want)
		}
	}
	// A CPU that runs has no exit to share: the hog's CPU wakes the duty
	// task at its expiry, as without the cost.
	wakes, _, _ := dutyOnWith(t, true, 50_000)
	for _, e := range wakes {
		if e.T%10e6 != 0 {
			t.Errorf("beside a hog: wake-up at %d ns, want at its expiry", e.T)
		}
	}
	// A wake-up sent by another CPU waits for the whole exit: the waker
	// runs on CPU 0 every 10 ms and wakes a task pinned to CPU 1, idle
	// between; the wakee's latencies (the IPI's and the exit of the state
	// CPU 1 is in) are the same with or without the cost.
	lat := func(ret int64) (lat []int64) {
		m := machine(1, 1, 1, 2, 1, NumberLinear)
		m.Costs.JitterPct, m.Costs.IdleReturn = 0, ret
		tasks := []TaskGroup{
			{Name: "waker", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpWake, Target: 1}, {Op: OpTimer, Dur: 10e6}}},
			{Name: "wakee", Count: 1, CPUs: MaskOf(1), Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 1e6}}},
		}
		s, err := New(&Config{Seed: 1, Duration: 95e6, Machine: m, Policy: Policy{Base: BaseV617}, Tasks: tasks})
		if err != nil {
			t.Fatal(err)
		}
		s.SetRecording(true)
		s.RunUntil(95e6)
		woken := int64(-1)
		for _, e := range s.TakeEvents(nil) {
			switch {
			case e.Kind == EvWakeup && e.Task == 1:
				woken = e.T
			case e.Kind == EvSwitch && e.Task == 1 && woken >= 0:
				lat = append(lat, e.T-woken)
				woken = -1
			}
		}
		return lat
	}
	if a, b := lat(0), lat(50_000); len(a) < 8 || !slices.Equal(a, b) || slices.Min(a) <= 0 {
		t.Errorf("a wake-up by another CPU: latencies %v ns without IdleReturn, %v with it; want the same, 9 of them, each the IPI's and the exit's", a, b)
	}
}

// TestIRQExitShared: a wake-up that lands on a CPU while a timer interrupt
// is bringing it out of C6 waits only for what is left of that exit, and
// the core's flush is counted once.
func TestIRQExitShared(t *testing.T) {
	m := machine(1, 1, 1, 2, 1, NumberLinear)
	tasks := []TaskGroup{{Name: "once", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpWait}}}}
	s, err := New(&Config{Seed: 1, Duration: 10e6, Machine: m, Policy: Policy{Base: BaseV617}, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(5e6) // CPU 1 has idled 5 ms: in C6
	rq := s.cpus[1]
	flushes := s.cpus[s.topo.coreCPUs[1][0]].coreFlushes
	before := s.m.cost.idleExit
	if got := s.irqExitFor(rq); got != 200_000 {
		t.Fatalf("interrupt's exit %d ns, want C6's 200000", got)
	}
	if got := s.irqExitFor(rq); got != 200_000 {
		t.Fatalf("second timer of the instant: exit %d ns, want the same 200000", got)
	}
	s.RunUntil(5e6 + 50_000)
	if _, exit := s.leaveIdle(rq, s.now-rq.idleSince, 0); exit != 150_000 {
		t.Errorf("wake-up 50 us into the exit waits %d ns, want the 150000 left", exit)
	}
	if got := s.cpus[s.topo.coreCPUs[1][0]].coreFlushes - flushes; got != 1 {
		t.Errorf("core flushes counted %d, want 1", got)
	}
	if got := s.m.cost.idleExit - before; got != 200_000 {
		t.Errorf("idle exits charged %d ns, want the interrupt's 200000 (leaveIdle's caller charges its own)", got)
	}
}
