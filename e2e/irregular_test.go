//go:build !js

package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/interop"
	"schedplay/scenarios"
)

// TestIrregularMachine loads a machine given per CPU (2 x EPYC 7451 in
// NPS4, from its lscpu -p: 8 nodes of 6 SMT2 cores, two 3-core L3s a node,
// with cpu 95 offline) with a workload, lets it play, and checks the page
// draws it without an error. SCHEDPLAY_IRREGULAR_SHOT, when set, is where
// the screenshot goes (docs/screenshot-irregular.png in the docs).
func TestIrregularMachine(t *testing.T) {
	data, err := os.ReadFile("../interop/testdata/lscpu-epyc7451-2s-nps4.txt")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("\n95,"), []byte("\n#95,"), 1) // offline
	sc, _, err := interop.LscpuScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.Tasks = []scenarios.Task{{Name: "duty", Count: 60, Program: []scenarios.Step{{Run: "6ms"}, {Timer: "10ms"}}}}
	if err := sc.Set("title", "2 x EPYC 7451 (NPS4), cpu95 offline"); err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, false)
	tb.open(serverURL)
	r := eval[apiResult](tb, `window.schedplay.loadScenario(`+jsString(string(sc.Canonical()))+`)`)
	if !r.OK {
		t.Fatalf("loadScenario: %s", r.Error)
	}
	eval[apiResult](tb, `window.schedplay.setSpeed(0.05)`)
	eval[chromedp.Void](tb, `window.schedplay.play()`)
	time.Sleep(3 * time.Second)
	if e := eval[string](tb, `window.schedplay.error()`); e != "" {
		t.Fatalf("error() = %q", e)
	}
	m := tb.metrics()
	if m.SimMS <= 0 || m.Ops <= 0 || m.Title != "2 x EPYC 7451 (NPS4), cpu95 offline" {
		t.Errorf("metrics: %+v", m)
	}
	shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	frac, colours := coverage(img, image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Max.Y))
	t.Logf("%.0f%% of the page drawn, %d colours, ops %d", frac*100, colours, m.Ops)
	if frac < 0.3 || colours < 12 {
		t.Errorf("the page looks blank: %.0f%% drawn, %d colours", frac*100, colours)
	}
	if p := os.Getenv("SCHEDPLAY_IRREGULAR_SHOT"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join("..", p)
		}
		if err := os.WriteFile(p, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", p)
	}
}
