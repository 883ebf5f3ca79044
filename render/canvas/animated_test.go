package canvas

import (
	"strings"
	"testing"

	"schedplay/render"
	"schedplay/render/raster"
)

// When more moves happen than the glides can show, the canvas says how
// many it animates. The badge used to sit in the machine's bottom right
// corner, over the last row of cells (256 CPUs in talk mode covered three
// cells of socket 3). In talk mode the count is on the status line; outside
// it, under the migrations chart, or where that has no room, in the corner
// of the machine that covers the fewest cells. On the canvas before this
// change it fails at every stage: the badge covered cpu222 (626x850),
// cpu127 (1166x850) and cpu190 (phone), and talk mode's sat in the machine.
// A phone held upright in talk mode had no count at all: its status line
// has no room for "moves animated: 20 of 250k/s" after the clock, and now
// says "animated 20/250k".
func TestAnimatedNoteCoversNoCell(t *testing.T) {
	for _, sh := range shots {
		if !strings.HasPrefix(sh.name, "256cpu") {
			continue
		}
		c := play(t, sh, raster.Measure)
		lay := c.Layout(0)
		var note *render.Text
		for _, s := range []*render.Scene{c.Dynamic(), c.Top()} {
			for i := range s.Texts {
				if strings.Contains(s.Texts[i].S, "animated") {
					note = &s.Texts[i]
				}
			}
		}
		if note == nil {
			t.Errorf("%s: 100 tbench pairs on 256 CPUs, and no 'moves animated' note", sh.name)
			continue
		}
		if sh.talk {
			st := c.dash.Status
			if note.Y < st.Y || note.Y > st.Bottom() {
				t.Errorf("%s: talk mode's note %q is at y=%.0f, not on the status line %+v", sh.name, note.S, note.Y, st)
			}
			continue
		}
		if ch := c.dash.Charts[render.ChartMigrations]; note.X >= ch.X && note.X <= ch.Right() && note.Y >= ch.Y && note.Y <= ch.Bottom() {
			t.Logf("%s: %q under the migrations chart", sh.name, note.S)
			continue
		}
		// The badge: Note draws it from x-w to x, y±0.75 f.
		w := raster.Measure(note.S, note.Size) + note.Size
		x := note.X + note.Size*0.5
		badge := render.Rect{X: x - w, Y: note.Y - note.Size*0.75, W: w, H: note.Size * 1.5}
		for _, cell := range lay.Cells {
			if cell.Overlaps(badge) {
				t.Errorf("%s: the note %q (%+v) covers cpu%d's cell %+v", sh.name, note.S, badge, cell.CPU, cell.Rect)
				break
			}
		}
		t.Logf("%s: %q at %+v", sh.name, note.S, badge)
	}
}
