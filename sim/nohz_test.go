package sim

import "testing"

// TestUpdateIdleCPULoad38: before the idle load balancer balances an idle
// 3.8 CPU it catches up the CPU's cpu_load[] (update_idle_cpu_load()).
// Worked by hand: cpu_load[] = 1024 at jiffy 0, idle (load 0) until jiffy
// 10, so 10 updates are pending; __update_cpu_load(rq, 0, 10) decays each
// index by decay_load_missed(load, 9, i) and then takes one update of 0:
// cpu_load[0] = 0; cpu_load[1]: 9 missed >= degrade_zero_ticks[1] = 8 -> 0,
// then (0*1 + 0) >> 1 = 0; cpu_load[2]: 9 = 0b1001 takes degrade_factor[2]
// entries 0 and 3: 1024*96>>7 = 768, 768*12>>7 = 72, then (72*3 + 0) >> 2 =
// 54; cpu_load[3]: 1024*112>>7 = 896, 896*43>>7 = 301, (301*7) >> 3 = 263.
func TestUpdateIdleCPULoad38(t *testing.T) {
	s := smallSim(t, BaseV38, SISV38)
	rq := s.cpus[5]
	for i := range rq.cpuLoad {
		rq.cpuLoad[i] = 1024
	}
	rq.lastLoadUpdate = 0
	rq.nextBalance = 0
	s.now = 10 * s.tickNS
	s.nohzKick = nohzBalanceKick | nohzStatsKick
	s.nohzIdleBalance(s.cpus[0])
	if rq.cpuLoad[0] != 0 || rq.cpuLoad[1] != 0 || rq.cpuLoad[2] != 54 || rq.cpuLoad[3] != 263 || rq.lastLoadUpdate != 10 {
		t.Fatalf("cpu_load after the nohz balance: %v (last update %d), want [0 0 54 263 ...] at jiffy 10", rq.cpuLoad, rq.lastLoadUpdate)
	}
}

// TestNohzStatsKick: in v6.17 the blocked load of an idle CPU decays even
// when no balancing is due (NOHZ_STATS_KICK every LOAD_AVG_PERIOD ms). A
// task runs 20 ms on one CPU, then sleeps 1 s; another task keeps one other
// CPU busy alone (nr_running 1, one busy CPU in the LLC: no balance kick).
// The sleeper starts with full load (1024) and still has it when it sleeps
// at 20 ms; by 200 ms the stats kicks (one every ~33 ms: 32 ms plus the
// kick's IPI and C-state exit) have decayed it for more than 4 half-lives
// (y^32 = 1/2), to at most 1024/16; without them it would keep the 1024 of
// its last update, when its CPU went idle.
func TestNohzStatsKick(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 1e9, Machine: machine(1, 1, 1, 4, 1, NumberLinear),
		Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{
			{Name: "sleeper", Count: 1, Loop: 1, Program: []Step{{Op: OpRun, Dur: 20e6}, {Op: OpSleep, Dur: 1e9}}},
			{Name: "hog", Count: 1, Start: 1e6, Program: []Step{{Op: OpRun, Dur: 1e9}}},
		}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(200e6)
	sl := s.tasks[0]
	rq := s.cpus[sl.cpu]
	if rq.curr != nil {
		t.Fatalf("the sleeper's cpu%d is running task %d", sl.cpu, rq.curr.id)
	}
	if rq.cfsAvg.LoadAvg == 0 || rq.cfsAvg.LoadAvg > 1024/16 {
		t.Fatalf("cpu%d blocked load_avg %d at 200 ms, want decayed to (0, 64]", sl.cpu, rq.cfsAvg.LoadAvg)
	}
}

// TestNewidleMovesNextBalance: v6.17 sched_balance_newidle() ends with
// "Move the next balance forward": a CPU going idle takes, as its
// next_balance, the earliest sd->last_balance + get_sd_balance_interval(sd,
// 0) of the domains it visited (update_next_balance(), idle intervals:
// no busy_factor), when that is earlier than the next_balance a busy tick
// left. Without it, an idle CPU whose last busy tick set next_balance 16
// intervals away is not balanced, nor due for the nohz balancer, until
// then. Worked by hand on the small machine (HZ 1000, so a jiffy is 1 ms),
// cpu1 at jiffy 100 with next_balance 164 from its busy ticks: SMT spans 2
// CPUs (balance_interval 2 ms), last balanced at 97 -> 99; MC spans 8 (8
// ms), last balanced at 89 -> 97.
//   - root domain not overloaded: only the lowest domain is read (the early
//     "goto out"): next_balance 99;
//   - overloaded, idle long enough to search every level: both: 97;
//   - a next_balance already earlier (95) stays;
//   - a wake-up already in flight (ttwu_pending) returns first: 164 stays.
func TestNewidleMovesNextBalance(t *testing.T) {
	for _, c := range []struct {
		name       string
		overloaded bool
		pending    int
		before     int64
		want       int64
	}{
		{"not overloaded", false, 0, 164, 99},
		{"overloaded", true, 0, 164, 97},
		{"already earlier", true, 0, 95, 95},
		{"ttwu pending", false, 1, 164, 164},
	} {
		s := smallSim(t, BaseV617, SISUtil)
		s.now = 100 * s.tickNS
		rq := s.cpus[1]
		if len(rq.domains) != 2 || rq.domains[0].BalanceInterval != 2 || rq.domains[1].BalanceInterval != 8 {
			t.Fatalf("cpu1's domains: %d, balance intervals %d, %d ms; want SMT 2, MC 8", len(rq.domains), rq.domains[0].BalanceInterval, rq.domains[1].BalanceInterval)
		}
		rq.domains[0].LastBalance, rq.domains[1].LastBalance = 97, 89
		rq.nextBalance = c.before
		rq.avgIdle = 1e9
		rq.ttwuPending = c.pending
		s.rdOverloaded = c.overloaded
		s.newidleBalance(rq)
		if rq.nextBalance != c.want {
			t.Errorf("%s: next_balance %d after newidle, want %d", c.name, rq.nextBalance, c.want)
		}
	}
}

// TestNohzNextKick: a v6.17 CPU whose tick stops in idle for the first time
// since its last busy tick sets nohz.needs_update (nohz_balance_enter_idle()),
// and a busy tick then kicks an idle CPU only to collate the idle CPUs'
// next_balance into nohz.next_balance (NOHZ_NEXT_KICK, 7fd7a9e0caba).
// Worked by hand on the small machine (HZ 1000, a jiffy is 1 ms), every CPU
// busy but cpu1, cpu0 ticking with two tasks: cpu1 goes idle at jiffy 100
// with next_balance 101, while nohz.next_balance is 130 (left by an idle
// balance whose CPU has turned busy since).
//   - jiffy 100: 100 < 130, no balance kick, but needs_update: a NEXT kick;
//     its pass balances no one and takes cpu1's 101 as nohz.next_balance;
//   - jiffy 101: due, and cpu0 has two tasks: a balance kick.
//
// Without NOHZ_NEXT_KICK (3.8) jiffy 100 kicks nothing and the balance waits
// for jiffy 130. A CPU whose tick stops again with no busy tick in between
// is still registered (rq->nohz_tick_stopped) and does not set needs_update.
func TestNohzNextKick(t *testing.T) {
	for _, base := range []Base{BaseV617, BaseV38} {
		s := smallSim(t, base, SISV36)
		if base == BaseV617 {
			s = smallSim(t, base, SISUtil)
		}
		busy(s, 0, 2, 3, 4, 5, 6, 7)
		s.m.nIdle = 1
		s.now = 100 * s.tickNS
		rq0, rq1 := s.cpus[0], s.cpus[1]
		rq0.nrRunning = 2
		rq1.nextBalance = 101
		s.nohzNextBalance = 130
		if s.era.nohzNextKick {
			s.nohzBalanceEnterIdle(rq1)
		}
		s.nohzBalancerKick(rq0)
		if base == BaseV38 {
			if s.nohzKick != 0 {
				t.Fatalf("v3.8: a kick at jiffy 100 before nohz.next_balance 130")
			}
			continue
		}
		if s.nohzKick&nohzNextKick == 0 || s.nohzKick&nohzBalanceKick != 0 {
			t.Fatalf("jiffy 100: kick flags %03b; want a NEXT kick and no balance", s.nohzKick)
		}
		s.nohzIdleBalance(rq1)
		if s.nohzNextBalance != 101 || s.nohzNeedsUpdate {
			t.Fatalf("after the NEXT pass: nohz.next_balance %d, needs_update %v; want 101, false", s.nohzNextBalance, s.nohzNeedsUpdate)
		}
		s.now = 101 * s.tickNS
		s.nohzBalancerKick(rq0)
		if want := nohzBalanceKick | nohzStatsKick; s.nohzKick&want != want {
			t.Fatalf("jiffy 101: kick flags %03b; want a balance kick (NOHZ_KICK_MASK, %03b)", s.nohzKick, want)
		}
		s.nohzKick = 0
		// cpu1's tick stops again with no busy tick of its own in between:
		// still registered, no new collation.
		s.nohzBalanceEnterIdle(rq1)
		if s.nohzNeedsUpdate {
			t.Fatalf("needs_update set by a CPU still registered in nohz")
		}
		s.nohzBalancerKick(rq1) // its busy tick: nohz_balance_exit_idle()
		s.nohzBalanceEnterIdle(rq1)
		if !s.nohzNeedsUpdate {
			t.Fatalf("needs_update not set by a CPU entering nohz after a busy tick")
		}
	}
}

// TestNohzAfterTick: with NOHZ_AFTER_TICK (f4c31b07b136: do_idle() stops
// the tick only when the tick woke the CPU in the idle loop's previous
// pass) a CPU that goes idle keeps its tick and stays out of
// nohz.idle_cpus_mask, so a busy CPU's tick finds no CPU to kick; its own
// next tick stops the tick and enters nohz (nohz_balance_enter_idle():
// rq->nohz_tick_stopped, nohz.needs_update). Worked on two CPUs (HZ 1000):
// a hog on one, a task that runs 1.5 ms and sleeps on the other, which is
// idle from about 1.5 ms; its next tick is at 2 ms. Without the feature
// the CPU enters nohz as it goes idle (the model lets that tick fire once,
// doing nothing, where the kernel reprograms it).
func TestNohzAfterTick(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := Policy{Base: BaseV617}
		if on {
			p.FeatSet = 1 << FeatNohzAfterTick
		}
		cfg := &Config{Seed: 1, Duration: 1e9, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: p,
			Tasks: []TaskGroup{
				{Name: "hog", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e9}}},
				{Name: "sleeper", Count: 1, Loop: 1, Program: []Step{{Op: OpRun, Dur: 1.5e6}, {Op: OpSleep, Dur: 100e6}}},
			}}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(1.9e6)
		hog, sl := s.tasks[0], s.tasks[1]
		rq, busyRQ := s.cpus[sl.cpu], s.cpus[hog.cpu]
		if rq == busyRQ || rq.curr != nil || !rq.idle {
			t.Fatalf("on=%v: at 1.9 ms the sleeper's cpu%d runs %v (hog on cpu%d); want it idle", on, rq.cpu, rq.curr, busyRQ.cpu)
		}
		if rq.tickRetained != on || (on && !rq.tickOn) || rq.nohzStopped == on || s.nohzIdleCPU(rq.cpu) == on {
			t.Fatalf("on=%v: idle at 1.9 ms: tick kept %v, tick on %v, nohz_tick_stopped %v, in nohz %v",
				on, rq.tickRetained, rq.tickOn, rq.nohzStopped, s.nohzIdleCPU(rq.cpu))
		}
		// A busy CPU with work to spare, balance due: it kicks only a CPU
		// in nohz.
		busyRQ.nrRunning, s.nohzNextBalance = 2, 0
		s.nohzBalancerKick(busyRQ)
		if (s.nohzKick != 0) == on {
			t.Fatalf("on=%v: kick flags %03b at 1.9 ms", on, s.nohzKick)
		}
		busyRQ.nrRunning, s.nohzKick = 1, 0
		s.RunUntil(2.1e6)
		if rq.tickRetained || rq.tickOn || !rq.nohzStopped || !s.nohzIdleCPU(rq.cpu) || s.nTickRetained != 0 {
			t.Fatalf("on=%v: after the 2 ms tick: tick kept %v, tick on %v, nohz_tick_stopped %v, in nohz %v, %d CPUs keeping ticks; want it in nohz",
				on, rq.tickRetained, rq.tickOn, rq.nohzStopped, s.nohzIdleCPU(rq.cpu), s.nTickRetained)
		}
		if on && !s.nohzNeedsUpdate {
			t.Fatalf("the CPU entered nohz at its tick without setting nohz.needs_update")
		}
	}
}
