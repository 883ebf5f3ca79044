package render

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Measure returns the advance width in pixels of s set at size px. The
// Ebiten front end measures with the real font; tests and the layout's
// first guess use ApproxMeasure.
type Measure func(s string, size float64) float64

// ApproxMeasure estimates the width of s in Go Regular: the average advance
// of digits and lower-case letters is about 0.56 em.
func ApproxMeasure(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * 0.56 * size
}

// fit returns the first candidate that is at most w wide at size, or "".
func fit(m Measure, size, w float64, candidates ...string) string {
	for _, c := range candidates {
		if c != "" && m(c, size) <= w {
			return c
		}
	}
	return ""
}

// fitParts joins parts with " · ", dropping parts from the end until the
// label fits in w; if even the first part does not fit, it is cut and ended
// with "…" (or dropped entirely when nothing fits).
func fitParts(m Measure, size, w float64, parts []string) string {
	for n := len(parts); n > 0; n-- {
		s := strings.Join(parts[:n], " · ")
		if m(s, size) <= w {
			return s
		}
	}
	if len(parts) == 0 {
		return ""
	}
	r := []rune(parts[0])
	for n := len(r) - 1; n > 0; n-- {
		s := string(r[:n]) + "…"
		if m(s, size) <= w {
			return s
		}
	}
	return ""
}

// taskLabels are the candidate labels for a task named "group/idx", longest
// first: "client/12", "cli/12", "c/12", "12".
func taskLabels(name string) []string {
	group, idx, ok := strings.Cut(name, "/")
	if !ok {
		return []string{name, abbrev(name, 4), abbrev(name, 1)}
	}
	if _, err := strconv.Atoi(idx); err != nil {
		return []string{name, idx}
	}
	return []string{name, abbrev(group, 3) + "/" + idx, abbrev(group, 1) + "/" + idx, idx}
}

func abbrev(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
