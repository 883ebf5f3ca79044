package canvas

import (
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"schedplay/app"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/render/raster"
	"schedplay/scenarios"
)

var preview = flag.String("preview", "", "write PNG previews of the canvas into this directory")

// shot is one picture: a scenario, changes to it, a mode, played for a while.
type shot struct {
	name    string
	preset  string
	sets    [][2]string
	talk    bool
	compare []string
	speed   float64
	frames  int
	stage   render.Rect
	pause   bool // arm the pause on the next migration
}

// Stages as the page gives them in a 1600x1000 window: normal mode with
// the editor open (narrow), with the editor hidden (wide), and talk mode
// (the panels hidden, a large title above).
var (
	normalStage = render.Rect{X: 550, Y: 142, W: 626, H: 850}
	wideStage   = render.Rect{X: 10, Y: 142, W: 1166, H: 850}
	talkStage   = render.Rect{X: 10, Y: 262, W: 1580, H: 730}
	// A phone (issue 20), as the page's narrow layout gives it: 390x844
	// portrait and 844x390 landscape, under the page's header.
	phoneStage     = render.Rect{X: 10, Y: 79, W: 370, H: 755}
	landscapeStage = render.Rect{X: 10, Y: 50, W: 824, H: 328}
)

// big is a 256-CPU machine (4 nodes x 32 cores x 2 threads) with 100 tbench pairs.
var big = [][2]string{{"machine.cores_per_cluster", "32"}, {"tasks.client.count", "100"}}

var shots = []shot{
	{name: "2cpu", preset: "pelt-pingpong", speed: 0.01, frames: 90, stage: normalStage},
	{name: "2cpu-talk", preset: "pelt-pingpong", speed: 0.01, frames: 90, stage: talkStage, talk: true},
	{name: "80cpu", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001, frames: 60, stage: normalStage},
	{name: "80cpu-talk", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001, frames: 60, stage: talkStage, talk: true},
	{name: "256cpu", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60, stage: normalStage},
	{name: "256cpu-talk", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60, stage: talkStage, talk: true},
	{name: "80cpu-wide", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001, frames: 60, stage: wideStage},
	{name: "80cpu-ab-wide", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: wideStage},
	{name: "256cpu-wide", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60, stage: wideStage},
	{name: "80cpu-ab", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: normalStage},
	{name: "80cpu-ab-talk", preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: talkStage, talk: true},
	{name: "overload", preset: "overload-on-wakeup", speed: 0.01, frames: 90, stage: wideStage},
	{name: "80cpu-phone", preset: "tbench-pairs", speed: 0.001, frames: 60, stage: phoneStage},
	{name: "80cpu-landscape", preset: "tbench-pairs", speed: 0.001, frames: 60, stage: landscapeStage},
	{name: "80cpu-landscape-talk", preset: "tbench-pairs", speed: 0.001, frames: 60, stage: landscapeStage, talk: true},
	{name: "80cpu-ab-landscape", preset: "tbench-pairs", compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: landscapeStage},
	{name: "256cpu-phone", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60, stage: phoneStage},
	// Phones in talk mode (the page's header and chapters above the
	// stage), 256 CPUs: cells too small for their numbers, so the glides'
	// badges name both ends ("128→130 LLC") and stuck out of the machine.
	{name: "256cpu-phone-talk", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60, stage: render.Rect{X: 10, Y: 245, W: 370, H: 508}, talk: true},
	{name: "256cpu-ab-landscape-talk", preset: "tbench-pairs", sets: big, compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: render.Rect{X: 10, Y: 130, W: 824, H: 205}, talk: true},
	{name: "pgbench-pause", preset: "pgbench-1toN", speed: 0.01, frames: 200, stage: talkStage, talk: true, pause: true},
	// NUMA moves on a wide, low machine (talk mode at 1280x720): their arcs
	// overshot the machine and left the stage before ArcLiftIn.
	{name: "numaq-talk-720", preset: "sdet-numaq", speed: 0.01, frames: 90, stage: talk720, talk: true},
}

// session loads sh's preset with its sets, A/B, talk mode and speed.
func session(t testing.TB, sh shot) *app.Session {
	t.Helper()
	sc, err := scenarios.Preset(sh.preset)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sh.sets {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	s := app.NewSession()
	if err := s.Load(sc, false); err != nil {
		t.Fatal(err)
	}
	if sh.compare != nil {
		if err := s.SetCompare(sh.compare); err != nil {
			t.Fatal(err)
		}
	}
	s.SetTalk(sh.talk)
	if err := s.SetSpeed(sh.speed); err != nil {
		t.Fatal(err)
	}
	s.SetBudget(time.Hour)
	return s
}

// play runs sh and returns a canvas built at the end, and the measure used.
func play(t testing.TB, sh shot, m render.Measure) *Canvas {
	t.Helper()
	s := session(t, sh)
	if sh.pause {
		// Run a while first, then stop at the next migration.
		for range sh.frames {
			s.Tick(time.Unix(0, 0), 33*time.Millisecond)
		}
		s.SetPauseOnMove(true)
	}
	c := New(m)
	t0 := time.Unix(1000, 0)
	wall := 0.0
	for i := range sh.frames {
		wall = float64(i) / 30
		f := s.Tick(t0.Add(time.Duration(wall*float64(time.Second))), time.Second/30)
		c.Take(f, wall)
		if f.PausedOnMove {
			break
		}
	}
	c.Build(sh.stage, wall+0.15)
	if c.Err() != nil {
		t.Fatalf("%s: %v", sh.name, c.Err())
	}
	return c
}

// rasterize draws the layers as a drawer would.
func rasterize(c *Canvas, w, h int) *raster.Canvas {
	rc := raster.New(w, h, 1, render.Background)
	st, _ := c.Static()
	rc.Scene(st)
	rc.Scene(c.Dynamic())
	for _, im := range c.Images() {
		rc.Image(im)
	}
	rc.Scene(c.Top())
	return rc
}

func TestPreview(t *testing.T) {
	if *preview == "" {
		t.Skip("-preview DIR writes PNGs of the canvas")
	}
	if err := os.MkdirAll(*preview, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sh := range shots {
		c := play(t, sh, raster.Measure)
		rc := rasterize(c, 1600, 1000)
		path := filepath.Join(*preview, sh.name+".png")
		fh, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		st := sh.stage.Inset(-6)
		crop := rc.Img.SubImage(image.Rect(int(st.X), int(st.Y), int(st.Right()), int(st.Bottom())))
		if err := png.Encode(fh, crop); err != nil {
			t.Fatal(err)
		}
		fh.Close()
		l := c.Layout(0)
		t.Logf("%s: cell %.0fx%.0f compact %v, %d static quads, %d dynamic quads %d texts, %d top quads",
			path, l.Cells[0].W, l.Cells[0].H, l.Compact, len(c.static.Quads), len(c.dyn.Quads), len(c.dyn.Texts), len(c.top.Quads))
	}
}

// inside checks that every quad corner and text anchor of s lies in r.
func inside(t *testing.T, what string, s *render.Scene, r render.Rect) {
	t.Helper()
	r = r.Inset(-0.5)
	for _, q := range s.Quads {
		for k := range 4 {
			if !r.Contains(render.Rect{X: float64(q.X[k]), Y: float64(q.Y[k])}) {
				t.Errorf("%s: quad corner (%.1f,%.1f) outside %v", what, q.X[k], q.Y[k], r)
				return
			}
		}
	}
	for _, tx := range s.Texts {
		// The whole text, not only its anchor: a label that sticks out
		// stays on screen.
		w := render.ApproxMeasure(tx.S, tx.Size)
		x0 := tx.X
		switch tx.Align {
		case render.AlignRight:
			x0 -= w
		case render.AlignCenter:
			x0 -= w / 2
		}
		if !r.Contains(render.Rect{X: x0, Y: tx.Y - tx.Size/2, W: w, H: tx.Size}) {
			t.Errorf("%s: text %q at (%.1f,%.1f), %.0f px wide, outside %v", what, tx.S, tx.X, tx.Y, w, r)
			return
		}
	}
}

// Everything is drawn inside the stage: the front end repaints only the
// stage from the static layer each frame, so a mark outside it would stay.
func TestLayersInsideStage(t *testing.T) {
	for _, sh := range shots {
		c := play(t, sh, nil)
		st, _ := c.Static()
		inside(t, sh.name+" static", st, sh.stage)
		inside(t, sh.name+" dynamic", c.Dynamic(), sh.stage)
		inside(t, sh.name+" top", c.Top(), sh.stage)
		for _, im := range c.Images() {
			if !sh.stage.Contains(im.Dst) || len(im.Pix) != im.W*im.H*4 {
				t.Errorf("%s: image %d at %v (%dx%d, %d bytes)", sh.name, im.ID, im.Dst, im.W, im.H, len(im.Pix))
			}
		}
		f := c.Frame()
		if n, want := len(c.Images()), map[bool]int{false: 1, true: 2}[f.B() != nil]; c.Dash().NoCharts && n != 0 || !c.Dash().NoCharts && n != want {
			t.Errorf("%s: %d heatmaps", sh.name, n)
		}
		if (f.B() != nil) != (c.Layout(1) != nil) {
			t.Errorf("%s: side B laid out %v, A/B %v", sh.name, c.Layout(1) != nil, f.B() != nil)
		}
	}
}

// The static layer is rebuilt only when what it shows changes.
func TestRelayout(t *testing.T) {
	s := app.NewSession()
	if err := s.LoadPreset("pelt-pingpong", false); err != nil {
		t.Fatal(err)
	}
	c := New(nil)
	t0 := time.Unix(0, 0)
	frame := func(i int) { c.Take(s.Tick(t0.Add(time.Duration(i)*time.Second/30), time.Second/30), float64(i)/30) }
	frame(0)
	c.Build(normalStage, 0)
	_, v0 := c.Static()
	heatV := c.Images()[0].Version
	for i := 1; i < 30; i++ {
		frame(i)
		c.Build(normalStage, float64(i)/30)
	}
	if _, v := c.Static(); v != v0 {
		t.Errorf("static layer rebuilt while nothing changed (%d -> %d)", v0, v)
	}
	if c.Images()[0].Version == heatV {
		t.Errorf("the heatmap did not change in 30 frames of play")
	}
	c.Build(wideStage, 1)
	_, v1 := c.Static()
	s.SetTalk(true)
	frame(31)
	c.Build(wideStage, 1.1)
	_, v2 := c.Static()
	s.SetCompare([]string{"policy.select_idle_sibling=off"})
	frame(32)
	c.Build(wideStage, 1.2)
	_, v3 := c.Static()
	if !(v0 < v1 && v1 < v2 && v2 < v3) {
		t.Errorf("versions %d %d %d %d: a new stage, talk mode and A/B must each rebuild", v0, v1, v2, v3)
	}
	if c.Layout(1) == nil || c.Dash().Status.H == 0 {
		t.Errorf("after A/B in talk mode: side B %v, status line %v", c.Layout(1) != nil, c.Dash().Status)
	}
	// A stage too small for the machine is an error, not a panic.
	c.Build(render.Rect{W: 40, H: 30}, 2)
	if c.Err() == nil {
		t.Errorf("a 40x30 stage laid out")
	}
}

func TestExplanationsAndPin(t *testing.T) {
	c := play(t, shots[len(shots)-2], nil) // pgbench, paused on a migration
	f := c.Frame()
	if !f.PausedOnMove || f.Playing {
		t.Fatalf("the shot did not pause on a migration")
	}
	if len(c.pinned[0]) == 0 {
		t.Fatalf("no pinned move after a pause on a migration")
	}
	if n := len(c.explains); n == 0 || c.explains[n-1] != f.A().LastMove {
		t.Errorf("the newest explanation is not the move paused on: %q", c.explains)
	}
	// The pinned move is drawn while paused: its destination's examined
	// CPUs are outlined in the top layer.
	if len(c.Top().Quads) == 0 {
		t.Errorf("nothing in the top layer while paused on a move")
	}
	// Playing again unpins.
	again := &frame.Frame{Rev: f.Rev, Playing: true}
	again.Sides[0] = frame.Side{Snap: f.A().Snap, Topology: f.A().Topology, Series: f.A().Series}
	c.Take(again, 100)
	if len(c.pinned[0]) != 0 {
		t.Errorf("still pinned after play")
	}
}

// TestPausedFrameExplainsAtOnce: a paused frame's move is explained at once,
// whatever the hold on the newest explanation while playing: a seek to
// 40 ms and a pause within the hold left pelt-pingpong's panel on its
// first fork at t = 0.
func TestPausedFrameExplainsAtOnce(t *testing.T) {
	c := play(t, shots[len(shots)-2], nil)
	f := c.Frame()
	side := frame.Side{Snap: f.A().Snap, Topology: f.A().Topology, Series: f.A().Series}
	playing := &frame.Frame{Rev: f.Rev, Playing: true}
	playing.Sides[0] = side
	playing.A().LastMove = "t=0.000ms the first move"
	c.Take(playing, 200)
	playing2 := &frame.Frame{Rev: f.Rev, Playing: true}
	playing2.Sides[0] = side
	playing2.A().LastMove = "t=0.100ms a move while playing"
	c.Take(playing2, 200.5)
	if n := len(c.explains); c.explains[n-1] != "t=0.000ms the first move" {
		t.Errorf("while playing, an explanation was replaced within the hold: %q", c.explains)
	}
	paused := &frame.Frame{Rev: f.Rev}
	paused.Sides[0] = side
	paused.A().LastMove = "t=40.000ms the newest move"
	c.Take(paused, 200.6)
	if n := len(c.explains); c.explains[n-1] != "t=40.000ms the newest move" {
		t.Errorf("a paused frame's move is not the newest explanation: %q", c.explains)
	}
}

// The throughput chart's title is in the static layer: it follows the runs
// shown (frame.CountsExits). kernbench's jobs exit instead of looping, so
// its panel counts exits; tbench counts ops.
func TestThroughputTitleFollowsTheRuns(t *testing.T) {
	for _, c := range []struct {
		sh    shot
		title string
	}{
		{shot{name: "kernbench-ab", preset: "kernbench-numaq", compare: []string{"policy.sd_flags.NUMA.SD_BALANCE_EXEC=false"}, speed: 0.2, frames: 30, stage: normalStage}, "exits/s"},
		{shot{name: "kernbench", preset: "kernbench-numaq", speed: 0.2, frames: 30, stage: wideStage}, "exits/s"},
		{shot{name: "tbench", preset: "tbench-pairs", speed: 0.001, frames: 30, stage: normalStage}, "ops/s"},
	} {
		cv := play(t, c.sh, nil)
		st, _ := cv.Static()
		var titles []string
		found := false
		for _, tx := range st.Texts {
			if strings.HasSuffix(tx.S, "/s") {
				titles = append(titles, tx.S)
				found = found || tx.S == c.title || c.title == "exits/s" && tx.S == "tasks exited/s"
			}
		}
		if !found || (c.title == "exits/s" && slices.Contains(titles, "ops/s")) {
			t.Errorf("%s: chart titles %q, want %q", c.sh.name, titles, c.title)
		}
	}
}
