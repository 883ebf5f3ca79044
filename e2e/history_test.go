//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/scenarios"
)

// TestLinkCarriesView: the page's Copy link button gives a link that opens,
// in a fresh browser context, the same scenario with the same speed, A/B,
// talk mode and pause (issue 20, 2).
func TestLinkCarriesView(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.click(`#presets .preset[data-preset="pelt-pingpong"]`)
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.05)`); !r.OK {
		t.Fatal(r.Error)
	}
	if r := eval[apiResult](tb, `window.schedplay.compare(["policy.features.WAKE_AFFINE=false"])`); !r.OK {
		t.Fatal(r.Error)
	}
	tb.click("#pause")
	// The clipboard as a browser gives it (headless Chromium may refuse
	// it; the button then writes the address bar).
	eval[chromedp.Void](tb, `window.copied = ""; navigator.clipboard.writeText = (text) => { window.copied = text; return Promise.resolve(); }`)
	tb.click("#share")
	tb.poll(`document.getElementById("share-status").textContent === "link copied"`, 5*time.Second)
	link := eval[string](tb, `window.copied`)
	if !strings.Contains(link, "&v=") {
		t.Fatalf("the copied link has no view: %s", link)
	}
	// Talk mode hides the button: turn it on after copying, via the link's own view.
	v, ok, err := scenarios.LinkView(link)
	if err != nil || !ok || v.Speed != 0.05 || !v.AB || !v.Paused || len(v.Compare) != 1 {
		t.Fatalf("the link's view is %+v (%v, %v)", v, ok, err)
	}
	v.Talk = true
	sc, err := scenarios.DecodeLink(link)
	if err != nil {
		t.Fatal(err)
	}
	link = serverURL + "#" + scenarios.EncodeLinkView(sc, v)

	rx := newTab(t, true)
	rx.open(link)
	var st struct {
		Playing bool
		Speed   float64
	}
	if err := json.Unmarshal(eval[[]byte](rx, `window.schedplay.state()`), &st); err != nil {
		t.Fatal(err)
	}
	if st.Playing || st.Speed != 0.05 {
		t.Errorf("the receiver plays %v at %v, want paused at 0.05", st.Playing, st.Speed)
	}
	if n := eval[int](rx, `(window.schedplay.compare() || []).length`); n != 1 {
		t.Errorf("the receiver has %d A/B sets, want 1", n)
	}
	rx.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	if got := eval[string](rx, `window.schedplay.scenario()`); got != string(sc.Canonical()) {
		t.Errorf("the receiver plays another scenario")
	}
}

// TestBackAndUndo: Back restores a scenario a preset replaced; Ctrl+Z undoes
// an edit and Ctrl+Shift+Z redoes it; the blank scenario is one history
// entry more (issue 20, 4 and 6).
func TestBackAndUndo(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.click("#tab-tasks")
	tb.typeInto(path("tasks[0].count"), "3")
	tb.poll(`window.schedplay.scenario().includes('"count":3')`, 5*time.Second)
	edited := eval[string](tb, `window.schedplay.scenario()`)
	tb.poll(`location.hash.startsWith("#s=")`, 20*time.Second)
	tb.click("#tab-scenario")
	entries := eval[int](tb, `history.length`)
	tb.click(`#presets .preset[data-preset="pelt-pingpong"]`)
	pelt, _ := scenarios.Preset("pelt-pingpong")
	tb.poll(`window.schedplay.scenario() === `+jsString(string(pelt.Canonical())), 5*time.Second)
	// The preset plays at its own speed.
	if sp := eval[float64](tb, `window.schedplay.state().speed`); sp != 0.01 {
		t.Errorf("pelt-pingpong plays at %v, want 0.01", sp)
	}
	tb.poll(`window.schedplay.state().playing`, 5*time.Second)
	// The preset has a history entry of its own.
	tb.poll(fmt.Sprintf(`history.length > %d`, entries), 10*time.Second)
	tb.back()
	tb.poll(`window.schedplay.scenario() === `+jsString(edited), 10*time.Second)

	// Undo and redo with the keys, outside a text field.
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)
	tb.click("#tab-tasks")
	// The editor follows the scenario Back loaded first.
	tb.poll(`document.querySelector(`+jsString(path("tasks[0].count"))+`).value === "3"`, 10*time.Second)
	tb.typeInto(path("tasks[0].count"), "5")
	tb.poll(`window.schedplay.scenario().includes('"count":5')`, 5*time.Second)
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	tb.poll(`window.schedplay.scenario() === `+jsString(edited), 5*time.Second)
	tb.poll(`document.querySelector(`+jsString(path("tasks[0].count"))+`).value === "3"`, 5*time.Second)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("Z", chromedp.KeyModifiers(chromedp.ModifierCtrl, chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	tb.poll(`window.schedplay.scenario().includes('"count":5')`, 5*time.Second)
	// The buttons too.
	tb.click("#undo")
	tb.poll(`window.schedplay.scenario() === `+jsString(edited), 5*time.Second)

	// A blank scenario, then Back.
	tb.click("#tab-scenario")
	tb.click("#blank")
	tb.poll(`JSON.parse(window.schedplay.scenario()).tasks.length === 1 && JSON.parse(window.schedplay.scenario()).title === "New scenario"`, 5*time.Second)
	// The blank scenario's own link, not just another one: the undo's
	// write may reach the address bar after hash was read (the page
	// takes the worker's frames as it draws).
	tb.poll(`location.hash === "#" + `+jsString(scenarios.EncodeLink(tb.scenario())), 10*time.Second)
	tb.back()
	tb.poll(`window.schedplay.scenario() === `+jsString(edited), 10*time.Second)

	// An edit and a replacing change in the same moment: the worker merges
	// their frames, and Back must still return to the edit (the entry is
	// rewritten with the replaced scenario before the new one is pushed).
	eval[chromedp.Void](tb, `(window.schedplay.set("tasks[0].count", "7"), window.schedplay.blank(), undefined)`)
	tb.poll(`JSON.parse(window.schedplay.scenario()).title === "New scenario"`, 5*time.Second)
	tb.settle()
	// The link updater writes the blank scenario's link when a frame
	// brings it.
	tb.poll(`location.hash === "#" + `+jsString(scenarios.EncodeLink(tb.scenario())), 10*time.Second)
	tb.back()
	tb.poll(`JSON.parse(window.schedplay.scenario()).tasks[0].count === 7`, 10*time.Second)
}

// bigScenario is a valid scenario under 256 KiB whose link is over 64 KiB
// (random durations DEFLATE cannot shrink).
func bigScenario(t *testing.T) string {
	r := rand.New(rand.NewPCG(1, 2))
	type step map[string]any
	var tasks []map[string]any
	for i := range 36 {
		var prog []step
		for range 4 {
			var body []step
			for range 62 {
				body = append(body, step{"run": fmt.Sprintf("%dns", 1+r.Int64N(int64(scenarios.MaxDuration)-1))})
			}
			prog = append(prog, step{"repeat": 1 + r.IntN(1000), "program": body})
		}
		tasks = append(tasks, map[string]any{"name": fmt.Sprintf("g%d", i), "count": 1, "program": prog})
	}
	b, err := json.Marshal(map[string]any{"version": 2, "title": "big", "seed": 1, "duration": "10ms", "tasks": tasks})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLinkLimit: a scenario whose link would be over 64 KiB is imported and
// plays, its link is not written to the address bar (a reload would refuse
// it), and the page says why, also when Copy link is pressed (issue 20, 6).
func TestLinkLimit(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.click("#tab-tasks")
	tb.typeInto(path("tasks[0].count"), "2")
	tb.poll(`location.hash.startsWith("#s=")`, 20*time.Second)
	before := eval[string](tb, `location.hash`)
	r := await[apiResult](tb, `window.schedplay.importText(`+jsString(bigScenario(t))+`, "big.json", "")`, 60*time.Second)
	if !r.OK {
		t.Fatalf("the big scenario was refused: %s", r.Error)
	}
	tb.poll(`!document.getElementById("error").hidden && document.getElementById("error").textContent.includes("64 KiB")`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	if h := eval[string](tb, `location.hash`); h != before {
		t.Errorf("the address bar changed to a %d-byte link", len(h))
	}
	tb.click("#share")
	tb.poll(`document.getElementById("share-status").textContent.includes("64 KiB")`, 5*time.Second)
}

// back is the browser's Back button (history.back(): chromedp's
// NavigateBack leaves the document even between same-document entries).
func (tb *tab) back() {
	tb.t.Helper()
	eval[bool](tb, `(history.back(), true)`)
}

// TestHistoryWritesSaveNoFormState (issue 19): every preset, import and
// edit writes the link to the address bar (history.pushState or
// replaceState), and Chromium saves the state of every form control the
// browser could restore into the entry it leaves: with the editor's 1081
// controls after a 64-group import, a write took a median 12 ms of the
// main thread (up to 50), against 1.0 ms with none to save. The page
// restores from its link, never from the browser, so no control of the
// page is one the browser restores (autocomplete="off"). The time of a
// history write is logged, not asserted.
func TestHistoryWritesSaveNoFormState(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	for _, p := range []string{"aim9-burst", "sdet-numaq"} {
		eval[apiResult](tb, `window.schedplay.loadPreset(`+jsString(p)+`)`)
		tb.settleDrawn()
		// Every pane of the editor built: the most controls there can be.
		tb.poll(`document.querySelector('#editor .preset.current[data-preset=`+jsString(p)+`]') !== null`, 10*time.Second)
		tb.showPanes()
		type controls struct {
			N        int
			Restored []string
			PushMS   []float64
		}
		c := eval[controls](tb, `(() => {
			const all = [...document.querySelectorAll("input, select, textarea")];
			const restored = all.filter((e) => e.getAttribute("autocomplete") !== "off" && !(e.form && e.form.getAttribute("autocomplete") === "off"))
				.map((e) => e.id || e.dataset.path || e.getAttribute("aria-label") || e.outerHTML.slice(0, 80));
			const push = [];
			for (let i = 0; i < 4; i++) {
				const t0 = performance.now();
				history.replaceState(history.state, "", location.href);
				push.push(Math.round((performance.now() - t0) * 10) / 10);
			}
			return {N: all.length, Restored: restored.slice(0, 12), PushMS: push};
		})()`)
		t.Logf("%s: %d form controls; history writes took %v ms (not asserted)", p, c.N, c.PushMS)
		if c.N < 50 {
			t.Errorf("%s: only %d form controls: the editor was not built", p, c.N)
		}
		if len(c.Restored) > 0 {
			t.Errorf("%s: form controls the browser would save and restore at every history write: %v", p, c.Restored)
		}
	}
}
