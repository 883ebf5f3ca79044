package app

import (
	"schedplay/frame"
	"schedplay/scenarios"
	"schedplay/sim"
)

// player runs one side of the session (A, or B of an A/B comparison): one
// simulator, and what frames need from it between two frames: the moves
// (glides), the event log and the time series.
type player struct {
	scen  *scenarios.Scenario
	sim   *sim.Sim
	topo  *sim.Topology
	tasks []sim.TaskInfo
	idle  []sim.IdleState

	evbuf    []sim.Event
	moves    []sim.Event   // moves since the last frame (the newest maxMovesPerFrame)
	examined []sim.CPUMask // parallel to moves
	log      logBuf
	logTotal int64 // log events handed to frames so far, kept or dropped (frame.Side.LogTotal)
	// workLimit, when > 0, makes advance go one event at a time and stop
	// (reporting true) once the simulator's Work reaches it: Session.Step's
	// bound on one call, exact even when one instant holds much work.
	workLimit int64
	series    sampler

	// Seeking (seek.go): the checkpoints, the furthest time simulated, and
	// the timeline's marks of migrations by cause, counted up to event
	// number marked.
	tl       *sim.Timeline
	frontier int64
	marks    [sim.NumCauses][MarkBins]int32
	marked   int64
}

// playerMaxWork is the work budget of the page's simulators (0:
// sim.DefaultMaxWork, the CLI's default too, so both stop at the same
// event); tests lower it.
var playerMaxWork int64

// newPlayer starts a player of sc. A shadow session's players (light)
// never run: they keep no decision ring (sim.SetRecording allocates
// 16384 decisions, 5 MB, which on the page's main thread cost a long task
// per load in wasm).
func newPlayer(sc *scenarios.Scenario, interval int64, light bool) (*player, error) {
	cfg, err := sc.Config()
	if err != nil {
		return nil, err
	}
	cfg.MaxWork = playerMaxWork
	sm, err := sim.New(cfg)
	if err != nil {
		return nil, err
	}
	sm.SetRecording(!light)
	p := &player{scen: sc, sim: sm, topo: sm.Topology(), tasks: sm.Tasks(), idle: sm.Costs().IdleStates}
	p.series.reset(len(p.tasks), interval)
	if !light {
		// A light player never runs, seeks or resolves a chapter's anchor
		// (the session that plays does, elsewhere), so it has no
		// timeline: the first checkpoint is a copy of the whole simulator,
		// 50 ms of the page's main thread for a 64-group import.
		p.tl = sim.NewTimeline(sm, CheckpointInterval(cfg.Duration), CheckpointBudget)
	}
	return p, nil
}

// setBudget sets the checkpoints' memory budget (one side, or each of A
// and B); a light player has none to set.
func (p *player) setBudget(ab bool) {
	if p.tl != nil {
		p.tl.SetBudget(budgetFor(ab))
	}
}

func (p *player) now() int64 { return p.sim.Now() }

func (p *player) done() bool { return p.sim.Done() }

// advance runs the simulator to t (not past the run's duration), closing
// samples at their interval boundaries on the way. With stopAtMigrate it
// goes one simulator event at a time and stops right after the first event
// that emits an EvMigrate; it reports whether it stopped so.
func (p *player) advance(t int64, stopAtMigrate bool) bool {
	if end := p.sim.Config().Duration; t > end {
		t = end
	}
	for {
		ck := p.tl.Next(p.sim.Now())
		next := min(t, p.series.next, ck)
		if stopAtMigrate || p.workLimit > 0 {
			if p.stepUntil(next, stopAtMigrate) {
				p.collect()
				return true
			}
		} else if next >= p.sim.Now() {
			p.sim.RunUntil(next)
		}
		p.frontier = max(p.frontier, p.sim.Now())
		if p.sim.Err() != nil {
			return false // a budget stopped the run: no more samples at a stuck clock
		}
		atCk := next == ck && p.sim.Now() == ck
		if atCk {
			p.collect() // the checkpoint holds no recorded events
			p.tl.Observe(p.sim)
		}
		if next == p.series.next && p.series.next <= t {
			p.collect()
			p.series.sample(p.sim, p.sim.Now())
			p.series.next += p.series.interval
			continue
		}
		if atCk && ck < t {
			continue
		}
		return false
	}
}

// stepUntil processes events up to t one at a time; it stops (reporting
// true) after the first that emitted a migration when migrate is set, or
// when the work reaches workLimit (> 0); otherwise it advances the clock to
// t.
func (p *player) stepUntil(t int64, migrate bool) bool {
	for {
		nt := p.sim.NextEventTime()
		if nt < 0 || nt > t {
			break
		}
		if p.workLimit > 0 && p.sim.Work() >= p.workLimit {
			return true
		}
		n := len(p.evbuf)
		more := p.sim.Step()
		p.evbuf = p.sim.TakeEvents(p.evbuf)
		for i := n; migrate && i < len(p.evbuf); i++ {
			if p.evbuf[i].Kind == sim.EvMigrate {
				return true
			}
		}
		if !more {
			return false // a budget stopped the run (sim.Err); the clock stays
		}
	}
	if t > p.sim.Now() {
		p.sim.RunUntil(t)
	}
	return false
}

// collect takes the recorded events: moves for the glides, the log, and the
// series' counters.
func (p *player) collect() {
	p.evbuf = p.sim.TakeEvents(p.evbuf)
	p.mark(p.evbuf)
	for i := range p.evbuf {
		e := &p.evbuf[i]
		p.series.event(e, p.topo)
		p.log.add(e)
		if frame.Moves(e) {
			var ex sim.CPUMask
			if d, ok := p.sim.Decision(e.Why); ok {
				ex = d.Examined
			}
			p.moves = append(p.moves, *e)
			p.examined = append(p.examined, ex)
		}
	}
	if n := len(p.moves); n > maxMovesPerFrame {
		p.moves = append(p.moves[:0], p.moves[n-maxMovesPerFrame:]...)
		p.examined = append(p.examined[:0], p.examined[n-maxMovesPerFrame:]...)
	}
	p.evbuf = p.evbuf[:0]
	// Do not keep a burst's worth of events alive between frames.
	if cap(p.evbuf) > 1<<16 {
		p.evbuf = nil
	}
}

// snapshot returns a fresh snapshot whose queues share one backing array.
func (p *player) snapshot() *sim.Snapshot {
	var tmp sim.Snapshot
	p.sim.SnapshotInto(&tmp)
	n := 0
	for i := range tmp.CPUs {
		n += len(tmp.CPUs[i].Queue)
	}
	q := make([]int32, 0, n)
	for i := range tmp.CPUs {
		c := &tmp.CPUs[i]
		start := len(q)
		q = append(q, c.Queue...)
		c.Queue = q[start:len(q):len(q)]
	}
	return &tmp
}

// frameOut is what a frame takes from a player: the moves and log since the
// previous frame (the player forgets them) and a fresh snapshot.
type frameOut struct {
	snap       *sim.Snapshot
	moves      []sim.Event
	examined   []sim.CPUMask
	lastMove   string
	log        []frame.LogEntry
	logDropped int
	logTotal   int64
	series     *frame.Series
}

func (p *player) take() frameOut {
	p.collect()
	// Fork steps add task slots as the run goes (sim.Tasks grows): frames
	// carry the current list, so the log names forked tasks.
	p.tasks = p.sim.Tasks()
	out := frameOut{
		snap:     p.snapshot(),
		moves:    append([]sim.Event(nil), p.moves...),
		examined: append([]sim.CPUMask(nil), p.examined...),
		series:   p.series.view(),
	}
	if n := len(p.moves); n > 0 {
		out.lastMove = p.sim.Explain(p.moves[n-1])
	}
	var evs []sim.Event
	evs, out.logDropped = p.log.take(nil)
	p.logTotal += int64(len(evs) + out.logDropped)
	out.logTotal = p.logTotal
	if len(evs) > 0 {
		out.log = make([]frame.LogEntry, len(evs))
		for i := range evs {
			out.log[i] = entry(p.sim, &evs[i])
		}
	}
	p.moves = p.moves[:0]
	p.examined = p.examined[:0]
	return out
}

// firstMigration is the first EvMigrate of moves, for a pause on it.
func firstMigration(moves []sim.Event) (sim.Event, bool) {
	for _, e := range moves {
		if e.Kind == sim.EvMigrate {
			return e, true
		}
	}
	return sim.Event{}, false
}
