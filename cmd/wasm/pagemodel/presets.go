package pagemodel

import "schedplay/scenarios"

// Preset is a preset for the picker.
type Preset struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	Description string `json:"description"`
}

// Presets lists the embedded presets with their one-line summaries (the
// files' "summary", or the description's first sentence).
func Presets() []Preset {
	var out []Preset
	for _, p := range scenarios.Presets() {
		out = append(out, Preset{Name: p.Name, Title: p.Title, Summary: p.Summary, Description: p.Description})
	}
	return out
}
