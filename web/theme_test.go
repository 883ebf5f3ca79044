package web

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"schedplay/frame"
	"schedplay/render"
)

// cssVars reads the custom properties (--name: #rrggbb) of the first rule
// whose selector is sel in a CSS file.
func cssVars(t *testing.T, file, sel string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, sel+" {")
	if i < 0 {
		t.Fatalf("%s: no rule %q", file, sel)
	}
	body := s[i : i+strings.Index(s[i:], "}")]
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})`).FindAllStringSubmatch(body, -1) {
		vars[m[1]] = m[2]
	}
	return vars
}

func relLum(hex string) float64 {
	var c [3]float64
	for i := range c {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		f := float64(v) / 255
		if f <= 0.03928 {
			c[i] = f / 12.92
		} else {
			c[i] = math.Pow((f+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

func contrast(a, b string) float64 {
	la, lb := relLum(a), relLum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// TestThemeCSSContrast computes the WCAG contrast of the page's text
// colours on its backgrounds, in the dark theme (style.css) and the light
// projector theme (present.css): AA, 4.5:1, for every pair.
func TestThemeCSSContrast(t *testing.T) {
	themes := map[string]map[string]string{
		"dark":  cssVars(t, "style.css", ":root"),
		"light": cssVars(t, "present.css", "html.projector"),
	}
	for name, v := range themes {
		for _, fg := range []string{"fg", "muted", "faint", "accent", "changed", "better", "worse", "side-b"} {
			for _, bg := range []string{"bg", "panel", "panel-2"} {
				if v[fg] == "" || v[bg] == "" {
					t.Fatalf("%s: --%s or --%s missing", name, fg, bg)
				}
				c := contrast(v[fg], v[bg])
				t.Logf("%s: --%s %s on --%s %s: %.2f:1", name, fg, v[fg], bg, v[bg], c)
				if c < 4.5 {
					t.Errorf("%s: --%s %s on --%s %s is %.2f:1, under WCAG AA 4.5:1", name, fg, v[fg], bg, v[bg], c)
				}
			}
		}
		if c := contrast(v["error-fg"], v["error-bg"]); c < 4.5 {
			t.Errorf("%s: the error text is %.2f:1 on its background", name, c)
		}
		for _, bg := range []string{"pressed", "changed-bg"} {
			if v[bg] == "" {
				continue // the dark theme's are literals in style.css
			}
			if c := contrast(v["fg"], v[bg]); c < 4.5 {
				t.Errorf("%s: text on --%s is %.2f:1", name, bg, c)
			}
		}
	}
}

// TestVerdictColoursMatchTheCanvas: the page's metrics table colours a
// change B against A in the same green and red as the canvas' A/B table
// beside it (render.Better and render.Worse, of each theme's palette), and
// B's values in B's colour (render.SideB).
func TestVerdictColoursMatchTheCanvas(t *testing.T) {
	defer render.SetTheme(render.ThemeDark)
	for _, c := range []struct{ theme, file, sel string }{
		{render.ThemeDark, "style.css", ":root"},
		{render.ThemeLight, "present.css", "html.projector"},
	} {
		render.SetTheme(c.theme)
		v := cssVars(t, c.file, c.sel)
		for name, want := range map[string]string{"better": render.CSS(render.Better), "worse": render.CSS(render.Worse), "side-b": render.CSS(render.SideB)} {
			if !strings.EqualFold(v[name], want) {
				t.Errorf("%s: --%s is %s, the canvas draws %s", c.file, name, v[name], want)
			}
		}
	}
}

// TestMetricsTableHasEveryMetric: the page's metrics table has a row of
// cells for every metric the page model fills (frame.Metrics: m-, mb- and
// md-ID); a metric added without its row would be computed and never shown.
func TestMetricsTableHasEveryMetric(t *testing.T) {
	html, err := os.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range frame.Metrics {
		for _, pre := range []string{"m-", "mb-", "md-"} {
			if !strings.Contains(string(html), `id="`+pre+m.ID+`"`) {
				t.Errorf("index.html has no #%s%s (%s)", pre, m.ID, m.Name)
			}
		}
	}
}
