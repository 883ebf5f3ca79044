//go:build !js

package e2e

import (
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
