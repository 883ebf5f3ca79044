package render

import (
	"fmt"
	"math"
	"strconv"

	"schedplay/sim"
)

// Kind is a topology level drawn as a box. The order is top-down.
type Kind uint8

const (
	KindNode    Kind = iota // NUMA node
	KindSocket              // package
	KindLLC                 // last-level cache, labelled "L3"
	KindCluster             // L2 cluster (only when Topology.HasClusters)
	KindCore                // a core with SMT threads (only when threads_per_core > 1)
	numKinds
)

var kindNames = [numKinds]string{"node", "socket", "L3", "L2", "core"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "?"
}

// Box is one drawn container. When a topology level has a single child per
// parent (one socket per node, one L3 per socket) the child is merged into
// the parent's box: Kinds then has several bits set, and the item indices of
// merged levels are equal.
type Box struct {
	Rect
	Kinds uint8  // bit k set: this box is (also) a Kind(k)
	Index int    // global index of the item (node, socket, LLC, cluster or core number)
	Depth int    // nesting depth among drawn boxes, 0 = outermost
	Label string // fitted to the box; "" for core boxes
	// LabelX, LabelY: left end and vertical middle of the label line.
	LabelX, LabelY float64
	Parent         int // index into Layout.Boxes, -1 at the top
}

// Is reports whether the box stands for topology level k.
func (b *Box) Is(k Kind) bool { return b.Kinds&(1<<k) != 0 }

// Cell is one logical CPU.
//
// In the full view a cell is, top to bottom: the label band (cpu id, and
// a dot while wake-ups are in flight to it), the Run block (the running
// task, or the idle state), the Queue (queued tasks in pick order) and three
// PELT bars (util_avg, runnable_avg, load_avg split into the load of the
// tasks on the runqueue and the blocked load). In the compact heat view
// (Layout.Compact) the label is the CPU's number on the run block where
// it fits: Run is the whole cell above the bars, Band is a strip whose
// colour is the queue length.
type Cell struct {
	Rect
	CPU      int
	Label    string // "cpu12" (or "12" where that does not fit); compact view: "12" or ""
	Band     Rect   // the label band at the top (compact: the queue-length strip)
	Run      Rect   // the running task's block
	Queue    Rect   // queued tasks, as smaller blocks, row-major (empty when compact)
	Util     Rect   // util_avg bar (the top PELT bar)
	Runnable Rect   // runnable_avg bar
	Load     Rect   // load_avg bar: runnable tasks' load, then blocked load
	Box      int    // innermost enclosing box, index into Layout.Boxes
}

// Layout is the static geometry of one topology in one stage rectangle.
type Layout struct {
	Stage Rect
	Boxes []Box  // parents before children
	Cells []Cell // indexed by CPU id
	// Names are the CPUs' numbers as the kernel gives them ("12"), by CPU
	// id: the moves' badges name the CPUs where the cells carry no label.
	Names []string
	// Compact is the heat view for machines whose cells are too small for
	// labels and queues (CompactBelow): each cell is a block of the running
	// task's colour under a strip coloured by the queue length.
	Compact bool
	// Font sizes in px.
	BoxFont, CellFont, TaskFont, QueueFont float64
	// Queued task blocks: size, gap, and how many fit in a cell.
	QueueW, QueueH, QueueGap float64
	QueueCols, QueueRows     int
	// BarFont > 0: the PELT bars are tall enough to carry their names and
	// values (large cells).
	BarFont float64
	// MinText is the smallest text size this layout's pictures may use
	// (TalkMinText in talk mode, 0 otherwise): a text that would need less
	// is left out, never shrunk (task and queue labels, bar values; the
	// colours and the tooltip still tell the tasks apart).
	MinText float64
}

// TalkMinText is the smallest text, in CSS px, that talk mode draws on the
// canvas: readable from the back of a room on a 1280x720 projector
// (issue 20). Every text of the dashboard, the machine and the glides is
// this large or larger, or not drawn (TestTalkTextSizes).
const TalkMinText = 18.0

// QueueSlot is the rectangle of the i-th queued task in cell c (i <
// QueueCols*QueueRows).
func (l *Layout) QueueSlot(c *Cell, i int) Rect {
	col, row := i%l.QueueCols, i/l.QueueCols
	return Rect{
		X: c.Queue.X + float64(col)*(l.QueueW+l.QueueGap),
		Y: c.Queue.Y + float64(row)*(l.QueueH+l.QueueGap),
		W: l.QueueW,
		H: l.QueueH,
	}
}

// Ancestors returns the boxes enclosing cpu's cell, innermost first.
func (l *Layout) Ancestors(cpu int) []int {
	var out []int
	for b := l.Cells[cpu].Box; b >= 0; b = l.Boxes[b].Parent {
		out = append(out, b)
	}
	return out
}

// Cell sizes: the aspect (height/width) a cell may take, and the largest cell
// (a 2-CPU machine should not become two wall-sized blocks).
const (
	minAspect = 0.7
	maxAspect = 1.5
	maxCellW  = 420
	maxCellH  = 400
	// In talk mode a small machine may take more of the screen.
	maxTalkCellW = 560
	maxTalkCellH = 520
)

// level is one level of the drawn grid: the children of one box (or of the
// stage, for level 0) laid out in rows and columns.
type level struct {
	kinds  uint8  // the topology levels this box level stands for
	parts  []Kind // label parts, top-down
	fan    int    // children per parent
	core   bool   // core boxes: thin frame, no label
	isCell bool   // the CPU cell level
}

// decor is the spacing for one cell size.
type decor struct {
	pad, labelBand, gapBox, gapCell, gapCore, corePad float64
	boxFont, cellFont                                 float64
	maxW, maxH                                        float64 // largest cell
}

func decorFor(cell float64, o *LayoutOptions) decor {
	d := decor{maxW: maxCellW, maxH: maxCellH}
	if o.Talk {
		d.maxW, d.maxH = maxTalkCellW, maxTalkCellH
	}
	if o.Talk {
		// Talk mode: type readable from the back of a room (a cell label
		// drops its "cpu" prefix rather than shrink).
		d.boxFont = clamp(cell*0.28, TalkMinText, 28)
		d.cellFont = clamp(cell*0.28, TalkMinText, 24)
	} else {
		d.boxFont = clamp(cell*0.2, 12, 20)
		d.cellFont = clamp(cell*0.2, 10, 18)
	}
	d.pad = clamp(cell*0.07, 3, 8)
	d.labelBand = math.Ceil(d.boxFont * 1.45)
	d.gapBox = d.pad
	d.gapCell = clamp(d.pad*0.6, 2, 5)
	d.gapCore = 1
	d.corePad = clamp(d.pad*0.4, 1, 3)
	return d
}

// levels derives the drawn grid levels of t, top-down, ending with the cell level.
func levels(t *sim.Topology) []level {
	threads := t.NCPU / t.Cores
	type tl struct {
		kind Kind
		fan  int
	}
	tls := []tl{{KindNode, t.Nodes}, {KindSocket, t.Sockets / t.Nodes}, {KindLLC, t.LLCs / t.Sockets}}
	coreParent := t.LLCs
	if t.HasClusters {
		tls = append(tls, tl{KindCluster, t.Clusters / t.LLCs})
		coreParent = t.Clusters
	}
	coreFan := t.Cores / coreParent
	if threads > 1 {
		tls = append(tls, tl{KindCore, coreFan})
	}
	var out []level
	for i, x := range tls {
		if i == 0 || x.fan > 1 {
			out = append(out, level{kinds: 1 << x.kind, fan: x.fan, core: x.kind == KindCore})
			if x.kind != KindCore {
				out[len(out)-1].parts = []Kind{x.kind}
			}
			continue
		}
		last := &out[len(out)-1]
		last.kinds |= 1 << x.kind
		if x.kind != KindCore {
			last.parts = append(last.parts, x.kind)
		}
	}
	cellFan := threads
	if threads == 1 {
		cellFan = coreFan
	}
	out = append(out, level{fan: cellFan, isCell: true})
	return out
}

// solution is one arrangement: columns per level and the resulting cell size.
type solution struct {
	cols       []int
	cellW      float64
	cellH      float64
	totalW     float64
	totalH     float64
	boxW, boxH []float64 // per level: size of one child item at that level
}

func (lv *level) pad(d *decor) (pad, band float64) {
	switch {
	case lv.isCell:
		return 0, 0
	case lv.core:
		return d.corePad, 0
	}
	return d.pad, d.labelBand
}

// gap between the children of one parent at level j.
func gapOf(lvs []level, j int, d *decor) float64 {
	switch {
	case j == 0:
		return d.gapBox * 1.5
	case lvs[j].isCell && lvs[j-1].core:
		return d.gapCore
	case lvs[j].isCell:
		return d.gapCell
	}
	return d.gapBox
}

// solve picks the columns of every level that give the largest cells in a
// stage of w x h. Every level has at most fan choices and the product of the
// fans is the CPU count, so trying all combinations is at most NCPU tries.
func solve(lvs []level, d *decor, w, h float64) (solution, bool) {
	n := len(lvs)
	cols := make([]int, n)
	var best solution
	found := false
	var try func(j int)
	try = func(j int) {
		if j < n {
			for c := 1; c <= lvs[j].fan; c++ {
				// A column count whose row count equals that of c-1 only widens.
				if c > 1 && ceilDiv(lvs[j].fan, c) == ceilDiv(lvs[j].fan, c-1) {
					continue
				}
				cols[j] = c
				try(j + 1)
			}
			return
		}
		// Sizes are affine in the cell size: W = ax + bx*cellW.
		ax, bx, ay, by := 0.0, 1.0, 0.0, 1.0
		for k := n - 1; k >= 0; k-- {
			c := float64(cols[k])
			r := float64(ceilDiv(lvs[k].fan, cols[k]))
			g := gapOf(lvs, k, d)
			ax, bx = c*ax+(c-1)*g, c*bx
			ay, by = r*ay+(r-1)*g, r*by
			if k > 0 {
				p, band := lvs[k-1].pad(d)
				ax += 2 * p
				ay += 2*p + band
			}
		}
		cw, ch := (w-ax)/bx, (h-ay)/by
		if cw <= 0 || ch <= 0 {
			return
		}
		cw, ch = min(cw, d.maxW), min(ch, d.maxH)
		if ch > cw*maxAspect {
			ch = cw * maxAspect
		}
		if ch < cw*minAspect {
			cw = ch / minAspect
		}
		better := !found || cw*ch > best.cellW*best.cellH*(1+1e-9)
		if better {
			found = true
			best = solution{cols: append([]int(nil), cols...), cellW: cw, cellH: ch,
				totalW: ax + bx*cw, totalH: ay + by*ch}
		}
	}
	try(0)
	if !found {
		return best, false
	}
	// Child sizes per level, from the cells up.
	best.boxW = make([]float64, n)
	best.boxH = make([]float64, n)
	best.boxW[n-1], best.boxH[n-1] = best.cellW, best.cellH
	for k := n - 2; k >= 0; k-- {
		c := float64(best.cols[k+1])
		r := float64(ceilDiv(lvs[k+1].fan, best.cols[k+1]))
		g := gapOf(lvs, k+1, d)
		p, band := lvs[k].pad(d)
		best.boxW[k] = c*best.boxW[k+1] + (c-1)*g + 2*p
		best.boxH[k] = r*best.boxH[k+1] + (r-1)*g + 2*p + band
	}
	return best, true
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// LayoutOptions tune a layout.
type LayoutOptions struct {
	// Talk uses larger type (talk mode on a projector).
	Talk bool
	// LLCSize and L2Size, when not empty, are printed after the cache's
	// name ("L3 30 MB").
	LLCSize, L2Size string
}

// CompactBelow: cells narrower or lower than this (px) use the compact
// heat view; there is no room for labels, a run block and a queue.
const (
	CompactBelowW = 52
	CompactBelowH = 48
)

// NewLayout lays topology t out in stage. measure may be nil (ApproxMeasure).
// It fails only when the stage is too small to hold the machine at all.
func NewLayout(t *sim.Topology, stage Rect, measure Measure) (*Layout, error) {
	return NewLayoutWith(t, stage, measure, LayoutOptions{})
}

// NewLayoutWith is NewLayout with options.
func NewLayoutWith(t *sim.Topology, stage Rect, measure Measure, o LayoutOptions) (*Layout, error) {
	if measure == nil {
		measure = ApproxMeasure
	}
	if t == nil || t.NCPU <= 0 || t.Cores <= 0 || t.Nodes <= 0 {
		return nil, fmt.Errorf("render: empty topology")
	}
	if !(stage.W > 0 && stage.H > 0) {
		return nil, fmt.Errorf("render: no room for the machine (%.0fx%.0f px)", stage.W, stage.H)
	}
	if t.Irregular() {
		return irregularLayout(t, stage, measure, o) // layout_irregular.go
	}
	lvs := levels(t)
	l, b, sol, err := solveLayout(t, lvs, stage, measure, o)
	if err != nil {
		return nil, err
	}
	// Hierarchical CPU index (core*threads + thread) -> CPU id.
	threads := t.NCPU / t.Cores
	b.byHier = make([]int, t.NCPU)
	for cpu, c := range t.CPU {
		b.byHier[c.Core*threads+c.Thread] = cpu
	}
	b.llcLabelIndex = t.LLCs/t.Sockets > 1 || t.Sockets > 1
	ox := stage.X + (stage.W-sol.totalW)/2
	oy := stage.Y + (stage.H-sol.totalH)/2
	b.place(0, ox, oy, 0, -1)
	b.cellInteriors()
	return l, nil
}

// solveLayout sizes the drawn levels lvs for stage and returns the empty
// layout and its builder.
func solveLayout(t *sim.Topology, lvs []level, stage Rect, measure Measure, o LayoutOptions) (*Layout, *builder, *solution, error) {
	// The spacing depends on the cell size and the cell size on the spacing:
	// start from a guess and settle in a few rounds.
	guess := math.Sqrt(stage.W*stage.H/float64(t.NCPU)) * 0.6
	d := decorFor(guess, &o)
	var sol solution
	ok := false
	for range 4 {
		s, good := solve(lvs, &d, stage.W, stage.H)
		if !good {
			break
		}
		sol, ok = s, true
		nd := decorFor(min(s.cellW, s.cellH), &o)
		if nd == d {
			break
		}
		// Only accept a decor that still fits; otherwise keep the last one.
		if s2, good := solve(lvs, &nd, stage.W, stage.H); good {
			d, sol = nd, s2
		} else {
			break
		}
	}
	if !ok {
		return nil, nil, nil, fmt.Errorf("render: a %d-CPU machine does not fit in %.0fx%.0f px", t.NCPU, stage.W, stage.H)
	}
	l := &Layout{Stage: stage, Cells: make([]Cell, t.NCPU), BoxFont: d.boxFont, CellFont: d.cellFont}
	if o.Talk {
		l.MinText = TalkMinText
	}
	l.Names = make([]string, t.NCPU)
	for cpu := range l.Names {
		l.Names[cpu] = strconv.Itoa(t.Label(cpu))
	}
	b := &builder{l: l, lvs: lvs, sol: &sol, d: &d, measure: measure, opts: &o}
	return l, b, &sol, nil
}

type builder struct {
	l             *Layout
	lvs           []level
	sol           *solution
	d             *decor
	measure       Measure
	byHier        []int
	opts          *LayoutOptions
	llcLabelIndex bool
	topo          *sim.Topology // a machine given per CPU (layout_irregular.go)
}

// place lays out the children of item parentItem (at level j-1) starting at
// (x, y), the top-left of the content area.
func (b *builder) place(j int, x, y float64, parentItem, parentBox int) {
	lv := &b.lvs[j]
	cols := b.sol.cols[j]
	g := gapOf(b.lvs, j, b.d)
	w, h := b.sol.boxW[j], b.sol.boxH[j]
	for i := 0; i < lv.fan; i++ {
		item := parentItem*lv.fan + i
		r := Rect{X: x + float64(i%cols)*(w+g), Y: y + float64(i/cols)*(h+g), W: w, H: h}
		if lv.isCell {
			cpu := b.byHier[item]
			b.l.Cells[cpu] = Cell{Rect: r, CPU: cpu, Box: parentBox}
			continue
		}
		pad, band := lv.pad(b.d)
		box := Box{Rect: r, Kinds: lv.kinds, Index: item, Parent: parentBox}
		if parentBox >= 0 {
			box.Depth = b.l.Boxes[parentBox].Depth + 1
		}
		if band > 0 {
			parts := make([]string, len(lv.parts))
			for k, kind := range lv.parts {
				parts[k] = b.itemLabel(kind, item)
			}
			box.Label = fitParts(b.measure, b.d.boxFont, w-2*pad, parts)
			box.LabelX = r.X + pad
			box.LabelY = r.Y + pad + band/2
		}
		b.l.Boxes = append(b.l.Boxes, box)
		b.place(j+1, r.X+pad, r.Y+pad+band, item, len(b.l.Boxes)-1)
	}
}

func (b *builder) itemLabel(k Kind, i int) string {
	switch k {
	case KindNode:
		return "node " + strconv.Itoa(i)
	case KindSocket:
		return "socket " + strconv.Itoa(i)
	case KindLLC:
		l := "L3"
		if b.llcLabelIndex {
			l += " " + strconv.Itoa(i)
		}
		if b.opts.LLCSize != "" {
			l += " (" + b.opts.LLCSize + ")"
		}
		return l
	case KindCluster:
		l := "L2 " + strconv.Itoa(i)
		if b.opts.L2Size != "" {
			l += " (" + b.opts.L2Size + ")"
		}
		return l
	}
	return ""
}

// cellInteriors splits every cell into band, run block, queue and PELT
// bars, or the compact heat view's strip, block and bars. All cells have
// the same size, so the split is computed once.
func (b *builder) cellInteriors() {
	l := b.l
	w, h := b.sol.cellW, b.sol.cellH
	// The full view only where its label band (talk mode: of TalkMinText
	// type) leaves a run block tall enough to show the task's colour
	// (minRun); otherwise the heat view, whose blocks are larger (in talk
	// mode with the CPU numbers at that size on them).
	l.Compact = w < CompactBelowW || h < CompactBelowH || b.fullRunH(w, h) < minRun
	if l.Compact {
		b.compactInteriors(w, h)
		return
	}
	// Tiny cells shrink the label band and the spacing rather than spill
	// out of the cell.
	band := min(math.Ceil(l.CellFont*1.35), math.Floor(h*0.3))
	if l.MinText > 0 {
		band = math.Ceil(l.CellFont * talkLine)
	}
	l.CellFont = min(l.CellFont, band/1.3)
	if l.MinText > 0 {
		l.CellFont = max(l.CellFont, l.MinText)
	}
	bar, barGap := b.barSize(w, h)
	bars := 3*bar + 2*barGap
	ip := min(clamp(w*0.05, 2, 6), h*0.04)
	rest := max(0, h-band-bars-3*ip)
	runH := rest * 0.52
	queueH := max(0, rest-runH)
	minFont := 10.0
	if b.opts.Talk {
		minFont = 13
	}
	l.TaskFont = clamp(runH*0.5, minFont, 30)
	l.QueueGap = clamp(ip*0.6, 1, 3)
	innerW := w - 2*ip
	// Queued tasks: at least three blocks side by side, wider than tall,
	// so that a label like "s/12" fits; tall queue areas get more rows.
	l.QueueCols = int(clamp(math.Round(innerW/(queueH*1.4+1e-9)), 3, 6))
	l.QueueW = max(0, (innerW-float64(l.QueueCols-1)*l.QueueGap)/float64(l.QueueCols))
	l.QueueH = min(queueH, l.QueueW)
	l.QueueRows = max(1, int((queueH+l.QueueGap)/(l.QueueH+l.QueueGap+1e-9)))
	l.QueueFont = clamp(min(l.QueueH*0.6, 20), minFont-1, 20)
	if l.MinText > 0 {
		// Talk mode: type no smaller than MinText, where it fits; a run
		// block or a queued block too low for it goes without a label.
		l.TaskFont = max(l.MinText, min(runH*0.5, 30))
		if runH < l.TaskFont*talkLine {
			l.TaskFont = 0
		}
		l.QueueFont = max(l.MinText, min(l.QueueH*0.6, 20))
		if l.QueueH < l.QueueFont*talkLine {
			l.QueueFont = 0
		}
	}
	for i := range l.Cells {
		c := &l.Cells[i]
		c.Band = Rect{X: c.X, Y: c.Y, W: w, H: band}
		c.Run = Rect{X: c.X + ip, Y: c.Y + band, W: innerW, H: runH}
		c.Queue = Rect{X: c.X + ip, Y: c.Run.Bottom() + ip, W: innerW, H: queueH}
		by := c.Bottom() - ip - bars
		c.Util = Rect{X: c.X + ip, Y: by, W: innerW, H: bar}
		c.Runnable = Rect{X: c.X + ip, Y: by + bar + barGap, W: innerW, H: bar}
		c.Load = Rect{X: c.X + ip, Y: by + 2*(bar+barGap), W: innerW, H: bar}
		c.Label = fit(b.measure, l.CellFont, w-2*ip, "cpu"+strconv.Itoa(c.CPU), strconv.Itoa(c.CPU))
	}
}

// talkLine is the line height, in ems, that talk mode keeps for one line of
// type (a label band, a run block with a task's name).
const talkLine = 1.2

// minRun is the least height (px) of a run block in the full view: below
// it the heat view's larger blocks show the tasks better (a 768x1024
// tablet's 68x48 cells had 11 px run blocks).
const minRun = 14

// barSize is the height of one PELT bar and the gap between bars in a w x
// h cell; BarFont is set when the bars carry their names and values.
func (b *builder) barSize(w, h float64) (bar, gap float64) {
	l := b.l
	bar, gap = math.Floor(clamp(h*0.045, 2, 6)), 1
	if b.opts.Talk {
		bar = math.Floor(clamp(h*0.06, 3, 8))
	}
	l.BarFont = 0
	if w >= 150 && h >= 150 {
		// Room to write "util 812" inside the bars.
		bar = math.Floor(clamp(h*0.06, 11, 18))
		gap = 2
		l.BarFont = bar * 0.85
		if l.MinText > 0 {
			// Talk mode: bars tall enough for MinText, in a cell that has
			// the room; the bars carry no text in a smaller one.
			if h >= 12*l.MinText {
				bar = math.Ceil(l.MinText / 0.85)
				l.BarFont = l.MinText
			} else {
				bar = math.Floor(clamp(h*0.06, 3, 8))
				gap, l.BarFont = 1, 0
			}
		}
	}
	return bar, gap
}

// fullRunH is the run block's height a w x h cell would have in the full
// view.
func (b *builder) fullRunH(w, h float64) float64 {
	l := b.l
	band := min(math.Ceil(l.CellFont*1.35), math.Floor(h*0.3))
	if l.MinText > 0 {
		band = math.Ceil(max(l.CellFont, l.MinText) * talkLine)
	}
	bar, gap := b.barSize(w, h)
	ip := min(clamp(w*0.05, 2, 6), h*0.04)
	return max(0, h-band-3*bar-2*gap-3*ip) * 0.52
}

// compactInteriors: a queue-length strip on top, the running task's block,
// and the three PELT bars (at least one pixel each) at the bottom.
func (b *builder) compactInteriors(w, h float64) {
	l := b.l
	l.QueueCols, l.QueueRows = 0, 0
	l.TaskFont, l.QueueFont, l.BarFont = 0, 0, 0
	strip := math.Max(2, math.Floor(h*0.2))
	bar := math.Max(1, math.Floor(h*0.06))
	ip := math.Min(1, w*0.05)
	// The CPU's number on its block (talk mode: at MinText), where the
	// block holds it; else the moves' badges name the CPUs.
	runH := h - 2*ip - strip - 3*bar
	l.CellFont = clamp(runH*0.5, 10, 16)
	if l.MinText > 0 {
		l.CellFont = l.MinText
	}
	label := runH >= l.CellFont*1.05 && b.measure(strconv.Itoa(len(l.Cells)-1), l.CellFont) <= w-2*ip-4
	for i := range l.Cells {
		c := &l.Cells[i]
		c.Band = Rect{X: c.X + ip, Y: c.Y + ip, W: w - 2*ip, H: strip}
		by := c.Bottom() - ip - 3*bar
		c.Run = Rect{X: c.X + ip, Y: c.Band.Bottom(), W: w - 2*ip, H: max(0, by-c.Band.Bottom())}
		c.Queue = Rect{X: c.X + ip, Y: c.Run.Bottom(), W: w - 2*ip, H: 0}
		c.Util = Rect{X: c.X + ip, Y: by, W: w - 2*ip, H: bar}
		c.Runnable = Rect{X: c.X + ip, Y: by + bar, W: w - 2*ip, H: bar}
		c.Load = Rect{X: c.X + ip, Y: by + 2*bar, W: w - 2*ip, H: bar}
		c.Label = ""
		if label {
			c.Label = strconv.Itoa(c.CPU)
		}
	}
}
