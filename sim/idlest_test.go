package sim

import "testing"

// TestCPUUtilWithout: v6.17 cpu_util_without(cpu, p) is cpu_util(cpu, p, -1,
// 0). p's util_avg leaves its CPU's in both cases below; its util_est only
// while p is enqueued there: the exec'ing task is current and its util_est
// is in the CPU's, a waking task is not enqueued and its util_est is not.
// CPU 0: util_avg 600 and util_est 700; p: util_avg 300 and util_est 400.
func TestCPUUtilWithout(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{{Name: "p", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rq, p := s.cpus[0], s.tasks[0]
	p.cpu, p.avg.LastUpdateTime = 0, 1
	p.avg.UtilAvg, p.avg.UtilEst = 300, 400
	rq.cfsAvg.UtilAvg, rq.cfsAvg.UtilEst = 600, 700

	// Exec: p runs on CPU 0. util 600-300 = 300, util_est 700-400 = 300.
	rq.curr, p.onRq = p, true
	if got := s.cpuUtilWithout(rq, p); got != 300 {
		t.Errorf("exec'ing task: cpu_util_without = %d, want max(600-300, 700-400) = 300", got)
	}
	// Wake-up: p sleeps, last ran on CPU 0. util 300, util_est 700 as is.
	rq.curr, p.onRq = nil, false
	if got := s.cpuUtilWithout(rq, p); got != 700 {
		t.Errorf("waking task: cpu_util_without = %d, want max(600-300, 700) = 700", got)
	}
	// Another CPU: nothing of p's to remove.
	if got := s.cpuUtilWithout(s.cpus[1], p); got != 0 {
		t.Errorf("cpu1: cpu_util_without = %d, want 0", got)
	}
}
