package validation

import "math"

// The rule of issue 14, point by point. A point compares two kernels (or two
// settings of one) on the same benchmark; its change is after÷before of the
// throughput (for benchmarks that report a time, before÷after).
//
//   - Where the seed's effect is within ±NoiseBand (noise-sized), the
//     simulator's change must stay within ±NoiseBand too.
//   - Where the seed's effect is larger, the simulator's change must have the
//     same sign and be within ×Tolerance of it. Large effects (the seed's
//     ratio ≥ 2 or ≤ ½) are compared as ratios: ×10 holds from ×6.7 to ×15.
//     Smaller ones are compared as percentages: +24 % holds from +16 % to
//     +36 %, −31 % from −20.7 % to −46.5 %. (These are the two
//     examples; a single formula cannot give both.)
const (
	NoiseBand = 0.05
	Tolerance = 1.5
)

// Verdict is how one point fares under the rule.
type Verdict struct {
	Big       bool // the seed's effect is larger than ±NoiseBand
	Holds     bool
	SignRight bool // Big points only: the simulator moved the same way
}

// Judge applies the rule to a seed ratio and a simulated ratio (after÷before).
func Judge(seed, sim float64) Verdict {
	var v Verdict
	if math.IsNaN(seed) || math.IsNaN(sim) || math.IsInf(sim, 0) || seed <= 0 || sim <= 0 {
		return v
	}
	se, me := seed-1, sim-1
	if math.Abs(se) <= NoiseBand {
		v.Holds = math.Abs(me) <= NoiseBand+1e-9
		return v
	}
	v.Big = true
	v.SignRight = se*me > 0
	if !v.SignRight {
		return v
	}
	var q float64
	if seed >= 2 || seed <= 0.5 {
		q = sim / seed
	} else {
		q = me / se
	}
	const eps = 1e-9 // the bounds themselves hold (0.16/0.24 is not exactly 2/3 in floating point)
	v.Holds = q >= 1/Tolerance-eps && q <= Tolerance+eps
	return v
}

// Range is the interval of simulated ratios that holds for a seed ratio, for
// the report's "holds for" column.
func Range(seed float64) (lo, hi float64) {
	se := seed - 1
	switch {
	case math.Abs(se) <= NoiseBand:
		return 1 - NoiseBand, 1 + NoiseBand
	case seed >= 2 || seed <= 0.5:
		return seed / Tolerance, seed * Tolerance
	case se > 0:
		return 1 + se/Tolerance, 1 + se*Tolerance
	default:
		return 1 + se*Tolerance, 1 + se/Tolerance
	}
}
