//go:build js

package main

import (
	"bytes"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"schedplay/cmd/wasm/importjob"
	"schedplay/cmd/wasm/pagemodel"
	"schedplay/interop"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Exports run the loaded scenario from t = 0 to its end in a simulator of
// their own (the one on screen plays on) and write it with interop.Export,
// as `schedsim export` does; pagemodel names the file.

// maxExportBytes bounds an export kept in the tab's memory; a longer run
// needs the CLI (schedsim export streams to a file).
const maxExportBytes = 64 << 20

// exportYield is how long an export may run before it lets the worker's
// loop tick the session that plays (and take the page's calls).
const exportYield = 40 * time.Millisecond

var errExportTooLarge = errors.New("too large")

// yieldingWriter collects the export, and every exportYield of wall time
// sleeps a moment so that the worker keeps playing and answering; it also
// reports progress (simulated time) through progress.
type yieldingWriter struct {
	buf      bytes.Buffer
	last     time.Time
	sm       *sim.Sim
	dur      int64
	progress func(frac float64)
	full     bool // the size limit was reached: the run stops too (Options.Stop)
	stop     func() bool
	stopped  bool // the page cancelled the export
}

func (w *yieldingWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > maxExportBytes {
		w.full = true
		return 0, errExportTooLarge
	}
	w.buf.Write(p)
	if time.Since(w.last) >= exportYield {
		if w.progress != nil && w.dur > 0 && w.sm != nil {
			w.progress(float64(w.sm.Now()) / float64(w.dur))
		}
		time.Sleep(time.Millisecond) // back to the JS event loop
		w.last = time.Now()
		if w.stop != nil && w.stop() {
			w.stopped = true
			return 0, errCancelled
		}
	}
	return len(p), nil
}

// exportRun writes the scenario in format; name is the file name to offer.
func exportRun(scenario []byte, format string, progress func(float64), stop func() bool) (data []byte, name, mime string, err error) {
	sc, err := scenarios.Decode(scenario)
	if err != nil {
		return nil, "", "", err
	}
	name, mime, err = pagemodel.ExportFile(sc.Title, format)
	if err != nil {
		return nil, "", "", err
	}
	cfg, err := sc.Config()
	if err != nil {
		return nil, "", "", err
	}
	src := interop.Source{Scenario: sc}
	w := &yieldingWriter{last: time.Now(), dur: cfg.Duration, progress: progress, stop: stop}
	if ft, _ := interop.LookupFormat(format); ft.Runs {
		if src.Sim, err = sim.New(cfg); err != nil {
			return nil, "", "", err
		}
		w.sm = src.Sim
	}
	// Samples and schedstat snapshots every millisecond, as
	// `schedsim export -interval 1ms`. (What a format cannot express is
	// for the CLI to list; the page offers the formats that run.)
	// The run stops when the export reaches its cap (w.full), instead of
	// simulating on for nothing.
	_, err = interop.Export(w, src, format, interop.Options{Interval: interop.DefaultInterval, Stop: func() bool { return w.full || w.stopped }})
	if w.stopped {
		return nil, "", "", errCancelled
	}
	if errors.Is(err, errExportTooLarge) {
		return nil, "", "", fmt.Errorf("the %s export of this run is larger than %d MiB; shorten the simulated time (duration) or use schedsim export", format, maxExportBytes>>20)
	}
	if err != nil {
		return nil, "", "", err
	}
	if src.Sim != nil {
		if err := src.Sim.Err(); err != nil {
			return nil, "", "", err
		}
	}
	return w.buf.Bytes(), name, mime, nil
}

// exportPromise is schedplay.export(format): a Promise of {ok, error, name,
// type, data (a Uint8Array)}. The export runs in the simulator's worker
// (workerExport), not on the page's thread.
func exportPromise(sess *front, format string, progress js.Value) js.Value {
	scenario := string(sess.Scenario())
	var h js.Func
	h = js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Release()
		sess.startExport(scenario, format, args[0], progress)
		return nil
	})
	return js.Global().Get("Promise").New(h)
}

// workerExport runs an export in the worker (on a goroutine: the writer
// yields every exportYield, so the worker keeps ticking and frames keep
// coming), posting {export: id, progress} on the way and then {export: id,
// done: true, ok, error, name, type, data}.
func workerExport(id float64, scenario, format string, stop func() bool) {
	post := func(m map[string]any, transfer ...any) {
		m["export"] = id
		js.Global().Call("postMessage", m, transfer)
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				post(map[string]any{"done": true, "ok": false, "error": fmt.Sprint("export "+format+": internal error: ", r)})
			}
		}()
		data, name, mime, err := exportRun([]byte(scenario), format, func(frac float64) {
			post(map[string]any{"progress": frac})
		}, stop)
		if errors.Is(err, errCancelled) {
			post(map[string]any{"done": true, "ok": false, "cancelled": true, "error": "export " + format + ": cancelled"})
			return
		}
		if err != nil {
			post(map[string]any{"done": true, "ok": false, "error": "export " + format + ": " + err.Error()})
			return
		}
		arr := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(arr, data)
		post(map[string]any{"done": true, "ok": true, "error": "", "name": name, "type": mime, "data": arr}, arr.Get("buffer"))
	}()
}

// newPromise runs work on a goroutine and resolves a JS Promise with its
// result (a JS exception or Go panic becomes {ok: false}).
func newPromise(work func() any) js.Value {
	var handler js.Func
	handler = js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve := args[0]
		go func() {
			defer handler.Release()
			defer func() {
				if r := recover(); r != nil {
					resolve.Invoke(map[string]any{"ok": false, "error": fmt.Sprint("internal error: ", r)})
				}
			}()
			resolve.Invoke(work())
		}()
		return nil
	})
	return js.Global().Get("Promise").New(handler)
}

// Imports run in the simulator's worker too: importText posts the text
// (an ArrayBuffer is transferred, not copied) with the scenario being
// played; the worker recognises and decodes it (pagemodel.Import, or
// interop.ImportFtraceWith for a sched trace) and answers with the
// scenario's canonical JSON, which the page applies (front.Replace) or,
// on error, only reports: nothing is replaced then.

// importProgressEvery is how often (wall time) a running import reports
// its progress and lets the worker tick the session that plays.
const importProgressEvery = 40 * time.Millisecond

// runImport is importjob.Run as importText's result: {ok, error,
// problems, kind, notes} plus, on success, s: the scenario's canonical
// JSON.
func runImport(data []byte, name, kind string, cur []byte, progress func(frac float64)) map[string]any {
	im := importjob.Run(data, name, kind, cur, progress)
	r := result(im.Err).(map[string]any)
	r["kind"] = im.Kind
	ns := []any{}
	for _, n := range im.Notes {
		ns = append(ns, n)
	}
	r["notes"] = ns
	if im.Err == nil {
		r["s"] = string(im.Scenario)
		r["model"] = string(im.Model)
	}
	return r
}

// workerImport runs an import in the worker on a goroutine, posting
// {import: id, progress} on the way and {import: id, done: true, ...} at
// the end (runImport's result). A cancelled import stops at its next
// progress report (a trace) or has its result dropped by the page.
func (w *simWorker) workerImport(op js.Value) {
	id := op.Get("id").Float()
	name, kind, cur := op.Get("name").String(), op.Get("kind").String(), op.Get("cur").String()
	var data []byte
	switch d := op.Get("data"); {
	case d.Type() == js.TypeString:
		data = []byte(d.String())
	case d.InstanceOf(js.Global().Get("ArrayBuffer")):
		u := js.Global().Get("Uint8Array").New(d)
		data = make([]byte, u.Length())
		js.CopyBytesToGo(data, u)
	case d.InstanceOf(js.Global().Get("Uint8Array")):
		data = make([]byte, d.Length())
		js.CopyBytesToGo(data, d)
	}
	post := func(m map[string]any) {
		m["import"] = id
		js.Global().Call("postMessage", m)
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				if r == errCancelled {
					post(map[string]any{"done": true, "ok": false, "cancelled": true, "error": "import cancelled", "kind": kind, "notes": []any{}})
					return
				}
				post(map[string]any{"done": true, "ok": false, "error": fmt.Sprint("import: internal error: ", r), "kind": kind, "notes": []any{}})
			}
		}()
		post(map[string]any{"progress": -1, "bytes": float64(len(data))})
		last := time.Now()
		r := runImport(data, name, kind, []byte(cur), func(frac float64) {
			if time.Since(last) < importProgressEvery {
				return
			}
			post(map[string]any{"progress": frac, "bytes": float64(len(data))})
			time.Sleep(time.Millisecond) // let the worker tick and take calls
			last = time.Now()
			if w.cancelled(id) {
				panic(errCancelled)
			}
		})
		r["done"] = true
		post(r)
	}()
}

var errCancelled = errors.New("cancelled")

// cancelled reports (and forgets) whether the page cancelled job id.
func (w *simWorker) cancelled(id float64) bool {
	w.cancelMu.Lock()
	defer w.cancelMu.Unlock()
	if w.cancels[id] {
		delete(w.cancels, id)
		return true
	}
	return false
}

func (w *simWorker) cancel(id float64) {
	w.cancelMu.Lock()
	if w.cancels == nil {
		w.cancels = map[float64]bool{}
	}
	w.cancels[id] = true
	w.cancelMu.Unlock()
}

// importPromise is schedplay.importText(data, name, kind, progress): a
// Promise of {ok, error, problems, kind, notes}. data is a string, an
// ArrayBuffer (transferred to the worker: the caller's copy is emptied) or
// a Uint8Array (its buffer is transferred); progress({phase, frac,
// bytes}) is called on the way (frac in [0, 1], or -1 when the importer
// cannot tell).
func importPromise(sess *front, pg *page, data js.Value, name, kind string, progress js.Value) js.Value {
	var h js.Func
	h = js.FuncOf(func(this js.Value, args []js.Value) any {
		h.Release()
		resolve := args[0]
		finish := func(res js.Value) {
			if res.Get("problems").IsUndefined() {
				res.Set("problems", []any{})
			}
			resolve.Invoke(res)
		}
		apply := func(r js.Value) {
			res := js.Global().Get("Object").New()
			for _, k := range []string{"ok", "error", "problems", "kind", "notes", "cancelled"} {
				if v := r.Get(k); !v.IsUndefined() {
					res.Set(k, v)
				}
			}
			if !r.Get("ok").Truthy() {
				if !r.Get("cancelled").Truthy() {
					msg := r.Get("error").String()
					sess.SetError(msg)
					pg.attribute(msg)
				}
				finish(res)
				return
			}
			// The page's copy of the session takes the decoded scenario,
			// and the worker's the same. Decoding and replacing a
			// 64-group import take about a millisecond each natively and
			// 3-11 and 4-7 ms on this thread in Chromium, more under
			// load: run inside the worker's message, with the rest of
			// it, they made one task of 45-67 ms in some runs
			// (TestMainThreadFree). So each is a task of the event loop
			// of its own: Go runs a goroutine started here before it
			// gives the thread back, and only a sleep ends the task.
			canonical := []byte(r.Get("s").String())
			model := r.Get("model")
			go func() {
				time.Sleep(time.Millisecond) // back to the JS event loop
				sc, err := scenarios.Decode(canonical)
				time.Sleep(time.Millisecond)
				if err == nil {
					err = sess.Replace(sc)
				}
				if err == nil && model.Type() == js.TypeString && bytes.Equal(sess.Scenario(), canonical) {
					described.put(canonical, model, true)
				}
				if err != nil {
					pg.attribute(err.Error())
					for k, v := range result(err).(map[string]any) {
						res.Set(k, v)
					}
				}
				// The caller's continuation (the editor's refresh) runs
				// as a microtask of the task that resolves: not this
				// one, which replaced the scenario.
				time.Sleep(time.Millisecond)
				finish(res)
			}()
		}
		sess.startImport(data, name, kind, apply, progress)
		return nil
	})
	return js.Global().Get("Promise").New(h)
}
