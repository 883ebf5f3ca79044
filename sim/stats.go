package sim

// CPUStat are one CPU's /proc/schedstat counters (the "cpuN" line).
type CPUStat struct {
	YldCount    int64 // sched_yield() calls (the simulator's tasks never yield)
	SchedCount  int64 // __schedule() calls
	SchedGoidle int64 // times it switched to the idle task
	TTWUCount   int64 // wake-ups issued by this CPU
	TTWULocal   int64 // of which woke the task on this CPU
	RunTime     int64 // rq_cpu_time: ns spent running tasks
	RunDelay    int64 // run_delay: ns tasks waited on this runqueue before running
	Pcount      int64 // timeslices run (tasks switched in)
}

// CPUStats returns cpu's schedstat counters at the current time.
func (s *Sim) CPUStats(cpu int) CPUStat {
	rq := s.cpus[cpu]
	run := rq.busyTime
	if rq.busySince >= 0 {
		run += s.now - rq.busySince
	}
	return CPUStat{SchedCount: rq.schedCount, SchedGoidle: rq.schedGoidle, TTWUCount: rq.ttwuCount,
		TTWULocal: rq.ttwuLocal, RunTime: run, RunDelay: rq.runDelay, Pcount: rq.pcount}
}

// Jiffies is the tick count at the current time (the schedstat timestamp).
func (s *Sim) Jiffies() int64 { return s.jiffies() }

// TickNS is the length of a tick (1/HZ) in ns.
func (s *Sim) TickNS() int64 { return s.tickNS }

// Base is the kernel era the simulator runs.
func (s *Sim) Base() Base { return s.cfg.Policy.Base }

// SchedstatVersion is the /proc/schedstat format of the era: 15 (v3.8), 17
// (v6.17).
func (s *Sim) SchedstatVersion() int { return s.era.schedstatVersion }

// LoadMetric is the resolved load metric (never LoadDefault).
func (s *Sim) LoadMetric() LoadMetric { return s.lm }

// SIS is the resolved select_idle_sibling() variant (never SISDefault).
func (s *Sim) SIS() SIS { return s.sis }

// NewTaskLoad is the resolved load a forked task starts with (never
// NewTaskLoadDefault).
func (s *Sim) NewTaskLoad() NewTaskLoad { return s.ntl }

// Feature reports whether a feature is on (after the base's defaults and
// the scenario's overrides).
func (s *Sim) Feature(f Feature) bool { return s.feature(f) }

// CPUStat9 are one CPU's counters of the 2004 schedstats (version 9, Rick
// Lindsley's patch for 2.6.8.1), kept by the v2.6.8 era; zero elsewhere.
// Times are in jiffies, as sched_info kept them. Counters the simulator
// cannot have are 0: yld_* (no sched_yield()), wuft_* (no threads:
// wake_up_forked_thread()), smt_cnt (sched_migrate_task(): no exec step
// yet).
type CPUStat9 struct {
	SchedNoswitch, SchedSwitch, SchedCnt, SchedGoidle int64
	ALBCnt, ALBGained, ALBLost, ALBFailed             int64
	TTWUCnt, TTWUMoved, TTWUAttempts                  int64
	SBECnt                                            int64
	CPUTime, RunDelay, Pcnt                           int64
	// PTGained and PTLost are pull_task() per idle type, indexed as
	// DomainStats.LB (idle, busy, newly idle).
	PTGained, PTLost [3]int64
}

// CPUStats9 returns cpu's version-9 schedstat counters at the current time.
func (s *Sim) CPUStats9(cpu int) CPUStat9 {
	rq := s.cpus[cpu]
	st := s.CPUStats(cpu)
	o := rq.o1
	return CPUStat9{SchedNoswitch: o.schedNoswitch, SchedSwitch: o.schedSwitch, SchedCnt: st.SchedCount, SchedGoidle: st.SchedGoidle,
		ALBCnt: o.albCnt, ALBGained: o.albGained, ALBLost: o.albLost, ALBFailed: o.albFailed,
		TTWUCnt: o.ttwuCnt, TTWUMoved: o.ttwuMoved, TTWUAttempts: o.ttwuAttempts, SBECnt: o.sbeCnt,
		CPUTime: st.RunTime / s.tickNS, RunDelay: st.RunDelay / s.tickNS, Pcnt: st.Pcount,
		PTGained: o.ptGained, PTLost: o.ptLost}
}

// HasPELT reports whether the era tracks per-entity load (PELT): false on
// v2.6.8, whose load is nr_running. Front ends draw no PELT signal then.
func (s *Sim) HasPELT() bool { return !s.era.noPELT }

// EraName is the policy base's name: "v2.6.8", "v3.8" or "v6.17".
func (s *Sim) EraName() string { return s.era.name }
