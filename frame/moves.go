package frame

import "schedplay/sim"

// MaxMoves bounds a side's Moves in one frame (the newest are kept): twice
// the glides render keeps on screen.
const MaxMoves = 192

// Moves reports whether e moves a task between two different CPUs: a
// migration, a wake-up placed on another CPU than the task's previous one,
// or a fork placed away from its parent's CPU (fork balancing).
func Moves(e *sim.Event) bool {
	if e.Kind != sim.EvMigrate && e.Kind != sim.EvWakeup && e.Kind != sim.EvFork {
		return false
	}
	return e.From >= 0 && e.CPU >= 0 && e.From != e.CPU && e.Task >= 0
}

// MoveCause is the cause a move is drawn with: a migration's own cause, a
// wake-up's placement, a fork's fork balancing.
func MoveCause(e *sim.Event) sim.Cause {
	switch {
	case e.Kind == sim.EvFork:
		return sim.CauseFork
	case e.Kind == sim.EvWakeup && e.Cause == sim.CauseNone:
		return sim.CauseWakeup
	}
	return e.Cause
}
