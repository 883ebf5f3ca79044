package validation

import "testing"

// TestSeed004Story runs the seed-004 story (o1 against staircase on
// sdet-numaq, seeds 1-3): the context-switch claims (4, 16, 64 users), "less idle time" (4, 8, 16) and
// "fewer pull_tasks" must hold; the early surge and the runqueue lengths
// are reported as measured, either way.
func TestSeed004Story(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 36 simulations")
	}
	rs, err := RunStories(seed004Stories(), Options{Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range rs[0].Measured {
		t.Logf("claim %d holds=%v: %s", i, rs[0].Holds[i], m)
		if i <= 6 && !rs[0].Holds[i] {
			t.Errorf("claim %d does not hold: %s", i, m)
		}
	}
	// kernbench: -j32, -j256 and no limit within 3 % of each other
	// under each scheduler, as in the seed.
	if m, ok := rs[1].Measured[0], rs[1].Holds[0]; !ok {
		t.Errorf("kernbench: %s", m)
	} else {
		t.Logf("kernbench: %s", m)
	}
}
