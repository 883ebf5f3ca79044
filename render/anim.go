package render

import (
	"image/color"

	"schedplay/frame"
	"schedplay/sim"
)

// Animations of moves. A task that changes CPU glides from the old cell to
// the new one along an arc, in wall-clock time:
//
//   - the colour and the line pattern say why (CauseStyle): a wake-up
//     placement is a solid cyan line, periodic balance orange dashes,
//     newidle green dots, nohz violet dash-dots, active balance a red
//     double line, fork balancing a white line;
//   - the arc's height says how far in the cache hierarchy the task went
//     (ArcLift: SMT siblings a flat hop, another NUMA node a high arc), and
//     a badge at its apex names the distance (SMT, L2, LLC, pkg, NUMA);
//   - the CPUs the decision examined (select_idle_sibling's scan, the
//     balancer's groups) are outlined in the cause's colour for a moment.
//
// After the task arrives, its trail stays and fades for Linger seconds, so
// that a move seen from the corner of the eye can still be found.

// GlideDuration is how long a migrated task takes to glide from its old CPU
// to its new one, in wall-clock seconds: long enough for the eye to follow,
// short enough that a burst of migrations does not pile up. A task that
// moved less than that ago glides faster (80% of the time since its last
// move, at least MinGlide), so that it arrives before it moves again.
const GlideDuration = 0.45

// MinGlide is the shortest flight.
const MinGlide = 0.1

// Linger is how long a trail stays (fading) after its task arrived.
const Linger = 0.5

// MaxGlides bounds the glides on screen; the oldest give way to new ones.
// A frame carries up to twice as many moves (frame.MaxMoves).
const MaxGlides = frame.MaxMoves / 2

// MaxBadges bounds how many of the newest glides in flight carry their
// distance badge.
const MaxBadges = 6

// MaxExamined bounds how many of the newest glides outline the CPUs their
// decision examined (more would cover the machine in outlines).
const MaxExamined = 4

// Glide is one task in flight between two cells.
type Glide struct {
	Task     int32
	From, To int16
	Cause    sim.Cause
	Dist     sim.Distance // cache distance crossed
	Examined sim.CPUMask  // CPUs the decision examined (may be empty)
	Start    float64      // wall-clock seconds
	Dur      float64      // flight time, seconds (0: the Glides' duration)
}

// duration is the glide's flight time, def if it has none of its own.
func (g *Glide) duration(def float64) float64 {
	if g.Dur > 0 {
		return g.Dur
	}
	return def
}

// Progress is how far along the glide is at now, 0..1.
func (g *Glide) Progress(now, dur float64) float64 {
	if dur <= 0 {
		return 1
	}
	return clamp((now-g.Start)/dur, 0, 1)
}

// Fade is the trail's opacity at now: 1 in flight, then down to 0 over Linger.
func (g *Glide) Fade(now, dur float64) float64 {
	after := now - g.Start - dur
	if after <= 0 {
		return 1
	}
	return clamp(1-after/Linger, 0, 1)
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

// Pattern is a line pattern: alternating on and off lengths in line widths
// (nil: solid).
type Pattern []float64

// Style is how moves of one cause are drawn.
type Style struct {
	Color  color.RGBA
	Dash   Pattern
	Width  float64 // line width in px at the base size
	Double bool    // two parallel lines
	Name   string  // for the legend: "wake-up", "periodic balance", ...
}

var causeStyles = [sim.NumCauses]Style{
	sim.CauseNone:    {Name: "move", Width: 3},
	sim.CauseWakeup:  {Name: "wake-up placement", Width: 3},
	sim.CauseBalance: {Name: "periodic balance", Width: 3, Dash: Pattern{3, 1.6}},
	sim.CauseNewidle: {Name: "newidle balance", Width: 3.5, Dash: Pattern{1, 1.2}},
	sim.CauseNohz:    {Name: "nohz idle balance", Width: 3, Dash: Pattern{3, 1.2, 1, 1.2}},
	sim.CauseActive:  {Name: "active balance", Width: 2, Double: true},
	sim.CauseFork:    {Name: "fork placement", Width: 2.5},
	sim.CauseExec:    {Name: "exec placement", Width: 2.5, Dash: Pattern{1, 1.6}},
}

// CauseStyle is the line style of moves with cause c.
func CauseStyle(c sim.Cause) Style {
	if c >= sim.NumCauses {
		c = sim.CauseNone
	}
	st := causeStyles[c]
	st.Color = CauseColor(c)
	return st
}

// ArcLift is the height of a move's arc as a fraction of the straight
// distance between the cells, by the cache distance crossed: the farther
// the data has to come from, the higher the jump.
func ArcLift(d sim.Distance) float64 {
	switch d {
	case sim.DistSMT:
		return 0.08
	case sim.DistCluster:
		return 0.15
	case sim.DistLLC:
		return 0.22
	case sim.DistPackage:
		return 0.3
	case sim.DistNUMA:
		return 0.38
	}
	return 0
}

// DistanceLabel is the short name of a cache distance, for the badge on a
// move's arc.
func DistanceLabel(d sim.Distance) string {
	switch d {
	case sim.DistSMT:
		return "SMT"
	case sim.DistCluster:
		return "L2"
	case sim.DistLLC:
		return "LLC"
	case sim.DistPackage:
		return "pkg"
	case sim.DistNUMA:
		return "NUMA"
	}
	return ""
}

// GlideFor maps a trace event to its animation: ok is false for events
// that move nothing. topo gives the distance (nil: unknown).
func GlideFor(e *sim.Event, topo *sim.Topology, examined sim.CPUMask, now float64) (Glide, bool) {
	if !frame.Moves(e) {
		return Glide{}, false
	}
	g := Glide{Task: e.Task, From: e.From, To: e.CPU, Cause: frame.MoveCause(e), Examined: examined, Start: now}
	if topo != nil && int(e.From) < topo.NCPU && int(e.CPU) < topo.NCPU {
		g.Dist = topo.Distance(int(e.From), int(e.CPU))
	}
	return g, true
}

// Glides animates migrations. It is driven by wall-clock time, not
// simulated time: at slow speeds a glide spans many events. At fast speeds
// there are more moves than the screen can show: while MaxGlides are on
// screen, new moves are not animated (a move of a task already gliding
// replaces its glide), so that the glides shown complete their flight —
// a sample of the moves rather than a crowd of blocks that never leave
// their CPU. Rate tells how many moves per second were seen and shown.
type Glides struct {
	Dur  float64 // seconds; GlideDuration if zero
	Max  int     // MaxGlides if zero
	list []Glide
	// lastMove is per task id the wall time of its last move (0: none).
	lastMove []float64
	// Moves seen and animated: in the current second, and in the last.
	winStart            float64
	seen, shown         int
	lastSeen, lastShown int
}

// Rate is the moves per second seen and animated in the last full second
// of wall time before now.
func (g *Glides) Rate(now float64) (seen, shown int) {
	g.roll(now)
	return g.lastSeen, g.lastShown
}

// roll starts a new one-second window when now is past the current one.
func (g *Glides) roll(now float64) {
	if now-g.winStart >= 1 || now < g.winStart {
		if now-g.winStart < 2 && now >= g.winStart {
			g.lastSeen, g.lastShown = g.seen, g.shown
		} else {
			g.lastSeen, g.lastShown = 0, 0
		}
		g.winStart, g.seen, g.shown = now, 0, 0
	}
}

func (g *Glides) count(now float64, shown bool) {
	g.roll(now)
	g.seen++
	if shown {
		g.shown++
	}
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

// Add starts a glide for every event of evs that moves a task, at wall time
// now. examined, when not nil, is parallel to evs (the CPUs each move's
// decision examined); topo gives the distances (nil: unknown).
func (g *Glides) Add(evs []sim.Event, examined []sim.CPUMask, topo *sim.Topology, now float64) {
	g.Active(now) // drop the finished ones
	g.roll(now)
	for i := range evs {
		var ex sim.CPUMask
		if i < len(examined) {
			ex = examined[i]
		}
		gl, ok := GlideFor(&evs[i], topo, ex, now)
		if !ok {
			continue
		}
		// A wake-up placed elsewhere is two events (EvWakeup, EvMigrate) of
		// one decision: one move.
		if j := g.find(gl.Task); j >= 0 {
			if old := &g.list[j]; old.Start == now && old.From == gl.From && old.To == gl.To {
				if old.Examined.Empty() {
					old.Examined = gl.Examined
				}
				continue
			}
		}
		gl.Dur = g.dur()
		if id := int(gl.Task); id < len(g.lastMove) && g.lastMove[id] > 0 && now >= g.lastMove[id] {
			gl.Dur = clamp(0.8*(now-g.lastMove[id]), MinGlide, g.dur())
		}
		g.setLastMove(gl.Task, now)
		// A task moving again replaces its previous glide; a new task's
		// move waits for room.
		if j := g.find(gl.Task); j >= 0 {
			g.list = append(g.list[:j], g.list[j+1:]...)
		} else if len(g.list) >= g.max() {
			g.count(now, false)
			continue
		}
		g.count(now, true)
		g.list = append(g.list, gl)
	}
}

func (g *Glides) find(task int32) int {
	for j := range g.list {
		if g.list[j].Task == task {
			return j
		}
	}
	return -1
}

func (g *Glides) setLastMove(task int32, now float64) {
	if task < 0 || task > 1<<20 {
		return
	}
	for int(task) >= len(g.lastMove) {
		g.lastMove = append(g.lastMove, 0)
	}
	g.lastMove[task] = now
}

// Active drops finished glides (arrived and faded) and returns those still
// drawn at now, oldest first. The result is valid until the next call to
// Add, Active or Clear.
func (g *Glides) Active(now float64) []Glide {
	keep := g.list[:0]
	for _, gl := range g.list {
		if now-gl.Start < gl.duration(g.dur())+Linger {
			keep = append(keep, gl)
		}
	}
	g.list = keep
	return g.list
}

// Len is the number of glides held (finished ones included until Active prunes them).
func (g *Glides) Len() int { return len(g.list) }

// Clear drops every glide (a new scenario was loaded).
func (g *Glides) Clear() {
	g.list = g.list[:0]
	clear(g.lastMove)
}
