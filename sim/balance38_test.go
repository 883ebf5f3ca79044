package sim

import "testing"

// The 3.8 balancer's arithmetic is unsigned long, and two of its
// differences go negative on a forced balance (group_imb, or a newly idle
// CPU whose group has capacity pulling from one that has none), which
// skips find_busiest_group()'s "this_load >= avg_load" test. The kernel
// does not guard them; the wrapped values decide. Worked by hand with a
// Nehalem-EP socket's power (4 cores x 1178, 4712) on both sides.

// TestFixSmallImbalanceWraps: fix_small_imbalance() with the local group
// more loaded than the busiest by more than one of its tasks. this_load
// 3000 (two tasks, 1000 each), max_load 1000, busiest_load_per_task 300:
// imbn stays 2 (300 < 1000), scaled_busy_load_per_task = 300*1024/4712 =
// 65, and max_load - this_load + 65 = 1000 - 3000 + 65 wraps to 2^64 -
// 1935, which is >= 2*65: imbalance = busiest_load_per_task, 300. (Guarded
// against the wrap, as the model was until 6 December, the test failed and
// the throughput estimate that follows, 4712*(300+1000)/1024 = 5982 before
// and after the move, left the imbalance at 0.)
func TestFixSmallImbalanceWraps(t *testing.T) {
	sds := &sdLBStats38{busiest: &SchedGroup{Capacity: 4712}, this: &SchedGroup{Capacity: 4712},
		maxLoad: 1000, thisLoad: 3000, thisNrRunning: 2, thisLoadPerTask: 2000, busiestLoadPerTask: 300}
	env := &lbEnv{}
	(&Sim{}).fixSmallImbalance(env, sds)
	if env.imbalance != 300 {
		t.Errorf("imbalance %d; want 300 (max_load - this_load + scaled wraps and passes)", env.imbalance)
	}
}

// TestCalculateImbalanceWraps: calculate_imbalance() with the local group
// above the domain average (this_load 2000, avg_load 1500) and the busiest
// at 2500 with 7 tasks on a capacity of 5 (2100 of weighted load, 300 a
// task). max_pull = min(2500 - 1500, (7 - 5)*1024*1024/4712 = 445) = 445;
// (avg_load - this_load)*4712 wraps to a huge value, so the imbalance is
// the busiest's excess, 445*4712/1024 = 2047. Clamping the difference to 0,
// as the model did until 6 December, left the imbalance to
// fix_small_imbalance(), which gave one task's load, 300.
func TestCalculateImbalanceWraps(t *testing.T) {
	sds := &sdLBStats38{busiest: &SchedGroup{Capacity: 4712}, this: &SchedGroup{Capacity: 4712},
		maxLoad: 2500, avgLoad: 1500, thisLoad: 2000, thisNrRunning: 2, thisLoadPerTask: 2000,
		busiestNrRunning: 7, busiestGroupCapacity: 5, busiestLoadPerTask: 2100}
	env := &lbEnv{}
	(&Sim{}).calculateImbalance38(env, sds)
	if env.imbalance != 2047 {
		t.Errorf("imbalance %d; want 2047 (the busiest group's excess: avg_load - this_load wraps)", env.imbalance)
	}
}
