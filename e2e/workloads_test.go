//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/scenarios"
)

// TestStructuredPresets: the seed-004 presets, whose tasks are forked,
// exec and exit as the run goes, play in the page to the same trace as a
// native run, with their forks and exits in metrics(); the canvas is
// written to e2e/out/ for a look (tasks appear in cells and leave).
func TestStructuredPresets(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	for _, name := range []string{"sdet-numaq", "kernbench-numaq"} {
		if r := eval[apiResult](tb, fmt.Sprintf(`window.schedplay.loadPreset(%s)`, jsString(name))); !r.OK {
			t.Fatalf("loadPreset(%s): %s", name, r.Error)
		}
		const ms = 60
		m := tb.runFromStart(ms)
		var extra struct {
			Forks, Exits int64
			LiveTasksMax int     `json:"live_tasks_max"`
			CountsExits  bool    `json:"counts_exits"`
			LastExitMS   float64 `json:"last_exit_ms"`
		}
		if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.metrics()`), &extra); err != nil {
			t.Fatal(err)
		}
		if extra.Forks == 0 || extra.Exits == 0 || m.Migrations["exec"] == 0 {
			t.Errorf("%s in the page: forks %d, exits %d, exec migrations %d", name, extra.Forks, extra.Exits, m.Migrations["exec"])
		}
		sc, err := scenarios.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if h := nativeHash(t, sc, ms); h != m.TraceHash {
			t.Errorf("%s: page trace %s, native %s", name, m.TraceHash, h)
		}
		if e := eval[string](tb, `window.schedplay.error()`); e != "" {
			t.Errorf("%s: error() = %q", name, e)
		}
		// kernbench's make and jobs all exit, so it counts exits, and the
		// talk strip leads with them and the last exit; SDET's users loop.
		kern := name == "kernbench-numaq"
		if extra.CountsExits != kern || extra.LastExitMS <= 0 || extra.LastExitMS > ms {
			t.Errorf("%s: counts_exits %v, last_exit_ms %v", name, extra.CountsExits, extra.LastExitMS)
		}
		want := fmt.Sprintf("%d tasks exited, the last at %.3f s · ", extra.Exits, extra.LastExitMS/1000)
		if !kern {
			want = "ops/s · "
		}
		tb.poll(fmt.Sprintf(`document.getElementById("talk-strip").textContent.replace(/\u2009/g, "").includes(%s)`, jsString(want)), 10*time.Second)
		shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		if err == nil {
			_ = os.MkdirAll("out", 0o755)
			_ = os.WriteFile(filepath.Join("out", name+"-page.png"), shot, 0o644)
		}
		t.Logf("%s at %d ms: %d ops, %d forks, %d exits, %d alive at most, trace %s (page and native)", name, ms, m.Ops, extra.Forks, extra.Exits, extra.LiveTasksMax, m.TraceHash)
	}
}
