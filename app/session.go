// Package app sits between the simulator and the browser front end: it
// plays one scenario in wall-clock time, turns each frame's progress into a
// read-only Frame, and fans frames out to the consumers (canvas, page
// panels, link updater) through a Hub.
//
// The simulator stays synchronous and deterministic: only Session calls it,
// under a mutex, from the frame loop or from a page API call. Wall-clock
// time exists only here (how much simulated time a frame may advance, how
// long that took); nothing of it reaches the simulator.
//
// Phase order within one frame (Session.Tick):
//
//  1. advance: if playing, run the simulator until now + speed × wall dt,
//     in chunks, stopping early when the frame's work budget is spent;
//  2. collect: take the recorded events, keep those that move a task
//     between CPUs (the glides), and take a fresh snapshot;
//  3. publish: the returned Frame is the caller's to Broadcast; the
//     snapshot and event slices in it are never touched again by Session.
package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"schedplay/render"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Speed limits, in simulated seconds per wall-clock second.
const (
	// DefaultSpeed plays 1 ms of simulated time per second: a tbench message
	// (tens of microseconds) is a few video frames, so a 1:1 pair is seen
	// walking from CPU to CPU.
	DefaultSpeed = 1e-3
	MinSpeed     = 1e-6
	MaxSpeed     = 10
	// maxFrameDt caps the wall time one frame accounts for: after the tab
	// was hidden for a minute the simulation resumes, it does not jump.
	maxFrameDt = 250 * time.Millisecond
	// DefaultBudget is the wall time a frame may spend advancing the
	// simulator; what does not fit is dropped (sim_rtf shows the real pace).
	DefaultBudget = 8 * time.Millisecond
	// chunks is how many RunUntil calls one frame's advance is split into,
	// so that the budget is checked between them.
	chunks = 8
	// maxMovesPerFrame bounds the glides one frame can start.
	maxMovesPerFrame = 2 * render.MaxGlides
	// metricsEvery is how often a frame carries fresh metrics (they sort
	// latency samples: not every frame).
	metricsEvery = 250 * time.Millisecond
)

// Session plays one scenario. All methods are safe for concurrent use.
type Session struct {
	mu      sync.Mutex
	scen    *scenarios.Scenario
	sim     *sim.Sim
	topo    *sim.Topology
	tasks   []sim.TaskInfo
	idle    []sim.IdleState
	rev     int64
	link    string // share-link fragment of scen ("s=...")
	linkRev int64  // rev whose change the link updater should write to the URL (0: none)
	playing bool
	speed   float64
	budget  time.Duration
	lastErr string

	seq         uint64
	evbuf       []sim.Event
	moves       []sim.Event // moves taken by Step, handed to the next frame
	wall        time.Duration
	lastMetrics time.Time
	meter       Meter
}

// NewSession returns a session with nothing loaded.
func NewSession() *Session {
	return &Session{speed: DefaultSpeed, budget: DefaultBudget, playing: true}
}

// Load replaces the scenario with sc (restarting at t=0). On error the old
// scenario keeps playing and the error is returned; the last error text is
// cleared on success. userChange says whether the change came from the user
// (loadScenario, set): then the page URL is updated to the new share link.
func (s *Session) Load(sc *scenarios.Scenario, userChange bool) error {
	cfg, err := sc.Config()
	if err != nil {
		return s.fail(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		return s.fail(err)
	}
	sm.SetRecording(true)
	link := scenarios.EncodeLink(sc)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scen, s.sim = sc, sm
	s.topo, s.tasks = sm.Topology(), sm.Tasks()
	s.idle = sm.Costs().IdleStates
	s.rev++
	s.link = link
	if userChange {
		s.linkRev = s.rev
	}
	s.moves = s.moves[:0]
	s.wall = 0
	s.lastErr = ""
	s.lastMetrics = time.Time{}
	return nil
}

// LoadJSON decodes a scenario file and loads it (a user change).
func (s *Session) LoadJSON(data []byte) error {
	if len(data) > scenarios.MaxScenarioBytes {
		return s.fail(fmt.Errorf("scenario is %d bytes; the limit is %d", len(data), scenarios.MaxScenarioBytes))
	}
	sc, err := scenarios.Decode(data)
	if err != nil {
		return s.fail(err)
	}
	return s.Load(sc, true)
}

// LoadLink decodes a share link (URL, "#s=..." or "s=...") and loads it.
func (s *Session) LoadLink(link string) error {
	sc, err := scenarios.DecodeLink(link)
	if err != nil {
		return s.fail(fmt.Errorf("share link: %w", err))
	}
	return s.Load(sc, false)
}

// LoadPreset loads a preset by name (a user change when user is true).
func (s *Session) LoadPreset(name string, user bool) error {
	sc, err := scenarios.Preset(name)
	if err != nil {
		return s.fail(err)
	}
	return s.Load(sc, user)
}

// Set changes one field of the scenario by path ("policy.select_idle_sibling",
// "tasks.client.count") and restarts it.
func (s *Session) Set(path, value string) error {
	s.mu.Lock()
	if s.scen == nil {
		s.mu.Unlock()
		return s.fail(errors.New("no scenario loaded"))
	}
	c := s.scen.Clone()
	s.mu.Unlock()
	if err := c.Set(path, value); err != nil {
		return s.fail(err)
	}
	return s.Load(c, true)
}

func (s *Session) fail(err error) error {
	s.SetError(err.Error())
	return err
}

// SetError sets the text error() reports (and the page shows).
func (s *Session) SetError(text string) {
	s.mu.Lock()
	s.lastErr = text
	s.mu.Unlock()
}

// Error is the last error text, "" if the last load succeeded.
func (s *Session) Error() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// Scenario returns the canonical JSON of the loaded scenario.
func (s *Session) Scenario() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scen == nil {
		return nil
	}
	return s.scen.Canonical()
}

// Link returns the share-link fragment ("s=...") of the loaded scenario.
func (s *Session) Link() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.link
}

// Info is the loaded scenario's title and description.
func (s *Session) Info() (title, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scen == nil {
		return "", ""
	}
	return s.scen.Title, s.scen.Description
}

// Play resumes; at the end of the run it restarts the scenario.
func (s *Session) Play() {
	s.mu.Lock()
	if s.sim != nil && s.sim.Done() && s.scen != nil {
		sc := s.scen
		s.mu.Unlock()
		if s.Load(sc, false) != nil {
			return
		}
		s.mu.Lock()
	}
	s.playing = true
	s.mu.Unlock()
}

// Pause stops the clock; Step still works.
func (s *Session) Pause() {
	s.mu.Lock()
	s.playing = false
	s.mu.Unlock()
}

// Playing reports whether the clock runs.
func (s *Session) Playing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.playing
}

// SetSpeed sets simulated seconds per wall-clock second (1 = real time).
func (s *Session) SetSpeed(x float64) error {
	if math.IsNaN(x) || x < MinSpeed || x > MaxSpeed {
		return s.fail(fmt.Errorf("speed %g: must be between %g and %g simulated seconds per second", x, float64(MinSpeed), float64(MaxSpeed)))
	}
	s.mu.Lock()
	s.speed = x
	s.mu.Unlock()
	return nil
}

// Speed is the current speed.
func (s *Session) Speed() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.speed
}

// SetBudget sets the wall time a frame may spend in the simulator.
func (s *Session) SetBudget(d time.Duration) {
	s.mu.Lock()
	s.budget = d
	s.mu.Unlock()
}

// MaxStep bounds one Step call, in simulated time.
const MaxStep = 10 * time.Second

// Step pauses and advances simulated time by d (at most MaxStep, and not
// past the end of the run). It returns the new simulated time in ns.
func (s *Session) Step(d time.Duration) (int64, error) {
	if d <= 0 || d > MaxStep {
		return 0, s.fail(fmt.Errorf("step %v: must be more than 0 and at most %v", d, MaxStep))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.playing = false
	if s.sim == nil {
		return 0, nil
	}
	start := time.Now()
	s.runUntil(s.sim.Now() + int64(d))
	s.wall += time.Since(start)
	s.collectMoves()
	return s.sim.Now(), nil
}

// runUntil advances to t, not past the configured duration.
func (s *Session) runUntil(t int64) {
	if end := s.sim.Config().Duration; t > end {
		t = end
	}
	if t > s.sim.Now() {
		s.sim.RunUntil(t)
	}
}

// collectMoves takes the recorded events and keeps the newest moves.
func (s *Session) collectMoves() {
	s.evbuf = s.sim.TakeEvents(s.evbuf[:0])
	for i := range s.evbuf {
		if render.Moves(&s.evbuf[i]) {
			s.moves = append(s.moves, s.evbuf[i])
		}
	}
	if n := len(s.moves); n > maxMovesPerFrame {
		s.moves = append(s.moves[:0], s.moves[n-maxMovesPerFrame:]...)
	}
	// Do not keep a burst's worth of events alive between frames.
	if cap(s.evbuf) > 1<<16 {
		s.evbuf = nil
	}
}

// Tick is one frame: advance by the wall time dt since the previous frame
// (when playing), collect, and return the Frame to publish. now is the
// frame's wall-clock time (for metrics pacing and the meter).
func (s *Session) Tick(now time.Time, dt time.Duration) *Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sim == nil {
		return nil
	}
	dt = min(max(dt, 0), maxFrameDt)
	before := s.sim.Now()
	var work time.Duration
	if s.playing {
		start := time.Now()
		target := before + int64(float64(dt)*s.speed)
		step := max((target-before)/chunks, 1)
		for t := before; t < target && !s.sim.Done(); {
			t = min(t+step, target)
			s.runUntil(t)
			if time.Since(start) > s.budget {
				break
			}
		}
		work = time.Since(start)
		s.wall += work
		if s.sim.Done() {
			s.playing = false
		}
	}
	s.collectMoves()
	s.meter.Frame(now, dt, s.sim.Now()-before, work)

	s.seq++
	f := &Frame{
		Seq:         s.seq,
		Rev:         s.rev,
		Topology:    s.topo,
		Tasks:       s.tasks,
		IdleStates:  s.idle,
		Snap:        s.snapshot(),
		Moves:       append([]sim.Event(nil), s.moves...),
		Now:         s.sim.Now(),
		Duration:    s.sim.Config().Duration,
		Playing:     s.playing,
		Speed:       s.speed,
		Title:       s.scen.Title,
		Description: s.scen.Description,
		Err:         s.lastErr,
		Stats:       s.meter.Stats(),
	}
	if n := len(s.moves); n > 0 {
		f.LastMove = s.sim.Explain(s.moves[n-1])
	}
	s.moves = s.moves[:0]
	if s.linkRev == s.rev {
		f.Link = s.link
	}
	if now.Sub(s.lastMetrics) >= metricsEvery || !s.playing {
		m := s.metricsLocked()
		f.Metrics = &m
		s.lastMetrics = now
	}
	return f
}

// snapshot returns a fresh snapshot whose queues share one backing array.
func (s *Session) snapshot() *sim.Snapshot {
	var tmp sim.Snapshot
	s.sim.SnapshotInto(&tmp)
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

func (s *Session) metricsLocked() sim.Metrics {
	m := s.sim.Metrics()
	m.Title = s.scen.Title
	m.WallMS = float64(s.wall) / float64(time.Millisecond)
	return m
}

// Metrics returns the run's metrics so far, with the CLI's JSON keys.
func (s *Session) Metrics() (sim.Metrics, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sim == nil {
		return sim.Metrics{}, false
	}
	return s.metricsLocked(), true
}

// MetricsJSON is Metrics marshalled as the CLI's -json output.
func (s *Session) MetricsJSON() ([]byte, error) {
	m, ok := s.Metrics()
	if !ok {
		return nil, errors.New("no scenario loaded")
	}
	return json.Marshal(m)
}

// Stats are the front end's own numbers.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meter.Stats()
}

// DrawTime adds the wall time the front end spent drawing the last frame.
func (s *Session) DrawTime(d time.Duration) {
	s.mu.Lock()
	s.meter.Draw(d)
	s.mu.Unlock()
}

// Explain is the one-line explanation of a move event, with its decision.
func (s *Session) Explain(e sim.Event) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sim == nil {
		return ""
	}
	return s.sim.Explain(e)
}
