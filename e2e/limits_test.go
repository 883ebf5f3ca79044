//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPageLimits: issue 18 in the browser. step(10 s) on a heavy scenario
// returns short with a message instead of freezing the tab; steps on until
// the work budget shows "stopped early" in the page's error line, keeps
// what was simulated (Play does not restart it), and metrics() says so.
// The server sends its security headers and the page works under them.
func TestPageLimits(t *testing.T) {
	tb := newTab(t, false)
	resp, err := http.Get(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" {
		t.Errorf("headers: %v", resp.Header)
	}
	tb.open(serverURL)
	tb.click("#pause")
	data, err := os.ReadFile("../testdata/hostile/run-fanout-4096.json")
	if err != nil {
		t.Fatal(err)
	}
	if ok := eval[bool](tb, fmt.Sprintf(`window.schedplay.loadScenario(%s).ok`, jsString(string(data)))); !ok {
		t.Fatalf("loadScenario: %s", eval[string](tb, `window.schedplay.error()`))
	}
	// The simulator runs in the page's worker: step returns the time it
	// aims at at once, and the worker's state once settled() resolves.
	start := time.Now()
	if aim := eval[float64](tb, `window.schedplay.step(10000)`); aim != 10000 {
		t.Errorf("step(10000) aims at %v ms", aim)
	}
	tb.settle()
	now := eval[float64](tb, `window.schedplay.state().now_ms`)
	t.Logf("step(10000) reached %.3f ms after %v", now, time.Since(start))
	if now >= 10000 || !strings.Contains(eval[string](tb, `window.schedplay.error()`), "step again") {
		t.Fatalf("step(10000) reached %v ms; error %q", now, eval[string](tb, `window.schedplay.error()`))
	}
	// 10^9 work units at 5*10^6 a call: about 200 calls, 50 at a time.
	for i := 0; i < 10 && !strings.Contains(eval[string](tb, `window.schedplay.error()`), "stopped early"); i++ {
		eval[chromedp.Void](tb, `for (let i = 0; i < 50; i++) window.schedplay.step(10000)`)
		tb.settleWithin(5 * time.Minute) // 2.5*10^8 work units
		now = eval[float64](tb, `window.schedplay.state().now_ms`)
	}
	msg := eval[string](tb, `window.schedplay.error()`)
	if !strings.Contains(msg, "stopped early") || !strings.Contains(msg, "work units") {
		t.Fatalf("after the budget: error %q", msg)
	}
	tb.poll(`document.getElementById("error").textContent.includes("stopped early")`, 10*time.Second)
	if s := eval[string](tb, `window.schedplay.metrics().stopped`); !strings.Contains(s, "budget") {
		t.Errorf("metrics().stopped = %q", s)
	}
	eval[any](tb, `window.schedplay.play()`)
	tb.settle()
	time.Sleep(500 * time.Millisecond)
	if again := eval[float64](tb, `window.schedplay.state().now_ms`); again != now {
		t.Errorf("after play(): %v ms, was %v (restarted?)", again, now)
	}
	if out := os.Getenv("SCHEDPLAY_LIMITS_SHOT"); out != "" {
		if shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(out, shot, 0o644)
		}
	}
}
