//go:build js

package main

import (
	"fmt"
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
//	chapters()             -> {current, captions, caption, does}: the demo script
//	                          (the link's or the preset's view.chapters), the chapter
//	                          shown (1-based, 0 none) and what it did, in words
//	chapter(n)             -> {ok, error}: apply chapter n (1-based)
//	nextChapter(), prevChapter()
//	                       -> {ok, error, current} (keys PageDown, PageUp)
//	recordChapter(caption) -> {ok, error, current}: the current state as a new
//	                          chapter (the field changes made with set() since the
//	                          script's scenario, A/B, speed, the time)
//	theme(name)            -> "dark" or "light" (key L); theme() reads it
//	lightTheme(on)         -> true when the light theme is on; lightTheme() reads it
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
	withCurrent := func(n int, err error) any {
		r := js.ValueOf(result(err))
		r.Set("current", n)
		return r
	}
	fn("chapters", func(args []js.Value) any { return parseJSON(sess.Chapters()) })
	fn("chapter", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return result(fmt.Errorf("chapter(n): want a chapter number (1 = the first)"))
		}
		return result(sess.GoChapter(args[0].Int()))
	})
	fn("nextChapter", func(args []js.Value) any { return withCurrent(sess.StepChapter(+1)) })
	fn("prevChapter", func(args []js.Value) any { return withCurrent(sess.StepChapter(-1)) })
	fn("recordChapter", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("recordChapter(caption): want the caption text"))
		}
		return withCurrent(sess.RecordChapter(args[0].String()))
	})
	fn("theme", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			if err := sess.SetTheme(args[0].String()); err != nil {
				return js.Null()
			}
		}
		return sess.Theme()
	})
	fn("lightTheme", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			name := "dark"
			if args[0].Bool() {
				name = "light"
			}
			sess.SetTheme(name)
		}
		return sess.Theme() == "light"
	})
}
