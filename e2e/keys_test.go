//go:build !js

package e2e

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// holdFrames is installed before the page's own scripts: once the test sets
// window.__holdFrames, requestAnimationFrame callbacks (Ebiten's frames)
// wait in a queue until window.__releaseFrames() runs them, and
// window.__frames counts the callbacks that ran. The page at the slowest
// frame rate there is: none, until the test lets one through.
const holdFrames = `(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const queue = [];
  window.__frames = 0;
  window.__holdFrames = false;
  window.requestAnimationFrame = (cb) => {
    const run = (t) => { window.__frames++; cb(t); };
    if (window.__holdFrames) { queue.push(run); return 0; }
    return raf(run);
  };
  window.__queued = () => queue.length;
  window.__releaseFrames = () => {
    window.__holdFrames = false;
    for (const run of queue.splice(0)) raf(run);
  };
})()`

// TestKeysAtLowFPS (issue 20, "keys pressed quickly at low fps are applied
// in bunches"): with Ebiten's frames held, each press of → is one step and
// shows on the page's clock before any frame runs; N presses are N steps.
// The old page queued keys for the next Ebiten Update: with no frame,
// nothing moved, and the next frame applied all of them at once.
func TestKeysAtLowFPS(t *testing.T) {
	tb := newTab(t, true)
	send(tb, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holdFrames})
	// Key events go to the focused page: a tab of its own browser context
	// is not focused unless told.
	send(tb, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	tb.open(serverURL)
	// Paused first: the preset then loads paused at t = 0.
	eval[chromedp.Void](tb, `window.schedplay.pause()`)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("pelt-pingpong")`); !r.OK {
		t.Fatal(r.Error)
	}
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.001)`); !r.OK {
		t.Fatal(r.Error)
	}
	tb.settle()
	tb.poll(`document.getElementById("clock").textContent.startsWith("t = 0.0 µs")`, 10*time.Second)
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)

	eval[chromedp.Void](tb, `window.__holdFrames = true`)
	// Ebiten asks for one frame at a time: once its request waits in the
	// queue, no frame is on its way.
	tb.poll(`window.__queued() > 0`, 10*time.Second)
	held := eval[int](tb, `window.__frames`)
	const n = 5
	for k := 1; k <= n; k++ {
		if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		// One step is one frame of playing at 1 ms/s: 1/60 of 1 ms.
		want := fmt.Sprintf("t = %.1f µs", float64(k)*1000.0/60)
		tb.poll(fmt.Sprintf(`document.getElementById("clock").textContent.startsWith(%s)`, jsString(want)), 10*time.Second)
		if f := eval[int](tb, `window.__frames`); f != held {
			t.Fatalf("press %d: %d frames ran while the frames were held", k, f-held)
		}
	}
	// Each step is 16666 ns (1/60 s × 0.001, in whole ns).
	want := float64(n*16666) / 1e6
	tb.settle()
	if got := eval[float64](tb, `window.schedplay.state().now_ms`); math.Abs(got-want) > 1e-9 {
		t.Errorf("after %d presses now_ms = %.6f, want %.6f", n, got, want)
	}
	// Frames again: no press is applied a second time.
	eval[chromedp.Void](tb, `window.__releaseFrames()`)
	tb.poll(fmt.Sprintf(`window.__frames > %d`, held+2), 10*time.Second)
	tb.settle()
	if got := eval[float64](tb, `window.schedplay.state().now_ms`); math.Abs(got-want) > 1e-9 {
		t.Errorf("after the frames ran now_ms = %.6f, want %.6f", got, want)
	}
}
