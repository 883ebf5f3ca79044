package scenarios

import (
	"reflect"
	"strings"
	"testing"
)

func TestViewLink(t *testing.T) {
	s, err := Preset("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	v := View{Speed: 0.01, Compare: []string{"policy.select_idle_sibling=off"}, AB: true, Talk: true}
	link := EncodeLinkView(s, v)
	if !strings.HasPrefix(link, EncodeLink(s)+"&v=") {
		t.Fatalf("link %q does not extend the scenario's", link)
	}
	got, err := DecodeLink("https://example.org/#" + link)
	if err != nil || string(got.Canonical()) != string(s.Canonical()) {
		t.Fatalf("DecodeLink: %v", err)
	}
	gv, ok, err := LinkView("https://example.org/#" + link)
	if err != nil || !ok || !reflect.DeepEqual(gv, v) {
		t.Fatalf("LinkView = %+v, %v, %v; want %+v", gv, ok, err, v)
	}
	// An old link has no view.
	if _, ok, err := LinkView(EncodeLink(s)); ok || err != nil {
		t.Errorf("old link: ok %v, err %v", ok, err)
	}
	if EncodeLinkView(s, View{}) != EncodeLink(s) {
		t.Error("a zero view adds to the link")
	}
}

func TestViewErrors(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"speed":100}`, "view.speed: 100 is out of range"},
		{`{"speed":"fast"}`, "view.speed: must be a number"},
		{`{"colour":"red"}`, "view.colour: unknown field"},
		{`{"ab":true}`, "view.ab: A/B needs compare sets"},
		{`{"compare":["nothing"]}`, `view.compare[0]: "nothing" is not path=value`},
	} {
		_, err := DecodeView(pack([]byte(tc.json)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
	if _, _, err := LinkView("s=abc&v=%%%"); err == nil {
		t.Error("a bad v= part is accepted")
	}
}

// TestViewNotCanonical: summary and view change neither the canonical JSON
// nor the run.
func TestViewNotCanonical(t *testing.T) {
	s, _ := Preset("tbench-pairs")
	c := s.Clone()
	c.Summary, c.View = "", View{}
	if string(s.Canonical()) != string(c.Canonical()) {
		t.Error("summary or view are in the canonical JSON")
	}
	if strings.Contains(string(s.Canonical()), `"view"`) {
		t.Error("canonical JSON has a view")
	}
}
