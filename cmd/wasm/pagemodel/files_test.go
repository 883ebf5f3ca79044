package pagemodel

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"schedplay/interop"
	"schedplay/scenarios"
)

func TestSniff(t *testing.T) {
	lscpu, err := os.ReadFile("../../../interop/testdata/lscpu-laptop.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, name, want string }{
		{`{"version":1,"tasks":[]}`, "", KindScenario},
		{`{"tasks":[{"name":"a"}]}`, "", KindScenario},
		{`{"global":{},"tasks":{"a":{}}}`, "", KindRTApp},
		{`{"tasks":{"a":{"run":1000}}}`, "", KindRTApp},
		{"/* rt-app */ {\"tasks\": {\"a\": {},},}", "", KindRTApp},
		{"\uFEFF{\"version\":1}", "", KindScenario},
		{string(lscpu), "", KindLscpu},
		{"0,0,0,0,,0,0,0,0\n", "", KindLscpu},
		{"hello", "x.json", KindScenario},
		{"hello", "x.txt", ""},
	} {
		if got := Sniff(c.text, c.name); got != c.want {
			t.Errorf("Sniff(%.30q, %q) = %q, want %q", c.text, c.name, got, c.want)
		}
	}
}

func TestFileSlug(t *testing.T) {
	for in, want := range map[string]string{
		"One tbench pair walking across a 4-socket Westmere": "one-tbench-pair-walking-across-a-4", // cut between words
		"PELT in the balancer: one 80% task":                 "pelt-in-the-balancer-one-80-task",
		"":                                                   "scenario",
		"!!!":                                                "scenario",
		strings.Repeat("x", 60):                              strings.Repeat("x", 40),
	} {
		if got := FileSlug(in); got != want {
			t.Errorf("FileSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExportFile(t *testing.T) {
	for _, f := range interop.Formats {
		name, mime, err := ExportFile("PELT pingpong", f.Name)
		if err != nil || name != "pelt-pingpong"+f.Ext || mime != f.MIME {
			t.Errorf("%s: %q %q %v", f.Name, name, mime, err)
		}
	}
	if _, _, err := ExportFile("x", "pdf"); err == nil || !strings.Contains(err.Error(), `export("pdf"): the formats are perfetto`) {
		t.Errorf("unknown format: %v", err)
	}
}

func TestImport(t *testing.T) {
	cur, err := scenarios.Preset("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	// A scenario loads as it is.
	other, _ := scenarios.Preset("tbench-pairs")
	im, err := Import(cur, string(other.Canonical()), "t.json", "")
	if err != nil || im.Kind != KindScenario || scenarios.PresetOf(im.Scenario) != "tbench-pairs" {
		t.Fatalf("scenario import: %+v %v", im, err)
	}
	// rt-app runs on the current machine, titled by the file.
	im, err = Import(cur, `{"tasks":{"thread0":{"loop":-1,"run":1000,"sleep":9000}},"global":{"duration":2}}`, "dir/w.json", "")
	if err != nil || im.Kind != KindRTApp || im.Scenario.Title != "rt-app: w.json" || im.Scenario.Machine.CoresPerCluster != cur.Machine.CoresPerCluster {
		t.Fatalf("rt-app import: %+v %v", im, err)
	}
	// rt-app keeps the policy too, and says what it kept (issue 20, 7:
	// v3.8 + v3.6 + SD_BALANCE_WAKE became a bare v6.17).
	tb, _ := scenarios.Preset("tbench-pairs")
	tb.Set("policy.sd_flags.MC.SD_BALANCE_WAKE", "true")
	im, err = Import(tb, `{"tasks":{"thread0":{"loop":-1,"run":1000,"sleep":9000}},"global":{"duration":2}}`, "w.json", "")
	if err != nil || !reflect.DeepEqual(im.Scenario.Policy, tb.Policy) {
		t.Fatalf("rt-app import kept policy %+v, want %+v (%v)", im.Scenario.Policy, tb.Policy, err)
	}
	said := fmt.Sprint(im.Notes)
	if !strings.Contains(said, "policy: kept the current scenario's (v3.8, 2 settings changed)") || !strings.Contains(said, "machine: kept") {
		t.Errorf("rt-app import notes %s", said)
	}
	// lscpu replaces the machine, keeps the tasks.
	lscpu, _ := os.ReadFile("../../../interop/testdata/lscpu-laptop.txt")
	im, err = Import(cur, string(lscpu), "", "")
	if err != nil || im.Kind != KindLscpu || len(im.Scenario.Tasks) != len(cur.Tasks) || im.Scenario.Machine.CoresPerCluster == cur.Machine.CoresPerCluster && im.Scenario.Machine.ThreadsPerCore == cur.Machine.ThreadsPerCore {
		t.Fatalf("lscpu import: %+v %v", im, err)
	}
	// Bad input says why, by kind.
	if _, err := Import(cur, "hello", "x.txt", ""); err == nil || !strings.Contains(err.Error(), "not a scenario JSON") {
		t.Errorf("unknown text: %v", err)
	}
	if im, err := Import(cur, `{"version":1}`, "", ""); err == nil || im.Kind != KindScenario {
		t.Errorf("bad scenario: %+v %v", im, err)
	}
}
