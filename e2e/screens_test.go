//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The canvas in headless Chromium: what a room sees, at 2, 80 and 256 CPUs,
// normal and talk mode (and A/B), and the frame rate for the 80-CPU tbench
// preset and the 256-CPU machine.
//
// Environment:
//
//	SCHEDPLAY_SCREENS  if set, a directory: TestScreens writes
//	                   screenshot-<name>.png there (make screens: docs/)

// screen is one picture: a preset, fields changed with set(), the keys
// pressed on the page, and the speed.
type screen struct {
	name   string
	preset string
	sets   [][2]string
	keys   string // pressed in order: "t" talk mode, "a" A/B
	speed  float64
	wait   time.Duration
}

var bigMachine = [][2]string{{"machine.cores_per_cluster", "32"}, {"tasks.client.count", "100"}}

var screens = []screen{
	{name: "2cpu", preset: "pelt-pingpong", speed: 0.01},
	{name: "2cpu-talk", preset: "pelt-pingpong", speed: 0.01, keys: "t"},
	{name: "80cpu", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001},
	{name: "80cpu-talk", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001, keys: "t"},
	{name: "80cpu-ab", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001, keys: "a"},
	{name: "256cpu", preset: "tbench-pairs", sets: bigMachine, speed: 0.001},
	{name: "256cpu-talk", preset: "tbench-pairs", sets: bigMachine, speed: 0.001, keys: "t"},
	// v2.6.8: the O(1) priority arrays drawn in place of PELT bars (issue 17):
	// make -j32 with 1 s jobs, two per CPU, which take turns through the
	// expired array once their first timeslices are used (after ~100 ms).
	{name: "numaq-v268", preset: "kernbench-numaq", sets: [][2]string{{"policy.base", "v2.6.8"}, {"tasks.cc.program[2].run", "1s"}}, speed: 0.05},
}

type pageStats struct {
	FPS     float64 `json:"fps"`
	FrameMS float64 `json:"frame_ms"`
	SimRTF  float64 `json:"sim_rtf"`
}

func (tb *tab) stats() pageStats {
	tb.t.Helper()
	var st pageStats
	if err := json.Unmarshal(eval[[]byte](tb, `window.schedplay.stats()`), &st); err != nil {
		tb.t.Fatal(err)
	}
	return st
}

// press sends a key to the page as a user would (keydown on the document).
func (tb *tab) press(key string) {
	tb.t.Helper()
	eval[chromedp.Void](tb, fmt.Sprintf(`document.body.dispatchEvent(new KeyboardEvent("keydown", {key: %s, bubbles: true, cancelable: true}))`, jsString(key)))
}

// setUp loads the screen's scenario, changes its fields and presses its keys.
func (tb *tab) setUp(sc screen) {
	tb.t.Helper()
	if r := eval[apiResult](tb, fmt.Sprintf(`window.schedplay.loadPreset(%s)`, jsString(sc.preset))); !r.OK {
		tb.t.Fatalf("loadPreset(%s): %s", sc.preset, r.Error)
	}
	for _, kv := range sc.sets {
		if r := eval[apiResult](tb, fmt.Sprintf(`window.schedplay.set(%s, %s)`, jsString(kv[0]), jsString(kv[1]))); !r.OK {
			tb.t.Fatalf("set(%s, %s): %s", kv[0], kv[1], r.Error)
		}
	}
	if r := eval[apiResult](tb, fmt.Sprintf(`window.schedplay.setSpeed(%g)`, sc.speed)); !r.OK {
		tb.t.Fatalf("setSpeed: %s", r.Error)
	}
	for _, k := range sc.keys {
		tb.press(string(k))
	}
}

// showEditor shows or hides the page's scenario editor (its own button).
func (tb *tab) showEditor(on bool) {
	tb.t.Helper()
	eval[chromedp.Void](tb, fmt.Sprintf(`(() => { const b = document.getElementById("toggle-editor"); if (b && document.body.classList.contains("no-editor") === %v) b.click(); })()`, on))
}

// frameRates reads stats() once a second, n times: the frame rate under a
// software GL varies from second to second.
func (tb *tab) frameRates(n int) rates {
	var r rates
	for range n {
		time.Sleep(time.Second)
		st := tb.stats()
		r.fps = append(r.fps, st.FPS)
		r.ms = append(r.ms, st.FrameMS)
	}
	return r
}

type rates struct{ fps, ms []float64 }

func (r rates) String() string {
	fps := slices.Clone(r.fps)
	ms := slices.Clone(r.ms)
	slices.Sort(fps)
	slices.Sort(ms)
	if len(fps) == 0 {
		return "none"
	}
	return fmt.Sprintf("median %.1f (%.1f..%.1f), frame_ms median %.2f", fps[len(fps)/2], fps[0], fps[len(fps)-1], ms[len(ms)/2])
}

// measure lets the page play for d and returns the frame rate stats()
// reports over the last full second.
func (tb *tab) measure(d time.Duration) pageStats {
	time.Sleep(d)
	return tb.stats()
}

func TestScreens(t *testing.T) {
	dir := os.Getenv("SCHEDPLAY_SCREENS")
	tb := newTab(t, false)
	tb.open(serverURL)
	// The default tbench preset (one pair on the 4x10x2 machine) as the
	// page opens: the frame rate the issue asks for.
	time.Sleep(2 * time.Second)
	fr := tb.frameRates(5)
	t.Logf("tbench-pairs preset, page as opened: fps %s", fr)
	if dir != "" {
		// The pictures show the machine without the editor beside it.
		tb.showEditor(false)
		time.Sleep(time.Second)
		t.Logf("tbench-pairs preset, editor hidden: fps %s", tb.frameRates(5))
	}
	// The performance issue's live case: 40 client/server pairs on the
	// 80-CPU machine asked to run at real time while drawing. sim_rtf is
	// what the browser achieves (a figure for docs/performance.md).
	tb.setUp(screen{preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "40"}}, speed: 1})
	time.Sleep(4 * time.Second)
	live := tb.stats()
	t.Logf("tbench-pairs with 40 pairs at speed 1 (real time asked): sim %.3gx real time, %.1f fps, %.1f ms of work per frame", live.SimRTF, live.FPS, live.FrameMS)
	if live.SimRTF <= 0 {
		t.Errorf("stats().sim_rtf = %v while playing", live.SimRTF)
	}
	for _, sc := range screens {
		if dir == "" && !strings.HasSuffix(sc.name, "talk") && sc.name != "80cpu" && sc.name != "256cpu" {
			continue // without a directory: only what the frame rates need, and talk mode
		}
		if dir != "" {
			// Talk mode hides the editor by itself; elsewhere it is hidden
			// for the pictures.
			tb.showEditor(strings.Contains(sc.keys, "t"))
		}
		tb.setUp(sc)
		st := tb.measure(3 * time.Second)
		t.Logf("%s: fps %s", sc.name, tb.frameRates(3))
		if st.FPS <= 0 {
			t.Errorf("%s: stats().fps = %v", sc.name, st.FPS)
		}
		if e := eval[string](tb, `window.schedplay.error()`); e != "" {
			t.Errorf("%s: error() = %q", sc.name, e)
		}
		// The stage (where the page lets the canvas show) is covered.
		frac, colours, stage, shot := tb.stageCoverage()
		t.Logf("%s: %.0f%% of the %dx%d stage drawn, %d colours", sc.name, frac*100, stage.Dx(), stage.Dy(), colours)
		if frac < 0.35 || colours < 12 {
			t.Errorf("%s: the stage looks blank: %.0f%% drawn, %d colours", sc.name, frac*100, colours)
		}
		if dir != "" {
			path := dir
			if !filepath.IsAbs(path) {
				path = filepath.Join("..", path) // relative to the repository, not e2e/
			}
			path = filepath.Join(path, "screenshot-"+sc.name+".png")
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", path)
		}
		// Undo the keys: talk mode and A/B are toggles.
		for _, k := range sc.keys {
			tb.press(string(k))
		}
	}
}

// TestKeys drives the canvas's keys as a presenter would and checks the
// session follows: Space, →, + and −, P (pause at the next migration),
// A (A/B with the preset's default comparison), N (next preset), T (talk).
func TestKeys(t *testing.T) {
	tb := newTab(t, false)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	eval[chromedp.Void](tb, `document.activeElement && document.activeElement.blur()`)

	tb.press(" ")
	tb.poll(`window.schedplay.state().playing === false`, 5*time.Second)
	tb.settle() // where the worker paused
	before := eval[float64](tb, `window.schedplay.state().now_ms`)
	tb.press("ArrowRight")
	// One frame (1/60 s) of simulated time at 1 ms/s: 16.7 µs.
	tb.poll(fmt.Sprintf(`Math.abs(window.schedplay.state().now_ms - %v - 0.0166) < 0.001`, before), 5*time.Second)

	tb.press("+")
	tb.poll(`window.schedplay.state().speed === 0.002`, 5*time.Second)
	tb.press("-")
	tb.press("-")
	tb.poll(`window.schedplay.state().speed === 0.0005`, 5*time.Second)
	tb.press("+")

	// P arms the pause; Space plays until the next migration, and the page's
	// last-move explanation is that migration.
	tb.press("p")
	tb.poll(`window.schedplay.pauseOnMove() === true`, 5*time.Second)
	stepped := eval[float64](tb, `window.schedplay.state().now_ms`)
	tb.press(" ")
	// It played: the clock moved on from the step (the simulator's worker
	// may reach the migration and pause before a poll sees it playing).
	tb.poll(`window.schedplay.state().now_ms > `+fmt.Sprint(stepped), 5*time.Second)
	tb.poll(`window.schedplay.state().playing === false`, 20*time.Second)
	tb.poll(`document.getElementById("last-move") && document.getElementById("last-move").textContent.includes("moved")`, 10*time.Second)
	tb.press("p")
	tb.poll(`window.schedplay.pauseOnMove() === false`, 5*time.Second)

	// A: A/B with the preset's comparison; A again: off.
	tb.press("a")
	tb.poll(`JSON.stringify(window.schedplay.compare()) === '["policy.select_idle_sibling=cpu_buddies"]'`, 5*time.Second)
	tb.press("a")
	tb.poll(`window.schedplay.compare().length === 0`, 5*time.Second)

	// T: talk mode on and off.
	tb.press("t")
	tb.poll(`window.schedplay.talk() === true`, 5*time.Second)
	tb.press("t")
	tb.poll(`window.schedplay.talk() === false`, 5*time.Second)

	// N: the next preset (presets are in name order; tbench-pairs is the last).
	first := eval[string](tb, `window.schedplay.presets()[0].title`)
	tb.press("n")
	tb.poll(`JSON.parse(window.schedplay.scenario()).title === `+jsString(first), 5*time.Second)

	// Keys typed into a text field are the field's.
	eval[chromedp.Void](tb, `(() => { const i = document.createElement("input"); i.id = "zz-keys"; document.body.appendChild(i); i.focus(); })()`)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("t")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if eval[bool](tb, `window.schedplay.talk()`) {
		t.Errorf("a T typed into a text field turned talk mode on")
	}
	if e := eval[string](tb, `window.schedplay.error()`); e != "" {
		t.Errorf("error() = %q after the keys", e)
	}
}
