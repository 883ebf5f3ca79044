package sim

import "testing"

// TestLastBuddy follows 3.8's buddies on one CPU: hogs share it and a
// short task wakes every 2 ms, runs 50 us and sleeps again. Its sleeper
// credit (place_entity(): min_vruntime - sched_latency/2, 3 ms here) puts
// it more than wakeup_gran (1 ms) behind the running hog, so every wake-up
// preempts (check_preempt_wakeup(): the wakee becomes the next buddy).
// When the runqueue then holds sched_nr_latency (8) tasks or more, the
// preempted hog becomes the last buddy, and when the short task blocks,
// pick_next_entity() gives the CPU back to it rather than to the leftmost
// hog, as long as that hog is within wakeup_gran of it (fair.c:
// "Prefer last buddy, try to return the CPU to a preempted task").
// Without LAST_BUDDY, or with 7 tasks (6 hogs), the leftmost hog runs:
// the preempted one has just run, so it is rarely the leftmost.
func TestLastBuddy(t *testing.T) {
	returned := func(hogCount int, clear uint32) (back, preempted int) {
		cfg := &Config{Seed: 1, Duration: 200e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear),
			Policy: Policy{Base: BaseV38, FeatClear: clear},
			Tasks: append(hogs(hogCount, 0), TaskGroup{Name: "short", Count: 1,
				Program: []Step{{Op: OpRun, Dur: 50e3}, {Op: OpSleep, Dur: 2e6}}})}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.SetRecording(true)
		short := int32(hogCount) // the hogs are tasks 0..hogCount-1
		from := int32(-1)        // the hog the short task preempted
		for !s.Done() {
			s.RunUntil(s.Now() + 1e6)
			for _, e := range s.TakeEvents(nil) {
				if e.Kind != EvSwitch {
					continue
				}
				switch {
				case e.Task == short && e.Arg >= 0:
					from = e.Arg
					preempted++
				case e.Arg == short && from >= 0:
					if e.Task == from {
						back++
					}
					from = -1
				}
			}
		}
		return back, preempted
	}
	back, n := returned(8, 0)
	if n < 90 || back*10 < n*9 {
		t.Errorf("9 tasks, LAST_BUDDY: the preempted hog ran next after %d of %d preemptions; want at least 90 %% of at least 90", back, n)
	}
	offBack, offN := returned(8, 1<<FeatLastBuddy)
	if offN < 90 || offBack*2 > offN {
		t.Errorf("9 tasks, LAST_BUDDY off: the preempted hog ran next after %d of %d preemptions; want at most half (the leftmost runs)", offBack, offN)
	}
	fewBack, fewN := returned(6, 0)
	if fewN < 90 || fewBack*2 > fewN {
		t.Errorf("7 tasks (under sched_nr_latency), LAST_BUDDY: the preempted hog ran next after %d of %d preemptions; want at most half", fewBack, fewN)
	}
	// On by default in 3.8 (features.h: SCHED_FEAT(LAST_BUDDY, true)); EEVDF
	// (v6.17) has no last buddy. (That =true changes nothing, the pinned
	// hashes check: scenarios/testdata/pinned_hashes.txt.)
	cfg := &Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Tasks: hogs(2, 0)}
	for _, c := range []struct {
		base Base
		want bool
	}{{BaseV38, true}, {BaseV617, false}, {BaseV268, false}} {
		cfg.Policy.Base = c.base
		if s, err := New(cfg); err != nil || s.Feature(FeatLastBuddy) != c.want {
			t.Errorf("%v: LAST_BUDDY %v by default, want %v (%v)", c.base, s != nil && s.Feature(FeatLastBuddy), c.want, err)
		}
	}
	t.Logf("preempted hog ran next: 9 tasks %d/%d, LAST_BUDDY off %d/%d, 7 tasks %d/%d", back, n, offBack, offN, fewBack, fewN)
}
