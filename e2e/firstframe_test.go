//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
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
	send(tb, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: holdWorker})
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

// TestWorkerStartOrder: when the worker gets the module depends on the
// cores the browser reports (web/loader.js workerFirst). With more than
// two, it is posted before the page's instantiation and the page's Go
// starts after the worker's answer (the two Go starts side by side); with
// two, it is posted after the page's first picture (on two cores the
// worker's start only slowed the page's: docs/performance.md, round
// thirty-six). Either way the worker answers, draws, and the page gets
// ready. The cores are set by CDP (Emulation.setHardwareConcurrencyOverride),
// so both orders run on any machine.
func TestWorkerStartOrder(t *testing.T) {
	for _, cores := range []int64{8, 2} {
		t.Run(fmt.Sprintf("%d cores", cores), func(t *testing.T) { workerStartOrder(t, cores) })
	}
}

// workerStartOrder is one of TestWorkerStartOrder's cases: a fresh page
// whose navigator reports cores.
func workerStartOrder(t *testing.T, cores int64) {
	tb := newTab(t, true)
	send(tb, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: cores})
	tb.open(serverURL)
	if got := eval[int64](tb, `navigator.hardwareConcurrency`); got != cores {
		t.Fatalf("navigator.hardwareConcurrency = %d with the override at %d", got, cores)
	}
	marks := eval[map[string]float64](tb, `Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("schedplay:")).map((m) => [m.name.slice(10), m.startTime]))`)
	first := eval[float64](tb, `window.schedplay.stats().first_frame_ms`)
	t.Logf("%d cores: first frame %.0f ms; marks %v", cores, first, marks)
	posted, okP := marks["worker-posted"]
	booting, okB := marks["worker-booting"]
	inst, main := marks["instantiated"], marks["main"]
	if !okP || !okB || inst == 0 || main == 0 {
		t.Errorf("%d cores: marks worker-posted, worker-booting, instantiated and main all wanted; got %v", cores, marks)
		return
	}
	if cores > 2 {
		// The page's Go waits for the answer at most 2 s (workerBooting).
		if posted > inst || (booting > main && booting-posted < 1900) {
			t.Errorf("%d cores: the module was posted at %.0f ms (instantiated %.0f) and answered at %.0f (the page's Go at %.0f): want both before", cores, posted, inst, booting, main)
		}
	} else if posted < first {
		// Unless the picture was 3 s late (loader.js FIRST_FRAME_WAIT_MS).
		if posted-inst < 2900 {
			t.Errorf("%d cores: the module was posted at %.0f ms, before the page's first picture at %.0f (instantiated at %.0f)", cores, posted, first, inst)
		} else {
			t.Logf("%d cores: the module was posted %.0f ms after the instantiation, the first picture not drawn yet (the wait's bound)", cores, posted-inst)
		}
	}
}
