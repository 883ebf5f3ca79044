// Package wire carries frames from the page's simulator worker to its main
// thread: the worker (cmd/wasm, worker.go) runs the app.Session and posts
// one message per frame; the main thread decodes it and publishes the
// frame.Frame to the canvas and the panels as if the session were local.
//
// A message is one Msg in the encoding of codec.go (postMessage keeps their
// order: one Encoder on the worker, one Decoder on the main thread). What
// every frame of a revision shares goes only when it changed: the topology, the task list (forks make it grow), the idle
// states and the time series (only the samples the main thread does not
// have yet). The decoder rebuilds them, so a decoded frame is the frame
// that was encoded (TestRoundTrip), with the same sharing rules: a side's
// Series pointer stays the same while no sample was added.
package wire

import (
	"fmt"

	"schedplay/frame"
	"schedplay/sim"
)

// Msg is one message from the worker.
type Msg struct {
	// Applied is the sequence number of the last page API call the worker
	// has applied (the main thread numbers its calls): frame values are
	// the page's state once Applied reaches the last call made.
	Applied uint64
	// FastForward: the worker runs the scenario to its end as fast as it
	// can (schedplay.runToEnd), FFDone: that run finished.
	FastForward, FFDone bool
	// FFStop says why a run to the end stopped short ("" when it
	// reached the end, or a limit stopped it: then Frame.Err says so).
	FFStop string
	// FFWallMS and FFSimMS: with FFDone, the wall time the run to the end
	// took in the worker and the simulated time it covered (side A).
	FFWallMS, FFSimMS float64
	// WorkMS is the wall time the worker spent simulating since the
	// previous message, SimNS the simulated time it advanced side A.
	WorkMS float64
	SimNS  int64
	// Step is the simulated time (ns) a step call (Applied) reached; -1
	// when Applied is no step.
	Step  int64
	Frame *frame.Frame // shared parts left out (Sides[i] below)
	Sides [2]sideExtra
}

// sideExtra is what a side's frame shares with the frames before it, sent
// only when it changed.
type sideExtra struct {
	Topology   *sim.Topology
	Tasks      []sim.TaskInfo
	TasksSent  bool
	IdleStates []sim.IdleState
	IdleSent   bool
	// Series: Reset starts the series over with Samples; else Samples are
	// appended to the ones sent before. Keep says the Series is the one of
	// the previous frame (no new sample, same interval).
	Samples  []*frame.Sample
	Reset    bool
	Keep     bool
	Interval int64
	Len      int // samples in the series after the change
}

// Encoder turns frames into messages (the worker side).
type Encoder struct {
	buf []byte
	// per side: what the decoder has
	topo   [2]*sim.Topology
	tasks  [2][]sim.TaskInfo
	idle   [2][]sim.IdleState
	series [2]*frame.Series
	sent   [2]bool
}

// NewEncoder returns an encoder at the start of a stream.
func NewEncoder() *Encoder {
	return &Encoder{}
}

// Encode returns the bytes of m (valid until the next Encode). m.Frame is
// not changed.
func (e *Encoder) Encode(m Msg) ([]byte, error) {
	if m.Frame != nil {
		f := *m.Frame // shallow: the frame itself is read-only
		n := 1
		if f.AB {
			n = 2
		}
		for i := 0; i < 2; i++ {
			sd := &f.Sides[i]
			x := &m.Sides[i]
			if i >= n {
				e.sent[i] = false // B starts over when A/B is on again
				continue
			}
			if !e.sent[i] || sd.Topology != e.topo[i] {
				x.Topology = sd.Topology
				e.topo[i] = sd.Topology
			}
			if !e.sent[i] || !sameTasks(sd.Tasks, e.tasks[i]) {
				x.Tasks, x.TasksSent = sd.Tasks, true
				e.tasks[i] = sd.Tasks
			}
			if !e.sent[i] || !sameIdle(sd.IdleStates, e.idle[i]) {
				x.IdleStates, x.IdleSent = sd.IdleStates, true
				e.idle[i] = sd.IdleStates
			}
			e.seriesDelta(i, sd.Series, x)
			e.sent[i] = true
			sd.Topology, sd.Tasks, sd.IdleStates, sd.Series = nil, nil, nil, nil
		}
		m.Frame = &f
	}
	b, err := marshal(e.buf[:0], &m)
	if err != nil {
		return nil, err
	}
	e.buf = b
	return b, nil
}

// seriesDelta fills x with what turns the decoder's series into s.
func (e *Encoder) seriesDelta(i int, s *frame.Series, x *sideExtra) {
	old := e.series[i]
	e.series[i] = s
	if s == nil {
		x.Reset = true
		return
	}
	x.Interval, x.Len = s.Interval, len(s.Samples)
	if e.sent[i] && s == old {
		x.Keep = true
		return
	}
	// The samples after the newest one the decoder has.
	if e.sent[i] && old != nil && len(old.Samples) > 0 {
		last := old.Samples[len(old.Samples)-1]
		for j := len(s.Samples) - 1; j >= 0; j-- {
			if s.Samples[j] == last {
				// The decoder keeps the same window: it trims to
				// len(s.Samples) after appending.
				x.Samples = s.Samples[j+1:]
				return
			}
		}
	}
	x.Reset = true
	x.Samples = s.Samples
}

func sameTasks(a, b []sim.TaskInfo) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameIdle(a, b []sim.IdleState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Decoder turns messages back into frames (the main thread's side).
type Decoder struct {
	topo  [2]*sim.Topology
	tasks [2][]sim.TaskInfo
	idle  [2][]sim.IdleState
	ser   [2]*frame.Series
}

// NewDecoder returns a decoder at the start of a stream.
func NewDecoder() *Decoder {
	return &Decoder{}
}

// Decode reads the next message; its Frame is complete (shared parts
// filled in) and m.Sides is cleared.
func (d *Decoder) Decode(b []byte) (*Msg, error) {
	var m Msg
	if err := unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	f := m.Frame
	if f == nil {
		return &m, nil
	}
	n := 1
	if f.AB {
		n = 2
	}
	for i := 0; i < n; i++ {
		x := &m.Sides[i]
		sd := &f.Sides[i]
		if x.Topology != nil {
			d.topo[i] = x.Topology
		}
		if x.TasksSent {
			d.tasks[i] = x.Tasks
		}
		if x.IdleSent {
			d.idle[i] = x.IdleStates
		}
		sd.Topology, sd.Tasks, sd.IdleStates = d.topo[i], d.tasks[i], d.idle[i]
		switch {
		case x.Keep:
		case x.Reset && x.Samples == nil && x.Interval == 0:
			d.ser[i] = nil
		default:
			var samples []*frame.Sample
			if !x.Reset && d.ser[i] != nil {
				samples = append(samples, d.ser[i].Samples...)
			}
			samples = append(samples, x.Samples...)
			if len(samples) > x.Len {
				samples = samples[len(samples)-x.Len:]
			}
			d.ser[i] = &frame.Series{Samples: samples, Interval: x.Interval}
		}
		sd.Series = d.ser[i]
	}
	m.Sides = [2]sideExtra{}
	return &m, nil
}
