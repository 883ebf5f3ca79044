package app

import (
	"math"
	"time"
)

// Command is a keyboard command of the canvas (talk mode's remote control).
type Command uint8

const (
	CmdNone          Command = iota
	CmdTogglePlay            // Space: play / pause
	CmdStep                  // →: pause and advance one frame of simulated time
	CmdFaster                // + (or =): next speed up
	CmdSlower                // − (or -): next speed down
	CmdToggleAB              // A: A/B on or off (ToggleCompare)
	CmdNextPreset            // N: the next preset
	CmdToggleTalk            // T: talk mode on or off
	CmdFullscreen            // F: full screen (the front end does it)
	CmdTogglePause           // P: pause on the next migration on or off
	CmdStepBack              // ←: pause and go back one frame of simulated time (seek)
	CmdPrevMigration         // [: back to the previous migration
	CmdNextMigration         // ]: forward to the next migration
	CmdNextChapter           // PageDown (a presentation clicker): the next chapter
	CmdPrevChapter           // PageUp: the previous chapter
	CmdToggleTheme           // L: light (projector) or dark theme
)

// KeyCommand maps a DOM KeyboardEvent.key to a command (CmdNone if none).
// Letters work in either case.
func KeyCommand(key string) Command {
	switch key {
	case " ", "Spacebar":
		return CmdTogglePlay
	case "ArrowRight", "Right":
		return CmdStep
	case "ArrowLeft", "Left":
		return CmdStepBack
	case "[":
		return CmdPrevMigration
	case "]":
		return CmdNextMigration
	case "PageDown":
		return CmdNextChapter
	case "PageUp":
		return CmdPrevChapter
	case "l", "L":
		return CmdToggleTheme
	case "+", "=", "Add":
		return CmdFaster
	case "-", "_", "−", "Subtract":
		return CmdSlower
	case "a", "A":
		return CmdToggleAB
	case "n", "N":
		return CmdNextPreset
	case "t", "T":
		return CmdToggleTalk
	case "f", "F":
		return CmdFullscreen
	case "p", "P":
		return CmdTogglePause
	}
	return CmdNone
}

// StepFrame is the wall time one → step stands for: one frame at 60 fps,
// so a step shows what one frame of playing would (speed × 1/60 s).
const StepFrame = time.Second / 60

// SpeedUp and SpeedDown are the next speed in the 1-2-5 sequence above or
// below x, within MinSpeed..MaxSpeed.
func SpeedUp(x float64) float64   { return nextSpeed(x, +1) }
func SpeedDown(x float64) float64 { return nextSpeed(x, -1) }

func nextSpeed(x float64, dir int) float64 {
	// Candidates 1, 2, 5 × 10^k around x; pick the nearest strictly beyond
	// x (by more than rounding) in direction dir.
	e := math.Floor(math.Log10(x))
	best := x
	for k := e - 1; k <= e+1; k++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, k)
			// Round away the float noise of Pow: 0.001 not 0.0010000000000000002.
			v, _ = roundSig(v)
			if dir > 0 && v > x*(1+1e-9) && (best == x || v < best) {
				best = v
			}
			if dir < 0 && v < x*(1-1e-9) && (best == x || v > best) {
				best = v
			}
		}
	}
	return min(max(best, MinSpeed), MaxSpeed)
}

func roundSig(v float64) (float64, bool) {
	p := math.Pow(10, math.Floor(math.Log10(v))-3)
	r := math.Round(v/p) * p
	return r, r == v
}

// Do applies a keyboard command (all but CmdFullscreen, which only the
// front end can do). Errors are also kept for Error().
func (s *Session) Do(c Command) error {
	switch c {
	case CmdTogglePlay:
		s.TogglePlay()
	case CmdStep:
		d := time.Duration(float64(StepFrame) * s.Speed())
		_, err := s.Step(max(d, time.Nanosecond))
		return err
	case CmdFaster:
		return s.SetSpeed(SpeedUp(s.Speed()))
	case CmdSlower:
		return s.SetSpeed(SpeedDown(s.Speed()))
	case CmdToggleAB:
		return s.ToggleCompare()
	case CmdNextPreset:
		return s.NextPreset()
	case CmdToggleTalk:
		s.SetTalk(!s.Talk())
	case CmdTogglePause:
		s.SetPauseOnMove(!s.PauseOnMove())
	case CmdStepBack:
		_, err := s.StepBack(int64(max(float64(StepFrame)*s.Speed(), 1)))
		return err
	case CmdPrevMigration:
		_, err := s.SeekMigration(-1)
		return err
	case CmdNextMigration:
		_, err := s.SeekMigration(+1)
		return err
	case CmdNextChapter:
		_, err := s.StepChapter(+1)
		return err
	case CmdPrevChapter:
		_, err := s.StepChapter(-1)
		return err
	case CmdToggleTheme:
		if s.Theme() == "light" {
			return s.SetTheme("dark")
		}
		return s.SetTheme("light")
	}
	return nil
}
