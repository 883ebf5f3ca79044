//go:build js

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"syscall/js"
	"time"

	"schedplay/app"
	"schedplay/cmd/wasm/pagemodel"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/scenarios"
)

// installAPI sets window.schedplay, the page API (design.md, "Page API"):
//
//	ready                  true once frames are on screen and the page is wired (web/loader.js builds the editor after the first frame)
//	loadScenario(json)     -> {ok, error}; json is a string or an object
//	loadPreset(name)       -> {ok, error}
//	presets()              -> [{name, title, description}]
//	scenario()             -> canonical JSON string of the loaded scenario
//	shareLink()            -> this page's URL with #s=...; shareLink(true) adds the
//	                          view block: #s=...&v=... (speed, A/B, talk mode, paused);
//	                          "" when the link would be over 64 KiB (error() says so)
//	view()                 -> the view block {speed, compare, ab, talk, paused}
//	blank()                -> {ok, error}: a new blank scenario on the current machine
//	                          and policy (a history entry of its own)
//	qr(text)               -> {ok, error, src, version}: text as a QR code, a PNG data URL
//	tooltip(x, y)          -> the text for the canvas point (CSS px): a task or a CPU,
//	                          its state and PELT values, its last decision; "" off the machine
//	undo(), redo()         -> {ok, error}: the scenario before the last user change
//	                          (an edit, a preset, an import), and back
//	metrics()              -> object with the CLI's -json keys
//	error()                -> last error text, "" if none
//	play(), pause()
//	step(ms)               -> pauses and advances ms milliseconds of SIMULATED time
//	                          (fractions allowed: step(0.02) is 20 µs); returns the
//	                          new simulated time in ms, or null (see error()). The
//	                          simulator runs in a worker: the value is the time the
//	                          step reaches unless the worker stops it short (a call
//	                          does at most app.MaxCallWork units of work; error()
//	                          and state().now_ms say so once settled)
//	setSpeed(x)            -> {ok, error}; x = simulated seconds per wall second
//	                          (default 0.001: 1 ms of simulated time per second)
//	set(path, value)       -> {ok, error}; a scenario field by dotted path, restarts
//	stats()                -> {fps, frame_ms, sim_rtf, first_frame_ms, first_sim_frame_ms, decode_ms, draw_ms, drawn,
//	                          painted, layouts, prepared, models_made, gc_cycles, heap_mb,
//	                          alloc_mb};
//	                          first_frame_ms is when the first frame was drawn, in ms since
//	                          navigation start (the scenario at t = 0, from the page's shadow
//	                          when the worker has sent no frame yet), first_sim_frame_ms when
//	                          the first frame from the worker was; fps and frame_ms (decoding and drawing) are the page's,
//	                          sim_rtf the simulated seconds per second its frames advanced;
//	                          decode_ms and draw_ms split frame_ms; drawn counts the
//	                          frames drawn, painted those whose picture changed (a frame with
//	                          the picture of the one before is left on screen, not painted
//	                          again: a paused run whose moves have landed paints nothing),
//	                          layouts the machine's layouts (a scenario, the stage's size,
//	                          talk mode, A/B or the theme changed); prepared is 1 once the
//	                          worker sent the preset list and describe()'s model of the
//	                          scenario shown (else 0: every field is a number), models_made
//	                          counts the models describe() had to make on the main thread;
//	                          gc_cycles, heap_mb and alloc_mb are the page's Go collector
//	                          (it runs on the main thread): collections so far, the heap in
//	                          use (MB) and the MB allocated so far
//
// The simulator plays in a Web Worker (worker.go); every call above still
// returns at once, computed on the page's copy of the session's state
// (front.go). What comes from the running simulator (metrics(),
// metricsB(), state().now_ms and playing, log(), error() about a run that
// stopped) reflects the calls made once the worker applied them:
//
//	settled()              -> Promise of true, resolved when the worker has applied
//	                          every call made so far and the page has its frame
//	runToEnd()             -> Promise of {ok, error, metrics, metricsB, wall_ms, sim_ms}:
//	                          runs the scenario (and side B) to its end as fast as the
//	                          worker goes, the page drawing its progress; ok is false when
//	                          a limit or another call stopped it (error says which);
//	                          wall_ms is the worker's time for it, sim_ms what it covered
//	state().fast_forward   -> true while a runToEnd is under way
//	state().busy_ms        -> how long the worker has been behind the calls made (a
//	                          long step or seek), 0 when it has applied them all
//
// The page's own additions (README, "The page"):
//
//	restart()              -> {ok, error}; the same scenario from t = 0
//	state()                -> {playing, now_ms, duration_ms, speed, speed_label,
//	                          can_undo, can_redo}
//	describe()             -> the editor's model: {scenario, json, ncpu, levels,
//	                          effective, base, cost_defaults, cstates, preset,
//	                          schema: {version, fields, placeholders, keys}, values,
//	                          base_values, defaults, duty, level_keys, suggestions}
//	                          (cmd/wasm/pagemodel)
//	exportScenario()       -> the scenario as indented JSON text
//	importText(data, name, kind, progress)
//	                       -> Promise of {ok, error, problems, kind, notes}: a scenario
//	                          JSON, an rt-app JSON (run on the current machine), lscpu -p
//	                          output (replaces the machine) or a sched trace (ftrace or
//	                          trace-cmd report text: its tasks, on the machine it shows);
//	                          kind "" recognises it; notes: what could not be mapped,
//	                          "path: what happened". data is a string, an ArrayBuffer or
//	                          a Uint8Array (its buffer is transferred to the worker, which
//	                          decodes it); progress({phase, frac, bytes}) is called on the
//	                          way (frac -1: the importer cannot tell). On error nothing
//	                          is replaced
//	cancelJobs()           -> how many imports and exports under way it cancelled (their
//	                          Promises resolve with {ok: false, cancelled: true})
//	export(format, progress)
//	                       -> Promise of {ok, error, name, type, data (Uint8Array)}:
//	                          the scenario run from t = 0 to its end (in the worker), as
//	                          "perfetto", "schedstat", "csv" or "perfetto-proto";
//	                          progress(fraction) is called on the way
//	compare(sets)          -> {ok, error, problems}; A/B: side B is the scenario with
//	                          sets applied (an array of "path=value", or one string with
//	                          one per line); [] or "" turns A/B off; compare() -> the sets
//	edit(op, ...)          -> {ok, error, problems}: a structural edit done in Go
//	                          (pagemodel.EditOp): renameTask(i, name), removeTask(i),
//	                          addTask(), addStep(i), moveStep(i, j, d), stepKind(i, j, kind),
//	                          dutyCycle(i, pct, period), addIdleState()
//	metricsB()             -> side B's metrics (as metrics()), null when A/B is off
//	pauseOnMove(on)        -> pause at the next migration (stays armed); () -> armed?
//	talk(on)               -> talk mode; talk() -> on?
//	log(since)             -> {rev, next, dropped, entries: [{seq, t_ms, kind, cause,
//	                          task, task_id, cpu, from, text}]}: the newest 500 lines of
//	                          the event log after seq since (-1: all)
//
// Every {ok, error} result also has problems: [{path, problem}], the error
// split by the scenario path it is about ("tasks[1].program[0].run"), so
// the page can show each problem next to its field.
//
// A Go panic inside a call is turned into an error result instead of
// killing the simulator.
func installAPI(sess *front, g *game, pg *page) {
	problemScenario = func() *scenarios.Scenario {
		sc, err := scenarios.Decode(sess.Scenario())
		if err != nil {
			return nil
		}
		return sc
	}
	obj := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		obj.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
			defer func() {
				if r := recover(); r != nil {
					msg := fmt.Sprintf("internal error in schedplay.%s: %v", name, r)
					consoleError(msg)
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
		return pg.result(sess.LoadJSON([]byte(data)))
	})
	fn("loadPreset", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("loadPreset(name): want a preset name"))
		}
		return result(sess.LoadPreset(args[0].String(), true))
	})
	fn("presets", func(args []js.Value) any {
		if presetList != "" { // the worker's (worker.go prepare)
			return js.Global().Get("JSON").Call("parse", presetList)
		}
		var out []any
		for _, p := range pagemodel.Presets() {
			out = append(out, map[string]any{"name": p.Name, "title": p.Title, "summary": p.Summary, "description": p.Description})
		}
		return out
	})
	fn("restart", func(args []js.Value) any { return result(restart(sess)) })
	fn("importText", func(args []js.Value) any {
		str := func(i int) string {
			if len(args) > i && args[i].Type() == js.TypeString {
				return args[i].String()
			}
			return ""
		}
		progress := js.Undefined()
		if len(args) > 3 {
			progress = args[3]
		}
		if len(args) < 1 || !(args[0].Type() == js.TypeString || args[0].InstanceOf(js.Global().Get("ArrayBuffer")) || args[0].InstanceOf(js.Global().Get("Uint8Array"))) {
			return js.Global().Get("Promise").Call("resolve", result(fmt.Errorf("importText(data, name, kind, progress): want the text (a string, an ArrayBuffer or a Uint8Array)")))
		}
		return importPromise(sess, pg, args[0], str(1), str(2), progress)
	})
	fn("cancelJobs", func(args []js.Value) any { return sess.cancelJobs() })
	fn("export", func(args []js.Value) any {
		format, progress := "", js.Undefined()
		if len(args) > 0 && args[0].Type() == js.TypeString {
			format = args[0].String()
		}
		if len(args) > 1 {
			progress = args[1]
		}
		return exportPromise(sess, format, progress)
	})
	fn("compare", func(args []js.Value) any {
		if len(args) == 0 || args[0].IsUndefined() {
			var out []any
			for _, s := range sess.Compare() {
				out = append(out, s)
			}
			return out
		}
		var sets []string
		switch a := args[0]; {
		case a.Type() == js.TypeString:
			for _, line := range strings.Split(a.String(), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					sets = append(sets, line)
				}
			}
		case a.InstanceOf(js.Global().Get("Array")):
			for i := 0; i < a.Length(); i++ {
				if line := strings.TrimSpace(a.Index(i).String()); line != "" {
					sets = append(sets, line)
				}
			}
		case a.IsNull():
		default:
			return result(fmt.Errorf("compare(sets): want an array of \"path=value\" strings"))
		}
		return pg.result(sess.SetCompare(sets))
	})
	fn("edit", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("edit(op, ...): want an operation name"))
		}
		num := func(i int) float64 {
			if len(args) > i && args[i].Type() == js.TypeNumber {
				return args[i].Float()
			}
			return math.NaN()
		}
		str := func(i int) string {
			if len(args) > i && args[i].Type() == js.TypeString {
				return args[i].String()
			}
			return ""
		}
		edit, err := pagemodel.EditOp(args[0].String(), num, str)
		if err != nil {
			return result(err)
		}
		// The worker builds the same edit from the same arguments.
		var nums []float64
		var strs []string
		for i := range args {
			nums, strs = append(nums, num(i)), append(strs, str(i))
		}
		return pg.result(sess.EditOp(edit, args[0].String(), nums, strs))
	})
	fn("metricsB", func(args []js.Value) any {
		b := sess.MetricsB()
		if b == nil {
			return js.Null()
		}
		return parseJSON(b)
	})
	fn("pauseOnMove", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			sess.SetPauseOnMove(args[0].Bool())
		}
		return sess.PauseOnMove()
	})
	fn("talk", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			// The page follows with the next frame (Frame.Talk), as it
			// does for the T key: one writer of the page's talk state.
			sess.SetTalk(args[0].Bool())
		}
		return sess.Talk()
	})
	fn("log", func(args []js.Value) any {
		since := int64(-1)
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			since = int64(args[0].Float())
		}
		return parseJSON(pg.log.Since(since))
	})
	fn("state", func(args []js.Value) any {
		now, dur := sess.Clock()
		speed := sess.Speed()
		return map[string]any{"playing": sess.Playing(), "now_ms": float64(now) / 1e6, "duration_ms": float64(dur) / 1e6,
			"speed": speed, "speed_label": frame.FormatSpeed(speed), "fast_forward": sess.fastForward(), "busy_ms": sess.busyMS(),
			"can_undo": sess.CanUndo(), "can_redo": sess.CanRedo()}
	})
	fn("describe", func(args []js.Value) any {
		model := described.of(sess.Scenario())
		if model.Type() != js.TypeString {
			return js.Null()
		}
		return js.Global().Get("JSON").Call("parse", model)
	})
	fn("exportScenario", func(args []js.Value) any {
		var b bytes.Buffer
		if err := json.Indent(&b, sess.Scenario(), "", "  "); err != nil {
			return ""
		}
		b.WriteByte('\n')
		return b.String()
	})
	fn("scenario", func(args []js.Value) any { return string(sess.Scenario()) })
	fn("shareLink", func(args []js.Value) any {
		link := sess.ShareLink(len(args) > 0 && args[0].Truthy())
		if link == "" {
			return "" // over the link limit: error() says so
		}
		return pg.shareURL(link)
	})
	fn("blank", func(args []js.Value) any {
		cur, _ := scenarios.Decode(sess.Scenario())
		b, err := pagemodel.Blank(cur)
		if err != nil {
			return result(err)
		}
		return result(sess.Replace(b))
	})
	fn("qr", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return result(fmt.Errorf("qr(text): want the text"))
		}
		url, v, err := pagemodel.QR(args[0].String())
		r := result(err).(map[string]any)
		r["src"], r["version"] = url, v
		return r
	})
	fn("tooltip", func(args []js.Value) any {
		if len(args) < 2 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber {
			return ""
		}
		return pagemodel.Tooltip(g.cv.Frame(), [2]*render.Layout{g.cv.Layout(0), g.cv.Layout(1)}, pg.log, args[0].Float(), args[1].Float())
	})
	fn("undo", func(args []js.Value) any { return result(sess.Undo()) })
	fn("redo", func(args []js.Value) any { return result(sess.Redo()) })
	fn("view", func(args []js.Value) any { return parseJSON(sess.View()) })
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
		return pg.result(sess.Set(args[0].String(), value))
	})
	fn("stats", func(args []js.Value) any {
		st := sess.Stats()
		dec, draw := sess.frameCost()
		drawn, painted, layouts, pending := pg.drawCounts()
		first, firstSim := pg.firstFrame()
		gcs, heapMB, allocMB := gcStats()
		return map[string]any{"gc_cycles": gcs, "heap_mb": heapMB, "alloc_mb": allocMB,
			"fps": st.FPS, "frame_ms": st.FrameMS, "sim_rtf": st.SimRTF, "first_frame_ms": first, "first_sim_frame_ms": firstSim,
			"decode_ms": dec, "draw_ms": draw, "drawn": drawn, "painted": painted, "layouts": layouts, "labels_pending": boolNum(pending),
			"prepared": boolNum(presetList != "" && described.given && described.holds(sess.Scenario())), "models_made": described.made}
	})
	fn("settled", func(args []js.Value) any { return sess.settled() })
	fn("runToEnd", func(args []js.Value) any { return sess.runToEnd() })
	installTimelineAPI(sess, fn) // seek, seekMigration, timeline (timelineapi.go)
	js.Global().Set("schedplay", obj)
}

// boolNum is 1 for true, 0 for false.
func boolNum(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// problemScenario is the scenario the page shows, whose groups a problem's
// "where" names (installAPI sets it).
var problemScenario = func() *scenarios.Scenario { return nil }

// result is the {ok, error, problems} object the API returns; each problem
// has its path, the problem, and where: the place in the editor's words
// (pagemodel.Where).
func result(err error) any {
	if err != nil {
		var probs []any
		var sc *scenarios.Scenario
		for i, p := range pagemodel.Problems(err) {
			if i == 0 {
				sc = problemScenario()
			}
			probs = append(probs, map[string]any{"path": p.Path, "problem": p.Problem, "where": pagemodel.Where(sc, p.Path)})
		}
		return map[string]any{"ok": false, "error": err.Error(), "problems": probs}
	}
	return map[string]any{"ok": true, "error": "", "problems": []any{}}
}

// modelCache keeps describe()'s JSON for the scenario it was made from.
// The editor reads describe() after every change and again for every
// listener of schedplay:scenario; the model of the same scenario is the
// same. An import brings its model from the worker (importjob.Result.Model)
// and puts it here, so the page's main thread only parses it (issue 19: a
// 64-group import spent 26-45 ms of the main thread describing itself);
// so does every other scenario the worker loads (worker.go prepare).
//
// The model is kept as the JS string it came in (the worker's message) or
// was made into once: describe() hands it to JSON.parse as it is. Kept as
// Go bytes, each message's model (55 KB for a preset) was copied into Go
// memory and each describe() copied it back out, at every edit.
type modelCache struct {
	scenario []byte
	model    js.Value // describe()'s JSON, a JS string; undefined when none
	given    bool     // the model came from the worker
	made     int      // models made on this thread (of)
}

var described modelCache

// presetList is presets() as JSON, made by the worker (worker.go prepare);
// "" until it came.
var presetList string

// of returns the model (a JS string of JSON) of the scenario whose
// canonical JSON is cur, null if it does not decode (the session only
// holds valid scenarios).
func (c *modelCache) of(cur []byte) js.Value {
	if c.holds(cur) {
		return c.model
	}
	b, err := pagemodel.DescribeJSON(cur)
	if err != nil {
		return js.Null()
	}
	c.made++
	c.put(cur, js.ValueOf(string(b)), false)
	return c.model
}

// put records model, a JS string, as the model of scenario; given: the
// worker made it.
func (c *modelCache) put(scenario []byte, model js.Value, given bool) {
	c.scenario, c.model, c.given = bytes.Clone(scenario), model, given
}

// holds reports whether the cache has the model of scenario cur.
func (c *modelCache) holds(cur []byte) bool {
	return c.model.Type() == js.TypeString && bytes.Equal(cur, c.scenario)
}

// parseJSON hands v to JS as a plain object (js.ValueOf takes no structs
// nor typed maps).
func parseJSON(v any) js.Value {
	b, err := json.Marshal(v)
	if err != nil {
		return js.Null()
	}
	return js.Global().Get("JSON").Call("parse", string(b))
}

// restart plays the loaded scenario again from t = 0 (not a change: the
// address bar stays as it is).
func restart(sess *front) error {
	sc, err := scenarios.Decode(sess.Scenario())
	if err != nil {
		return err
	}
	return sess.Load(sc, false)
}
