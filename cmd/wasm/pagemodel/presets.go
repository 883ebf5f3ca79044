package pagemodel

import (
	"strings"
	"unicode/utf8"

	"schedplay/scenarios"
)

// summaries say in one line what each preset shows, for the page's
// scenario picker (a preset's own description is a paragraph with the
// sources and the measured numbers). A preset without a line here gets the
// first sentence of its description.
var summaries = map[string]string{
	"aim9-burst":         "512 tasks forked with no load history: 3.8 balancing on runnable_load_avg piles them onto a few CPUs while the rest idle.",
	"eligible-migration": "EEVDF: refusing to migrate ineligible tasks first (ELIGIBLE_FIRST) trades wasted moves for failed balance passes.",
	"overload-on-wakeup": "Sync wake-ups keep pulling workers into node 0 while node 1 idles (a Decade of Wasted Cores).",
	"pelt-pingpong":      "One 80% and two 40% tasks on two CPUs: the balancer ping-pongs tasks that are already balanced.",
	"pgbench-1toN":       "One server answers N clients: the wake-up search cost grows with load; the schedule balance map trims it.",
	"tbench-pairs":       "A client/server pair hops from core to core on every sync wake-up, paying cache refills and C-state exits.",
}

// Preset is a preset for the picker.
type Preset struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	Description string `json:"description"`
}

// Presets lists the embedded presets with their one-line summaries.
func Presets() []Preset {
	var out []Preset
	for _, p := range scenarios.Presets() {
		s := summaries[p.Name]
		if s == "" {
			s = FirstSentence(p.Description, 160)
		}
		out = append(out, Preset{Name: p.Name, Title: p.Title, Summary: s, Description: p.Description})
	}
	return out
}

// FirstSentence is text up to the first ". " (or the end), cut to at most
// max characters with an ellipsis.
func FirstSentence(text string, max int) string {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, ". "); i >= 0 {
		text = text[:i+1]
	}
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	r := []rune(text)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
