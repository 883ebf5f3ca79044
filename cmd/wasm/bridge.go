//go:build js

package main

import (
	"fmt"
	"log"
	"math"
	"syscall/js"
	"time"

	"schedplay/app"
	"schedplay/scenarios"
)

// installAPI sets window.schedplay, the page API (design.md, "Page API"):
//
//	ready                  true once frames are on screen
//	loadScenario(json)     -> {ok, error}; json is a string or an object
//	loadPreset(name)       -> {ok, error}
//	presets()              -> [{name, title, description}]
//	scenario()             -> canonical JSON string of the loaded scenario
//	shareLink()            -> this page's URL with #s=...
//	metrics()              -> object with the CLI's -json keys
//	error()                -> last error text, "" if none
//	play(), pause()
//	step(ms)               -> pauses and advances ms milliseconds of SIMULATED time
//	                          (fractions allowed: step(0.02) is 20 µs); returns the
//	                          new simulated time in ms, or null (see error())
//	setSpeed(x)            -> {ok, error}; x = simulated seconds per wall second
//	                          (default 0.001: 1 ms of simulated time per second)
//	set(path, value)       -> {ok, error}; a scenario field by dotted path, restarts
//	stats()                -> {fps, frame_ms, sim_rtf}
//
// A Go panic inside a call is turned into an error result instead of
// killing the simulator.
func installAPI(sess *app.Session, g *game, pg *page) {
	obj := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		obj.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
			defer func() {
				if r := recover(); r != nil {
					msg := fmt.Sprintf("internal error in schedplay.%s: %v", name, r)
					log.Print(msg)
					sess.SetError(msg)
					ret = result(fmt.Errorf("%s", msg))
				}
			}()
			return f(args)
		}))
	}
	obj.Set("ready", false)

	fn("loadScenario", func(args []js.Value) any {
		if len(args) < 1 {
			return result(fmt.Errorf("loadScenario(json): missing argument"))
		}
		var data string
		switch a := args[0]; a.Type() {
		case js.TypeString:
			data = a.String()
		case js.TypeObject:
			data = js.Global().Get("JSON").Call("stringify", a).String()
		default:
			return result(fmt.Errorf("loadScenario(json): want a JSON string or an object, got %s", a.Type()))
		}
		return result(sess.LoadJSON([]byte(data)))
	})
	fn("loadPreset", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("loadPreset(name): want a preset name"))
		}
		return result(sess.LoadPreset(args[0].String(), true))
	})
	fn("presets", func(args []js.Value) any {
		var out []any
		for _, p := range scenarios.Presets() {
			out = append(out, map[string]any{"name": p.Name, "title": p.Title, "description": p.Description})
		}
		return out
	})
	fn("scenario", func(args []js.Value) any { return string(sess.Scenario()) })
	fn("shareLink", func(args []js.Value) any { return pg.shareURL(sess.Link()) })
	fn("metrics", func(args []js.Value) any {
		b, err := sess.MetricsJSON()
		if err != nil {
			return js.Null()
		}
		return js.Global().Get("JSON").Call("parse", string(b))
	})
	fn("error", func(args []js.Value) any { return sess.Error() })
	fn("play", func(args []js.Value) any { sess.Play(); return js.Undefined() })
	fn("pause", func(args []js.Value) any { sess.Pause(); return js.Undefined() })
	fn("step", func(args []js.Value) any {
		ms := 1.0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			ms = args[0].Float()
		}
		if math.IsNaN(ms) || ms <= 0 || ms > float64(app.MaxStep/time.Millisecond) {
			sess.SetError(fmt.Sprintf("step(%g): want milliseconds of simulated time, more than 0 and at most %d", ms, app.MaxStep/time.Millisecond))
			return js.Null()
		}
		now, err := sess.Step(time.Duration(ms * float64(time.Millisecond)))
		if err != nil {
			return js.Null()
		}
		return float64(now) / 1e6
	})
	fn("setSpeed", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeNumber {
			return result(fmt.Errorf("setSpeed(x): want a number (simulated seconds per second)"))
		}
		return result(sess.SetSpeed(args[0].Float()))
	})
	fn("set", func(args []js.Value) any {
		if len(args) < 2 {
			return result(fmt.Errorf("set(path, value): missing argument"))
		}
		v := args[1]
		value := v.String()
		if v.Type() != js.TypeString {
			// Numbers and booleans as the CLI would spell them.
			value = js.Global().Get("String").Invoke(v).String()
		}
		return result(sess.Set(args[0].String(), value))
	})
	fn("stats", func(args []js.Value) any {
		st := sess.Stats()
		return map[string]any{"fps": st.FPS, "frame_ms": st.FrameMS, "sim_rtf": st.SimRTF}
	})
	js.Global().Set("schedplay", obj)
}

// result is the {ok, error} object the API returns.
func result(err error) any {
	if err != nil {
		return map[string]any{"ok": false, "error": err.Error()}
	}
	return map[string]any{"ok": true, "error": ""}
}
