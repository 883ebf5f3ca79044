package app

import (
	"slices"

	"schedplay/frame"
	"schedplay/sim"
)

// logTier orders events by how much they tell, 0 first:
//
//  0. migrations, forks, exits, balance passes that moved tasks;
//  1. wake-ups and blocks;
//  2. context switches and balance passes that moved nothing (every tick
//     of every CPU at every domain level: the bulk of a busy trace).
//
// Within a tier the newest are kept.
func logTier(e *sim.Event) int {
	switch e.Kind {
	case sim.EvMigrate, sim.EvFork, sim.EvExit:
		return 0
	case sim.EvBalance:
		if e.Arg > 0 {
			return 0
		}
		return 2
	case sim.EvWakeup, sim.EvBlock:
		return 1
	}
	return 2
}

// logRing keeps the newest frame.MaxLogPerFrame events of one tier.
type logRing struct {
	buf  []seqEvent
	head int // index of the oldest when full
}

type seqEvent struct {
	seq uint64
	e   sim.Event
}

func (r *logRing) add(se seqEvent) {
	if len(r.buf) < frame.MaxLogPerFrame {
		r.buf = append(r.buf, se)
		return
	}
	r.buf[r.head] = se
	r.head = (r.head + 1) % frame.MaxLogPerFrame
}

// logBuf collects one frame's events for the log.
type logBuf struct {
	tiers [3]logRing
	seq   uint64
	total int
}

func (l *logBuf) add(e *sim.Event) {
	l.seq++
	l.total++
	l.tiers[logTier(e)].add(seqEvent{l.seq, *e})
}

// take returns the kept events in trace order and how many were dropped,
// and empties the buffer.
func (l *logBuf) take(dst []sim.Event) ([]sim.Event, int) {
	var keep []seqEvent
	for t := range l.tiers {
		r := &l.tiers[t]
		room := frame.MaxLogPerFrame - len(keep)
		if room <= 0 {
			break
		}
		// Newest first within the tier: walk back from the newest.
		n := len(r.buf)
		for i := 0; i < n && i < room; i++ {
			idx := (r.head - 1 - i + 2*n) % n
			if len(r.buf) < frame.MaxLogPerFrame {
				idx = n - 1 - i
			}
			keep = append(keep, r.buf[idx])
		}
	}
	slices.SortFunc(keep, func(a, b seqEvent) int {
		if a.seq < b.seq {
			return -1
		}
		return 1
	})
	for _, se := range keep {
		dst = append(dst, se.e)
	}
	dropped := l.total - len(keep)
	for t := range l.tiers {
		l.tiers[t].buf = l.tiers[t].buf[:0]
		l.tiers[t].head = 0
	}
	l.total = 0
	return dst, dropped
}

// entry turns e into a frame.LogEntry with the simulator's explanation.
func entry(s *sim.Sim, e *sim.Event) frame.LogEntry {
	le := frame.LogEntry{T: e.T, Kind: e.Kind.String(), Task: int(e.Task), CPU: int(e.CPU), From: int(e.From), Text: s.Explain(*e)}
	if e.Kind == sim.EvMigrate || e.Kind == sim.EvBalance {
		le.Cause = e.Cause.String()
	}
	return le
}
