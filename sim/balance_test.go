package sim

import "testing"

// fourCPUs is one LLC of 4 single-thread cores (MC only), with recording on
// so that decisions can be read back.
func fourCPUs(t *testing.T, base Base, lm LoadMetric) *Sim {
	t.Helper()
	cfg := &Config{Seed: 1, Duration: 1e9,
		Machine: Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 4, ThreadsPerCore: 1, HZ: 1000, Costs: DefaultCosts()},
		Policy:  Policy{Base: base, LoadMetric: lm},
		Tasks:   []TaskGroup{{Name: "t", Count: 6, Program: []Step{{Op: OpRun, Dur: 1e6}}}},
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	return s
}

// place puts tasks on cpu: the first runs, the rest are queued in order
// (the last one queued is the most recent). Each counts as long-running:
// cache-cold and, for PELT, at full load.
func place(s *Sim, cpu int, ids ...int) {
	rq := s.cpus[cpu]
	rq.idle = false
	s.updIdleMask(rq)
	s.m.nIdle--
	for i, id := range ids {
		p := s.tasks[id]
		p.cpu, p.onRq, p.state = cpu, true, TaskRunnable
		p.avg.LoadAvg, p.avg.UtilAvg = p.weight, 1024/uint64(len(ids))
		p.avg38.LoadAvgContrib = p.weight
		p.execStart = coldExecStart
		s.enqSeq++
		p.enqSeq, p.listPos = s.enqSeq, s.enqSeq
		rq.nrRunning++
		rq.loadWeight += p.weight
		if i == 0 {
			p.state = TaskRunning
			rq.curr = p
			rq.busySince = 0
		} else {
			rq.queue = append(rq.queue, p)
		}
	}
	n := uint64(len(ids))
	rq.cfsAvg.LoadAvg, rq.cfsAvg.UtilAvg, rq.cfsAvg.RunnableAvg = 1024*n, 1024, 1024*n
	for i := range rq.cpuLoad {
		rq.cpuLoad[i] = rq.loadWeight
	}
}

// TestSchedBalanceRqByHand works v6.17 sched_balance_rq() by hand. cpu0
// runs 3 tasks, cpu1 and cpu2 one each, cpu3 is idle and balances MC
// (imbalance_pct 117, each group one CPU of capacity 1024):
//
//	{0}: 3 tasks > 1 CPU and 1024*100 < 1024*117 (util) -> overloaded
//	{1},{2}: 1 task, 1024*100 > 1024*117 fails -> fully_busy
//	{3} (local): idle -> has_spare
//	busiest = {0}; local has_spare, MC shares the LLC and groups are one CPU
//	wide, so migrate_task with sibling_imbalance = (3-0) >> 1 = 1
//	busiest rq by nr_running: cpu0; detach from the tail of cfs_tasks: the
//	task queued longest ago that is not running, task 1.
func TestSchedBalanceRqByHand(t *testing.T) {
	s := fourCPUs(t, BaseV617, LoadAvg)
	place(s, 0, 0, 1, 2)
	place(s, 1, 3)
	place(s, 2, 4)
	dst := s.cpus[3]
	sd := dst.domains[0]
	cont := true
	moved := s.loadBalance(dst, sd, cpuIdle, &cont)
	d, _ := s.Decision(s.decSeq)
	if moved != 1 || s.tasks[1].cpu != 3 || s.tasks[2].cpu != 0 {
		t.Fatalf("moved %d; task1 on cpu%d, task2 on cpu%d; want task 1 to cpu3: %s", moved, s.tasks[1].cpu, s.tasks[2].cpu, d.Text(s.TaskName))
	}
	want := map[string]int64{"busiest_type": int64(groupOverloaded), "local_type": int64(groupHasSpare), "imbalance": 1, "migration_type": int64(migrateTask)}
	for i := 0; i < d.NNums; i++ {
		if w, ok := want[d.Nums[i].K]; ok && d.Nums[i].V != w {
			t.Errorf("%s = %d, want %d (%s)", d.Nums[i].K, d.Nums[i].V, w, d.Text(s.TaskName))
		}
	}
	if d.Target != 0 || sd.Stats.LB[cpuIdle].Gained != 1 || s.m.mig[CauseBalance] != 1 {
		t.Errorf("source cpu%d, gained %d, balance migrations %d", d.Target, sd.Stats.LB[cpuIdle].Gained, s.m.mig[CauseBalance])
	}
}

// TestLoadBalance38ByHand works v3.8 load_balance() by hand on the same
// state, with load.weight and idle_idx 0 (instantaneous loads):
//
//	this_load 0, {0}: 3072 (3 tasks > capacity 1: busiest), {1},{2}: 1024
//	avg_load = 1024*5120/4096 = 1280; CPU_IDLE: this idle CPUs 1 <= 0+1,
//	but busiest runs 3 tasks on 1 CPU -> not balanced
//	busiest_load_per_task = 3072/3 = 1024; load_above_capacity = (3-1)*1024
//	max_pull = min(3072-1280, 2048) = 1792
//	imbalance = min(1792*1024, (1280-0)*1024)/1024 = 1280 (>= 1024: no fix_small_imbalance)
//	move_tasks from the head of cfs_tasks (the most recently queued, task 2):
//	1024/2 <= 1280 -> move, imbalance 256; task 1: 512 > 256 -> skip.
func TestLoadBalance38ByHand(t *testing.T) {
	s := fourCPUs(t, BaseV38, LoadWeight)
	place(s, 0, 0, 1, 2)
	place(s, 1, 3)
	place(s, 2, 4)
	dst := s.cpus[3]
	sd := dst.domains[0]
	cont := true
	moved := s.loadBalance(dst, sd, cpuIdle, &cont)
	d, _ := s.Decision(s.decSeq)
	if moved != 1 || s.tasks[2].cpu != 3 || s.tasks[1].cpu != 0 {
		t.Fatalf("moved %d; task2 on cpu%d, task1 on cpu%d; want task 2 to cpu3: %s", moved, s.tasks[2].cpu, s.tasks[1].cpu, d.Text(s.TaskName))
	}
	want := map[string]int64{"this_load": 0, "max_load": 3072, "avg_load": 1280, "imbalance": 1280}
	for i := 0; i < d.NNums; i++ {
		if w, ok := want[d.Nums[i].K]; ok && d.Nums[i].V != w {
			t.Errorf("%s = %d, want %d (%s)", d.Nums[i].K, d.Nums[i].V, w, d.Text(s.TaskName))
		}
	}
}

// TestCanMigrateTask: affinity, running, cache-hot and its override after
// cache_nice_tries failures, and ELIGIBLE_FIRST's soft limit.
func TestCanMigrateTask(t *testing.T) {
	s := fourCPUs(t, BaseV617, LoadAvg)
	place(s, 0, 0, 1, 2)
	sd := s.cpus[3].domains[0]
	env := &lbEnv{sd: sd, dstCPU: 3, dstRQ: s.cpus[3], srcCPU: 0, srcRQ: s.cpus[0], idle: cpuNotIdle, cpus: sd.Span}
	if ok, _ := s.canMigrateTask(s.tasks[0], env); ok {
		t.Error("the running task migrated")
	}
	s.tasks[1].allowed = MaskOf(0, 1)
	if ok, _ := s.canMigrateTask(s.tasks[1], env); ok || env.flags&lbfSomePinned == 0 {
		t.Error("a task not allowed on dst migrated")
	}
	s.now = 1e6
	s.tasks[2].execStart = s.now - 100e3 // ran 100us ago: hot (< 500us)
	if ok, hot := s.canMigrateTask(s.tasks[2], env); ok || !hot {
		t.Errorf("cache-hot task: ok=%v hot=%v", ok, hot)
	}
	sd.NrBalanceFailed = sd.CacheNiceTries + 1
	if ok, hot := s.canMigrateTask(s.tasks[2], env); !ok || !hot {
		t.Errorf("after %d failures a hot task may move: ok=%v hot=%v", sd.NrBalanceFailed, ok, hot)
	}
	// ELIGIBLE_FIRST: an ineligible task (vruntime past the average) is
	// refused onto a busy dst until a balance has failed.
	sd.NrBalanceFailed = 0
	s.tasks[2].execStart = coldExecStart
	rq0 := s.cpus[0]
	for _, p := range []*Task{s.tasks[0], s.tasks[1]} {
		p.vruntime = 0
	}
	rq0.minVruntime, rq0.avgVruntime, rq0.avgLoad = 0, 0, 0
	s.tasks[1].allowed = s.topo.All
	rq0.avgAdd(s.tasks[1])
	s.tasks[2].vruntime = 10e6 // far ahead of V: negative lag
	rq0.avgAdd(s.tasks[2])
	place(s, 3, 5)
	s.feat |= 1 << FeatEligibleFirst
	if ok, _ := s.canMigrateTask(s.tasks[2], env); ok {
		t.Error("ELIGIBLE_FIRST: an ineligible task moved onto a busy CPU at the first attempt")
	}
	if ok, _ := s.canMigrateTask(s.tasks[1], env); !ok {
		t.Error("ELIGIBLE_FIRST: an eligible task was refused")
	}
	sd.NrBalanceFailed = 1
	if ok, _ := s.canMigrateTask(s.tasks[2], env); !ok {
		t.Error("ELIGIBLE_FIRST is a soft limit: after a failure the ineligible task may move")
	}
}
