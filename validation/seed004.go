package validation

import (
	"fmt"
	"math"
	"sync"

	"schedplay/scenarios"
	"schedplay/sim"
)

// Seed 004 (issue 17): Martin Bligh's SDET on a 16-way NUMA-Q, 2.6.8-rc2
// against 2.6.8-rc2-mm2, and the thread's schedstats and sar remarks, on
// base v2.6.8 with policy.cpu_scheduler o1 against staircase.
//
// Attribution: the seed compares 2.6.8-rc2 with 2.6.8-rc2-mm2, and mm2
// carries the staircase patch and other scheduler changes (Martin found mm2
// with the staircase patch backed out equal to rc2, so the gain is the
// patch's, but on mm2's base). O(1) against staircase on one 2.6.8 base is
// the closest A/B the model has, not the same one.

const seed004Src = "seed 004 (LKML, August 2004, \"2.6.8-rc2-mm2 performance improvements (scheduler?)\"), Martin J. Bligh: " +
	"SDET tables \"Results are shown as percentages of the first set displayed\" (2.6.7 = 100 %); here 2.6.8-rc2 is before " +
	"and 2.6.8-rc2-mm2 after, each table's throughput column."

const seed004Machine = "Martin's 16-way NUMA-Q: 4 quads of 4 Pentium III Xeons. The preset's machine: 4 nodes × 4 CPUs, HZ 1000, " +
	"5 us context switch, HLT only (1 us exit), cache refill 30 us within a quad and 300 us across quads (the NUMA-Q's " +
	"~10:1 remote:local latency ratio, an assumption: the seed gives no figures), and a run step begun away from the quad " +
	"holding the task's memory costs 45 % more (remote_mem_pct: that ratio times an assumed 5 % share of run time " +
	"waiting on memory; docs/costs.md)."

const seed004Workload = "SDET: each user runs a shell script of short commands. Modelled by the sdet-numaq preset: a user runs " +
	"300 us, forks 2 commands and waits for them; a command runs 200 us, execs, runs 3 ms (±30 %) and exits; one op is one " +
	"script step. The real scripts run many more and more varied commands with pipes and I/O, which the preset leaves out."

func seed004Tables() []*Table {
	users := []string{"1", "2", "4", "8", "16", "32", "64", "128"}
	return []*Table{{
		ID:    "sdet-staircase",
		Title: "Staircase on 2.6.8: SDET on a 16-way NUMA-Q, 2.6.8-rc2-mm2 ÷ 2.6.8-rc2 (seed 004)",
		Source: seed004Src + " Attribution: mm2 carries the staircase patch and other scheduler changes; " +
			"o1 against staircase on one 2.6.8 base is the closest A/B, not the same one.",
		Machine:    seed004Machine,
		Workload:   seed004Workload,
		Preset:     "sdet-numaq",
		Sets:       []string{"policy.base=v2.6.8"},
		VaryPath:   "tasks.user.count",
		BeforeName: "2.6.8-rc2: the O(1) scheduler",
		AfterName:  "2.6.8-rc2-mm2: Con Kolivas' staircase (interactive=1, compute=0)",
		Before:     []string{"policy.cpu_scheduler=o1"},
		After:      []string{"policy.cpu_scheduler=staircase"},
		Points: pts("users", users,
			[]float64{95.9, 100.5, 99.2, 100.2, 99.5, 99.7, 101.6, 100.2},
			[]float64{111.5, 115.1, 111.9, 117.4, 118.5, 102.1, 103.2, 103.0}),
		Note: "The mechanism the model has: 2.6.8's O(1) fork runs the child first (do_fork()'s set_need_resched(), the " +
			"child queued right before its parent), so the shell is still runnable when its command execs and " +
			"sched_balance_exec() (nr_running > 1) pushes every command to the idlest CPU of the machine; the " +
			"staircase patch runs the child last, the shell has forked both commands and is asleep " +
			"when the second one execs, and that one stays (fewer find_idlest_cpu() calls: the seed's kernbench " +
			"diffprofile has find_idlest_cpu −59 %). Where the model misses: at 1-4 users its gain is a few per cent ({sim:1 users}, {sim:2 users}, " +
			"{sim:4 users}), not " +
			"+11.5 to +15.1 %. The machine charges a run step begun away from the " +
			"quad holding the task's memory (45 %), but an exec'd image is first touched where the exec lands, so a command " +
			"pushed at exec runs on local memory wherever it goes; only tasks moved later pay (2 users: +1.9 % without the " +
			"charge, +3.6 % with it). Charging a pushed command for its shell's quad instead would turn 1-4 users (+19.8, " +
			"+15.6, +14.7 %). Until 5 December this note said the seed ruled that out: it leaves a sched_balance_exec() " +
			"threshold of 1 7-11 % behind one of 2, and Andrew Theurer's nr_running <= 2 was read as 2.6.7's, whose column " +
			"is level with 2.6.8-rc2's. It is the 2.6.0-2.6.6 NUMA scheduler's sched_best_cpu(); the sched-domains code " +
			"merged in 2.6.7-rc1 has <= 1 (docs/era-2.6.8.md), so those two columns share the test. The charge stays out " +
			"for another reason: on the NUMA-Q, a 32-bit machine, the kernel's memory (task_struct, kernel stack, files, " +
			"pipes) is all on the first quad, not the shell's. What a pushed command does leave on its shell's quad is its " +
			"copy of the shell's page tables, which exec tears down from the landing CPU (zap_pte_range, clear_page_tables " +
			"and free_hot_cold_page are all far cheaper per script step in the seed's sdetbench diffprofile with the " +
			"staircase kernel); charged once per exec that lands off the quad it was forked on, 1 ms would hold 1-4 users " +
			"(+14.4, +12.0, +13.4 %, seed 1) and take 128 users out (+5.5 %), 200 us moves them by 2-3 points. A few " +
			"hundred remote misses would make 1 ms, but the seed gives neither the shell's size nor the NUMA-Q's remote " +
			"latency, so the model has no such charge (docs/era-2.6.8.md). At 16 users the model's gain is small where the seed's is largest: a " +
			"modelled user keeps about 1.7 CPUs busy (two 3 ms commands at once), so 16 users ask for about 27 CPUs and the " +
			"machine is nearly saturated under both schedulers (idle 7.8 → 3.4 %, the story below), with little idle time " +
			"left to win; real SDET users also wait on I/O. The seed's own profile says how much: in its sdetbench 8 " +
			"diffprofile (the ticks of all 16 CPUs in kernel mode: 2.6's profile_tick() skips user mode) default_idle falls by 6262 " +
			"ticks (−11.9 %) and the total by 9294 (−14.4 %), so under 2.6.8-rc2 the idle loop had 52,622 of the 64,542 " +
			"ticks (81.5 %) and the rest of the kernel 11,920, 8,888 under mm2 (−25 %). The total fell about as much as a " +
			"17.2 % gain shortens a run of fixed work (−14.7 %), so the user-mode time it leaves out was small or fell " +
			"alike: at 8 users the real machine was mostly idle under both kernels, and mm2 ran the same scripts with a " +
			"quarter less kernel time, in page-table and page-copy functions (zap_pte_range −38.8 %, do_wp_page −62.1 %, " +
			"copy_page_range −21.6 %). The model's 8-user point holds for another reason: its O(1) run is 29 % idle (seed 1), " +
			"14.7 % of the CPU time idle while tasks wait elsewhere against 2.9 % under staircase (the why column), and " +
			"both kernels spend the same CPU time on a script step (6.87 and 6.81 ms, seed 1). So the modelled user is " +
			"several times too busy for SDET on the NUMA-Q (the 16-user miss), and the real gain was made of kernel time " +
			"in the mm, for which the model's candidate is what a command pushed at exec to another quad costs (the " +
			"1-4-user miss; the profile does not say which commands paid it). The seed's own test rules out the rest of " +
			"mm2: with the staircase patch backed out it ran \"exactly the same as 2.6.8-rc2\" (Martin Bligh, seed 004 line 560). " +
			"A user that waits 12 ms after each script step (a throwaway run, 7 December, seed 1: O(1) 21 % busy at 8 " +
			"users, near the profile's share) takes the model's gains at 1-16 users to 0.0-3.4 %: on a mostly idle " +
			"machine the idle time a kernel can win, the model's only lever here, is gone, where the real gain was in the " +
			"CPU time itself. At 32-128 users the gap narrows as in the seed, to under 1 % " +
			"(seed +2-3 %). The context switches, balancing counters and runqueue lengths are in the story below.",
	}, {
		ID:    "kernbench-staircase",
		Title: "Staircase on 2.6.8: kernbench on a 16-way NUMA-Q, 2.6.8-rc2 ÷ 2.6.8-rc2-mm2 elapsed time (seed 004)",
		Source: "seed 004 (LKML, August 2004, \"2.6.8-rc2-mm2 performance improvements (scheduler?)\"), Martin J. Bligh: " +
			"the three kernbench tables (make -j N vmlinux with N = 2 × num_cpus, 16 × num_cpus, and -j with no limit), " +
			"the Elapsed column of 2.6.8-rc2 and 2.6.8-rc2-mm2. Attribution as in the SDET table.",
		Machine: seed004Machine,
		Workload: "kernbench: make -j N vmlinux. Modelled by the kernbench-numaq preset: make is GNU make's job server, " +
			"N tokens (tasks.make.program[0].repeat) and 1280 compiler jobs, each taken with a token, 100 us of make's own " +
			"work and a fork; a job runs 100 us, execs, compiles for 20 ms (±30 %) and gives its token back as it exits " +
			"(a WF_SYNC wake-up of make, as the kernel's exit notification is). Make's exit is the elapsed time, and the " +
			"throughput compared is the jobs forked per second of it. A real compile job runs about 0.5 s of CPU time " +
			"(the seed: 666 s of user and system time for the kernel's objects) and also waits on make and the disk; the " +
			"model's are 25 times shorter and pure CPU work, which ratios between two kernels do not depend on.",
		Preset:      "kernbench-numaq",
		Sets:        []string{"policy.base=v2.6.8"},
		VaryPath:    "tasks.make.program[0].repeat",
		ElapsedTask: "make/0",
		BeforeName:  "2.6.8-rc2: the O(1) scheduler",
		AfterName:   "2.6.8-rc2-mm2: Con Kolivas' staircase (interactive=1, compute=0)",
		Before:      []string{"policy.cpu_scheduler=o1"},
		After:       []string{"policy.cpu_scheduler=staircase"},
		TimeMetric:  true,
		Points: []Point{
			{Label: "-j32 (2 × CPUs)", Vary: "32", SeedBefore: []float64{45.05}, SeedAfter: []float64{44.09}},
			{Label: "-j256 (16 × CPUs)", Vary: "256", SeedBefore: []float64{44.83}, SeedAfter: []float64{43.43}},
			{Label: "-j, no limit", Vary: "1280", SeedBefore: []float64{44.03}, SeedAfter: []float64{43.75}},
		},
		Note: "Martin: \"Kernbench sees most " +
			"improvement in sys time, but also some elapsed time\": System 88.53 → 78.84 s at -j32 (−11 %), 96.00 → " +
			"86.04 at -j256, 87.74 → 86.68 with no limit; the model has no system time (no kernel work but the " +
			"scheduler's own costs), so only the elapsed time is compared, and every point of the seed is within its " +
			"noise band. From two jobs a CPU up a CPU that finishes a job has another waiting, so where a job is placed " +
			"hardly moves the elapsed time under either scheduler. Until 7 December the preset's make forked its jobs in " +
			"batches of 32 and waited for each batch, a barrier real make does not have: every O(1) job then paid the " +
			"child-runs-first switch and the exec push at each batch's tail, -j32 ran −14.7 % under staircase (seeds 1-3, " +
			"2207 → 1882 ms) where the seed has −2.1 %, and took 36 % longer than the unlimited make (1625 ms) where the seed has 2.3 %; the " +
			"job server puts the three -j within 2 % (the story below).",
	}}
}

// seed004Pair runs sdet-numaq on v2.6.8 at users users with o1 and with
// staircase, seeds 1-3, and measures what the thread's schedstats and sar
// remarks are about. The story's claims share the runs (computed once).
type seed004Side struct {
	ctxPerOp, opsPerS      float64
	pullTask, busyLB, sbe  float64 // per simulated second
	surgeFirst, surgeLater float64 // busy load_balance() per 200 ms: the first window, the mean of the later ones
	madEarly, madLate      float64 // mean |nr_running - mean| over CPUs: first 50 ms, last second
	idlePct, idleOverPct   float64 // idle, and idle while another CPU has a task waiting, % of CPU time
}

var seed004Cache struct {
	sync.Mutex
	m map[string][2]seed004Side
}

func seed004Pair(users int) ([2]seed004Side, error) {
	seed004Cache.Lock()
	defer seed004Cache.Unlock()
	key := fmt.Sprint(users)
	if r, ok := seed004Cache.m[key]; ok {
		return r, nil
	}
	var out [2]seed004Side
	for i, sched := range []string{"o1", "staircase"} {
		seeds := []uint64{1, 2, 3}
		for _, seed := range seeds {
			side, err := seed004Run(users, sched, seed)
			if err != nil {
				return out, err
			}
			o := &out[i]
			n := float64(len(seeds))
			o.ctxPerOp += side.ctxPerOp / n
			o.opsPerS += side.opsPerS / n
			o.pullTask += side.pullTask / n
			o.busyLB += side.busyLB / n
			o.sbe += side.sbe / n
			o.surgeFirst += side.surgeFirst / n
			o.surgeLater += side.surgeLater / n
			o.madEarly += side.madEarly / n
			o.madLate += side.madLate / n
			o.idlePct += side.idlePct / n
			o.idleOverPct += side.idleOverPct / n
		}
	}
	if seed004Cache.m == nil {
		seed004Cache.m = map[string][2]seed004Side{}
	}
	seed004Cache.m[key] = out
	return out, nil
}

func seed004Run(users int, sched string, seed uint64) (seed004Side, error) {
	var r seed004Side
	sc, err := scenarios.Preset("sdet-numaq")
	if err != nil {
		return r, err
	}
	for _, kv := range [][2]string{{"policy.base", "v2.6.8"}, {"policy.cpu_scheduler", sched},
		{"tasks.user.count", fmt.Sprint(users)}, {"seed", fmt.Sprint(seed)}} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			return r, err
		}
	}
	cfg, err := sc.Config()
	if err != nil {
		return r, err
	}
	s, err := sim.New(cfg)
	if err != nil {
		return r, err
	}
	const ms = int64(1e6)
	const window = 200 * ms
	var snap sim.Snapshot
	var madE, madL float64
	var nE, nL int
	var lastBusy int64
	var windows []int64
	for t := ms; t <= cfg.Duration; t += ms {
		s.RunUntil(t)
		if err := s.Err(); err != nil {
			return r, err
		}
		s.SnapshotInto(&snap)
		sum := 0
		for _, c := range snap.CPUs {
			sum += c.NrRunning
		}
		mean := float64(sum) / float64(len(snap.CPUs))
		dev := 0.0
		for _, c := range snap.CPUs {
			dev += math.Abs(float64(c.NrRunning) - mean)
		}
		dev /= float64(len(snap.CPUs))
		if t <= 50*ms {
			madE += dev
			nE++
		}
		if t > cfg.Duration-1000*ms {
			madL += dev
			nL++
		}
		if t%window == 0 {
			b := s.Metrics().Schedstat9.LoadBalance.Busy.Count
			windows = append(windows, b-lastBusy)
			lastBusy = b
		}
	}
	m := s.Metrics()
	st := m.Schedstat9
	sec := m.SimMS / 1000
	r.opsPerS = m.OpsPerS
	if m.Ops > 0 {
		r.ctxPerOp = float64(m.CtxSwitches) / float64(m.Ops)
	}
	r.pullTask = float64(st.PullTask.Idle+st.PullTask.Busy+st.PullTask.Newidle) / sec
	r.busyLB = float64(st.LoadBalance.Busy.Count) / sec
	r.sbe = float64(st.SchedBalanceExec.Pushed) / sec
	if len(windows) > 1 {
		r.surgeFirst = float64(windows[0])
		for _, w := range windows[1:] {
			r.surgeLater += float64(w)
		}
		r.surgeLater /= float64(len(windows) - 1)
	}
	cpuMS := m.SimMS * float64(len(snap.CPUs))
	r.idleOverPct = 100 * m.IdleWhileOverloadedMS / cpuMS
	r.idlePct = 100 - m.BusyPct
	r.madEarly = madE / float64(max(nE, 1))
	r.madLate = madL / float64(max(nL, 1))
	return r, nil
}

// seed004Claim is a claim measured on the o1/staircase pair at users users
// (the claim's own run, with Sets, is the staircase side at that count).
func seed004Claim(text, source string, users int, check func(o1, st seed004Side) (string, bool)) Claim {
	return Claim{
		Text: text, Source: source,
		Sets: []string{"policy.base=v2.6.8", "policy.cpu_scheduler=staircase", fmt.Sprintf("tasks.user.count=%d", users)},
		Check: func(Run) (string, bool) {
			p, err := seed004Pair(users)
			if err != nil {
				return "error: " + err.Error(), false
			}
			m, ok := check(p[0], p[1])
			return fmt.Sprintf("%d users, o1 → staircase (seeds 1-3): %s", users, m), ok
		},
	}
}

func seed004Stories() []*Story {
	var claims []Claim
	for _, u := range []int{4, 16, 64} {
		claims = append(claims, seed004Claim(
			"\"cswitches were 10%-20% higher on the no staircase runs\" (sar, SDET).",
			"seed 004, Rick Lindsley (and Andrew Theurer on TIMESLICE_GRANULARITY)", u,
			func(o1, st seed004Side) (string, bool) {
				return fmt.Sprintf("context switches per op %.2f → %.2f (o1 %+.0f %%)", o1.ctxPerOp, st.ctxPerOp, 100*(o1.ctxPerOp/st.ctxPerOp-1)),
					o1.ctxPerOp > st.ctxPerOp
			}))
	}
	for _, u := range []int{4, 8, 16} {
		claims = append(claims, seed004Claim(
			"\"The SDET one looks like it's load-balancing better (mainly less idle time)\"; without staircase \"the tasks "+
				"suffer, waiting on a cpu already loaded up\".",
			"seed 004, Martin J. Bligh; Andrew Theurer", u,
			func(o1, st seed004Side) (string, bool) {
				return fmt.Sprintf("idle %.1f → %.1f %% of CPU time, of which while a task waited elsewhere %.1f → %.1f %%",
					o1.idlePct, st.idlePct, o1.idleOverPct, st.idleOverPct), st.idlePct < o1.idlePct && st.idleOverPct < o1.idleOverPct
			}))
	}
	claims = append(claims,
		seed004Claim("Staircase \"does less rebalancing, fewer pull_tasks\" (Rick's schedstats graphs, as Martin relays them).",
			"seed 004, Martin J. Bligh", 16,
			func(o1, st seed004Side) (string, bool) {
				return fmt.Sprintf("pull_task %.0f → %.0f /s, busy load_balance %.0f → %.0f /s, sched_balance_exec pushes %.0f → %.0f /s",
					o1.pullTask, st.pullTask, o1.busyLB, st.busyLB, o1.sbe, st.sbe), st.pullTask < o1.pullTask && st.sbe < o1.sbe
			}),
		seed004Claim("\"A very noticeable surge in load_balance with staircase in the early stage of the test … busy load_balance, "+
			"sched_balance_exec, and pull_task\"; \"no-staircase does not balance early on\".",
			"seed 004, Andrew Theurer", 16,
			func(o1, st seed004Side) (string, bool) {
				return fmt.Sprintf("busy load_balance() in the first 200 ms %.0f → %.0f, per later 200 ms %.0f → %.0f",
						o1.surgeFirst, st.surgeFirst, o1.surgeLater, st.surgeLater),
					st.surgeFirst > o1.surgeFirst && st.surgeFirst > st.surgeLater
			}),
		seed004Claim("\"Do the cpus on staircase obtain a runqueue length close to nr_running()/nr_online_cpus sooner than "+
			"no-staircase?\" (asked, not measured, in the thread; the sim answers it).",
			"seed 004, Andrew Theurer", 16,
			func(o1, st seed004Side) (string, bool) {
				return fmt.Sprintf("mean absolute deviation of the CPUs' nr_running from their average, sampled every 1 ms: first 50 ms %.2f → %.2f, last second %.2f → %.2f",
					o1.madEarly, st.madEarly, o1.madLate, st.madLate), st.madEarly < o1.madEarly
			}),
	)
	kb := &Story{
		ID:     "kernbench-j",
		Title:  "kernbench on 2.6.8: the three -j against each other (seed 004)",
		Preset: "kernbench-numaq",
		Claims: []Claim{{
			Text: "\"a full -j kernel compile (using up to about 1300 tasks) goes as fast as the -j 256 (the middle one)\": " +
				"make -j32, -j256 and -j with no limit took 45.05, 44.83 and 44.03 s on 2.6.8-rc2 and 44.09, 43.43 and " +
				"43.75 s on 2.6.8-rc2-mm2, each kernel's three within 3 % of each other.",
			Source: "seed 004, Martin J. Bligh (kernbench tables)",
			Sets:   []string{"policy.base=v2.6.8"}, // the check runs o1 and staircase at each -j itself
			Check: func(Run) (string, bool) {
				out, ok := "make's exit (the elapsed time) at -j32, -j256 and no limit (seeds 1-3):", true
				for _, sched := range []string{"o1", "staircase"} {
					var ex [3]float64
					for i, tokens := range []string{"32", "256", "1280"} {
						for _, seed := range []uint64{1, 2, 3} {
							e, err := kernbenchExit(sched, tokens, seed)
							if err != nil {
								return "error: " + err.Error(), false
							}
							ex[i] += e / 3
						}
					}
					lo, hi := math.Min(ex[0], math.Min(ex[1], ex[2])), math.Max(ex[0], math.Max(ex[1], ex[2]))
					out += fmt.Sprintf(" %s %.1f, %.1f and %.1f ms (%.1f %% apart);", sched, ex[0], ex[1], ex[2], 100*(hi/lo-1))
					ok = ok && hi <= 1.03*lo
				}
				return out[:len(out)-1], ok
			},
		}},
		Note: "The seed's kernbench elapsed times, O(1) against staircase, are the kernbench table above.",
	}
	return []*Story{{
		ID:     "sdet-staircase-stats",
		Title:  "Staircase on 2.6.8: the thread's context-switch, balancing and runqueue remarks (seed 004)",
		Preset: "sdet-numaq",
		Claims: claims,
		Note: "Each claim compares o1 with staircase on base v2.6.8, seeds 1-3 averaged (the run-with column is the staircase " +
			"side). The context-switch surplus of the O(1) runs is larger in the model than Rick's 10-20 %: the preset is " +
			"nothing but fork, exec and exit, where real SDET also switches on pipes and I/O that both kernels share; its " +
			"source in the model is the child-runs-first fork (a switch to the child, and back to the shell) and the exec " +
			"pushes it leads to. The early surge and the runqueue lengths, where they do not hold, are not explained by the " +
			"model: Rick Lindsley himself suspected the machine (\"this was on an SMT machine\") or \"drawing too much from " +
			"one data point\", and in the model both schedulers start from the same balance intervals.",
	}, kb}
}

// kernbenchExit is make's exit time (ms) on kernbench-numaq at base
// v2.6.8 with the given runqueue and make -j tokens.
func kernbenchExit(sched, tokens string, seed uint64) (float64, error) {
	t := &Table{ID: "kernbench-j", Preset: "kernbench-numaq", Sets: []string{"policy.base=v2.6.8"}}
	sc, err := t.build(&Point{Label: "-j" + tokens}, []string{"policy.cpu_scheduler=" + sched, "tasks.make.program[0].repeat=" + tokens}, seed)
	if err != nil {
		return 0, err
	}
	j := &job{scen: sc, scale: 1, family: -1}
	j.run()
	if j.err != nil {
		return 0, j.err
	}
	if ms, ok := exitMS(&j.m, "make/0"); ok {
		return ms, nil
	}
	return 0, fmt.Errorf("kernbench-numaq %s -j%s seed %d: make did not exit", sched, tokens, seed)
}
