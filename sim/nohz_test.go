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
	s.nohzKickBalance = true
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
