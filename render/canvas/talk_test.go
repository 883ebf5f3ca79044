package canvas

import (
	"testing"

	"schedplay/render"
	"schedplay/render/raster"
)

// Talk mode at 1280x720 (issue 20, 8): the 80 CPUs of tbench-pairs keep
// their labels (the chart column gives the machine the room). The smallest
// canvas text is logged: issue 20 asks for 18 px, which talk mode does not
// reach yet (see the branch report).
func TestTalkLabels720(t *testing.T) {
	stage := render.Rect{X: 10, Y: 96, W: 1260, H: 614} // the page's stage at 1280x720 in talk mode
	sh := shot{name: "80cpu-talk-720", preset: "tbench-pairs", speed: 0.001, frames: 60, stage: stage, talk: true}
	c := play(t, sh, raster.Measure)
	l := c.Layout(0)
	if l.Compact || l.Cells[0].Label == "" {
		t.Errorf("the CPUs have no labels (compact %v, cell %.0fx%.0f)", l.Compact, l.Cells[0].W, l.Cells[0].H)
	}
	st, _ := c.Static()
	least := 1e9
	for _, s := range []*render.Scene{st, c.Dynamic(), c.Top()} {
		for _, tx := range s.Texts {
			least = min(least, tx.Size)
		}
	}
	t.Logf("cell %.0fx%.0f, cell label %.1f px, smallest text %.1f px", l.Cells[0].W, l.Cells[0].H, l.CellFont, least)
}
