package render

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"schedplay/sim"
)

// TestThemesContrast computes the WCAG contrast of each theme's colours on
// the backgrounds they are drawn on: text at least 4.5:1 (AA), graphical
// marks (causes, heat levels against an idle cell, bars against their
// track) at least 3:1 (WCAG 1.4.11).
func TestThemesContrast(t *testing.T) {
	defer SetTheme(ThemeDark)
	for _, th := range []string{ThemeDark, ThemeLight} {
		SetTheme(th)
		check := func(what string, fg, bg color.RGBA, min float64) {
			t.Helper()
			if c := Contrast(fg, bg); c < min {
				t.Errorf("%s: %s: %s on %s is %.2f:1, under %.1f:1", th, what, CSS(fg), CSS(bg), c, min)
			}
		}
		texts := map[string]color.RGBA{"BoxLabel": BoxLabel, "Muted": Muted, "SideA": SideA, "SideB": SideB, "Better": Better, "Worse": Worse}
		for _, bgName := range []string{"Background", "Panel"} {
			bg := map[string]color.RGBA{"Background": Background, "Panel": Panel}[bgName]
			for _, name := range []string{"BoxLabel", "Muted", "SideA", "SideB", "Better", "Worse"} {
				check(name+" text on "+bgName, texts[name], bg, 4.5)
			}
			for c := sim.Cause(1); c < sim.NumCauses; c++ {
				check(fmt.Sprintf("cause %s on %s", c, bgName), CauseColor(c), bg, 3)
			}
			for i, lc := range latColors {
				check(fmt.Sprintf("latency line %d on %s", i, bgName), lc, bg, 3)
			}
		}
		for d := range boxFills {
			check(fmt.Sprintf("BoxLabel text on box depth %d", d), BoxLabel, boxFill(d), 4.5)
		}
		check("CellLabel text on a busy cell", CellLabel, CellBusy, 4.5)
		check("IdleText on an idle cell", IdleText, CellIdle, 4.5)
		check("IdleText on the deepest idle shade", IdleText, IdleShade(3, 4), 4.5)
		// C1 against C6 is a wake-up of 3 us against 200 us: the two shades
		// differ in hue (both are backgrounds of the same dark or light
		// level, so WCAG's luminance ratio cannot tell them apart): at least
		// 60 apart in RGB, where the grey ramp of before was 17.
		if d := rgbDistance(CellIdle, IdleShade(3, 4)); d < 60 {
			t.Errorf("%s: the shallowest and deepest idle shades %s and %s are %.0f apart in RGB, under 60", th, CSS(CellIdle), CSS(IdleShade(3, 4)), d)
		}
		for i := 1; i < HeatLevels; i++ {
			check(fmt.Sprintf("heat level %d against idle", i), HeatColor(i), HeatColor(0), 3)
		}
		check("idle while overloaded against idle", IWOColor, HeatColor(0), 3)
		for name, bar := range map[string]color.RGBA{"util": UtilBar, "runnable": RunnableBar, "load": LoadBar} {
			check(name+" bar on its track", bar, UtilBarTrack, 3)
		}
		for c := sim.Cause(1); c < sim.NumCauses; c++ {
			check(fmt.Sprintf("cause %s on a busy cell", c), CauseColor(c), CellBusy, 3)
		}
	}
}

// The two themes keep the colours' meaning: each cause keeps its hue
// family, and switching back restores the dark palette exactly.
func TestThemeSwitch(t *testing.T) {
	dark := current()
	SetTheme(ThemeLight)
	if CurrentTheme() != ThemeLight || Background == dark.background || CauseColor(sim.CauseWakeup) == dark.causes[sim.CauseWakeup] {
		t.Errorf("light theme not applied")
	}
	SetTheme(ThemeDark)
	if current() != dark {
		t.Errorf("dark palette not restored")
	}
	for c := sim.Cause(1); c < sim.NumCauses; c++ {
		if c == sim.CauseFork {
			continue // white on dark, near-black on light: the neutral one
		}
		hd, hl := hue(darkPalette.causes[c]), hue(lightPalette.causes[c])
		d := hd - hl
		if d < 0 {
			d = -d
		}
		if d > 180 {
			d = 360 - d
		}
		if d > 25 {
			t.Errorf("cause %s: hue %0.f° dark, %0.f° light", c, hd, hl)
		}
	}
}

func hue(c color.RGBA) float64 {
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	mx, mn := max(r, g, b), min(r, g, b)
	if mx == mn {
		return 0
	}
	var h float64
	switch mx {
	case r:
		h = (g - b) / (mx - mn)
	case g:
		h = 2 + (b-r)/(mx-mn)
	default:
		h = 4 + (r-g)/(mx-mn)
	}
	h *= 60
	if h < 0 {
		h += 360
	}
	return h
}

func rgbDistance(a, b color.RGBA) float64 {
	d := func(x, y uint8) float64 { return float64(x) - float64(y) }
	return math.Sqrt(d(a.R, b.R)*d(a.R, b.R) + d(a.G, b.G)*d(a.G, b.G) + d(a.B, b.B)*d(a.B, b.B))
}
