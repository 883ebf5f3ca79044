package realkernel

import (
	"fmt"
	"math"
	"sort"
	"time"

	"schedplay/scenarios"
)

// CalibrateOptions adjust Calibrate.
type CalibrateOptions struct {
	// Rounds per measurement (0: 400).
	Rounds int
}

// Sample is one measured quantity: the median and the spread (the
// interquartile range) of its samples, in microseconds.
type Sample struct {
	Name   string  `json:"name"`
	P50US  float64 `json:"p50_us"`
	P25US  float64 `json:"p25_us"`
	P75US  float64 `json:"p75_us"`
	N      int     `json:"n"`
	About  string  `json:"about"`
	GapUS  float64 `json:"gap_us,omitempty"`
	CPUA   int     `json:"cpu_a"`
	CPUB   int     `json:"cpu_b"`
	Failed string  `json:"failed,omitempty"`
}

// Calibration is what Calibrate measured and the costs derived from it.
type Calibration struct {
	Kernel  string          `json:"kernel"`
	Machine string          `json:"machine"`
	Samples []Sample        `json:"samples"`
	Costs   scenarios.Costs `json:"costs"`
}

func sampleOf(name, about string, ns []int64) Sample {
	s := Sample{Name: name, About: about, N: len(ns)}
	if len(ns) == 0 {
		return s
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	q := func(p float64) float64 {
		return math.Round(float64(ns[min(int(p*float64(len(ns))), len(ns)-1)])/10) / 100
	}
	s.P25US, s.P50US, s.P75US = q(0.25), q(0.5), q(0.75)
	return s
}

// fmtCost writes a cost in microseconds as a duration string with 0.1 us
// resolution.
func fmtCost(us float64) string {
	if us < 0 {
		us = 0
	}
	d := time.Duration(math.Round(us*10)) * 100 * time.Nanosecond
	return d.String()
}

// deriveCosts maps the samples onto machine.costs:
//   - context_switch: one direction of a futex ping-pong between two threads
//     on one CPU (two system calls and a switch: what one hand-over costs);
//   - wakeup_ipi: what a remote wake-up adds to a local one: the wake-up
//     latency to a CPU that went idle just before, minus the same interval
//     for a wake-up on the waker's own CPU (local, traced: sched_waking to
//     switch-in on both sides), or, when the latencies were timed in user
//     space (no tracefs: local.N == 0), minus context_switch, which is
//     timed the same way (both system calls and the switch). Until 5
//     December the traced latency too had context_switch subtracted, an
//     interval it does not contain: on the guest of that day 4.9 - 4.3 us
//     and 5.8 - 6.5 us (clamped at 0) in two calibrations, where the local
//     interval is 2.5 us and the difference 2.4-2.5 us in three;
//   - wakeup_ipi_send: the waker's CPU time in a futex wake-up of a thread
//     on the other, idle CPU minus that of one on its own CPU (what the
//     IPI costs the waker; the rest of try_to_wake_up() is the same);
//   - idle_states: POLL at 0, then one state per idle length at which the
//     latency rose by more than 0.5 us over the previous state: after = that
//     idle length, exit_latency = the rise over the shortest idle length;
//   - timer_wakeup: the waker's CPU time in a futex wake-up of a thread on
//     its own CPU, the try_to_wake_up() each hrtimer_wakeup() of a timer
//     interrupt makes too (on the guest of 5 December 3.2 us, where a CPU's
//     successive timer wake-ups in the four 30 % tasks' trace came 3.2 us
//     apart, p50 of 601);
//   - timer_irq_spread: how far apart two CPUs are woken by timers due at
//     the same instant. The simulator draws each CPU's interrupt delay
//     uniformly from [0, spread], so the distance between two CPUs' has a
//     triangular distribution whose median is (1 - 1/sqrt(2)) = 0.293 of
//     the spread: spread = the measured median / 0.293.
//
// The rest (cache_cold, comm, search costs, jitter) keeps the simulator's
// defaults: these small workloads do not measure them.
func deriveCosts(ctx, local Sample, idle []Sample, sendLocal, sendRemote, timers Sample) scenarios.Costs {
	var c scenarios.Costs
	c.ContextSwitch = fmtCost(ctx.P50US)
	if timers.N > 0 {
		c.TimerIRQSpread = fmtCost(timers.P50US / (1 - 1/math.Sqrt2))
	}
	if sendLocal.N > 0 {
		c.TimerWakeup = fmtCost(sendLocal.P50US)
	}
	if sendLocal.N > 0 && sendRemote.N > 0 {
		c.WakeupIPISend = fmtCost(sendRemote.P50US - sendLocal.P50US)
	}
	if len(idle) == 0 {
		return c
	}
	base := idle[0].P50US
	if local.N > 0 {
		c.WakeupIPI = fmtCost(base - local.P50US)
	} else {
		c.WakeupIPI = fmtCost(base - ctx.P50US)
	}
	c.IdleStates = []scenarios.IdleState{{Name: "POLL", After: "0s", ExitLatency: "0s"}}
	prev := 0.0
	for _, s := range idle[1:] {
		extra := s.P50US - base
		if extra > prev+0.5 {
			c.IdleStates = append(c.IdleStates, scenarios.IdleState{
				Name:        fmt.Sprintf("S%d", len(c.IdleStates)),
				After:       fmtCost(s.GapUS),
				ExitLatency: fmtCost(extra),
			})
			prev = extra
		}
	}
	return c
}
