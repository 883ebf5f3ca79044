package app

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// Undo and redo walk every kind of user change; a change that replaces
// the scenario (a preset) asks for a history entry of its own, an edit
// does not; a link-less load is not undoable.
func TestUndoRedo(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	if s.CanUndo() {
		t.Fatal("the first scenario can be undone")
	}
	orig := string(s.Scenario())
	if err := s.Set("seed", "7"); err != nil {
		t.Fatal(err)
	}
	f := s.Tick(t0, 0)
	if f.LinkSeq == 0 || f.LinkPush || f.LinkWrite != s.Link() {
		t.Errorf("an edit: seq %d push %v", f.LinkSeq, f.LinkPush)
	}
	edited := string(s.Scenario())
	if err := s.LoadPreset("pelt-pingpong", true); err != nil {
		t.Fatal(err)
	}
	f = s.Tick(t0, 0)
	if !f.LinkPush || f.LinkPrev == "" {
		t.Errorf("a preset: push %v prev %q", f.LinkPush, f.LinkPrev)
	}
	if sc, err := scenarios.DecodeLink(f.LinkPrev); err != nil || string(sc.Canonical()) != edited {
		t.Errorf("a preset's LinkPrev is not the edited scenario: %v", err)
	}
	if err := s.Undo(); err != nil || string(s.Scenario()) != edited || s.Preset() != "tbench-pairs" {
		t.Fatalf("undo the preset: %v, preset %q", err, s.Preset())
	}
	if f := s.Tick(t0, 0); f.LinkPush || f.LinkWrite != s.Link() {
		t.Errorf("undo writes the link in place: push %v", f.LinkPush)
	}
	if err := s.Undo(); err != nil || string(s.Scenario()) != orig {
		t.Fatalf("undo the edit: %v", err)
	}
	if err := s.Undo(); err == nil || s.CanUndo() {
		t.Errorf("undo past the start: %v", err)
	}
	if err := s.Redo(); err != nil || string(s.Scenario()) != edited {
		t.Fatalf("redo: %v", err)
	}
	// A new change drops what could be redone.
	if err := s.Set("seed", "9"); err != nil {
		t.Fatal(err)
	}
	if s.CanRedo() {
		t.Error("redo after a new change")
	}
	// A change that changes nothing is no undo step.
	n := len(s.undo)
	s.Set("seed", "9")
	if len(s.undo) != n {
		t.Error("setting a field to its value made an undo step")
	}
}

// An edit just before a restart (or an A/B switch, which restarts) still
// reaches the address bar: the link to write does not depend on the
// revision (issue 20, 6).
func TestLinkSurvivesRestart(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("seed", "5"); err != nil {
		t.Fatal(err)
	}
	want := s.Link()
	sc, _ := scenarios.Decode(s.Scenario())
	if err := s.Load(sc, false); err != nil { // the page's Restart
		t.Fatal(err)
	}
	if err := s.SetCompare([]string{"policy.features.WAKE_AFFINE=false"}); err != nil {
		t.Fatal(err)
	}
	if f := s.Tick(t0, 0); f.LinkSeq == 0 || f.LinkWrite != want {
		t.Errorf("after a restart and an A/B switch the frame's link to write is %q (seq %d), want the edit's", f.LinkWrite, f.LinkSeq)
	}
}

// bigScenario is a valid scenario under 256 KiB whose share link is over
// 64 KiB: 36 groups of four repeat blocks of 62 run steps with random
// nanosecond durations (about 40 bits each that DEFLATE cannot remove).
func bigScenario(t *testing.T) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	type step map[string]any
	var tasks []map[string]any
	for i := range 36 {
		var prog []step
		for range 4 {
			var body []step
			for range 62 {
				body = append(body, step{"run": fmt.Sprintf("%dns", 1+r.Int64N(int64(scenarios.MaxDuration)-1))})
			}
			prog = append(prog, step{"repeat": 1 + r.IntN(1000), "program": body})
		}
		tasks = append(tasks, map[string]any{"name": fmt.Sprintf("g%d", i), "count": 1, "program": prog})
	}
	b, err := json.Marshal(map[string]any{"version": 2, "title": "big", "seed": 1, "duration": "10ms", "tasks": tasks})
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > scenarios.MaxScenarioBytes {
		t.Fatalf("the big scenario is %d bytes", len(b))
	}
	return b
}

// A scenario whose link would be over 64 KiB plays, but its link is not
// written to the address bar (a reload would refuse it) and the error says
// so when the link is made (issue 20, 6).
func TestLinkLimitWhenMade(t *testing.T) {
	data := bigScenario(t)
	sc, err := scenarios.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(scenarios.EncodeLink(sc)); n <= scenarios.MaxLinkBytes {
		t.Fatalf("the big scenario's link is only %d bytes", n)
	}
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("seed", "4"); err != nil {
		t.Fatal(err)
	}
	fits := s.Link()
	if err := s.LoadJSON(data); err != nil {
		t.Fatalf("the big scenario was refused: %v", err)
	}
	if e := s.Error(); !strings.Contains(e, "64 KiB") || !strings.Contains(e, "Export") {
		t.Errorf("error %q does not say the link is too long", e)
	}
	if f := s.Tick(t0, 0); f.LinkWrite != fits {
		t.Errorf("the too-long link was handed to the address bar")
	}
	if s.ShareLink(true) != "" {
		t.Errorf("ShareLink gave a link over the limit")
	}
}

// A preset loaded after the run ended plays; after the user paused it
// stays paused; the view carries the pause.
func TestPresetPlaysUnlessPaused(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.playing = false // the run ended
	s.mu.Unlock()
	if err := s.LoadPreset("pelt-pingpong", true); err != nil {
		t.Fatal(err)
	}
	if !s.Playing() {
		t.Error("a preset loaded after the run ended does not play")
	}
	if s.Speed() != SpeedFor(mustScenario(t, s)) {
		t.Errorf("speed %g, want the preset's %g", s.Speed(), SpeedFor(mustScenario(t, s)))
	}
	s.Pause()
	if !s.View().Paused {
		t.Error("the view does not say paused")
	}
	if err := s.LoadPreset("tbench-pairs", true); err != nil {
		t.Fatal(err)
	}
	if s.Playing() {
		t.Error("the user paused, yet the next preset plays")
	}
	link := s.ShareLink(true)
	o := NewSession()
	if err := o.LoadLink(link); err != nil {
		t.Fatal(err)
	}
	if o.Playing() || !o.View().Paused {
		t.Error("a paused link opens playing")
	}
}

// An edited preset is marked "(edited)" (issue 20, 7: "4-socket Westmere"
// stayed on a 2-socket machine and went into the link); a title of the
// user's own is kept; set back, the preset's title returns.
func TestEditedMark(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	title := mustScenario(t, s).Title
	if err := s.Set("machine.nodes", "2"); err != nil {
		t.Fatal(err)
	}
	if got := mustScenario(t, s).Title; got != title+EditedMark {
		t.Errorf("edited preset's title %q", got)
	}
	if sc, _ := scenarios.DecodeLink(s.Link()); sc.Title != title+EditedMark {
		t.Errorf("the link carries %q", sc.Title)
	}
	if err := s.Set("machine.nodes", "4"); err != nil {
		t.Fatal(err)
	}
	if got := mustScenario(t, s).Title; got != title || s.Preset() != "tbench-pairs" {
		t.Errorf("set back: title %q preset %q", got, s.Preset())
	}
	if err := s.Set("title", "My pairs"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("machine.nodes", "2"); err != nil {
		t.Fatal(err)
	}
	if got := mustScenario(t, s).Title; got != "My pairs" {
		t.Errorf("the user's title became %q", got)
	}
}
