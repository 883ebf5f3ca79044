//go:build js

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"syscall/js"
	"time"

	"schedplay/app"
	"schedplay/interop"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Exports run the loaded scenario from t = 0 to its end in a simulator of
// their own (the one on screen plays on) and write it with package interop,
// as `schedsim export` does.
var exportFormats = map[string]struct{ ext, mime string }{
	"perfetto":  {".perfetto.json", "application/json"},
	"schedstat": {".schedstat.txt", "text/plain"},
	"csv":       {".csv", "text/csv"},
	// A binary Perfetto trace (ui.perfetto.dev opens .perfetto-trace).
	interop.FormatPerfettoProto: {".perfetto-trace", "application/octet-stream"},
}

// maxExportBytes bounds an export kept in the tab's memory; a longer run
// needs the CLI (schedsim export streams to a file).
const maxExportBytes = 64 << 20

// exportYield is how long an export may run before it lets the browser
// draw a frame: the simulator runs on the page's only thread.
const exportYield = 40 * time.Millisecond

var errExportTooLarge = errors.New("too large")

// yieldingWriter collects the export, and every exportYield of wall time
// sleeps a moment so that the page keeps drawing and stays responsive; it
// also reports progress (simulated time) through progress.
type yieldingWriter struct {
	buf      bytes.Buffer
	last     time.Time
	sm       *sim.Sim
	dur      int64
	progress func(frac float64)
}

func (w *yieldingWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > maxExportBytes {
		return 0, errExportTooLarge
	}
	w.buf.Write(p)
	if time.Since(w.last) >= exportYield {
		if w.progress != nil && w.dur > 0 {
			w.progress(float64(w.sm.Now()) / float64(w.dur))
		}
		time.Sleep(time.Millisecond) // back to the JS event loop
		w.last = time.Now()
	}
	return len(p), nil
}

// exportRun writes the scenario in format; name is the file name to offer.
func exportRun(scenario []byte, format string, progress func(float64)) (data []byte, name, mime string, err error) {
	ft, ok := exportFormats[format]
	if !ok {
		return nil, "", "", fmt.Errorf("export(%q): the formats are perfetto, schedstat, csv and %s", format, interop.FormatPerfettoProto)
	}
	sc, err := scenarios.Decode(scenario)
	if err != nil {
		return nil, "", "", err
	}
	cfg, err := sc.Config()
	if err != nil {
		return nil, "", "", err
	}
	sm, err := sim.New(cfg)
	if err != nil {
		return nil, "", "", err
	}
	w := &yieldingWriter{last: time.Now(), sm: sm, dur: cfg.Duration, progress: progress}
	opt := interop.Options{}
	switch format {
	case "perfetto":
		err = interop.WritePerfetto(w, sm, opt)
	case "csv":
		err = interop.WriteCSV(w, sm, opt)
	case interop.FormatPerfettoProto:
		err = interop.WritePerfettoProto(w, sm, opt)
	case "schedstat":
		// Snapshots every millisecond, as `schedsim export -interval 1ms`.
		err = interop.WriteSchedstatSeries(w, sm, opt)
	}
	if errors.Is(err, errExportTooLarge) {
		return nil, "", "", fmt.Errorf("the %s export of this run is larger than %d MiB; shorten the simulated time (duration) or use schedsim export", format, maxExportBytes>>20)
	}
	if err != nil {
		return nil, "", "", err
	}
	if err := sm.Err(); err != nil {
		return nil, "", "", err
	}
	return w.buf.Bytes(), fileSlug(sc.Title) + ft.ext, ft.mime, nil
}

// exportPromise is schedplay.export(format): a Promise of {ok, error, name,
// type, data (a Uint8Array)}.
func exportPromise(sess *app.Session, format string, progress js.Value) js.Value {
	scenario := sess.Scenario()
	return newPromise(func() any {
		report := func(frac float64) {
			if progress.Type() == js.TypeFunction {
				progress.Invoke(frac)
			}
		}
		data, name, mime, err := exportRun(scenario, format, report)
		if err != nil {
			return map[string]any{"ok": false, "error": "export " + format + ": " + err.Error()}
		}
		arr := js.Global().Get("Uint8Array").New(len(data))
		js.CopyBytesToJS(arr, data)
		return map[string]any{"ok": true, "error": "", "name": name, "type": mime, "data": arr}
	})
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

// fileSlug makes a file name from a title: lower case words joined by
// dashes, at most about 40 characters, cut between words.
func fileSlug(title string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			w.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	s := ""
	for _, word := range words {
		if s != "" && len(s)+1+len(word) > 40 {
			break
		}
		if s != "" {
			s += "-"
		}
		s += word
	}
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		return "scenario"
	}
	return s
}

// Import kinds importText recognises.
const (
	kindScenario = "scenario"
	kindRTApp    = "rtapp"
	kindLscpu    = "lscpu"
)

// sniff says what text is: a scenario, an rt-app workload or lscpu -p
// output. JSON with "version" or a tasks array is a scenario; JSON (or
// rt-app's relaxed JSON, with comments) with "global" or a tasks object is
// rt-app; lines of comma-separated numbers under '#' comments are lscpu.
func sniff(text, name string) string {
	t := strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
	switch {
	case strings.HasPrefix(t, "{"), strings.HasPrefix(t, "/"):
		var top map[string]json.RawMessage
		if json.Unmarshal([]byte(t), &top) == nil {
			if _, ok := top["version"]; ok {
				return kindScenario
			}
			if _, ok := top["global"]; ok {
				return kindRTApp
			}
			if tasks := bytes.TrimSpace(top["tasks"]); len(tasks) > 0 && tasks[0] == '{' {
				return kindRTApp
			}
			return kindScenario
		}
		// Not strict JSON: rt-app's dialect has comments and trailing commas.
		if strings.Contains(t, `"tasks"`) && !strings.Contains(t, `"version"`) {
			return kindRTApp
		}
		return kindScenario
	case strings.HasPrefix(t, "#"), len(t) > 0 && t[0] >= '0' && t[0] <= '9':
		return kindLscpu
	}
	if strings.HasSuffix(strings.ToLower(name), ".json") {
		return kindScenario
	}
	return ""
}

// failed records err as the session's last error (error()) and returns it.
func failed(sess *app.Session, err error) error {
	sess.SetError(err.Error())
	return err
}

// importText is schedplay.importText(text, name, kind): load a scenario,
// or import an rt-app workload (onto the machine being played) or an
// lscpu -p topology (the machine of the scenario being played) into the
// editor. kind "" means: recognise it. The result is {ok, error, problems,
// kind, notes}: problems are errors by path, notes what the importer could
// not map as written ("path: what happened"; they do not stop an import).
func importText(sess *app.Session, text, name, kind string) map[string]any {
	res := func(err error, notes []interop.Problem) map[string]any {
		r := result(err).(map[string]any)
		r["kind"] = kind
		var ns []any
		for _, p := range notes {
			ns = append(ns, p.String())
		}
		r["notes"] = ns
		return r
	}
	if kind == "" {
		kind = sniff(text, name)
	}
	cur, err := scenarios.Decode(sess.Scenario())
	if err != nil {
		return res(err, nil)
	}
	switch kind {
	case kindScenario:
		return res(sess.LoadJSON([]byte(text)), nil)
	case kindRTApp:
		sc, notes, err := interop.ImportRTAppWith([]byte(text), interop.RTAppOptions{Machine: &cur.Machine})
		if err != nil {
			return res(failed(sess, fmt.Errorf("rt-app: %w", err)), notes)
		}
		if name != "" {
			title := sc.Title
			if sc.Set("title", "rt-app: "+path.Base(name)) != nil {
				sc.Title = title
			}
		}
		return res(sess.Load(sc, true), notes)
	case kindLscpu:
		m, notes, err := interop.ImportLscpu([]byte(text))
		if err != nil {
			return res(failed(sess, fmt.Errorf("lscpu: %w", err)), notes)
		}
		// The imported machine replaces the one being played; tasks and
		// policy stay (a task pinned to CPUs the new machine lacks is an
		// error by path, as any edit).
		c := cur.Clone()
		m.Costs = cur.Machine.Costs
		c.Machine = m
		if err := c.Validate(); err != nil {
			return res(failed(sess, err), notes)
		}
		return res(sess.Load(c, true), notes)
	}
	return res(failed(sess, errors.New("this is not a scenario JSON, an rt-app JSON or lscpu -p output")), nil)
}
