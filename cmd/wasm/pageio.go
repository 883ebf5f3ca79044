//go:build js

package main

import (
	"bytes"
	"errors"
	"fmt"
	"syscall/js"
	"time"

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
	}
	return len(p), nil
}

// exportRun writes the scenario in format; name is the file name to offer.
func exportRun(scenario []byte, format string, progress func(float64)) (data []byte, name, mime string, err error) {
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
	w := &yieldingWriter{last: time.Now(), dur: cfg.Duration, progress: progress}
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
	_, err = interop.Export(w, src, format, interop.Options{Interval: interop.DefaultInterval, Stop: func() bool { return w.full }})
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
func workerExport(id float64, scenario, format string) {
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
		})
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

// failed records err as the session's last error (error()) and returns it.
func failed(sess *front, err error) error {
	sess.SetError(err.Error())
	return err
}

// importText is schedplay.importText(text, name, kind): load a scenario,
// or import an rt-app workload (onto the machine being played) or an
// lscpu -p topology (the machine of the scenario being played) into the
// editor (pagemodel.Import decides). kind "" means: recognise it. The
// result is {ok, error, problems, kind, notes}: problems are errors by
// path, notes what the importer could not map as written ("path: what
// happened"; they do not stop an import).
func importText(sess *front, text, name, kind string) map[string]any {
	res := func(kind string, err error, notes []interop.Problem) map[string]any {
		r := result(err).(map[string]any)
		r["kind"] = kind
		var ns []any
		for _, p := range notes {
			ns = append(ns, p.String())
		}
		r["notes"] = ns
		return r
	}
	cur, err := scenarios.Decode(sess.Scenario())
	if err != nil {
		return res(kind, err, nil)
	}
	im, err := pagemodel.Import(cur, text, name, kind)
	if err != nil {
		return res(im.Kind, failed(sess, err), im.Notes)
	}
	return res(im.Kind, sess.Replace(im.Scenario), im.Notes)
}
