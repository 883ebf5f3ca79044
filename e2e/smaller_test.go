//go:build !js

package e2e

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The "Smaller" list of issue 20: the step button says what it steps (the
// → key's one frame of playing, not a fixed 0.1 ms), and a CPU filter that
// is no number says so.
func TestSmaller(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.001)`); !r.OK {
		t.Fatal(r.Error)
	}
	tb.click("#pause")
	tb.poll(`document.getElementById("step").textContent === "+16.7 µs"`, 5*time.Second)
	// The simulator runs in a worker: read the clock once it applied the pause.
	settle := func() {
		eval[chromedp.Void](tb, `window.__settled = false; window.schedplay.settled().then(() => { window.__settled = true; })`)
		tb.poll(`window.__settled === true`, 10*time.Second)
	}
	settle()
	t0 := eval[float64](tb, `window.schedplay.state().now_ms`)
	tb.click("#step")
	settle()
	if d := eval[float64](tb, `window.schedplay.state().now_ms`) - t0; math.Abs(d-1.0/60) > 1e-6 {
		t.Errorf("the step button advanced %.6f ms, its label says 0.0167", d)
	}
	if r := eval[apiResult](tb, `window.schedplay.setSpeed(0.1)`); !r.OK {
		t.Fatal(r.Error)
	}
	tb.poll(`document.getElementById("step").textContent === "+1.67 ms"`, 5*time.Second)

	tb.typeInto("#log-cpu", "abc")
	tb.poll(`!document.getElementById("log-cpu-error").hidden && document.getElementById("log-cpu-error").textContent.includes("not a CPU number")`, 5*time.Second)
	tb.typeInto("#log-cpu", "3")
	tb.poll(`document.getElementById("log-cpu-error").hidden`, 5*time.Second)
}

// TestTooltip: the mouse over a CPU of the canvas shows its state and PELT
// values in a tooltip; off the machine none (issue 20: hover or tap a CPU
// or a task).
func TestTooltip(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.click(`#presets .preset[data-preset="pelt-pingpong"]`)
	time.Sleep(2 * time.Second)
	st := tb.rectOf("#stage")
	shown := ""
	for i := 1; i < 8 && shown == ""; i++ {
		for j := 1; j < 6 && shown == ""; j++ {
			x, y := st.X+st.W*float64(i)/8, st.Y+st.H*0.6*float64(j)/6
			if err := chromedp.Do(tb.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(150 * time.Millisecond)
			if eval[bool](tb, `!document.getElementById("tip").hidden`) {
				shown = eval[string](tb, `document.getElementById("tip").textContent`)
			}
		}
	}
	t.Logf("tooltip: %q", shown)
	if !strings.Contains(shown, "nr_running") && !strings.Contains(shown, "util_avg") {
		t.Fatalf("no CPU tooltip over the machine (got %q)", shown)
	}
	if err := chromedp.Do(tb.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 5, 5)); err != nil {
		t.Fatal(err)
	}
	tb.poll(`document.getElementById("tip").hidden`, 5*time.Second)
}
