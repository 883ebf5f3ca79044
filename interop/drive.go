package interop

import (
	"strconv"

	"schedplay/sim"
)

// DefaultInterval is the sampling period of counters (Perfetto counter
// tracks, CSV rows) when Options.Interval is 0: 1 ms of simulated time.
const DefaultInterval = int64(1_000_000)

// Options control an export run.
type Options struct {
	// Interval is the sampling period of counters in ns of simulated time;
	// 0 means DefaultInterval (1 ms).
	Interval int64
	// Until is the simulated time (ns) the export runs the simulator to; 0
	// means the scenario's duration. An export starts at the simulator's
	// current time, whatever it is.
	Until int64
	// Stop, when set, is asked every stopEvery simulator events; true ends
	// the run there (a wall-clock limit, an interrupt), as a simulator
	// budget does: the export covers the time simulated so far.
	Stop func() bool
}

// stopEvery is how many events run between two calls of Options.Stop.
const stopEvery = 1 << 12

func (o Options) interval() int64 {
	if o.Interval <= 0 {
		return DefaultInterval
	}
	return o.Interval
}

func (o Options) until(s *sim.Sim) int64 {
	if o.Until > 0 {
		return o.Until
	}
	return s.Config().Duration
}

// recorder consumes a run: every trace event in order, and a snapshot at
// the start, at every multiple of the interval and at the end.
type recorder interface {
	event(e *sim.Event)
	sample(snap *sim.Snapshot)
}

// drive runs s from its current time to opt's end. Events are taken after
// every simulator step, so each event's Decision is still in the
// simulator's ring when the recorder asks for it. Events recorded before
// the call (if recording was already on) are dropped: they belong to
// simulated time before the export starts.
//
// Stepping one event at a time and then RunUntil(t) is the same run as any
// other slicing (sim.RunUntil processes exactly the events due by t), so an
// export never changes the trace it records. A run that a budget stops
// (s.Err) or Options.Stop ends gets its last sample at that time.
func drive(s *sim.Sim, opt Options, r recorder) {
	s.SetRecording(true)
	evs := s.TakeEvents(nil)[:0]
	until, iv := opt.until(s), opt.interval()
	var snap sim.Snapshot
	s.SnapshotInto(&snap)
	r.sample(&snap)
	if s.Now() >= until {
		return
	}
	n := 0
	for next := (s.Now()/iv + 1) * iv; ; next += iv {
		t := min(next, until)
		stop := false
		for {
			nt := s.NextEventTime()
			if nt < 0 || nt > t {
				break
			}
			stop = !s.Step()
			evs = s.TakeEvents(evs[:0])
			for i := range evs {
				r.event(&evs[i])
			}
			if n++; n%stopEvery == 0 && opt.Stop != nil && opt.Stop() {
				stop = true
			}
			if stop {
				break
			}
		}
		if !stop {
			s.RunUntil(t)
		}
		s.SnapshotInto(&snap)
		r.sample(&snap)
		if stop || t >= until {
			return
		}
	}
}

// appendDecimal appends v/10^digits as a decimal number with the trailing
// zeros of its fraction dropped: appendDecimal(b, 1234567, 3) is "1234.567",
// appendDecimal(b, 2000, 3) is "2". v must be ≥ 0. Timestamps are written
// this way so that no float rounding ever touches them.
func appendDecimal(b []byte, v int64, digits int) []byte {
	var unit int64 = 1
	for range digits {
		unit *= 10
	}
	b = strconv.AppendInt(b, v/unit, 10)
	frac := v % unit
	if frac == 0 {
		return b
	}
	b = append(b, '.')
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], frac, 10)
	for range digits - len(s) {
		b = append(b, '0')
	}
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return append(b, s...)
}

// appendJSONString appends s as a JSON string. Control characters, quotes
// and backslashes are escaped; everything else (valid or not) is copied,
// with invalid UTF-8 replaced so the output stays valid JSON.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			b = append(b, '\\', 'u')
			h := strconv.FormatInt(int64(r), 16)
			for range 4 - len(h) {
				b = append(b, '0')
			}
			b = append(b, h...)
		default:
			b = append(b, string(r)...)
		}
	}
	return append(b, '"')
}
