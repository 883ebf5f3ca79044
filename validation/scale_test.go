package validation

import (
	"testing"

	"schedplay/sim"
)

// TestScaleCostsSMT: the sensitivity runs scale the extra run time a busy
// SMT sibling costs (2048/SMTGain − 1 with two threads), not the gain
// itself, and leave the model off when it is off.
func TestScaleCostsSMT(t *testing.T) {
	for _, c := range []struct {
		gain int64
		f    float64
		want int64
	}{
		{1178, 1, 1178},
		{1178, 2, 827},    // stretch 0.739 -> 1.477: 2048/2.477
		{1178, 0.5, 1496}, // stretch 0.739 -> 0.369: 2048/1.369
		{0, 2, 0},
		{2048, 2, 2048}, // no slowdown to scale
	} {
		costs := sim.Costs{SMTGain: c.gain}
		ScaleCosts(&costs, c.f)
		if costs.SMTGain != c.want {
			t.Errorf("SMTGain %d x%g: %d, want %d", c.gain, c.f, costs.SMTGain, c.want)
		}
	}
}
