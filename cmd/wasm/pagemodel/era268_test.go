package pagemodel

import (
	"testing"

	"schedplay/scenarios"
)

// TestDescribe268: the page model of a v2.6.8 scenario: every value it
// reports by path is one Set takes on that base.
func TestDescribe268(t *testing.T) {
	sc, err := scenarios.Preset("sdet-numaq")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"policy.base", "v2.6.8"}, {"policy.cpu_scheduler", "staircase"}} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Describe(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, vals := range []map[string]string{m.Values, m.BaseValues, m.Defaults} {
		for path, v := range vals {
			c := sc.Clone()
			if err := c.Set(path, v); err != nil {
				t.Errorf("%s=%s: %v", path, v, err)
			}
		}
	}
}
