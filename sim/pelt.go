package sim

// Per-entity load tracking (PELT), in the kernel's integer arithmetic.
//
// The modern signals mirror kernel/sched/pelt.c (v6.17): ___update_load_sum,
// accumulate_sum, __accumulate_pelt_segments, decay_load and
// ___update_load_avg, with the constants of kernel/sched/sched-pelt.h.
// Weights are kept unscaled (nice 0 = 1024), which is what scale_load_down()
// yields on 64-bit kernels, so every product below is the kernel's.
//
// The 3.8 signals mirror kernel/sched/fair.c (v3.8):
// __update_entity_runnable_avg, __compute_runnable_contrib and
// __update_task_entity_contrib (load_avg_contrib = sum*w/(period+1)).

const (
	peltPeriod      = 32    // LOAD_AVG_PERIOD: y^32 = 0.5
	loadAvgMax      = 47742 // LOAD_AVG_MAX: maximum possible load avg
	loadAvgMaxN     = 345   // LOAD_AVG_MAX_N: periods to reach LOAD_AVG_MAX (3.8)
	peltMinDivider  = loadAvgMax - 1024
	capacityShift   = 10 // SCHED_CAPACITY_SHIFT
	capacityScale   = 1 << capacityShift
	nice0Load       = 1024
	utilEstMargin   = capacityScale / 100 // UTIL_EST_MARGIN
	utilEstWeightSh = 2                   // UTIL_EST_WEIGHT_SHIFT
)

// runnableAvgYNInv[n] = 0xffffffff * y^n (sched-pelt.h; identical in 3.8 fair.c).
var runnableAvgYNInv = [peltPeriod]uint32{
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
}

// runnableAvgYNSum[n] = floor(1024 * sum_{k=1..n} y^k) (3.8 fair.c).
var runnableAvgYNSum = [peltPeriod + 1]uint32{
	0, 1002, 1982, 2941, 3880, 4798, 5697, 6576, 7437, 8279, 9103,
	9909, 10698, 11470, 12226, 12966, 13690, 14398, 15091, 15769, 16433, 17082,
	17718, 18340, 18949, 19545, 20128, 20698, 21256, 21802, 22336, 22859, 23371,
}

// mulU64U32Shr32 is mul_u64_u32_shr(a, b, 32) without overflow.
func mulU64U32Shr32(a uint64, b uint32) uint64 {
	hi, lo := a>>32, a&0xffffffff
	return hi*uint64(b) + (lo*uint64(b))>>32
}

// decayLoad mirrors decay_load(): val * y^n, rounding down.
func decayLoad(val uint64, n uint64) uint64 {
	if n > peltPeriod*63 {
		return 0
	}
	if n >= peltPeriod {
		val >>= n / peltPeriod
		n %= peltPeriod
	}
	return mulU64U32Shr32(val, runnableAvgYNInv[n])
}

// accumulatePeltSegments mirrors __accumulate_pelt_segments().
func accumulatePeltSegments(periods uint64, d1, d3 uint32) uint32 {
	c1 := uint32(decayLoad(uint64(d1), periods))
	c2 := uint32(loadAvgMax - decayLoad(loadAvgMax, periods) - 1024)
	return c1 + c2 + d3
}

// SchedAvg is struct sched_avg (v6.17).
type SchedAvg struct {
	LastUpdateTime uint64 // ns, advanced in whole 1024 ns units
	LoadSum        uint64
	RunnableSum    uint64
	UtilSum        uint32
	PeriodContrib  uint32
	LoadAvg        uint64
	RunnableAvg    uint64
	UtilAvg        uint64
	UtilEst        uint64 // task: EWMA (util_est); cfs_rq: sum of enqueued tasks' estimates
}

// divider mirrors get_pelt_divider().
func (sa *SchedAvg) divider() uint64 { return peltMinDivider + uint64(sa.PeriodContrib) }

// accumulateSum mirrors accumulate_sum().
func (sa *SchedAvg) accumulateSum(delta uint64, load, runnable uint64, running bool) uint64 {
	contrib := uint32(delta) // periods == 0 -> delta < 1024
	delta += uint64(sa.PeriodContrib)
	periods := delta / 1024
	if periods > 0 {
		sa.LoadSum = decayLoad(sa.LoadSum, periods)
		sa.RunnableSum = decayLoad(sa.RunnableSum, periods)
		sa.UtilSum = uint32(decayLoad(uint64(sa.UtilSum), periods))
		delta %= 1024
		if load != 0 {
			contrib = accumulatePeltSegments(periods, 1024-sa.PeriodContrib, uint32(delta))
		}
	}
	sa.PeriodContrib = uint32(delta)
	if load != 0 {
		sa.LoadSum += load * uint64(contrib)
	}
	if runnable != 0 {
		sa.RunnableSum += runnable * uint64(contrib) << capacityShift
	}
	if running {
		sa.UtilSum += contrib << capacityShift
	}
	return periods
}

// updateLoadSum mirrors ___update_load_sum(); it reports whether a period
// boundary was crossed (the *_avg then need ___update_load_avg).
//
// Time going backwards sets last_update_time to now, as the kernel does
// ("when we swap over to TSC"), except to 0: a last_update_time of 0 is
// update_load_avg()'s "not attached" (DO_ATTACH attaches such an entity at
// its next enqueue), and the simulation's clock starts at 0, which the
// kernel's never reads. attach_entity_load_avg() at time 0 leaves an
// entity at 1 for that reason (attachEntityLoadAvg); an update at time 0
// then set it back to 0, and a task forked and first picked at the start
// was left out of PELT (its own load and util stayed 0, where its CPU's
// grew, until it slept or moved: the cfs_rq kept what it ran as residue).
func (sa *SchedAvg) updateLoadSum(now uint64, load, runnable uint64, running bool) bool {
	if now < sa.LastUpdateTime {
		sa.LastUpdateTime = max(now, 1)
		return false
	}
	delta := (now - sa.LastUpdateTime) >> 10
	if delta == 0 {
		return false
	}
	sa.LastUpdateTime += delta << 10
	if load == 0 {
		runnable, running = 0, false
	}
	return sa.accumulateSum(delta, load, runnable, running) != 0
}

// updateLoadAvg mirrors ___update_load_avg().
func (sa *SchedAvg) updateLoadAvg(load uint64) {
	d := sa.divider()
	sa.LoadAvg = load * sa.LoadSum / d
	sa.RunnableAvg = sa.RunnableSum / d
	sa.UtilAvg = uint64(sa.UtilSum) / d
}

// update runs ___update_load_sum and, if a period was crossed,
// ___update_load_avg with weight w; it reports the latter.
func (sa *SchedAvg) update(now uint64, w, load, runnable uint64, running bool) bool {
	if sa.updateLoadSum(now, load, runnable, running) {
		sa.updateLoadAvg(w)
		return true
	}
	return false
}

func subPositive(v *uint64, d uint64) {
	if *v > d {
		*v -= d
	} else {
		*v = 0
	}
}

// SchedAvg38 is the v3.8 struct sched_avg.
type SchedAvg38 struct {
	RunnableAvgSum     uint32
	RunnableAvgPeriod  uint32
	LastRunnableUpdate uint64 // ns (3.8 stores now, not a rounded time)
	DecayCount         int64
	LoadAvgContrib     uint64
}

// computeRunnableContrib mirrors 3.8 __compute_runnable_contrib(): \Sum 1024*y^i, i=1..n.
func computeRunnableContrib(n uint64) uint32 {
	if n <= peltPeriod {
		return runnableAvgYNSum[n]
	}
	if n >= loadAvgMaxN {
		return loadAvgMax
	}
	var contrib uint32
	for {
		contrib /= 2
		contrib += runnableAvgYNSum[peltPeriod]
		n -= peltPeriod
		if n <= peltPeriod {
			break
		}
	}
	contrib = uint32(decayLoad(uint64(contrib), n))
	return contrib + runnableAvgYNSum[n]
}

// decayLoad38 mirrors the 3.8 decay_load() (identical but for n == 0).
func decayLoad38(val uint64, n uint64) uint64 {
	if n == 0 {
		return val
	}
	return decayLoad(val, n)
}

// updateRunnableAvg mirrors 3.8 __update_entity_runnable_avg(); it reports
// whether a period rolled over.
func (sa *SchedAvg38) updateRunnableAvg(now uint64, runnable bool) bool {
	if now < sa.LastRunnableUpdate {
		sa.LastRunnableUpdate = now
		return false
	}
	delta := (now - sa.LastRunnableUpdate) >> 10
	if delta == 0 {
		return false
	}
	sa.LastRunnableUpdate = now
	decayed := false
	deltaW := uint64(sa.RunnableAvgPeriod % 1024)
	if delta+deltaW >= 1024 {
		decayed = true
		deltaW = 1024 - deltaW
		if runnable {
			sa.RunnableAvgSum += uint32(deltaW)
		}
		sa.RunnableAvgPeriod += uint32(deltaW)
		delta -= deltaW
		periods := delta / 1024
		delta %= 1024
		sa.RunnableAvgSum = uint32(decayLoad38(uint64(sa.RunnableAvgSum), periods+1))
		sa.RunnableAvgPeriod = uint32(decayLoad38(uint64(sa.RunnableAvgPeriod), periods+1))
		c := computeRunnableContrib(periods)
		if runnable {
			sa.RunnableAvgSum += c
		}
		sa.RunnableAvgPeriod += c
	}
	if runnable {
		sa.RunnableAvgSum += uint32(delta)
	}
	sa.RunnableAvgPeriod += uint32(delta)
	return decayed
}

// updateContrib mirrors 3.8 __update_task_entity_contrib() and returns the
// change of load_avg_contrib (__update_entity_load_avg_contrib).
func (sa *SchedAvg38) updateContrib(weight uint64) int64 {
	old := sa.LoadAvgContrib
	contrib := uint32(uint64(sa.RunnableAvgSum) * weight)
	contrib /= sa.RunnableAvgPeriod + 1
	sa.LoadAvgContrib = uint64(contrib)
	return int64(sa.LoadAvgContrib) - int64(old)
}
