package pagemodel

import (
	"testing"

	"schedplay/scenarios"
)

// A blank scenario keeps the machine and policy it was made from, is valid,
// and is no preset.
func TestBlank(t *testing.T) {
	for _, p := range scenarios.Presets() {
		cur, err := scenarios.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Blank(cur)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if len(b.Tasks) != 1 || b.Title != BlankTitle || scenarios.PresetOf(b) != "" {
			t.Errorf("%s: blank %+v", p.Name, b.Tasks)
		}
		if b.Machine.Nodes != cur.Machine.Nodes || b.Policy.Base != cur.Policy.Base {
			t.Errorf("%s: the machine or policy was not kept", p.Name)
		}
		if _, err := b.Config(); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}
