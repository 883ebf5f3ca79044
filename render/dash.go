package render

import "math"

// The dashboard: how the stage is shared between the machine (or the two
// machines of an A/B comparison), the four charts, the legend, the A/B
// metric differences, and in talk mode a status line and the newest
// explanations.
//
// Normal mode (the page shows the clock, metrics and log beside the stage):
//
//	┌──────────── machine(s) ────────────┐
//	│ [A caption]        [B caption]     │
//	├──────┬──────┬──────┬──────┬────────┤
//	│ ops  │ lat  │ migr │ heat │ (A/B Δ)│
//	├──────┴──────┴──────┴──────┴────────┤
//	│ legend (flowing rows)              │
//	└────────────────────────────────────┘
//
// Talk mode (the page hides its panels; type is larger):
//
//	┌ status: ► 1 ms/s  t = 3.4 ms   keys ┐
//	├────────── machine(s) ───────┬ ops   ┤
//	│                             │ lat   │
//	│                             │ migr  │
//	│                             │ heat  │
//	├ explanations (A/B: Δ table) ┤       │
//	├ legend ─────────────────────┴───────┤
//	└─────────────────────────────────────┘

// DashOptions describe what the dashboard must hold.
type DashOptions struct {
	Talk bool
	AB   bool
	// Stacked puts side B under side A instead of beside it (better for
	// tall stages; the canvas tries both).
	Stacked bool
	// LegendH returns the legend's height for a width at the legend font
	// (LayoutLegend's H).
	LegendH func(w, font float64) float64
}

// Dash is the stage's split.
type Dash struct {
	Stage      Rect
	Font       float64 // charts, captions, diff table, log
	LegendFont float64
	Status     Rect    // talk mode only
	Caption    [2]Rect // A/B only: above each machine
	Machine    [2]Rect // [1] only with A/B
	Charts     [NumCharts]Rect
	Diff       Rect // A/B only
	// NoCharts: the charts are left out (every Charts rect is empty). Only
	// the short dashboard in talk mode with A/B does this, where the four
	// would be slivers under their titles.
	NoCharts bool
	Log      Rect // talk mode only
	Legend   Rect
	// MinText is the smallest text anything on this dashboard may use:
	// TalkMinText in talk mode, 0 otherwise.
	MinText float64
}

// NewDash splits stage.
func NewDash(stage Rect, o DashOptions) Dash {
	d := Dash{Stage: stage}
	legendH := func(w, f float64) float64 {
		if o.LegendH == nil {
			return 0
		}
		return o.LegendH(w, f)
	}
	gap := 8.0
	if o.Talk {
		d.MinText = TalkMinText
	}
	if stage.H < ShortStage && stage.W >= 1.3*stage.H {
		return d.short(o)
	}
	if o.Talk {
		d.Font = clamp(math.Min(stage.H/40, stage.W/64), TalkMinText, 28)
		d.LegendFont = math.Max(TalkMinText, d.Font*0.72)
		gap = math.Round(d.Font * 0.5)
		r := stage
		d.Status = Rect{r.X, r.Y, r.W, math.Ceil(d.Font * 1.9)}
		r.Y += d.Status.H + gap
		r.H -= d.Status.H + gap
		lh := legendH(r.W, d.LegendFont)
		if lh > maxTalkLegendShare*r.H {
			lh = 0
		}
		d.Legend = Rect{r.X, r.Bottom() - lh, r.W, lh}
		r.H -= lh + gap
		// Right column: the charts stacked. Under the machine(s): the
		// newest explanations, or with A/B the metric differences.
		if r.W >= 1000 && r.W >= 1.3*r.H {
			colW := math.Round(clamp(r.W*0.23, 260, 560))
			col := Rect{r.Right() - colW, r.Y, colW, r.H}
			r.W -= colW + gap
			d.stackCharts(col, gap)
		} else {
			// A narrow or tall stage: the charts two by two under the machine.
			gridH := math.Round(clamp(r.H*0.3, 200, 420))
			cw, ch := (r.W-gap)/2, (gridH-gap)/2
			y0 := r.Bottom() - gridH
			for i := range d.Charts {
				d.Charts[i] = Rect{r.X + float64(i%2)*(cw+gap), y0 + float64(i/2)*(ch+gap), cw, ch}
			}
			r.H -= gridH + gap
		}
		logH := math.Ceil(d.Font * 0.9 * 1.35 * 3.4)
		switch {
		case o.AB:
			logH = math.Ceil(d.Font * 1.3 * 4.3)
			d.Diff = Rect{r.X, r.Bottom() - logH, r.W, logH}
		case r.W < minTalkLogW:
			// A phone: two lines of an explanation would be cut off
			// mid-sentence; the machine takes the room.
			logH = -gap
		default:
			d.Log = Rect{r.X, r.Bottom() - logH, r.W, logH}
		}
		r.H -= logH + gap
		d.machines(r, o.AB, o.Stacked, gap)
		return d
	}
	d.Font = clamp(math.Min(stage.H/64, stage.W/80), 11, 15)
	d.LegendFont = d.Font
	r := stage
	lh := legendH(r.W, d.LegendFont)
	if lh > maxLegendShare*r.H {
		lh = 0 // a phone: the legend would crowd out the machine
	}
	d.Legend = Rect{r.X, r.Bottom() - lh, r.W, lh}
	r.H -= lh + gap
	if r.W >= wideDash {
		// Wide: the four charts in a row (and the A/B table beside them).
		chartsH := math.Round(clamp(r.H*0.26, 130, 250))
		row := Rect{r.X, r.Bottom() - chartsH, r.W, chartsH}
		r.H -= chartsH + gap
		if o.AB {
			dw := math.Round(clamp(row.W*0.26, 250, 380))
			d.Diff = Rect{row.Right() - dw, row.Y, dw, row.H}
			row.W -= dw + gap
		}
		cw := (row.W - 3*gap) / 4
		for i := range d.Charts {
			d.Charts[i] = Rect{row.X + float64(i)*(cw+gap), row.Y, cw, row.H}
		}
	} else {
		// Narrow: the charts two by two (the A/B table under them).
		if o.AB {
			dh := math.Ceil(d.Font * 1.45 * 7.4)
			d.Diff = Rect{r.X, r.Bottom() - dh, r.W, dh}
			r.H -= dh + gap
		}
		gridH := math.Round(clamp(r.H*0.34, 200, 380))
		cw, ch := (r.W-gap)/2, (gridH-gap)/2
		y0 := r.Bottom() - gridH
		for i := range d.Charts {
			d.Charts[i] = Rect{r.X + float64(i%2)*(cw+gap), y0 + float64(i/2)*(ch+gap), cw, ch}
		}
		r.H -= gridH + gap
	}
	d.machines(r, o.AB, o.Stacked, gap)
	return d
}

// wideDash is the least stage width (px) whose charts go in one row under
// the machine rather than two by two, which costs the machine more height
// (a 1280x720 laptop's 972 px stage: machine 237 px tall with the grid).
const wideDash = 900

// ShortStage is the stage height (CSS px) below which a wide stage (a
// phone held sideways, a laptop with a big header) gets the short
// dashboard: the charts in a column beside the machine, and no legend.
const ShortStage = 480

// maxLegendShare is the largest part of the stage's height the legend may
// take; a taller legend (a phone's narrow stage) is left out.
const maxLegendShare = 0.3

// minTalkLogW is the least width (px) of talk mode's explanations panel:
// on a narrower stage (a phone held upright) it is left out.
const minTalkLogW = 520

// maxTalkLegendShare is the same for talk mode's (short) legend: the
// machine comes first.
const maxTalkLegendShare = 0.2

// short lays out a short, wide stage: machine(s) on the left, the charts
// two by two on the right (with A/B the difference table under them), no
// legend; in talk mode a status line on top, the explanations under the
// machine where it keeps shortLogMachineH, and with A/B, where the charts
// would be slivers, the table alone on the right.
func (d *Dash) short(o DashOptions) Dash {
	stage := d.Stage
	gap := 6.0
	if o.Talk {
		d.Font = clamp(math.Min(stage.H/18, stage.W/40), TalkMinText, 24)
	} else {
		d.Font = clamp(math.Min(stage.H/30, stage.W/70), 11, 14)
	}
	d.LegendFont = d.Font
	r := stage
	if o.Talk {
		d.Status = Rect{r.X, r.Y, r.W, math.Ceil(d.Font * 1.6)}
		r.Y += d.Status.H + gap
		r.H -= d.Status.H + gap
	}
	colW := math.Round(clamp(r.W*0.3, 150, 380))
	col := Rect{r.Right() - colW, r.Y, colW, r.H}
	r.W -= colW + gap
	if o.AB {
		dh := math.Min(math.Ceil(d.Font*1.45*7.4), col.H*0.45)
		if o.Talk && (col.H-dh-2*gap)/2 < minChartH(d.Font, d.MinText) {
			// A phone held sideways in talk mode: the charts would be
			// their titles alone (41 px at 18 px type, values over the
			// plot); the column is the A/B table, named row by row.
			d.Diff = col
			d.NoCharts = true
			d.Legend = Rect{r.X, r.Bottom(), r.W, 0}
			d.machines(r, o.AB, o.Stacked, gap)
			return *d
		}
		d.Diff = Rect{col.X, col.Bottom() - dh, col.W, dh}
		col.H -= dh + gap
	}
	// Two by two in the column: four charts stacked would be slivers.
	cw, ch := (col.W-gap)/2, (col.H-gap)/2
	for i := range d.Charts {
		d.Charts[i] = Rect{col.X + float64(i%2)*(cw+gap), col.Y + float64(i/2)*(ch+gap), cw, ch}
	}
	d.Legend = Rect{r.X, r.Bottom(), r.W, 0}
	// Talk mode's explanations, under the machine where it stays at least
	// shortLogMachineH tall: at 1280x720 a chapter with a three-line
	// caption leaves a short stage, and a chapter paused on a move said
	// "the 20th wakeup migrate of worker" with no word of why.
	if o.Talk && !o.AB && r.W >= minTalkLogW {
		logH := math.Ceil(max(d.Font*0.9, d.MinText) * 1.35 * 3.4)
		if r.H-logH-gap >= shortLogMachineH {
			d.Log = Rect{r.X, r.Bottom() - logH, r.W, logH}
			r.H -= logH + gap
		}
	}
	d.machines(r, o.AB, o.Stacked, gap)
	return *d
}

// shortLogMachineH is the least height (px) the machine keeps on a short
// talk-mode stage when the explanations go under it.
const shortLogMachineH = 240

// minChartH is the least height of a chart at font f: its title line, a
// line's height of plot and its caption line (ChartStyle's titleBand,
// small and plotArea's caption band).
func minChartH(f, minText float64) float64 {
	st := ChartStyle{Font: f, MinText: minText}
	return st.titleBand() + st.small() + math.Ceil(st.small()*1.4)
}

func (d *Dash) stackCharts(col Rect, gap float64) {
	// The heatmap gets more height: one row per CPU reads better.
	unit := (col.H - 3*gap) / 4.6
	y := col.Y
	for i := range d.Charts {
		h := unit
		if Chart(i) == ChartHeat {
			h = col.Bottom() - y
		}
		d.Charts[i] = Rect{col.X, y, col.W, h}
		y += h + gap
	}
}

func (d *Dash) machines(r Rect, ab, stacked bool, gap float64) {
	if !ab {
		d.Machine[0] = r
		return
	}
	ch := math.Ceil(d.Font * 1.7)
	if stacked {
		hh := (r.H - 2*gap) / 2
		for k := range 2 {
			y := r.Y + float64(k)*(hh+2*gap)
			d.Caption[k] = Rect{r.X, y, r.W, ch}
			d.Machine[k] = Rect{r.X, y + ch, r.W, hh - ch}
		}
		return
	}
	hw := (r.W - 2*gap) / 2
	for k := range 2 {
		x := r.X + float64(k)*(hw+2*gap)
		d.Caption[k] = Rect{x, r.Y, hw, ch}
		d.Machine[k] = Rect{x, r.Y + ch, hw, r.H - ch}
	}
}
