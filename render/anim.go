package render

import "schedplay/sim"

// GlideDuration is how long a migrated task takes to glide from its old CPU
// to its new one, in wall-clock seconds: long enough for the eye to follow,
// short enough that a burst of migrations does not pile up.
const GlideDuration = 0.3

// MaxGlides bounds the glides on screen; the oldest give way to new ones.
const MaxGlides = 96

// Glide is one task in flight between two cells.
type Glide struct {
	Task     int32
	From, To int16
	Cause    sim.Cause
	Start    float64 // wall-clock seconds
}

// Progress is how far along the glide is at now, 0..1.
func (g *Glide) Progress(now, dur float64) float64 {
	if dur <= 0 {
		return 1
	}
	return clamp((now-g.Start)/dur, 0, 1)
}

// Ease is a cubic ease-in-out of t in 0..1.
func Ease(t float64) float64 {
	t = clamp(t, 0, 1)
	if t < 0.5 {
		return 4 * t * t * t
	}
	u := -2*t + 2
	return 1 - u*u*u/2
}

// Glides animates migrations. It is driven by wall-clock time, not
// simulated time: at slow speeds a glide spans many events, at fast speeds
// it covers many migrations and only the newest MaxGlides are shown.
type Glides struct {
	Dur  float64 // seconds; GlideDuration if zero
	Max  int     // MaxGlides if zero
	list []Glide
}

func (g *Glides) dur() float64 {
	if g.Dur > 0 {
		return g.Dur
	}
	return GlideDuration
}

func (g *Glides) max() int {
	if g.Max > 0 {
		return g.Max
	}
	return MaxGlides
}

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

// Add starts a glide for every event of evs that moves a task, at wall time now.
func (g *Glides) Add(evs []sim.Event, now float64) {
	for i := range evs {
		e := &evs[i]
		if !Moves(e) {
			continue
		}
		cause := MoveCause(e)
		// A task moving again replaces its previous glide.
		for j := range g.list {
			if g.list[j].Task == e.Task {
				g.list = append(g.list[:j], g.list[j+1:]...)
				break
			}
		}
		if len(g.list) >= g.max() {
			g.list = append(g.list[:0], g.list[1:]...)
		}
		g.list = append(g.list, Glide{Task: e.Task, From: e.From, To: e.CPU, Cause: cause, Start: now})
	}
}

// Active drops finished glides and returns those still in flight at now.
// The result is valid until the next call to Add, Active or Clear.
func (g *Glides) Active(now float64) []Glide {
	d := g.dur()
	keep := g.list[:0]
	for _, gl := range g.list {
		if now-gl.Start < d {
			keep = append(keep, gl)
		}
	}
	g.list = keep
	return g.list
}

// Len is the number of glides held (finished ones included until Active prunes them).
func (g *Glides) Len() int { return len(g.list) }

// Clear drops every glide (a new scenario was loaded).
func (g *Glides) Clear() { g.list = g.list[:0] }
