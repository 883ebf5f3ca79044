//go:build js

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"schedplay/app"
	"schedplay/cmd/wasm/wire"
	"schedplay/frame"
	"schedplay/scenarios"
	"schedplay/sim"
)

// front is the page API's side of the session on the main thread. The
// simulator plays in the worker (worker.go); the main thread keeps:
//
//   - shadow, an app.Session that is never ticked nor stepped: every call
//     that changes the scenario or the view runs on it first, so the call
//     returns its result synchronously as before (validation, problems by
//     path, scenario(), shareLink(), view(), compare(), describe() read
//     it), and is then forwarded, numbered, to the worker, whose session
//     does the same thing to the same state;
//   - a mirror of the worker's newest frame: metrics, metricsB, state,
//     error and the frames the canvas and panels draw come from it (all
//     but the first picture, the shadow's frame at t = 0: still).
//
// A value that comes from the simulator (metrics(), state().now_ms,
// log(), error() after a run stopped) reflects a call once the worker has
// applied it: schedplay.settled() is a Promise that resolves then. Until
// then the mirror answers with what the main thread knows (the shadow's
// flags, the simulated time a step will reach).
type front struct {
	shadow *app.Session
	hub    *app.Hub
	worker js.Value
	dec    *wire.Decoder

	mu      sync.Mutex
	seq     uint64 // calls forwarded
	applied uint64 // calls the newest frame has applied
	last    *frame.Frame
	metrics [2]*sim.Metrics // newest metrics of A and B (B nil when A/B is off)
	playing bool            // the main thread's idea until the worker catches up
	predNow int64           // simulated ns side A will be at once the worker caught up
	tl      *frame.Timeline // the newest timeline (timelineapi.go)
	// tlJSON is tl as JSON, made at the first timeline() call after tl
	// changed (tlOf says for which): the scrubber polls every 150 ms, the
	// timeline changes four times a second while playing.
	tlJSON  string
	tlOf    *frame.Timeline
	ch      *frame.ChapterInfo // the newest chapter state
	ff      bool               // a run to the end is under way
	waiters []waiter
	// busyFrom is when the worker fell behind the calls (the first call
	// made while it had applied all before): a long step or seek.
	busyFrom time.Time
	ffWait   []js.Value // runToEnd promises' resolve functions
	exports  map[float64]exportWait
	imports  map[float64]importWait
	nextExp  float64 // the last import or export id

	// the main thread's own numbers (stats())
	meter     app.Meter
	lastFrame time.Time
	simNS     int64 // side A's simulated ns advanced by frames since the last Update
	lastRev   int64
	lastNow   int64
	decodeDur time.Duration
	// decode and draw time per frame over the last second (stats())
	win                time.Time
	winDecode, winDraw time.Duration
	winFrames          int
	decodeMS, drawMS   float64

	// unacked: frames decoded and not yet acknowledged to the worker.
	// The acknowledgement goes when the page draws (tick), so the worker
	// merges the frames a slow page could not draw instead of having it
	// decode each (aim9-burst at 11 fps decoded 60 frames a second);
	// ackTimer acknowledges anyway when no frame is drawn for a while (a
	// hidden tab draws nothing, and the API's promises wait for frames).
	unacked  int
	ackTimer js.Value
	ackFn    js.Func
}

// ackAfter is how long a decoded frame waits for a drawn one before it is
// acknowledged anyway: longer than a slow page's frame, so that the frames
// it cannot draw are merged in the worker rather than decoded here
// (aim9-burst drawn at 8 frames a second under software GL decoded 26
// frames a second with 100 ms, 16 with 250: docs/performance.md round
// twenty-two), short enough that a page that draws nothing (a hidden tab)
// still gets 8 frames a second for its panels and the API's promises.
const ackAfter = 250 * time.Millisecond

type exportWait struct{ resolve, progress js.Value }

// importWait is an import under way: apply takes the worker's result.
type importWait struct {
	apply    func(js.Value)
	progress js.Value
}

// startImport posts an import to the worker: data (a string, or an
// ArrayBuffer or Uint8Array whose buffer is transferred) with the scenario
// played now; apply gets the worker's result.
func (fr *front) startImport(data js.Value, name, kind string, apply func(js.Value), progress js.Value) {
	fr.mu.Lock()
	fr.nextExp++
	id := fr.nextExp
	if fr.imports == nil {
		fr.imports = map[float64]importWait{}
	}
	fr.imports[id] = importWait{apply, progress}
	fr.mu.Unlock()
	m := map[string]any{"op": "import", "id": id, "data": data, "name": name, "kind": kind, "cur": string(fr.shadow.Scenario())}
	var transfer []any
	switch {
	case data.InstanceOf(js.Global().Get("ArrayBuffer")):
		transfer = append(transfer, data)
	case data.InstanceOf(js.Global().Get("Uint8Array")):
		transfer = append(transfer, data.Get("buffer"))
	}
	fr.worker.Call("postMessage", m, transfer)
}

// takeJob looks up the import or export a worker message is about: data
// carries its id under key, and jobs points to fr.imports or fr.exports
// (a pointer, so that the field is read under fr.mu: startImport,
// startExport and cancelJobs replace the map). When data is the job's
// result (done) the job is forgotten. ok is false when the id is not
// there: the job was cancelled (cancelJobs).
func takeJob[T any](fr *front, jobs *map[float64]T, key string, data js.Value) (w T, done, ok bool) {
	id := data.Get(key).Float()
	fr.mu.Lock()
	w, ok = (*jobs)[id]
	done = data.Get("done").Truthy()
	if done {
		delete(*jobs, id)
	}
	fr.mu.Unlock()
	return w, done, ok
}

// onImport takes an import's progress or result from the worker.
func (fr *front) onImport(data js.Value) {
	w, done, ok := takeJob(fr, &fr.imports, "import", data)
	if !ok {
		return // cancelled
	}
	if !done {
		if w.progress.Type() == js.TypeFunction {
			w.progress.Invoke(map[string]any{"phase": "decoding", "frac": data.Get("progress"), "bytes": data.Get("bytes")})
		}
		return
	}
	w.apply(data)
}

// cancelJobs gives up every import and export under way: their Promises
// resolve now with {ok: false, cancelled: true}, the worker stops them at
// their next progress report, and nothing is replaced. It returns how many
// it cancelled.
func (fr *front) cancelJobs() int {
	fr.mu.Lock()
	imps, exps := fr.imports, fr.exports
	fr.imports, fr.exports = nil, nil
	fr.mu.Unlock()
	for id, w := range imps {
		fr.worker.Call("postMessage", map[string]any{"op": "cancel", "id": id})
		w.apply(js.ValueOf(map[string]any{"ok": false, "cancelled": true, "error": "import cancelled", "notes": []any{}}))
	}
	for id, w := range exps {
		fr.worker.Call("postMessage", map[string]any{"op": "cancel", "id": id})
		w.resolve.Invoke(map[string]any{"ok": false, "cancelled": true, "error": "export cancelled"})
	}
	return len(imps) + len(exps)
}

// startExport sends an export to the worker; resolve gets its result.
func (fr *front) startExport(scenario, format string, resolve, progress js.Value) {
	fr.mu.Lock()
	fr.nextExp++
	id := fr.nextExp
	if fr.exports == nil {
		fr.exports = map[float64]exportWait{}
	}
	fr.exports[id] = exportWait{resolve, progress}
	fr.mu.Unlock()
	// Not a numbered call: it changes nothing of the session.
	fr.worker.Call("postMessage", map[string]any{"op": "export", "id": id, "s": scenario, "s2": format})
}

// onExport takes an export's progress or result from the worker.
func (fr *front) onExport(data js.Value) {
	w, done, ok := takeJob(fr, &fr.exports, "export", data)
	if !ok {
		return // cancelled
	}
	if !done {
		if w.progress.Type() == js.TypeFunction {
			w.progress.Invoke(data.Get("progress"))
		}
		return
	}
	res := js.Global().Get("Object").New()
	for _, k := range []string{"ok", "error", "name", "type", "data", "cancelled"} {
		if v := data.Get(k); !v.IsUndefined() {
			res.Set(k, v)
		}
	}
	w.resolve.Invoke(res)
}

type waiter struct {
	seq     uint64
	resolve js.Value
}

func newFront(worker js.Value, hub *app.Hub) *front {
	fr := &front{shadow: app.NewSession(), hub: hub, worker: worker, dec: wire.NewDecoder(), playing: true, lastRev: -1}
	fr.shadow.SetShadow() // seeks and chapters' times are the worker's
	return fr
}

// post forwards a call to the worker; kv names its arguments.
func (fr *front) post(op string, kv map[string]any) {
	fr.mu.Lock()
	if fr.applied >= fr.seq {
		fr.busyFrom = time.Now()
	}
	fr.seq++
	seq := fr.seq
	fr.mu.Unlock()
	m := map[string]any{"op": op, "seq": float64(seq)}
	for k, v := range kv {
		m[k] = v
	}
	fr.worker.Call("postMessage", m)
}

// still publishes the shadow's frame of its scenario at t = 0 while the
// worker has sent no frame, and returns it (nil after, or when no scenario
// loaded): the page's first picture (game.Draw), and its title, clock and
// editor, until the worker's frames come.
func (fr *front) still() *frame.Frame {
	fr.mu.Lock()
	has := fr.last != nil
	fr.mu.Unlock()
	if has {
		return nil
	}
	f := fr.shadow.Still(time.Now())
	fr.hub.Publish(f)
	return f
}

// caughtUp: the newest frame has applied every call made.
func (fr *front) caughtUp() bool { return fr.last != nil && fr.applied == fr.seq }

// onMessage takes a message of the worker: a frame (bytes) or a status.
func (fr *front) onMessage(data js.Value) {
	if !data.InstanceOf(js.Global().Get("Uint8Array")) {
		if data.Get("export").Type() == js.TypeNumber {
			fr.onExport(data)
			return
		}
		if data.Get("import").Type() == js.TypeNumber {
			fr.onImport(data)
			return
		}
		if p := data.Get("presets"); p.Type() == js.TypeString {
			presetList = p.String()
			return
		}
		if m := data.Get("model"); m.Type() == js.TypeString {
			// describe()'s model, made by the worker (worker.go prepare):
			// kept if the page still shows that scenario.
			if s := []byte(data.Get("s").String()); bytes.Equal(fr.shadow.Scenario(), s) {
				described.put(s, m, true)
			}
			return
		}
		if e := data.Get("error"); e.Type() == js.TypeString {
			fr.shadow.SetError("simulator worker: " + e.String())
		}
		return
	}
	t0 := time.Now()
	b := make([]byte, data.Length())
	js.CopyBytesToGo(b, data)
	fr.mu.Lock()
	fr.unacked++
	if fr.ackTimer.IsUndefined() {
		fr.ackTimer = js.Global().Call("setTimeout", fr.ackFunc(), ackAfter.Milliseconds())
	}
	fr.mu.Unlock()
	m, err := fr.dec.Decode(b)
	if err != nil {
		fr.shadow.SetError("simulator worker: " + err.Error())
		return
	}
	f := m.Frame
	fr.mu.Lock()
	fr.applied = m.Applied
	fr.ff = m.FastForward
	if f != nil {
		fr.last = f
		if f.Rev == fr.lastRev {
			fr.simNS += f.A().Now - fr.lastNow
		}
		fr.lastRev, fr.lastNow = f.Rev, f.A().Now
		if a := f.A().Metrics; a != nil {
			fr.metrics[0] = a
		}
		if f.B() == nil {
			fr.metrics[1] = nil
		} else if b := f.B().Metrics; b != nil {
			fr.metrics[1] = b
		}
		if fr.applied == fr.seq {
			fr.playing, fr.predNow = f.Playing, f.A().Now
			fr.presentFrame(f)
		}
	}
	var ready []js.Value
	keep := fr.waiters[:0]
	for _, w := range fr.waiters {
		if w.seq <= fr.applied {
			ready = append(ready, w.resolve)
		} else {
			keep = append(keep, w)
		}
	}
	fr.waiters = keep
	var ffDone []js.Value
	if m.FFDone {
		ffDone, fr.ffWait = fr.ffWait, nil
	}
	fr.decodeDur += time.Since(t0)
	fr.mu.Unlock()
	if f != nil {
		fr.hub.Publish(f)
	}
	for _, r := range ready {
		r.Invoke(true)
	}
	if len(ffDone) > 0 {
		res := fr.ffResult(m)
		for _, r := range ffDone {
			r.Invoke(res)
		}
	}
}

// ffResult is runToEnd's result: {ok, error, metrics, metricsB, wall_ms,
// sim_ms} (the worker's wall time for the run, and the simulated time it
// covered).
func (fr *front) ffResult(m *wire.Msg) any {
	errText := m.FFStop
	if errText == "" && m.Frame != nil && m.Frame.A().Now < m.Frame.Duration {
		errText = m.Frame.Err
	}
	res := map[string]any{"ok": errText == "", "error": errText, "wall_ms": m.FFWallMS, "sim_ms": m.FFSimMS}
	fr.mu.Lock()
	a, b := fr.metrics[0], fr.metrics[1]
	fr.mu.Unlock()
	res["metrics"] = metricsValue(a)
	res["metricsB"] = metricsValue(b)
	return res
}

func metricsValue(m *sim.Metrics) js.Value {
	if m == nil {
		return js.Null()
	}
	b, err := json.Marshal(m)
	if err != nil {
		return js.Null()
	}
	return js.Global().Get("JSON").Call("parse", string(b))
}

// settled is a Promise that resolves once the worker applied every call
// made so far (and the mirror holds a frame after them).
func (fr *front) settled() js.Value {
	var h js.Func
	h = js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Release()
		fr.mu.Lock()
		seq := fr.seq
		if fr.last != nil && fr.applied >= seq {
			fr.mu.Unlock()
			args[0].Invoke(true)
			return nil
		}
		fr.waiters = append(fr.waiters, waiter{seq: seq, resolve: args[0]})
		fr.mu.Unlock()
		return nil
	})
	return js.Global().Get("Promise").New(h)
}

// runToEnd starts a run to the end and returns a Promise of its result.
func (fr *front) runToEnd() js.Value {
	var h js.Func
	h = js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Release()
		fr.mu.Lock()
		fr.ffWait = append(fr.ffWait, args[0])
		fr.playing = false
		fr.ff = true
		fr.mu.Unlock()
		fr.post("runToEnd", nil)
		return nil
	})
	return js.Global().Get("Promise").New(h)
}

// busyMS is how long the worker has been behind the calls made (0: it
// has applied them all): the page shows progress for a call that keeps it
// busy over half a second.
func (fr *front) busyMS() float64 {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.applied >= fr.seq || fr.busyFrom.IsZero() {
		return 0
	}
	return float64(time.Since(fr.busyFrom)) / float64(time.Millisecond)
}

// fastForward reports whether a run to the end is under way.
func (fr *front) fastForward() bool {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.ff
}

// restarted: a call that (when it succeeded) plays from t = 0.
func (fr *front) restarted(err error) error {
	if err == nil {
		fr.mu.Lock()
		fr.predNow = 0
		fr.mu.Unlock()
	}
	return err
}

func (fr *front) LoadJSON(data []byte) error {
	err := fr.shadow.LoadJSON(data)
	fr.post("loadJSON", map[string]any{"s": string(data)})
	return fr.restarted(err)
}

func (fr *front) LoadPreset(name string, user bool) error {
	err := fr.shadow.LoadPreset(name, user)
	fr.post("loadPreset", map[string]any{"s": name, "b": user})
	return fr.restarted(err)
}

func (fr *front) LoadLink(link string) error {
	err := fr.shadow.LoadLink(link)
	fr.post("loadLink", map[string]any{"s": link})
	return fr.restarted(err)
}

// Load loads sc (a restart, an import); the worker gets its canonical JSON.
func (fr *front) Load(sc *scenarios.Scenario, user bool) error {
	err := fr.shadow.Load(sc, user)
	fr.post("load", map[string]any{"s": string(sc.Canonical()), "b": user})
	return fr.restarted(err)
}

func (fr *front) Set(path, value string) error {
	err := fr.shadow.Set(path, value)
	fr.post("set", map[string]any{"s": path, "s2": value})
	return fr.restarted(err)
}

func (fr *front) SetCompare(sets []string) error {
	err := fr.shadow.SetCompare(sets)
	list := make([]any, len(sets))
	for i, s := range sets {
		list[i] = s
	}
	fr.post("compare", map[string]any{"list": list})
	return fr.restarted(err)
}

// EditOp is Edit by pagemodel.EditOp's name and arguments (the worker
// builds the same edit from them).
func (fr *front) EditOp(edit func(*scenarios.Scenario) error, name string, nums []float64, strs []string) error {
	err := fr.shadow.Edit(edit)
	ns, ss := make([]any, len(nums)), make([]any, len(strs))
	for i, n := range nums {
		ns[i] = n
	}
	for i, s := range strs {
		ss[i] = s
	}
	fr.post("edit", map[string]any{"s": name, "nums": ns, "strs": ss})
	return fr.restarted(err)
}

func (fr *front) SetSpeed(x float64) error {
	err := fr.shadow.SetSpeed(x)
	fr.post("speed", map[string]any{"n": x})
	return err
}

func (fr *front) SetTalk(on bool) {
	fr.shadow.SetTalk(on)
	fr.post("talk", map[string]any{"b": on})
}

func (fr *front) SetPauseOnMove(on bool) {
	fr.shadow.SetPauseOnMove(on)
	fr.post("pom", map[string]any{"b": on})
}

func (fr *front) Play() {
	fr.shadow.Play() // its flags: the view's pause, a new scenario's playing
	fr.mu.Lock()
	fr.playing = true
	fr.mu.Unlock()
	fr.post("play", nil)
}

func (fr *front) Pause() {
	fr.shadow.Pause()
	fr.mu.Lock()
	fr.playing = false
	fr.mu.Unlock()
	fr.post("pause", nil)
}

// Playing is the worker's state once it applied every call; before, what
// the calls made it.
func (fr *front) Playing() bool {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.caughtUp() {
		return fr.last.Playing
	}
	return fr.playing
}

// Step pauses and advances side A by d in the worker. It returns the
// simulated time the step reaches: where side A is once the worker
// applied every call before it, plus d, at most the run's end. (The worker
// may stop short, after app.MaxCallWork units of work: then error() says
// so once settled.)
func (fr *front) Step(d time.Duration) (int64, error) {
	if d <= 0 || d > app.MaxStep {
		err := fmt.Errorf("step %v: must be more than 0 and at most %v", d, app.MaxStep)
		fr.SetError(err.Error())
		return 0, err
	}
	dur := int64(0)
	if sc, err := scenarios.Decode(fr.shadow.Scenario()); err == nil {
		if cfg, err := sc.Config(); err == nil {
			dur = cfg.Duration
		}
	}
	fr.shadow.Pause() // a step is the user's pause (the shadow never simulates)
	fr.mu.Lock()
	fr.playing = false
	now := fr.predNow + int64(d)
	if dur > 0 {
		now = min(now, dur)
	}
	fr.predNow = now
	fr.mu.Unlock()
	fr.post("step", map[string]any{"n": float64(d)})
	return now, nil
}

// Do applies a keyboard command (not CmdFullscreen: the page does it).
func (fr *front) Do(c app.Command) {
	switch c {
	case app.CmdTogglePlay:
		if fr.Playing() {
			fr.Pause()
		} else {
			fr.Play()
		}
	case app.CmdStep:
		d := time.Duration(float64(app.StepFrame) * fr.shadow.Speed())
		fr.Step(max(d, time.Nanosecond))
	case app.CmdNextPreset:
		fr.restarted(fr.shadow.Do(c))
		fr.post("do", map[string]any{"n": float64(c)})
	case app.CmdToggleAB:
		fr.restarted(fr.shadow.Do(c))
		fr.post("do", map[string]any{"n": float64(c)})
	case app.CmdStepBack, app.CmdPrevMigration, app.CmdNextMigration:
		// Seeks: the worker simulates (the shadow would on this thread).
		fr.mu.Lock()
		fr.playing = false
		fr.mu.Unlock()
		fr.post("do", map[string]any{"n": float64(c)})
	case app.CmdNextChapter:
		fr.StepChapter(+1)
	case app.CmdPrevChapter:
		fr.StepChapter(-1)
	default:
		fr.shadow.Do(c)
		fr.post("do", map[string]any{"n": float64(c)})
	}
}

// SetError sets error()'s text on both sides.
func (fr *front) SetError(text string) {
	fr.shadow.SetError(text)
	fr.post("error", map[string]any{"s": text})
}

// Error is the worker's error text once it applied every call; before,
// the shadow's (the calls' own errors, which the worker repeats).
func (fr *front) Error() string {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.caughtUp() {
		return fr.last.Err
	}
	return fr.shadow.Error()
}

// MetricsJSON is side A's newest metrics from the worker.
func (fr *front) MetricsJSON() ([]byte, error) {
	fr.mu.Lock()
	m := fr.metrics[0]
	fr.mu.Unlock()
	if m == nil {
		return nil, errors.New("no frame from the simulator yet")
	}
	return json.Marshal(m)
}

// MetricsB is side B's newest metrics, nil when A/B is off.
func (fr *front) MetricsB() *sim.Metrics {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.metrics[1]
}

// Clock is side A's simulated time and the run's length, newest frame.
func (fr *front) Clock() (now, dur int64) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.last == nil {
		return 0, 0
	}
	if !fr.caughtUp() {
		return fr.predNow, fr.last.Duration
	}
	return fr.last.A().Now, fr.last.Duration
}

// ackLocked acknowledges the frames decoded so far (fr.mu held).
func (fr *front) ackLocked() {
	if !fr.ackTimer.IsUndefined() {
		js.Global().Call("clearTimeout", fr.ackTimer)
		fr.ackTimer = js.Undefined()
	}
	if fr.unacked > 0 {
		fr.worker.Call("postMessage", map[string]any{"op": "ack", "n": fr.unacked})
		fr.unacked = 0
	}
}

// ackFunc is the timer's callback (made once).
func (fr *front) ackFunc() js.Func {
	if fr.ackFn.IsUndefined() {
		fr.ackFn = js.FuncOf(func(js.Value, []js.Value) any {
			fr.mu.Lock()
			fr.ackTimer = js.Undefined()
			fr.ackLocked()
			fr.mu.Unlock()
			return nil
		})
	}
	return fr.ackFn
}

// tick is the main thread's frame (Ebiten's Update): the meter.
func (fr *front) tick(now time.Time) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	var dt time.Duration
	if !fr.lastFrame.IsZero() {
		dt = min(now.Sub(fr.lastFrame), 250*time.Millisecond)
	}
	fr.lastFrame = now
	fr.ackLocked()
	fr.meter.Frame(now, dt, fr.simNS, fr.decodeDur)
	fr.winDecode += fr.decodeDur
	fr.winFrames++
	if fr.win.IsZero() {
		fr.win = now
	}
	if el := now.Sub(fr.win); el >= time.Second {
		fr.decodeMS = float64(fr.winDecode) / float64(time.Millisecond) / float64(fr.winFrames)
		fr.drawMS = float64(fr.winDraw) / float64(time.Millisecond) / float64(fr.winFrames)
		fr.win, fr.winDecode, fr.winDraw, fr.winFrames = now, 0, 0, 0
	}
	fr.simNS, fr.decodeDur = 0, 0
}

// DrawTime adds the time drawing a frame took.
func (fr *front) DrawTime(d time.Duration) {
	fr.mu.Lock()
	fr.meter.Draw(d)
	fr.winDraw += d
	fr.mu.Unlock()
}

// Stats are the main thread's: frames drawn per second, ms per frame spent
// decoding and drawing, and the simulated seconds per second the frames
// it received advanced.
func (fr *front) Stats() frame.Stats {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.meter.Stats()
}

// frameCost is frame_ms split: decoding the worker's frames and drawing,
// ms per drawn frame over the last second.
func (fr *front) frameCost() (decode, draw float64) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.decodeMS, fr.drawMS
}

// The shadow's state, which the calls keep equal to the worker's.
func (fr *front) Scenario() []byte       { return fr.shadow.Scenario() }
func (fr *front) Link() string           { return fr.shadow.Link() }
func (fr *front) ViewLink() string       { return fr.shadow.ViewLink() }
func (fr *front) View() scenarios.View   { return fr.shadow.View() }
func (fr *front) Compare() []string      { return fr.shadow.Compare() }
func (fr *front) Speed() float64         { return fr.shadow.Speed() }
func (fr *front) Talk() bool             { return fr.shadow.Talk() }
func (fr *front) PauseOnMove() bool      { return fr.shadow.PauseOnMove() }
func (fr *front) Preset() string         { return fr.shadow.Preset() }
func (fr *front) Info() (string, string) { return fr.shadow.Info() }

// Replace loads sc as a new scenario (an import, a blank one): a history
// entry of its own, its own speed (app.Session.Replace).
func (fr *front) Replace(sc *scenarios.Scenario) error {
	err := fr.shadow.Replace(sc)
	fr.post("replace", map[string]any{"s": string(sc.Canonical()), "t": sc.Title})
	return fr.restarted(err)
}

// Undo and Redo walk the scenario history (app.Session.Undo); the worker's
// session keeps the same history, as it applies the same calls.
func (fr *front) Undo() error {
	err := fr.shadow.Undo()
	fr.post("undo", nil)
	return fr.restarted(err)
}

func (fr *front) Redo() error {
	err := fr.shadow.Redo()
	fr.post("redo", nil)
	return fr.restarted(err)
}

func (fr *front) CanUndo() bool              { return fr.shadow.CanUndo() }
func (fr *front) CanRedo() bool              { return fr.shadow.CanRedo() }
func (fr *front) ShareLink(view bool) string { return fr.shadow.ShareLink(view) }
