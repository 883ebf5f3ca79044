//go:build !js

package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The scrubber's step buttons right after a pause (issue 20): ▶ steps one
// frame forward from the time the run was paused at, ◀ one frame back
// from it. Before, they sought to the time the scrubber last showed (polled
// every 150 ms, from a frame with fresh metrics, up to 250 ms older) plus or
// minus one frame: ▶ went back in time, ◀ went back by up to a few hundred
// ms of wall time at the speed.
func TestScrubberAfterPause(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`)
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.05)`); !r.OK {
		t.Fatalf("setSpeed: %s", r.Error)
	}
	step := 0.05 * 1000 / 60 // one frame at 50 ms/s, in ms
	const eps = 1e-6
	for round := range 4 {
		for _, btn := range []string{"#tl-fwd", "#tl-back"} {
			eval[chromedp.Void](tb, `window.schedplay.play()`)
			tb.settle()
			time.Sleep(600 * time.Millisecond)
			// Pause and press the button at once, as a hand would in the
			// same instant; before is the newest time the page knows, at
			// or before the time the run pauses at.
			before := eval[float64](tb, `(() => {
				const api = window.schedplay;
				api.pause();
				const before = api.state().now_ms;
				document.querySelector(`+jsString(btn)+`).click();
				return before;
			})()`)
			tb.settle()
			after := eval[float64](tb, `window.schedplay.state().now_ms`)
			t.Logf("round %d %s: %.4f ms when paused -> %.4f ms (one step %.4f ms)", round, btn, before, after, step)
			if btn == "#tl-fwd" && after < before+step-eps {
				t.Errorf("round %d: ▶ right after the pause at %.4f ms went to %.4f ms; want at least %.4f (one step on from the pause)", round, before, after, before+step)
			}
			if btn == "#tl-back" && after < before-step-eps {
				t.Errorf("round %d: ◀ right after the pause at %.4f ms went to %.4f ms; want at least %.4f (one step back from the pause)", round, before, after, before-step)
			}
			if e := eval[string](tb, `window.schedplay.error()`); e != "" {
				t.Errorf("error() = %q", e)
			}
		}
	}
}

// The scrubber's track is a canvas in memory, not on the GPU (issue 19).
// Chromium gives a GPU 2D canvas that is drawn while the compositor takes
// no frame (the machine's WebGL canvas keeps a software GPU, or a phone's,
// busy) a rate limiter, and then ends every task that draws it by waiting
// for the GPU to run the commands of two draws back: traced while
// aim9-burst played and during imports, 0.26-10.3 s of such waits per page,
// in main-thread tasks of up to 1.2 s (docs/performance.md, round twenty).
// Every 2D canvas the page draws on screen asks for willReadFrequently,
// which keeps it in memory.
func TestCanvas2DInMemory(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`)
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	tb.poll(`document.getElementById("tl-track").width > 1`, 10*time.Second)
	var got []struct {
		ID                 string `json:"id"`
		WillReadFrequently bool   `json:"wrf"`
	}
	// getContext("2d") returns the context the page made, with the
	// attributes it asked for; a canvas with another context (the
	// machine's WebGL) returns null and is left out.
	if err := json.Unmarshal(eval[[]byte](tb, `[...document.querySelectorAll("canvas")].map((c) => {
		const g = c.getContext("2d");
		return g ? {id: c.id || c.className || "(canvas)", wrf: !!g.getContextAttributes().willReadFrequently} : null;
	}).filter(Boolean)`), &got); err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, c := range got {
		seen = seen || c.ID == "tl-track"
		if !c.WillReadFrequently {
			t.Errorf("canvas %s has a GPU 2D context; want willReadFrequently (a canvas in memory)", c.ID)
		}
	}
	if !seen {
		t.Errorf("no 2D canvas #tl-track among %v", got)
	}
}
