package render

import (
	"image/color"
	"math"
	"strconv"

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
// and glides. It caches the fitted task labels and colours for its layout;
// make a new Painter when the layout or the task list changes.
type Painter struct {
	L         *Layout
	Tasks     []sim.TaskInfo
	IdleNames []string // C-state names, Costs.IdleStates order
	Measure   Measure
	// V38 selects which load signals split the load bar (see above).
	V38 bool

	runLabels, queueLabels []string     // per task id, fitted to the layout
	colors, textColors     []color.RGBA // per task id: block colour, label colour on it
	xs, ys                 []float64    // scratch for arcs
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
	if len(l.Cells) == 0 || l.Compact {
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
		if int(cs.Curr) < len(p.runLabels) {
			cx, cy := c.Run.Center()
			dst.Label(cx, cy, l.TaskFont, tc, p.runLabels[cs.Curr], AlignCenter)
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
		dst.Label(cx, cy, clamp(l.TaskFont*0.9, l.CellFont*0.85, 26), col, name, AlignCenter)
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
		for k := range parts {
			w := r.W * clamp(float64(parts[k])/BarScale, 0, 1)
			w = min(w, r.Right()-x)
			dst.Fill(Rect{x, r.Y, w, r.H}, cols[k])
			x += w
		}
		if total > BarScale {
			tip := max(2, r.H*0.6)
			dst.Fill(Rect{r.Right() - tip, r.Y, tip, r.H}, BarOverflow)
		}
		// The scale: a notch at 512, half of a full bar.
		dst.Fill(Rect{math.Round(r.X + r.W/2), r.Y, 1, r.H}, BarTick)
		if f := p.L.BarFont; f > 0 {
			cy := r.Y + r.H/2
			dst.Label(r.X+3, cy, f, black, name, AlignLeft)
			dst.Label(r.Right()-3-max(2, r.H*0.6), cy, f, CellLabel, strconv.FormatInt(total, 10), AlignRight)
		}
	}
	bar(c.Util, "util", [2]int64{cs.UtilAvg, 0}, [2]color.RGBA{UtilBar, UtilBar})
	bar(c.Runnable, "runnable", [2]int64{cs.RunnableAvg, 0}, [2]color.RGBA{RunnableBar, RunnableBar})
	bar(c.Load, "load", [2]int64{run, blocked}, [2]color.RGBA{LoadBar, BlockedBar})
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
	if cs.Curr >= 0 {
		col, _ := p.taskColor(cs.Curr)
		dst.Fill(c.Run, col)
	} else if cs.Waking > 0 || len(cs.Queue) > 0 {
		dst.Stroke(c.Run, 1, CauseColor(sim.CauseWakeup))
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

// DrawGlides draws glides (oldest first) at wall time now, each taking its
// own Dur (or dur) seconds to arrive.
func (p *Painter) DrawGlides(act []Glide, now, dur float64, dst *Scene) {
	l := p.L
	mcx, mcy := l.Stage.Center()
	side := clamp(l.QueueH*1.4, 8, 64)
	lw := clamp(side*0.12, 2, 5)
	if l.Compact && len(l.Cells) > 0 {
		side = clamp(min(l.Cells[0].W, l.Cells[0].H)*0.45, 6, 18)
		lw = 2
	}
	badge := clamp(l.CellFont, 11, 20)
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
		lift := ArcLift(gl.Dist)
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
	// Badges for the newest few in flight (more would clutter a busy machine).
	for i := max(0, len(act)-MaxBadges); i < len(act); i++ {
		gl := &act[i]
		if now-gl.Start > gl.duration(dur) {
			continue
		}
		name := DistanceLabel(gl.Dist)
		if name == "" || int(gl.From) >= len(l.Cells) || int(gl.To) >= len(l.Cells) {
			continue
		}
		x0, y0 := l.Cells[gl.From].Run.Center()
		x1, y1 := l.Cells[gl.To].Run.Center()
		if math.Hypot(x1-x0, y1-y0) < side*2 {
			continue
		}
		fade := gl.Fade(now, gl.duration(dur))
		x, y := Arc(x0, y0, x1, y1, ArcLift(gl.Dist), 0.5, mcx, mcy)
		w := p.Measure(name, badge) + badge*0.6
		r := Rect{x - w/2, y - badge*0.7, w, badge * 1.4}
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
		x, y := Arc(x0, y0, x1, y1, ArcLift(gl.Dist), f, mcx, mcy)
		r := Rect{x - side/2, y - side/2, side, side}
		col, tc := p.taskColor(gl.Task)
		dst.Fill(r, col)
		dst.Stroke(r, clamp(side*0.12, 1.5, 4), CauseColor(gl.Cause))
		if int(gl.Task) < len(p.queueLabels) && !l.Compact {
			if s := fit(p.Measure, l.QueueFont, side-6, p.queueLabels[gl.Task]); s != "" {
				dst.Label(x, y, l.QueueFont, tc, s, AlignCenter)
			}
		}
	}
}
