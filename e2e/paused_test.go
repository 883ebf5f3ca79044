//go:build !js

package e2e

import (
	"fmt"
	"testing"
	"time"
)

// TestPausedPageIsQuiet: a paused run whose moves have landed is one
// picture. The page leaves it on screen instead of painting it again every
// frame (stats().painted stops while drawn goes on), and its panels write
// nothing that did not change: the page's text and attributes were written
// again by every poll and frame, and every write of the same value still
// restyled, repainted and composited the page. Under SwiftShader (headless
// Chromium, a machine without a GPU) a paused page kept the GPU process at
// 119-154 % of this machine's two cores; with these changes 4-10 %.
func TestPausedPageIsQuiet(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	eval[any](tb, `window.schedplay.pause()`)
	tb.settle()
	// The moves taken before the pause glide for 0.45 s and their badges
	// linger 0.5 s more (render.GlideDuration, render.Linger).
	time.Sleep(1500 * time.Millisecond)
	eval[any](tb, `(() => {
		const key = (n) => { const e = n.nodeType === 1 ? n : n.parentElement; return e ? (e.id || e.tagName.toLowerCase() + "." + e.className) : "?"; };
		window.__mut = {};
		window.__mo = new MutationObserver((l) => { for (const m of l) { const k = key(m.target) + (m.attributeName ? "@" + m.attributeName : ""); window.__mut[k] = (window.__mut[k] || 0) + 1; } });
		window.__mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
		window.__st0 = window.schedplay.stats();
	})()`)
	time.Sleep(2 * time.Second)
	r := eval[struct {
		Drawn   float64            `json:"drawn"`
		Painted float64            `json:"painted"`
		Muts    map[string]float64 `json:"muts"`
	}](tb, `(() => { window.__mo.disconnect(); const a = window.__st0, b = window.schedplay.stats(); return { drawn: b.drawn - a.drawn, painted: b.painted - a.painted, muts: window.__mut }; })()`)
	t.Logf("paused for 2 s: %v frames drawn, %v painted; DOM writes %v", r.Drawn, r.Painted, r.Muts)
	if r.Drawn < 2 {
		t.Errorf("the page drew %v frames in 2 s: its loop is not running, the test proves nothing", r.Drawn)
	}
	if r.Painted != 0 {
		t.Errorf("paused, nothing gliding: %v of %v frames painted again; want 0", r.Painted, r.Drawn)
	}
	// The picture left on screen is still there: the compositor keeps
	// showing the canvas' last presented frame.
	if frac, colours := tb.stageShot("paused.png", 1); frac < 0.3 || colours < 12 {
		t.Errorf("paused, the stage shows %.0f%% drawn pixels in %d colours: the picture left on screen is gone", frac*100, colours)
	}
	// The frame-rate line (#perf) changes by itself once a second; nothing
	// else on a paused page does.
	for k, n := range r.Muts {
		if k != "perf" {
			t.Errorf("paused: %s written %v times in 2 s, with nothing to change", k, n)
		}
	}
}

// TestPausedTalkModeIsWhole: a paused run switched to talk mode is laid out
// again at talk mode's type, so every label is new, and a frame rasterises
// at most 24 new labels (ebitendraw's maxNewLabels); the rest wait for the
// next frames. A paused page paints no frame whose picture is the one on
// screen, and so it never drew them: 80 CPU numbers, the status strip and
// the charts' values stayed missing until the run played on (seen in
// a 1280x720 screenshot of tbench-pairs with 10 pairs). stats().labels_pending
// says the picture still lacks labels; it has to clear by itself.
func TestPausedTalkModeIsWhole(t *testing.T) {
	tb := newTab(t, true)
	tb.emulate(viewports[3]) // laptop, 1280x720: a projector's size
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[any](tb, `window.schedplay.pause()`)
	tb.settle()
	time.Sleep(time.Second)
	layouts := eval[float64](tb, `window.schedplay.stats().layouts`)
	tb.click("#talk")
	tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	tb.poll(fmt.Sprintf(`window.schedplay.stats().layouts > %v`, layouts), 5*time.Second)
	if eval[float64](tb, `window.schedplay.stats().labels_pending`) == 0 {
		t.Log("talk mode's first frame drew every label: the budget was not reached, the test proves less")
	}
	tb.poll(`window.schedplay.stats().labels_pending === 0`, 5*time.Second)
	// And then it rests: the whole picture stays on screen, unpainted.
	time.Sleep(1500 * time.Millisecond)
	a := eval[float64](tb, `window.schedplay.stats().painted`)
	time.Sleep(time.Second)
	if b := eval[float64](tb, `window.schedplay.stats().painted`); b != a {
		t.Errorf("paused in talk mode with every label drawn: %v frames painted in 1 s; want 0", b-a)
	}
}
