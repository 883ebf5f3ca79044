package canvas

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/render"
	"schedplay/render/raster"
)

// Talk mode's stages. talk720 is the page's stage at 1280x720 in talk mode
// with the chapter bar and the scrubber (e2e TestTalkAt720 logs #stage as
// 1280x513 at y=152; the canvas insets it by 10 px at the sides, 2 px on
// top and 10 px at the bottom: cmd/wasm page.stageRect); talk720NoChapters
// is the same without the chapter bar.
var (
	talk720           = render.Rect{X: 10, Y: 154, W: 1260, H: 501}
	talk720NoChapters = render.Rect{X: 10, Y: 106, W: 1260, H: 549}
)

// Every text the canvas draws in talk mode is at least render.TalkMinText
// (18 px) tall (issue 20: readable from the back of a room at 1280x720):
// CPU, box and task labels, idle states, queue counts, PELT bar values,
// the v2.6.8 arrays, chart titles, values, axes and captions, the legend
// and its icons, the status line and its key help, the explanations, the
// A/B table and captions, the moves' badges and notes. It fails on the
// canvas before this change (9.8 px: the heat scale's digits).
func TestTalkTextSizes(t *testing.T) {
	stages := []struct {
		name  string
		stage render.Rect
	}{
		{"1280x720", talk720},
		{"1280x720-no-chapters", talk720NoChapters},
		{"1600x1000", talkStage},
		{"phone-landscape", landscapeStage},
		{"phone-portrait", phoneStage},
	}
	scenes := []shot{
		{name: "80cpu", preset: "tbench-pairs", speed: 0.001, frames: 60},
		{name: "80cpu-ab", preset: "tbench-pairs", compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60},
		{name: "2cpu", preset: "pelt-pingpong", speed: 0.01, frames: 90},
		{name: "numaq-o1", preset: "sdet-numaq", speed: 0.01, frames: 90},
		{name: "256cpu", preset: "tbench-pairs", sets: big, speed: 0.001, frames: 60},
		{name: "pgbench-paused", preset: "pgbench-1toN", speed: 0.01, frames: 200, pause: true},
		{name: "overload", preset: "overload-on-wakeup", speed: 0.01, frames: 90},
	}
	least := 1e9
	texts := 0
	for _, st := range stages {
		for _, sh := range scenes {
			sh.stage, sh.talk = st.stage, true
			c := play(t, sh, raster.Measure)
			layers, _ := c.Static()
			for li, s := range []*render.Scene{layers, c.Dynamic(), c.Top()} {
				for _, tx := range s.Texts {
					texts++
					least = min(least, tx.Size)
					if tx.Size < render.TalkMinText {
						t.Errorf("%s %s: layer %d text %q at %.1f px", st.name, sh.name, li, tx.S, tx.Size)
					}
				}
			}
		}
	}
	t.Logf("%d texts, the smallest %.1f px", texts, least)
}

// Talk mode at 1280x720 (issue 20): the 80 CPUs of tbench-pairs carry
// their numbers at talk mode's type, each inside its own cell; where the
// cells cannot hold them (A/B: 160 cells) the moves' badges name the CPUs
// a task went from and to.
func TestTalkLabels720(t *testing.T) {
	for _, stage := range []render.Rect{talk720, talk720NoChapters} {
		sh := shot{name: "80cpu-talk-720", preset: "tbench-pairs", speed: 0.001, frames: 60, stage: stage, talk: true}
		c := play(t, sh, raster.Measure)
		l := c.Layout(0)
		for cpu := range l.Cells {
			cell := &l.Cells[cpu]
			want := fmt.Sprint(cpu)
			if cell.Label != want && cell.Label != "cpu"+want {
				t.Errorf("%v: cpu %d is labelled %q", stage, cpu, cell.Label)
				continue
			}
			// The label's text, drawn whole inside the cell.
			found := false
			for _, tx := range c.Dynamic().Texts {
				w := raster.Measure(tx.S, tx.Size)
				x0 := tx.X
				switch tx.Align {
				case render.AlignCenter:
					x0 -= w / 2
				case render.AlignRight:
					x0 -= w
				}
				box := render.Rect{X: x0, Y: tx.Y - tx.Size/2, W: w, H: tx.Size}
				if tx.S == cell.Label && tx.Size >= render.TalkMinText && cell.Rect.Contains(box) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%v: cpu %d's label %q is not drawn at %.0f px inside its %.0fx%.0f cell", stage, cpu, cell.Label, render.TalkMinText, cell.W, cell.H)
			}
		}
		t.Logf("%v: cell %.0fx%.0f (compact %v), labels at %.1f px", stage, l.Cells[0].W, l.Cells[0].H, l.Compact, l.CellFont)
	}
	// A/B: two 80-CPU machines side by side have no room for the numbers;
	// a move in flight names its CPUs on its badge.
	sh := shot{name: "80cpu-ab-talk-720", preset: "tbench-pairs", compare: []string{"policy.select_idle_sibling=cpu_buddies"}, speed: 0.001, frames: 60, stage: talk720, talk: true}
	c := play(t, sh, raster.Measure)
	if l := c.Layout(0); l.Cells[0].Label != "" {
		t.Logf("A/B cells labelled (%.0fx%.0f)", l.Cells[0].W, l.Cells[0].H)
		return
	}
	named := ""
	for _, tx := range c.Top().Texts {
		if strings.Contains(tx.S, "→") {
			named = tx.S
		}
	}
	if named == "" {
		t.Errorf("A/B at 1280x720: the cells have no numbers and no move's badge names its CPUs")
	}
	t.Logf("A/B: a badge reads %q", named)
}

// The page's stages at the five viewports of issue 20 (e2e TestViewports
// and TestTalkViewports log #stage; the canvas insets it as
// page.stageRect does), normal and talk mode, with the 80 CPUs of
// tbench-pairs: every CPU's running task shows as a block of its colour
// at least minRunBlock px on each side, so tasks are told apart by colour
// (and by name where the block holds it).
func TestViewportCells(t *testing.T) {
	const minRunBlock = 14
	for _, tc := range []struct {
		name  string
		stage render.Rect
		talk  bool
	}{
		{"390x844", render.Rect{X: 10, Y: 176, W: 370, H: 591}, false},
		{"844x390", render.Rect{X: 10, Y: 101, W: 824, H: 231}, false},
		{"768x1024", render.Rect{X: 10, Y: 132, W: 748, H: 812}, false},
		{"1280x720", render.Rect{X: 10, Y: 133, W: 972, H: 525}, false},
		{"1600x1000", render.Rect{X: 442, Y: 149, W: 788, H: 783}, false},
		{"390x844 talk", render.Rect{X: 10, Y: 207, W: 370, H: 555}, true},
		{"844x390 talk", render.Rect{X: 10, Y: 123, W: 824, H: 211}, true},
		{"768x1024 talk", render.Rect{X: 10, Y: 123, W: 748, H: 845}, true},
		{"1280x720 talk", talk720, true},
		{"1600x1000 talk", render.Rect{X: 10, Y: 154, W: 1580, H: 781}, true},
	} {
		sh := shot{name: tc.name, preset: "tbench-pairs", speed: 0.001, frames: 60, stage: tc.stage, talk: tc.talk}
		c := play(t, sh, raster.Measure)
		l := c.Layout(0)
		cell := l.Cells[0]
		m := c.Dash().Machine[0]
		t.Logf("%-15s machine %4.0fx%-4.0f (%2.0f%% of the stage), cell %3.0fx%-3.0f run block %3.0fx%-3.0f compact %-5v label %q at %.0f px",
			tc.name, m.W, m.H, m.W*m.H/(tc.stage.W*tc.stage.H)*100, cell.W, cell.H, cell.Run.W, cell.Run.H, l.Compact, cell.Label, l.CellFont)
		if cell.Run.W < minRunBlock || cell.Run.H < minRunBlock {
			t.Errorf("%s: a running task's block is %.0fx%.0f px", tc.name, cell.Run.W, cell.Run.H)
		}
	}
}
