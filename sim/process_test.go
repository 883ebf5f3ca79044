package sim

import (
	"strings"
	"testing"
)

// The hand-worked placements of fork and exec steps. The machine of every
// test is two NUMA nodes of two CPUs (cpu0, cpu1 on node 0; cpu2, cpu3 on
// node 1): domains MC {0,1} | {2,3} and NUMA {0-3}; no C-states (every idle
// CPU exits in 0 ns, so no exit latency breaks a tie) and no jitter. Each
// comment derives the CPU from the kernel's rules; the test checks that the
// simulator lands there.

func twoNodes() Machine {
	m := machine(2, 1, 1, 2, 1, NumberLinear)
	m.Costs.IdleStates = nil
	m.Costs.JitterPct = 0
	return m
}

// placements runs cfg and returns, per task name, the CPUs of its fork
// placement and of every exec migration, in order ("f2" forked on cpu2,
// "x3" exec'd onto cpu3).
func placements(t *testing.T, cfg *Config, until int64) (map[string][]string, *Sim) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	out := map[string][]string{}
	var evs []Event
	for s.NextEventTime() >= 0 && s.NextEventTime() <= until && s.Step() {
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("at %d ns: %v", s.Now(), err)
		}
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			name := s.TaskName(int(e.Task))
			switch {
			case e.Kind == EvFork:
				out[name] = append(out[name], "f"+itoa(int(e.CPU)))
			case e.Kind == EvMigrate && e.Cause == CauseExec:
				out[name] = append(out[name], "x"+itoa(int(e.CPU)))
			}
		}
	}
	return out, s
}

func itoa(i int) string { return string(rune('0' + i)) }

func noForkBalance() [NumLevels]FlagOverride {
	var o [NumLevels]FlagOverride
	for l := range o {
		o[l].Clear = SDBalanceFork
	}
	return o
}

// TestExecPlacement: p runs on cpu0 beside a task pinned there and execs.
//
// Setup: fork balancing is off at every level, so both tasks are forked
// onto the spawner's cpu0 ("no domain with SD_BALANCE_FORK": new_cpu is
// this CPU in both eras). p (spawned first) runs; the hog, pinned to cpu0,
// arrives 10 us later and waits (no wake-up preemption: 3.8 START_DEBIT
// puts it a vslice behind p; in EEVDF p's deadline is earlier). At ~100 us,
// before the first tick (so no balancer has run), p execs.
//
// v3.8 sched_exec() -> select_task_rq_fair(p, SD_BALANCE_EXEC): cpu = prev
// = 0; the walk keeps the highest domain with the flag, NUMA {0-3}.
// find_idlest_group() at forkexec_idx 0 (weighted_cpuload, which counts p
// itself, running): local {0,1} = (2048 + 0)*1024/2048 = 1024, remote
// {2,3} = 0; 100*1024 < 112*0 is false, so {2,3} is the idlest group, and
// find_idlest_cpu() takes its first least-loaded CPU, cpu2. The descent
// continues on cpu2's domains smaller than NUMA: MC {2,3}, local {2} = 0,
// {3} = 0, 100*0 < 112*0 false again, so {3} and cpu3. p lands on cpu3.
//
// v6.17 sched_exec() -> select_task_rq_fair(p, 0, WF_EXEC): sd = NUMA
// (EXEC is set at every level; the nodes are within RECLAIM_DISTANCE).
// sched_balance_find_dst_group(): local {0,1}: cpu0 runs p and the hog,
// nr_running - task_running_on_cpu(p) = 1, not idle; cpu1 idle: idle_cpus
// 1, sum_nr_running 1, has_spare; remote {2,3}: idle_cpus 2, has_spare.
// SD_NUMA: imbalance |1 - 2| = 1 and the local node would run 2 tasks,
// not fewer than imb_numa_nr (1: one LLC of 2 CPUs per node), so no
// keeping it local; local idle_cpus 1 < 2: {2,3}. The group's CPU: both
// idle in the same (no) C-state with equal idle stamps: the first, cpu2.
// On cpu2's MC {2,3}: local {2} and {3} both one idle CPU: local stays.
// p lands on cpu2.
func TestExecPlacement(t *testing.T) {
	for _, tc := range []struct {
		base Base
		want string
	}{{BaseV38, "f0 x3"}, {BaseV617, "f0 x2"}} {
		cfg := &Config{Seed: 1, Duration: 50e6, Machine: twoNodes(), Policy: Policy{Base: tc.base, SDFlags: noForkBalance()},
			Tasks: []TaskGroup{
				{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 100e3}, {Op: OpExec}, {Op: OpRun, Dur: 5e6}, {Op: OpSleep, Dur: 1e9}}},
				{Name: "hog", Count: 1, CPUs: MaskOf(0), Start: 10e3, Program: []Step{{Op: OpRun, Dur: 50e6}, {Op: OpSleep, Dur: 1e9}}},
			}}
		got, s := placements(t, cfg, 900e3)
		if g := strings.Join(got["p/0"], " "); g != tc.want {
			t.Errorf("%s: p placed %q, want %q", s.era.name, g, tc.want)
		}
		if m := s.Metrics(); m.Execs != 1 || m.Migrations.Exec != 1 || m.Migrations.NUMA != 1 {
			t.Errorf("%s: execs %d, exec migrations %d, numa %d", s.era.name, m.Execs, m.Migrations.Exec, m.Migrations.NUMA)
		}
		// With SD_BALANCE_EXEC off as well, the walk finds no domain with
		// the flag: new_cpu = this CPU, p stays on cpu0.
		off := noForkBalance()
		for l := range off {
			off[l].Clear |= SDBalanceExec
		}
		cfg.Policy.SDFlags = off
		got, s = placements(t, cfg, 900e3)
		if g := strings.Join(got["p/0"], " "); g != "f0" {
			t.Errorf("%s without SD_BALANCE_EXEC: p placed %q, want \"f0\"", s.era.name, g)
		}
	}
}

// TestExecAlone: a task alone on an idle machine execs.
//
// v3.8: forked from cpu0 onto an idle machine, sh lands on cpu3: at NUMA,
// local {0,1} = 0 and remote {2,3} = 0, and 100*0 < 112*0 is false, so the
// remote group wins; cpu2 is its first least-loaded CPU; on cpu2's MC the
// same comparison picks {3}. Its exec then counts itself on cpu3:
// local {2,3} = (0 + 1024)*1024/2048 = 512 against remote {0,1} = 0: the
// remote node, its cpu0, then on cpu0's MC {1}: cpu1. 3.8 moves a lone
// task at exec from node to node.
//
// v6.17: the fork stays on cpu0 (local and remote nodes have 2 idle CPUs
// each, the local node would run 1 task: local; on MC, 1 idle CPU against
// 1: local), and so does the exec: cpu0 runs only p, which
// idle_cpu_without() does not count, so both nodes again have 2 idle CPUs.
func TestExecAlone(t *testing.T) {
	for _, tc := range []struct {
		base Base
		want string
	}{{BaseV38, "f3 x1"}, {BaseV617, "f0"}} {
		cfg := &Config{Seed: 1, Duration: 50e6, Machine: twoNodes(), Policy: Policy{Base: tc.base},
			Tasks: []TaskGroup{{Name: "sh", Count: 1, Program: []Step{{Op: OpRun, Dur: 100e3}, {Op: OpExec}, {Op: OpRun, Dur: 5e6}, {Op: OpSleep, Dur: 1e9}}}}}
		got, s := placements(t, cfg, 900e3)
		if g := strings.Join(got["sh/0"], " "); g != tc.want {
			t.Errorf("%s: sh placed %q, want %q", s.era.name, g, tc.want)
		}
	}
}

// TestForkPlacement: sh forks three children at once, then waits for them.
//
// v3.8 (loads are weighted_cpuload at forkexec_idx 0; a child counts
// where it is enqueued from the moment it is placed). sh itself lands on
// cpu3 (see TestExecAlone). c/0, from cpu3: NUMA local {2,3} =
// 1024*1024/2048 = 512 (sh), remote {0,1} = 0: remote; cpu0; on cpu0's MC
// {1} (0 against 0): cpu1. c/1: local {2,3} = 512, remote {0,1} = 512 (c/0
// on cpu1): 100*512 < 112*512, local; on cpu3's MC, local {3} = 1024
// against {2} = 0: cpu2. c/2: local {2,3} = 1024, remote {0,1} = 512:
// 100*1024 < 112*512 is false, remote; its least-loaded CPU cpu0; on
// cpu0's MC, {1} = 1024 against local 0: 100*0 < 112*1024, local: cpu0.
//
// v6.17: sh stays on cpu0 (see TestExecAlone). c/0 from cpu0: NUMA local
// {0,1} has 1 idle CPU and 1 task (sh), remote 2 idle: |1-2| = 1, the
// local node would run 2 >= imb_numa_nr 1 tasks: no locality exception,
// 1 < 2 idle CPUs: remote, its first idle CPU cpu2; on cpu2's MC 1 idle
// against 1: local, cpu2. c/1: local {0,1} 1 idle, remote {2,3} 1 idle
// (c/0 on cpu2): local node; MC: local {0} runs sh (fully busy: 1 task on
// 1 CPU) against {1} has spare: the lower group type wins, cpu1. c/2:
// local {0,1} has no idle CPU, remote 1 (cpu3): remote, its idle cpu3; on
// cpu3's MC, local {3} idle against {2} busy: local, cpu3.
func TestForkPlacement(t *testing.T) {
	for _, tc := range []struct {
		base        Base
		sh          string
		c0, c1, c2  string
		wantWaiting bool
	}{{BaseV38, "f3", "f1", "f2", "f0", true}, {BaseV617, "f0", "f2", "f1", "f3", true}} {
		cfg := &Config{Seed: 1, Duration: 50e6, Machine: twoNodes(), Policy: Policy{Base: tc.base},
			Tasks: []TaskGroup{
				{Name: "sh", Count: 1, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpFork, Target: 1, Count: 3}, {Op: OpWaitChildren}, {Op: OpRun, Dur: 1e6}, {Op: OpExit}}},
				{Name: "c", Count: 0, Program: []Step{{Op: OpRun, Dur: 2e6}, {Op: OpExit}}},
			}}
		got, s := placements(t, cfg, 900e3)
		for name, want := range map[string]string{"sh/0": tc.sh, "c/0": tc.c0, "c/1": tc.c1, "c/2": tc.c2} {
			if g := strings.Join(got[name], " "); g != want {
				t.Errorf("%s: %s placed %q, want %q", s.era.name, name, g, want)
			}
		}
		// sh waits for its children (they run 2 ms), then runs 1 ms, exits.
		if st := s.tasks[0].state; st != TaskBlocked || !s.tasks[0].waitChild {
			t.Errorf("%s: sh is %s at 0.9 ms, want blocked in wait_children", s.era.name, st)
		}
		s.RunUntil(10e6)
		m := s.Metrics()
		if m.Forks != 3 || m.Exits != 4 || m.LiveTasksMax != 4 || m.LifetimeUS.N != 4 {
			t.Errorf("%s: forks %d exits %d live max %d lifetimes %d", s.era.name, m.Forks, m.Exits, m.LiveTasksMax, m.LifetimeUS.N)
		}
		// sh exits after its children's ~2 ms and its own 1 ms: about 3 ms.
		if life := m.LifetimeUS.Max; life < 3000 || life > 3500 {
			t.Errorf("%s: sh lived %.0f us, want about 3000", s.era.name, life)
		}
		// Every program exits, so the run counts exits, and sh's exit is
		// the last: its time is the workload's elapsed time.
		if sh := m.Tasks[0]; !m.CountsExits || m.LastExitMS != sh.ExitMS || sh.ExitMS < 3 || m.LiveTasks != 0 {
			t.Errorf("%s: counts exits %v, last exit %v ms, sh's %v ms, %d alive", s.era.name, m.CountsExits, m.LastExitMS, sh.ExitMS, m.LiveTasks)
		}
	}
	// A program that loops counts ops, whatever exits beside it.
	cfg := &Config{Seed: 1, Duration: 5e6, Machine: twoNodes(), Tasks: []TaskGroup{
		{Name: "loop", Count: 1, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpSleep, Dur: 50e3}}},
		{Name: "once", Count: 1, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpExit}}},
	}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(cfg.Duration)
	if m := s.Metrics(); m.CountsExits || m.Exits != 1 || m.LastExitMS <= 0 || m.LiveTasks != 1 {
		t.Errorf("a looping and an exiting task: counts exits %v, %d exits, the last at %v ms, %d alive", m.CountsExits, m.Exits, m.LastExitMS, m.LiveTasks)
	}
}

// TestRepeatBlocks: nested repeat blocks play without unrolling: 3 x (2 x
// run 1 ms, then sleep 1 ms), then a 1 ms sleep, is 3*(2*1+1)+1 = 10 ms of
// program per op, 6 ms of it CPU.
func TestRepeatBlocks(t *testing.T) {
	m := twoNodes()
	cfg := &Config{Seed: 1, Duration: 100e6, Machine: m, Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{{Name: "r", Count: 1, Program: []Step{
			{Op: OpRepeat, Count: 3, Len: 3},
			{Op: OpRepeat, Count: 2, Len: 1},
			{Op: OpRun, Dur: 1e6},
			{Op: OpSleep, Dur: 1e6},
			{Op: OpSleep, Dur: 1e6},
		}}}}
	_, s := placements(t, cfg, 100e6)
	s.RunUntil(100e6)
	mt := s.Metrics()
	// Each op takes 10 ms plus small costs (switches, wake-ups).
	if mt.Ops < 9 || mt.Ops > 10 {
		t.Errorf("ops %d in 100 ms, want 9 or 10", mt.Ops)
	}
	if cpu := mt.Tasks[0].CPUMS; cpu < 57 || cpu > 61 {
		t.Errorf("cpu %.1f ms in 100 ms, want about 6 per op", cpu)
	}
}

// TestProcessLimits: a task that forks forever without waiting stops the
// run at the live-task limit, before a slot past it is allocated; the fork
// limit likewise.
func TestProcessLimits(t *testing.T) {
	mk := func() *Config {
		return &Config{Seed: 1, Duration: 10e9, Machine: twoNodes(), Policy: Policy{Base: BaseV617},
			Tasks: []TaskGroup{
				{Name: "forker", Count: 1, Program: []Step{{Op: OpFork, Target: 1, Count: 10}, {Op: OpRun, Dur: 10e3}}},
				{Name: "sleeper", Count: 0, Program: []Step{{Op: OpSleep, Dur: 100e9}}},
			}}
	}
	cfg := mk()
	cfg.MaxLiveTasks = 100
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	if s.Err() == nil || !strings.Contains(s.Err().Error(), "100 tasks alive at once") || len(s.tasks) != 100 {
		t.Fatalf("err %v, %d slots", s.Err(), len(s.tasks))
	}
	cfg = mk()
	cfg.Tasks[1].Program = []Step{{Op: OpRun, Dur: 1e3}, {Op: OpExit}}
	cfg.MaxForks = 500
	s, _ = New(cfg)
	s.Run()
	if s.Err() == nil || !strings.Contains(s.Err().Error(), "started 500 tasks") || s.Metrics().Forks != 500 {
		t.Fatalf("err %v, forks %d", s.Err(), s.Metrics().Forks)
	}
	// Exited slots are reused: far fewer slots than forks.
	if len(s.tasks) > 60 {
		t.Errorf("%d task slots for 500 short-lived forks", len(s.tasks))
	}
}

// TestInvariantsWithProcesses: tasks appear and leave under every base and
// select_idle_sibling variant, invariants checked after every event.
func TestInvariantsWithProcesses(t *testing.T) {
	tasks := []TaskGroup{
		{Name: "user", Count: 6, Program: []Step{
			{Op: OpRepeat, Count: 3, Len: 3}, {Op: OpRun, Dur: 200e3}, {Op: OpFork, Target: 1, Count: 2}, {Op: OpWaitChildren},
			{Op: OpSleep, Dur: 300e3}}},
		{Name: "cmd", Count: 0, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpExec}, {Op: OpRun, Dur: 700e3}, {Op: OpWake, Target: 2}, {Op: OpExit}}},
		{Name: "logger", Count: 1, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 20e3}}},
	}
	for _, base := range []Base{BaseV38, BaseV617} {
		for _, sis := range []SIS{SISV36, SISBuddies, SISUtil, SISOff} {
			cfg := &Config{Seed: 5, Duration: 40e6, Machine: machine(2, 1, 1, 2, 2, NumberX86), Policy: Policy{Base: base, SIS: sis}, Tasks: tasks}
			s := runChecked(t, cfg)
			if m := s.Metrics(); m.Ops == 0 || m.Forks == 0 || m.Exits == 0 {
				t.Fatalf("base %d sis %d: ops %d forks %d exits %d", base, sis, m.Ops, m.Forks, m.Exits)
			}
		}
	}
}

// TestWaitChildrenWakePlacement: sh forks one child, waits for it; the
// child's exit wakes sh. Where does sh wake?
//
// v6.17: sh runs on cpu0 and its child goes to cpu2 (see TestForkPlacement:
// node 0 has 1 idle CPU against node 1's 2). sh blocks on cpu0. The child
// exits on cpu2 and, still running there, wakes sh (prev 0) with WF_SYNC:
// select_task_rq_fair() on cpu2 wants affine; MC {2,3} does not span cpu0,
// NUMA does: wake_affine_idle(): cpu2 is not idle (the child is curr), but
// the wake-up is sync and cpu2 runs one task, so this_cpu, cpu2, is the
// target. select_idle_sibling(sh, prev 0, target 2): cpu2 busy, cpu0 does
// not share cpu2's LLC, no recent_used_cpu; SIS_UTIL scans cpu2's LLC from
// cpu3: idle. sh wakes on cpu3.
//
// v3.8: sh runs on cpu3 and its child goes to cpu1 (the remote node, then
// {1} on cpu0's MC). The child wakes sh (prev 3) from cpu1: affine_sd is
// NUMA (MC {0,1} does not span cpu3). wake_affine(): this_load =
// target_load(cpu1) = 1024, minus the sync waker's 1024 = 0, so balanced
// and sync: affine, target cpu1. select_idle_sibling() (3.8): cpu1 is not
// idle (the child is curr) and is not prev; in sd_llc(cpu1) = MC {0,1} the
// group holding the target is skipped, and {0} is all idle: cpu0.
func TestWaitChildrenWakePlacement(t *testing.T) {
	for _, tc := range []struct {
		base      Base
		sh, child string
		wakeCPU   int
	}{{BaseV617, "f0", "f2", 3}, {BaseV38, "f3", "f1", 0}} {
		cfg := &Config{Seed: 1, Duration: 50e6, Machine: twoNodes(), Policy: Policy{Base: tc.base},
			Tasks: []TaskGroup{
				{Name: "sh", Count: 1, Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpFork, Target: 1, Count: 1}, {Op: OpWaitChildren}, {Op: OpRun, Dur: 1e6}, {Op: OpExit}}},
				{Name: "c", Count: 0, Program: []Step{{Op: OpRun, Dur: 2e6}, {Op: OpExit}}},
			}}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.SetRecording(true)
		woke := -1
		var evs []Event
		for s.NextEventTime() >= 0 && s.NextEventTime() <= 10e6 && s.Step() {
			if err := s.CheckInvariants(); err != nil {
				t.Fatal(err)
			}
			evs = s.TakeEvents(evs[:0])
			for _, e := range evs {
				switch {
				case e.Kind == EvFork && s.TaskName(int(e.Task)) == "sh/0" && "f"+itoa(int(e.CPU)) != tc.sh,
					e.Kind == EvFork && s.TaskName(int(e.Task)) == "c/0" && "f"+itoa(int(e.CPU)) != tc.child:
					t.Errorf("%s: %s", s.era.name, s.Explain(e))
				case e.Kind == EvWakeup && e.Task == 0:
					if woke >= 0 {
						t.Errorf("%s: sh woken twice", s.era.name)
					}
					woke = int(e.CPU)
					if s.TaskName(int(e.Arg)) != "c/0" {
						t.Errorf("%s: sh woken by %s, want c/0", s.era.name, s.TaskName(int(e.Arg)))
					}
				}
			}
		}
		if woke != tc.wakeCPU {
			t.Errorf("%s: sh woke on cpu%d, want cpu%d", s.era.name, woke, tc.wakeCPU)
		}
		if m := s.Metrics(); m.Exits != 2 || s.tasks[0].state != TaskExited {
			t.Errorf("%s: exits %d, sh %s", s.era.name, m.Exits, s.tasks[0].state)
		}
	}
}
