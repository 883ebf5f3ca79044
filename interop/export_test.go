package interop

import (
	"bytes"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// TestExport: every row of Formats writes through Export what its own
// writer writes; an unknown format is refused with the list.
func TestExport(t *testing.T) {
	sc, err := scenarios.Preset("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration", "20ms"); err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats {
		var a, b bytes.Buffer
		s1, _ := sim.New(cfg)
		s2, _ := sim.New(cfg)
		opt := Options{Interval: DefaultInterval}
		if _, err := Export(&a, Source{sc, s1}, f.Name, opt); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if _, err := f.Write(&b, Source{sc, s2}, opt); err != nil {
			t.Fatal(err)
		}
		if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) || f.Ext == "" || f.MIME == "" || f.Doc == "" {
			t.Errorf("%s: %d bytes, the same as its writer: %v", f.Name, a.Len(), bytes.Equal(a.Bytes(), b.Bytes()))
		}
	}
	// schedstat without an interval is one snapshot at the end.
	var once bytes.Buffer
	s, _ := sim.New(cfg)
	if _, err := Export(&once, Source{sc, s}, "schedstat", Options{}); err != nil || s.Now() != cfg.Duration {
		t.Errorf("schedstat once: %v, ran to %d", err, s.Now())
	}
	if _, err := Export(&once, Source{sc, s}, "pdf", Options{}); err == nil || !strings.Contains(err.Error(), "perfetto, schedstat, csv") {
		t.Errorf("unknown format: %v", err)
	}
	// A format that runs needs a simulator; one that does not, only the scenario.
	if _, err := Export(&once, Source{Scenario: sc}, "csv", Options{}); err == nil {
		t.Error("csv without a simulator")
	}
	var rt bytes.Buffer
	if _, err := Export(&rt, Source{Scenario: sc}, FormatRTApp, Options{}); err != nil || rt.Len() == 0 {
		t.Errorf("rtapp: %v, %d bytes", err, rt.Len())
	}
}
