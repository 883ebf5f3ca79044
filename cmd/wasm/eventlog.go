//go:build js

package main

import (
	"strconv"
	"sync"

	"github.com/teivah/broadcast"

	"schedplay/frame"
)

// eventLog keeps the newest logKeep entries of side A's event log
// (Frame.Log) for the page, which reads them with schedplay.log(since).
// Its own listener does nothing but copy, so it keeps up with the frame
// rate and the log has no holes; a revision change (another scenario, a
// restart, A/B switched) starts a new log.
type eventLog struct {
	mu      sync.Mutex
	rev     int64
	next    int64 // seq of the next entry
	ring    []logLine
	dropped int // entries the frames left out (frame.Frame.LogDropped) in this revision
}

// logKeep is how many lines the page keeps: enough to scroll back over a
// few frames of a busy machine, few enough to stay light.
const logKeep = 500

type logLine struct {
	seq int64
	frame.LogEntry
	task string // the task's name, "" if none
}

func (l *eventLog) run(ch *broadcast.Listener[*frame.Frame]) {
	for f := range ch.Ch() {
		l.add(f)
	}
}

func (l *eventLog) add(f *frame.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f.Rev != l.rev {
		l.rev = f.Rev
		l.ring = l.ring[:0]
		l.dropped = 0
	}
	l.dropped += f.A().LogDropped
	for _, e := range f.A().Log {
		name := ""
		if e.Task >= 0 && e.Task < len(f.A().Tasks) {
			name = f.A().Tasks[e.Task].Name
		}
		l.ring = append(l.ring, logLine{seq: l.next, LogEntry: e, task: name})
		l.next++
	}
	if n := len(l.ring); n > logKeep {
		l.ring = append(l.ring[:0], l.ring[n-logKeep:]...)
	}
}

// since returns the entries newer than seq (all kept ones for seq < 0), as
// plain values for the page.
func (l *eventLog) since(seq int64) map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []any
	for i := range l.ring {
		e := &l.ring[i]
		if e.seq <= seq {
			continue
		}
		out = append(out, map[string]any{
			"seq": e.seq, "t_ms": float64(e.T) / 1e6, "kind": e.Kind, "cause": e.Cause,
			"task": e.task, "task_id": e.Task, "cpu": e.CPU, "from": e.From, "text": e.Text,
		})
	}
	return map[string]any{
		"rev":     strconv.FormatInt(l.rev, 10),
		"next":    l.next - 1,
		"dropped": l.dropped,
		"entries": out,
	}
}
