package render

import (
	"image/color"
	"math"

	"schedplay/sim"
)

// Theme colours: a dark, high-contrast palette that survives a projector.
var (
	Background   = color.RGBA{0x0b, 0x0e, 0x14, 0xff}
	BoxBorder    = color.RGBA{0x5a, 0x67, 0x7a, 0xff}
	CoreBorder   = color.RGBA{0x3c, 0x46, 0x55, 0xff}
	BoxLabel     = color.RGBA{0xe8, 0xee, 0xf5, 0xff}
	CellBusy     = color.RGBA{0x26, 0x30, 0x3e, 0xff}
	CellIdle     = color.RGBA{0x12, 0x16, 0x1d, 0xff}
	CellBorder   = color.RGBA{0x6e, 0x7d, 0x91, 0xff}
	CellLabel    = color.RGBA{0xf2, 0xf5, 0xf9, 0xff}
	IdleText     = color.RGBA{0x8a, 0x96, 0xa8, 0xff}
	UtilBar      = color.RGBA{0xf5, 0xd0, 0x4a, 0xff}
	UtilBarTrack = color.RGBA{0x30, 0x36, 0x40, 0xff}
	// PELT bars: runnable_avg, and load_avg split into the load of the
	// tasks on the runqueue and the blocked load (tasks asleep whose load
	// has not decayed yet).
	RunnableBar = color.RGBA{0xff, 0x8a, 0x3d, 0xff}
	LoadBar     = color.RGBA{0x5c, 0xa8, 0xff, 0xff}
	BlockedBar  = color.RGBA{0x8d, 0x7b, 0xa8, 0xff}
	// BarOverflow marks a PELT signal above the bar's 1024 full scale.
	BarOverflow = color.RGBA{0xff, 0xff, 0xff, 0xff}
	// Panel is the background of charts, the legend and text panels.
	Panel       = color.RGBA{0x12, 0x17, 0x20, 0xff}
	PanelBorder = color.RGBA{0x3a, 0x45, 0x55, 0xff}
	GridLine    = color.RGBA{0x2a, 0x33, 0x40, 0xff}
	Muted       = color.RGBA{0xaa, 0xb4, 0xc3, 0xff}
	// SideA and SideB tell the two sides of an A/B comparison apart in the
	// charts and captions.
	SideA = color.RGBA{0xf2, 0xf5, 0xf9, 0xff}
	SideB = color.RGBA{0xff, 0xc8, 0x3d, 0xff}
	// Better and Worse colour a metric difference.
	Better = color.RGBA{0x6d, 0xe0, 0x7a, 0xff}
	Worse  = color.RGBA{0xff, 0x6b, 0x7a, 0xff}
)

// heatColors are the colours of a run queue's length (nr_running) in the
// heatmap and the compact view's strip: idle, one task running, then
// longer queues ever hotter.
var heatColors = [...]color.RGBA{
	{0x17, 0x1c, 0x25, 0xff}, // 0: idle
	{0x1f, 0x7a, 0x8c, 0xff}, // 1: running, nobody waiting
	{0xe8, 0xc5, 0x47, 0xff}, // 2
	{0xf0, 0x8c, 0x2e, 0xff}, // 3
	{0xe8, 0x43, 0x3a, 0xff}, // 4
	{0xff, 0xb3, 0xc1, 0xff}, // 5 or more
}

// IWOColor marks an idle CPU while tasks wait on other CPUs' queues
// (idle while overloaded).
var IWOColor = color.RGBA{0xff, 0x2b, 0xd6, 0xff}

// HeatLevels is the number of distinct heat colours (nr_running 0 .. HeatLevels-1+).
const HeatLevels = len(heatColors)

// HeatColor is the colour of a run queue with nr tasks (running + queued).
func HeatColor(nr int) color.RGBA {
	return heatColors[min(max(nr, 0), len(heatColors)-1)]
}

// IdleShade is the background of an idle cell in C-state depth (0 = the
// shallowest) of n states: the shallowest is CellIdle, the deepest idleDeep
// (a cold blue), the states between on the line between them. A hue, not
// only a darker grey: the cost of a wake-up (C6's exit against C1's) has to
// read across a room, and near-black greys a projector shows as one.
func IdleShade(depth, n int) color.RGBA {
	if n <= 1 || depth <= 0 {
		return CellIdle
	}
	f := clamp(float64(depth)/float64(n-1), 0, 1)
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
	return color.RGBA{mix(CellIdle.R, idleDeep.R), mix(CellIdle.G, idleDeep.G), mix(CellIdle.B, idleDeep.B), 0xff}
}

// WithAlpha returns c with opacity a (0..1).
func WithAlpha(c color.RGBA, a float64) color.RGBA {
	c.A = uint8(math.Round(clamp(a, 0, 1) * float64(c.A)))
	return c
}

// boxFill is the fill of a box at nesting depth d (0 = outermost): each level
// a little lighter, so nesting reads without heavy borders.
func boxFill(d int) color.RGBA {
	base := boxFills
	if d < 0 {
		d = 0
	}
	if d >= len(base) {
		d = len(base) - 1
	}
	return base[d]
}

// boxFills are the box fills by nesting depth (theme.go swaps them).
var boxFills = [5]color.RGBA{
	{0x14, 0x19, 0x22, 0xff},
	{0x1a, 0x21, 0x2c, 0xff},
	{0x1f, 0x28, 0x35, 0xff},
	{0x24, 0x2e, 0x3c, 0xff},
	{0x29, 0x33, 0x43, 0xff},
}

// causeColors are the colours of migration causes, shared by the canvas
// glides and the page's legend (cmd/wasm sets the swatches from CauseColor).
var causeColors = [sim.NumCauses]color.RGBA{
	sim.CauseNone:    {0xc0, 0xc0, 0xc0, 0xff},
	sim.CauseWakeup:  {0x3d, 0xd6, 0xf5, 0xff}, // cyan
	sim.CauseBalance: {0xff, 0x9f, 0x1c, 0xff}, // orange
	sim.CauseNewidle: {0x7c, 0xe5, 0x5c, 0xff}, // green
	sim.CauseNohz:    {0xc7, 0x7d, 0xff, 0xff}, // violet
	sim.CauseActive:  {0xff, 0x4d, 0x5e, 0xff}, // red
	sim.CauseFork:    {0xff, 0xff, 0xff, 0xff}, // white
	sim.CauseExec:    {0xff, 0xe0, 0x5c, 0xff}, // yellow
}

// CauseColor is the colour of migrations with cause c.
func CauseColor(c sim.Cause) color.RGBA {
	if c < sim.NumCauses {
		return causeColors[c]
	}
	return causeColors[sim.CauseNone]
}

// goldenAngle in degrees: consecutive ids land far apart on the hue circle.
const goldenAngle = 137.50776405003785

// TaskColor is the stable colour of task id: hue by the golden angle, with
// saturation and lightness alternating in three steps so that ids whose hues
// come close again (every 8 or 21 ids) still differ. On the light theme's
// pale busy cell the same hues are darker.
func TaskColor(id int) color.RGBA {
	if id < 0 {
		return color.RGBA{0x80, 0x80, 0x80, 0xff}
	}
	h := math.Mod(float64(id)*goldenAngle, 360)
	s := [...]float64{0.78, 0.62, 0.70}[id%3]
	l := [...]float64{0.62, 0.70, 0.55}[(id/3)%3]
	step := 0.02
	if luminance(CellBusy) > 0.5 {
		l, step = l-0.24, -0.02
	}
	c := hsl(h, s, l)
	// Blues and violets are dark at equal lightness, yellows and greens
	// light: move them away from the busy cell's lightness until the block
	// stands out from it. (Lightening alone, on the light theme, took 50 of
	// the first 64 tasks to within 1.1:1 of a busy cell: invisible.)
	for Contrast(c, CellBusy) < 3 && l > 0.1 && l < 0.9 {
		l += step
		c = hsl(h, s, l)
	}
	return c
}

// hsl converts hue (degrees), saturation and lightness (0..1) to RGBA.
func hsl(h, s, l float64) color.RGBA {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g, b = c, x, 0
	case hp < 2:
		r, g, b = x, c, 0
	case hp < 3:
		r, g, b = 0, c, x
	case hp < 4:
		r, g, b = 0, x, c
	case hp < 5:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	m := l - c/2
	to8 := func(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v+m)) * 255)) }
	return color.RGBA{to8(r), to8(g), to8(b), 0xff}
}

// luminance is the WCAG relative luminance of c.
func luminance(c color.RGBA) float64 {
	return 0.2126*linear[c.R] + 0.7152*linear[c.G] + 0.0722*linear[c.B]
}

// linear is each 8-bit sRGB channel value made linear (WCAG's relative
// luminance), computed once: math.Pow per channel made the page's relayout
// of aim9-burst's 513 task colours a long task in wasm.
var linear = func() (t [256]float64) {
	for v := range t {
		f := float64(v) / 255
		if f <= 0.03928 {
			t[v] = f / 12.92
		} else {
			t[v] = math.Pow((f+0.055)/1.055, 2.4)
		}
	}
	return t
}()

// Contrast is the WCAG contrast ratio between a and b (1..21).
func Contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

var (
	black = color.RGBA{0, 0, 0, 0xff}
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// TextOn returns black or white, whichever contrasts more with bg.
func TextOn(bg color.RGBA) color.RGBA {
	if Contrast(bg, black) >= Contrast(bg, white) {
		return black
	}
	return white
}

// dim mixes c towards the idle background by f (0 = c, 1 = background).
func dim(c color.RGBA, f float64) color.RGBA {
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
	return color.RGBA{mix(c.R, CellIdle.R), mix(c.G, CellIdle.G), mix(c.B, CellIdle.B), 0xff}
}

// CSS renders c as "#rrggbb" for the page.
func CSS(c color.RGBA) string {
	const hex = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range []uint8{c.R, c.G, c.B} {
		b[1+2*i] = hex[v>>4]
		b[2+2*i] = hex[v&15]
	}
	return string(b)
}
