//go:build js

package main

import (
	"math"
	"syscall/js"

	"schedplay/app"
	"schedplay/render"
	"schedplay/sim"
)

// installTimelineAPI adds the presenter's calls to window.schedplay (obj):
//
//	seek(ms)               -> pauses and moves to simulated time ms (clamped to the
//	                          run); returns the new simulated time in ms, or null (see
//	                          error()). Afterwards metrics(), trace hash included, is a
//	                          fresh run's at that time: the newest checkpoint at or
//	                          before ms is restored and at most one checkpoint
//	                          interval re-simulated (timeline().last_seek counts it)
//	seekMigration(dir)     -> dir < 0: back to the previous migration; dir > 0: on to
//	                          the next; the new time in ms, or null
//	timeline()             -> {now_ms, duration_ms, frontier_ms, interval_ms,
//	                          checkpoints, checkpoint_mb, causes, colors, marks,
//	                          seeks, last_seek: {from_ms, to_ms, restored_ms,
//	                          resim_ms, new_ms, resim_events, short}, max_resim_ms,
//	                          max_resim_events}; marks[c] are app.MarkBins counts
//	                          of migrations of cause causes[c] over the run
func installTimelineAPI(sess *app.Session, fn func(name string, f func(args []js.Value) any)) {
	fn("seek", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber || math.IsNaN(args[0].Float()) {
			sess.SetError("seek(ms): want a number of milliseconds of simulated time")
			return js.Null()
		}
		now, err := sess.Seek(args[0].Float())
		if err != nil {
			return js.Null()
		}
		return now
	})
	fn("seekMigration", func(args []js.Value) any {
		dir := 1
		if len(args) > 0 && args[0].Type() == js.TypeNumber && args[0].Float() < 0 {
			dir = -1
		}
		now, err := sess.SeekMigration(dir)
		if err != nil {
			return js.Null()
		}
		return now
	})
	fn("timeline", func(args []js.Value) any {
		ti, ok := sess.Timeline()
		if !ok {
			return js.Null()
		}
		v := parseJSON(ti)
		colors := js.Global().Get("Array").New()
		for c := sim.Cause(0); c < sim.NumCauses; c++ {
			colors.Call("push", render.CSS(render.CauseColor(c)))
		}
		v.Set("colors", colors)
		return v
	})
}
