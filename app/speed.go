package app

import (
	"math"
	"time"

	"schedplay/scenarios"
)

// OpWall is how long one operation of a scenario should take on screen at
// the speed SpeedFor picks: long enough to follow, short enough that the
// first op is seen within a few seconds of loading.
const OpWall = 2 * time.Second

// SpeedFor is the speed a scenario plays at when it is loaded (a preset, a
// file, a link without a view speed): its own view.speed when it has one,
// else one derived from its time scale. The time scale is the longest
// single iteration of any task group's program, counting its run, sleep and
// timer steps (a repeat's body times its count; a wait counts nothing, as
// the waker's own steps are counted in its group); the speed shows that
// iteration in OpWall, rounded up in the 1-2-5 sequence of the speed keys,
// and is never below DefaultSpeed (a 20 µs tbench message is then a frame:
// faster scenarios are already seen moving) nor above MaxSpeed.
//
// pelt-pingpong (an 8 ms run and a 10 ms timer) gets 10 ms/s instead of
// 1 ms/s: its first op shows after 1.8 s rather than 18 s.
func SpeedFor(sc *scenarios.Scenario) float64 {
	if sc.View.Speed != 0 {
		return sc.View.Speed
	}
	var longest time.Duration
	for _, t := range sc.Tasks {
		longest = max(longest, iteration(t.Program, 0))
	}
	if run, err := time.ParseDuration(sc.Duration); err == nil && run > 0 {
		longest = min(longest, run) // a run shorter than one op: show the run
	}
	x := longest.Seconds() / OpWall.Seconds()
	if x <= DefaultSpeed {
		return DefaultSpeed
	}
	up := SpeedDown(x) // the 1-2-5 value at or below x ...
	if up < x*(1-1e-9) {
		up = SpeedUp(up) // ... and the one at or above it
	}
	return math.Min(up, MaxSpeed)
}

// iteration is the simulated time one pass of prog's own steps takes (run,
// sleep and timer steps; repeats multiplied), capped at MaxDuration.
func iteration(prog []scenarios.Step, depth int) time.Duration {
	var d time.Duration
	add := func(x time.Duration) { d = min(d+x, scenarios.MaxDuration) }
	for _, st := range prog {
		for _, v := range []string{st.Run, st.Sleep, st.Timer} {
			if x, err := time.ParseDuration(v); err == nil && x > 0 {
				add(x)
			}
		}
		if st.Repeat > 0 && depth < 8 {
			body := iteration(st.Program, depth+1)
			add(time.Duration(min(float64(body)*float64(st.Repeat), float64(scenarios.MaxDuration))))
		}
	}
	return d
}
