package render

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"schedplay/sim"
)

// The legend explains every mark the canvas draws. Items flow left to
// right in rows (LayoutLegend), each an icon drawn like the mark itself and
// a short text.

// IconKind is how a legend item's icon is drawn.
type IconKind uint8

const (
	IconBlock   IconKind = iota // a task block with a label
	IconQueue                   // three small queued blocks
	IconSwatch                  // a filled square
	IconDot                     // a small square dot (wake-ups in flight)
	IconBar                     // a PELT bar, C (and C2 for the second part)
	IconLine                    // a move's trail in a cause's style
	IconBadge                   // a distance badge
	IconOutline                 // an examined CPU's outline
	IconHeat                    // the heat scale, nr_running 0..5+
	IconKeys                    // no icon: a line of key help
)

// LegendItem is one entry.
type LegendItem struct {
	Icon  IconKind
	C, C2 color.RGBA
	Cause sim.Cause
	Text  string
	// Short says the same in fewer words, for a legend too narrow for
	// Text on a row of its own (a phone, a desktop's stage between the
	// editor and the panel); "": Text wraps instead.
	Short string
}

// LegendOptions select the items that apply.
type LegendOptions struct {
	V38     bool // the load bar's parts are 3.8's runnable/blocked load averages
	Compact bool // the machine is drawn in the compact heat view
	Keys    bool // add the key help
	V268    bool // v2.6.8: no PELT bars, the priority arrays instead (o1arrays.go)
	// Talk: the short legend of talk mode, whose type (TalkMinText) leaves
	// no room for the full one: what the moves mean (causes, cache
	// distance, the examined CPUs) and the idle-while-waiting outline; the
	// presenter explains the cell.
	Talk bool
}

// KeyHelp is the keyboard help line.
const KeyHelp = "keys: Space play/pause · → step · + − speed · A A/B · N next preset · P pause on next move · T talk mode · F full screen"

// LegendItems lists the legend for o.
func LegendItems(o LegendOptions) []LegendItem {
	if o.Talk {
		// One row on a 1280 px projector: the causes by their first word
		// ("wake-up", "periodic", "newidle", ...).
		var items []LegendItem
		for c := sim.Cause(1); c < sim.NumCauses; c++ {
			items = append(items, LegendItem{Icon: IconLine, Cause: c, C: CauseColor(c), Text: strings.Fields(CauseStyle(c).Name)[0]})
		}
		return append(items,
			LegendItem{Icon: IconBadge, Text: "distance"},
			LegendItem{Icon: IconOutline, C: IWOColor, Text: "idle, tasks wait"},
			LegendItem{Icon: IconOutline, C: CauseColor(sim.CauseWakeup), Text: "examined"})
	}
	items := []LegendItem{
		{Icon: IconBlock, C: TaskColor(3), Text: "running task (a colour per task)"},
	}
	if o.Compact {
		items = append(items, LegendItem{Icon: IconHeat, Text: "top strip: nr_running"})
	} else {
		items = append(items,
			LegendItem{Icon: IconQueue, Text: "queued, next to run first"},
			LegendItem{Icon: IconDot, C: CauseColor(sim.CauseWakeup), Text: "wake-up in flight"})
	}
	items = append(items,
		LegendItem{Icon: IconSwatch, C: IdleShade(2, 3), Text: "idle: C-state, bluer = deeper"},
		LegendItem{Icon: IconBar, C: UtilBar, C2: UtilBar, Text: "util_avg"},
		LegendItem{Icon: IconBar, C: RunnableBar, C2: RunnableBar, Text: "runnable_avg"},
	)
	if o.V38 {
		items = append(items, LegendItem{Icon: IconBar, C: LoadBar, C2: BlockedBar, Text: "runnable_load_avg | blocked_load_avg"})
	} else {
		items = append(items, LegendItem{Icon: IconBar, C: LoadBar, C2: BlockedBar, Text: "load_avg: tasks on rq | blocked"})
	}
	items = append(items, LegendItem{Icon: IconBar, C: UtilBar, C2: BarOverflow, Text: "bars: full = 1024, notch = 512, white tip = more"})
	for c := sim.Cause(1); c < sim.NumCauses; c++ {
		items = append(items, LegendItem{Icon: IconLine, Cause: c, C: CauseColor(c), Text: CauseStyle(c).Name})
	}
	items = append(items,
		LegendItem{Icon: IconBadge, Text: "cache distance crossed (SMT L2 LLC pkg NUMA; higher arc = farther)",
			Short: "distance: SMT L2 LLC pkg NUMA, higher arc = farther"},
		LegendItem{Icon: IconOutline, C: CauseColor(sim.CauseWakeup), Text: "CPUs the decision examined"},
		LegendItem{Icon: IconHeat, Text: "heatmap: nr_running 0 1 2 3 4 5+"},
		LegendItem{Icon: IconOutline, C: IWOColor, Text: "idle while tasks wait elsewhere"},
	)
	if o.Keys {
		items = append(items, LegendItem{Icon: IconKeys, Text: KeyHelp})
	}
	if o.V268 {
		items = o1Legend(items) // the arrays' items for the PELT bars' (o1arrays.go)
	}
	return items
}

// PlacedItem is a legend item at its place (relative to the legend's origin).
type PlacedItem struct {
	LegendItem
	X, Y float64 // top-left of the item's line
	W    float64
	// Lines is the text wrapped beside the icon, one line under the
	// other, when the item is wider than the legend (a phone's narrow
	// stage); nil: Text on one line.
	Lines []string
}

// lines is the text as drawn, line by line.
func (it *PlacedItem) lines() []string {
	if it.Lines != nil {
		return it.Lines
	}
	return []string{it.Text}
}

// Legend is a laid-out legend.
type Legend struct {
	Items []PlacedItem
	W, H  float64
	Font  float64
	// MinText: icons leave out their small inner labels ("c/3", "LLC",
	// the heat scale's digits) where those would be smaller than this
	// (talk mode's TalkMinText); the item's text says the same.
	MinText float64
}

// iconLabel adds an icon's inner label at size unless that is under MinText.
func (lg *Legend) iconLabel(dst *Scene, x, y, size float64, c color.RGBA, s string) {
	if size < lg.MinText {
		return
	}
	dst.Label(x, y, size, c, s, AlignCenter)
}

func (lg *Legend) iconW() float64 { return math.Round(lg.Font * 2.2) }
func (lg *Legend) lineH() float64 { return math.Ceil(lg.Font * 1.55) }

// LayoutLegend flows items into rows of width w at font size f. An item
// wider than w on a row of its own (a long text on a phone's narrow stage)
// says it shorter if it can (Short); if that is still too wide, it gets
// rows to itself, its text wrapped beside its icon: nothing is drawn past w.
func LayoutLegend(items []LegendItem, w, f float64, m Measure) Legend {
	if m == nil {
		m = ApproxMeasure
	}
	lg := Legend{W: w, Font: f}
	gap := math.Round(f * 1.2)
	iw := lg.iconW()
	x, y := 0.0, 0.0
	rowLines := 1 // lines of the current row's tallest item
	for _, it := range items {
		tw := m(it.Text, f)
		iconW := iw + f*0.4
		if it.Icon == IconKeys {
			iconW = 0
		}
		if it.Icon == IconHeat {
			iconW = math.Round(f*0.9)*float64(HeatLevels) + f*0.4 // as Draw
		}
		iwTotal := iconW + tw
		if iwTotal > w && it.Short != "" {
			it.Text = it.Short
			tw = m(it.Text, f)
			iwTotal = iconW + tw
		}
		var lines []string
		if iwTotal > w {
			if l := Wrap(m, it.Text, f, w-iconW); len(l) > 1 {
				lines = l
				tw = 0
				for _, s := range l {
					tw = math.Max(tw, m(s, f))
				}
				iwTotal = iconW + tw
			}
		}
		if x > 0 && (x+iwTotal > w || lines != nil) {
			x = 0
			y += float64(rowLines) * lg.lineH()
			rowLines = 1
		}
		lg.Items = append(lg.Items, PlacedItem{LegendItem: it, X: x, Y: y, W: iwTotal, Lines: lines})
		x += iwTotal + gap
		if lines != nil {
			rowLines = len(lines)
			x = w + 1 // the next item starts a row under the last line
		}
	}
	if len(items) > 0 {
		lg.H = y + float64(rowLines)*lg.lineH()
	}
	return lg
}

// FirstRow is the items that fit in the first row of a legend w wide at
// font size f (talk mode keeps its legend to one row; the items are in
// order of importance).
//
// A row that cannot hold every cause's line style gives no legend at all:
// half of the causes would mislead more than none.
func FirstRow(items []LegendItem, w, f float64, m Measure) []LegendItem {
	lg := LayoutLegend(items, w, f, m)
	n, causes, shown := 0, 0, 0
	for i := range lg.Items {
		if lg.Items[i].Icon == IconLine {
			causes++
		}
	}
	for n < len(lg.Items) && lg.Items[n].Y == 0 {
		if lg.Items[n].Icon == IconLine {
			shown++
		}
		n++
	}
	if shown < causes {
		return nil
	}
	return items[:n]
}

// Draw draws the legend with its origin at (ox, oy).
func (lg *Legend) Draw(dst *Scene, ox, oy float64) {
	f := lg.Font
	h := lg.lineH()
	iw := lg.iconW()
	for _, it := range lg.Items {
		x, y := ox+it.X, oy+it.Y
		cy := y + h/2
		ih := math.Round(f * 0.9)
		icon := Rect{x, math.Round(cy - ih/2), iw, ih}
		tx := x + iw + f*0.4
		switch it.Icon {
		case IconBlock:
			dst.Fill(icon, it.C)
			lg.iconLabel(dst, icon.X+icon.W/2, cy, f*0.75, TextOn(it.C), "c/3")
		case IconQueue:
			bw := (iw - 4) / 3
			for k := range 3 {
				dst.Fill(Rect{x + float64(k)*(bw+2), cy - ih*0.35, bw, ih * 0.7}, TaskColor(5+k*7))
			}
		case IconSwatch:
			dst.Fill(icon, it.C)
			dst.Stroke(icon, 1, CellBorder)
		case IconDot:
			d := ih * 0.6
			dst.Fill(Rect{x + iw/2 - d/2, cy - d/2, d, d}, it.C)
		case IconBar:
			bh := math.Max(3, math.Round(f*0.35))
			r := Rect{x, cy - bh/2, iw, bh}
			dst.Fill(r, UtilBarTrack)
			if it.C2 == BarOverflow {
				dst.Fill(Rect{r.X, r.Y, r.W, r.H}, it.C)
				dst.Fill(Rect{r.Right() - bh, r.Y, bh, r.H}, BarOverflow)
			} else {
				dst.Fill(Rect{r.X, r.Y, r.W * 0.5, r.H}, it.C)
				dst.Fill(Rect{r.X + r.W*0.5, r.Y, r.W * 0.3, r.H}, it.C2)
			}
		case IconLine:
			st := CauseStyle(it.Cause)
			w := st.Width * f / 14
			if st.Double {
				dst.Line(x, cy-w, x+iw, cy-w, w, st.Color)
				dst.Line(x, cy+w, x+iw, cy+w, w, st.Color)
			} else {
				dst.Polyline([]float64{x, x + iw}, []float64{cy, cy}, w, st.Color, st.Dash)
			}
		case IconBadge:
			dst.Fill(icon, Background)
			dst.Stroke(icon, 1, CauseColor(sim.CauseWakeup))
			lg.iconLabel(dst, icon.X+icon.W/2, cy, f*0.7, CellLabel, "LLC")
		case IconOutline:
			dst.Fill(icon, CellBusy)
			dst.Stroke(icon, 2, it.C)
		case IconHeat:
			sw := math.Round(f * 0.9)
			for k := range HeatLevels {
				r := Rect{x + float64(k)*sw, cy - sw/2, sw, sw}
				c := HeatColor(k)
				dst.Fill(r, c)
				lg.iconLabel(dst, r.X+sw/2, cy, f*0.65, TextOn(c), strconv.Itoa(k))
			}
			tx = x + sw*float64(HeatLevels) + f*0.4
		case IconKeys:
			tx = x
		}
		for k, line := range it.lines() {
			dst.Label(tx, cy+float64(k)*h, f, Muted, line, AlignLeft)
		}
	}
}
