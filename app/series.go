package app

import (
	"math"
	"math/bits"

	"schedplay/frame"
	"schedplay/sim"
)

// Time series: a Sampler cuts simulated time into intervals of equal length
// and closes one frame.Sample per interval from the trace events and a snapshot
// taken at the interval's end. The canvas draws the last frame.SeriesLen samples
// (ops/s, wake-up latency percentiles, migrations/s by cause, and the
// per-CPU run-queue length heatmap, seed 004's "per cpu runqueue lengths
// logged").
//
// The interval follows the speed (SampleInterval): about 25 samples per
// second of wall time, so the charts scroll at the same pace at every
// speed and hold about ten seconds of what was on screen. A speed change
// does not clear the series: each sample carries its own length, and rates
// are per second of simulated time.

// samplesPerWallSecond sets the interval: SampleInterval(speed) is about
// speed/samplesPerWallSecond of simulated time.
const samplesPerWallSecond = 25

// Bounds of the sample interval in simulated ns.
const (
	MinSampleInterval = 2_000       // 2 µs: a sample must hold a few events
	MaxSampleInterval = 100_000_000 // 100 ms
)

// SampleInterval is the simulated time one sample covers at speed x: x/25 s
// rounded to the nearest (in ratio) of 1, 2 or 5 times a power of ten,
// within the bounds above. At the default speed (1 ms per s) it is 50 µs,
// and the charts hold 12 s of what was on screen.
func SampleInterval(x float64) int64 {
	if !(x > 0) {
		return MinSampleInterval
	}
	ns := x * 1e9 / samplesPerWallSecond
	if ns <= MinSampleInterval {
		return MinSampleInterval
	}
	if ns >= MaxSampleInterval {
		return MaxSampleInterval
	}
	p := math.Pow(10, math.Floor(math.Log10(ns)))
	best := p
	for _, m := range []float64{2, 5, 10} {
		if math.Abs(math.Log(m*p/ns)) < math.Abs(math.Log(best/ns)) {
			best = m * p
		}
	}
	return int64(math.Round(best))
}

// latHist is a wake-up latency histogram with quarter-octave buckets.
type latHist struct {
	counts [latBuckets]int32
	n      int32
}

// latBuckets covers 1 ns .. 2^32 ns (4.3 s) in quarter octaves.
const latBuckets = 33 * 4

func latBucket(ns int64) int {
	if ns < 1 {
		return 0
	}
	e := bits.Len64(uint64(ns)) - 1 // 2^e <= ns < 2^(e+1)
	var q int
	if e >= 2 {
		q = int(uint64(ns)>>(uint(e)-2)) & 3 // the next two bits
	} else {
		q = int(uint64(ns)<<(2-uint(e))) & 3
	}
	return min(e*4+q, latBuckets-1)
}

// latValue is the geometric middle of bucket b, in ns.
func latValue(b int) float64 {
	e, q := b/4, b%4
	lo := math.Ldexp(1+float64(q)/4, e)
	hi := math.Ldexp(1+float64(q+1)/4, e)
	return math.Sqrt(lo * hi)
}

func (h *latHist) merge(o *latHist) {
	for i, k := range o.counts {
		h.counts[i] += k
	}
	h.n += o.n
}

func (h *latHist) add(ns int64) {
	h.counts[latBucket(ns)]++
	h.n++
}

// quantile returns the q-quantile in µs, -1 if empty.
func (h *latHist) quantile(q float64) float64 {
	if h.n == 0 {
		return -1
	}
	rank := int32(q*float64(h.n-1)) + 1
	var c int32
	for b, k := range h.counts {
		c += k
		if c >= rank {
			return latValue(b) / 1e3
		}
	}
	return latValue(latBuckets-1) / 1e3
}

// sampler accumulates one side's current interval and keeps its series.
type sampler struct {
	interval int64
	next     int64   // end of the current interval
	wakeT    []int64 // per task: time of the pending wake-up, -1 if none
	lat      latHist
	window   [frame.SmoothSamples]struct {
		lat            latHist
		ops, exits, dt int64
	}
	nwin    int // samples closed (the window holds min(nwin, SmoothSamples))
	mig     [sim.NumCauses]int32
	migDist [sim.NumDistances]int32
	ops     int64 // total ops at the last sample
	exits   int32 // tasks exited in the current interval
	ring    []*frame.Sample
	series  *frame.Series // the published view; nil when a sample was added since
	tmp     sim.Snapshot
}

func (sp *sampler) reset(ntasks int, interval int64) {
	*sp = sampler{interval: interval, next: interval, wakeT: make([]int64, ntasks), tmp: sp.tmp}
	for i := range sp.wakeT {
		sp.wakeT[i] = -1
	}
}

// setInterval changes the interval from the next sample on.
func (sp *sampler) setInterval(iv int64, now int64) {
	if iv == sp.interval {
		return
	}
	sp.interval = iv
	// The current interval ends at the next multiple of the new length.
	sp.next = (now/iv + 1) * iv
	sp.series = nil
}

// event accounts one trace event to the current interval.
func (sp *sampler) event(e *sim.Event, topo *sim.Topology) {
	switch e.Kind {
	case sim.EvWakeup:
		if e.Task >= 0 && int(e.Task) < len(sp.wakeT) {
			sp.wakeT[e.Task] = e.T
		}
	case sim.EvSwitch:
		if e.Task >= 0 && int(e.Task) < len(sp.wakeT) && sp.wakeT[e.Task] >= 0 {
			sp.lat.add(e.T - sp.wakeT[e.Task])
			sp.wakeT[e.Task] = -1
		}
	case sim.EvExit:
		sp.exits++
	case sim.EvMigrate, sim.EvFork:
		if e.Kind == sim.EvFork && (e.From < 0 || e.From == e.CPU) {
			return // placed on its parent's CPU: not a migration
		}
		if c := frame.MoveCause(e); c < sim.NumCauses {
			sp.mig[c]++
		}
		if e.From >= 0 && e.CPU >= 0 && int(e.From) < topo.NCPU && int(e.CPU) < topo.NCPU {
			sp.migDist[topo.Distance(int(e.From), int(e.CPU))]++
		}
	}
}

// sample closes the interval ending at now from the simulator's state.
func (sp *sampler) sample(s *sim.Sim, now int64) {
	s.SnapshotInto(&sp.tmp)
	snap := &sp.tmp
	var ops int64
	for i := range snap.Tasks {
		ops += snap.Tasks[i].Ops
	}
	dt := sp.interval
	if n := len(sp.ring); n > 0 {
		dt = now - sp.ring[n-1].T
	} else {
		dt = min(dt, now)
	}
	w := &sp.window[sp.nwin%frame.SmoothSamples]
	w.lat, w.ops, w.exits, w.dt = sp.lat, ops-sp.ops, int64(sp.exits), dt
	sp.nwin++
	var win latHist
	var wops, wexits, wdt int64
	for i := range min(sp.nwin, frame.SmoothSamples) {
		win.merge(&sp.window[i].lat)
		wops += sp.window[i].ops
		wexits += sp.window[i].exits
		wdt += sp.window[i].dt
	}
	smp := &frame.Sample{
		T: now, Dt: dt, Ops: ops - sp.ops, OpsRate: perS(wops, wdt),
		Exits: sp.exits, ExitRate: perS(wexits, wdt),
		Wakeups: sp.lat.n,
		LatP50:  win.quantile(0.50), LatP95: win.quantile(0.95), LatP99: win.quantile(0.99),
		Mig: sp.mig, MigDist: sp.migDist,
		NR: make([]uint8, len(snap.CPUs)),
	}
	idle, waiting := 0, 0
	for c := range snap.CPUs {
		cs := &snap.CPUs[c]
		smp.NR[c] = uint8(min(cs.NrRunning, 255))
		if cs.Curr < 0 && cs.NrRunning == 0 {
			smp.Idle.Set(c)
			idle++
		}
		if cs.Curr >= 0 {
			waiting += len(cs.Queue)
		}
	}
	smp.IWO = min(idle, waiting)
	sp.ops = ops
	sp.exits = 0
	sp.lat = latHist{}
	sp.mig = [sim.NumCauses]int32{}
	sp.migDist = [sim.NumDistances]int32{}
	if len(sp.ring) == frame.SeriesLen {
		copy(sp.ring, sp.ring[1:])
		sp.ring = sp.ring[:frame.SeriesLen-1]
	}
	sp.ring = append(sp.ring, smp)
	sp.series = nil
}

// view returns the series to publish (shared until the next sample).
func (sp *sampler) view() *frame.Series {
	if sp.series == nil {
		sp.series = &frame.Series{Samples: append([]*frame.Sample(nil), sp.ring...), Interval: sp.interval}
	}
	return sp.series
}

func perS(n, dt int64) float64 {
	if dt <= 0 {
		return 0
	}
	return float64(n) * 1e9 / float64(dt)
}
