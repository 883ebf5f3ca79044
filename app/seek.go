package app

import (
	"errors"
	"fmt"
	"math"

	"schedplay/frame"
	"schedplay/sim"
)

// Seeking: every player keeps a sim.Timeline, a checkpoint of its whole
// simulator every CheckpointInterval of simulated time, taken as the run
// first reaches that time. Seek(t) restores the newest checkpoint at or
// before t (or, when no checkpoint lies between the current time and a
// later t, keeps the running simulator) and re-simulates to t: at most one
// checkpoint interval of simulated time, and the state is then exactly a
// fresh run's at t (the trace hash and the metrics included).
//
// After a restore the charts start again at the checkpoint (the samples
// between the checkpoint and t); the event log keeps what it showed.
// The timeline's marks (migrations by cause, per bin of the run's duration)
// are counted once, as the run first simulates each event.

// CheckpointBudget is the checkpoint memory of a session: one side has it
// all, with A/B on each side half. A Timeline doubles its interval when its
// checkpoints outgrow its share (the 256-CPU machine's checkpoint is about
// 2.7 MB: TestCheckpointMemory256).
const CheckpointBudget = 48 << 20

// budgetFor is a side's share of CheckpointBudget.
func budgetFor(ab bool) int64 {
	if ab {
		return CheckpointBudget / 2
	}
	return CheckpointBudget
}

// MarkBins is the number of bins the timeline's marks cut the run into.
const MarkBins = 400

// MaxSeekWork bounds the simulator work one Seek (or migration search) may
// do past what was already simulated: a seek far beyond the furthest time
// played simulates forward, and stops short (saying so) after this much:
// four times a Step's (MaxCallWork), a few seconds of wasm on a loaded
// machine. Re-simulating from a checkpoint (less than one interval of
// time already simulated) is not bounded by it.
const MaxSeekWork = 20_000_000

// CheckpointInterval is the checkpoint interval of a run of duration d:
// d/100 rounded down to 1, 2 or 5 times a power of ten, at least 1 µs.
func CheckpointInterval(d int64) int64 {
	x := max(d/100, 1000)
	p := int64(1)
	for p*10 <= x {
		p *= 10
	}
	switch {
	case x >= 5*p:
		return 5 * p
	case x >= 2*p:
		return 2 * p
	}
	return p
}

// seekStats and TimelineInfo are frame's (the worker sends them to the page).
type (
	seekStats    = frame.SeekStats
	TimelineInfo = frame.Timeline
)

// restore puts the player at checkpoint ck: a new simulator, the charts
// restarted there, no glides in flight.
func (p *player) restore(ck *sim.Checkpoint) {
	p.sim = ck.Restore()
	p.restartSeries()
}

// restartSeries forgets the events taken and not yet used and starts the
// charts again at the simulator's time.
func (p *player) restartSeries() {
	p.sim.TakeEvents(nil)
	p.evbuf = p.evbuf[:0]
	p.moves = p.moves[:0]
	p.examined = p.examined[:0]
	p.tasks = p.sim.Tasks()
	sp := &p.series
	iv := sp.interval
	sp.reset(len(p.tasks), iv)
	now := p.sim.Now()
	sp.next = (now/iv + 1) * iv
	p.sim.SnapshotInto(&sp.tmp)
	for i := range sp.tmp.Tasks {
		sp.ops += sp.tmp.Tasks[i].Ops
	}
}

// mark counts the migrations among the events just taken (evs are the
// newest len(evs) events the simulator emitted) that no earlier pass
// counted.
func (p *player) mark(evs []sim.Event) {
	first := p.sim.Events() - int64(len(evs))
	dur := p.sim.Config().Duration
	for i := range evs {
		if first+int64(i) < p.marked {
			continue
		}
		e := &evs[i]
		// What the metrics count as migrations: EvMigrate, and a fork
		// placed away from its parent.
		if e.Kind != sim.EvMigrate && (e.Kind != sim.EvFork || e.From < 0 || e.From == e.CPU) {
			continue
		}
		c := frame.MoveCause(e)
		if c >= sim.NumCauses {
			continue
		}
		b := int(min(e.T*MarkBins/max(dur, 1), MarkBins-1))
		p.marks[c][b]++
	}
	p.marked = max(p.marked, p.sim.Events())
}

// seek moves the player to simulated time t (within the run).
func (p *player) seek(t int64) seekStats {
	from := p.now()
	st := seekStats{FromMS: ms(from), ToMS: ms(t), RestoredMS: -1}
	if ck := p.tl.At(t); t < from || ck.Time() > from {
		p.restore(ck)
		st.RestoredMS = ms(ck.Time())
	}
	start, ev0, frontier := p.now(), p.sim.Events(), p.frontier
	// The charts hold the last frame.SeriesLen samples: what lies before
	// them (and was simulated before, so has its marks and checkpoints)
	// is run without sampling.
	if iv := p.series.interval; iv > 0 {
		skip := min(t-frame.SeriesLen*iv, frontier) / iv * iv
		if skip > p.now() {
			p.sim.RunUntil(skip)
			p.restartSeries()
		}
	}
	if t > frontier {
		// Only what goes past the furthest time simulated is bounded.
		p.workLimit = p.sim.Work() + MaxSeekWork
	}
	p.advance(t, false)
	p.workLimit = 0
	st.Short = p.now() < t
	st.ResimMS = ms(max(min(p.now(), frontier)-start, 0))
	st.NewMS = ms(max(p.now()-max(frontier, start), 0))
	st.ResimEvents = p.sim.Events() - ev0
	return st
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// Seek pauses and moves to simulated time ms (clamped to the run), side B
// to the same time; it returns the new simulated time in ms. After it,
// Metrics (the trace hash included) is a fresh run's at that time.
func (s *Session) Seek(msec float64) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seekLocked(int64(math.Round(msec * 1e6)))
}

func (s *Session) seekLocked(t int64) (float64, error) {
	s.playing = false
	if s.a == nil {
		return 0, errors.New("no scenario loaded")
	}
	t = min(max(t, 0), s.a.sim.Config().Duration)
	if s.shadow {
		s.shownNS = t
		return ms(t), nil
	}
	st := s.a.seek(t)
	if s.b != nil {
		s.b.seek(s.a.now())
	}
	s.noteSeek(st)
	if st.Short {
		s.lastErr = fmt.Sprintf("seek stopped at %.3f ms, short of %.3f ms: one seek simulates at most %d work units past the furthest time played; seek again to go on",
			ms(s.a.now()), ms(t), int64(MaxSeekWork))
	}
	s.limitLocked()
	return ms(s.a.now()), nil
}

func (s *Session) noteSeek(st seekStats) {
	s.seeks++
	s.lastSeek = st
	s.maxResimMS = max(s.maxResimMS, st.ResimMS)
	s.maxResimEvents = max(s.maxResimEvents, st.ResimEvents)
}

// StepBack pauses and seeks back by d of simulated time (← key).
func (s *Session) StepBack(d int64) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return 0, errors.New("no scenario loaded")
	}
	return s.seekLocked(s.nowLocked() - max(d, 1))
}

// errNoMigration: no migration lies in the direction asked.
var errNoMigration = errors.New("no migration there")

// SeekMigration pauses at the next migration (dir > 0: right after the
// first EvMigrate after now, with the rest of its instant simulated) or
// the previous one (dir < 0: the newest EvMigrate before now); it returns
// the new time in ms.
func (s *Session) SeekMigration(dir int) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return 0, errors.New("no scenario loaded")
	}
	if s.shadow {
		return ms(s.shownNS), nil // the session that plays finds it
	}
	p := s.a
	if dir > 0 {
		t, ok := p.findMigration(p.now())
		if !ok {
			return ms(p.now()), s.failLocked(fmt.Errorf("next migration: none after %.3f ms within %d work units", ms(p.now()), int64(MaxSeekWork)))
		}
		return s.seekLocked(t)
	}
	hi := p.now()
	for {
		ck := p.tl.At(hi - 1)
		if hi <= 0 {
			break
		}
		if t, ok := lastMigration(ck, hi); ok {
			return s.seekLocked(t)
		}
		if ck.Time() == 0 {
			break
		}
		hi = ck.Time()
	}
	return ms(p.now()), s.failLocked(fmt.Errorf("previous migration: %w before %.3f ms", errNoMigration, ms(p.now())))
}

func (s *Session) failLocked(err error) error {
	s.lastErr = err.Error()
	return err
}

// findMigration is the time of the first EvMigrate after time after,
// found on a copy (the player is not moved).
func (p *player) findMigration(after int64) (int64, bool) {
	c := p.sim.Clone()
	c.TakeEvents(nil)
	limit := c.Work() + MaxSeekWork
	var evs []sim.Event
	for c.Step() && c.Work() < limit {
		evs = c.TakeEvents(evs[:0])
		for i := range evs {
			if evs[i].Kind == sim.EvMigrate && evs[i].T > after {
				return evs[i].T, true
			}
		}
	}
	return 0, false
}

// lastMigration is the time of the newest EvMigrate before hi, simulated
// from ck (at most one checkpoint interval).
func lastMigration(ck *sim.Checkpoint, hi int64) (int64, bool) {
	c := ck.Restore()
	c.SetRecording(true)
	c.TakeEvents(nil)
	last := int64(-1)
	var evs []sim.Event
	for {
		nt := c.NextEventTime()
		if nt < 0 || nt >= hi || !c.Step() {
			break
		}
		evs = c.TakeEvents(evs[:0])
		for i := range evs {
			if evs[i].Kind == sim.EvMigrate && evs[i].T < hi {
				last = evs[i].T
			}
		}
	}
	return last, last >= 0
}

// presentLocked puts the timeline and the chapters into a frame.
func (s *Session) presentLocked(f *frame.Frame) {
	if ti, ok := s.timelineLocked(); ok {
		f.Timeline = &ti
	}
	ci := s.chaptersLocked()
	f.Chapters = &ci
}

// SetShadow makes s a mirror of a session that plays elsewhere (the page's
// main thread mirrors the worker's): Seek, SeekMigration and a chapter's
// time then simulate nothing (the other session does); NoteTime tells s
// the time the other one shows, for View and RecordChapter.
func (s *Session) SetShadow() {
	s.mu.Lock()
	s.shadow = true
	s.mu.Unlock()
}

// NoteTime records the simulated time the mirrored session shows.
func (s *Session) NoteTime(ns int64) {
	s.mu.Lock()
	s.shownNS = ns
	s.mu.Unlock()
}

// nowLocked is the time shown: the simulator's, or a shadow's noted one.
func (s *Session) nowLocked() int64 {
	if s.shadow {
		return s.shownNS
	}
	if s.a == nil {
		return 0
	}
	return s.a.now()
}

// Timeline returns what the scrubber draws: the time, the run's extent, the
// checkpoints and the marks of side A.
func (s *Session) Timeline() (TimelineInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.timelineLocked()
}

func (s *Session) timelineLocked() (TimelineInfo, bool) {
	if s.a == nil {
		return TimelineInfo{}, false
	}
	p := s.a
	ti := TimelineInfo{
		NowMS: ms(p.now()), DurationMS: ms(p.sim.Config().Duration), FrontierMS: ms(p.frontier),
		Seeks: s.seeks, LastSeek: s.lastSeek, MaxResimMS: s.maxResimMS, MaxResimEvent: s.maxResimEvents,
	}
	if p.tl != nil {
		ti.IntervalMS, ti.Checkpoints, ti.CheckpointMB = ms(p.tl.Interval()), p.tl.Len(), float64(p.tl.Bytes())/(1<<20)
	}
	for c := sim.Cause(0); c < sim.NumCauses; c++ {
		ti.Causes = append(ti.Causes, c.String())
		ti.Marks = append(ti.Marks, append([]int32(nil), p.marks[c][:]...))
	}
	ti.MarksRev = p.marked
	return ti, true
}
