//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/scenarios"
	"schedplay/sim"
)

type seekStats struct {
	FromMS      float64 `json:"from_ms"`
	ToMS        float64 `json:"to_ms"`
	RestoredMS  float64 `json:"restored_ms"`
	ResimMS     float64 `json:"resim_ms"`
	NewMS       float64 `json:"new_ms"`
	ResimEvents int64   `json:"resim_events"`
	Short       bool    `json:"short"`
}

type timelineInfo struct {
	NowMS        float64   `json:"now_ms"`
	DurationMS   float64   `json:"duration_ms"`
	FrontierMS   float64   `json:"frontier_ms"`
	IntervalMS   float64   `json:"interval_ms"`
	Checkpoints  int       `json:"checkpoints"`
	CheckpointMB float64   `json:"checkpoint_mb"`
	Marks        [][]int32 `json:"marks"`
	Colors       []string  `json:"colors"`
	LastSeek     seekStats `json:"last_seek"`
}

// evalAwait evaluates a JS expression whose value is a Promise and decodes
// what it resolves to.
func evalAwait[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (tb *tab) timeline() timelineInfo {
	tb.t.Helper()
	tb.settle()
	var ti timelineInfo
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.timeline()`), &ti); err != nil {
		tb.t.Fatal(err)
	}
	return ti
}

// cliHash is the CLI's trace hash of a preset run with -set duration=D.
func cliHash(t *testing.T, preset string, d string) string {
	t.Helper()
	out, err := exec.Command("go", "run", "../cmd/schedsim", "run", "-json", "-set", "duration="+d, preset).Output()
	if err != nil {
		t.Fatalf("schedsim run: %v", err)
	}
	var m struct {
		TraceHash string `json:"trace_hash"`
	}
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return m.TraceHash
}

// The timeline: after 300 ms played, seek(50) lands on the CLI's 50 ms run
// (trace hash); ← steps back to a fresh run's state; previous / next
// migration; a click on the scrubber seeks there.
func TestSeek(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`)
	eval[chromedp.Void](tb, `window.schedplay.pause()`)
	for range 3 {
		eval[float64](tb, `window.schedplay.step(100)`)
	}
	now := tb.timeline().NowMS // the worker may have played a little before the pause
	if now < 300 {
		t.Fatalf("played to %v ms, want 300 (%s)", now, eval[string](tb, `window.schedplay.error()`))
	}
	if got := eval[float64](tb, `window.schedplay.seek(50)`); got != 50 {
		t.Fatalf("seek(50) = %v", got)
	}
	want := cliHash(t, "tbench-pairs", "50ms")
	if got := tb.metrics().TraceHash; got != want {
		t.Errorf("after seek(50): trace hash %s, the CLI's run -json -set duration=50ms: %s", got, want)
	}
	ti := tb.timeline()
	t.Logf("seek(50): %+v; interval %v ms, %d checkpoints, %.2f MB", ti.LastSeek, ti.IntervalMS, ti.Checkpoints, ti.CheckpointMB)
	// ← steps back (one frame at the speed), to a fresh run's state.
	tb.press("ArrowLeft")
	tb.poll(`window.schedplay.timeline().now_ms < 50`, 10*time.Second)
	now = tb.timeline().NowMS
	if got, want := tb.metrics().TraceHash, nativeHash(t, tb.scenario(), now); got != want {
		t.Errorf("after ← (now %v ms): hash %s, a fresh run's %s", now, got, want)
	}
	// Next and previous migration.
	next := evalAwait[float64](tb, `window.schedplay.seekMigration(1)`)
	if next <= now {
		t.Errorf("next migration from %v ms: %v", now, next)
	}
	eval[float64](tb, fmt.Sprintf(`window.schedplay.seek(%g)`, next+3))
	prev := evalAwait[float64](tb, `window.schedplay.seekMigration(-1)`)
	if prev < next || prev >= next+3 {
		t.Errorf("previous migration from %v ms: %v, want in [%v, %v)", next+3, prev, next, next+3)
	}
	if got, want := tb.metrics().TraceHash, nativeHash(t, tb.scenario(), prev); got != want {
		t.Errorf("after previous migration (%v ms): hash %s, a fresh run's %s", prev, got, want)
	}
	// Marks of the 300 ms played: migrations, by cause.
	ti = tb.timeline()
	var marks int32
	for _, l := range ti.Marks {
		for _, n := range l {
			marks += n
		}
	}
	if marks == 0 || len(ti.Colors) != len(ti.Marks) {
		t.Errorf("timeline marks: %d migrations, %d colours for %d causes", marks, len(ti.Colors), len(ti.Marks))
	}
	// A click on the scrubber at a quarter of its width seeks there.
	var box struct{ X, Y, W, H float64 }
	if err := json.Unmarshal(eval[[]byte](tb, `(() => { const r = document.getElementById("tl-track").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`), &box); err != nil {
		t.Fatal(err)
	}
	if box.W < 100 || box.H < 30 {
		t.Fatalf("scrubber is %vx%v px", box.W, box.H)
	}
	if err := chromedp.Do(tb.ctx, chromedp.MouseClickXY(box.X+box.W/4, box.Y+box.H/2)); err != nil {
		t.Fatal(err)
	}
	tb.poll(`Math.abs(window.schedplay.timeline().now_ms - 250) < 20`, 10*time.Second)
	now = tb.timeline().NowMS
	if got, want := tb.metrics().TraceHash, nativeHash(t, tb.scenario(), now); got != want {
		t.Errorf("after a click on the scrubber (%v ms): hash %s, a fresh run's %s", now, got, want)
	}
}

// The 256-CPU machine (4x32x2, 20 tbench pairs, 10 s): after 9.5 s, a seek
// to 9 s re-simulates at most one checkpoint interval; the checkpoints
// stay under 64 MB.
func TestSeek256(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`)
	tb.click("#pause")
	for _, kv := range [][2]string{{"machine.cores_per_cluster", "32"}, {"tasks.client.count", "20"}, {"duration", "10s"}} {
		if r := eval[apiResult](tb, fmt.Sprintf(`window.schedplay.set(%s, %s)`, jsString(kv[0]), jsString(kv[1]))); !r.OK {
			t.Fatalf("set %v: %s", kv, r.Error)
		}
	}
	tb.click("#pause")
	start := time.Now()
	// Each seek simulates at most app.MaxSeekWork past the furthest time
	// played: seek again until there.
	for i := 0; i < 100; i++ {
		eval[float64](tb, `window.schedplay.seek(9500)`)
		if tb.timeline().NowMS == 9500 {
			break
		}
	}
	ti := tb.timeline()
	if ti.NowMS != 9500 {
		t.Fatalf("could not reach 9.5 s: %+v", ti)
	}
	t.Logf("simulated 9.5 s of 256 CPUs in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	eval[float64](tb, `window.schedplay.seek(9000)`)
	ti = tb.timeline()
	took := time.Since(start)
	t.Logf("seek(9000) took %v: %+v; interval %v ms, %d checkpoints, %.1f MB", took.Round(time.Millisecond), ti.LastSeek, ti.IntervalMS, ti.Checkpoints, ti.CheckpointMB)
	if ti.NowMS != 9000 || ti.LastSeek.RestoredMS < 0 || ti.LastSeek.ResimMS > ti.IntervalMS || math.IsNaN(ti.CheckpointMB) || ti.CheckpointMB >= 64 {
		t.Errorf("seek(9000): %+v, interval %v ms, %.1f MB", ti.LastSeek, ti.IntervalMS, ti.CheckpointMB)
	}
}

// A link with three chapters, opened in a fresh browser context: PageDown
// walks them, each showing its caption and applying its change (a time, an
// anchor event, a policy change with A/B); then the chapter in talk mode,
// dark and light (screenshots written to $SCHEDPLAY_DOCS when set).
func TestChaptersLink(t *testing.T) {
	sc := defaultScenario(t)
	chapters := []scenarios.Chapter{
		{Caption: "One: 10 ms into the run", Seek: "10ms"},
		{Caption: "Two: the 3rd wake-up migration of client/0", At: scenarios.Anchor{Event: "migrate", Cause: "wakeup", Task: "client/0", Nth: 3}, PauseOnMove: true},
		{Caption: "Three: CPU buddies, A/B against wake_affine off", Set: []string{"policy.select_idle_sibling=cpu_buddies"},
			Compare: []string{"policy.features.WAKE_AFFINE=false"}, Seek: "20ms"},
	}
	link := scenarios.EncodeLinkView(sc, scenarios.View{Chapters: chapters})
	tb := newTab(t, true)
	tb.open(serverURL + "#" + link)
	tb.poll(`!document.getElementById("chapter-bar").hidden`, 10*time.Second)
	// Where chapter two must land: the anchor, found natively.
	cfg, _ := sc.Config()
	sm, _ := sim.New(cfg)
	sm.SetRecording(true)
	var anchor int64 = -1
	for n := 0; anchor < 0 && sm.Step(); {
		for _, e := range sm.TakeEvents(nil) {
			if e.Kind == sim.EvMigrate && e.Cause == sim.CauseWakeup && sm.TaskName(int(e.Task)) == "client/0" {
				if n++; n == 3 {
					anchor = e.T
					break
				}
			}
		}
	}
	for i, c := range chapters {
		tb.press("PageDown")
		tb.poll(fmt.Sprintf(`window.schedplay.chapters().current === %d`, i+1), 20*time.Second)
		tb.poll(fmt.Sprintf(`document.getElementById("chapter-caption").textContent === %s`, jsString(c.Caption)), 5*time.Second)
		now := tb.timeline().NowMS
		switch i {
		case 0:
			if now != 10 {
				t.Errorf("chapter 1 at %v ms, want 10", now)
			}
		case 1:
			if int64(math.Round(now*1e6)) != anchor {
				t.Errorf("chapter 2 at %v ms, the 3rd wake-up migration of client/0 is at %d ns", now, anchor)
			}
			if !eval[bool](tb, `window.schedplay.pauseOnMove()`) {
				t.Error("chapter 2 did not arm the pause at the next migration")
			}
			if got, want := tb.metrics().TraceHash, nativeHash(t, sc, now); got != want {
				t.Errorf("chapter 2: hash %s, a fresh run's %s", got, want)
			}
		case 2:
			if got := tb.scenario().Policy.SelectIdleSibling; got != "cpu_buddies" || now != 20 {
				t.Errorf("chapter 3: select_idle_sibling %q at %v ms", got, now)
			}
			if got := eval[[]string](tb, `window.schedplay.compare()`); len(got) != 1 || got[0] != chapters[2].Compare[0] {
				t.Errorf("chapter 3: compare %v", got)
			}
		}
	}
	// The link now carries the chapter and the time.
	v, ok, err := scenarios.LinkView(eval[string](tb, `window.schedplay.shareLink(true)`))
	if err != nil || !ok || v.Chapter != 3 || v.TimeMS != 20 || len(v.Chapters) != 3 {
		t.Errorf("shareLink(true) view: chapter %d time %v chapters %d (%v)", v.Chapter, v.TimeMS, len(v.Chapters), err)
	}
	// PageUp goes back: chapter two, the link's policy again, A/B off.
	tb.press("PageUp")
	tb.poll(`window.schedplay.chapters().current === 2`, 20*time.Second)
	if got := tb.scenario().Policy.SelectIdleSibling; got == "cpu_buddies" {
		t.Errorf("back in chapter 2, select_idle_sibling is still %q", got)
	}
	// Talk mode, dark then light (key L): the caption large.
	tb.press("t")
	tb.poll(`document.documentElement.classList.contains("talk")`, 5*time.Second)
	size := eval[float64](tb, `parseFloat(getComputedStyle(document.getElementById("chapter-caption")).fontSize)`)
	if size < 30 {
		t.Errorf("talk mode caption is %v px", size)
	}
	dir := os.Getenv("SCHEDPLAY_DOCS")
	time.Sleep(1500 * time.Millisecond)
	if dir != "" {
		writeShot(t, tb, filepath.Join(dir, "screenshot-chapter-talk-dark.png"))
	}
	tb.press("l")
	tb.poll(`document.documentElement.classList.contains("projector")`, 5*time.Second)
	if got := eval[string](tb, `window.schedplay.theme()`); got != "light" {
		t.Errorf("theme after L: %q", got)
	}
	bg := eval[string](tb, `getComputedStyle(document.getElementById("top")).backgroundColor`)
	if bg != "rgb(255, 255, 255)" {
		t.Errorf("light theme: the header's background is %s", bg)
	}
	time.Sleep(1500 * time.Millisecond)
	if dir != "" {
		writeShot(t, tb, filepath.Join(dir, "screenshot-chapter-talk-light.png"))
	}
	// The canvas is light too: the stage's background, just inside it.
	shot, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ X, Y float64 }
	json.Unmarshal(eval[[]byte](tb, `(() => { const r = document.getElementById("stage").getBoundingClientRect(); return {X: r.left + 4, Y: r.top + 4}; })()`), &st)
	dpr := float64(img.Bounds().Dx()) / eval[float64](tb, `document.documentElement.clientWidth`)
	r, g, b, _ := img.At(int(st.X*dpr), int(st.Y*dpr)).RGBA()
	if r>>8 < 200 || g>>8 < 200 || b>>8 < 200 {
		t.Errorf("light theme: the canvas at the stage's corner is rgb(%d, %d, %d)", r>>8, g>>8, b>>8)
	}
	// The editor records the current state as a fourth chapter.
	tb.press("t") // out of talk mode: the editor shows
	tb.poll(`!document.documentElement.classList.contains("talk")`, 5*time.Second)
	tb.showEditor(true)
	tb.fill("#chapter-new", "Four: recorded here")
	tb.click("#chapter-record")
	tb.poll(`window.schedplay.chapters().current === 4`, 10*time.Second)
	if got := eval[string](tb, `document.getElementById("chapter-status").textContent`); got != "Recorded as chapter 4." {
		t.Errorf("record: %q", got)
	}
	v, _, _ = scenarios.LinkView(eval[string](tb, `window.schedplay.shareLink(true)`))
	if len(v.Chapters) != 4 || v.Chapters[3].Caption != "Four: recorded here" || v.Chapters[3].At != (scenarios.Anchor{}) {
		t.Errorf("recorded chapter in the link: %+v", v.Chapters)
	}
}
