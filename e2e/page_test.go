//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"schedplay/scenarios"
)

// downloads makes the tab save downloads into a temporary directory and
// returns a function that clicks sel and returns the downloaded file.
func (tb *tab) downloads() func(sel string) (name string, data []byte) {
	tb.t.Helper()
	dir := tb.t.TempDir()
	err := chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		ev := true
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior:      browser.SetDownloadBehaviorBehaviorAllowAndName,
			DownloadPath:  dir,
			EventsEnabled: &ev,
		})
		return err
	}))
	if err != nil {
		tb.t.Fatalf("download behaviour: %v", err)
	}
	return func(sel string) (string, []byte) {
		tb.t.Helper()
		ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
		defer cancel()
		begin := chromedp.Events(ctx, browser.DownloadWillBegin)
		progress := chromedp.Events(ctx, browser.DownloadProgress)
		tb.click(sel)
		var name string
		for ev, err := range begin {
			if err != nil {
				tb.t.Fatalf("download of %s did not begin: %v", sel, err)
			}
			name = ev.SuggestedFilename
			break
		}
		for ev, err := range progress {
			if err != nil {
				tb.t.Fatalf("download of %s: %v", sel, err)
			}
			if ev.State == browser.DownloadProgressStateCompleted {
				data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
				if err != nil {
					tb.t.Fatal(err)
				}
				return name, data
			}
			if ev.State == browser.DownloadProgressStateCanceled {
				tb.t.Fatalf("download of %s was cancelled", sel)
			}
		}
		tb.t.Fatalf("download of %s did not finish", sel)
		return "", nil
	}
}

// drop drops a file on the page as a user dragging it from the desktop
// does (a drop event carrying the file).
func (tb *tab) drop(name, content string) {
	tb.t.Helper()
	eval[chromedp.Void](tb, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], %s, {type: "application/json"}));
		const t = document.getElementById("stage");
		for (const type of ["dragenter", "dragover", "drop"]) {
			t.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
		}
	})()`, jsString(content), jsString(name)))
}

const rtappSample = `{
	/* 25%: 5 ms every 20 ms under a mutex, and I/O the simulator does not model */
	"tasks" : {
		"thread0" : {
			"instance" : 2,
			"loop" : -1,
			"lock" : "mutex0",
			"run" :   5000,
			"unlock" : "mutex0",
			"iorun" : 100,
			"timer" : { "ref" : "unique", "period" : 20000 },
		}
	},
	"global" : { "duration" : 2, "default_policy" : "SCHED_OTHER" }
}`

// TestImportExport exports the scenario JSON with the button (a real
// download), imports by paste, by drop (an rt-app file) and lscpu output,
// shows import errors next to the import box, and exports a trace.
func TestImportExport(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	get := tb.downloads()

	name, data := get("#export-json")
	sc, err := scenarios.Decode(data)
	if err != nil {
		t.Fatalf("the exported %s does not decode: %v", name, err)
	}
	if got, want := string(sc.Canonical()), eval[string](tb, `window.schedplay.scenario()`); got != want {
		t.Errorf("exported %s is another scenario:\n got %s\nwant %s", name, got, want)
	}
	if !strings.HasSuffix(name, ".json") || !strings.Contains(name, "tbench") {
		t.Errorf("exported file name %q", name)
	}

	// Paste a scenario.
	p, _ := scenarios.Preset("pelt-pingpong")
	p.Title = "pasted: " + p.Title
	tb.fill("#import-text", string(p.Canonical()))
	tb.click("#import-load")
	// (The worker decodes imports: the result comes back asynchronously.)
	tb.poll(`document.getElementById("import-status").textContent.includes("scenario loaded")`, 5*time.Second)
	if got := eval[string](tb, `window.schedplay.scenario()`); got != string(p.Canonical()) {
		t.Errorf("the pasted scenario was not loaded: %s", got)
	}

	// A pasted scenario with a mistake: the error, by path, next to the box.
	good := eval[string](tb, `window.schedplay.scenario()`)
	tb.fill("#import-text", `{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"8 ms"}]}]}`)
	tb.click("#import-load")
	tb.poll(`!document.getElementById("import-error").hidden`, 10*time.Second)
	if e := tb.fieldError("#import-load"); !strings.Contains(e, `tasks[0].program[0].run: "8 ms" is not a duration`) {
		t.Errorf("next to the import box: %q", e)
	}
	if eval[bool](tb, `document.getElementById("error").hidden`) == false {
		t.Errorf("the import error is repeated at the top")
	}
	if got := eval[string](tb, `window.schedplay.scenario()`); got != good {
		t.Errorf("a bad import replaced the scenario")
	}
	tb.opsGrow(20 * time.Second)

	// Text that is nothing the page knows.
	tb.fill("#import-text", "hello, world")
	tb.click("#import-load")
	tb.poll(`document.getElementById("import-error").textContent.includes("hello") || document.getElementById("import-error").textContent.includes("not a scenario")`, 10*time.Second)
	if e := tb.fieldError("#import-load"); !strings.Contains(e, "not a scenario JSON, an rt-app JSON or lscpu -p output") {
		t.Errorf("garbage import: %q", e)
	}

	// An rt-app file dropped on the machine: imported onto this machine,
	// with what could not be mapped listed by path.
	tb.drop("periodic.json", rtappSample)
	tb.poll(`document.getElementById("import-status").textContent.includes("rt-app workload imported")`, 10*time.Second)
	if s := tb.scenario(); s.Title != "rt-app: periodic.json" || len(s.Tasks) != 1 || s.Tasks[0].Count != 2 || s.Machine.CoresPerCluster != p.Machine.CoresPerCluster {
		t.Errorf("the rt-app import gave %+v", s)
	}
	if st := eval[string](tb, `document.getElementById("import-status").textContent`); !strings.Contains(st, "tasks.thread0.iorun") {
		t.Errorf("the unmapped I/O is not reported by path: %q", st)
	}
	// The mutex is kept (issue 21): a lock and an unlock step around the run.
	locked := false
	for _, st := range tb.scenario().Tasks[0].Program {
		locked = locked || st.SyncStep != nil && st.SyncStep.Lock == "mutex0"
	}
	if !locked {
		t.Errorf("the rt-app mutex was not imported as a lock step: %+v", tb.scenario().Tasks[0].Program)
	}

	// lscpu -p output replaces the machine, keeps the tasks.
	tasks := tb.scenario().Tasks
	lscpu, err := os.ReadFile("../interop/testdata/lscpu-laptop.txt") // lscpu -p of a 4-core laptop with HT
	if err != nil {
		t.Fatal(err)
	}
	tb.fill("#import-text", string(lscpu))
	tb.click("#import-load")
	tb.poll(`document.getElementById("import-status").textContent.includes("machine imported from lscpu")`, 10*time.Second)
	s := tb.scenario()
	// The exact machine per CPU (issue 21): 8 CPUs, each with one SMT
	// sibling on the same core.
	cores := map[int]int{}
	for _, c := range s.Machine.CPUs {
		if c.Core != nil {
			cores[*c.Core]++
		}
	}
	if len(s.Machine.CPUs) != 8 || len(cores) != 4 {
		t.Errorf("lscpu of a 4-core, 8-thread laptop gave %d CPUs on %d cores: %+v", len(s.Machine.CPUs), len(cores), s.Machine)
	}
	for core, n := range cores {
		if n != 2 {
			t.Errorf("core %d has %d threads, want 2", core, n)
		}
	}
	if len(s.Tasks) != len(tasks) || s.Tasks[0].Name != tasks[0].Name {
		t.Errorf("the lscpu import changed the tasks: %+v", s.Tasks)
	}

	// Trace exports, from the buttons: a short run of the default.
	tb.click(`#presets .preset[data-preset="tbench-pairs"]`)
	tb.typeInto(path("duration"), "20ms")
	start := time.Now()
	name, data = get(`#export-formats button[data-format="perfetto"]`)
	var trace struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &trace); err != nil || len(trace.TraceEvents) < 100 {
		t.Errorf("the Perfetto export %s (%d bytes) is not a trace: %v", name, len(data), err)
	}
	t.Logf("Perfetto export of 20 ms: %s, %d bytes, %d events, %.1f s", name, len(data), len(trace.TraceEvents), time.Since(start).Seconds())
	if !strings.HasSuffix(name, ".perfetto.json") {
		t.Errorf("Perfetto file name %q", name)
	}
	name, data = get(`#export-formats button[data-format="schedstat"]`)
	if !strings.HasPrefix(string(data), "version 15\n") || !strings.HasSuffix(name, ".schedstat.txt") {
		t.Errorf("schedstat export %s starts %q", name, string(data[:min(len(data), 40)]))
	}
	name, data = get(`#export-formats button[data-format="csv"]`)
	if !strings.HasPrefix(string(data), "time_ms,kind,id,signal,value\n") || !strings.HasSuffix(name, ".csv") {
		t.Errorf("CSV export %s starts %q", name, string(data[:min(len(data), 40)]))
	}
	// The binary Perfetto trace: a Trace message, whose first field is a
	// packet (field 1, length-delimited: byte 0x0a).
	name, data = get(`#export-formats button[data-format="perfetto-proto"]`)
	if len(data) < 1000 || data[0] != 0x0a || !strings.HasSuffix(name, ".perfetto-trace") {
		t.Errorf("perfetto-proto export %s: %d bytes starting %x", name, len(data), data[:min(len(data), 4)])
	}
	if st := eval[string](tb, `document.getElementById("export-status").textContent`); !strings.Contains(st, "saved") {
		t.Errorf("export status %q", st)
	}
	// The page kept playing while it exported.
	tb.opsGrow(20 * time.Second)
}

// TestCompare turns A/B on from its tab: B's metrics appear next to A's,
// from the same seed, and differ where the policy differs.
func TestCompare(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	tb.click("#tab-ab")
	tb.choose("#ab-add", "policy.select_idle_sibling=cpu_buddies")
	if v := eval[string](tb, `document.getElementById("ab-sets").value`); v != "policy.select_idle_sibling=cpu_buddies" {
		t.Fatalf("the menu wrote %q", v)
	}
	tb.click("#ab-run")
	var sets []string
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.compare()`), &sets); err != nil || len(sets) != 1 {
		t.Fatalf("compare() = %v, %v", sets, err)
	}
	tb.poll(`document.getElementById("metrics-table").classList.contains("ab")`, 10*time.Second)
	a := tb.runFromStart(40)
	tb.poll(`window.schedplay.metricsB() && window.schedplay.metricsB().sim_ms === 40`, 10*time.Second)
	var b metrics
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.metricsB()`), &b); err != nil {
		t.Fatal(err)
	}
	t.Logf("40 ms, one tbench pair: A (v3.6) %d ops, %d migrations; B (cpu_buddies) %d ops, %d migrations", a.Ops, a.Migrations["total"], b.Ops, b.Migrations["total"])
	if b.Ops <= a.Ops || b.TraceHash == a.TraceHash {
		t.Errorf("CPU buddies should keep the pair together and complete more ops: A %d, B %d", a.Ops, b.Ops)
	}
	sb := tb.scenario()
	if err := sb.Set("policy.select_idle_sibling", "cpu_buddies"); err != nil {
		t.Fatal(err)
	}
	if h := nativeHash(t, sb, 40); h != b.TraceHash {
		t.Errorf("side B's trace %s differs from a native run of A with B's change (%s)", b.TraceHash, h)
	}
	tb.poll(`document.getElementById("mb-ops").textContent === `+jsString(fmtThin(b.Ops)), 10*time.Second)
	// More ops on B: "+12%", or "×6.5" past +200% (frame.FormatChange, as the canvas writes it).
	if d := eval[string](tb, `document.getElementById("md-ops").textContent`); !strings.HasPrefix(d, "+") && !strings.HasPrefix(d, "×") {
		t.Errorf("B vs A for ops shows %q", d)
	}
	// Coloured as an improvement, as the canvas' A/B table colours it.
	tb.poll(`document.getElementById("md-ops-per-s").dataset.verdict === "better"`, 10*time.Second)
	if c := eval[string](tb, `getComputedStyle(document.getElementById("md-ops-per-s")).color`); c != "rgb(109, 224, 122)" {
		t.Errorf("B's gain in ops/s is drawn in %s, not --better", c)
	}
	if c := eval[string](tb, `document.getElementById("ab-caption").textContent`); !strings.Contains(c, "B: policy.select_idle_sibling=cpu_buddies") {
		t.Errorf("caption %q", c)
	}

	// A change that does not apply: the error next to the box, A/B unchanged.
	tb.fill("#ab-sets", "policy.nonsense=1")
	tb.click("#ab-run")
	if e := tb.fieldError("#ab-sets"); !strings.Contains(e, "policy.nonsense") {
		t.Errorf("next to the A/B box: %q", e)
	}
	if got := eval[int](tb, `window.schedplay.compare().length`); got != 1 {
		t.Errorf("a bad compare changed A/B: %d sets", got)
	}

	tb.click("#ab-off")
	tb.poll(`!document.getElementById("metrics-table").classList.contains("ab")`, 10*time.Second)
	tb.poll(`window.schedplay.metricsB() === null`, 10*time.Second)
}

// fmtThin formats n as the page does (thin-space thousands separators).
func fmtThin(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u2009")
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestEventLogLive: while a run plays and the list follows its newest line,
// the list holds only the newest 150 lines (web/log.js LIVE: a fork wave's
// 200 lines at once cost the main thread less than half what adding them
// to 500 did); scrolling up brings back every kept line above the one in
// view, which stays where it was, and so does pausing.
func TestEventLogLive(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("aim9-burst")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `window.schedplay.setSpeed(0.01)`)
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	const shown = `document.querySelectorAll("#log li").length`
	tb.poll(`window.schedplay.log(-1).entries.length === 500 && `+shown+` > 0`, 60*time.Second)
	time.Sleep(600 * time.Millisecond) // two more polls of the log
	if n := eval[int](tb, shown); n > 150 {
		t.Fatalf("following a playing run, the log shows %d lines; want at most 150", n)
	}
	if note := eval[string](tb, `document.getElementById("log-note").textContent`); !strings.Contains(note, "scroll up or pause for all") {
		t.Errorf("the log's note does not say how to see every line: %q", note)
	}
	// Scroll up by a few lines: the line at the top of the view stays there
	// as the older lines come in above it.
	before := eval[[]float64](tb, `(() => { const l = document.getElementById("log"); l.scrollTop = Math.max(0, l.scrollHeight - l.clientHeight - 120);
		const top = l.getBoundingClientRect().top; const li = [...l.children].find((x) => x.getBoundingClientRect().bottom > top + 1);
		window.__anchor = li; return [Number(li.dataset.seq), li.getBoundingClientRect().top - top]; })()`)
	tb.poll(shown+` > 150`, 5*time.Second)
	after := eval[[]float64](tb, `(() => { const l = document.getElementById("log"); return [window.__anchor.isConnected ? 1 : 0, window.__anchor.getBoundingClientRect().top - l.getBoundingClientRect().top]; })()`)
	if after[0] != 1 || after[1] < before[1]-2 || after[1] > before[1]+2 {
		t.Errorf("scrolled up to line %v at %.0f px from the top; after the older lines came in it is at %.0f px (connected %v)", before[0], before[1], after[1], after[0] == 1)
	}
	// Back at the bottom it follows again; paused, it shows every kept line.
	eval[chromedp.Void](tb, `(() => { const l = document.getElementById("log"); l.scrollTop = l.scrollHeight; })()`)
	tb.poll(shown+` <= 150`, 10*time.Second)
	eval[chromedp.Void](tb, `window.schedplay.pause()`)
	tb.poll(shown+` === window.schedplay.log(-1).entries.length`, 5*time.Second)
	if atBottom := eval[bool](tb, `(() => { const l = document.getElementById("log"); return l.scrollHeight - l.scrollTop - l.clientHeight < 24; })()`); !atBottom {
		t.Errorf("paused at the bottom of the log, the list no longer shows its newest line")
	}
}

// TestEventLog reads the event log, pauses at the next migration with the
// checkbox, filters by CPU and task, and checks the log stays bounded.
func TestEventLog(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	tb.poll(`document.querySelectorAll("#log li").length > 0`, 20*time.Second)

	tb.click("#pause-on-move")
	if !eval[bool](tb, `window.schedplay.pauseOnMove()`) {
		t.Fatalf("the checkbox did not arm the pause")
	}
	tb.poll(`window.schedplay.state().playing === false`, 30*time.Second)
	tb.poll(`document.getElementById("state").textContent === "paused at a migration"`, 5*time.Second)
	// The log's lines come in after the pause (a later frame): wait for
	// the line of the migration it paused at, not for any migration's
	// (an older one can end the list for a frame; CI of 614a83a).
	lastIsMove := `(() => { const l = document.querySelectorAll("#log li"); const lm = document.getElementById("last-move").textContent;
		return l.length > 0 && l[l.length-1].dataset.kind === "migrate" && l[l.length-1].textContent === lm; })()`
	if err := tb.tryPoll(lastIsMove, 5*time.Second); err != nil {
		last := eval[string](tb, `(() => { const l = document.querySelectorAll("#log li"); return l.length ? l[l.length-1].textContent : ""; })()`)
		t.Errorf("paused at %q, the log ends with %q", eval[string](tb, `document.getElementById("last-move").textContent`), last)
	} else if last := eval[string](tb, `(() => { const l = document.querySelectorAll("#log li"); return l[l.length-1].textContent; })()`); !strings.Contains(last, "moved") {
		t.Errorf("paused at a migration, the log ends with %q", last)
	}
	// Play runs to the next migration.
	before := eval[float64](tb, `window.schedplay.state().now_ms`)
	tb.click("#play")
	tb.poll(fmt.Sprintf(`window.schedplay.state().playing === false && window.schedplay.state().now_ms > %v`, before), 30*time.Second)
	tb.click("#pause-on-move")
	if eval[bool](tb, `window.schedplay.pauseOnMove()`) {
		t.Errorf("unchecking did not disarm the pause")
	}

	// Filter by the CPU of the last migration.
	var e struct {
		CPU  int    `json:"cpu"`
		Task string `json:"task"`
	}
	if err := json.Unmarshal(eval[[]byte](tb, `(() => { const r = window.schedplay.log(-1).entries.filter(e => e.kind === "migrate"); return r[r.length-1]; })()`), &e); err != nil {
		t.Fatal(err)
	}
	// The page reads the log a few times a second: let it catch up.
	tb.poll(`(() => { const l = document.querySelector("#log li:last-child"); return l && Number(l.dataset.seq) === window.schedplay.log(-1).next; })()`, 10*time.Second)
	tb.typeInto("#log-cpu", fmt.Sprint(e.CPU))
	var shown []struct {
		CPU, From int
	}
	raw := eval[[]byte](tb, `(() => { const byseq = new Map(window.schedplay.log(-1).entries.map(e => [String(e.seq), e]));
		return [...document.querySelectorAll("#log li")].map(li => { const e = byseq.get(li.dataset.seq); return {CPU: e.cpu, From: e.from}; }); })()`)
	if err := json.Unmarshal(raw, &shown); err != nil {
		t.Fatal(err)
	}
	if len(shown) == 0 {
		t.Errorf("no line for cpu%d", e.CPU)
	}
	for _, s := range shown {
		if s.CPU != e.CPU && s.From != e.CPU {
			t.Errorf("CPU filter %d shows a line of cpu%d (from %d)", e.CPU, s.CPU, s.From)
		}
	}
	tb.typeInto("#log-cpu", "")
	group, _, _ := strings.Cut(e.Task, "/")
	tb.typeInto("#log-task", group)
	if n := eval[int](tb, fmt.Sprintf(`[...document.querySelectorAll("#log li")].filter(li => !li.textContent.includes(%s)).length`, jsString(group))); n != 0 {
		t.Errorf("task filter %q shows %d lines without it", group, n)
	}
	tb.typeInto("#log-task", "")

	// Bounded: a fast run keeps at most 500 lines.
	eval[apiResult](tb, `window.schedplay.setSpeed(0.2)`)
	tb.click("#play")
	tb.poll(`window.schedplay.log(-1).next > 1500`, 30*time.Second)
	if n := eval[int](tb, `document.querySelectorAll("#log li").length`); n > 500 || n < 100 {
		t.Errorf("the log shows %d lines, want at most 500 (and plenty)", n)
	}
	if n := eval[int](tb, `window.schedplay.log(-1).entries.length`); n > 500 {
		t.Errorf("log(-1) returned %d entries", n)
	}
}

// TestTalkMode switches talk mode with the button and the T key, and
// writes the screenshots for docs/ when SCHEDPLAY_DOCS names a directory.
func TestTalkMode(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	editorW := eval[float64](tb, `document.getElementById("stage").getBoundingClientRect().width`)
	tb.click("#talk")
	if !eval[bool](tb, `window.schedplay.talk()`) {
		t.Errorf("talk() is false after the button")
	}
	tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	for _, id := range []string{"editor", "panel"} {
		if w := eval[float64](tb, `document.getElementById("`+id+`").getBoundingClientRect().width`); w != 0 {
			t.Errorf("#%s is %v px wide in talk mode", id, w)
		}
	}
	if w := eval[float64](tb, `document.getElementById("stage").getBoundingClientRect().width`); w < viewportW-10 || w <= editorW {
		t.Errorf("in talk mode the machine is %v px wide (window %d, before %v)", w, viewportW, editorW)
	}
	tb.poll(`document.getElementById("talk-strip").textContent.includes("ops/s")`, 10*time.Second)
	if px := eval[float64](tb, `parseFloat(getComputedStyle(document.getElementById("talk-strip")).fontSize)`); px < 28 {
		t.Errorf("the talk-mode numbers are %v px: not readable from a distance", px)
	}
	if dir := os.Getenv("SCHEDPLAY_DOCS"); dir != "" {
		time.Sleep(2 * time.Second)
		writeShot(t, tb, filepath.Join(dir, "talk-mode.png"))
	}
	// The T key, on the page (not in a text field), leaves talk mode.
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("t")); err != nil {
		t.Fatal(err)
	}
	tb.poll(`!document.documentElement.classList.contains("talk") && window.schedplay.talk() === false`, 5*time.Second)
	// In a text field, T is just a letter.
	tb.click("#tab-scenario")
	tb.typeInto(path("title"), "Talk about it")
	if eval[bool](tb, `window.schedplay.talk()`) {
		t.Errorf("typing a T into the title turned talk mode on")
	}
	if got := tb.scenario().Title; got != "Talk about it" {
		t.Errorf("title %q", got)
	}
	// With the editor hidden first, talk mode still gives the machine the
	// whole width.
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)
	tb.click("#toggle-editor")
	tb.click("#talk")
	tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	if w := eval[float64](tb, `document.getElementById("stage").getBoundingClientRect().width`); w < viewportW-10 {
		t.Errorf("talk mode after hiding the editor: the machine is %v px wide (window %d)", w, viewportW)
	}
}

// TestEditorScreenshots checks the editor fits the window and, with
// SCHEDPLAY_DOCS set, writes docs/editor.png (the policy switches, with
// SD_BALANCE_WAKE on at SMT and MC, Preeti's merge patch in this version-1
// preset, against policy B without it) and
// docs/editor-tasks.png.
func TestEditorScreenshots(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	// Nothing of the editor or the panel sticks out sideways.
	for _, id := range []string{"editor", "panel"} {
		if over := eval[float64](tb, `(() => { const e = document.getElementById("`+id+`"); const p = e.querySelector(".pane:not([hidden])") || e; return p.scrollWidth - p.clientWidth; })()`); over > 1 {
			t.Errorf("#%s overflows sideways by %v px", id, over)
		}
	}
	tb.click("#tab-tasks")
	tb.typeInto(path("tasks[0].count"), "5")
	dir := os.Getenv("SCHEDPLAY_DOCS")
	if dir != "" {
		time.Sleep(2 * time.Second)
		writeShot(t, tb, filepath.Join(dir, "editor-tasks.png"))
	}
	tb.click("#tab-policy")
	tb.click(path("policy.sd_flags.SMT.SD_BALANCE_WAKE"))
	tb.click(path("policy.sd_flags.MC.SD_BALANCE_WAKE"))
	// Policy B: the same without the switches (the base's default).
	eval[apiResult](tb, `window.schedplay.compare(["policy.sd_flags.SMT.SD_BALANCE_WAKE=false", "policy.sd_flags.MC.SD_BALANCE_WAKE=false"])`)
	tb.poll(`document.getElementById("metrics-table").classList.contains("ab")`, 10*time.Second)
	for _, id := range []string{"editor", "panel"} {
		if over := eval[float64](tb, `(() => { const e = document.getElementById("`+id+`"); const p = e.querySelector(".pane:not([hidden])") || e; return p.scrollWidth - p.clientWidth; })()`); over > 1 {
			t.Errorf("with A/B on, #%s overflows sideways by %v px", id, over)
		}
	}
	eval[chromedp.Void](tb, `document.querySelector(".concept:nth-of-type(4)").scrollIntoView()`)
	// Far enough into the run for the two policies to part.
	tb.click("#pause")
	eval[float64](tb, `window.schedplay.step(100)`)
	tb.poll(`document.getElementById("mb-ops").textContent !== document.getElementById("m-ops").textContent`, 10*time.Second)
	if dir != "" {
		time.Sleep(2 * time.Second)
		writeShot(t, tb, filepath.Join(dir, "editor.png"))
	}
}

func writeShot(t *testing.T, tb *tab, file string) {
	t.Helper()
	shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join("..", file) // relative to the repository, not e2e/
	}
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}

// TestMetricsPanelFits: with A/B the metrics table has four columns in the
// side panel (18rem on a 1280×720 projector, 20rem on a wider screen);
// 40 tbench pairs have seven-digit values (1 421 851 ops/s), and
// the table ran 20 px past the panel's edge, the change column under a
// horizontal scroll bar. Millions are now spelled in four digits
// ("1.422M", the full value in the cell's title) and the A/B columns are
// set closer.
//
// kernbench against exec balancing off, after 500 ms: an idle while
// overloaded of 4132.88 ms (now "4 133") and "×25.3" overflowed the 18rem
// panel by 17 px after that, until the panel's side padding was narrowed.
// Its caption broke "policy.sd_flags.MC.SD_BALANCE_EXE" / "C=true".
func TestMetricsPanelFits(t *testing.T) {
	for _, v := range []viewport{
		{"projector", 1280, 720, 1, false},
		{"desktop", 1600, 1000, 1, false},
	} {
		for _, c := range []struct {
			name, preset, set, compare string
			ms                         int
		}{
			{"tbench40", "tbench-pairs", "tasks.client.count=40", `"policy.select_idle_sibling=cpu_buddies"`, 150},
			{"kernbench", "kernbench-numaq", "", `"policy.sd_flags.MC.SD_BALANCE_EXEC=false", "policy.sd_flags.NUMA.SD_BALANCE_EXEC=false"`, 500},
		} {
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				tb := newTab(t, true)
				tb.openAt(v)
				eval[apiResult](tb, `window.schedplay.loadPreset(`+jsString(c.preset)+`)`)
				if path, val, ok := strings.Cut(c.set, "="); ok {
					eval[apiResult](tb, `window.schedplay.set(`+jsString(path)+`, `+jsString(val)+`)`)
				}
				eval[apiResult](tb, `window.schedplay.compare([`+c.compare+`])`)
				evalAwait[float64](tb, fmt.Sprintf(`window.schedplay.seek(%d)`, c.ms))
				tb.poll(fmt.Sprintf(`window.schedplay.metricsB() && window.schedplay.metricsB().sim_ms === %d`, c.ms), 30*time.Second)
				tb.poll(`document.getElementById("mb-migrations").textContent.length >= 3`, 10*time.Second)
				if over := eval[string](tb, `(() => { const p = document.getElementById("panel"); const t = document.getElementById("metrics-table"); return p.scrollWidth > p.clientWidth ? "panel " + p.scrollWidth + " > " + p.clientWidth + ", table " + Math.round(t.getBoundingClientRect().width) + " px" : ""; })()`); over != "" {
					t.Errorf("the metrics panel scrolls sideways: %s", over)
				}
				// The caption over the table breaks paths between their
				// segments: no piece between two break points is split
				// over two lines ("SD_BALANCE_EXE" / "C=true" before).
				if split := eval[string](tb, `(() => { const out = []; for (const n of document.getElementById("ab-caption").childNodes) { if (n.nodeType !== 3 || n.textContent === "\n") continue; const r = document.createRange(); r.selectNodeContents(n); const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top))); if (lines.size > 1) out.push(n.textContent); } return out.join(" | "); })()`); split != "" {
					t.Errorf("the A/B caption breaks inside %q", split)
				}
				// kernbench's jobs exit instead of looping: its ops rows
				// (0 against 0) are hidden, tbench's shown.
				opsShown := eval[bool](tb, `document.getElementById("m-ops-per-s").offsetParent !== null && document.getElementById("m-ops").offsetParent !== null`)
				if opsShown != (c.preset == "tbench-pairs") {
					t.Errorf("%s: the ops rows shown: %v", c.preset, opsShown)
				}
				// ...and their last exit, in seconds, is (tbench's tasks
				// never exit: hidden).
				lastShown := eval[bool](tb, `document.getElementById("m-last-exit").offsetParent !== null`)
				if last := eval[string](tb, `document.getElementById("mb-last-exit").textContent`); lastShown != (c.preset == "kernbench-numaq") || lastShown && !regexp.MustCompile(`^0\.\d{3}$`).MatchString(last) {
					t.Errorf("%s: the last exit row shown %v, B's %q at %d ms", c.preset, lastShown, last, c.ms)
				}
				if c.preset != "tbench-pairs" {
					return
				}
				tb.poll(`/M$/.test(document.getElementById("m-ops-per-s").textContent)`, 10*time.Second)
				if full := eval[string](tb, `document.getElementById("m-ops-per-s").title`); !regexp.MustCompile(`^\d \d{3} \d{3}$`).MatchString(strings.ReplaceAll(full, "\u2009", " ")) {
					t.Errorf("A's ops/s %q has the title %q, not the value in full", eval[string](tb, `document.getElementById("m-ops-per-s").textContent`), full)
				}
			})
		}
	}
}
