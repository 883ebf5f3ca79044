package render

import (
	"image/color"
	"math"
	"strconv"

	"schedplay/sim"
)

// Quad is a filled quadrilateral, corners in order (clockwise or not).
type Quad struct {
	X, Y [4]float32
	C    color.RGBA
}

// Align is the horizontal anchor of a Text.
type Align uint8

const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Text is one label: X is the anchor given by Align, Y the vertical middle.
type Text struct {
	X, Y  float64
	Size  float64
	C     color.RGBA
	S     string
	Align Align
}

// Scene is a display list: quads first, then texts on top.
type Scene struct {
	Quads []Quad
	Texts []Text
}

// Reset empties the scene, keeping its storage.
func (s *Scene) Reset() {
	s.Quads = s.Quads[:0]
	s.Texts = s.Texts[:0]
}

// Fill adds a filled rectangle.
func (s *Scene) Fill(r Rect, c color.RGBA) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	x0, y0, x1, y1 := float32(r.X), float32(r.Y), float32(r.Right()), float32(r.Bottom())
	s.Quads = append(s.Quads, Quad{X: [4]float32{x0, x1, x1, x0}, Y: [4]float32{y0, y0, y1, y1}, C: c})
}

// Stroke adds the outline of r, w pixels wide, inside r.
func (s *Scene) Stroke(r Rect, w float64, c color.RGBA) {
	w = min(w, r.W/2, r.H/2)
	if w <= 0 {
		return
	}
	s.Fill(Rect{r.X, r.Y, r.W, w}, c)
	s.Fill(Rect{r.X, r.Bottom() - w, r.W, w}, c)
	s.Fill(Rect{r.X, r.Y + w, w, r.H - 2*w}, c)
	s.Fill(Rect{r.Right() - w, r.Y + w, w, r.H - 2*w}, c)
}

// Line adds a segment w pixels wide.
func (s *Scene) Line(x0, y0, x1, y1, w float64, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n < 0.5 {
		return
	}
	px, py := -dy/n*w/2, dx/n*w/2
	s.Quads = append(s.Quads, Quad{
		X: [4]float32{float32(x0 + px), float32(x1 + px), float32(x1 - px), float32(x0 - px)},
		Y: [4]float32{float32(y0 + py), float32(y1 + py), float32(y1 - py), float32(y0 - py)},
		C: c,
	})
}

// Label adds a text.
func (s *Scene) Label(x, y, size float64, c color.RGBA, str string, a Align) {
	if str == "" {
		return
	}
	s.Texts = append(s.Texts, Text{X: x, Y: y, Size: size, C: c, S: str, Align: a})
}

// StaticScene draws the layout's boxes and their labels into dst (after
// resetting it). Cells are dynamic: they change colour with the CPU's state.
func StaticScene(l *Layout, dst *Scene) {
	dst.Reset()
	for i := range l.Boxes {
		b := &l.Boxes[i]
		border, width := BoxBorder, 2.0
		if b.Is(KindCore) && b.Label == "" {
			border, width = CoreBorder, 1
		}
		dst.Fill(b.Rect, boxFill(b.Depth))
		dst.Stroke(b.Rect, width, border)
		dst.Label(b.LabelX, b.LabelY, l.BoxFont, BoxLabel, b.Label, AlignLeft)
	}
}

// Painter draws the dynamic part: cells, tasks and glides. It caches the
// fitted task labels for its layout; make a new Painter when the layout or
// the task list changes.
type Painter struct {
	L         *Layout
	Tasks     []sim.TaskInfo
	IdleNames []string // C-state names, Costs.IdleStates order
	Measure   Measure

	runLabels, queueLabels []string     // per task id, fitted to the layout
	colors, textColors     []color.RGBA // per task id: block colour, label colour on it
}

// NewPainter prepares a painter for layout l and tasks.
func NewPainter(l *Layout, tasks []sim.TaskInfo, idle []sim.IdleState, m Measure) *Painter {
	if m == nil {
		m = ApproxMeasure
	}
	p := &Painter{L: l, Tasks: tasks, Measure: m}
	for _, st := range idle {
		p.IdleNames = append(p.IdleNames, st.Name)
	}
	p.runLabels = make([]string, len(tasks))
	p.queueLabels = make([]string, len(tasks))
	p.colors = make([]color.RGBA, len(tasks))
	p.textColors = make([]color.RGBA, len(tasks))
	for i := range tasks {
		p.colors[i] = TaskColor(i)
		p.textColors[i] = TextOn(p.colors[i])
	}
	if len(l.Cells) == 0 {
		return p
	}
	c := &l.Cells[0]
	for i, t := range tasks {
		cands := taskLabels(t.Name)
		p.runLabels[i] = fit(m, l.TaskFont, c.Run.W-4, cands...)
		if l.QueueH >= 14 {
			p.queueLabels[i] = fit(m, l.QueueFont, l.QueueW-4, cands...)
		}
	}
	return p
}

// taskColor is the block colour of task id and the colour of text on it
// (cached: the contrast search is too slow to repeat per block and frame).
func (p *Painter) taskColor(id int32) (block, text color.RGBA) {
	if id >= 0 && int(id) < len(p.colors) {
		return p.colors[id], p.textColors[id]
	}
	c := TaskColor(int(id))
	return c, TextOn(c)
}

// Cells draws every CPU cell of snap into dst (appending).
func (p *Painter) Cells(snap *sim.Snapshot, dst *Scene) {
	l := p.L
	for cpu := range l.Cells {
		c := &l.Cells[cpu]
		var cs *sim.CPUSnap
		if cpu < len(snap.CPUs) {
			cs = &snap.CPUs[cpu]
		}
		busy := cs != nil && cs.Curr >= 0
		bg := CellIdle
		if busy || (cs != nil && len(cs.Queue) > 0) {
			bg = CellBusy
		}
		dst.Fill(c.Rect, bg)
		dst.Stroke(c.Rect, 1, CellBorder)
		lc := CellLabel
		if !busy {
			lc = IdleText
		}
		dst.Label(c.Run.X, c.Band.Y+c.Band.H/2, l.CellFont, lc, c.Label, AlignLeft)
		if cs == nil {
			continue
		}
		if cs.Waking > 0 {
			// Wake-ups in flight to this CPU: a dot in the wake-up colour.
			d := c.Band.H * 0.45
			dst.Fill(Rect{c.Right() - d - 3, c.Band.Y + (c.Band.H-d)/2, d, d}, CauseColor(sim.CauseWakeup))
		}
		if busy {
			col, tc := p.taskColor(cs.Curr)
			dst.Fill(c.Run, col)
			if int(cs.Curr) < len(p.runLabels) {
				cx, cy := c.Run.Center()
				dst.Label(cx, cy, l.TaskFont, tc, p.runLabels[cs.Curr], AlignCenter)
			}
		} else {
			name, col := "idle", IdleText
			switch {
			case cs.IdleState >= 0 && cs.IdleState < len(p.IdleNames):
				name = p.IdleNames[cs.IdleState]
			case cs.IdleState < 0 && (len(cs.Queue) > 0 || cs.Waking > 0):
				// Not idle any more, not running yet: paying the idle
				// state's exit latency, or a wake-up IPI is in flight.
				name, col = "waking", CauseColor(sim.CauseWakeup)
			}
			cx, cy := c.Run.Center()
			dst.Label(cx, cy, clamp(l.TaskFont*0.9, 10, 24), col, name, AlignCenter)
		}
		p.queue(c, cs.Queue, dst)
		// util_avg bar: PELT utilisation of the CPU, 0..1024.
		dst.Fill(c.Util, UtilBarTrack)
		u := clamp(float64(cs.UtilAvg)/1024, 0, 1)
		dst.Fill(Rect{c.Util.X, c.Util.Y, c.Util.W * u, c.Util.H}, UtilBar)
	}
}

// queue draws the queued tasks of cell c; when they do not all fit, the last
// slot says how many more there are.
func (p *Painter) queue(c *Cell, q []int32, dst *Scene) {
	l := p.L
	slots := l.QueueCols * l.QueueRows
	for i, id := range q {
		r := l.QueueSlot(c, i)
		if i == slots-1 && len(q) > slots {
			dst.Stroke(r, 1, CellLabel)
			cx, cy := r.Center()
			more := "+" + strconv.Itoa(len(q)-i)
			size := clamp(min(l.QueueFont, r.W/float64(len(more))/0.56), 7, 18)
			dst.Label(cx, cy, size, CellLabel, more, AlignCenter)
			return
		}
		col, tc := p.taskColor(id)
		dst.Fill(r, col)
		if int(id) < len(p.queueLabels) && p.queueLabels[id] != "" {
			cx, cy := r.Center()
			dst.Label(cx, cy, l.QueueFont, tc, p.queueLabels[id], AlignCenter)
		}
	}
}

// Glides draws the tasks in flight at wall time now (seconds) into dst.
func (p *Painter) Glides(g *Glides, now float64, dst *Scene) {
	l := p.L
	side := clamp(l.QueueH*1.4, 8, 64)
	for _, gl := range g.Active(now) {
		if int(gl.From) >= len(l.Cells) || int(gl.To) >= len(l.Cells) {
			continue
		}
		x0, y0 := l.Cells[gl.From].Run.Center()
		x1, y1 := l.Cells[gl.To].Run.Center()
		f := Ease(gl.Progress(now, g.dur()))
		x, y := x0+(x1-x0)*f, y0+(y1-y0)*f
		cc := CauseColor(gl.Cause)
		dst.Line(x0, y0, x, y, clamp(side*0.15, 2, 5), cc)
		r := Rect{x - side/2, y - side/2, side, side}
		col, tc := p.taskColor(gl.Task)
		dst.Fill(r, col)
		dst.Stroke(r, clamp(side*0.12, 2, 4), cc)
		if int(gl.Task) < len(p.queueLabels) {
			if s := fit(p.Measure, l.QueueFont, side-6, p.queueLabels[gl.Task]); s != "" {
				dst.Label(x, y, l.QueueFont, tc, s, AlignCenter)
			}
		}
	}
}
