package render

import (
	"image/color"
	"math"
	"slices"
	"strconv"

	"schedplay/frame"
	"schedplay/sim"
)

// Charts: four time-series panels under (or beside) the machine, each
// frame.SeriesLen samples wide with the newest on the right.
//
//  1. ops/s: completed program iterations per simulated second; for a
//     workload whose tasks exit instead of looping (kernbench's make:
//     frame.CountsExits), "exits/s", the tasks that exited per simulated
//     second (ChartStyle.Exits). The title's value is the rate over the
//     panel's width (panelRate), as the migrations panel's.
//  2. wake-up latency: p50, p95 and p99 of the wake-ups completed in each
//     sample, on a logarithmic axis (latencies span orders of magnitude).
//  3. migrations/s by cause: stacked columns in the cause colours; with
//     A/B, side A grows up from the middle line and side B down. The
//     title's value is the rate over the panel's width (panelRate).
//  4. nr_running per CPU: a heatmap, one row per CPU in topology order
//     (nodes top to bottom), one column per sample; idle CPUs while tasks
//     wait elsewhere (idle while overloaded) in magenta.
//
// With A/B the line charts draw side A in white and side B in gold.

// Chart identifies one panel.
type Chart int

const (
	ChartOps Chart = iota
	ChartLatency
	ChartMigrations
	ChartHeat
	NumCharts
)

// ChartTitle is the panel's title.
func ChartTitle(c Chart) string {
	return [...]string{"ops/s", "wake-up latency (µs)", "migrations/s by cause", "nr_running per CPU"}[c]
}

// chartShortTitle is the title of a narrow panel.
func chartShortTitle(c Chart) string {
	return [...]string{"ops/s", "latency µs", "migrations/s", "nr_running"}[c]
}

// chartTinyTitle is the title of a panel too narrow for the short one
// beside its values (a phone in talk mode with A/B: "migrations/" ran
// under "A 0 B 0", "latency µs" under "A 2.0k B 3.9k"); nr_running's
// panel has no values.
func chartTinyTitle(c Chart) string {
	return [...]string{"ops/s", "lat. µs", "migr/s", "nr_running"}[c]
}

// Latency line colours (one side): p50, p95, p99.
var latColors = [3]color.RGBA{
	{0xd8, 0xde, 0xe8, 0xff},
	{0xff, 0xb3, 0x47, 0xff},
	{0xff, 0x5c, 0x6c, 0xff},
}

// ChartStyle sizes the charts' type.
type ChartStyle struct {
	Font    float64 // title and values, px
	Measure Measure // nil: ApproxMeasure
	AB      bool    // two sides: two values in each title line
	// MinText is the smallest text (talk mode: TalkMinText): axis values,
	// captions and line names are no smaller.
	MinText float64
	// Exits: the throughput panel plots the tasks exited per second
	// instead of ops per second (frame.CountsExits of the runs shown).
	Exits bool
}

func (st ChartStyle) measure(s string, f float64) float64 {
	if st.Measure == nil {
		return ApproxMeasure(s, f)
	}
	return st.Measure(s, f)
}

// valueRoom is the title line's width kept for the newest values.
func (st ChartStyle) valueRoom() float64 {
	if st.AB {
		return st.Font * 12
	}
	return st.Font * 8
}

func (st ChartStyle) small() float64 { return max(10, st.Font*0.8, st.MinText) }

// titleBand is the height of a chart's title line.
func (st ChartStyle) titleBand() float64 { return math.Ceil(st.Font * 1.5) }

// ChartFrame draws the static part of a chart: panel and title.
func ChartFrame(dst *Scene, r Rect, c Chart, st ChartStyle) {
	dst.Fill(r, Panel)
	dst.Stroke(r, 1, PanelBorder)
	dst.Label(r.X+st.Font*0.5, r.Y+st.titleBand()/2, st.Font, BoxLabel, chartTitleIn(c, r.W, st), AlignLeft)
}

// chartTitleIn is the title chart c shows in a panel w wide.
func chartTitleIn(c Chart, w float64, st ChartStyle) string {
	if c == ChartOps && st.Exits {
		// One short form: "tasks exited/s" where it fits with its values.
		if st.measure("tasks exited/s", st.Font)+st.valueRoom() <= w {
			return "tasks exited/s"
		}
		return "exits/s"
	}
	title := ChartTitle(c)
	if st.measure(title, st.Font)+st.valueRoom() > w {
		title = chartShortTitle(c)
	}
	// The tiny one only where the short one cannot share the line with
	// short values ("A 20k B 0": 7 em): a projector's narrow panel keeps
	// "migrations/s".
	if st.measure(title, st.Font)+st.Font*7 > w {
		title = chartTinyTitle(c)
	}
	return title
}

// titleRoom is the width of chart c's title line left for its values in
// a panel w wide.
func titleRoom(c Chart, w float64, st ChartStyle) float64 {
	return w - st.Font - st.measure(chartTitleIn(c, w, st), st.Font) - st.Font*0.6
}

// headValue is one newest value in a chart's title line: s, or short
// where the values do not fit beside the title ("78k" for "A 78k": the
// colour says the side; "212" for "p99 212").
type headValue struct {
	s, short string
	c        color.RGBA
}

// headValues writes the newest values right-aligned in chart r's title
// line, the last one right-most.
func headValues(dst *Scene, r Rect, st ChartStyle, c Chart, vals []headValue) {
	x := r.Right() - st.Font*0.5
	y := r.Y + st.titleBand()/2
	width := func(short bool) float64 {
		w := -st.Font * 0.6
		for _, v := range vals {
			s := v.s
			if short && v.short != "" {
				s = v.short
			}
			w += st.measure(s, st.Font) + st.Font*0.6
		}
		return w
	}
	if room := titleRoom(c, r.W, st); width(false) > room {
		// With A/B the table beside the charts has the numbers: where
		// even the short forms do not fit, the title stays whole and the
		// values go (talk mode at 1280x720 under a three-line caption had
		// "op A 78k B 98k").
		if st.AB && width(true) > room {
			return
		}
		for i := range vals {
			if vals[i].short != "" {
				vals[i].s = vals[i].short
			}
		}
	}
	// The values sit on the panel's own colour, so that where a narrow
	// panel's title runs under them (talk mode at 1280x720) the numbers are
	// read, not both strokes on top of each other.
	if len(vals) > 0 {
		w := -st.Font * 0.6
		for _, v := range vals {
			w += st.measure(v.s, st.Font) + st.Font*0.6
		}
		pad := st.Font * 0.3
		dst.Fill(Rect{X: x - w - pad, Y: r.Y + 1, W: w + pad, H: st.titleBand() - 1}, Panel)
	}
	for i := len(vals) - 1; i >= 0; i-- {
		dst.Label(x, y, st.Font, vals[i].c, vals[i].s, AlignRight)
		x -= st.measure(vals[i].s, st.Font) + st.Font*0.6
	}
}

// sideValues labels one value per side: "40k" alone, or "A 40k", "B 230k".
func sideValues(sd Sides, f func(s *frame.Series) (string, bool), single color.RGBA) []headValue {
	var out []headValue
	for k, s := range sd.list() {
		v, ok := f(s)
		if !ok {
			continue
		}
		if sd.B == nil {
			out = append(out, headValue{s: v, c: single})
			continue
		}
		out = append(out, headValue{[...]string{"A ", "B "}[k] + v, v, []color.RGBA{SideA, SideB}[k]})
	}
	return out
}

// plotArea is the part of chart r where data goes.
func plotArea(r Rect, st ChartStyle) Rect {
	pad := math.Round(st.Font * 0.5)
	bottom := math.Ceil(st.small() * 1.4) // x-axis caption
	return Rect{r.X + pad, r.Y + st.titleBand(), r.W - 2*pad, r.H - st.titleBand() - bottom}
}

// NiceCeil rounds v up to 1, 2 or 5 times a power of ten (the axis top).
func NiceCeil(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// span is the simulated time the samples cover.
func span(ss []*frame.Sample) int64 {
	var t int64
	for _, s := range ss {
		t += s.Dt
	}
	return t
}

// xOf is the left edge of sample slot i (of frame.SeriesLen, newest at the right)
// for a series of n samples.
func xOf(a Rect, i, n int) float64 {
	slot := a.W / frame.SeriesLen
	return a.X + float64(frame.SeriesLen-n+i)*slot
}

// ChartCaption writes the time the samples span under chart r, in its
// right half (the left half may hold a line legend).
func ChartCaption(dst *Scene, r Rect, st ChartStyle, ss []*frame.Sample) {
	if len(ss) == 0 {
		return
	}
	y := r.Bottom() - math.Ceil(st.small()*1.4)/2
	t := frame.FormatSimTime(span(ss))
	m := st.Measure
	if m == nil {
		m = ApproxMeasure
	}
	if s := fit(m, st.small(), r.W*0.5-st.Font*0.5, "last "+t+" simulated", "last "+t, t); s != "" {
		dst.Label(r.Right()-st.Font*0.5, y, st.small(), Muted, s, AlignRight)
	}
}

// ChartNote writes the first of candidates that fits in chart r's footer,
// left half (ChartCaption has the right half), and says whether one did.
func ChartNote(dst *Scene, r Rect, st ChartStyle, candidates ...string) bool {
	m := st.Measure
	if m == nil {
		m = ApproxMeasure
	}
	s := fit(m, st.small(), r.W*0.5-st.Font*0.5, candidates...)
	if s == "" || r.H < st.small()*3 {
		return false
	}
	dst.Label(r.X+st.Font*0.5, r.Bottom()-math.Ceil(st.small()*1.4)/2, st.small(), Muted, s, AlignLeft)
	return true
}

// LineValues is one line of a line chart.
type LineValues struct {
	V     []float64 // per sample; negative or NaN: no value (a gap)
	C     color.RGBA
	Width float64
}

// lineChart draws lines in a (y from 0 to top, or log from lo to top).
func lineChart(dst *Scene, a Rect, lines []LineValues, n int, top, lo float64, logY bool) {
	yOf := func(v float64) float64 {
		if logY {
			f := (math.Log10(max(v, lo)) - math.Log10(lo)) / (math.Log10(top) - math.Log10(lo))
			return a.Bottom() - a.H*clamp(f, 0, 1)
		}
		return a.Bottom() - a.H*clamp(v/top, 0, 1)
	}
	slot := a.W / frame.SeriesLen
	var xs, ys []float64
	for _, ln := range lines {
		xs, ys = xs[:0], ys[:0]
		flush := func() {
			if len(xs) == 1 {
				dst.Fill(Rect{xs[0] - ln.Width/2, ys[0] - ln.Width/2, ln.Width, ln.Width}, ln.C)
			}
			dst.Polyline(xs, ys, ln.Width, ln.C, nil)
			xs, ys = xs[:0], ys[:0]
		}
		for i, v := range ln.V {
			if !(v >= 0) {
				flush()
				continue
			}
			xs = append(xs, xOf(a, i, n)+slot/2)
			ys = append(ys, yOf(v))
		}
		flush()
	}
}

// grid draws horizontal grid lines at the given fractions of a's height.
func grid(dst *Scene, a Rect, fracs ...float64) {
	for _, f := range fracs {
		y := math.Round(a.Bottom() - a.H*f)
		dst.Fill(Rect{a.X, y, a.W, 1}, GridLine)
	}
}

// axisValue is an axis value drawn over a plot ("200k", a latency decade's
// "100", "A ↑ 2.0M").
type axisValue struct {
	x, y float64
	c    color.RGBA
	s    string
}

// axisValues draws vs on a backing of the panel's colour, so that a line or
// a column crossing a value does not run through its digits (the latency
// chart's "100" under its p99 line at 1280x720). Call it after the data:
// quads are drawn in order, every text after every quad.
func axisValues(dst *Scene, st ChartStyle, vs []axisValue) {
	f := st.small()
	for _, v := range vs {
		w := st.measure(v.s, f)
		dst.Fill(Rect{v.x - 2, v.y - f*0.6, w + 4, f * 1.2}, WithAlpha(Panel, 0.8))
		dst.Label(v.x, v.y, f, v.c, v.s, AlignLeft)
	}
}

// Sides is the data of one or two sides (A, and B when comparing).
type Sides struct {
	A, B *frame.Series
}

func (s Sides) list() []*frame.Series {
	if s.B == nil {
		return []*frame.Series{s.A}
	}
	return []*frame.Series{s.A, s.B}
}

func samplesOf(s *frame.Series) []*frame.Sample {
	if s == nil {
		return nil
	}
	return s.Samples
}

// OpsChart draws the throughput panel's data into r (the frame is
// ChartFrame's): ops per second, or tasks exited per second (st.Exits).
func OpsChart(dst *Scene, r Rect, st ChartStyle, sd Sides) {
	a := plotArea(r, st)
	rate := func(smp *frame.Sample) float64 {
		if st.Exits {
			return smp.ExitRate
		}
		return smp.OpsRate
	}
	top := 0.0
	for _, s := range sd.list() {
		for _, smp := range samplesOf(s) {
			top = max(top, rate(smp))
		}
	}
	top = NiceCeil(top)
	grid(dst, a, 0, 0.5, 1)
	var axis []axisValue
	if a.H >= st.small()*1.2 {
		axis = append(axis, axisValue{a.X + 2, a.Y + st.small()*0.6, Muted, frame.FormatValue(top)})
	}
	cols := []color.RGBA{SideA, SideB}
	var lines []LineValues
	n := len(samplesOf(sd.A))
	for k, s := range sd.list() {
		ss := samplesOf(s)
		v := make([]float64, len(ss))
		for i, smp := range ss {
			v[i] = rate(smp)
		}
		lines = append(lines, LineValues{V: v, C: cols[k], Width: 2.5})
		n = max(n, len(ss))
	}
	lineChart(dst, a, lines, n, top, 0, false)
	axisValues(dst, st, axis)
	// The head value is the rate over the panel, as the migrations
	// panel's: the newest smoothed sample reads 0 between a sparse run's
	// ops (SDET's script steps at 2 ms/s, 0.8 ms a window) while the
	// metrics say 1 850 a second.
	headValues(dst, r, st, ChartOps, sideValues(sd, func(s *frame.Series) (string, bool) {
		if st.Exits {
			return panelRate(s, func(smp *frame.Sample) int64 { return int64(smp.Exits) })
		}
		return panelRate(s, func(smp *frame.Sample) int64 { return smp.Ops })
	}, SideA))
	ChartCaption(dst, r, st, samplesOf(sd.A))
}

// LatencyChart draws the wake-up latency panel's data.
func LatencyChart(dst *Scene, r Rect, st ChartStyle, sd Sides) {
	a := plotArea(r, st)
	top := 1.0
	for _, s := range sd.list() {
		for _, smp := range samplesOf(s) {
			top = max(top, smp.LatP99)
		}
	}
	top = NiceCeil(top)
	lo := math.Max(top/1e4, 0.1)
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	// Grid lines at the decades, labelled from the top down as far as the
	// labels do not run into each other or out of the plot (a low panel
	// at talk mode's type holds only one or two).
	var decades []float64
	for d := lo; d <= top*1.0001; d *= 10 {
		decades = append(decades, d)
	}
	lastY := math.Inf(-1)
	var axis []axisValue
	for i := len(decades) - 1; i >= 0; i-- {
		d := decades[i]
		f := (math.Log10(d) - math.Log10(lo)) / (math.Log10(top) - math.Log10(lo))
		grid(dst, a, f)
		y := a.Bottom() - a.H*f + st.small()*0.6
		if f > 0.08 && y-lastY >= st.small()*1.1 && y+st.small()*0.5 <= a.Bottom()+1 {
			axis = append(axis, axisValue{a.X + 2, y, Muted, frame.FormatValue(d)})
			lastY = y
		}
	}
	var lines []LineValues
	n := 0
	for k, s := range sd.list() {
		ss := samplesOf(s)
		n = max(n, len(ss))
		p := [3][]float64{make([]float64, len(ss)), make([]float64, len(ss)), make([]float64, len(ss))}
		for i, smp := range ss {
			p[0][i], p[1][i], p[2][i] = smp.LatP50, smp.LatP95, smp.LatP99
		}
		if sd.B == nil {
			lines = append(lines,
				LineValues{V: p[1], C: latColors[1], Width: 1.5},
				LineValues{V: p[0], C: latColors[0], Width: 2},
				LineValues{V: p[2], C: latColors[2], Width: 2.5})
		} else {
			c := []color.RGBA{SideA, SideB}[k]
			lines = append(lines,
				LineValues{V: p[0], C: WithAlpha(c, 0.6), Width: 1.5},
				LineValues{V: p[2], C: c, Width: 2.5})
		}
	}
	lineChart(dst, a, lines, n, top, lo, true)
	axisValues(dst, st, axis)
	// The newest p99, large; in a panel too narrow for "p99 212" beside
	// the title (a phone's talk mode, 123 px), the number alone, in p99's
	// colour (the legend under the plot says which line that is).
	vals := sideValues(sd, func(s *frame.Series) (string, bool) {
		if last := s.Last(); last != nil && last.LatP99 >= 0 {
			return frame.FormatValue(last.LatP99), true
		}
		return "", false
	}, latColors[2])
	if sd.B == nil {
		for i := range vals {
			vals[i].s, vals[i].short = "p99 "+vals[i].s, vals[i].s
		}
	}
	headValues(dst, r, st, ChartLatency, vals)
	if sd.B != nil {
		y := r.Bottom() - math.Ceil(st.small()*1.4)/2
		if l := fit(st.measure, st.small(), r.W*0.5-st.Font, "thick p99, thin p50", "p99, p50"); l != "" {
			dst.Label(r.X+st.Font*0.5, y, st.small(), Muted, l, AlignLeft)
		}
	}
	if sd.B == nil {
		// The legend: the three lines' names in their colours, as many as
		// fit (p99's first to go last: "p50 p95 p99", "p50 p99", "p99").
		y := r.Bottom() - math.Ceil(st.small()*1.4)/2
		gap := st.small() * 0.7
		var names []int
		for _, set := range [][]int{{0, 1, 2}, {0, 2}, {2}} {
			w := -gap
			for _, i := range set {
				w += st.measure(latNames[i], st.small()) + gap
			}
			if w <= r.W-st.Font {
				names = set
				break
			}
		}
		x := r.X + st.Font*0.5
		for _, i := range names {
			dst.Label(x, y, st.small(), latColors[i], latNames[i], AlignLeft)
			x += st.measure(latNames[i], st.small()) + gap
		}
		// A narrow panel (talk mode at 1280x720) has no room for the time
		// caption beside the legend: the legend says what the lines are.
		if x-gap > r.X+r.W*0.5 {
			return
		}
	}
	ChartCaption(dst, r, st, samplesOf(sd.A))
}

// latNames are the latency lines' names, as latColors.
var latNames = [3]string{"p50", "p95", "p99"}

// MigrationChart draws the migrations/s panel's data: stacked columns by
// cause (side B mirrored below the middle line).
func MigrationChart(dst *Scene, r Rect, st ChartStyle, sd Sides) {
	a := plotArea(r, st)
	top := 0.0
	for _, s := range sd.list() {
		for _, smp := range samplesOf(s) {
			top = max(top, perSecond(smp.MigTotal(), smp.Dt))
		}
	}
	top = NiceCeil(top)
	slot := a.W / frame.SeriesLen
	w := math.Max(1, slot)
	draw := func(ss []*frame.Sample, base, h float64, down bool) {
		for i, smp := range ss {
			x := xOf(a, i, len(ss))
			y := base
			for c := sim.Cause(1); c < sim.NumCauses; c++ {
				v := perSecond(int64(smp.Mig[c]), smp.Dt)
				if v <= 0 {
					continue
				}
				bh := h * clamp(v/top, 0, 1)
				if down {
					dst.Fill(Rect{x, y, w, bh}, CauseColor(c))
					y += bh
				} else {
					y -= bh
					dst.Fill(Rect{x, y, w, bh}, CauseColor(c))
				}
			}
		}
	}
	if sd.B == nil {
		grid(dst, a, 0, 0.5, 1)
		draw(samplesOf(sd.A), a.Bottom(), a.H, false)
		if a.H >= st.small()*1.2 {
			axisValues(dst, st, []axisValue{{a.X + 2, a.Y + st.small()*0.6, Muted, frame.FormatValue(top)}})
		}
	} else {
		mid := math.Round(a.Y + a.H/2)
		grid(dst, a, 0, 1)
		dst.Fill(Rect{a.X, mid, a.W, 1}, Muted)
		draw(samplesOf(sd.A), mid, a.H/2, false)
		draw(samplesOf(sd.B), mid+1, a.H/2-1, true)
		if a.H >= st.small()*2.4 {
			axisValues(dst, st, []axisValue{
				{a.X + 2, a.Y + st.small()*0.6, SideA, "A ↑ " + frame.FormatValue(top)},
				{a.X + 2, a.Bottom() - st.small()*0.6, SideB, "B ↓"},
			})
		}
	}
	// The head value is the panel's average: moves come one at a time
	// (a walking tbench pair's, one every 220 us, in samples of 14 us at
	// 1 ms/s) or with the waves of jobs (forks, execs, the balancer after
	// them), so the newest sample reads 0 where the panel shows thousands.
	headValues(dst, r, st, ChartMigrations, sideValues(sd, func(s *frame.Series) (string, bool) {
		return panelRate(s, (*frame.Sample).MigTotal)
	}, SideA))
	ChartCaption(dst, r, st, samplesOf(sd.A))
}

// panelRate is a head value where the runs count exits: what count
// counts, per second over the panel's whole width, as a reader averages a
// curve of waves (a make's jobs end together, and the newest samples often
// hold none).
func panelRate(s *frame.Series, count func(*frame.Sample) int64) (string, bool) {
	var n, dt int64
	for _, smp := range samplesOf(s) {
		n, dt = n+count(smp), dt+smp.Dt
	}
	if dt > 0 {
		return frame.FormatValue(perSecond(n, dt)), true
	}
	return "", false
}

func perSecond(n, dt int64) float64 {
	if dt <= 0 {
		return 0
	}
	return float64(n) * 1e9 / float64(dt)
}

// HeatRows is the heatmap's row order: CPUs in topology order (node,
// socket, LLC, cluster, core, thread) grouped into at most maxRows rows; a
// row of several CPUs shows the longest run queue among them.
type HeatRows struct {
	Groups [][]int // CPUs per row, top to bottom
	// NodeStart[k] is the first row of NUMA node k.
	NodeStart []int
}

// NewHeatRows orders t's CPUs into at most maxRows rows (at least 1).
func NewHeatRows(t *sim.Topology, maxRows int) HeatRows {
	cpus := make([]int, t.NCPU)
	for i := range cpus {
		cpus[i] = i
	}
	slices.SortStableFunc(cpus, func(a, b int) int {
		ca, cb := t.CPU[a], t.CPU[b]
		ka := [...]int{ca.Node, ca.Socket, ca.LLC, ca.Cluster, ca.Core, ca.Thread}
		kb := [...]int{cb.Node, cb.Socket, cb.LLC, cb.Cluster, cb.Core, cb.Thread}
		return slices.Compare(ka[:], kb[:])
	})
	maxRows = max(1, maxRows)
	per := (t.NCPU + maxRows - 1) / maxRows
	var hr HeatRows
	node := -1
	for i := 0; i < len(cpus); i += per {
		g := cpus[i:min(i+per, len(cpus))]
		if n := t.CPU[g[0]].Node; n != node {
			node = n
			hr.NodeStart = append(hr.NodeStart, len(hr.Groups))
		}
		hr.Groups = append(hr.Groups, g)
	}
	return hr
}

// HeatPixels fills dst (resized as needed) with the heatmap of samples:
// frame.SeriesLen columns (the newest on the right, empty slots transparent) by
// len(rows.Groups) rows, RGBA.
func HeatPixels(dst []byte, samples []*frame.Sample, rows HeatRows) []byte {
	w, h := frame.SeriesLen, len(rows.Groups)
	n := w * h * 4
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	clear(dst)
	off := w - len(samples)
	for i, smp := range samples {
		x := off + i
		if x < 0 {
			continue
		}
		for y, g := range rows.Groups {
			nr, idle := 0, false
			for _, cpu := range g {
				if cpu < len(smp.NR) {
					nr = max(nr, int(smp.NR[cpu]))
				}
				if smp.Idle.Has(cpu) {
					idle = true
				}
			}
			c := HeatColor(nr)
			if nr == 0 && idle && smp.IWO > 0 {
				c = IWOColor
			}
			o := (y*w + x) * 4
			dst[o], dst[o+1], dst[o+2], dst[o+3] = c.R, c.G, c.B, 0xff
		}
	}
	return dst
}

// HeatArea is where the heatmap image goes in chart r, and the rectangles
// for one or two sides.
func HeatArea(r Rect, st ChartStyle, ab bool) [2]Rect {
	a := plotArea(r, st)
	a.X += st.small() * 2.2 // node labels
	a.W -= st.small() * 2.2
	if !ab {
		return [2]Rect{a}
	}
	gap := st.small() * 2.4 // room for side B's node labels
	hw := (a.W - gap) / 2
	return [2]Rect{{a.X, a.Y, hw, a.H}, {a.X + hw + gap, a.Y, hw, a.H}}
}

// HeatDecor draws the heatmap's node separators and labels over its image
// in area a, and when comparing, the side: a bar in the side's colour under
// the area (as under each machine's caption), and its letter in the area's
// corner where the area is large enough that the letter hides little of it
// (a phone's talk mode drew an 18 px "A" over a heatmap 60 px tall).
func HeatDecor(dst *Scene, a Rect, st ChartStyle, rows HeatRows, side string) {
	n := len(rows.Groups)
	if n == 0 {
		return
	}
	rh := a.H / float64(n)
	for k, start := range rows.NodeStart {
		y := a.Y + float64(start)*rh
		if k > 0 {
			dst.Fill(Rect{a.X, math.Round(y), a.W, 1}, Background)
		}
		end := n
		if k+1 < len(rows.NodeStart) {
			end = rows.NodeStart[k+1]
		}
		if len(rows.NodeStart) > 1 && float64(end-start)*rh >= st.small() {
			dst.Label(a.X-3, y+float64(end-start)*rh/2, st.small(), Muted, "n"+strconv.Itoa(k), AlignRight)
		}
	}
	if side != "" {
		c := SideA
		if side == "B" {
			c = SideB
		}
		dst.Fill(Rect{a.X, a.Bottom(), a.W, 3}, c)
		if a.H >= 5*st.small() && a.W >= 5*st.small() {
			dst.Label(a.X+3, a.Y+st.small()*0.7, st.small(), BoxLabel, side, AlignLeft)
		}
	}
}
