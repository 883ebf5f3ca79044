package app

import (
	"github.com/teivah/broadcast"

	"schedplay/frame"
)

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
	relay *broadcast.Relay[*frame.Frame]
}

// NewHub returns a hub with no listeners.
func NewHub() *Hub { return &Hub{relay: broadcast.NewRelay[*frame.Frame]()} }

// Listen adds a consumer with a channel of the given capacity.
func (h *Hub) Listen(capacity int) *broadcast.Listener[*frame.Frame] {
	return h.relay.Listener(capacity)
}

// Publish hands f to every consumer without blocking.
func (h *Hub) Publish(f *frame.Frame) {
	if f != nil {
		h.relay.Broadcast(f)
	}
}

// side fills one side of a frame from what the frame took from p.
func (p *player) side(sd *frame.Side, o frameOut) {
	sd.Topology, sd.Tasks, sd.IdleStates = p.topo, p.tasks, p.idle
	sd.Era = eraOf(p.sim)
	sd.Snap, sd.Moves, sd.Examined, sd.LastMove = o.snap, o.moves, o.examined, o.lastMove
	sd.Log, sd.LogDropped, sd.LogTotal, sd.Series = o.log, o.logDropped, o.logTotal, o.series
	sd.Now = p.now()
}
