// Package frame is what the simulation hands its front ends, once per
// frame of the picture: the Frame (both sides of an A/B comparison alike,
// Sides[0] is A, Sides[1] is B), its time series and event log. It imports
// only sim: package app produces frames, render, render/canvas and the page
// consume them, and none of them needs another to read one.
package frame

import "schedplay/sim"

// Frame is what one frame of the simulation hands to its consumers. It is
// read-only once published: a side's Snap, Moves, Examined and Log belong
// to the frame; Topology, Tasks and IdleStates are shared by every frame of
// one scenario revision; Series and its Samples are shared between frames
// and never change.
type Frame struct {
	Seq uint64
	Rev int64 // scenario revision: changes when a scenario is (re)loaded or A/B changes
	// Sides are A (the scenario) and B (the scenario with the compare sets
	// applied, at the same simulated time); B is set only when AB is.
	Sides [2]Side
	AB    bool

	Duration int64 // simulated ns of the whole run
	Playing  bool
	Speed    float64 // simulated seconds per wall second
	Title    string
	// Description of the scenario (plain text, never HTML).
	Description string
	// Preset is the name of the preset being played, "" if the scenario
	// is not one.
	Preset string
	Err    string // the last error text, "" if none
	// Link is the share-link fragment when this revision came from a user
	// change (loadScenario, set) and the page URL should follow; else "".
	Link string
	// LinkSeq counts the user changes whose link the page URL should
	// follow (0: none yet); LinkWrite is the newest of them. LinkPush:
	// that change replaced the scenario (a preset, an import), so it gets
	// a history entry of its own, and LinkPrev is the link it replaced
	// (for the entry Back returns to).
	LinkSeq             int64
	LinkPush            bool
	LinkWrite, LinkPrev string

	Stats Stats
	// Talk: talk mode is on; the canvas draws large type, the clock and
	// the key help; the page hides its side panels.
	Talk bool
	// Theme is the colour theme: "light" for a projector, else dark.
	Theme string
	// Timeline and Chapters (present.go), on frames with fresh metrics; a
	// Timeline's Marks only when they changed (MarksRev).
	Timeline *Timeline
	Chapters *ChapterInfo
	// PauseOnMove: the pause on the next migration is armed;
	// PausedOnMove: playing stopped right after a migration in this frame,
	// which is side A's LastMove.
	PauseOnMove  bool
	PausedOnMove bool
	// Compare is the A/B compare sets ("path=value"), nil when A/B is off.
	Compare []string
}

// A is side A: the scenario as loaded.
func (f *Frame) A() *Side { return &f.Sides[0] }

// B is side B of an A/B comparison, nil when A/B is off.
func (f *Frame) B() *Side {
	if !f.AB {
		return nil
	}
	return &f.Sides[1]
}

// Side is one simulated machine of a frame.
type Side struct {
	// Label names the side in an A/B comparison by its settings:
	// "A: policy.select_idle_sibling=v3.6", "B: policy.select_idle_sibling=cpu_buddies";
	// "" when A/B is off.
	Label      string
	Topology   *sim.Topology
	Tasks      []sim.TaskInfo
	IdleStates []sim.IdleState
	// Era is the policy base, "v3.8" or "v6.17" (which PELT signals mean
	// what: the legend of the PELT bars follows it).
	Era string
	// LLCSize and L2Size label the caches in the picture (the scenario's
	// machine.llc_size and l2_size; "" when not given).
	LLCSize, L2Size string
	Snap            *sim.Snapshot
	Moves           []sim.Event // events since the previous frame that move a task between CPUs
	// Examined is parallel to Moves: the CPUs the decision behind each move
	// looked at (select_idle_sibling's scan, find_idlest_group's groups, the
	// balancer's groups); empty when the decision is not known.
	Examined []sim.CPUMask
	Metrics  *sim.Metrics // nil unless refreshed in this frame (a few times a second)
	// LastMove explains the newest of Moves in words, with the decision
	// behind it (the simulator's Explain); "" when the frame has no move.
	LastMove string
	// Log is the trace since the previous frame in words, in trace order,
	// at most MaxLogPerFrame entries; LogDropped counts the events left out
	// (the least telling go first).
	Log        []LogEntry
	LogDropped int
	// LogTotal counts the side's log events of this revision up to and
	// including this frame, kept or dropped: a consumer that missed frames
	// (a full listener: Hub.Publish never blocks) knows how many lines it
	// lost.
	LogTotal int64
	// Series is the side's time series (ops/s, wake-up latency, migrations
	// by cause, per-CPU nr_running), the newest SeriesLen samples.
	Series *Series
	Now    int64 // simulated ns
}

// MaxLogPerFrame bounds Side.Log. When a frame has more events, the most
// telling are kept and LogDropped counts the rest.
const MaxLogPerFrame = 200

// LogEntry is one trace event in words, for the event log. Text is the
// simulator's explanation (sim.(*Sim).Explain): the event, and for
// placements and balancing the decision behind it (the kernel path, the
// CPUs examined, the numbers compared).
type LogEntry struct {
	T     int64  `json:"t"`     // simulated ns
	Kind  string `json:"kind"`  // fork, wakeup, switch, migrate, block, exit, balance
	Cause string `json:"cause"` // migrations and balance passes: wakeup, balance, newidle, nohz, active, fork; else ""
	Task  int    `json:"task"`  // task id (index into Frame.Tasks), -1 if none
	CPU   int    `json:"cpu"`   // the CPU it happened on / was placed on
	From  int    `json:"from"`  // previous CPU (wake-ups, migrations, forks), the balance source; -1 if none
	Text  string `json:"text"`  // "t=12.003ms hog/1 moved cpu2 -> cpu3 (wakeup, llc): select_idle_sibling(v3.6): ..."
}

// Stats are the front end's own performance numbers, as the page API's
// stats() reports them.
type Stats struct {
	FPS     float64 `json:"fps"`      // frames per wall second, over the last window
	FrameMS float64 `json:"frame_ms"` // mean wall ms per frame spent in the simulator and in drawing
	SimRTF  float64 `json:"sim_rtf"`  // simulated seconds advanced per wall second (0 when paused)
}
