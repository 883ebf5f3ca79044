package interop

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

// TestExportsWithForks: the exporters follow a run whose fork steps add
// task slots as it goes (sdet-numaq): no index past the initial task list,
// and the forked commands appear by name.
func TestExportsWithForks(t *testing.T) {
	mk := func() *sim.Sim {
		s, err := scenarios.Preset("sdet-numaq")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set("duration", "60ms"); err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Config()
		if err != nil {
			t.Fatal(err)
		}
		x, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	var pf bytes.Buffer
	x := mk()
	if err := WritePerfetto(&pf, x, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct{ TraceEvents []map[string]any }
	if err := json.Unmarshal(pf.Bytes(), &doc); err != nil {
		t.Fatalf("perfetto JSON: %v", err)
	}
	if !strings.Contains(pf.String(), `"cmd/`) || !strings.Contains(pf.String(), "migrate:exec") {
		t.Errorf("perfetto export lacks the forked commands or their exec migrations")
	}
	var pb bytes.Buffer
	x = mk()
	if err := WritePerfettoProto(&pb, x, Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(pb.Bytes(), []byte("cmd/")) {
		t.Errorf("perfetto-proto export lacks the forked commands")
	}
	var csv bytes.Buffer
	x = mk()
	if err := WriteCSV(&csv, x, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), "task,cmd/") || !strings.Contains(csv.String(), ",state,exited") {
		t.Errorf("csv export lacks the forked commands or their exits")
	}
}
