//go:build js

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"syscall/js"

	"schedplay/app"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/sim"
)

// installTimelineAPI adds the presenter's calls to window.schedplay. The
// simulator plays in the worker: a seek, a chapter or a recording is
// forwarded to it (numbered, like every call), and what comes back with
// its frames (the time, metrics, the timeline, the chapter shown) is what
// timeline(), chapters() and metrics() read once settled() resolved.
//
//	seek(ms)               -> pauses and moves to simulated time ms (clamped to the
//	                          run); returns the time the worker goes to (ms). Once
//	                          settled(), metrics(), trace hash included, is a fresh
//	                          run's at that time: the newest checkpoint at or before
//	                          ms is restored and at most one checkpoint interval
//	                          re-simulated (timeline().last_seek counts it)
//	stepBack(ms)           -> pauses and goes back ms of simulated time from where
//	                          the run is once the worker applied every call before
//	                          (a seek, as the key ←); returns the time the page
//	                          expects (ms). The scrubber's ◀ calls it, and its ▶
//	                          step(ms): both move from the time the worker paused at,
//	                          not from a time the page last showed (which trails a
//	                          playing run, and a pause only reaches the worker later)
//	seekMigration(dir)     -> Promise of the new time in ms: dir < 0 back to the
//	                          previous migration, dir > 0 on to the next
//	timeline()             -> {now_ms (state().now_ms), duration_ms, frontier_ms, interval_ms,
//	                          checkpoints, checkpoint_mb, causes, colors, marks,
//	                          marks_rev, seeks, last_seek: {from_ms, to_ms,
//	                          restored_ms, resim_ms, new_ms, resim_events, short},
//	                          max_resim_ms, max_resim_events}; marks[c] are
//	                          app.MarkBins counts of migrations of cause causes[c]
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
func installTimelineAPI(fr *front, fn func(name string, f func(args []js.Value) any)) {
	fn("seek", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber || math.IsNaN(args[0].Float()) {
			fr.SetError("seek(ms): want a number of milliseconds of simulated time")
			return js.Null()
		}
		return fr.Seek(args[0].Float())
	})
	fn("stepBack", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber || math.IsNaN(args[0].Float()) || args[0].Float() <= 0 {
			fr.SetError("stepBack(ms): want a number of milliseconds of simulated time, more than 0")
			return js.Null()
		}
		return fr.StepBack(args[0].Float())
	})
	fn("seekMigration", func(args []js.Value) any {
		dir := 1
		if len(args) > 0 && args[0].Type() == js.TypeNumber && args[0].Float() < 0 {
			dir = -1
		}
		fr.post("seekMig", map[string]any{"n": float64(dir)})
		fr.mu.Lock()
		fr.playing = false
		fr.mu.Unlock()
		return fr.settled().Call("then", js.FuncOf(func(this js.Value, args []js.Value) any {
			now, _ := fr.Clock()
			return float64(now) / 1e6
		}))
	})
	fn("timeline", func(args []js.Value) any {
		ti, text := fr.timelineJSON()
		if ti == nil {
			return js.Null()
		}
		v := js.Global().Get("JSON").Call("parse", text)
		// The time is the newest frame's (or where the calls made so
		// far take the run), as state().now_ms: the timeline comes only
		// with the frames that carry fresh metrics, four a second while
		// playing.
		if now, _ := fr.Clock(); float64(now)/1e6 != ti.NowMS {
			v.Set("now_ms", float64(now)/1e6)
			v.Set("frontier_ms", math.Max(ti.FrontierMS, float64(now)/1e6))
		}
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
	fn("chapters", func(args []js.Value) any { return parseJSON(fr.chapters()) })
	fn("chapter", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return result(fmt.Errorf("chapter(n): want a chapter number (1 = the first)"))
		}
		return result(fr.GoChapter(args[0].Int()))
	})
	fn("nextChapter", func(args []js.Value) any { return withCurrent(fr.StepChapter(+1)) })
	fn("prevChapter", func(args []js.Value) any { return withCurrent(fr.StepChapter(-1)) })
	fn("recordChapter", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("recordChapter(caption): want the caption text"))
		}
		return withCurrent(fr.RecordChapter(args[0].String()))
	})
	fn("theme", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			if err := fr.SetTheme(args[0].String()); err != nil {
				return js.Null()
			}
		}
		return fr.shadow.Theme()
	})
	fn("lightTheme", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			name := "dark"
			if args[0].Bool() {
				name = "light"
			}
			fr.SetTheme(name)
		}
		return fr.shadow.Theme() == "light"
	})
}

// Seek forwards a seek to the worker and returns the time it goes to (ms).
func (fr *front) Seek(msec float64) float64 {
	t := int64(math.Round(msec * 1e6))
	fr.mu.Lock()
	if fr.last != nil {
		t = min(max(t, 0), fr.last.Duration)
	}
	fr.playing, fr.predNow = false, t
	fr.mu.Unlock()
	fr.shadow.NoteTime(t)
	fr.post("seek", map[string]any{"n": msec})
	return float64(t) / 1e6
}

// StepBack forwards a step back by msec to the worker, which goes back
// from its own time (app.Session.StepBack); it returns the time the page
// expects (ms).
func (fr *front) StepBack(msec float64) float64 {
	d := int64(math.Round(msec * 1e6))
	fr.mu.Lock()
	t := max(fr.predNow-max(d, 1), 0)
	fr.playing, fr.predNow = false, t
	fr.mu.Unlock()
	fr.shadow.NoteTime(t)
	fr.post("stepBack", map[string]any{"n": float64(d)})
	return float64(t) / 1e6
}

// timelineJSON is the newest timeline and its JSON, marshalled once per
// timeline (its 7 x 400 marks took most of a timeline() call in wasm).
func (fr *front) timelineJSON() (*frame.Timeline, string) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.tl != nil && fr.tl != fr.tlOf {
		b, err := json.Marshal(fr.tl)
		if err != nil {
			return nil, ""
		}
		fr.tlJSON, fr.tlOf = string(b), fr.tl
	}
	return fr.tl, fr.tlJSON
}

// chapters is the script: the shadow's list and chapter, and what the
// worker says the chapter did.
func (fr *front) chapters() app.ChapterInfo {
	ci := fr.shadow.Chapters()
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.caughtUp() && fr.ch != nil && fr.ch.Current == ci.Current {
		ci.Does = fr.ch.Does
	}
	return ci
}

// GoChapter applies chapter n on the shadow (the scenario, A/B, speed:
// what the page's other calls read) and in the worker (which also goes to
// its time or event).
func (fr *front) GoChapter(n int) error {
	err := fr.shadow.GoChapter(n)
	fr.post("chapter", map[string]any{"n": float64(n)})
	return err
}

// StepChapter goes to the next (dir > 0) or previous chapter.
func (fr *front) StepChapter(dir int) (int, error) {
	n, err := fr.shadow.StepChapter(dir)
	if err == nil {
		fr.post("chapter", map[string]any{"n": float64(n)})
	}
	return n, err
}

// RecordChapter records the current state, at the time the worker shows.
func (fr *front) RecordChapter(caption string) (int, error) {
	now, _ := fr.Clock()
	fr.shadow.NoteTime(now)
	n, err := fr.shadow.RecordChapter(caption)
	if err == nil {
		fr.post("record", map[string]any{"s": caption, "n": float64(now)})
	}
	return n, err
}

// SetTheme switches the colour theme on both sides.
func (fr *front) SetTheme(name string) error {
	if err := fr.shadow.SetTheme(name); err != nil {
		return err
	}
	fr.post("theme", map[string]any{"s": name})
	return nil
}

// presentFrame keeps what the presenter's calls read from a worker's frame
// (called with fr.mu held).
func (fr *front) presentFrame(f *frame.Frame) {
	if f.Timeline != nil {
		fr.tl = f.Timeline
	}
	if f.Chapters != nil {
		fr.ch = f.Chapters
	}
	fr.shadow.NoteTime(f.A().Now)
}
