package app

import (
	"github.com/teivah/broadcast"

	"schedplay/sim"
)

// Frame is what one frame of the simulation hands to its consumers. It is
// read-only once published: Snap and Moves belong to the frame, Topology,
// Tasks and IdleStates are shared by every frame of one scenario revision.
type Frame struct {
	Seq        uint64
	Rev        int64 // scenario revision: changes when a scenario is (re)loaded
	Topology   *sim.Topology
	Tasks      []sim.TaskInfo
	IdleStates []sim.IdleState
	Snap       *sim.Snapshot
	Moves      []sim.Event  // events since the previous frame that move a task between CPUs
	Metrics    *sim.Metrics // nil unless refreshed in this frame (a few times a second)
	// LastMove explains the newest of Moves in words, with the decision
	// behind it (the simulator's Explain); "" when the frame has no move.
	LastMove string
	Now      int64 // simulated ns
	Duration int64 // simulated ns of the whole run
	Playing  bool
	Speed    float64 // simulated seconds per wall second
	Title    string
	// Description of the scenario (plain text, never HTML).
	Description string
	Err         string // the last error text, "" if none
	// Link is the share-link fragment when this revision came from a user
	// change (loadScenario, set) and the page URL should follow; else "".
	Link  string
	Stats Stats
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
