package render

import (
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedplay/sim"
)

// PELT bars. Every CPU cell ends in three bars on one scale, full width =
// 1024 (SCHED_CAPACITY_SCALE: one CPU's worth), a notch at 512, a white tip
// marking a value above 1024:
//
//  1. util_avg (yellow): how busy the CPU has been, decayed (PELT).
//  2. runnable_avg (orange): time tasks were runnable on it, running or
//     waiting, summed over tasks: above util when tasks queue.
//  3. load_avg: blue for the load of the tasks on the runqueue now
//     (running or queued), then grey-violet for the blocked load: tasks
//     asleep whose contribution has not decayed yet. v6.17: the cfs_rq's
//     load_avg (which includes blocked load) against the sum of its
//     runnable tasks' load_avg; v3.8: runnable_load_avg then
//     blocked_load_avg, as 3.8's per-entity load tracking keeps them.
//
// The blocked share is what made 3.8's balancer see a CPU as loaded whose
// tasks were all asleep (seed 002, Preeti's runnable vs blocked load).

// BarScale is the value of a full PELT bar.
const BarScale = 1024

// BarTick marks the middle of a PELT bar (512).
var BarTick = WithAlpha(Background, 0.7)

// Painter draws the dynamic part of one machine: cells, tasks, PELT bars
// and glides. It caches each task's fitted labels and colours for its
// layout, made the first time the task is drawn (a relayout of
// aim9-burst's 513 tasks on two machines fitted every label with the
// page's shaper up front: 3-15 ms of the first frame's task in wasm); make
// a new Painter when the layout or the task list changes.
type Painter struct {
	L         *Layout
	Tasks     []sim.TaskInfo
	IdleNames []string // C-state names, Costs.IdleStates order
	Measure   Measure
	// V38 selects which load signals split the load bar (see above).
	V38 bool

	looks  []taskLook // per task id, filled on first use (look)
	xs, ys []float64  // scratch for arcs
	badges []Rect     // scratch: the badges placed this frame
}

// taskLook is how one task is drawn on this layout.
type taskLook struct {
	block, text       color.RGBA // block colour, label colour on it
	run, queue, glide string     // labels fitted to the running slot, a queue block, a glide
	ok                bool
}

// NewPainter prepares a painter for layout l and tasks.
func NewPainter(l *Layout, tasks []sim.TaskInfo, idle []sim.IdleState, m Measure) *Painter {
	if m == nil {
		m = ApproxMeasure
	}
	p := &Painter{L: l, Tasks: tasks, Measure: m, looks: make([]taskLook, len(tasks))}
	for _, st := range idle {
		p.IdleNames = append(p.IdleNames, st.Name)
	}
	return p
}

// look is task id's colours and labels (nil for an id not in the task
// list), fitted the first time it is asked for.
func (p *Painter) look(id int32) *taskLook {
	if id < 0 || int(id) >= len(p.looks) {
		return nil
	}
	lk := &p.looks[id]
	if lk.ok {
		return lk
	}
	lk.ok = true
	lk.block = TaskColor(int(id))
	lk.text = TextOn(lk.block)
	l := p.L
	if len(l.Cells) == 0 || l.Compact {
		return lk
	}
	cands := taskLabels(p.Tasks[id].Name)
	if l.TaskFont > 0 {
		lk.run = fit(p.Measure, l.TaskFont, l.Cells[0].Run.W-4, cands...)
	}
	if l.QueueH >= 14 && l.QueueFont > 0 {
		lk.queue = fit(p.Measure, l.QueueFont, l.QueueW-4, cands...)
		lk.glide = fit(p.Measure, l.QueueFont, p.glideSide()-6, lk.queue)
	}
	return lk
}

// taskColor is the block colour of task id and the colour of text on it
// (cached: the contrast search is too slow to repeat per block and frame).
func (p *Painter) taskColor(id int32) (block, text color.RGBA) {
	if lk := p.look(id); lk != nil {
		return lk.block, lk.text
	}
	c := TaskColor(int(id))
	return c, TextOn(c)
}

// loadSplit is the load bar of cpu: the load of its runnable tasks and the
// blocked load, on the PELT scale.
func (p *Painter) loadSplit(snap *sim.Snapshot, cs *sim.CPUSnap) (runnable, blocked int64) {
	if p.V38 {
		return cs.RunnableLoadAvg, cs.BlockedLoadAvg
	}
	task := func(id int32) int64 {
		if id >= 0 && int(id) < len(snap.Tasks) {
			return snap.Tasks[id].LoadAvg
		}
		return 0
	}
	if cs.Curr >= 0 {
		runnable += task(cs.Curr)
	}
	for _, id := range cs.Queue {
		runnable += task(id)
	}
	runnable = min(runnable, cs.LoadAvg)
	return runnable, max(0, cs.LoadAvg-runnable)
}

// IdleWhileOverloaded reports whether snap has an idle CPU (nothing
// running, nothing queued) while tasks wait behind a running task elsewhere:
// the state the simulator's idle_while_overloaded metric integrates.
func IdleWhileOverloaded(snap *sim.Snapshot) bool {
	idle, waiting := false, false
	for i := range snap.CPUs {
		c := &snap.CPUs[i]
		if c.Curr < 0 && c.NrRunning == 0 && len(c.Queue) == 0 {
			idle = true
		}
		if c.Curr >= 0 && len(c.Queue) > 0 {
			waiting = true
		}
	}
	return idle && waiting
}

// Cells draws every CPU cell of snap into dst (appending). While tasks
// wait on some CPUs, the idle ones are outlined in magenta (IWOColor).
func (p *Painter) Cells(snap *sim.Snapshot, dst *Scene) {
	l := p.L
	iwo := IdleWhileOverloaded(snap)
	for cpu := range l.Cells {
		c := &l.Cells[cpu]
		var cs *sim.CPUSnap
		if cpu < len(snap.CPUs) {
			cs = &snap.CPUs[cpu]
		}
		if l.Compact {
			p.compactCell(c, snap, cs, dst)
		} else {
			p.fullCell(c, snap, cs, dst)
		}
		if iwo && cs != nil && cs.Curr < 0 && cs.NrRunning == 0 && len(cs.Queue) == 0 {
			dst.Stroke(c.Rect, 2, IWOColor)
		}
	}
}

func (p *Painter) idleShade(cs *sim.CPUSnap) color.RGBA {
	if cs == nil || cs.IdleState < 0 {
		return CellIdle
	}
	return IdleShade(cs.IdleState, len(p.IdleNames))
}

func (p *Painter) fullCell(c *Cell, snap *sim.Snapshot, cs *sim.CPUSnap, dst *Scene) {
	l := p.L
	busy := cs != nil && cs.Curr >= 0
	bg := p.idleShade(cs)
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
		return
	}
	if cs.Waking > 0 {
		// Wake-ups in flight to this CPU: a dot in the wake-up colour.
		d := c.Band.H * 0.45
		dst.Fill(Rect{c.Right() - d - 3, c.Band.Y + (c.Band.H-d)/2, d, d}, CauseColor(sim.CauseWakeup))
	}
	if busy {
		col, tc := p.taskColor(cs.Curr)
		dst.Fill(c.Run, col)
		if lk := p.look(cs.Curr); lk != nil {
			cx, cy := c.Run.Center()
			dst.Label(cx, cy, l.TaskFont, tc, lk.run, AlignCenter)
		}
	} else {
		name, col := "idle", IdleText
		switch {
		case len(cs.Queue) > 0 || cs.Waking > 0:
			// Not running yet: a wake-up IPI is in flight, or the CPU
			// pays its idle state's exit latency.
			name, col = "waking", CauseColor(sim.CauseWakeup)
		case cs.IdleState >= 0 && cs.IdleState < len(p.IdleNames):
			name = p.IdleNames[cs.IdleState]
		}
		cx, cy := c.Run.Center()
		size := clamp(l.TaskFont*0.9, l.CellFont*0.85, 26)
		if l.MinText > 0 {
			size = max(size, l.MinText)
			if l.TaskFont == 0 || p.Measure(name, size) > c.Run.W-4 {
				size = 0 // no room at the talk-mode size: the shade says it
			}
		}
		dst.Label(cx, cy, size, col, name, AlignCenter)
	}
	p.queue(c, cs.Queue, dst)
	p.bars(c, snap, cs, dst)
}

// bars draws the three PELT bars of a cell; an era without PELT (v2.6.8)
// has none, and its bars stay blank.
func (p *Painter) bars(c *Cell, snap *sim.Snapshot, cs *sim.CPUSnap, dst *Scene) {
	if snap.NoPELT {
		p.o1Arrays(c, snap, cs, dst) // v2.6.8: its priority arrays instead (o1arrays.go)
		return
	}
	run, blocked := p.loadSplit(snap, cs)
	bar := func(r Rect, name string, parts [2]int64, cols [2]color.RGBA) {
		dst.Fill(r, UtilBarTrack)
		x := r.X
		total := parts[0] + parts[1]
		var ends [2]float64 // where each part ends
		for k := range parts {
			w := r.W * clamp(float64(parts[k])/BarScale, 0, 1)
			w = min(w, r.Right()-x)
			dst.Fill(Rect{x, r.Y, w, r.H}, cols[k])
			x += w
			ends[k] = x
		}
		tip := max(2, r.H*0.6)
		if total > BarScale {
			dst.Fill(Rect{r.Right() - tip, r.Y, tip, r.H}, BarOverflow)
		}
		// The scale: a notch at 512, half of a full bar.
		dst.Fill(Rect{math.Round(r.X + r.W/2), r.Y, 1, r.H}, BarTick)
		if f := p.L.BarFont; f > 0 {
			cy := r.Y + r.H/2
			under := func(x float64) color.RGBA {
				switch {
				case total > BarScale && x >= r.Right()-tip:
					return BarOverflow
				case x < ends[0]:
					return cols[0]
				case x < ends[1]:
					return cols[1]
				}
				return UtilBarTrack
			}
			p.barText(dst, r.X+3, cy, f, name, under)
			v := strconv.FormatInt(total, 10)
			p.barText(dst, r.Right()-3-tip-p.Measure(v, f), cy, f, v, under)
		}
	}
	bar(c.Util, "util", [2]int64{cs.UtilAvg, 0}, [2]color.RGBA{UtilBar, UtilBar})
	bar(c.Runnable, "runnable", [2]int64{cs.RunnableAvg, 0}, [2]color.RGBA{RunnableBar, RunnableBar})
	bar(c.Load, "load", [2]int64{run, blocked}, [2]color.RGBA{LoadBar, BlockedBar})
}

// barText draws s from x (its left end) over a bar whose colour under a
// point x is under(x): each letter in the colour that reads on what is
// under its middle (CellLabel, or black or white where CellLabel does
// not contrast enough), so a label half over the bar and half over its
// track reads in full (it was black over the dark track).
func (p *Painter) barText(dst *Scene, x, cy, f float64, s string, under func(x float64) color.RGBA) {
	on := func(bg color.RGBA) color.RGBA {
		if Contrast(CellLabel, bg) >= 4.5 {
			return CellLabel
		}
		return TextOn(bg)
	}
	r := []rune(s)
	start, prev := 0, 0.0 // the current run's first rune; the width before rune i
	var runC color.RGBA
	for i := range r {
		w := p.Measure(string(r[:i+1]), f)
		c := on(under(x + (prev+w)/2))
		if i > 0 && c != runC {
			dst.Label(x+p.Measure(string(r[:start]), f), cy, f, runC, string(r[start:i]), AlignLeft)
			start = i
		}
		runC, prev = c, w
	}
	if len(r) > 0 {
		dst.Label(x+p.Measure(string(r[:start]), f), cy, f, runC, string(r[start:]), AlignLeft)
	}
}

// compactCell: the queue-length strip, the running task's colour (or the
// idle shade), the bars one pixel high.
func (p *Painter) compactCell(c *Cell, snap *sim.Snapshot, cs *sim.CPUSnap, dst *Scene) {
	bg := p.idleShade(cs)
	if cs != nil && (cs.Curr >= 0 || len(cs.Queue) > 0) {
		bg = CellBusy
	}
	dst.Fill(c.Rect, bg)
	if cs == nil {
		return
	}
	if cs.NrRunning > 0 {
		dst.Fill(c.Band, HeatColor(cs.NrRunning))
	}
	label := IdleText
	if cs.Curr >= 0 {
		col, tc := p.taskColor(cs.Curr)
		dst.Fill(c.Run, col)
		label = tc
	} else if cs.Waking > 0 || len(cs.Queue) > 0 {
		dst.Stroke(c.Run, 1, CauseColor(sim.CauseWakeup))
		label = CellLabel
	}
	if c.Label != "" {
		// Talk mode: the CPU's number (Layout.compactInteriors).
		cx, cy := c.Run.Center()
		dst.Label(cx, cy, p.L.CellFont, label, c.Label, AlignCenter)
	}
	if snap.NoPELT {
		return // no PELT in this era: no bars
	}
	run, blocked := p.loadSplit(snap, cs)
	for _, b := range []struct {
		r    Rect
		v, w int64
		a, z color.RGBA
	}{
		{c.Util, cs.UtilAvg, 0, UtilBar, UtilBar},
		{c.Runnable, cs.RunnableAvg, 0, RunnableBar, RunnableBar},
		{c.Load, run, blocked, LoadBar, BlockedBar},
	} {
		w0 := b.r.W * clamp(float64(b.v)/BarScale, 0, 1)
		w1 := min(b.r.W-w0, b.r.W*clamp(float64(b.w)/BarScale, 0, 1))
		dst.Fill(Rect{b.r.X, b.r.Y, w0, b.r.H}, b.a)
		dst.Fill(Rect{b.r.X + w0, b.r.Y, w1, b.r.H}, b.z)
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
			if size < l.MinText {
				size = 0 // talk mode: the frame alone says "more"
			}
			dst.Label(cx, cy, size, CellLabel, more, AlignCenter)
			return
		}
		col, tc := p.taskColor(id)
		dst.Fill(r, col)
		if lk := p.look(id); lk != nil && lk.queue != "" {
			cx, cy := r.Center()
			dst.Label(cx, cy, l.QueueFont, tc, lk.queue, AlignCenter)
		}
	}
}

// arcSteps is how many segments approximate a move's arc.
const arcSteps = 16

// Arc returns the point at t (0..1) of the arc of a move from (x0,y0) to
// (x1,y1) lifted by lift (a fraction of the distance): a quadratic Bézier
// whose apex is lift×distance off the straight line, bulging towards
// (cx, cy) (the machine's centre, so that arcs stay over the machine).
func Arc(x0, y0, x1, y1, lift, t, cx, cy float64) (x, y float64) {
	dx, dy := x1-x0, y1-y0
	d := math.Hypot(dx, dy)
	if d == 0 {
		return x0, y0
	}
	nx, ny := -dy/d, dx/d
	mx, my := (x0+x1)/2, (y0+y1)/2
	if s := (cx-mx)*nx + (cy-my)*ny; s < 0 || (s == 0 && ny > 0) {
		nx, ny = -nx, -ny
	}
	// The apex of a quadratic Bézier is half the control point's offset.
	px, py := mx+nx*2*lift*d, my+ny*2*lift*d
	u := 1 - t
	return u*u*x0 + 2*u*t*px + t*t*x1, u*u*y0 + 2*u*t*py + t*t*y1
}

// ArcLiftIn is lift reduced, where needed, so that the arc of a move from
// (x0,y0) to (x1,y1), bulging towards (cx, cy) as Arc draws it, stays
// inside r: on a wide, low machine a NUMA move's arc (lift 0.38 of a long
// distance) overshot the machine's centre and left the stage, where the
// front end does not repaint.
func ArcLiftIn(x0, y0, x1, y1, lift, cx, cy float64, r Rect) float64 {
	dx, dy := x1-x0, y1-y0
	d := math.Hypot(dx, dy)
	if d == 0 || lift <= 0 {
		return lift
	}
	nx, ny := -dy/d, dx/d
	mx, my := (x0+x1)/2, (y0+y1)/2
	if s := (cx-mx)*nx + (cy-my)*ny; s < 0 || (s == 0 && ny > 0) {
		nx, ny = -nx, -ny
	}
	// The curve is the chord point c(t) moved 4t(1-t)·lift·d along n:
	// keep every sampled point's move within its room to r's edge.
	exit := func(px, py float64) float64 {
		room := math.Inf(1)
		if nx > 0 {
			room = min(room, (r.Right()-px)/nx)
		} else if nx < 0 {
			room = min(room, (r.X-px)/nx)
		}
		if ny > 0 {
			room = min(room, (r.Bottom()-py)/ny)
		} else if ny < 0 {
			room = min(room, (r.Y-py)/ny)
		}
		return max(0, room)
	}
	// 19 samples, and 3 % to spare for the points between them.
	for k := 1; k < 20; k++ {
		t := float64(k) / 20
		bump := 4 * t * (1 - t)
		lift = min(lift, 0.97*exit(x0+dx*t, y0+dy*t)/(bump*d))
	}
	return lift
}

// Glides draws the tasks in flight at wall time now (seconds) into dst:
// trails, examined CPUs, distance badges and the moving blocks.
func (p *Painter) Glides(g *Glides, now float64, dst *Scene) {
	p.DrawGlides(g.Active(now), now, g.dur(), dst)
}

// Pinned draws moves as arrived, with full trails and their examined CPUs
// (the move a pause on the next migration stopped at).
func (p *Painter) Pinned(moves []Glide, dst *Scene) {
	list := make([]Glide, len(moves))
	for i, gl := range moves {
		gl.Start = -GlideDuration
		list[i] = gl
	}
	p.DrawGlides(list, 0, GlideDuration, dst)
}

// lift is glide gl's arc lift on this layout: ArcLift by its distance,
// kept inside the machine's stage with room for the moving block (side
// px).
func (p *Painter) lift(gl *Glide, x0, y0, x1, y1, side float64) float64 {
	cx, cy := p.L.Stage.Center()
	return ArcLiftIn(x0, y0, x1, y1, ArcLift(gl.Dist), cx, cy, p.L.Stage.Inset(side/2+2))
}

// badgeSteps are the places along a move's arc a badge may sit, as
// fractions of the arc, apex first: where the apex's badge would cover a
// CPU's number (an LLC move between two cells of one row bows into the
// row below, and "LLC" hid cpu52 and cpu53), the nearest place along the
// arc that covers none is taken.
var badgeSteps = [...]float64{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}

// badgeSpot is where the badge (w×h px) of the move from (x0,y0) to
// (x1,y1) goes: the first place of badgeSteps, kept inside the machine,
// that covers no badge already placed and no CPU's number; failing that,
// the first that covers no badge (a number covered, as before); ok false
// when every place covers a badge.
func (p *Painter) badgeSpot(gl *Glide, x0, y0, x1, y1, side, w, h float64) (r Rect, ok bool) {
	l := p.L
	mcx, mcy := l.Stage.Center()
	lift := p.lift(gl, x0, y0, x1, y1, side)
	var fallback Rect
	for _, t := range badgeSteps {
		x, y := Arc(x0, y0, x1, y1, lift, t, mcx, mcy)
		x = clamp(x, l.Stage.X+w/2, l.Stage.Right()-w/2)
		y = clamp(y, l.Stage.Y+h/2, l.Stage.Bottom()-h/2)
		c := Rect{x - w/2, y - h/2, w, h}
		if slices.ContainsFunc(p.badges, c.Overlaps) {
			continue
		}
		if !p.coversNumber(c) {
			return c, true
		}
		if !ok {
			fallback, ok = c, true
		}
	}
	return fallback, ok
}

// coversNumber reports whether r covers part of a CPU's number as
// fullCell and compactCell draw it.
func (p *Painter) coversNumber(r Rect) bool {
	l := p.L
	for i := range l.Cells {
		c := &l.Cells[i]
		if c.Label == "" || !c.Rect.Overlaps(r) {
			continue
		}
		if r.Overlaps(p.numberRect(c)) {
			return true
		}
	}
	return false
}

// numberRect is the box of cell c's number (c.Label) as drawn: at the left
// of the label band, or centred on the running task's block in the compact
// view.
func (p *Painter) numberRect(c *Cell) Rect {
	f := p.L.CellFont
	w, h := p.Measure(c.Label, f), f
	if p.L.Compact {
		cx, cy := c.Run.Center()
		return Rect{cx - w/2, cy - h/2, w, h}
	}
	return Rect{c.Run.X, c.Band.Y + c.Band.H/2 - h/2, w, h}
}

// glideSide is the side of a gliding task's block.
func (p *Painter) glideSide() float64 {
	l := p.L
	if l.Compact && len(l.Cells) > 0 {
		return clamp(min(l.Cells[0].W, l.Cells[0].H)*0.45, 6, 18)
	}
	return clamp(l.QueueH*1.4, 8, 64)
}

// DrawGlides draws glides (oldest first) at wall time now, each taking its
// own Dur (or dur) seconds to arrive.
func (p *Painter) DrawGlides(act []Glide, now, dur float64, dst *Scene) {
	l := p.L
	mcx, mcy := l.Stage.Center()
	side := p.glideSide()
	lw := clamp(side*0.12, 2, 5)
	if l.Compact && len(l.Cells) > 0 {
		lw = 2
	}
	badge := max(clamp(l.CellFont, 11, 20), l.MinText)
	// Examined CPUs of the newest glides still in flight.
	shown := 0
	for i := len(act) - 1; i >= 0 && shown < MaxExamined; i-- {
		gl := &act[i]
		if gl.Examined.Empty() || now-gl.Start > gl.duration(dur) {
			continue
		}
		shown++
		col := WithAlpha(CauseColor(gl.Cause), 0.85)
		for cpu := range l.Cells {
			if gl.Examined.Has(cpu) {
				dst.Stroke(l.Cells[cpu].Rect.Inset(-1), 2, col)
			}
		}
	}
	// Trails, then badges, then blocks on top.
	for i := range act {
		gl := &act[i]
		if int(gl.From) >= len(l.Cells) || int(gl.To) >= len(l.Cells) {
			continue
		}
		x0, y0 := l.Cells[gl.From].Run.Center()
		x1, y1 := l.Cells[gl.To].Run.Center()
		f := Ease(gl.Progress(now, gl.duration(dur)))
		fade := gl.Fade(now, gl.duration(dur))
		st := CauseStyle(gl.Cause)
		lift := p.lift(gl, x0, y0, x1, y1, side)
		p.xs, p.ys = p.xs[:0], p.ys[:0]
		n := max(1, int(math.Ceil(arcSteps*f)))
		for k := 0; k <= n; k++ {
			x, y := Arc(x0, y0, x1, y1, lift, f*float64(k)/float64(n), mcx, mcy)
			p.xs = append(p.xs, x)
			p.ys = append(p.ys, y)
		}
		w := lw * st.Width / 3
		col := WithAlpha(st.Color, fade)
		if st.Double {
			// Two parallel lines: offset the path by ±w.
			off := func(sign float64) {
				xs := make([]float64, len(p.xs))
				ys := make([]float64, len(p.ys))
				for k := range p.xs {
					a, b := max(k-1, 0), min(k+1, len(p.xs)-1)
					dx, dy := p.xs[b]-p.xs[a], p.ys[b]-p.ys[a]
					d := math.Hypot(dx, dy)
					if d == 0 {
						xs[k], ys[k] = p.xs[k], p.ys[k]
						continue
					}
					xs[k], ys[k] = p.xs[k]-dy/d*w*sign, p.ys[k]+dx/d*w*sign
				}
				dst.Polyline(xs, ys, w, col, nil)
			}
			off(1)
			off(-1)
		} else {
			dst.Polyline(p.xs, p.ys, w, col, st.Dash)
		}
	}
	// Badges for the newest few in flight (more would clutter a busy
	// machine), newest first, each only where it covers no newer one: 40
	// tbench pairs on a phone in talk mode piled four "30→31 LLC" badges
	// into one unreadable block.
	p.badges = p.badges[:0]
	for i := len(act) - 1; i >= 0 && len(p.badges) < MaxBadges; i-- {
		gl := &act[i]
		if now-gl.Start > gl.duration(dur) {
			continue
		}
		name := DistanceLabel(gl.Dist)
		if int(gl.From) >= len(l.Cells) || int(gl.To) >= len(l.Cells) {
			continue
		}
		if l.Cells[gl.To].Label == "" && int(gl.To) < len(l.Names) && int(gl.From) < len(l.Names) {
			// Cells too small for their numbers: the badge says where the
			// task went ("16→18 LLC").
			name = strings.TrimSpace(l.Names[gl.From] + "→" + l.Names[gl.To] + " " + name)
		}
		if name == "" {
			continue
		}
		x0, y0 := l.Cells[gl.From].Run.Center()
		x1, y1 := l.Cells[gl.To].Run.Center()
		if math.Hypot(x1-x0, y1-y0) < side*2 {
			continue
		}
		fade := gl.Fade(now, gl.duration(dur))
		w := p.Measure(name, badge) + badge*0.6
		// Inside the machine: the arc's apex is, but a badge as wide as
		// "128→130 LLC" (256 CPUs on a phone) centred on it stuck out
		// past the stage, where nothing repaints, and stayed on screen.
		if w > l.Stage.W || badge*1.4 > l.Stage.H {
			continue
		}
		r, ok := p.badgeSpot(gl, x0, y0, x1, y1, side, w, badge*1.4)
		if !ok {
			continue
		}
		x, y := r.Center()
		p.badges = append(p.badges, r)
		dst.Fill(r, WithAlpha(Background, 0.85*fade))
		dst.Stroke(r, 1, WithAlpha(CauseColor(gl.Cause), fade))
		dst.Label(x, y, badge, WithAlpha(CellLabel, fade), name, AlignCenter)
	}
	for i := range act {
		gl := &act[i]
		if int(gl.From) >= len(l.Cells) || int(gl.To) >= len(l.Cells) || now-gl.Start > gl.duration(dur) {
			continue
		}
		x0, y0 := l.Cells[gl.From].Run.Center()
		x1, y1 := l.Cells[gl.To].Run.Center()
		f := Ease(gl.Progress(now, gl.duration(dur)))
		x, y := Arc(x0, y0, x1, y1, p.lift(gl, x0, y0, x1, y1, side), f, mcx, mcy)
		r := Rect{x - side/2, y - side/2, side, side}
		col, tc := p.taskColor(gl.Task)
		dst.Fill(r, col)
		dst.Stroke(r, clamp(side*0.12, 1.5, 4), CauseColor(gl.Cause))
		if lk := p.look(gl.Task); lk != nil && lk.glide != "" {
			dst.Label(x, y, l.QueueFont, tc, lk.glide, AlignCenter)
		}
	}
}
