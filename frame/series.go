package frame

import "schedplay/sim"

// The time series the charts draw. Package app samples them (one Sample
// per interval of simulated time) and hands a Series to every frame.

// SeriesLen is how many samples a Series keeps (the charts' width in samples).
const SeriesLen = 240

// SmoothSamples is the window of the smoothed series (ops/s, latency
// percentiles), in samples.
const SmoothSamples = 8

// Sample is one interval of simulated time. It is immutable once a Series
// holds it: series of different frames share their samples.
type Sample struct {
	T  int64 // end of the interval, simulated ns
	Dt int64 // length of the interval, simulated ns
	// Ops completed in the interval (program iterations of every task).
	Ops int64
	// OpsRate is ops per simulated second over the last SmoothSamples
	// samples (this one included): one interval holds too few ops for a
	// readable rate.
	OpsRate float64
	// Exits: tasks that exited in the interval; ExitRate is exits per
	// simulated second over the last SmoothSamples samples, as OpsRate.
	// The throughput chart plots it for a workload whose tasks exit
	// instead of looping (frame.CountsExits).
	Exits    int32
	ExitRate float64
	// Wakeups completed in the interval. LatP50..99: wake-up latency (from
	// try_to_wake_up to the task running) of the wake-ups completed in the
	// last SmoothSamples samples, in µs, from a histogram with
	// quarter-octave buckets (about ±9%); -1 when none completed.
	Wakeups                int32
	LatP50, LatP95, LatP99 float64
	// Migrations in the interval by cause (sim.Cause) and by the cache
	// distance crossed (sim.Distance), forks placed away from their
	// parent's CPU included, as the simulator's metrics count them.
	Mig     [sim.NumCauses]int32
	MigDist [sim.NumDistances]int32
	// NR is every CPU's nr_running at T (capped at 255), indexed by CPU id.
	NR []uint8
	// Idle marks the CPUs with nothing to run at T (no current task, empty
	// runqueue).
	Idle sim.CPUMask
	// IWO is the idle-while-overloaded count at T: min(idle CPUs, tasks
	// waiting behind a running task), the simulator's
	// idle_while_overloaded integrand sampled at the interval's end.
	IWO int
}

// OpsPerS is the interval's throughput in ops per simulated second.
func (s *Sample) OpsPerS() float64 { return perS(s.Ops, s.Dt) }

// MigPerS is the rate of migrations with cause c, per simulated second.
func (s *Sample) MigPerS(c sim.Cause) float64 { return perS(int64(s.Mig[c]), s.Dt) }

// MigTotal is the number of migrations in the interval.
func (s *Sample) MigTotal() int64 {
	var n int64
	for _, v := range s.Mig {
		n += int64(v)
	}
	return n
}

func perS(n, dt int64) float64 {
	if dt <= 0 {
		return 0
	}
	return float64(n) * 1e9 / float64(dt)
}

// Series is the newest samples, oldest first. A frame's Series is
// read-only; a new Series is made only when a sample was added.
type Series struct {
	Samples []*Sample
	// Interval is the current sample interval (older samples may differ).
	Interval int64
}

// Last is the newest sample, or nil.
func (s *Series) Last() *Sample {
	if s == nil || len(s.Samples) == 0 {
		return nil
	}
	return s.Samples[len(s.Samples)-1]
}
