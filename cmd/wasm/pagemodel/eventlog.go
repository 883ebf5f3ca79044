package pagemodel

import (
	"strconv"
	"sync"

	"schedplay/frame"
)

// EventLog keeps the newest LogKeep entries of side A's event log
// (frame.Side.Log) for the page, which reads them with schedplay.log(since).
// A revision change (another scenario, a restart, A/B switched) starts a
// new log. It is safe for one writer (Add) and readers (Since) at once.
type EventLog struct {
	mu       sync.Mutex
	rev      int64
	next     int64 // seq of the next entry
	ring     []LogLine
	dropped  int   // entries of this revision the log never got: left out of frames, or in frames a full listener missed
	received int64 // entries of this revision received
}

// LogKeep is how many lines the page keeps: enough to scroll back over a
// few frames of a busy machine, few enough to stay light.
const LogKeep = 500

// LogLine is one entry as the page reads it.
type LogLine struct {
	Seq    int64   `json:"seq"`
	TMS    float64 `json:"t_ms"`
	Kind   string  `json:"kind"`
	Cause  string  `json:"cause"`
	Task   string  `json:"task"` // the task's name, "" if none
	TaskID int     `json:"task_id"`
	CPU    int     `json:"cpu"`
	From   int     `json:"from"`
	Text   string  `json:"text"`
}

// LogPage is what schedplay.log(since) returns.
type LogPage struct {
	Rev     string    `json:"rev"`  // the revision, as a string (JS numbers lose int64s)
	Next    int64     `json:"next"` // the seq of the newest entry (-1: none yet)
	Dropped int       `json:"dropped"`
	Entries []LogLine `json:"entries"`
}

// Add appends a frame's log.
func (l *EventLog) Add(f *frame.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f.Rev != l.rev {
		l.rev = f.Rev
		l.ring = l.ring[:0]
		l.dropped, l.received = 0, 0
	}
	a := f.A()
	// The frames' running total counts what was left out of them and what
	// was in frames this log never got (Hub.Publish drops for a full
	// listener rather than block).
	l.received += int64(len(a.Log))
	l.dropped = int(max(a.LogTotal-l.received, 0))
	for _, e := range a.Log {
		name := ""
		if e.Task >= 0 && e.Task < len(a.Tasks) {
			name = a.Tasks[e.Task].Name
		}
		l.ring = append(l.ring, LogLine{Seq: l.next, TMS: float64(e.T) / 1e6, Kind: e.Kind, Cause: e.Cause,
			Task: name, TaskID: e.Task, CPU: e.CPU, From: e.From, Text: e.Text})
		l.next++
	}
	if n := len(l.ring); n > LogKeep {
		l.ring = append(l.ring[:0], l.ring[n-LogKeep:]...)
	}
}

// Since returns the entries newer than seq (all kept ones for seq < 0).
func (l *EventLog) Since(seq int64) LogPage {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := LogPage{Rev: strconv.FormatInt(l.rev, 10), Next: l.next - 1, Dropped: l.dropped, Entries: []LogLine{}}
	for _, e := range l.ring {
		if e.Seq > seq {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}
