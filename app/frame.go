package app

import (
	"github.com/teivah/broadcast"

	"schedplay/sim"
)

// Frame is what one frame of the simulation hands to its consumers. It is
// read-only once published: Snap, Moves, Examined and Log belong to the
// frame; Topology, Tasks and IdleStates are shared by every frame of one
// scenario revision; Series and its Samples are shared between frames and
// never change.
type Frame struct {
	Seq        uint64
	Rev        int64 // scenario revision: changes when a scenario is (re)loaded or A/B changes
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
	// After a pause on a migration (PausedOnMove) it is that migration.
	LastMove string
	// Log is the trace since the previous frame in words, in trace order,
	// at most MaxLogPerFrame entries; LogDropped counts the events left out
	// (the least telling go first: see logTier).
	Log        []LogEntry
	LogDropped int
	// Series is side A's time series (ops/s, wake-up latency, migrations
	// by cause, per-CPU nr_running), the newest SeriesLen samples.
	Series   *Series
	Now      int64 // simulated ns
	Duration int64 // simulated ns of the whole run
	Playing  bool
	Speed    float64 // simulated seconds per wall second
	Title    string
	// Description of the scenario (plain text, never HTML).
	Description string
	// Preset is the name of the preset being played, "" if the scenario
	// is not one (matched by title).
	Preset string
	Err    string // the last error text, "" if none
	// Link is the share-link fragment when this revision came from a user
	// change (loadScenario, set) and the page URL should follow; else "".
	Link  string
	Stats Stats
	// Talk: talk mode is on (SetTalk); the canvas draws large type, the
	// clock and the key help; the page hides its side panels.
	Talk bool
	// PauseOnMove: the pause on the next migration is armed
	// (SetPauseOnMove); PausedOnMove: playing stopped right after a
	// migration in this frame, which is LastMove.
	PauseOnMove  bool
	PausedOnMove bool
	// Compare is the A/B compare sets ("path=value"), nil when A/B is off.
	Compare []string
	// B is side B of an A/B comparison (nil when off); the A side is the
	// fields above. ATitle labels side A like B.Title labels B:
	// "A: policy.select_idle_sibling=v3.6".
	B      *Side
	ATitle string
}

// Side is side B of an A/B comparison: the same scenario and seed with the
// compare sets applied, at the same simulated time as side A.
type Side struct {
	Title      string // "B: policy.select_idle_sibling=cpu_buddies"
	Topology   *sim.Topology
	Tasks      []sim.TaskInfo
	IdleStates []sim.IdleState
	Era        string
	Snap       *sim.Snapshot
	Moves      []sim.Event
	Examined   []sim.CPUMask
	LastMove   string
	Metrics    *sim.Metrics // refreshed in the same frames as Frame.Metrics
	Log        []LogEntry
	LogDropped int
	Series     *Series
	Now        int64
}

// Hub fans frames out to consumers through a teivah/broadcast relay.
//
// Rules (see the toolchain notes on the relay's hazards):
//   - Publish uses Broadcast, which never blocks: a consumer whose channel
//     is full misses that frame (it keeps the older ones it has not read);
//     consumers that need every frame's Moves drain their channel each frame.
//   - Notify is never used, so closing a listener can never deadlock on a
//     pending notification; still, listeners live as long as the page.
//   - The relay is never closed: Listener after Relay.Close panics.
type Hub struct {
	relay *broadcast.Relay[*Frame]
}

// NewHub returns a hub with no listeners.
func NewHub() *Hub { return &Hub{relay: broadcast.NewRelay[*Frame]()} }

// Listen adds a consumer with a channel of the given capacity.
func (h *Hub) Listen(capacity int) *broadcast.Listener[*Frame] {
	return h.relay.Listener(capacity)
}

// Publish hands f to every consumer without blocking.
func (h *Hub) Publish(f *Frame) {
	if f != nil {
		h.relay.Broadcast(f)
	}
}
