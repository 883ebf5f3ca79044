package realkernel

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
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
	Kernel  string   `json:"kernel"`
	Machine string   `json:"machine"`
	Samples []Sample `json:"samples"`
	// Placements: the wake-up placement probes (not costs: where this
	// kernel puts a wakee, against mainline's rule; PlacementNote).
	Placements []Placement `json:"placements,omitempty"`
	// SchedDebug: the kernel's tunables from its sched debug file (not
	// costs: the comparison reads them from the running kernel).
	SchedDebug *SchedDebug     `json:"sched_debug,omitempty"`
	Costs      scenarios.Costs `json:"costs"`
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
//   - idle_return: the traced latency of a timer's wake-up of a thread on
//     its own CPU, idle until the timer expired (sched_waking to
//     switch-in), minus the local interval (wake_local): what of the idle
//     CPU's exit comes after the interrupt's handler has made the wake-up
//     (the idle loop's way out, tick_nohz_idle_exit() restarting the
//     stopped tick, then schedule_idle()), where a wake-up by another
//     CPU's IPI waits for all of it. Only traced: the user-space clocks
//     cannot see sched_waking;
//   - timer_irq_spread: how far apart two CPUs are woken by timers due at
//     the same instant. The simulator draws each CPU's interrupt delay
//     uniformly from [0, spread], so the distance between two CPUs' has a
//     triangular distribution whose median is (1 - 1/sqrt(2)) = 0.293 of
//     the spread: spread = the measured median / 0.293.
//
// The rest (cache_cold, comm, search costs, jitter) keeps the simulator's
// defaults: these small workloads do not measure them.
func deriveCosts(ctx, local Sample, idle []Sample, sendLocal, sendRemote, timers, timerWake Sample) scenarios.Costs {
	var c scenarios.Costs
	c.ContextSwitch = fmtCost(ctx.P50US)
	if timerWake.N > 0 && local.N > 0 {
		c.IdleReturn = fmtCost(timerWake.P50US - local.P50US)
	}
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

// The wake-up placement probe (Calibrate, wakePlacement): every period a
// waker pinned to CPU a runs for its share of the period, wakes a small
// task allowed on a and b, and runs on for placementAfter; the wakee runs
// placementWakee and waits for the next wake-up. Nothing else runs on b.
const (
	placementPeriod = int64(10e6)
	placementAfter  = int64(100e3)
	placementWakee  = int64(500e3)
	// placementWarmup: the first wake-ups are not counted, while the two
	// threads' PELT signals (32 ms half-life) settle.
	placementWarmup = 30
)

// placementWakerPcts are the waker's shares of CPU a the probe is run
// with: a light waker, beside which a packing kernel finds room for the
// wakee, and a heavy one, beside which it does not (this project's guest,
// 5 December: 98-99 % and 0-3 % of wake-ups on the waker's CPU).
var placementWakerPcts = []int{20, 70}

// Placement is one run of the wake-up placement probe: of Rounds wake-ups,
// how many the wakee first ran on the waker's CPU (a) rather than on the
// idle CPU b.
//
// Mainline v6.17 puts the wakee on b whatever the waker's load:
// select_task_rq_fair() on the waker's CPU a, with the wakee's prev b,
// asks wake_affine(), whose wake_affine_idle() returns prev when it is
// idle (a runs the waker), and select_idle_sibling(p, b, b) takes the idle
// target; in a round whose prev is a, select_idle_sibling(p, a, a) finds
// a busy and select_idle_cpu() scans from a + 1 to b (SIS_UTIL leaves the
// scan open: the LLC's utilisation is far below 85 %). A kernel that
// counts more than a few on a is not placing wake-ups as mainline does
// (PlacementNote).
type Placement struct {
	Name       string `json:"name"`
	WakerPct   int    `json:"waker_pct"`
	Rounds     int    `json:"rounds"`
	OnWakerCPU int    `json:"on_waker_cpu"`
	CPUA       int    `json:"cpu_a"`
	CPUB       int    `json:"cpu_b"`
	About      string `json:"about"`
	Failed     string `json:"failed,omitempty"`
}

// PlacementScenario is the probe as a scenario, for the simulator: CPU 0
// is a, CPU 1 is b.
func PlacementScenario(wakerPct int) *scenarios.Scenario {
	busy := placementPeriod * int64(wakerPct) / 100
	dur := func(ns int64) string { return time.Duration(ns).String() }
	return &scenarios.Scenario{Version: scenarios.Version, Title: fmt.Sprintf("wake-up placement probe, waker %d %%", wakerPct), Seed: 1,
		Duration: dur(placementPeriod * 100),
		Machine:  scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 250},
		Policy:   scenarios.Policy{Base: "v6.17"},
		Tasks: []scenarios.Task{
			{Name: "waker", Count: 1, CPUs: "0", Program: []scenarios.Step{{Run: dur(busy)}, {Wake: "wakee"}, {Run: dur(placementAfter)}, {Timer: dur(placementPeriod)}}},
			{Name: "wakee", Count: 1, Program: []scenarios.Step{{Wait: true}, {Run: dur(placementWakee)}}},
		}}
}

// PlacementNote says what the probes found when some wake-ups ran on the
// waker's busy CPU while b was idle, more than one in ten: "" when none
// did (the kernel places as mainline does).
func PlacementNote(ps []Placement) string {
	var parts []string
	packs := false
	for _, p := range ps {
		if p.Rounds == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d of %d wake-ups with a %d %% waker", p.OnWakerCPU, p.Rounds, p.WakerPct))
		if p.OnWakerCPU*10 > p.Rounds {
			packs = true
		}
	}
	if !packs {
		return ""
	}
	return "wake-up placement (schedsim calibrate's probe): a task woken by a thread busy on its CPU first ran on that CPU, beside an idle one, after " +
		strings.Join(parts, " and ") + "; v6.17's select_idle_sibling(), and the simulator, take the idle CPU every time. " +
		"This kernel's wake-up placement is not mainline's, and rows that hang on where a wakee goes (migrations, waits) differ for that reason too"
}

// ReadPlacements reads the wake-up placement probes of a calibration file
// (schedsim calibrate's output); none when it has none (a bare
// machine.costs object, or a calibration of before they were measured).
func ReadPlacements(data []byte) []Placement {
	var cal struct {
		Placements []Placement `json:"placements"`
	}
	if json.Unmarshal(data, &cal) != nil {
		return nil
	}
	return cal.Placements
}
