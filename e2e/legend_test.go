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
)

// The canvas draws nothing in the stage's side margins (issue 20): the
// canvas lays out the stage 10 px inside #stage on each side, so a mark in
// those margins is one drawn past the canvas' stage: the legend's long
// "cache distance crossed (…)" ran 12 px past a 370 px stage, cut off by
// the page's edge or the panel beside it. At the phones' sizes, and on a
// desktop window with the editor and the panel open (a 370 px stage tall
// enough for the legend). Screenshots: e2e/out/legend-<name>.png.
func TestLegendInStage(t *testing.T) {
	for _, v := range []struct {
		viewport
		editor bool
	}{
		{viewport: viewport{"phone-portrait", 390, 844, 3, true}},
		{viewport: viewport{"phone-small", 360, 640, 3, true}},
		{viewport: viewport{"phone-landscape", 844, 390, 3, true}},
		{viewport{"desktop-editor", 1040, 1000, 1, false}, true},
	} {
		t.Run(v.name, func(t *testing.T) {
			tb := newTab(t, true)
			tb.openAt(v.viewport)
			if v.editor {
				tb.showEditor(true)
				tb.poll(`!document.body.classList.contains("no-editor")`, 5*time.Second)
			}
			time.Sleep(1500 * time.Millisecond)
			st := tb.rectOf("#stage")
			shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll("out", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("out", "legend-"+v.name+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			k := float64(img.Bounds().Dx()) / eval[float64](tb, `innerWidth`)
			// The margins, 1 px in from each edge of the canvas' stage and
			// of #stage (the drawer's rounding), over the stage's height.
			const margin = 10
			for _, side := range []struct {
				name   string
				x0, x1 float64
			}{
				{"left", st.X + 1, st.X + margin - 1},
				{"right", st.X + st.W - margin + 1, st.X + st.W - 1},
			} {
				r := image.Rect(int(side.x0*k), int(st.Y*k), int(side.x1*k), int((st.Y+st.H)*k))
				frac, _ := coverage(img, r)
				t.Logf("%s: stage %.0fx%.0f at (%.0f,%.0f); %s margin %.2f%% drawn", v.name, st.W, st.H, st.X, st.Y, side.name, frac*100)
				if frac > 0 {
					t.Errorf("%s: %.2f%% of the stage's %s margin is drawn on: something runs past the canvas' stage (see out/legend-%s.png)", v.name, frac*100, side.name, v.name)
				}
			}
		})
	}
}
