//go:build !js

// Package e2e drives the page in headless Chromium (chromedp): it serves
// web/ in-process, waits for window.schedplay.ready, and checks what a user
// sees and what the page API promises. `make test-e2e` builds the wasm first;
// without web/main.wasm the tests skip.
//
// Environment:
//
//	SCHEDPLAY_CHROMIUM    browser binary (default /usr/bin/chromium)
//	SCHEDPLAY_SCREENSHOT  if set, TestPage writes the page screenshot there
//	                      (make screenshot: docs/screenshot.png)
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"schedplay/internal/headless"
	"schedplay/render"
	"schedplay/scenarios"
	"schedplay/sim"
	"schedplay/web"
)

const (
	viewportW, viewportH = 1600, 1000
	readyTimeout         = 90 * time.Second
)

var (
	setupOnce  sync.Once
	setupErr   error
	skipReason string
	serverURL  string
	browserCtx context.Context
	stopAll    func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if stopAll != nil {
		stopAll()
	}
	os.Exit(code)
}

// setup serves ../web (or $SCHEDPLAY_WEB) and starts one browser for all tests (each test gets
// its own tab, or its own browser context where it needs a fresh one).
func setup(t *testing.T) {
	t.Helper()
	setupOnce.Do(func() {
		// SCHEDPLAY_WEB serves another build of the page (a checkout of
		// an older commit's web/ after its make wasm): how a test is seen
		// to fail on the page before the fix it checks.
		webDir := os.Getenv("SCHEDPLAY_WEB")
		if webDir == "" {
			webDir = filepath.Join("..", "web")
		}
		dir, err := filepath.Abs(webDir)
		if err != nil {
			setupErr = err
			return
		}
		for _, f := range []string{"main.wasm", "wasm_exec.js"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				skipReason = "web/" + f + " is not built: run `make test-e2e` (it builds the wasm first) or `make wasm`"
				return
			}
		}
		if skipReason = headless.Missing(); skipReason != "" {
			return
		}
		chromium := headless.Path()
		srv := httptest.NewServer(web.Handler(dir))
		serverURL = srv.URL + "/"
		profile, err := os.MkdirTemp("", "schedplay-chromium-")
		if err != nil {
			setupErr = err
			return
		}
		// The flags of the toolchain notes (internal/headless), and:
		opts := append(headless.Options(),
			// plainHost names the test server too: an origin that is not
			// localhost, so not a secure context, where Chromium asks for
			// gzip and not br, as from any server over plain HTTP.
			chromedp.Flag("host-resolver-rules", "MAP "+plainHost+" 127.0.0.1"),
			chromedp.UserDataDir(profile),
		)
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelBrowser := chromedp.NewContext(allocCtx)
		// Start the browser (an empty Run) before anyone listens to it.
		if err := chromedp.Do(ctx); err != nil {
			setupErr = fmt.Errorf("starting %s: %w", chromium, err)
		}
		browserCtx = ctx
		stopAll = func() {
			cancelBrowser()
			cancelAlloc()
			srv.Close()
			os.RemoveAll(profile)
		}
	})
	if skipReason != "" {
		t.Skip(skipReason)
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
}

// tab is one page under test, with its console forwarded to the test log.
type tab struct {
	t        *testing.T
	ctx      context.Context
	mu       sync.Mutex
	seen     []string // every console message
	problems []string // uncaught exceptions and Go panics seen on the console
}

// sawConsole waits until a console message containing s arrived.
func (tb *tab) sawConsole(s string, timeout time.Duration) bool {
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		tb.mu.Lock()
		for _, m := range tb.seen {
			if strings.Contains(m, s) {
				tb.mu.Unlock()
				return true
			}
		}
		tb.mu.Unlock()
	}
	return false
}

// newTab opens a tab; fresh puts it in a new browser context (no shared
// storage or history with the other tabs).
func newTab(t *testing.T, fresh bool) *tab {
	t.Helper()
	setup(t)
	var copts []chromedp.ContextOption
	if fresh {
		copts = append(copts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(browserCtx, copts...)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(viewportW, viewportH)); err != nil {
		cancel()
		t.Fatal(err)
	}
	tb := &tab{t: t, ctx: ctx}
	msgs := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			t.Logf("console %s", m)
			tb.mu.Lock()
			tb.seen = append(tb.seen, m.String())
			tb.mu.Unlock()
			if m.IsException() || strings.Contains(m.Text, "panic:") || strings.Contains(m.Text, "fatal error:") {
				tb.mu.Lock()
				tb.problems = append(tb.problems, m.String())
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, p := range tb.problems {
			t.Errorf("page problem: %s", p)
		}
	})
	return tb
}

// send sends one CDP command to the tab's page, such as a script for every
// new document or an emulation, before the test navigates.
func send[P, R any](tb *tab, cmd cdp.Command[P, R], params P) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, cmd, params)
		return chromedp.Void{}, err
	}); err != nil {
		tb.t.Fatal(err)
	}
}

// eval evaluates a JS expression and decodes its value into T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// open navigates to url and waits until the page API says ready.
func (tb *tab) open(url string) time.Duration {
	tb.t.Helper()
	start := time.Now()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(url)); err != nil {
		tb.t.Fatalf("navigate %s: %v", url, err)
	}
	tb.waitReady()
	return time.Since(start)
}

func (tb *tab) waitReady() {
	tb.t.Helper()
	tb.poll(`window.schedplay && window.schedplay.ready === true`, readyTimeout)
}

// poll waits until expr is truthy.
func (tb *tab) poll(expr string, timeout time.Duration) {
	tb.t.Helper()
	if err := tb.tryPoll(expr, timeout); err != nil {
		errText, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`String(window.schedplay && window.schedplay.error && window.schedplay.error())`))
		tb.t.Fatalf("waiting for %s: %v (page error: %q)", expr, err, errText)
	}
}

// tryPoll is poll that returns the timeout instead of failing the test,
// for a test that says what it found instead.
func (tb *tab) tryPoll(expr string, timeout time.Duration) error {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout+5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(100*time.Millisecond)))
	return err
}

type metrics struct {
	Title           string  `json:"title"`
	SimMS           float64 `json:"sim_ms"`
	Ops             int64   `json:"ops"`
	OpsPerS         float64 `json:"ops_per_s"`
	BusyPct         float64 `json:"busy_pct"`
	WakeupLatencyUS struct {
		P50, P99 float64
	} `json:"wakeup_latency_us"`
	Migrations  map[string]int64 `json:"migrations"`
	CtxSwitches int64            `json:"ctx_switches"`
	TraceHash   string           `json:"trace_hash"`
}

// settle waits until the simulator's worker applied every page API call
// made so far (schedplay.settled()): values that come from the simulator
// (metrics(), state().now_ms, log()) reflect the calls from then on.
func (tb *tab) settle() {
	tb.t.Helper()
	tb.settleWithin(60 * time.Second)
}

func (tb *tab) settleWithin(timeout time.Duration) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.schedplay.settled()`, chromedp.EvalAwaitPromise)); err != nil {
		tb.t.Fatalf("settled(): %v", err)
	}
}

func (tb *tab) metrics() metrics {
	tb.t.Helper()
	tb.settle()
	raw := eval[[]byte](tb, `window.schedplay.metrics()`)
	var m metrics
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.t.Fatalf("metrics(): %v in %s", err, raw)
	}
	return m
}

// opsGrow waits until metrics().ops exceeds what it is now.
func (tb *tab) opsGrow(timeout time.Duration) (before, after int64) {
	tb.t.Helper()
	before = tb.metrics().Ops
	tb.poll(fmt.Sprintf(`window.schedplay.metrics().ops > %d`, before), timeout)
	return before, tb.metrics().Ops
}

type apiResult struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Problems []struct {
		Path    string `json:"path"`
		Problem string `json:"problem"`
	} `json:"problems"`
}

// click clicks the element sel (a CSS selector) with the mouse.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		tb.t.Fatalf("click %s: %v", sel, err)
	}
}

// typeInto replaces the text of the input sel by typing text on the
// keyboard, then presses Tab (which commits it: the change event).
func (tb *tab) typeInto(sel, text string) {
	tb.t.Helper()
	eval[chromedp.Void](tb, `(() => { const e = document.querySelector(`+jsString(sel)+`); e.focus(); e.select(); })()`)
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	keys := text + kb.Tab
	if text == "" {
		keys = kb.Delete + kb.Tab // delete the selected text
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(sel), keys)); err != nil {
		tb.t.Fatalf("type into %s: %v", sel, err)
	}
}

// choose picks value in the menu sel, as a user's choice does: the menu
// is reached for (focus: a long menu fills its options then), the value
// changes, then the change event fires.
func (tb *tab) choose(sel, value string) {
	tb.t.Helper()
	if err := eval[string](tb, `(() => {
		const e = document.querySelector(`+jsString(sel)+`);
		if (!e) return "no element";
		e.focus({ preventScroll: true });
		e.value = `+jsString(value)+`;
		if (e.value !== `+jsString(value)+`) return "no such option";
		e.dispatchEvent(new Event("change", {bubbles: true}));
		return "";
	})()`); err != "" {
		tb.t.Fatalf("choose %s in %s: %s", value, sel, err)
	}
}

// fill puts text into the text area sel, as a paste does.
func (tb *tab) fill(sel, text string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(sel), text)); err != nil {
		tb.t.Fatalf("fill %s: %v", sel, err)
	}
}

// path is the CSS selector of the editor control for a scenario path.
func path(p string) string { return `#editor [data-path="` + p + `"]` }

// fieldError is the error text shown in the field of the control sel, ""
// when none is shown.
func (tb *tab) fieldError(sel string) string {
	tb.t.Helper()
	return eval[string](tb, `(() => {
		const f = document.querySelector(`+jsString(sel)+`).closest(".field, .errbox");
		const e = f && f.querySelector(":scope > .field-error");
		return e && !e.hidden ? e.textContent : "";
	})()`)
}

// scenario is the scenario the page plays, decoded.
func (tb *tab) scenario() *scenarios.Scenario {
	tb.t.Helper()
	sc, err := scenarios.Decode([]byte(eval[string](tb, `window.schedplay.scenario()`)))
	if err != nil {
		tb.t.Fatalf("scenario(): %v", err)
	}
	return sc
}

// runFromStart pauses, restarts the scenario with the page's Restart
// button and steps ms of simulated time: the metrics of a run from t = 0.
func (tb *tab) runFromStart(ms float64) metrics {
	tb.t.Helper()
	tb.click("#pause")
	tb.click("#restart")
	if got := eval[float64](tb, fmt.Sprintf(`window.schedplay.step(%g)`, ms)); got < ms-0.001 || got > ms+0.001 {
		tb.t.Fatalf("step(%g) from a restart reached %v ms", ms, got)
	}
	return tb.metrics()
}

// nativeHash runs sc natively to ms of simulated time and returns the
// trace hash: the page must agree with it exactly.
func nativeHash(t *testing.T, sc *scenarios.Scenario, ms float64) string {
	t.Helper()
	cfg, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sm.RunUntil(int64(ms * 1e6))
	return sm.Metrics().TraceHash
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func defaultScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Preset(scenarios.DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestPage(t *testing.T) {
	tb := newTab(t, false)
	load := tb.open(serverURL)
	t.Logf("page ready %.1f s after navigation", load.Seconds())
	eval[chromedp.Void](tb, `console.log("e2e: console forwarding works")`)
	if !tb.sawConsole("e2e: console forwarding works", 5*time.Second) {
		t.Errorf("the page console does not reach the test log")
	}

	if got, want := eval[string](tb, `window.schedplay.scenario()`), string(defaultScenario(t).Canonical()); got != want {
		t.Errorf("without a link the page plays %s, want the default preset %s", got, want)
	}
	if e := eval[string](tb, `window.schedplay.error()`); e != "" {
		t.Errorf("error() = %q on a clean start", e)
	}
	title := defaultScenario(t).Title
	tb.poll(`document.getElementById("title").textContent === `+jsString(title), 10*time.Second)

	// The simulation runs at the default speed: ops grow by themselves.
	before, after := tb.opsGrow(20 * time.Second)
	t.Logf("ops %d -> %d", before, after)
	m := tb.metrics()
	for _, k := range []string{"total", "wakeup", "balance", "newidle", "nohz", "active", "fork", "smt", "llc", "numa"} {
		if _, ok := m.Migrations[k]; !ok {
			t.Errorf("metrics().migrations has no %q: %v", k, m.Migrations)
		}
	}
	if m.TraceHash == "" || m.Title != title {
		t.Errorf("metrics() title %q trace_hash %q", m.Title, m.TraceHash)
	}
	tb.poll(`document.getElementById("m-ops").textContent !== "–"`, 10*time.Second)

	// Let it run, then measure.
	time.Sleep(3 * time.Second)
	var st struct {
		FPS     float64 `json:"fps"`
		FrameMS float64 `json:"frame_ms"`
		SimRTF  float64 `json:"sim_rtf"`
		First   float64 `json:"first_frame_ms"`
	}
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.stats()`), &st); err != nil {
		t.Fatal(err)
	}
	t.Logf("headless Chromium (SwiftShader): %.1f fps, %.2f ms of work per frame, sim %.4gx real time", st.FPS, st.FrameMS, st.SimRTF)
	// A figure to report (docs/performance.md), not a timed test: the target is 3 s.
	t.Logf("first frame %.0f ms after navigation start", st.First)
	if st.FPS <= 0 {
		t.Errorf("stats().fps = %v", st.FPS)
	}
	if st.First <= 0 {
		t.Errorf("stats().first_frame_ms = %v: the first frame was not recorded", st.First)
	}
	// The canvas Ebiten draws on is the single-sampled context the page
	// made for it (cmd/wasm singleSampledCanvas): an Ebiten that made its
	// own would draw nothing or bring the 4x multisampled buffer back.
	if a := eval[string](tb, `(() => { const c = document.querySelector("body > canvas"); const gl = c && c.getContext("webgl2"); const a = gl && gl.getContextAttributes(); return a ? "antialias " + a.antialias + ", depth " + a.depth + ", stencil " + a.stencil : "no WebGL 2 context"; })()`); a != "antialias false, depth false, stencil true" {
		t.Errorf("the canvas' WebGL context: %s; want antialias false, depth false, stencil true", a)
	}
	// main.wasm travels compressed (the server's .br or .gz).
	var wasmRes struct {
		Encoded float64 `json:"encodedBodySize"`
		Decoded float64 `json:"decodedBodySize"`
	}
	// (Chromium asks for br only over HTTPS: here it gets the .gz.)
	res := eval[[]byte](tb, `(() => { const e = performance.getEntriesByType("resource").find(e => e.name.endsWith("/main.wasm")); return e ? {encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize} : {}; })()`)
	if err := json.Unmarshal(res, &wasmRes); err != nil {
		t.Fatal(err)
	}
	t.Logf("main.wasm: %.2f MB over the wire, %.2f MB decoded", wasmRes.Encoded/1e6, wasmRes.Decoded/1e6)
	if wasmRes.Decoded == 0 || wasmRes.Encoded >= wasmRes.Decoded {
		t.Errorf("main.wasm was not served compressed: %+v", wasmRes)
	}

	// What the user sees: the stage is covered with boxes, cells and tasks.
	frac, colours, stage, _ := tb.stageCoverage()
	t.Logf("stage %dx%d: %.0f%% of pixels are not background, %d distinct colours", stage.Dx(), stage.Dy(), frac*100, colours)
	if frac < 0.3 {
		t.Errorf("only %.0f%% of the stage is drawn (want at least 30%%): blank or broken canvas", frac*100)
	}
	if colours < 12 {
		t.Errorf("only %d distinct colours on the stage: boxes, cells and tasks should differ", colours)
	}

	// pause stops the clock, step advances it by simulated milliseconds.
	eval[chromedp.Void](tb, `window.schedplay.pause()`)
	tb.settle()
	t0 := eval[float64](tb, `window.schedplay.metrics().sim_ms`)
	time.Sleep(500 * time.Millisecond)
	if t1 := eval[float64](tb, `window.schedplay.metrics().sim_ms`); t1 != t0 {
		t.Errorf("paused, yet sim_ms moved %v -> %v", t0, t1)
	}
	now := eval[float64](tb, `window.schedplay.step(0.5)`)
	if now < t0+0.5-0.002 { // sim_ms is rounded to microseconds
		t.Errorf("step(0.5) from %v ms returned %v ms", t0, now)
	}
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.01)`); !r.OK {
		t.Errorf("setSpeed(0.01): %s", r.Error)
	}
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(-1)`); r.OK || r.Error == "" {
		t.Errorf("setSpeed(-1) accepted")
	}
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	tb.opsGrow(20 * time.Second)

	if path := os.Getenv("SCHEDPLAY_SCREENSHOT"); path != "" {
		// For the README: the same machine with eight pairs, so that more
		// tasks are on screen at once.
		if r := eval[apiResult](tb, `window.schedplay.set("tasks.client.count", "8")`); !r.OK {
			t.Fatalf("set tasks.client.count: %s", r.Error)
		}
		// The server group may follow the client's count by itself (count_of).
		if !strings.Contains(eval[string](tb, `window.schedplay.scenario()`), `"count_of"`) {
			if r := eval[apiResult](tb, `window.schedplay.set("tasks.server.count", "8")`); !r.OK {
				t.Fatalf("set tasks.server.count: %s", r.Error)
			}
		}
		eval[apiResult](tb, `window.schedplay.setSpeed(0.001)`)
		time.Sleep(3 * time.Second)
		shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join("..", path) // relative to the repository, not e2e/
		}
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
}

// stageCoverage takes a screenshot and measures the stage in it (where the
// page lets the canvas show; the whole window without one): the fraction
// of pixels that are not background and the colours among them, with the
// stage's rectangle and the screenshot.
func (tb *tab) stageCoverage() (frac float64, colours int, stage image.Rectangle, shot []byte) {
	tb.t.Helper()
	shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		tb.t.Fatal(err)
	}
	var r struct{ X, Y, W, H float64 }
	if err := json.Unmarshal(eval[[]byte](tb, `(() => { const e = document.getElementById("stage"); const r = e ? e.getBoundingClientRect() : {left: 0, top: 0, width: innerWidth, height: innerHeight}; return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`), &r); err != nil {
		tb.t.Fatal(err)
	}
	stage = image.Rect(int(r.X), int(r.Y), int(r.X+r.W), int(r.Y+r.H))
	frac, colours = coverage(img, stage)
	return frac, colours, stage, shot
}

// coverage is the fraction of pixels of r that differ from the background,
// and the number of distinct colours (quantised) among them.
func coverage(img image.Image, r image.Rectangle) (float64, int) {
	return coverageOn(img, r, render.Background)
}

// coverageOn is coverage on a background of colour bg.
func coverageOn(img image.Image, r image.Rectangle, bg color.RGBA) (float64, int) {
	r = r.Intersect(img.Bounds())
	near := func(a uint32, b uint8) bool {
		d := int(a>>8) - int(b)
		return d >= -3 && d <= 3
	}
	total, drawn := 0, 0
	colours := map[uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			total++
			if near(cr, bg.R) && near(cg, bg.G) && near(cb, bg.B) {
				continue
			}
			drawn++
			colours[(cr>>12)<<8|(cg>>12)<<4|cb>>12] = true
		}
	}
	if total == 0 {
		return 0, 0
	}
	return float64(drawn) / float64(total), len(colours)
}

// TestShareLinkRoundTrip changes the scenario with the page's own controls,
// then opens the share link in a fresh browser context: the same scenario,
// and the same run (trace hash) at the same simulated time, also natively.
func TestShareLinkRoundTrip(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	tb.click("#tab-policy")
	tb.choose(path("policy.select_idle_sibling"), "cpu_buddies")
	tb.typeInto("#seed", "7")
	sc := tb.scenario()
	if sc.Seed != 7 || sc.Policy.SelectIdleSibling != "cpu_buddies" {
		t.Fatalf("the controls did not change the scenario: seed %d, select_idle_sibling %q", sc.Seed, sc.Policy.SelectIdleSibling)
	}
	want := eval[string](tb, `window.schedplay.scenario()`)
	link := eval[string](tb, `window.schedplay.shareLink()`)
	if !strings.HasPrefix(link, serverURL+"#s=") {
		t.Fatalf("shareLink() = %q, want %s#s=...", link, serverURL)
	}
	// The address bar follows the user's change.
	tb.poll(`location.href === `+jsString(link), 10*time.Second)
	// The Copy link button copies it (or, without clipboard access, says
	// it is in the address bar).
	tb.click("#share")
	tb.poll(`document.getElementById("share-status").textContent !== ""`, 5*time.Second)
	const ms = 40
	ma := tb.runFromStart(ms)

	fresh := newTab(t, true)
	fresh.open(link)
	if got := eval[string](fresh, `window.schedplay.scenario()`); got != want {
		t.Errorf("the link opened another scenario:\n got %s\nwant %s", got, want)
	}
	if e := eval[string](fresh, `window.schedplay.error()`); e != "" {
		t.Errorf("error() = %q after opening a good link", e)
	}
	// The editor shows what the link carries.
	if v := eval[string](fresh, `document.getElementById("seed").value`); v != "7" {
		t.Errorf("the seed field shows %q, want 7", v)
	}
	fresh.click("#tab-policy")
	if v := eval[string](fresh, `document.querySelector(`+jsString(path("policy.select_idle_sibling"))+`).value`); v != "cpu_buddies" {
		t.Errorf("the select_idle_sibling menu shows %q, want cpu_buddies", v)
	}
	mb := fresh.runFromStart(ms)
	if ma.TraceHash != mb.TraceHash || ma.Ops != mb.Ops || ma.SimMS != ms {
		t.Errorf("the same link ran differently: %v ms %s (%d ops) vs %v ms %s (%d ops)", ma.SimMS, ma.TraceHash, ma.Ops, mb.SimMS, mb.TraceHash, mb.Ops)
	}
	// The link decodes natively to the same scenario, and the native
	// simulator runs it to the same trace.
	nsc, err := scenarios.DecodeLink(link)
	if err != nil || string(nsc.Canonical()) != want {
		t.Fatalf("DecodeLink(shareLink()) = %v, %v", nsc, err)
	}
	if h := nativeHash(t, nsc, ms); h != ma.TraceHash {
		t.Errorf("native run of the link: trace %s, the page's %s", h, ma.TraceHash)
	}
	t.Logf("link of %d bytes; at %d ms: %d ops, trace %s in both contexts and natively", len(link), ms, ma.Ops, ma.TraceHash)
}

func TestBadLinks(t *testing.T) {
	tb := newTab(t, false)
	def := string(defaultScenario(t).Canonical())

	// A corrupted link: readable error, default scenario, page keeps working.
	tb.open(serverURL + "#s=AAAA!!!corrupted~~~")
	errText := eval[string](tb, `window.schedplay.error()`)
	if !strings.Contains(errText, "link") {
		t.Errorf("error() = %q, want a message about the link", errText)
	}
	shown := eval[string](tb, `(() => { const e = document.getElementById("error"); return e.hidden ? "" : e.textContent; })()`)
	if shown != errText {
		t.Errorf("error area shows %q, want %q", shown, errText)
	}
	if got := eval[string](tb, `window.schedplay.scenario()`); got != def {
		t.Errorf("after a bad link the page plays %s, want the default", got)
	}
	tb.opsGrow(20 * time.Second)
	// The page works: the editor shows the default scenario and takes a change.
	if v := eval[string](tb, `document.querySelector(`+jsString(path("title"))+`).value`); v != defaultScenario(t).Title {
		t.Errorf("after a bad link the editor's title is %q", v)
	}
	tb.click("#tab-machine")
	tb.choose(path("machine.hz"), "250")
	if hz := tb.scenario().Machine.HZ; hz != 250 {
		t.Errorf("after a bad link the HZ menu did not apply: hz %d", hz)
	}

	// An oversized link, arriving by hashchange.
	eval[chromedp.Void](tb, `location.hash = "s=" + "A".repeat(70000)`)
	tb.poll(`window.schedplay.error().includes("limit")`, 10*time.Second)
	tb.poll(`document.getElementById("error").textContent.includes("limit")`, 10*time.Second)

	// The top line says it in words, and the default plays on.
	if text := eval[string](tb, `document.getElementById("error").textContent`); !strings.Contains(text, "Showing the default scenario instead") {
		t.Errorf("the error line for an oversized link says %q", text)
	}
	tb.opsGrow(20 * time.Second)

	// A good link by hashchange clears the error.
	good := scenarios.EncodeLink(defaultScenario(t))
	eval[chromedp.Void](tb, `location.hash = `+jsString(good))
	tb.poll(`window.schedplay.error() === ""`, 10*time.Second)
	tb.poll(`document.getElementById("error").hidden === true`, 10*time.Second)

	// A scenario with a mistake: {ok:false, error:"path: problem"}, old one keeps playing.
	r := eval[apiResult](tb, `window.schedplay.loadScenario('{"version":1,"title":"x","tasks":[{"name":"a","program":[{"run":"8 ms"}]}]}')`)
	if r.OK || !strings.Contains(r.Error, "tasks[0].program[0].run") {
		t.Errorf("bad scenario: %+v, want an error naming tasks[0].program[0].run", r)
	}
	if got := eval[string](tb, `window.schedplay.scenario()`); got != def {
		t.Errorf("a rejected scenario replaced the running one")
	}
	if len(r.Problems) == 0 || r.Problems[len(r.Problems)-1].Path != "tasks[0].program[0].run" {
		t.Errorf("problems %+v, want one at tasks[0].program[0].run", r.Problems)
	}
	tb.opsGrow(20 * time.Second)
}

func TestTitleIsText(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	sc := defaultScenario(t)
	sc.Title = `<img src=x onerror="window.__pwned=1">Ping & pong`
	sc.Description = `<script>window.__pwned=2</script><b>bold?</b>`
	r := eval[apiResult](tb, `window.schedplay.loadScenario(`+jsString(string(sc.Canonical()))+`)`)
	if !r.OK {
		t.Fatalf("loadScenario: %s", r.Error)
	}
	tb.poll(`document.getElementById("title").textContent === `+jsString(sc.Title), 10*time.Second)
	tb.poll(`document.getElementById("description").textContent === `+jsString(sc.Description), 10*time.Second)
	// The page has no images and two scripts of its own; the texts have no child elements.
	if n := eval[int](tb, `document.getElementById("title").children.length + document.getElementById("description").children.length + document.images.length`); n != 0 {
		t.Errorf("%d elements were created from the scenario's text", n)
	}
	if n := eval[int](tb, `document.scripts.length`); n != 2 {
		t.Errorf("%d scripts in the page, want 2 (wasm_exec.js, loader.js)", n)
	}
	time.Sleep(500 * time.Millisecond) // give a handler the chance to run
	if v := eval[string](tb, `String(window.__pwned)`); v != "undefined" {
		t.Errorf("a handler from the title ran: window.__pwned = %s", v)
	}
	// The address bar now carries the loaded scenario.
	tb.poll(`location.hash.startsWith("#s=")`, 10*time.Second)
	if v := eval[string](tb, `document.querySelector(`+jsString(path("title"))+`).value`); v != sc.Title {
		t.Errorf("the editor's title field shows %q, want %q", v, sc.Title)
	}

	// The same title arriving by a link, in a fresh context.
	fresh := newTab(t, true)
	fresh.open(serverURL + "#" + scenarios.EncodeLink(sc))
	fresh.poll(`document.getElementById("title").textContent === `+jsString(sc.Title), 10*time.Second)
	if v := eval[string](fresh, `document.querySelector(`+jsString(path("title"))+`).value + "|" + document.querySelector(`+jsString(path("description"))+`).value`); v != sc.Title+"|"+sc.Description {
		t.Errorf("the editor shows %q", v)
	}
	if n := eval[int](fresh, `document.images.length + document.querySelectorAll("#ui script, #ui img, #ui b").length`); n != 0 {
		t.Errorf("%d elements were created from a link's text", n)
	}
	time.Sleep(500 * time.Millisecond)
	if v := eval[string](fresh, `String(window.__pwned)`); v != "undefined" {
		t.Errorf("a handler from a link's title ran: window.__pwned = %s", v)
	}
}
