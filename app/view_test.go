package app

import (
	"slices"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// TestViewLink: a link with a view plays the scenario in that view; an old
// link (no v) leaves the view alone but for the scenario's own speed
// (SpeedFor); a bad v still plays the scenario.
func TestViewLink(t *testing.T) {
	sc, err := scenarios.Preset("pelt-pingpong")
	if err != nil {
		t.Fatal(err)
	}
	v := scenarios.View{Speed: 0.01, Compare: []string{"policy.select_idle_sibling=off"}, AB: true, Talk: true}
	s := NewSession()
	if err := s.LoadLink("#" + scenarios.EncodeLinkView(sc, v)); err != nil {
		t.Fatal(err)
	}
	if s.Speed() != 0.01 || !s.Talk() || !slices.Equal(s.Compare(), v.Compare) {
		t.Errorf("view not applied: speed %v talk %v compare %v", s.Speed(), s.Talk(), s.Compare())
	}
	if got := s.View(); !slices.Equal(got.Compare, v.Compare) || !got.AB || got.Speed != 0.01 || !got.Talk {
		t.Errorf("View() = %+v", got)
	}
	if got := s.ViewLink(); got != scenarios.EncodeLinkView(sc, v) {
		t.Errorf("ViewLink() = %q", got)
	}
	if f := s.Tick(t0, 0); f.B() == nil {
		t.Error("A/B is not on")
	}

	old := NewSession()
	if err := old.LoadLink("#" + scenarios.EncodeLink(sc)); err != nil {
		t.Fatal(err)
	}
	if old.Speed() != SpeedFor(sc) || old.Talk() || old.Compare() != nil || old.Error() != "" {
		t.Errorf("an old link changed the view: %+v, error %q", old.View(), old.Error())
	}

	bad := NewSession()
	if err := bad.LoadLink("#" + scenarios.EncodeLink(sc) + "&v=!!!"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bad.Error(), "share link: view:") || scenarios.PresetOf(mustScenario(t, bad)) != "pelt-pingpong" {
		t.Errorf("bad view: error %q", bad.Error())
	}
}

func mustScenario(t *testing.T, s *Session) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Decode(s.Scenario())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
