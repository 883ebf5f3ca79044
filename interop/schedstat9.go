package interop

import (
	"bufio"
	"io"
	"strconv"

	"schedplay/sim"
)

// writeSchedstat9 writes version 9, the format of Rick Lindsley's
// schedstats patch for 2.6.8.1 (show_schedstat() there), for the v2.6.8
// era:
//
//	version 9
//	timestamp <jiffies>
//	cpu<N> <22 counters> <pull_task gained, lost per idle type>
//	domain<N> <cpumask> <5 load_balance() counters per idle type> sbe_pushed sbe_attempts ttwu_wake_affine ttwu_wake_balance
//
// The cpu line: yld_both_empty yld_act_empty yld_exp_empty yld_cnt
// sched_noswitch sched_switch sched_cnt sched_goidle alb_cnt alb_gained
// alb_lost alb_failed ttwu_cnt ttwu_moved ttwu_attempts wuft_cnt wuft_moved
// smt_cnt sbe_cnt cpu_time run_delay pcnt (times in jiffies), then
// pt_gained and pt_lost for IDLE, NOT_IDLE, NEWLY_IDLE. A domain's five
// are lb_cnt lb_failed lb_imbalance lb_nobusyq lb_nobusyg, in the same
// idle-type order. Counters the simulator cannot have (sim.CPUStat9) are 0.
func writeSchedstat9(w io.Writer, s *sim.Sim) error {
	bw := bufio.NewWriter(w)
	ncpu := s.Topology().NCPU
	var b []byte
	b = append(b, "version 9\ntimestamp "...)
	b = strconv.AppendInt(b, s.Jiffies(), 10)
	b = append(b, '\n')
	u := func(x int64) { b = append(b, ' '); b = strconv.AppendUint(b, uint64(x), 10) }
	for cpu := range ncpu {
		st := s.CPUStats9(cpu)
		b = append(b, "cpu"...)
		b = strconv.AppendInt(b, int64(s.Topology().Label(cpu)), 10) // the kernel's number
		for _, x := range []int64{0, 0, 0, 0, st.SchedNoswitch, st.SchedSwitch, st.SchedCnt, st.SchedGoidle,
			st.ALBCnt, st.ALBGained, st.ALBLost, st.ALBFailed, st.TTWUCnt, st.TTWUMoved, st.TTWUAttempts,
			0, 0, 0, st.SBECnt, st.CPUTime, st.RunDelay, st.Pcnt} {
			u(x)
		}
		for it := range 3 {
			u(st.PTGained[it])
			u(st.PTLost[it])
		}
		b = append(b, '\n')
		for i, sd := range s.Domains(cpu) {
			b = append(b, "domain"...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ' ')
			b = append(b, s.Topology().KernelMaskHex(sd.Span)...)
			d := &sd.Stats
			for it := range 3 {
				lb := &d.LB[it]
				u(lb.Count)
				u(lb.Failed)
				u(lb.Imbalance)
				u(lb.NoBusyQ)
				u(lb.NoBusyG)
			}
			u(d.SBEPushed)
			u(d.SBECount)
			u(d.TTWUMoveAffine)
			u(d.TTWUMoveBalance)
			b = append(b, '\n')
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	return bw.Flush()
}
