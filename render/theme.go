package render

import (
	"image/color"

	"schedplay/sim"
)

// Themes: the dark palette (color.go's values, the default) and a light one
// for projectors that wash dark backgrounds out. Colours keep their
// meaning across the two: the causes keep their hues (cyan wake-up, orange
// balance, green newidle, violet nohz, red active, yellow exec), the heat
// scale still runs cold to hot, side B is still amber; on white they are
// darker shades so that they stand out (TestThemesContrast: text WCAG AA,
// 4.5:1, on the backgrounds it is drawn on; causes, heat and bars 3:1, the
// WCAG ratio for graphical objects).
//
// The palette lives in package variables (Background, CellBusy, ...) that
// every drawing reads; SetTheme swaps them between frames. The canvas
// calls it from its single drawing goroutine, before drawing a frame.

// palette is every themed colour.
type palette struct {
	background, boxBorder, coreBorder, boxLabel       color.RGBA
	cellBusy, cellIdle, cellBorder, cellLabel         color.RGBA
	idleText, utilBar, utilBarTrack                   color.RGBA
	runnableBar, loadBar, blockedBar, barOverflow     color.RGBA
	panel, panelBorder, gridLine, muted, sideA, sideB color.RGBA
	better, worse, iwo, idleDeep                      color.RGBA
	heat                                              [len(heatColors)]color.RGBA
	causes                                            [sim.NumCauses]color.RGBA
	boxFills                                          [5]color.RGBA
	lat                                               [3]color.RGBA
}

// idleDeep is the shade of an idle cell in the deepest C-state (IdleShade).
var idleDeep = color.RGBA{0x0c, 0x28, 0x62, 0xff}

// current is the palette in use.
func current() palette {
	p := palette{
		background: Background, boxBorder: BoxBorder, coreBorder: CoreBorder, boxLabel: BoxLabel,
		cellBusy: CellBusy, cellIdle: CellIdle, cellBorder: CellBorder, cellLabel: CellLabel,
		idleText: IdleText, utilBar: UtilBar, utilBarTrack: UtilBarTrack,
		runnableBar: RunnableBar, loadBar: LoadBar, blockedBar: BlockedBar, barOverflow: BarOverflow,
		panel: Panel, panelBorder: PanelBorder, gridLine: GridLine, muted: Muted, sideA: SideA, sideB: SideB,
		better: Better, worse: Worse, iwo: IWOColor, idleDeep: idleDeep,
		heat: heatColors, causes: causeColors, lat: latColors,
	}
	for i := range p.boxFills {
		p.boxFills[i] = boxFills[i]
	}
	return p
}

func (p *palette) apply() {
	Background, BoxBorder, CoreBorder, BoxLabel = p.background, p.boxBorder, p.coreBorder, p.boxLabel
	CellBusy, CellIdle, CellBorder, CellLabel = p.cellBusy, p.cellIdle, p.cellBorder, p.cellLabel
	IdleText, UtilBar, UtilBarTrack = p.idleText, p.utilBar, p.utilBarTrack
	RunnableBar, LoadBar, BlockedBar, BarOverflow = p.runnableBar, p.loadBar, p.blockedBar, p.barOverflow
	Panel, PanelBorder, GridLine, Muted, SideA, SideB = p.panel, p.panelBorder, p.gridLine, p.muted, p.sideA, p.sideB
	Better, Worse, IWOColor, idleDeep = p.better, p.worse, p.iwo, p.idleDeep
	heatColors, causeColors, boxFills, latColors = p.heat, p.causes, p.boxFills, p.lat
}

var darkPalette = current()

var lightPalette = palette{
	background: rgb(0xff, 0xff, 0xff), boxBorder: rgb(0x7a, 0x86, 0x96), coreBorder: rgb(0xa8, 0xb2, 0xbf), boxLabel: rgb(0x12, 0x1a, 0x26),
	cellBusy: rgb(0xdf, 0xe5, 0xed), cellIdle: rgb(0xf6, 0xf8, 0xfb), cellBorder: rgb(0x6b, 0x77, 0x88), cellLabel: rgb(0x0d, 0x14, 0x1e),
	idleText: rgb(0x4a, 0x55, 0x66), utilBar: rgb(0x8c, 0x66, 0x00), utilBarTrack: rgb(0xd5, 0xdb, 0xe3),
	runnableBar: rgb(0xc2, 0x52, 0x00), loadBar: rgb(0x1f, 0x5f, 0xc0), blockedBar: rgb(0x6e, 0x55, 0x94), barOverflow: rgb(0x00, 0x00, 0x00),
	panel: rgb(0xf3, 0xf5, 0xf8), panelBorder: rgb(0xb4, 0xbd, 0xc9), gridLine: rgb(0xd8, 0xde, 0xe6),
	muted: rgb(0x41, 0x4d, 0x5e), sideA: rgb(0x10, 0x18, 0x24), sideB: rgb(0x8a, 0x4b, 0x00),
	better: rgb(0x0b, 0x6b, 0x1f), worse: rgb(0xb0, 0x12, 0x28), iwo: rgb(0xc0, 0x00, 0x9a), idleDeep: rgb(0xbd, 0xd2, 0xf2),
	heat: [len(heatColors)]color.RGBA{
		rgb(0xec, 0xef, 0xf3), // 0: idle
		rgb(0x1f, 0x7a, 0x8c), // 1: running, nobody waiting
		rgb(0x9a, 0x72, 0x00), // 2
		rgb(0xd0, 0x5f, 0x00), // 3
		rgb(0xc8, 0x1e, 0x1e), // 4
		rgb(0x8e, 0x00, 0x3c), // 5 or more
	},
	causes: [sim.NumCauses]color.RGBA{
		sim.CauseNone:    rgb(0x60, 0x60, 0x60),
		sim.CauseWakeup:  rgb(0x00, 0x7f, 0xa3), // cyan
		sim.CauseBalance: rgb(0xc4, 0x5c, 0x00), // orange
		sim.CauseNewidle: rgb(0x2a, 0x8a, 0x12), // green
		sim.CauseNohz:    rgb(0x86, 0x3f, 0xc8), // violet
		sim.CauseActive:  rgb(0xd0, 0x10, 0x2a), // red
		sim.CauseFork:    rgb(0x20, 0x20, 0x20), // black: white's opposite, the neutral one
		sim.CauseExec:    rgb(0x9a, 0x7a, 0x00), // yellow
	},
	boxFills: [5]color.RGBA{rgb(0xf4, 0xf6, 0xf9), rgb(0xec, 0xf0, 0xf4), rgb(0xe5, 0xea, 0xf0), rgb(0xde, 0xe4, 0xeb), rgb(0xd7, 0xde, 0xe6)},
	lat:      [3]color.RGBA{rgb(0x3a, 0x46, 0x58), rgb(0xb0, 0x5f, 0x00), rgb(0xc0, 0x1a, 0x30)},
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// Theme names.
const (
	ThemeDark  = "dark"
	ThemeLight = "light"
)

var theme = ThemeDark

// SetTheme switches the palette: "light", or anything else for dark.
func SetTheme(name string) {
	if name != ThemeLight {
		name = ThemeDark
	}
	if name == theme {
		return
	}
	theme = name
	if name == ThemeLight {
		lightPalette.apply()
	} else {
		darkPalette.apply()
	}
}

// CurrentTheme is the theme in use.
func CurrentTheme() string { return theme }
