package sim

import "testing"

// TestTTWUWakeList: which remote wake-ups go through the target's wake list
// (the wakee reaches the runqueue after the IPI) and which the waker
// enqueues itself. 3.8 ttwu_queue(): the wake list only across LLCs. v6.17
// ttwu_queue_cond(): across LLCs, and inside the LLC to a CPU with nothing
// queued ("use the wakelist to offload the task activation to the idle (or
// soon-to-be-idle) CPU"); a busy CPU in the LLC is enqueued at once. With
// TTWU_QUEUE off, neither era uses the wake list. Two LLCs of two CPUs;
// the waker on CPU 0.
func TestTTWUWakeList(t *testing.T) {
	for _, c := range []struct {
		base   Base
		off    bool
		target int // 1 shares CPU 0's LLC, 2 does not
		busy   bool
		want   bool
	}{
		{BaseV38, false, 1, false, false},
		{BaseV38, false, 1, true, false},
		{BaseV38, false, 2, false, true},
		{BaseV38, false, 2, true, true},
		{BaseV38, true, 2, true, false},
		{BaseV617, false, 1, false, true},
		{BaseV617, false, 1, true, false},
		{BaseV617, false, 2, false, true},
		{BaseV617, false, 2, true, true},
		{BaseV617, true, 1, false, false},
		{BaseV617, true, 2, true, false},
	} {
		var clear uint32
		if c.off {
			clear = 1 << FeatTTWUQueue
		}
		cfg := &Config{Seed: 1, Duration: 1e6, Machine: machine(1, 2, 1, 2, 1, NumberLinear),
			Policy: Policy{Base: c.base, FeatClear: clear},
			Tasks:  []TaskGroup{{Name: "t", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}}}}}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		trq := s.cpus[c.target]
		if c.busy {
			trq.nrRunning = 1
		}
		if got := s.era.ttwuWakeList(s, 0, trq); got != c.want {
			t.Errorf("%v, TTWU_QUEUE off %v, cpu0 -> cpu%d (busy %v): wake list %v, want %v", c.base, c.off, c.target, c.busy, got, c.want)
		}
	}
}
