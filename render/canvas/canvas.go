// Package canvas composes the whole picture of one frame.Frame into render's
// display lists, without Ebiten: the dashboard (render.Dash), the machine
// or the two machines of an A/B comparison, the glides, the charts and
// heatmaps, the legend, and in talk mode the status line and the newest
// explanations. The browser front end hands the layers to
// render/ebitendraw; tests rasterize them with render/raster.
//
// Layers, drawn in this order:
//
//  1. Static: boxes, chart frames and titles, the legend, A/B captions.
//     It changes only on a relayout (Version), so a drawer caches it in an
//     offscreen image.
//  2. Dynamic: cells, charts' data, the A/B table, status and log panels.
//  3. Images: the heatmaps (pixel buffers, re-uploaded when their Version
//     changes, at most once per new sample).
//  4. Top: heatmap decorations, then the glides over everything.
//
// Usage, once per drawn frame: Take every published frame in order (each
// frame's moves start glides), then Build for the stage and the wall time.
package canvas

import (
	"math"
	"strings"

	"schedplay/frame"
	"schedplay/render"
	"schedplay/sim"
)

// maxExplanations is how many move explanations talk mode keeps.
const maxExplanations = 3

// holdExplanation is the least wall time an explanation stays the newest,
// so it can be read (seconds).
const holdExplanation = 1.5

// Canvas holds the state of the picture between frames.
type Canvas struct {
	Measure render.Measure

	last *frame.Frame
	// Layout key: what forces a relayout when it changes.
	rev    int64
	stage  render.Rect
	talk   bool
	ab     bool
	era    string
	theme  string // render.SetTheme's (a change redraws the static layer)
	exits  bool   // the throughput chart counts exits (frame.CountsExits): its title is static
	laidOK bool
	err    error

	dash   render.Dash
	legend render.Legend
	sides  [2]side
	cst    render.ChartStyle

	static  render.Scene
	version uint64
	dyn     render.Scene
	top     render.Scene
	images  []*render.Image
	heat    [2]heat

	// The Build before: its layers (swapped with dyn and top, not
	// copied), its images' versions and its stage, for Unchanged.
	prevDyn, prevTop render.Scene
	prevImages       []imageKey
	unchanged        bool

	metrics      [2]*sim.Metrics // newest metrics per side
	explains     []string
	explainedAt  float64
	pinned       [2][]render.Glide // moves paused on, per side
	pinnedFrame  uint64
	lastGlideAdd uint64
}

type side struct {
	topo    *sim.Topology
	layout  *render.Layout
	painter *render.Painter
	glides  render.Glides
}

type heat struct {
	rows   render.HeatRows
	area   render.Rect
	img    render.Image
	series *frame.Series
}

// New returns a canvas measuring text with m (nil: render.ApproxMeasure).
func New(m render.Measure) *Canvas {
	if m == nil {
		m = render.ApproxMeasure
	}
	c := &Canvas{Measure: m, rev: -1}
	c.heat[0].img.ID, c.heat[1].img.ID = 1, 2
	return c
}

// Take records frame f, published at wall time wall (seconds): its moves
// start glides, its metrics and explanation are kept.
func (c *Canvas) Take(f *frame.Frame, wall float64) {
	if f == nil {
		return
	}
	if c.last == nil || f.Rev != c.last.Rev {
		c.sides[0].glides.Clear()
		c.sides[1].glides.Clear()
		c.metrics = [2]*sim.Metrics{}
		c.explains = c.explains[:0]
		c.pinned = [2][]render.Glide{}
	}
	c.sides[0].glides.Add(f.A().Moves, f.A().Examined, f.A().Topology, wall)
	if f.A().Metrics != nil {
		c.metrics[0] = f.A().Metrics
	}
	if f.B() != nil {
		c.sides[1].glides.Add(f.B().Moves, f.B().Examined, f.B().Topology, wall)
		if f.B().Metrics != nil {
			c.metrics[1] = f.B().Metrics
		}
	} else {
		c.metrics[1] = nil
	}
	if f.PausedOnMove {
		c.pinned[0] = pinnedGlides(f.A().Moves, f.A().Examined, f.A().Topology)
		c.pinnedFrame = f.Seq
	} else if f.Playing {
		c.pinned = [2][]render.Glide{}
	}
	// While playing, an explanation stays the newest for holdExplanation
	// so it can be read; a paused frame's is the state on screen, and is
	// shown at once (a seek and a pause within that time had left the
	// panel on the preset's first fork at t = 0 under a machine at 40 ms).
	if f.A().LastMove != "" && (!f.Playing || wall-c.explainedAt >= holdExplanation || len(c.explains) == 0) {
		if n := len(c.explains); n == 0 || c.explains[n-1] != f.A().LastMove {
			c.explains = append(c.explains, f.A().LastMove)
			if len(c.explains) > maxExplanations {
				c.explains = c.explains[1:]
			}
			c.explainedAt = wall
		}
	}
	c.last = f
}

// pinnedGlides are the migrations of the frame paused on.
func pinnedGlides(moves []sim.Event, examined []sim.CPUMask, topo *sim.Topology) []render.Glide {
	var out []render.Glide
	for i := range moves {
		if moves[i].Kind != sim.EvMigrate {
			continue
		}
		var ex sim.CPUMask
		if i < len(examined) {
			ex = examined[i]
		}
		if g, ok := render.GlideFor(&moves[i], topo, ex, 0); ok {
			out = append(out, g)
		}
	}
	return out
}

// Err is why the machine could not be laid out (the stage is too small),
// nil if it was.
func (c *Canvas) Err() error { return c.err }

// Frame is the newest frame taken.
func (c *Canvas) Frame() *frame.Frame { return c.last }

// Static is the static layer and its version (bumped on every relayout).
func (c *Canvas) Static() (*render.Scene, uint64) { return &c.static, c.version }

// Dynamic is the layer of cells, charts and panels.
func (c *Canvas) Dynamic() *render.Scene { return &c.dyn }

// Images are the heatmaps.
func (c *Canvas) Images() []*render.Image { return c.images }

// Top is the overlay: heatmap decorations and glides.
func (c *Canvas) Top() *render.Scene { return &c.top }

// Dash is the current dashboard split.
func (c *Canvas) Dash() render.Dash { return c.dash }

// Layout is side k's machine layout (nil if none).
func (c *Canvas) Layout(k int) *render.Layout { return c.sides[k].layout }

// imageKey is what a drawer uploads and where it draws an image.
type imageKey struct {
	id      int
	version uint64
	dst     render.Rect
}

// Build lays the newest frame out in stage (relayout only when the
// scenario, the stage, talk mode or A/B changed) and fills the layers for
// wall time wall.
func (c *Canvas) Build(stage render.Rect, wall float64) {
	c.dyn, c.prevDyn = c.prevDyn, c.dyn
	c.top, c.prevTop = c.prevTop, c.top
	c.prevImages = c.prevImages[:0]
	for _, im := range c.images {
		c.prevImages = append(c.prevImages, imageKey{im.ID, im.Version, im.Dst})
	}
	version, laid := c.version, c.laidOK
	c.build(stage, wall)
	c.unchanged = laid && c.laidOK && c.version == version && c.dyn.Equal(&c.prevDyn) && c.top.Equal(&c.prevTop) &&
		len(c.images) == len(c.prevImages)
	for i := 0; c.unchanged && i < len(c.images); i++ {
		im := c.images[i]
		c.unchanged = imageKey{im.ID, im.Version, im.Dst} == c.prevImages[i]
	}
}

// Unchanged reports whether the last Build gave the same picture as the
// Build before it: the same static layer (Version), the same display lists
// and the same images at the same versions. A drawer that painted the
// picture before need not paint it again; a paused machine with no glide
// under way gives the same picture frame after frame, and under a software
// GL every frame painted is CPU time the simulator's thread does not get.
func (c *Canvas) Unchanged() bool { return c.unchanged }

func (c *Canvas) build(stage render.Rect, wall float64) {
	f := c.last
	c.dyn.Reset()
	c.top.Reset()
	c.images = c.images[:0]
	if f == nil {
		return
	}
	ab := f.B() != nil
	render.SetTheme(f.Theme)
	exits := frame.CountsExits(c.metrics[0], c.metrics[1])
	if f.Rev != c.rev || stage != c.stage || f.Talk != c.talk || ab != c.ab || f.A().Era != c.era || render.CurrentTheme() != c.theme || exits != c.exits {
		c.relayout(f, stage)
	}
	if !c.laidOK {
		return
	}
	d := &c.dash
	// Machines.
	snaps := [2]*sim.Snapshot{f.A().Snap}
	if ab {
		snaps[1] = f.B().Snap
	}
	for k := range c.sides {
		s := &c.sides[k]
		if s.painter == nil || snaps[k] == nil {
			continue
		}
		s.painter.Cells(snaps[k], &c.dyn)
	}
	// Charts.
	sd := render.Sides{A: f.A().Series}
	if ab {
		sd.B = f.B().Series
	}
	if !d.NoCharts {
		render.OpsChart(&c.dyn, d.Charts[render.ChartOps], c.cst, sd)
		render.LatencyChart(&c.dyn, d.Charts[render.ChartLatency], c.cst, sd)
		render.MigrationChart(&c.dyn, d.Charts[render.ChartMigrations], c.cst, sd)
		c.heatmaps(sd)
	}
	if ab {
		render.DiffTable(&c.dyn, d.Diff, d.Font, d.MinText, c.metrics[0], c.metrics[1], c.Measure)
	}
	// More moves than can be animated: say how many are shown, in talk
	// mode on the status line, otherwise under the migrations chart (a
	// badge in the machine covered its last row of cells).
	var animated [2]string
	for k := range c.sides {
		if c.sides[k].painter == nil {
			continue
		}
		if seen, shown := c.sides[k].glides.Rate(wall); seen > shown {
			animated[k] = frame.FormatValue(float64(shown)) + " of " + frame.FormatValue(float64(seen))
		}
	}
	noted := f.Talk
	if text := animatedText(animated, ab); text != "" && !f.Talk {
		short, tiny := strings.TrimPrefix(text, "moves "), ""
		if !ab {
			tiny = animatedShort(animated, false)
		}
		noted = render.ChartNote(&c.dyn, d.Charts[render.ChartMigrations], c.cst, text, short, tiny)
	}
	if f.Talk {
		render.StatusLine(&c.dyn, d.Status, d.Font, render.Status{
			Playing: f.Playing, Finished: f.A().Now >= f.Duration, PauseOnMove: f.PauseOnMove,
			PausedOnMove: !f.Playing && len(c.pinned[0]) > 0, Speed: f.Speed, Now: f.A().Now,
			Duration: f.Duration, Animated: animatedText(animated, ab), AnimatedShort: animatedShort(animated, ab),
		}, c.Measure)
		if d.Log.W > 0 {
			render.LogPanel(&c.dyn, d.Log, max(d.Font*0.9, d.MinText), c.explains, c.Measure)
		}
	}
	// Glides on top.
	for k := range c.sides {
		s := &c.sides[k]
		if s.painter == nil {
			continue
		}
		s.painter.Glides(&s.glides, wall, &c.top)
		if !f.Playing && len(c.pinned[k]) > 0 {
			s.painter.Pinned(c.pinned[k], &c.top)
		}
		// Where the chart has no room for it, the count goes in the
		// machine's corner that covers the fewest cells.
		if animated[k] != "" && !noted {
			fs := max(11, d.Font*0.85, d.MinText)
			text := "moves animated: " + animated[k] + " per second"
			w := c.Measure(text, fs) + fs
			x, y := render.QuietCorner(d.Machine[k].Inset(2), w, fs*1.5, s.layout)
			render.Note(&c.top, x, y, fs, render.Muted, text, c.Measure)
		}
	}
}

// animatedText says how many of each side's moves are animated, for the
// status line (talk mode) or the migrations chart ("" when every move is).
func animatedText(animated [2]string, ab bool) string {
	switch {
	case animated[0] == "" && animated[1] == "":
		return ""
	case !ab:
		return "moves animated: " + animated[0] + "/s"
	}
	text := "moves animated:"
	for k, name := range [2]string{"A", "B"} {
		if k > 0 {
			text += " ·"
		}
		if animated[k] != "" {
			text += " " + name + " " + animated[k] + "/s"
		} else {
			text += " " + name + " all"
		}
	}
	return text
}

// animatedShort is animatedText for a narrow status line: "animated
// 20/250k" ("20 of 250k" moves a second), with A/B "animated A 20/250k ·
// B all".
func animatedShort(animated [2]string, ab bool) string {
	short := func(s string) string { return strings.Replace(s, " of ", "/", 1) }
	switch {
	case animated[0] == "" && animated[1] == "":
		return ""
	case !ab:
		return "animated " + short(animated[0])
	}
	text := "animated"
	for k, name := range [2]string{"A", "B"} {
		if k > 0 {
			text += " ·"
		}
		if animated[k] != "" {
			text += " " + name + " " + short(animated[k])
		} else {
			text += " " + name + " all"
		}
	}
	return text
}

func (c *Canvas) relayout(f *frame.Frame, stage render.Rect) {
	c.rev, c.stage, c.talk, c.ab, c.era, c.theme = f.Rev, stage, f.Talk, f.B() != nil, f.A().Era, render.CurrentTheme()
	c.exits = frame.CountsExits(c.metrics[0], c.metrics[1])
	c.version++
	c.static.Reset()
	c.laidOK = false
	c.err = nil
	c.sides[0] = side{glides: c.sides[0].glides}
	c.sides[1] = side{glides: c.sides[1].glides}
	ab := f.B() != nil
	topos := [2]*sim.Topology{f.A().Topology}
	tasks := [2][]sim.TaskInfo{f.A().Tasks}
	idle := [2][]sim.IdleState{f.A().IdleStates}
	eras := [2]string{f.A().Era}
	if ab {
		topos[1], tasks[1], idle[1], eras[1] = f.B().Topology, f.B().Tasks, f.B().IdleStates, f.B().Era
	}
	// The legend depends on the machine's view (compact or not), which
	// depends on the space the legend leaves: lay out with the full view's
	// legend, then redo once if the machine turned out compact.
	lo := render.LegendOptions{V38: f.A().Era == "v3.8", V268: f.A().Era == "v2.6.8", Talk: f.Talk}
	for attempt := 0; attempt < 2; attempt++ {
		items := render.LegendItems(lo)
		legendH := func(w, font float64) float64 {
			return render.LayoutLegend(c.legendItems(items, w, font), w, font, c.Measure).H
		}
		// With A/B, B beside A or under it: whichever gives larger cells.
		best := -1.0
		for _, stacked := range []bool{false, true} {
			if stacked && !ab {
				break
			}
			dash := render.NewDash(stage, render.DashOptions{Talk: f.Talk, AB: ab, Stacked: stacked, LegendH: legendH})
			var sides [2]side
			area := math.Inf(1)
			var err error
			for k := range 2 {
				if topos[k] == nil || (k == 1 && !ab) {
					continue
				}
				l, e := render.NewLayoutWith(topos[k], dash.Machine[k], c.Measure, render.LayoutOptions{Talk: f.Talk, LLCSize: f.A().LLCSize, L2Size: f.A().L2Size})
				if e != nil {
					err = e
					area = 0
					break
				}
				area = math.Min(area, l.Cells[0].W*l.Cells[0].H)
				sides[k] = side{topo: topos[k], layout: l}
			}
			if area > best {
				best = area
				c.dash = dash
				c.err = err
				for k := range sides {
					c.sides[k].topo, c.sides[k].layout = sides[k].topo, sides[k].layout
				}
			}
		}
		if c.err != nil {
			return
		}
		compact := false
		for k := range 2 {
			if l := c.sides[k].layout; l != nil {
				compact = compact || l.Compact
			}
		}
		if compact == lo.Compact {
			break
		}
		lo.Compact = compact
	}
	for k := range 2 {
		if l := c.sides[k].layout; l != nil {
			p := render.NewPainter(l, tasks[k], idle[k], c.Measure)
			p.V38 = eras[k] == "v3.8"
			c.sides[k].painter = p
		}
	}
	d := &c.dash
	c.cst = render.ChartStyle{Font: d.Font, Measure: c.Measure, AB: ab, MinText: d.MinText, Exits: c.exits}
	c.legend = render.LayoutLegend(c.legendItems(render.LegendItems(lo), d.Legend.W, d.LegendFont), d.Legend.W, d.LegendFont, c.Measure)
	c.legend.MinText = d.MinText
	// Static layer.
	for k := range c.sides {
		if l := c.sides[k].layout; l != nil {
			render.AppendStatic(l, &c.static)
		}
	}
	if ab {
		render.Caption(&c.static, d.Caption[0], d.Font*1.1, f.A().Label, render.SideA, c.Measure)
		render.Caption(&c.static, d.Caption[1], d.Font*1.1, f.B().Label, render.SideB, c.Measure)
	}
	if !d.NoCharts {
		for i, r := range d.Charts {
			render.ChartFrame(&c.static, r, render.Chart(i), c.cst)
		}
	}
	if d.Legend.H > 0 { // a short or narrow stage has none (render.NewDash)
		c.legend.Draw(&c.static, d.Legend.X, d.Legend.Y)
	}
	// Heatmap rows: one per CPU while they fit, one per pixel row else.
	areas := render.HeatArea(d.Charts[render.ChartHeat], c.cst, ab)
	for k := range c.heat {
		h := &c.heat[k]
		h.series = nil
		h.area = areas[k]
		if topos[k] == nil || (k == 1 && !ab) || d.NoCharts {
			h.rows = render.HeatRows{}
			continue
		}
		h.rows = render.NewHeatRows(topos[k], int(math.Max(1, math.Floor(areas[k].H))))
	}
	c.laidOK = true
}

// legendItems are the legend's items for a legend w wide at font size
// font: all of them, or in talk mode those that fit in one row.
func (c *Canvas) legendItems(items []render.LegendItem, w, font float64) []render.LegendItem {
	if c.talk {
		return render.FirstRow(items, w, font, c.Measure)
	}
	return items
}

// heatmaps refreshes the heatmap images when a sample was added.
func (c *Canvas) heatmaps(sd render.Sides) {
	series := [2]*frame.Series{sd.A, sd.B}
	labels := [2]string{}
	if sd.B != nil {
		labels = [2]string{"A", "B"}
	}
	for k := range c.heat {
		h := &c.heat[k]
		if len(h.rows.Groups) == 0 || series[k] == nil {
			continue
		}
		if h.series != series[k] {
			h.series = series[k]
			h.img.Pix = render.HeatPixels(h.img.Pix, series[k].Samples, h.rows)
			h.img.W, h.img.H = frame.SeriesLen, len(h.rows.Groups)
			h.img.Version++
		}
		h.img.Dst = h.area
		c.images = append(c.images, &h.img)
		render.HeatDecor(&c.top, h.area, c.cst, h.rows, labels[k])
	}
	if s := sd.A; s != nil && len(s.Samples) > 0 {
		r := c.dash.Charts[render.ChartHeat]
		last := s.Last()
		render.ChartCaption(&c.dyn, r, c.cst, s.Samples)
		if last.IWO > 0 && sd.B == nil {
			f := c.cst.Font
			lbl := frame.FormatValue(float64(last.IWO)) + " idle while tasks wait"
			lf := max(f*0.85, c.cst.MinText)
			if c.Measure(render.ChartTitle(render.ChartHeat), f)+c.Measure(lbl, lf)+f*2 < r.W && c.Measure(lbl, lf)+f*7 < r.W {
				c.dyn.Label(r.Right()-f*0.5, r.Y+math.Ceil(f*1.5)/2, lf, render.IWOColor, lbl, render.AlignRight)
			}
		}
	}
}
