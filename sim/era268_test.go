package sim

import (
	"fmt"
	"testing"
)

// The v2.6.8 era, worked by hand from 2.6.8's kernel/sched.c and Con
// Kolivas' staircase patch (docs/era-2.6.8.md). HZ=1000 throughout: a
// jiffy is 1 ms.

func cfg268(ncpu, nodes int, sched CPUScheduler, groups []TaskGroup) *Config {
	m := machine(nodes, 1, 1, ncpu/nodes, 1, NumberLinear)
	m.Costs = Costs{} // no cost model: ticks and slices stay exact
	return &Config{Seed: 1, Duration: 1e9, Machine: m,
		Policy: Policy{Base: BaseV268, CPUScheduler: sched}, Tasks: groups}
}

func hogs(n int, nice int) []TaskGroup {
	return []TaskGroup{{Name: "hog", Count: n, Nice: nice, Program: []Step{{Op: OpRun, Dur: 1e12}}}}
}

func new268(t *testing.T, cfg *Config) *Sim {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runTo steps s to t, checking the invariants after every event.
func runTo(t *testing.T, s *Sim, until int64) {
	t.Helper()
	for s.NextEventTime() >= 0 && s.NextEventTime() <= until {
		s.Step()
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("at %d ns: %v", s.Now(), err)
		}
	}
	s.RunUntil(until)
}

// TestTimesliceAndPriority268: task_timeslice() and effective_prio().
//
// BASE_TIMESLICE = MIN + (MAX-MIN) * (MAX_PRIO-1 - static_prio) / 39 with
// MIN = 10, MAX = 200 jiffies: nice 0 (static 120): 10 + 190*19/39 = 10 +
// 92 = 102; nice -20 (100): 10 + 190*39/39 = 200; nice 19 (139): 10.
// MAX_BONUS = 10, AVG_TIMESLICE = 102, MAX_SLEEP_AVG = 1020 jiffies.
// CURRENT_BONUS = NS_TO_JIFFIES(sleep_avg) * 10 / 1020; prio = static -
// (bonus - 5): sleep_avg 0 → 125; 510 ms → bonus 5 → 120; 1020 ms → bonus 10
// → 115. TASK_INTERACTIVE (nice 0, DELTA = 0*10/40 + 2 = 2): prio <= 118,
// i.e. bonus >= 7, sleep_avg >= 714 ms (714*10/1020 = 7; 713 gives 6).
//
// recalc_task_prio(): INTERACTIVE_SLEEP(nice 0) = 1020 * (5+2+1)/10 - 1 =
// 815 jiffies. A task with sleep_avg 0 that slept 100 ms (< 815) gets
// 100 ms * (MAX_BONUS - 0) = 1000 ms: bonus 1000*10/1020 = 9, prio 116.
// One that slept 900 ms (> 815) gets MAX_SLEEP_AVG - AVG_TIMESLICE = 918
// ms: bonus 9, prio 116, and a credit.
func TestTimesliceAndPriority268(t *testing.T) {
	s := new268(t, cfg268(1, 1, CPUSchedO1, hogs(1, 0)))
	p := &Task{}
	for _, c := range []struct {
		static int
		want   int64
	}{{120, 102}, {100, 200}, {139, 10}} {
		p.o1.staticPrio = c.static
		if got := s.taskTimeslice(p); got != c.want {
			t.Errorf("task_timeslice(static %d) = %d, want %d", c.static, got, c.want)
		}
	}
	if s.o1p.maxSleepAvg != 1020 || s.o1p.avgTS != 102 {
		t.Fatalf("MAX_SLEEP_AVG %d AVG_TIMESLICE %d, want 1020 102", s.o1p.maxSleepAvg, s.o1p.avgTS)
	}
	p.o1.staticPrio = 120
	for _, c := range []struct {
		sleepMS int64
		prio    int
		inter   bool
	}{{0, 125, false}, {510, 120, false}, {713, 119, false}, {714, 118, true}, {1020, 115, true}} {
		p.o1.sleepAvg = c.sleepMS * 1e6
		p.o1.prio = s.effectivePrioO1(p)
		if p.o1.prio != c.prio || taskInteractive(p) != c.inter {
			t.Errorf("sleep_avg %d ms: prio %d interactive %v, want %d %v", c.sleepMS, p.o1.prio, taskInteractive(p), c.prio, c.inter)
		}
	}
	if got := s.interactiveSleep(p); got != 815e6 {
		t.Errorf("INTERACTIVE_SLEEP = %d, want 815 ms", got)
	}
	for _, c := range []struct {
		slept, avg int64
		credit     int
	}{{100, 1000, 0}, {900, 918, 1}} {
		q := &Task{}
		q.o1.staticPrio = 120
		q.o1.timestamp = 0
		s.recalcTaskPrioO1(q, c.slept*1e6)
		if q.o1.sleepAvg != c.avg*1e6 || q.o1.prio != 116 || q.o1.credit != c.credit {
			t.Errorf("slept %d ms: sleep_avg %d prio %d credit %d, want %d ms 116 %d", c.slept, q.o1.sleepAvg, q.o1.prio, q.o1.credit, c.avg, c.credit)
		}
	}
}

// TestTimesliceGranularity268: TIMESLICE_GRANULARITY(p) = MIN_TIMESLICE *
// (1 << (((MAX_BONUS - CURRENT_BONUS) ?: 1) - 1)) * num_online_cpus().
// A fully interactive task (bonus 10: factor 1) on 16 CPUs: 10*1*16 = 160
// jiffies, longer than a nice-0 slice (102): the requeue can never happen
// (Con: "effectively disabled" above 4 CPUs). On 4 CPUs: 40; bonus 9: 10*1*4
// = 40 as well ((10-9)=1); bonus 8: 10*2*4 = 80.
func TestTimesliceGranularity268(t *testing.T) {
	p := &Task{}
	p.o1.staticPrio = 120
	for _, c := range []struct {
		ncpu    int
		sleepMS int64
		want    int64
	}{{16, 1020, 160}, {4, 1020, 40}, {4, 918, 40}, {4, 816, 80}} {
		s := new268(t, cfg268(c.ncpu, 1, CPUSchedO1, hogs(1, 0)))
		p.o1.sleepAvg = c.sleepMS * 1e6
		if got := s.timesliceGranularity(p); got != c.want {
			t.Errorf("%d CPUs, sleep_avg %d ms: granularity %d, want %d", c.ncpu, c.sleepMS, got, c.want)
		}
	}
}

// TestO1ArraySwap: two nice-0 CPU hogs on one CPU. Forked by the spawner,
// each gets (102+1)>>1 = 51 jiffies and sleep_avg 0 (prio 125, not
// interactive). The first runs from t=0; the tick at 51 ms takes its slice
// to 0: it gets a fresh 102-jiffy slice and, not interactive, goes to the
// expired array; the second runs 51 jiffies to t=102 ms and expires too;
// active is then empty and schedule() swaps the arrays (sched_switch 1):
// the first task, at the head of the new active array, runs again until
// t=204 ms, when it expires into the (new) expired array, and so on.
func TestO1ArraySwap(t *testing.T) {
	s := new268(t, cfg268(1, 1, CPUSchedO1, hogs(2, 0)))
	rq := s.cpus[0]
	a, b := s.tasks[0], s.tasks[1]
	runTo(t, s, 50_500_000)
	if rq.curr != a || a.o1.timeSlice != 1 || rq.o1.schedSwitch != 0 {
		t.Fatalf("t=50.5ms: curr %v slice %d switches %d, want hog/0 with 1 jiffy left, no swap", rq.curr.info.Name, a.o1.timeSlice, rq.o1.schedSwitch)
	}
	runTo(t, s, 51_500_000)
	if rq.curr != b || a.o1.arr != 1-rq.o1.active || a.o1.timeSlice != 102 || rq.o1.expiredTimestamp != 51 {
		t.Fatalf("t=51.5ms: curr %s, hog/0 in array %d (active %d) slice %d, expired_timestamp %d", rq.curr.info.Name, a.o1.arr, rq.o1.active, a.o1.timeSlice, rq.o1.expiredTimestamp)
	}
	runTo(t, s, 101_500_000)
	if rq.o1.schedSwitch != 0 {
		t.Fatalf("swapped before the active array emptied")
	}
	runTo(t, s, 102_500_000)
	if rq.o1.schedSwitch != 1 || rq.curr != a || b.o1.arr != a.o1.backArr || rq.o1.expiredTimestamp != 0 {
		t.Fatalf("t=102.5ms: switches %d curr %s, want one swap and hog/0 running", rq.o1.schedSwitch, rq.curr.info.Name)
	}
	runTo(t, s, 204_500_000)
	if rq.o1.schedSwitch != 1 || rq.curr != b {
		t.Fatalf("t=204.5ms: switches %d curr %s, want hog/1 (hog/0 expired after 102 jiffies)", rq.o1.schedSwitch, rq.curr.info.Name)
	}
}

// TestStaircaseDemotion: one nice-0 hog under staircase (interactive).
// burst(p) = 39 - 19... best burst 19, RR_INTERVAL 10 jiffies, slice(p) =
// 10 * (1+19) = 200. Forked: burst 0, full slice, prio = MAX_PRIO-1-19 = 120.
// first_slice = RR * (burst+1) = 10: after 10 ticks the RR_INTERVAL is
// used: prio = 120 + 1 + (10-10)/10 = 121; after 20: 122; ...; after 190:
// 120 + 1 + 180/10 = 139. At 200 the slice is used up: dec_burst (stays 0),
// a new slice, back on the top stair (120).
// With burst 2 a task stays on the top stair for 30 jiffies: prio(used 29)
// = 120, prio(used 30) = 121.
func TestStaircaseDemotion(t *testing.T) {
	s := new268(t, cfg268(1, 1, CPUSchedStaircase, hogs(1, 0)))
	p := s.tasks[0]
	want := func(at int64, prio int, slice int64) {
		t.Helper()
		runTo(t, s, at)
		if p.o1.prio != prio || p.o1.slice != slice {
			t.Fatalf("t=%d ms: prio %d slice %d, want %d %d", at/1e6, p.o1.prio, p.o1.slice, prio, slice)
		}
	}
	want(9_500_000, 120, 191)
	want(10_500_000, 121, 190)
	want(20_500_000, 122, 180)
	want(190_500_000, 139, 10)
	want(199_500_000, 139, 1)
	want(200_500_000, 120, 200)

	q := &Task{}
	q.o1.staticPrio, q.o1.burst = 120, 2
	q.o1.slice = s.stairSlice(q) - 29
	if got := s.effectivePrioStair(q); got != 120 {
		t.Errorf("burst 2, used 29: prio %d, want 120", got)
	}
	q.o1.slice--
	if got := s.effectivePrioStair(q); got != 121 {
		t.Errorf("burst 2, used 30: prio %d, want 121", got)
	}
	q.o1.staticPrio = 130 // nice 10: best burst 9, top stair 130, slice 100
	q.o1.burst, q.o1.slice = 0, s.stairSlice(q)
	if s.stairSlice(q) != 100 || s.effectivePrioStair(q) != 130 {
		t.Errorf("nice 10: slice %d prio %d, want 100 130", s.stairSlice(q), s.effectivePrioStair(q))
	}
}

// TestSchedBalanceExecThreshold: two hogs forked at t=0 both start on
// cpu0 (wake_up_forked_process() keeps a child on its parent's CPU): cpu0's
// nr_running is 2, cpu_load still 0. sched_balance_exec() on cpu0:
// threshold 1 (2.6.8-rc2): 2 > 1, so find_idlest_cpu() over the NUMA
// domain (the only SD_BALANCE_EXEC one): cpu0's target_load is max(0,
// 2*128) = 256, cpu1's 0 — the first idle CPU ends the search; this_load =
// source_load(cpu0) + 128 = min(0, 256) + 128 = 128; 0 * (100 + 25/2) <
// 128 * 100: move to cpu1. Threshold 2 (2.6.0-2.6.6's sched_best_cpu()):
// 2 <= 2, stay.
func TestSchedBalanceExecThreshold(t *testing.T) {
	for _, c := range []struct{ threshold, want int }{{0, 1}, {1, 1}, {2, 0}} {
		cfg := cfg268(4, 2, CPUSchedO1, hogs(2, 0))
		cfg.Policy.ExecBalanceThreshold = c.threshold
		s := new268(t, cfg)
		runTo(t, s, 500_000) // before the first tick: nobody has balanced
		rq := s.cpus[0]
		if rq.nrRunning != 2 {
			t.Fatalf("cpu0 runs %d tasks, want both", rq.nrRunning)
		}
		if got := s.execPlace268(rq, rq.curr); got != c.want {
			t.Errorf("threshold %d: sched_balance_exec chose cpu%d, want cpu%d", c.threshold, got, c.want)
		}
		numa := rq.domains[len(rq.domains)-1]
		pushed := int64(0)
		if c.want != 0 {
			pushed = 1
		}
		if numa.Stats.SBEPushed != pushed || rq.o1.sbeCnt != 1 {
			t.Errorf("threshold %d: sbe_pushed %d sbe_cnt %d", c.threshold, numa.Stats.SBEPushed, rq.o1.sbeCnt)
		}
	}
}

// TestImbalance268: find_busiest_group()'s arithmetic (SCHED_LOAD_SCALE 128).
//
//  1. NUMA-Q node level, four nodes of four CPUs (cpu_power 512 each); the
//     busiest node holds 8 tasks (load 1024, avg_load 1024*128/512 = 256),
//     this node none: avg_load = 128*1024/2048 = 64; imbalance = min(256-64,
//     64-0) * min(512,512) / 128 = 256 >= 127: (256+1)/128 = 2 tasks.
//  2. Two single CPUs, 2 tasks against 0: avg 128*256/256 = 128; min(128,
//     128)*128/128 = 128: (129)/128 = 1 task.
//  3. 2 tasks against 1: avg 192; 100*256 > 125*128; min(64, 64) = 64 <
//     127, max-this = 128 < 256: pwr_now = (128*128 + 128*128)/128 = 256;
//     pwr_move = (128*min(128, 256-128) + 128*min(128, 128+128))/128 = 256
//     < 256 + 16: balanced (moving would not gain an eighth of a CPU).
//  4. 3 against 1: avg 256; min(128, 128) = 128: 1 task.
//  5. 5 against 4 on single CPUs (640 vs 512): 100*640 <= 125*512 = 64000:
//     within imbalance_pct, balanced.
//  6. A node of four single CPUs running 2, 4, 3, 2 hogs, balanced from the
//     first (busy). cpu_load = (cpu_load + nr*128)/2 converges from below to
//     nr*128 - 1 (511 for 4 tasks: (511+512)/2 = 511); source_load = min(
//     cpu_load, now) = 511, 383, 255; this = target_load = 256. total =
//     256+511+383+255 = 1405, avg = 128*1405/512 = 351; min(511-351, 351-256)
//     = 95 < 127 and max-this = 255 < 256; pwr_now = (128*128 + 128*128)/128
//     = 256, pwr_move = (128*min(128, 511-128) + 128*min(128, 256+128))/128 =
//     256 < 272: balanced — 4 against 2 stays, by one unit of cpu_load.
//  7. The same with the loads exact (512, 384, 256): total 1408, avg 352,
//     min(160, 96) = 96 < 127, but max-this = 256 >= 256: 1 task.
func TestImbalance268(t *testing.T) {
	for i, c := range []struct {
		this, max, total, totalPwr, thisPwr, busyPwr int64
		want                                         int64
		ok                                           bool
	}{
		{0, 256, 1024, 2048, 512, 512, 2, true},
		{0, 256, 256, 256, 128, 128, 1, true},
		{128, 256, 384, 256, 128, 128, 0, false},
		{128, 384, 512, 256, 128, 128, 1, true},
		{512, 640, 1152, 256, 128, 128, 0, false},
		{256, 511, 1405, 512, 128, 128, 0, false},
		{256, 512, 1408, 512, 128, 128, 1, true},
	} {
		got, ok := imbalance268(125, c.this, c.max, c.total, c.totalPwr, c.thisPwr, c.busyPwr, true)
		if got != c.want || ok != c.ok {
			t.Errorf("case %d: imbalance %d %v, want %d %v", i+1, got, ok, c.want, c.ok)
		}
	}
}

// TestLoadBalance268Spreads: 32 hogs forked on cpu0 of a 4x4 NUMA-Q
// (wake_up_forked_process() keeps them there). Idle CPUs balance at every
// tick (interval 1 jiffy, no busy_factor) and pull: within 10 ms no CPU is
// idle, and none holds more than a handful; the invariants hold at every
// event. (An even 2 per CPU is not what 2.6.8 reaches: TestImbalance268
// case 6 shows a 4-against-2 left alone.)
func TestLoadBalance268Spreads(t *testing.T) {
	for _, sched := range []CPUScheduler{CPUSchedO1, CPUSchedStaircase} {
		s := new268(t, cfg268(16, 4, sched, hogs(32, 0)))
		runTo(t, s, 10e6)
		for _, rq := range s.cpus {
			if rq.nrRunning < 1 || rq.nrRunning > 5 {
				t.Errorf("sched %d: cpu%d runs %d tasks after 10 ms, want 1..5", sched, rq.cpu, rq.nrRunning)
			}
		}
		if s.cpus[0].o1.ptLost[cpuIdle] == 0 || s.cpus[0].o1.ptLost[cpuIdle] > 31 {
			t.Errorf("sched %d: pull_task took %d tasks from cpu0 for idle CPUs", sched, s.cpus[0].o1.ptLost[cpuIdle])
		}
	}
}

// TestStaircaseContextSwitches is Con Kolivas' remark in the seed-004
// thread: staircase's default (interactive) timeslices are shorter than
// the O(1) scheduler's (an RR_INTERVAL of 10 ms against 102 ms for nice 0,
// the TIMESLICE_GRANULARITY requeue being off on 16 CPUs), and "it's only
// when I enable compute mode that the context switches drop compared to
// default staircase mode and mainline". 64 CPU hogs (4 per CPU) on the
// 16-way NUMA-Q for 3 s.
func TestStaircaseContextSwitches(t *testing.T) {
	cs := func(sched CPUScheduler, mode StaircaseMode) int64 {
		cfg := cfg268(16, 4, sched, hogs(64, 0))
		cfg.Duration = 3e9
		cfg.Policy.StaircaseMode = mode
		s := new268(t, cfg)
		s.Run()
		return s.Metrics().CtxSwitches
	}
	o1, stair, compute := cs(CPUSchedO1, StairInteractive), cs(CPUSchedStaircase, StairInteractive), cs(CPUSchedStaircase, StairCompute)
	if !(stair > o1 && compute < o1 && compute < stair) {
		t.Errorf("context switches: o1 %d, staircase %d, staircase compute %d; want staircase > o1 > compute", o1, stair, compute)
	}
	t.Logf("context switches over 3 s: o1 %d, staircase %d, staircase compute %d", o1, stair, compute)
}

// TestTryToWakeUp268: try_to_wake_up()'s rules on the NUMA-Q, a task last
// on cpu0 (node 0) woken from cpu4 (node 1). cpu4's CPU-level domain spans
// node 1 only, so only the NODE domain (SD_WAKE_BALANCE, no SD_WAKE_AFFINE,
// imbalance_pct 125: imbalance = 125 + 25/2 = 137) can pull it:
//   - cpu0 at 2 tasks (source_load 256), cpu4 at 1 (target_load 128):
//     137*128 = 17536 <= 100*256: wake on cpu4 (ttwu_wake_balance).
//   - cpu4 at 2 too (256): 137*256 = 35072 > 25600: stays on cpu0.
//   - cpu0 idle (load 0 < 64) and cpu4 busy (128 > 64): "don't pull the
//     task off an idle CPU to a busy one".
//
// Woken from cpu1 (same node), the CPU domain's SD_WAKE_AFFINE pulls a
// cache-cold task (its timestamp 10 ms old, cache_hot_time 2.5 ms) and
// leaves a hot one (woken 1 ms after it last ran) to the SD_WAKE_BALANCE
// test: cpu0 and cpu1 equally loaded (256): 137*256 > 100*256, stays.
func TestTryToWakeUp268(t *testing.T) {
	s := new268(t, cfg268(16, 4, CPUSchedO1, hogs(1, 0)))
	runTo(t, s, 20_500_000)
	p := &Task{allowed: s.topo.All}
	d := &Decision{}
	set := func(cpu, nr int) { s.cpus[cpu].nrRunning, s.cpus[cpu].cpuLoad[0] = nr, uint64(nr)*128 }
	for _, c := range []struct {
		nr0, nr4, want int
	}{{2, 1, 4}, {2, 2, 0}, {0, 1, 0}} {
		set(0, c.nr0)
		set(4, c.nr4)
		p.o1.timestamp = 0
		if got := s.ttwuTarget268(p, 4, 0, d); got != c.want {
			t.Errorf("cpu0 %d tasks, cpu4 %d: woken on cpu%d, want cpu%d (%s)", c.nr0, c.nr4, got, c.want, d.Reason)
		}
	}
	set(0, 2)
	set(1, 2)
	for _, c := range []struct {
		ts   int64
		want int
	}{{10_000_000, 1}, {19_000_000, 0}} {
		p.o1.timestamp = c.ts
		if got := s.ttwuTarget268(p, 1, 0, d); got != c.want {
			t.Errorf("last ran at %d ms: woken on cpu%d, want cpu%d (%s)", c.ts/1e6, got, c.want, d.Reason)
		}
	}
}

// TestSnapshotO1Arrays: what the page draws of the O(1) runqueue. Four
// nice-0 hogs from the spawner on one CPU each start with half a timeslice
// ((102+1)>>1 = 51 jiffies) at prio 125 (sleep_avg 0: bonus 0, 120+5), not
// interactive (125 > 118). hog/0 expires at 51 ms, hog/1 at 102 ms: at
// 120 ms hog/2 runs, hog/3 waits in the active array, hog/0 and hog/1 in
// the expired one, in that order. Staircase has no expired array.
func TestSnapshotO1Arrays(t *testing.T) {
	s := new268(t, cfg268(1, 1, CPUSchedO1, hogs(4, 0)))
	runTo(t, s, 120e6)
	var snap Snapshot
	s.SnapshotInto(&snap)
	c := snap.CPUs[0]
	name := func(id int32) string { return s.TaskName(int(id)) }
	if snap.CPUScheduler != "o1" || name(c.Curr) != "hog/2" || c.CurrPrio != 125 || c.Expired != 2 || len(c.Queue) != 3 {
		t.Fatalf("sched %q curr %s prio %d expired %d queue %v", snap.CPUScheduler, name(c.Curr), c.CurrPrio, c.Expired, c.Queue)
	}
	for i, want := range []string{"hog/3", "hog/0", "hog/1"} {
		if name(c.Queue[i]) != want || c.QueuePrio[i] != 125 {
			t.Errorf("queue[%d] = %s prio %d, want %s 125", i, name(c.Queue[i]), c.QueuePrio[i], want)
		}
	}
	st := new268(t, cfg268(1, 1, CPUSchedStaircase, hogs(4, 0)))
	runTo(t, st, 120e6)
	st.SnapshotInto(&snap)
	if snap.CPUScheduler != "staircase" || snap.CPUs[0].Expired != 0 || len(snap.CPUs[0].QueuePrio) != 3 {
		t.Errorf("staircase: %q expired %d prios %v", snap.CPUScheduler, snap.CPUs[0].Expired, snap.CPUs[0].QueuePrio)
	}
}

// TestForkChildRunsFirst268: a shell on one CPU runs 1 ms, forks two
// commands (1.4 ms each, then exit) and waits. The shell starts with
// (102+1)>>1 = 51 jiffies; the tick at 1 ms leaves 50. O(1) (2.6.8
// do_fork()'s set_need_resched(), the children queued right before their
// parent): cmd/0 gets (50+1)>>1 = 25 (the shell keeps 25), cmd/1 (25+1)>>1
// = 13 (the shell keeps 12); at 1.5 ms cmd/0 runs, cmd/1 and then the still
// runnable shell wait, in that order. Staircase ("Run child last"): the
// shell goes on to wait_children and sleeps; cmd/0 runs and cmd/1 waits
// behind it. sched_exit() (O(1) only): cmd/0 runs 1.0-2.4 ms (the tick at 2
// ms: 24 left) and gives 24 back, cmd/1 runs 2.4-3.8 ms (the tick at 3 ms:
// 12 left) and gives 12 back: at 3.9 ms the woken shell runs with 12 + 24 +
// 12 = 48 jiffies.
func TestForkChildRunsFirst268(t *testing.T) {
	groups := []TaskGroup{
		{Name: "sh", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpFork, Target: 1, Count: 2}, {Op: OpWaitChildren}}},
		{Name: "cmd", Count: 0, Program: []Step{{Op: OpRun, Dur: 1.4e6}, {Op: OpExit}}},
	}
	for _, sched := range []CPUScheduler{CPUSchedO1, CPUSchedStaircase} {
		s := new268(t, cfg268(1, 1, sched, groups))
		runTo(t, s, 1_500_000)
		var snap Snapshot
		s.SnapshotInto(&snap)
		c := snap.CPUs[0]
		var q []string
		for _, id := range c.Queue {
			q = append(q, s.TaskName(int(id)))
		}
		got := s.TaskName(int(c.Curr)) + " then " + fmt.Sprint(q)
		want := "cmd/0 then [cmd/1 sh/0]"
		if sched == CPUSchedStaircase {
			want = "cmd/0 then [cmd/1]"
		}
		if got != want {
			t.Errorf("sched %d at 1.5 ms: %s, want %s", sched, got, want)
		}
		runTo(t, s, 3_900_000)
		sh := s.tasks[0]
		if s.cpus[0].curr != sh || sched == CPUSchedO1 && sh.o1.timeSlice != 48 {
			t.Errorf("sched %d at 3.9 ms: curr is the shell %v, its slice %d, want the shell with 48", sched, s.cpus[0].curr == sh, sh.o1.timeSlice)
		}
		if sched == CPUSchedO1 {
			s := new268(t, cfg268(1, 1, sched, groups))
			runTo(t, s, 1_500_000)
			sh, c0, c1 := s.tasks[0], s.tasks[1], s.tasks[2]
			if sh.o1.timeSlice != 12 || c0.o1.timeSlice != 25 || c1.o1.timeSlice != 13 {
				t.Errorf("slices: sh %d, cmd/0 %d, cmd/1 %d; want 12, 25, 13", sh.o1.timeSlice, c0.o1.timeSlice, c1.o1.timeSlice)
			}
		}
	}
}
