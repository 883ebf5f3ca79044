//go:build !js

package e2e

import (
	"fmt"
	"math"
	"testing"
	"time"
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
	t0 := eval[float64](tb, `window.schedplay.state().now_ms`)
	tb.click("#step")
	tb.poll(fmt.Sprintf(`window.schedplay.state().now_ms > %v`, t0), 5*time.Second)
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
