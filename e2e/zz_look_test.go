//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZLookAll(t *testing.T) {
	for _, p := range []string{"tbench-pairs", "pgbench-1toN", "aim9-burst", "eligible-migration", "overload-on-wakeup", "pelt-pingpong", "sdet-numaq", "kernbench-numaq"} {
		tb := newTab(t, true)
		tb.emulate(viewports[3])
		tb.open(serverURL)
		if r := eval[apiResult](tb, `window.schedplay.loadPreset(`+jsString(p)+`)`); !r.OK {
			t.Fatal(r)
		}
		tb.click("#talk")
		tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
		n := eval[int](tb, `window.schedplay.chapters().captions.length`)
		for i := 1; i <= n; i++ {
			tb.press("PageDown")
			tb.poll(fmt.Sprintf(`window.schedplay.chapters().current === %d`, i), 60*time.Second)
			time.Sleep(2 * time.Second)
			buf, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join("out", fmt.Sprintf("zz-%s-%d.png", p, i)), buf, 0o644)
			t.Logf("%s chapter %d: now %v ms, strip %q", p, i, tb.timeline().NowMS, eval[string](tb, `document.getElementById("talk-strip").textContent`))
		}
	}
}
