package sim

import "testing"

// Hand-worked remote-memory charges (numa_cost.go). The machine is
// twoNodes(): cpu0, cpu1 on node 0; cpu2, cpu3 on node 1.

// TestRemoteMemFormula: a run step of 1 ms begun away from the task's home
// node costs RemoteMemPct of it per REMOTE_DISTANCE - LOCAL_DISTANCE = 10
// of node distance: 45 % at distance 20 is 450 us; at distance 30 (a
// per-CPU machine's table) twice that, 900 us; on the home node nothing;
// with RemoteMemPct 0 nothing anywhere.
func TestRemoteMemFormula(t *testing.T) {
	m := twoNodes()
	m.Costs.RemoteMemPct = 45
	s, err := New(&Config{Seed: 1, Duration: 1e6, Machine: m,
		Tasks: []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}}}}})
	if err != nil {
		t.Fatal(err)
	}
	p := &Task{homeNode: 0}
	for _, c := range []struct {
		cpu  int
		want int64
	}{{0, 0}, {1, 0}, {2, 450_000}, {3, 450_000}} {
		if got := s.remoteMem(p, c.cpu, 1e6); got != c.want {
			t.Errorf("home node 0, run on cpu%d: %d ns extra, want %d", c.cpu, got, c.want)
		}
	}
	if got := s.remoteMem(&Task{homeNode: -1}, 2, 1e6); got != 0 {
		t.Errorf("no home node yet: %d ns extra, want 0", got)
	}
	s.costs.RemoteMemPct = 0
	if got := s.remoteMem(p, 2, 1e6); got != 0 {
		t.Errorf("RemoteMemPct 0: %d ns extra, want 0", got)
	}

	// A per-CPU machine with node distance 30 between its two nodes.
	pm := Machine{HZ: 1000, Costs: DefaultCosts(), NUMADistance: [][]int{{10, 30}, {30, 10}}}
	for i := range 4 {
		pm.CPUs = append(pm.CPUs, CPUPlace{ID: i, Core: i, Cluster: -1, LLC: i / 2, Socket: i / 2, Node: i / 2})
	}
	pm.Costs.RemoteMemPct = 45
	s, err = New(&Config{Seed: 1, Duration: 1e6, Machine: pm,
		Tasks: []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.remoteMem(p, 2, 1e6); got != 900_000 {
		t.Errorf("distance 30: %d ns extra, want 900000", got)
	}
}

// TestRemoteMemForkExec: where a task's memory lives.
//
// The parent runs on cpu0 (node 0) and forks one child whose affinity is
// cpu2 alone: wake_up_new_task() cannot keep it on cpu0 and
// select_fallback_rq() puts it on cpu2 (node 1). Its memory is where
// copy_process() ran, node 0 (numa_cost.go), so its first step, run 1 ms,
// begins away from home: 1 ms x 45 % = 450 us extra. It then execs; its
// only allowed CPU is its own, so it stays, and the new image is first
// touched there: home is node 1 and its second step, run 1 ms, costs
// nothing extra. The parent never leaves cpu0, where it first ran. Total
// remote-memory time: 0.45 ms. With remote_mem_pct 0 the same run charges
// nothing and the child's CPU time is 450 us less.
func TestRemoteMemForkExec(t *testing.T) {
	run := func(pct int) Metrics {
		m := twoNodes()
		m.Costs.RemoteMemPct = pct
		cfg := &Config{Seed: 1, Duration: 20e6, Machine: m, Policy: Policy{Base: BaseV38, SDFlags: noForkBalance()},
			Tasks: []TaskGroup{
				{Name: "parent", Count: 1, CPUs: MaskOf(0), Program: []Step{{Op: OpRun, Dur: 100e3}, {Op: OpFork, Target: 1, Count: 1},
					{Op: OpWaitChildren}, {Op: OpSleep, Dur: 1e9}}},
				{Name: "child", Count: 0, CPUs: MaskOf(2), Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpExec}, {Op: OpRun, Dur: 1e6},
					{Op: OpExit}}},
			}}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		return s.Metrics()
	}
	on, off := run(45), run(0)
	if on.Costs.RemoteMemMS != 0.45 {
		t.Errorf("remote-memory time %.3f ms, want 0.450", on.Costs.RemoteMemMS)
	}
	if off.Costs.RemoteMemMS != 0 {
		t.Errorf("remote_mem_pct 0: remote-memory time %.3f ms, want 0", off.Costs.RemoteMemMS)
	}
	child := func(m Metrics) float64 {
		for _, tk := range m.Tasks {
			if tk.Name == "child/0" {
				return tk.CPUMS
			}
		}
		t.Fatal("no child/0")
		return 0
	}
	if d := child(on) - child(off); d < 0.449 || d > 0.451 {
		t.Errorf("child CPU time %.3f ms with remote memory, %.3f without: %.3f ms apart, want 0.450", child(on), child(off), d)
	}
}
