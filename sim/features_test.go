package sim

import "testing"

func runHash(t *testing.T, cfg *Config) (string, Metrics) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	m := s.Metrics()
	return m.TraceHash, m
}

// TestFeatureDefaults: v6.17 runs with ELIGIBLE_FIRST on, as mainline does
// since 873199d27bb2 (6.14); setting a feature to its base's default changes
// nothing, clearing it is an A/B switch. On this mixed workload an
// ineligible task is a balancer's candidate a few times a second (2-3 per
// simulated second, seeds 1-3, once the wake-up's search delays the
// wakee's IPI; none in the 200 ms this test first ran), so it runs 1 s.
func TestFeatureDefaults(t *testing.T) {
	cfg := func(set, clear uint32) *Config {
		return &Config{Seed: 1, Duration: 1e9, Machine: machine(1, 1, 1, 4, 2, NumberX86),
			Policy: Policy{Base: BaseV617, FeatSet: set, FeatClear: clear}, Tasks: mixed()}
	}
	s, err := New(cfg(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Feature(FeatEligibleFirst) {
		t.Fatal("v6.17 without overrides: ELIGIBLE_FIRST off, want on (mainline)")
	}
	// ELIGIBLE_FIRST's A/B with DELAY_DEQUEUE off, so that an ineligible
	// sleeper leaves its runqueue at once and ineligible runnable tasks
	// remain for the balancer to consider.
	dd := uint32(1) << FeatDelayDequeue
	def, _ := runHash(t, cfg(0, dd))
	on, _ := runHash(t, cfg(1<<FeatEligibleFirst, dd))
	if def != on {
		t.Errorf("ELIGIBLE_FIRST=true (the default) changed the run: %s vs %s", on, def)
	}
	off, m := runHash(t, cfg(0, dd|1<<FeatEligibleFirst))
	if off == def || m.Migrations.IneligibleFirstTry == 0 {
		t.Errorf("ELIGIBLE_FIRST=false: same run (%v) or no ineligible task moved at a first try (%d)", off == def, m.Migrations.IneligibleFirstTry)
	}
	// DELAY_DEQUEUE: on by default since 6.12; =true changes nothing,
	// =false changes the run.
	if !s.Feature(FeatDelayDequeue) {
		t.Fatal("v6.17 without overrides: DELAY_DEQUEUE off, want on (features.h since 6.12)")
	}
	all, _ := runHash(t, cfg(0, 0))
	ddOn, _ := runHash(t, cfg(dd, 0))
	if all != ddOn || all == def {
		t.Errorf("DELAY_DEQUEUE: default %s, =true %s, =false %s: want the first two equal, the third different", all, ddOn, def)
	}
	s38, _ := New(&Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: Policy{Base: BaseV38}, Tasks: mixed()})
	if s38.Feature(FeatEligibleFirst) || s38.Feature(FeatDelayDequeue) {
		t.Error("v3.8 has no EEVDF: ELIGIBLE_FIRST and DELAY_DEQUEUE must be off")
	}
}

// TestDelayDequeue follows DELAY_DEQUEUE (v6.17 dequeue_entity(),
// pick_next_entity(), ttwu_runnable()) on one CPU: a hog and a task that
// runs 3 ms then sleeps 1 ms, both nice 0 (weight 1024). Sharing the CPU
// with the hog, the sleeper blocks having run past the average vruntime
// (not eligible), so it is not dequeued: it stays queued as sched_delayed,
// blocked but on the runqueue with its weight (load.weight 1024+1024 =
// 2048, nr_running 2), not runnable (h_nr_runnable 2-1 = 1), its util_est
// gone from the cfs_rq's (only the hog's remains). It leaves that state in
// one of two ways: picked (dequeued for good: load.weight back to 1024, and
// DELAY_ZERO leaves it no positive lag) or woken by its timer first
// (requeued in place: runnable on CPU 0, no migration). A 1 ms sleep ends
// before the hog's slice does: the timer's wake-up finds it still delayed;
// a 20 ms sleep outlasts the pick. With the feature off it never stays.
func TestDelayDequeue(t *testing.T) {
	for _, tc := range []struct {
		on    bool
		sleep int64
	}{{true, 1e6}, {true, 20e6}, {false, 1e6}, {false, 20e6}} {
		on := tc.on
		var clear uint32
		if !on {
			clear = 1 << FeatDelayDequeue
		}
		cfg := &Config{Seed: 1, Duration: 200e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV617, FeatClear: clear},
			Tasks: []TaskGroup{
				{Name: "hog", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e9}}},
				{Name: "s", Count: 1, Program: []Step{{Op: OpRun, Dur: 3e6}, {Op: OpSleep, Dur: tc.sleep}}},
			}}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hog, p, rq := s.tasks[0], s.tasks[1], s.cpus[0]
		seen, picked, woken := 0, 0, 0
		wasDelayed := false
		for s.now < 200e6 && s.Step() {
			if err := s.CheckInvariants(); err != nil {
				t.Fatal(err)
			}
			if p.delayed && !wasDelayed {
				seen++
				if p.state != TaskBlocked || !p.onRq || rq.loadWeight != 2048 || rq.nrRunning != 2 || rq.nrRunning-rq.nrDelayed != 1 {
					t.Fatalf("delayed: state %v on_rq %v load.weight %d nr_running %d h_nr_runnable %d; want blocked, true, 2048, 2, 1",
						p.state, p.onRq, rq.loadWeight, rq.nrRunning, rq.nrRunning-rq.nrDelayed)
				}
				if rq.curr != hog || rq.cfsAvg.UtilEst != taskUtilEst(hog) {
					t.Fatalf("delayed: curr %v, cfs util_est %d; want the hog running and only its util_est %d", rq.curr, rq.cfsAvg.UtilEst, taskUtilEst(hog))
				}
			}
			if wasDelayed && !p.delayed {
				switch {
				case p.state == TaskBlocked && !p.onRq && rq.loadWeight == 1024 && rq.nrRunning == 1:
					picked++
					if p.vlag > 0 {
						t.Fatalf("picked and dequeued with lag %d > 0: DELAY_ZERO drops it", p.vlag)
					}
				case (p.state == TaskRunnable || p.state == TaskRunning) && p.onRq && p.cpu == 0 && rq.loadWeight == 2048:
					woken++
				default:
					t.Fatalf("left the delayed state as neither: state %v on_rq %v load.weight %d", p.state, p.onRq, rq.loadWeight)
				}
			}
			wasDelayed = p.delayed
		}
		short := tc.sleep < 2e6
		if on && (seen == 0 || picked+woken < seen-1 || short && woken == 0 || !short && picked == 0) {
			t.Errorf("DELAY_DEQUEUE on, sleep %d ns: delayed %d times, left by pick %d and by wake-up %d times; want some, each left, by wake-up after a short sleep, by pick after a long one",
				tc.sleep, seen, picked, woken)
		}
		if !on && seen != 0 {
			t.Errorf("DELAY_DEQUEUE off: delayed %d times", seen)
		}
	}
}

// TestDelayedMigratesWithLoad: v6.17 can_migrate_task() rule 1), "if
// ((p->se.sched_delayed) && (env->migration_type != migrate_load)) return
// 0;". A task that DELAY_DEQUEUE left on CPU 0's tree (blocked, with its
// weight) is refused when the balancer moves tasks or utilization, and
// moves when it moves load; it then arrives still sched_delayed: on CPU 1's
// tree with its weight, out of h_nr_runnable, its util_est not added (it
// left with the sleep), and it leaves the delayed state there, by a pick or
// by a wake-up in place, never by another migration.
func TestDelayedMigratesWithLoad(t *testing.T) {
	s, p, env := delayedOnBusyCPU(t)
	src, dst, sd := env.srcRQ, env.dstRQ, env.sd
	// Past ELIGIBLE_FIRST's and task_hot()'s refusals: balancing has failed.
	sd.NrBalanceFailed = sd.CacheNiceTries + 1
	for _, mt := range []migrationType{migrateTask, migrateUtil} {
		env.mtype = mt
		if ok, _ := s.canMigrateTask(p, env); ok {
			t.Fatalf("migration type %d: a sched_delayed task may move; want refused unless migrate_load", mt)
		}
	}
	env.mtype = migrateLoad
	if ok, _ := s.canMigrateTask(p, env); !ok {
		t.Fatal("migrate_load: the sched_delayed task is refused; want it moved with the load")
	}
	srcDelayed, dstDelayed, dstLoad, dstUtilEst := src.nrDelayed, dst.nrDelayed, dst.loadWeight, dst.cfsAvg.UtilEst
	s.detachTask(env, p)
	s.attachTasks(env)
	if !p.delayed || p.state != TaskBlocked || !p.onRq || p.cpu != dst.cpu {
		t.Fatalf("after the move: delayed %v state %v on_rq %v cpu %d; want still delayed, blocked and queued on cpu%d", p.delayed, p.state, p.onRq, p.cpu, dst.cpu)
	}
	if src.nrDelayed != srcDelayed-1 || dst.nrDelayed != dstDelayed+1 || dst.loadWeight != dstLoad+p.weight {
		t.Fatalf("nr_delayed src %d→%d dst %d→%d, dst load.weight %d→%d; want one delayed task and its weight moved",
			srcDelayed, src.nrDelayed, dstDelayed, dst.nrDelayed, dstLoad, dst.loadWeight)
	}
	if dst.cfsAvg.UtilEst != dstUtilEst {
		t.Fatalf("dst util_est %d→%d; want unchanged (no util_est_enqueue() for a sched_delayed task)", dstUtilEst, dst.cfsAvg.UtilEst)
	}
	if err := s.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	for p.delayed && s.now < 300e6 && s.Step() {
		if err := s.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
	}
	if p.delayed || p.cpu != dst.cpu {
		t.Fatalf("delayed %v on cpu%d at %d ns; want it out of the delayed state on cpu%d, where it was moved", p.delayed, p.cpu, s.now, dst.cpu)
	}
}

// delayedOnBusyCPU runs two hogs and a task that runs 3 ms and sleeps 1 ms
// on two CPUs (v6.17) until DELAY_DEQUEUE leaves the sleeper on its CPU's
// tree behind a hog, and returns a balancing env from that CPU (src) to the
// other (dst) at the machine's one level.
func delayedOnBusyCPU(t *testing.T) (*Sim, *Task, *lbEnv) {
	t.Helper()
	cfg := &Config{Seed: 1, Duration: 300e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{
			{Name: "hog", Count: 2, Program: []Step{{Op: OpRun, Dur: 1e9}}},
			{Name: "s", Count: 1, Program: []Step{{Op: OpRun, Dur: 3e6}, {Op: OpSleep, Dur: 1e6}}},
		}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := s.tasks[2]
	for !p.delayed && s.now < 300e6 && s.Step() {
	}
	if !p.delayed {
		t.Fatal("s was never left delayed on its runqueue")
	}
	src, dst := s.cpus[p.cpu], s.cpus[1-p.cpu]
	if src.curr == nil || src.nrRunning != 2 || src.nrDelayed != 1 || dst.nrRunning != 1 {
		t.Fatalf("src nr_running %d (delayed %d), dst %d; want a hog running and s delayed on src, a hog on dst", src.nrRunning, src.nrDelayed, dst.nrRunning)
	}
	sd := dst.domains[0]
	return s, p, &lbEnv{sd: sd, dstCPU: dst.cpu, dstRQ: dst, srcCPU: src.cpu, srcRQ: src, idle: cpuNotIdle, cpus: sd.Span,
		cause: CauseBalance, d: &Decision{}}
}

// TestDelayedNotRunnableToBalancer: v6.17 update_sg_lb_stats() adds
// rq->cfs.h_nr_runnable to sum_h_nr_running and rq->nr_running to
// sum_nr_running, and sched_balance_find_src_rq() reads h_nr_runnable (Vincent
// Guittot, "sched/fair: Use the new cfs_rq.h_nr_runnable"). A CPU running a
// hog with a sched_delayed task behind it has one runnable task and two
// queued: it is no source for a utilization migration ("Don't try to pull
// utilization from a CPU with one running task").
func TestDelayedNotRunnableToBalancer(t *testing.T) {
	s, _, env := delayedOnBusyCPU(t)
	var g *SchedGroup
	for _, sg := range env.sd.Groups {
		if sg.Span.Has(env.srcCPU) {
			g = sg
		}
	}
	if g == nil {
		t.Fatalf("no group of %v spans cpu%d", env.sd, env.srcCPU)
	}
	var overloaded bool
	sgs := s.updateSgLBStats(env, g, false, &overloaded)
	if sgs.sumHNrRunning != 1 || sgs.sumNrRunning != 2 {
		t.Fatalf("src's group: sum_h_nr_running %d, sum_nr_running %d; want 1 (the hog) and 2 (the hog and the delayed task)", sgs.sumHNrRunning, sgs.sumNrRunning)
	}
	env.mtype = migrateUtil
	if rq := s.findBusiestQueue(env, g); rq != nil {
		t.Fatalf("migrate_util: busiest cpu%d; want none (one runnable task there)", rq.cpu)
	}
}
