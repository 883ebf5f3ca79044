package app

import "testing"

func TestKeyCommand(t *testing.T) {
	for key, want := range map[string]Command{
		" ": CmdTogglePlay, "ArrowRight": CmdStep, "+": CmdFaster, "=": CmdFaster, "-": CmdSlower,
		"a": CmdToggleAB, "A": CmdToggleAB, "n": CmdNextPreset, "t": CmdToggleTalk, "T": CmdToggleTalk,
		"f": CmdFullscreen, "p": CmdTogglePause, "x": CmdNone, "Enter": CmdNone, "ArrowLeft": CmdStepBack,
		"[": CmdPrevMigration, "]": CmdNextMigration, "PageDown": CmdNextChapter, "PageUp": CmdPrevChapter, "l": CmdToggleTheme,
	} {
		if got := KeyCommand(key); got != want {
			t.Errorf("KeyCommand(%q) = %d, want %d", key, got, want)
		}
	}
}

func TestSpeedSteps(t *testing.T) {
	x := DefaultSpeed
	var up []float64
	for range 4 {
		x = SpeedUp(x)
		up = append(up, x)
	}
	want := []float64{0.002, 0.005, 0.01, 0.02}
	for i := range want {
		if up[i] != want[i] {
			t.Fatalf("speeds up from 1 ms/s: %v, want %v", up, want)
		}
	}
	if got := SpeedDown(DefaultSpeed); got != 0.0005 {
		t.Errorf("SpeedDown(0.001) = %v", got)
	}
	if got := SpeedDown(0.0015); got != 0.001 {
		t.Errorf("SpeedDown(0.0015) = %v (a speed off the sequence goes to its neighbour)", got)
	}
	if SpeedUp(MaxSpeed) != MaxSpeed || SpeedDown(MinSpeed) != MinSpeed {
		t.Errorf("speed steps leave the limits")
	}
}

func TestDo(t *testing.T) {
	s := loaded(t)
	s.Tick(t0, 0)
	if err := s.Do(CmdTogglePlay); err != nil || s.Playing() {
		t.Fatalf("space did not pause")
	}
	if err := s.Do(CmdStep); err != nil {
		t.Fatal(err)
	}
	step := float64(StepFrame) * DefaultSpeed
	want := int64(step)
	if f := s.Tick(t0, 0); f.A().Now != want {
		t.Errorf("→ advanced to %d, want %d (one frame of simulated time)", f.A().Now, want)
	}
	s.Do(CmdFaster)
	if s.Speed() != 0.002 {
		t.Errorf("+ gave speed %v", s.Speed())
	}
	s.Do(CmdSlower)
	s.Do(CmdSlower)
	if s.Speed() != 0.0005 {
		t.Errorf("− − gave speed %v", s.Speed())
	}
	s.Do(CmdToggleTalk)
	s.Do(CmdTogglePause)
	if !s.Talk() || !s.PauseOnMove() {
		t.Errorf("T, P: talk %v pause-on-move %v", s.Talk(), s.PauseOnMove())
	}
	if err := s.Do(CmdToggleAB); err != nil || len(s.Compare()) == 0 {
		t.Errorf("A: %v, compare %v", err, s.Compare())
	}
	before := s.Preset()
	if err := s.Do(CmdNextPreset); err != nil || s.Preset() == before {
		t.Errorf("N: %v, preset %q -> %q", err, before, s.Preset())
	}
	s.Do(CmdTogglePlay)
	if !s.Playing() {
		t.Errorf("space did not play")
	}
	if err := s.Do(CmdFullscreen); err != nil {
		t.Errorf("F in the session: %v", err)
	}
}
