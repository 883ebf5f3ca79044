package app

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

var threeChapters = []scenarios.Chapter{
	{Caption: "one: 10 ms in", Seek: "10ms"},
	{Caption: "two: the 3rd wake-up migration of client/0", At: scenarios.Anchor{Event: "migrate", Cause: "wakeup", Task: "client/0", Nth: 3}},
	{Caption: "three: buddies, A/B", Set: []string{"policy.select_idle_sibling=cpu_buddies"}, Compare: []string{"policy.features.WAKE_AFFINE=false"},
		Seek: "20ms", Speed: 0.002, PauseOnMove: true},
}

// anchorTime is the time of the nth event of kind (and cause) of task in a
// fresh run of sc.
func anchorTime(t *testing.T, sc *scenarios.Scenario, kind sim.EventKind, cause sim.Cause, task string, nth int) int64 {
	t.Helper()
	cfg, _ := sc.Config()
	s, _ := sim.New(cfg)
	s.SetRecording(true)
	var evs []sim.Event
	for s.Step() {
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			if e.Kind == kind && e.Cause == cause && s.TaskName(int(e.Task)) == task {
				if nth--; nth == 0 {
					return e.T
				}
			}
		}
	}
	t.Fatal("no such event")
	return 0
}

func TestChapters(t *testing.T) {
	s := loaded(t)
	s.SetChapters(threeChapters)
	if n, err := s.StepChapter(+1); err != nil || n != 1 {
		t.Fatalf("first chapter: %d, %v", n, err)
	}
	m, _ := s.Metrics()
	sameMetrics(t, "chapter 1", m, freshMetrics(t, "tbench-pairs", 10*time.Millisecond))
	if ci := s.Chapters(); ci.Current != 1 || ci.Caption != threeChapters[0].Caption || len(ci.Captions) != 3 {
		t.Errorf("chapters: %+v", ci)
	}
	// Two: the time is the anchor's.
	if n, err := s.StepChapter(+1); err != nil || n != 2 {
		t.Fatalf("second chapter: %d, %v", n, err)
	}
	sc, _ := scenarios.Preset("tbench-pairs")
	want := anchorTime(t, sc, sim.EvMigrate, sim.CauseWakeup, "client/0", 3)
	if ti, _ := s.Timeline(); int64(ti.NowMS*1e6+0.5) != want {
		t.Errorf("chapter 2 at %v ms, the anchor at %d ns", ti.NowMS, want)
	}
	if ci := s.Chapters(); !strings.Contains(ci.Does, "the 3rd wakeup migrate of client/0") {
		t.Errorf("chapter 2 does: %q", ci.Does)
	}
	// Three: the policy changes, A/B on, speed, pause armed.
	if _, err := s.StepChapter(+1); err != nil {
		t.Fatal(err)
	}
	buddies := sc.Clone()
	buddies.Set("policy.select_idle_sibling", "cpu_buddies")
	if got, _ := scenarios.Decode(s.Scenario()); string(got.Canonical()) != string(buddies.Canonical()) {
		t.Errorf("chapter 3 plays %s", s.Scenario())
	}
	if !reflect.DeepEqual(s.Compare(), threeChapters[2].Compare) || s.Speed() != 0.002 || !s.PauseOnMove() {
		t.Errorf("chapter 3: compare %v speed %v pause %v", s.Compare(), s.Speed(), s.PauseOnMove())
	}
	if n, _ := s.StepChapter(+1); n != 3 {
		t.Errorf("past the last chapter: %d", n)
	}
	// Back to two: A/B off, the link's policy again.
	if n, err := s.StepChapter(-1); err != nil || n != 2 || s.Compare() != nil {
		t.Errorf("back to chapter 2: %d, %v, compare %v", n, err, s.Compare())
	}
	if got, _ := scenarios.Decode(s.Scenario()); string(got.Canonical()) != string(sc.Canonical()) {
		t.Errorf("back to chapter 2 plays %s", s.Scenario())
	}
	// The link carries the script, the chapter and the time.
	link := s.ViewLink()
	s2 := NewSession()
	if err := s2.LoadLink("#" + link); err != nil {
		t.Fatal(err)
	}
	if ci := s2.Chapters(); ci.Current != 2 || len(ci.Captions) != 3 {
		t.Errorf("from the link: %+v", ci)
	}
	m1, _ := s.Metrics()
	m2, _ := s2.Metrics()
	if m1.TraceHash != m2.TraceHash || m1.SimMS != m2.SimMS {
		t.Errorf("from the link: %v ms %s, the page had %v ms %s", m2.SimMS, m2.TraceHash, m1.SimMS, m1.TraceHash)
	}
}

// The editor records the current state as a chapter: the sets made since
// the base, A/B, the time.
func TestRecordChapter(t *testing.T) {
	s := loaded(t)
	if err := s.Set("policy.select_idle_sibling", "cpu_buddies"); err != nil {
		t.Fatal(err)
	}
	s.Pause()
	if _, err := s.Seek(12.5); err != nil {
		t.Fatal(err)
	}
	before := len(s.Chapters().Captions) // the preset's own
	n, err := s.RecordChapter("buddies at 12.5 ms")
	if err != nil || n != before+1 {
		t.Fatalf("record: %d, %v (the preset has %d)", n, err, before)
	}
	v := s.View()
	c := v.Chapters[n-1]
	if !reflect.DeepEqual(c.Set, []string{"policy.select_idle_sibling=cpu_buddies"}) || c.Seek != "12500us" || v.Chapter != n {
		t.Errorf("recorded %+v (chapter %d)", c, v.Chapter)
	}
	// Played back on a fresh session: the same state.
	s2 := NewSession()
	if err := s2.LoadLink("#" + s.ViewLink()); err != nil {
		t.Fatal(err)
	}
	m1, _ := s.Metrics()
	m2, _ := s2.Metrics()
	if m1.TraceHash != m2.TraceHash {
		t.Errorf("recorded chapter replays to %s, recorded at %s", m2.TraceHash, m1.TraceHash)
	}
	if _, err := s.RecordChapter(" "); err == nil {
		t.Error("a chapter without a caption was recorded")
	}
}

// Every preset has at least three chapters, and each applies: its sets and
// compare sets fit, its anchor event happens, its time is reached.
func TestPresetChapters(t *testing.T) {
	for _, p := range scenarios.Presets() {
		s := NewSession()
		if err := s.LoadPreset(p.Name, false); err != nil {
			t.Fatal(err)
		}
		ci := s.Chapters()
		if len(ci.Captions) < 3 {
			t.Errorf("%s: %d chapters", p.Name, len(ci.Captions))
		}
		for i := range ci.Captions {
			start := time.Now()
			if err := s.GoChapter(i + 1); err != nil {
				t.Errorf("%s: chapter %d: %v", p.Name, i+1, err)
				continue
			}
			if e := s.Error(); e != "" {
				t.Errorf("%s: chapter %d: %s", p.Name, i+1, e)
			}
			ti, _ := s.Timeline()
			t.Logf("%s: chapter %d at %.3f ms (%v): %s", p.Name, i+1, ti.NowMS, time.Since(start).Round(time.Millisecond), s.Chapters().Does)
		}
	}
}
