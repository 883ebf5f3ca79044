package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// TestFields: `schedsim fields` lists every schema path; -json is the
// schema itself.
func TestFields(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"fields"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, f := range scenarios.Fields() {
		if !strings.Contains(out.String(), "\n"+f.Path+" ") {
			t.Errorf("fields does not list %s", f.Path)
		}
	}
	out.Reset()
	if code := run([]string{"fields", "-json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc scenarios.SchemaDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Fields) != len(scenarios.Fields()) || len(doc.Placeholders["<feature>"]) == 0 {
		t.Errorf("fields -json: %d fields, placeholders %v", len(doc.Fields), doc.Placeholders)
	}
	if code := run([]string{"fields", "extra"}, &out, &errb); code != exitBadInput {
		t.Errorf("fields extra: exit %d, want 2", code)
	}
}
