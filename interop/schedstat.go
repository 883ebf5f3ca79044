package interop

import (
	"bufio"
	"io"
	"strconv"

	"schedplay/sim"
)

// SchedstatVersion is the /proc/schedstat format WriteSchedstat writes for a
// simulator: the one its era reports, 15 (kernel 3.8) for the v3.8 base, 17
// (v6.13 onwards) for the modern one, 9 (the 2.6.8.1 schedstats patch) for
// v2.6.8.
func SchedstatVersion(s *sim.Sim) int { return s.SchedstatVersion() }

// idleOrder is the order in which a domain line prints the balancer's
// counters per idle type, as indexes into sim.DomainStats.LB (which is kept
// in the v15 order CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE). Version 17 loops
// over enum cpu_idle_type from 0, and since v6.13 that enum starts with
// __CPU_NOT_IDLE: busy, idle, newly idle.
var idleOrder = map[int][3]int{15: {0, 1, 2}, 17: {1, 0, 2}}

// WriteSchedstat writes the simulator's counters at its current time in the
// kernel's /proc/schedstat text format, version SchedstatVersion(s):
//
//	version 15
//	timestamp <jiffies>
//	cpu<N> yld_count 0 sched_count sched_goidle ttwu_count ttwu_local rq_cpu_time run_delay pcount
//	domain<N> <cpumask> <24 load_balance() counters: 8 per idle type> <12 more>
//
// mirroring kernel/sched/stats.c show_schedstat() of v3.8. Version 17
// (v6.13+) prints the domain's name before its mask, 11 counters per idle
// type (lb_imbalance split into load, util, task and misfit) in the order
// busy, idle, newly idle, then the same 12:
//
//	domain<N> <name> <cpumask> <33 sched_balance_rq() counters> <12 more>
//
// The cpumask is printed as the kernel's %*pb: 32-bit hex words, most
// significant first, comma separated, for a machine of the simulator's CPU
// count. Counters the kernel declares unsigned int are printed modulo 2^32,
// as the kernel would; rq_cpu_time, run_delay (ns) and pcount are 64-bit.
// Counters the simulator does not keep (yld_count: its tasks never yield;
// sbe_*, sbf_*: exec and fork balancing statistics) are 0.
func WriteSchedstat(w io.Writer, s *sim.Sim) error {
	v := SchedstatVersion(s)
	if v == 9 { // the v2.6.8 era: schedstat9.go
		return writeSchedstat9(w, s)
	}
	bw := bufio.NewWriter(w)
	order := idleOrder[v]
	ncpu := s.Topology().NCPU
	var b []byte
	b = append(b, "version "...)
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, "\ntimestamp "...)
	b = strconv.AppendInt(b, s.Jiffies(), 10)
	b = append(b, '\n')
	u32 := func(x int64) { b = append(b, ' '); b = strconv.AppendUint(b, uint64(uint32(x)), 10) }
	u64 := func(x int64) { b = append(b, ' '); b = strconv.AppendUint(b, uint64(x), 10) }
	for cpu := range ncpu {
		st := s.CPUStats(cpu)
		b = append(b, "cpu"...)
		b = strconv.AppendInt(b, int64(s.Topology().Label(cpu)), 10) // the kernel's number
		u32(st.YldCount)
		b = append(b, " 0"...) // the O(1) scheduler's array-expired count, always 0
		u32(st.SchedCount)
		u32(st.SchedGoidle)
		u32(st.TTWUCount)
		u32(st.TTWULocal)
		u64(st.RunTime)
		u64(st.RunDelay)
		u64(st.Pcount)
		b = append(b, '\n')
		for i, sd := range s.Domains(cpu) {
			b = append(b, "domain"...)
			b = strconv.AppendInt(b, int64(i), 10)
			if v >= 17 {
				b = append(b, ' ')
				b = append(b, sd.Level.String()...)
			}
			b = append(b, ' ')
			b = append(b, s.Topology().KernelMaskHex(sd.Span)...)
			st := &sd.Stats
			for _, it := range order {
				lb := &st.LB[it]
				u32(lb.Count)
				u32(lb.Balanced)
				u32(lb.Failed)
				if v >= 17 {
					u32(lb.ImbLoad)
					u32(lb.ImbUtil)
					u32(lb.ImbTask)
					u32(lb.ImbMisfit)
				} else {
					u32(lb.Imbalance)
				}
				u32(lb.Gained)
				u32(lb.HotGained)
				u32(lb.NoBusyQ)
				u32(lb.NoBusyG)
			}
			for _, x := range []int64{st.ALBCount, st.ALBFailed, st.ALBPushed,
				st.SBECount, st.SBEBalanced, st.SBEPushed,
				st.SBFCount, st.SBFBalanced, st.SBFPushed,
				st.TTWUWakeRemote, st.TTWUMoveAffine, st.TTWUMoveBalance} {
				u32(x)
			}
			b = append(b, '\n')
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteSchedstatSeries runs s from its current time to opt's end and writes
// a snapshot (WriteSchedstat) at the start, at every multiple of
// opt.Interval and at the end, one after the other, as
// `while :; do cat /proc/schedstat; sleep 1; done` would: each snapshot
// begins with its "version" line.
func WriteSchedstatSeries(w io.Writer, s *sim.Sim, opt Options) error {
	r := &schedstatSeries{w: w, s: s}
	drive(s, opt, r)
	return r.err
}

type schedstatSeries struct {
	w   io.Writer
	s   *sim.Sim
	err error
}

func (r *schedstatSeries) event(*sim.Event) {}

func (r *schedstatSeries) sample(*sim.Snapshot) {
	if r.err == nil {
		r.err = WriteSchedstat(r.w, r.s)
	}
}
