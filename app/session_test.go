package app

import (
	"strings"
	"testing"
	"time"

	"schedplay/frame"
	"schedplay/scenarios"
)

func loaded(t *testing.T) *Session {
	t.Helper()
	s := NewSession()
	if err := s.LoadPreset(scenarios.DefaultPreset, false); err != nil {
		t.Fatal(err)
	}
	return s
}

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func TestTickAdvancesBySpeed(t *testing.T) {
	s := loaded(t)
	s.SetBudget(time.Hour) // no wall-clock cut in this test
	f := s.Tick(t0, 0)
	if f == nil || f.A().Now != 0 || f.A().Topology == nil || len(f.A().Snap.CPUs) != f.A().Topology.NCPU {
		t.Fatalf("first frame: %+v", f)
	}
	// 50 ms of wall time at the default speed (1 ms per s) is 50 us of sim time.
	f = s.Tick(t0.Add(50*time.Millisecond), 50*time.Millisecond)
	if want := int64(float64(50*time.Millisecond) * DefaultSpeed); f.A().Now != want {
		t.Errorf("after 50 ms at %g: sim time %d ns, want %d", DefaultSpeed, f.A().Now, want)
	}
	// A long pause of the page (hidden tab) counts as at most maxFrameDt.
	before := f.A().Now
	f = s.Tick(t0.Add(time.Minute), time.Minute)
	if got, want := f.A().Now-before, int64(float64(maxFrameDt)*DefaultSpeed); got != want {
		t.Errorf("a 1-minute frame advanced %d ns, want the cap %d", got, want)
	}
	if f.Seq != 3 || !f.Playing || f.Title == "" || f.Duration <= 0 {
		t.Errorf("frame: seq %d playing %v title %q duration %d", f.Seq, f.Playing, f.Title, f.Duration)
	}
}

func TestPauseAndStep(t *testing.T) {
	s := loaded(t)
	s.Pause()
	s.Tick(t0, 0)
	if f := s.Tick(t0.Add(time.Second), 100*time.Millisecond); f.A().Now != 0 || f.Playing {
		t.Errorf("paused session advanced to %d (playing %v)", f.A().Now, f.Playing)
	}
	now, err := s.Step(250 * time.Microsecond)
	if err != nil || now != int64(250*time.Microsecond) {
		t.Fatalf("Step(250us) = %d, %v", now, err)
	}
	if f := s.Tick(t0.Add(2*time.Second), 0); f.A().Now != now || f.A().Metrics == nil {
		t.Errorf("frame after a step: now %d metrics %v", f.A().Now, f.A().Metrics != nil)
	}
	for _, d := range []time.Duration{0, -1, MaxStep + 1} {
		if _, err := s.Step(d); err == nil {
			t.Errorf("Step(%v) accepted", d)
		}
	}
	s.Play()
	if !s.Playing() {
		t.Errorf("Play did not resume")
	}
}

func TestStepStopsAtTheEnd(t *testing.T) {
	s := NewSession()
	sc, err := scenarios.Preset(scenarios.DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration", "2ms"); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(sc, false); err != nil {
		t.Fatal(err)
	}
	now, err := s.Step(5 * time.Millisecond)
	if err != nil || now != int64(2*time.Millisecond) {
		t.Fatalf("Step past the end = %d, %v; want the duration", now, err)
	}
	if f := s.Tick(t0, 10*time.Millisecond); f.Playing || f.A().Now != now {
		t.Errorf("at the end: playing %v now %d", f.Playing, f.A().Now)
	}
	// Play at the end restarts the run.
	s.Play()
	if f := s.Tick(t0, 0); f.A().Now != 0 || !f.Playing {
		t.Errorf("Play at the end: now %d playing %v, want a restart", f.A().Now, f.Playing)
	}
}

func TestBudgetBoundsAFrame(t *testing.T) {
	s := loaded(t)
	if err := s.SetSpeed(MaxSpeed); err != nil {
		t.Fatal(err)
	}
	s.SetBudget(time.Nanosecond)
	start := time.Now()
	f := s.Tick(t0, maxFrameDt)
	// One chunk runs before the budget is checked: at most 1/chunks of the target.
	if target := int64(float64(maxFrameDt) * MaxSpeed); f.A().Now > target/chunks {
		t.Errorf("advanced %d ns with an exhausted budget (target %d)", f.A().Now, target)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("a budget-bound frame took %v", el)
	}
}

func TestFramesDoNotShare(t *testing.T) {
	s := loaded(t)
	s.SetSpeed(0.1)
	s.SetBudget(time.Hour)
	var frames []*frame.Frame
	for i := range 20 {
		frames = append(frames, s.Tick(t0.Add(time.Duration(i)*16*time.Millisecond), 16*time.Millisecond))
	}
	// Each frame keeps its own snapshot: later frames do not rewrite it.
	for i := 1; i < len(frames); i++ {
		a, b := frames[i-1].A().Snap, frames[i].A().Snap
		if &a.CPUs[0] == &b.CPUs[0] {
			t.Fatalf("frames %d and %d share a snapshot", i-1, i)
		}
		for c := range a.CPUs {
			if len(a.CPUs[c].Queue) > 0 && len(b.CPUs[c].Queue) > 0 && &a.CPUs[c].Queue[0] == &b.CPUs[c].Queue[0] {
				t.Fatalf("frames %d and %d share cpu%d's queue", i-1, i, c)
			}
		}
		if frames[i].A().Now < frames[i-1].A().Now {
			t.Fatalf("time went back")
		}
	}
	moves := 0
	for _, f := range frames {
		moves += len(f.A().Moves)
		if len(f.A().Moves) > 0 && !strings.Contains(f.A().LastMove, "cpu") {
			t.Errorf("frame with %d moves explains the last as %q", len(f.A().Moves), f.A().LastMove)
		}
		if len(f.A().Moves) == 0 && f.A().LastMove != "" {
			t.Errorf("frame without moves explains %q", f.A().LastMove)
		}
	}
	if moves == 0 {
		t.Errorf("no task moved in 20 frames of the tbench pair")
	}
	t.Logf("20 frames at 0.1x: sim %d ns, %d moves", frames[len(frames)-1].A().Now, moves)
}

func TestLoadErrors(t *testing.T) {
	s := loaded(t)
	good := string(s.Scenario())
	err := s.LoadJSON([]byte(`{"version":1,"title":"x","tasks":[{"name":"a","program":[{"run":"8 ms"}]}]}`))
	if err == nil || !strings.Contains(err.Error(), "tasks[0].program[0].run") {
		t.Fatalf("bad scenario: %v", err)
	}
	if s.Error() != err.Error() {
		t.Errorf("Error() = %q, want %q", s.Error(), err.Error())
	}
	if string(s.Scenario()) != good {
		t.Errorf("a rejected scenario replaced the loaded one")
	}
	if err := s.LoadLink("#s=!!!"); err == nil || !strings.HasPrefix(err.Error(), "share link: ") {
		t.Errorf("bad link: %v", err)
	}
	if err := s.LoadJSON(make([]byte, scenarios.MaxScenarioBytes+1)); err == nil {
		t.Errorf("oversized scenario accepted")
	}
	if err := s.SetSpeed(0); err == nil {
		t.Errorf("speed 0 accepted")
	}
	if err := s.LoadPreset("no-such-preset", true); err == nil {
		t.Errorf("unknown preset accepted")
	}
	// A successful load clears the error.
	if err := s.LoadJSON([]byte(good)); err != nil || s.Error() != "" {
		t.Errorf("reloading the good scenario: %v, Error() = %q", err, s.Error())
	}
}

func TestLinkFollowsUserChanges(t *testing.T) {
	s := loaded(t)
	if f := s.Tick(t0, 0); f.Link != "" {
		t.Errorf("a scenario loaded from the default carries a link to write: %q", f.Link)
	}
	rev := s.Tick(t0, 0).Rev
	if err := s.Set("seed", "7"); err != nil {
		t.Fatal(err)
	}
	f := s.Tick(t0, 0)
	if f.Rev == rev || f.Link == "" || f.Link != s.Link() {
		t.Fatalf("after set: rev %d->%d link %q", rev, f.Rev, f.Link)
	}
	sc, err := scenarios.DecodeLink(f.Link)
	if err != nil || sc.Seed != 7 {
		t.Fatalf("the frame's link decodes to %v, %v", sc, err)
	}
	if string(sc.Canonical()) != string(s.Scenario()) {
		t.Errorf("link and scenario differ")
	}
	if err := s.Set("policy.select_idle_sibling", "no_such_variant"); err == nil {
		t.Errorf("a bad set was accepted")
	}
	if string(s.Scenario()) != string(sc.Canonical()) {
		t.Errorf("a rejected set changed the scenario")
	}
}

// The front end must not change the run: the same scenario played with
// different frame timings ends in the same trace.
func TestFrameTimingDoesNotChangeTheRun(t *testing.T) {
	run := func(dt time.Duration) string {
		s := NewSession()
		sc, _ := scenarios.Preset(scenarios.DefaultPreset)
		if err := sc.Set("duration", "3ms"); err != nil {
			t.Fatal(err)
		}
		if err := s.Load(sc, false); err != nil {
			t.Fatal(err)
		}
		s.SetSpeed(0.01)
		s.SetBudget(time.Hour)
		for i := 0; s.Playing(); i++ {
			s.Tick(t0.Add(time.Duration(i)*dt), dt)
		}
		m, _ := s.Metrics()
		if m.SimMS != 3 {
			t.Errorf("run ended at %v ms, want 3", m.SimMS)
		}
		return m.TraceHash
	}
	a, b := run(16*time.Millisecond), run(7*time.Millisecond)
	if a != b || a == "" {
		t.Errorf("trace hashes differ with the frame rate: %q vs %q", a, b)
	}
}

func TestMeter(t *testing.T) {
	var m Meter
	for i := 0; i <= 60; i++ {
		m.Frame(t0.Add(time.Duration(i)*time.Second/60), time.Second/60, 1000, 2*time.Millisecond)
	}
	st := m.Stats()
	if st.FPS < 59 || st.FPS > 62 {
		t.Errorf("fps %v, want ~60", st.FPS)
	}
	if st.FrameMS < 1.9 || st.FrameMS > 2.1 {
		t.Errorf("frame_ms %v, want 2", st.FrameMS)
	}
	if want := 1000 / (float64(time.Second) / 60); st.SimRTF < want*0.99 || st.SimRTF > want*1.01 {
		t.Errorf("sim_rtf %v, want %v", st.SimRTF, want)
	}
}

func TestHub(t *testing.T) {
	h := NewHub()
	a, b := h.Listen(1), h.Listen(4)
	for i := range 3 {
		h.Publish(&frame.Frame{Seq: uint64(i + 1)})
	}
	h.Publish(nil) // ignored
	// a was full after the first frame: Publish did not block, a kept frame 1.
	if f := <-a.Ch(); f.Seq != 1 {
		t.Errorf("listener a got %d", f.Seq)
	}
	select {
	case f := <-a.Ch():
		t.Errorf("listener a got a second frame %d", f.Seq)
	default:
	}
	for want := uint64(1); want <= 3; want++ {
		if f := <-b.Ch(); f.Seq != want {
			t.Errorf("listener b got %d, want %d", f.Seq, want)
		}
	}
}
