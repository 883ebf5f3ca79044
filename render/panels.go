package render

import (
	"image/color"
	"math"
	"strings"

	"schedplay/frame"
	"schedplay/sim"
)

// Wrap breaks s into lines at most w wide at size (greedy, at spaces; a
// word wider than w is cut).
func Wrap(m Measure, s string, size, w float64) []string {
	if m == nil {
		m = ApproxMeasure
	}
	if w <= 0 {
		return nil
	}
	var lines []string
	var cur string
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if m(try, size) <= w {
			cur = try
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
			cur = ""
		}
		// A word that alone is too wide: cut it.
		for word != "" && m(word, size) > w {
			r := []rune(word)
			n := len(r) - 1
			for n > 1 && m(string(r[:n]), size) > w {
				n--
			}
			lines = append(lines, string(r[:n]))
			word = string(r[n:])
		}
		cur = word
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// DiffRow is one metric of the A/B table.
type DiffRow struct {
	Name string
	// Short is the name of a narrow column or row (frame.Metric.Short).
	Short string
	A, B  float64
	// Better: +1 if more is better, -1 if less is better, 0 if neither.
	Better int
	Unit   string
	// Format spells a value (frame.Metric.FormatShort).
	Format func(float64) string
}

// DiffRows are the metrics the A/B table compares (frame.CanvasMetricsFor).
func DiffRows(a, b *sim.Metrics) []DiffRow {
	ids := frame.CanvasMetricsFor(a, b)
	rows := make([]DiffRow, 0, len(ids))
	for _, id := range ids {
		m, _ := frame.MetricByID(id)
		rows = append(rows, DiffRow{m.Name, m.Short, m.Value(a), m.Value(b), m.Better, m.Unit, m.FormatShort})
	}
	return rows
}

// Change is B relative to A in percent, and whether it is defined.
func (r DiffRow) Change() (float64, bool) { return frame.Change(r.A, r.B) }

// Verdict colours a change: Better, Worse, or Muted when neither (or
// within 2%).
func (r DiffRow) Verdict() color.RGBA {
	switch frame.Verdict(r.Better, r.A, r.B) {
	case +1:
		return Better
	case -1:
		return Worse
	}
	return Muted
}

// DiffTable draws the A/B table into r: metric, A, B, B vs A; one row per
// metric, or, in a wide rectangle too low for the rows, one column per
// metric.
//
// The value columns are as wide as what they hold and the names get the
// rest: a metric's name, or its short name where the name does not fit
// (a phone's talk mode: 253 px at 18 px type had "wake-up p5" and the
// header "A/B after the same time" under "A" and "B"). A metric whose
// short name does not fit either is left out, and so are the rows that do
// not fit in r's height, from the end.
//
// minText is the smallest text (talk mode: TalkMinText, else 0).
func DiffTable(dst *Scene, r Rect, f, minText float64, a, b *sim.Metrics, m Measure) {
	if m == nil {
		m = ApproxMeasure
	}
	// Across only where the rows do not fit: a phone's A/B table, sized for
	// its rows, was drawn across in its top half (340 px wide, 118 tall).
	if rowsH := math.Ceil(f*1.45)*float64(len(frame.CanvasMetrics)+1) + f*0.4; r.W > 3*r.H && r.H < rowsH {
		diffTableWide(dst, r, f, minText, a, b, m)
		return
	}
	dst.Fill(r, Panel)
	dst.Stroke(r, 1, PanelBorder)
	rows, cells := diffCells(a, b)
	lh := math.Ceil(f * 1.45)
	pad, gap := f*0.5, f*0.8
	wA, wB := m("A", f), m("B", f)
	wC := 0.0
	for _, c := range cells {
		wA, wB, wC = max(wA, m(c.a, f)), max(wB, m(c.b, f)), max(wC, m(c.ch, f))
	}
	// The columns' right edges: where the old proportions leave room,
	// there; else packed against the right edge.
	place := func(label string) (cols [4]float64, nameRoom float64) {
		cols[0] = r.X + pad
		cols[3] = r.Right() - pad
		cols[2] = math.Min(r.X+r.W*0.8, cols[3]-max(wC, m(label, f))-gap)
		cols[1] = math.Min(r.X+r.W*0.62, cols[2]-wB-gap)
		return cols, cols[1] - wA - gap - cols[0]
	}
	label := "B vs A"
	cols, room := place(label)
	for _, row := range rows {
		if m(row.Short, f) > room {
			label = "vs A"
			cols, room = place(label)
			break
		}
	}
	y := r.Y + lh/2 + pad*0.4
	title := fit(m, f, cols[1]-m("A", f)-gap-cols[0], "A/B after the same time", "A/B")
	dst.Label(cols[0], y, f, BoxLabel, title, AlignLeft)
	dst.Label(cols[1], y, f, SideA, "A", AlignRight)
	dst.Label(cols[2], y, f, SideB, "B", AlignRight)
	dst.Label(cols[3], y, f, Muted, label, AlignRight)
	if a == nil || b == nil {
		return
	}
	for i, row := range rows {
		c := &cells[i]
		name := fit(m, f, cols[1]-m(c.a, f)-gap-cols[0], row.Name, row.Short)
		if name == "" {
			continue // a number nobody can name
		}
		y += lh
		if y+lh/2 > r.Bottom() {
			break
		}
		dst.Label(cols[0], y, f, Muted, name, AlignLeft)
		dst.Label(cols[1], y, f, SideA, c.a, AlignRight)
		dst.Label(cols[2], y, f, SideB, c.b, AlignRight)
		if c.ch != "" {
			dst.Label(cols[3], y, f, c.chC, c.ch, AlignRight)
		}
	}
}

// diffCell is one metric's formatted A, B and change (empty without
// metrics).
type diffCell struct {
	a, b, ch string
	chC      color.RGBA
}

// diffCells are the A/B table's rows and their formatted values.
func diffCells(a, b *sim.Metrics) ([]DiffRow, []diffCell) {
	if a == nil || b == nil {
		rows := DiffRows(&sim.Metrics{}, &sim.Metrics{})
		return rows, make([]diffCell, len(rows))
	}
	rows := DiffRows(a, b)
	cells := make([]diffCell, len(rows))
	for i, row := range rows {
		c := &cells[i]
		c.a, c.b = row.Format(row.A), row.Format(row.B)
		if ch, ok := row.Change(); ok {
			c.ch, c.chC = frame.FormatChange(ch), row.Verdict()
		} else if row.A == row.B {
			c.ch, c.chC = "=", Muted
		}
	}
	return rows, cells
}

// Caption draws an A/B caption: the side's name in its colour on a band.
func Caption(dst *Scene, r Rect, f float64, text string, c color.RGBA, m Measure) {
	dst.Fill(Rect{r.X, r.Bottom() - 3, r.W, 3}, c)
	dst.Label(r.X+2, r.Y+(r.H-3)/2, f, c, fitSets(m, f, r.W-4, text), AlignLeft)
}

// uniqueSuffix reports whether the last n dotted segments of parts[i]'s
// path are the end of no other part's path.
func uniqueSuffix(parts []string, i, n int) bool {
	tail := func(p string) string {
		path, _, _ := strings.Cut(p, "=")
		segs := strings.Split(path, ".")
		return strings.Join(segs[max(0, len(segs)-n):], ".")
	}
	mine := tail(parts[i])
	for j, p := range parts {
		if j != i && tail(p) == mine {
			return false
		}
	}
	return true
}

// fitSets fits a side's caption, "A: path=value, path=value", into w. The
// two sides' captions differ at their ends (the values), so where the text
// does not fit, the paths lose their leading segments first
// ("A: SCHED_BALANCE_MAP=false"), and then the text is cut at its start
// ("A: …MAP=false"): cut at the end, a phone showed "A:
// policy.features.SCHED_B…" over both machines.
func fitSets(m Measure, f, w float64, text string) string {
	if m == nil {
		m = ApproxMeasure
	}
	if m(text, f) <= w {
		return text
	}
	head, sets, ok := strings.Cut(text, ": ")
	if !ok {
		return fitText(m, f, w, text)
	}
	head += ": "
	parts := strings.Split(sets, ", ")
	for drop := 1; ; drop++ {
		short := make([]string, len(parts))
		cut := false
		for i, p := range parts {
			path, val, hasVal := strings.Cut(p, "=")
			segs := strings.Split(path, ".")
			// Keep the segments that tell this path from the others
			// (policy.sd_flags.MC.SD_BALANCE_EXEC and …NUMA.SD_BALANCE_EXEC
			// keep "MC." and "NUMA.").
			k := min(drop, len(segs)-1)
			for k > 0 && !uniqueSuffix(parts, i, len(segs)-k) {
				k--
			}
			if k > 0 {
				segs, cut = segs[k:], cut || k == drop
			}
			short[i] = strings.Join(segs, ".")
			if hasVal {
				short[i] += "=" + val
			}
		}
		s := head + strings.Join(short, ", ")
		if m(s, f) <= w {
			return s
		}
		if !cut {
			// Every path is down to its last segment: keep the end.
			r := []rune(strings.Join(short, ", "))
			for n := 1; n < len(r); n++ {
				if s := head + "…" + string(r[n:]); m(s, f) <= w {
					return s
				}
			}
			return fitText(m, f, w, head)
		}
	}
}

// fitText returns s, or s cut with "…" to fit w.
func fitText(m Measure, f, w float64, s string) string {
	if m == nil {
		m = ApproxMeasure
	}
	if m(s, f) <= w {
		return s
	}
	return fitParts(m, f, w, []string{s})
}

// Status is the talk-mode status line's content.
type Status struct {
	Playing, Finished bool
	PauseOnMove       bool // armed
	PausedOnMove      bool
	Speed             float64 // simulated s per wall s
	Now, Duration     int64
	// Animated says how many of the moves are animated when there are
	// more than the glides can show ("" otherwise): on the status line, a
	// badge in the machine would cover its last row of cells.
	// AnimatedShort is the same in fewer words, for a narrow line (a
	// phone held upright), where Animated does not fit.
	Animated, AnimatedShort string
}

// StatusLine draws the talk-mode status line into r.
func StatusLine(dst *Scene, r Rect, f float64, st Status, m Measure) {
	if m == nil {
		m = ApproxMeasure
	}
	dst.Fill(r, Panel)
	cy := r.Y + r.H/2
	x := r.X + f*0.5
	state, col := "► "+frame.FormatSpeed(st.Speed), Better
	switch {
	case st.Finished:
		state, col = "finished", Muted
	case st.PausedOnMove:
		state, col = "paused on a migration", CauseColor(sim.CauseBalance)
	case !st.Playing:
		state, col = "paused", CauseColor(sim.CauseBalance)
	}
	dst.Label(x, cy, f, col, state, AlignLeft)
	x += m(state, f) + f*1.2
	// The keys, the moves animated and the pause mark are no smaller than
	// TalkMinText: the status line is talk mode's.
	fs := max(f*0.8, TalkMinText)
	arm, af := "", max(f*0.85, TalkMinText)
	if st.PauseOnMove && !st.PausedOnMove {
		arm = "● pause on next move"
	}
	// The clock with the run's length, and the moves animated in the
	// longest words that fit after it; on a narrow line (a phone held
	// upright) the clock drops the length (the page's scrubber shows it),
	// then its "t =", before the count goes.
	now := frame.FormatSimTime(st.Now)
	long := "t = " + now + " of " + frame.FormatSimTime(st.Duration)
	room := r.Right() - f*0.5 - x
	if arm != "" {
		room -= m(arm, af) + f*1.2
	}
	type choice struct {
		clock, animated string
		gap             float64
	}
	pick := choice{long, "", f * 1.2}
	for _, c := range []choice{
		{long, st.Animated, f * 1.2},
		{long, st.AnimatedShort, f * 1.2},
		{"t = " + now, st.AnimatedShort, f * 1.2},
		{now, st.AnimatedShort, f * 0.8},
	} {
		if c.animated != "" && m(c.clock, f)+c.gap+m(c.animated, fs) <= room {
			pick = c
			break
		}
	}
	clock, animated := pick.clock, pick.animated
	dst.Label(x, cy, f, CellLabel, clock, AlignLeft)
	x += m(clock, f) + pick.gap
	if arm != "" {
		dst.Label(x, cy, af, CauseColor(sim.CauseBalance), arm, AlignLeft)
		x += m(arm, af) + f*1.2
	}
	if animated != "" {
		dst.Label(x, cy, fs, Muted, animated, AlignLeft)
		x += m(animated, fs) + f*1.2
	}
	w := r.Right() - f*0.5 - x
	if keys := fit(m, fs, w, StatusKeys...); keys != "" {
		dst.Label(r.Right()-f*0.5, cy, fs, Muted, keys, AlignRight)
	}
}

// StatusKeys are the talk-mode key hints, longest first.
var StatusKeys = []string{
	"Space play/pause · → step · + − speed · A A/B · P pause on next move · N next preset · T leave talk mode · F full screen",
	"Space play · → step · + − speed · A A/B · P pause on move · N next · T talk · F full",
	"Space · → · + − · A · P · N · T · F",
}

// LogPanel draws the newest explanations (oldest first in lines, newest
// last) into r, wrapped, newest at the top in full brightness.
func LogPanel(dst *Scene, r Rect, f float64, lines []string, m Measure) {
	dst.Fill(r, Panel)
	dst.Stroke(r, 1, PanelBorder)
	lh := math.Ceil(f * 1.35)
	pad := f * 0.5
	y := r.Y + pad + lh/2
	for i := len(lines) - 1; i >= 0; i-- {
		col := CellLabel
		if i < len(lines)-1 {
			col = Muted
		}
		for _, ln := range Wrap(m, lines[i], f, r.W-2*pad) {
			if y+lh/2 > r.Bottom()-pad/2 {
				return
			}
			dst.Label(r.X+pad, y, f, col, ln, AlignLeft)
			y += lh
		}
	}
	if len(lines) == 0 {
		dst.Label(r.X+pad, y, f, Muted, "migrations will be explained here", AlignLeft)
	}
}

// diffTableWide is DiffTable with the metrics as columns and A, B and the
// change as rows. Each column is as wide as its widest value (A, B or the
// change) or its short name, and the slack is shared out; a column shows
// the metric's name where it fits, else its short name (a phone's talk
// mode read "o…", "wa…" and, over the idle column, nothing). Where the values do not fit at f, the change row is labelled
// "vs A", and outside talk mode the type shrinks; talk mode keeps minText
// and shows the metrics that fit, in their order (ops/s first): a phone's
// talk mode had "−5%" and "−100%" of neighbouring columns run into each
// other.
func diffTableWide(dst *Scene, r Rect, f, minText float64, a, b *sim.Metrics, m Measure) {
	dst.Fill(r, Panel)
	dst.Stroke(r, 1, PanelBorder)
	rows, cells := diffCells(a, b)
	nameSize := func(f float64) float64 { return max(f*0.85, minText) }
	// widths: each column's widest value or its short name at size f, plus
	// a gap.
	widths := func(f float64) (w []float64, sum float64) {
		w = make([]float64, len(cells))
		for i, c := range cells {
			w[i] = max(m(c.a, f), m(c.b, f), m(c.ch, f), m(rows[i].Short, nameSize(f)), f) + f*0.5
			sum += w[i]
		}
		return w, sum
	}
	label := "B vs A"
	first := func(f float64) float64 { return m(label, f) + f }
	w, sum := widths(f)
	if sum > r.W-first(f)-f*0.5 {
		label = "vs A"
	}
	if avail := r.W - first(f) - f*0.5; sum > avail && f > minText {
		f = max(f*avail/sum, minText, 6)
		w, sum = widths(f)
	}
	for avail := r.W - first(f) - f*0.5; sum > avail && len(w) > 1; {
		sum -= w[len(w)-1]
		w, rows, cells = w[:len(w)-1], rows[:len(rows)-1], cells[:len(cells)-1]
	}
	pad := f * 0.5
	lh := math.Min(math.Ceil(f*1.4), (r.H-f*0.4)/4)
	x0 := r.X + first(f)
	if slack := r.W - (x0 - r.X) - pad - sum; slack > 0 {
		for i := range w {
			w[i] += slack / float64(len(w))
		}
	}
	y0 := r.Y + pad*0.4 + lh/2
	for k, name := range []string{"", "A", "B", label} {
		c := []color.RGBA{Muted, SideA, SideB, Muted}[k]
		dst.Label(r.X+pad, y0+float64(k)*lh, f, c, name, AlignLeft)
	}
	x := x0
	nf := nameSize(f)
	for i, row := range rows {
		x += w[i]
		name := fit(m, nf, w[i]-pad, row.Name, row.Short)
		if name == "" {
			name = fitText(m, nf, w[i]-pad, row.Short)
		}
		dst.Label(x, y0, nf, Muted, name, AlignRight)
		c := &cells[i]
		dst.Label(x, y0+lh, f, SideA, c.a, AlignRight)
		dst.Label(x, y0+2*lh, f, SideB, c.b, AlignRight)
		dst.Label(x, y0+3*lh, f, c.chC, c.ch, AlignRight)
	}
}

// Note draws a short text on a dark pill, right-aligned at (x, y) (the
// vertical middle), over whatever is under it.
// QuietCorner is where in area a note of w×h px covers the least of l's
// cells (box labels count half): the right end and the vertical middle of
// the note, for Note. Bottom right wins ties.
func QuietCorner(area Rect, w, h float64, l *Layout) (right, cy float64) {
	overlap := func(a, b Rect) float64 {
		dx := math.Min(a.Right(), b.Right()) - math.Max(a.X, b.X)
		dy := math.Min(a.Bottom(), b.Bottom()) - math.Max(a.Y, b.Y)
		if dx <= 0 || dy <= 0 {
			return 0
		}
		return dx * dy
	}
	best := math.Inf(1)
	for _, c := range [4][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		r := Rect{area.X, area.Y, w, h}
		if c[0] {
			r.X = area.Right() - w
		}
		if c[1] {
			r.Y = area.Bottom() - h
		}
		cover := 0.0
		if l != nil {
			for i := range l.Cells {
				cover += overlap(r, l.Cells[i].Rect)
			}
			for i := range l.Boxes {
				b := &l.Boxes[i]
				if b.Label != "" {
					cover += overlap(r, Rect{b.X, b.LabelY - l.BoxFont*0.7, b.W, l.BoxFont * 1.4}) / 2
				}
			}
		}
		if cover < best {
			best, right, cy = cover, r.Right(), r.Y+h/2
		}
	}
	return right, cy
}

// Note draws a short text on a panel-coloured badge whose right end is x
// and vertical middle y, in font size f.
func Note(dst *Scene, x, y, f float64, c color.RGBA, text string, m Measure) {
	if m == nil {
		m = ApproxMeasure
	}
	w := m(text, f) + f
	r := Rect{x - w, y - f*0.75, w, f * 1.5}
	dst.Fill(r, WithAlpha(Background, 0.9))
	dst.Stroke(r, 1, PanelBorder)
	dst.Label(x-f*0.5, y, f, c, text, AlignRight)
}
