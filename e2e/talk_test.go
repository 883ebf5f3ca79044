//go:build !js

package e2e

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const kbEscape = kb.Escape

// TestTalkAt720: talk mode at 1280x720: no page text under 18 px, Escape
// leaves it, and the QR code of the link (button or Q) decodes to the link
// with the view (issue 20, 8 and 6).
func TestTalkAt720(t *testing.T) {
	tb := newTab(t, true)
	tb.emulate(viewports[3])
	tb.open(serverURL)
	tb.click("#talk")
	tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	tb.poll(`document.getElementById("talk-strip").textContent.includes("ops/s")`, 10*time.Second)
	small := tb.smallTexts(18)
	for _, s := range small {
		t.Errorf("talk mode text %s", s)
	}
	time.Sleep(time.Second)
	st := tb.rectOf("#stage")
	t.Logf("talk mode at 1280x720: stage %.0fx%.0f at (%.0f,%.0f), %.0f%% of the viewport", st.W, st.H, st.X, st.Y, st.W*st.H/(1280*720)*100)
	frac, colours := tb.stageShot("talk-1280x720.png", 1)
	if frac < 0.3 || colours < 8 {
		t.Errorf("talk mode at 1280x720: %.0f%% of the stage drawn, %d colours", frac*100, colours)
	}

	// The QR code. The link carries the current time (issue 22), so the
	// run is paused first: the QR code made on the click and the link read
	// here are then the same moment's.
	eval[chromedp.Void](tb, `window.schedplay.pause()`)
	tb.settle()
	want := eval[string](tb, `window.schedplay.shareLink(true)`)
	tb.click("#qr-button")
	tb.poll(`!document.getElementById("qr-overlay").hidden && document.getElementById("qr-img").complete && document.getElementById("qr-img").naturalWidth > 0`, 5*time.Second)
	src := eval[string](tb, `document.getElementById("qr-img").src`)
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(src, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if side := tb.rectOf("#qr-img").H; side < 0.6*720 {
		t.Errorf("the QR code is %.0f px tall on a 720 px screen", side)
	}
	shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join("out", "talk-qr-1280x720.png"), shot, 0o644)
	if zbar, err := exec.LookPath("zbarimg"); err == nil {
		// What the room sees: the screenshot, read by an independent reader.
		out, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", filepath.Join("out", "talk-qr-1280x720.png")).Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != want {
			t.Errorf("zbarimg read %q (%v) from the screen, want the link %q", got, err, want)
		}
	} else {
		t.Logf("zbarimg not installed: the %dx%d QR image is not decoded here (internal/qr tests the encoder)", im.Bounds().Dx(), im.Bounds().Dy())
	}
	// Escape closes the QR code, a second Escape leaves talk mode.
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kbEscape)); err != nil {
		t.Fatal(err)
	}
	tb.poll(`document.getElementById("qr-overlay").hidden`, 5*time.Second)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(kbEscape)); err != nil {
		t.Fatal(err)
	}
	tb.poll(`!document.documentElement.classList.contains("talk")`, 5*time.Second)
}
