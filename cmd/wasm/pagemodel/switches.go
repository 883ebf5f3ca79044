package pagemodel

import (
	"strings"

	"schedplay/sim"
)

// SwitchLine is the metrics panel's line about the switches this scenario
// sets that its run never consulted (sim.Metrics.Switches, the notes with
// Set), each with why; empty when every switch it sets was read.
func SwitchLine(m *sim.Metrics) string {
	var parts []string
	for _, n := range m.Switches.NotConsulted {
		if n.Set {
			parts = append(parts, strings.TrimPrefix(n.Switch, "policy.")+": "+n.Why)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not consulted in this run: " + strings.Join(parts, "; ") + "."
}
