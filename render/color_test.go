package render

import (
	"testing"

	"schedplay/sim"
)

// TestTaskColorsReadable: in both themes a task's block stands out from a
// busy cell and its name reads on it. (The light theme's blocks were the
// dark theme's lightened further: 50 of the first 64 within 1.1:1 of the
// cell.)
func TestTaskColorsReadable(t *testing.T) {
	defer SetTheme(ThemeDark)
	for _, th := range []string{ThemeDark, ThemeLight} {
		SetTheme(th)
		for id := 0; id < 512; id++ {
			c := TaskColor(id)
			if c != TaskColor(id) {
				t.Fatalf("TaskColor(%d) not stable", id)
			}
			if r := Contrast(c, TextOn(c)); r < 4.5 {
				t.Errorf("%s: task %d %s: text contrast %.2f < 4.5", th, id, CSS(c), r)
			}
			if r := Contrast(c, CellBusy); r < 2.5 {
				t.Errorf("%s: task %d %s: block against cell contrast %.2f", th, id, CSS(c), r)
			}
		}
	}
}

func TestTaskColorsDistinct(t *testing.T) {
	defer SetTheme(ThemeDark)
	for _, th := range []string{ThemeDark, ThemeLight} {
		SetTheme(th)
		taskColorsDistinct(t, th)
	}
}

func taskColorsDistinct(t *testing.T, th string) {
	dist := func(a, b int) int {
		ca, cb := TaskColor(a), TaskColor(b)
		d := func(x, y uint8) int {
			if x > y {
				return int(x - y)
			}
			return int(y - x)
		}
		return d(ca.R, cb.R) + d(ca.G, cb.G) + d(ca.B, cb.B)
	}
	// Neighbouring ids (a client and its server) must not look alike.
	for id := 0; id < 256; id++ {
		for _, o := range []int{1, 2, 3} {
			if d := dist(id, id+o); d < 60 {
				t.Errorf("%s: tasks %d and %d too similar: %s %s", th, id, id+o, CSS(TaskColor(id)), CSS(TaskColor(id+o)))
			}
		}
	}
}

func TestThemeContrast(t *testing.T) {
	pairs := []struct {
		name string
		r    float64
	}{
		{"box label on outer box", Contrast(BoxLabel, boxFill(0))},
		{"box label on inner box", Contrast(BoxLabel, boxFill(4))},
		{"cpu label on busy cell", Contrast(CellLabel, CellBusy)},
		{"idle text on idle cell", Contrast(IdleText, CellIdle)},
	}
	for _, p := range pairs {
		if p.r < 4.5 {
			t.Errorf("%s: contrast %.2f < 4.5", p.name, p.r)
		}
	}
	for c := sim.Cause(1); c < sim.NumCauses; c++ {
		if r := Contrast(CauseColor(c), Background); r < 3 {
			t.Errorf("cause %v colour %s: contrast %.2f on the background", c, CSS(CauseColor(c)), r)
		}
	}
}

func TestCSS(t *testing.T) {
	if got := CSS(Background); got != "#0b0e14" {
		t.Errorf("CSS = %q", got)
	}
}
