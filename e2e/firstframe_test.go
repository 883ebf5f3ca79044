//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// holdWorker, run before the page's scripts: the messages the simulator's
// worker sends to the page's Go (its onmessage handler: frames, results)
// wait in a queue while window.__holdWorker is true, until
// window.__releaseWorker() delivers them in order. loader.js' own listener
// (addEventListener) still hears the worker boot.
const holdWorker = `(() => {
  const W = window.Worker;
  const queue = [];
  window.__holdWorker = true;
  window.__heldMessages = () => queue.length;
  window.__releaseWorker = () => {
    window.__holdWorker = false;
    for (const run of queue.splice(0)) run();
  };
  window.Worker = class extends W {
    set onmessage(h) {
      super.onmessage = (e) => {
        if (window.__holdWorker) { queue.push(() => h.call(this, e)); return; }
        h.call(this, e);
      };
    }
    get onmessage() { return super.onmessage; }
  };
})()`

// TestFirstPictureBeforeTheWorker: the page draws the scenario as it is at
// t = 0 from its own shadow (app.Session.Still) as soon as Ebiten draws, and
// does not wait for the worker's first frame, which a cold start took 0.3-1 s
// more to deliver (docs/performance.md, round eighteen). With the worker's
// messages held back: a first frame is drawn, the stage shows the machine
// (not the blank background), the "Loading" notice is gone, and the page is
// not ready (ready means the worker's frames are drawn); released, it is.
// The old page drew nothing until the worker's first frame.
func TestFirstPictureBeforeTheWorker(t *testing.T) {
	tb := newTab(t, true)
	if err := chromedp.Do(tb.ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holdWorker})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(serverURL)); err != nil {
		t.Fatal(err)
	}
	tb.poll(`window.schedplay && window.schedplay.stats && window.schedplay.stats().first_frame_ms > 0`, readyTimeout)
	// The worker has spoken by now (its first frame follows the page's
	// load by a few hundred ms); what it said is held.
	tb.poll(`window.__heldMessages() > 0`, readyTimeout)
	var st struct {
		First    float64 `json:"first_frame_ms"`
		FirstSim float64 `json:"first_sim_frame_ms"`
		Painted  int     `json:"painted"`
	}
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.stats()`), &st); err != nil {
		t.Fatal(err)
	}
	t.Logf("held: first frame %.0f ms, worker's frame %.0f ms, %d painted, %d messages held", st.First, st.FirstSim, st.Painted, eval[int](tb, `window.__heldMessages()`))
	if st.FirstSim != 0 || st.Painted == 0 {
		t.Errorf("with the worker held: first_sim_frame_ms %v (want 0), painted %d (want > 0)", st.FirstSim, st.Painted)
	}
	if eval[bool](tb, `window.schedplay.ready === true`) {
		t.Error("ready before any frame of the worker's was drawn")
	}
	if !eval[bool](tb, `document.getElementById("loading").hidden`) {
		t.Error(`the "Loading the simulator…" notice still covers the first picture`)
	}
	frac, colours, stage, _ := tb.stageCoverage()
	t.Logf("first picture, stage %dx%d: %.0f%% of pixels are not background, %d distinct colours", stage.Dx(), stage.Dy(), frac*100, colours)
	if frac < 0.3 || colours < 6 {
		t.Errorf("the first picture covers %.0f%% of the stage in %d colours: the machine is not drawn", frac*100, colours)
	}

	eval[chromedp.Void](tb, `window.__releaseWorker()`)
	tb.waitReady()
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.stats()`), &st); err != nil {
		t.Fatal(err)
	}
	if st.FirstSim < st.First {
		t.Errorf("the worker's first frame drawn at %.0f ms, before the first frame at %.0f ms", st.FirstSim, st.First)
	}
	tb.opsGrow(readyTimeout)
}
