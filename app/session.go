// Package app sits between the simulator and the browser front end: it
// plays one scenario in wall-clock time, turns each frame's progress into a
// read-only frame.Frame, and fans frames out to the consumers (canvas, page
// panels, link updater) through a Hub.
//
// The simulator stays synchronous and deterministic: only Session calls it,
// under a mutex, from the frame loop or from a page API call. Wall-clock
// time exists only here (how much simulated time a frame may advance, how
// long that took); nothing of it reaches the simulator.
//
// A/B: with compare sets on (SetCompare), a second simulator runs the same
// scenario and seed with the sets applied (side B); after every step of
// side A, B is run to the same simulated time, so both sides always show
// the same instant.
//
// Phase order within one frame (Session.Tick):
//
//  1. advance: if playing, run side A until now + speed × wall dt, in
//     chunks, stopping early when the frame's work budget is spent (or
//     right after a migration when the pause on the next migration is
//     armed); side B follows each chunk to A's time. On the way, each side
//     closes a time-series frame.Sample at every sample-interval boundary;
//  2. collect: take the recorded events: the moves (glides, with the CPUs
//     their decisions examined), the event log (bounded, explained in
//     words), the series counters; and take a fresh snapshot;
//  3. publish: the returned frame.Frame is the caller's to Broadcast; the
//     snapshot, event and log slices in it are never touched again by
//     Session, and frame.Series samples are immutable.
package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"schedplay/frame"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Speed limits, in simulated seconds per wall-clock second.
const (
	// DefaultSpeed plays 1 ms of simulated time per second: a tbench message
	// (tens of microseconds) is a few video frames, so a 1:1 pair is seen
	// walking from CPU to CPU.
	DefaultSpeed = 1e-3
	MinSpeed     = scenarios.MinSpeed
	MaxSpeed     = scenarios.MaxSpeed
	// maxFrameDt caps the wall time one frame accounts for: after the tab
	// was hidden for a minute the simulation resumes, it does not jump.
	maxFrameDt = 250 * time.Millisecond
	// DefaultBudget is the wall time a frame may spend advancing the
	// simulator; what does not fit is dropped (sim_rtf shows the real pace).
	DefaultBudget = 8 * time.Millisecond
	// chunks is how many RunUntil calls one frame's advance is split into
	// at least, so that the budget is checked between them. A chunk is
	// also no longer than a quarter of the budget at the measured pace, so
	// a heavy scenario (or a high speed) cannot overrun it by a whole chunk.
	chunks = 8
	// firstChunk is the chunk, in simulated ns, before the pace is known.
	firstChunk = 20_000
	// maxMovesPerFrame bounds the glides one frame can start.
	maxMovesPerFrame = frame.MaxMoves
	// metricsEvery is how often a frame carries fresh metrics (they sort
	// latency samples: not every frame).
	metricsEvery = 250 * time.Millisecond
)

// Session plays one scenario, and with A/B on a second copy of it under
// another policy. All methods are safe for concurrent use.
type Session struct {
	mu          sync.Mutex
	scen        *scenarios.Scenario // the loaded scenario (side A)
	a           *player
	b           *player  // side B, nil when A/B is off
	compare     []string // the "path=value" sets that make B from A; nil: off
	lastCompare []string // the sets A/B last ran with (ToggleCompare restores them)
	aLabel      string   // side A's label under A/B (describeSets), made at aLabelRev
	aLabelRev   int64
	preset      string // name of the preset the scenario is (by title), "" if none
	rev         int64
	link        string // share-link fragment of scen ("s=...")
	linkRev     int64  // rev whose change the link updater should write to the URL (0: none)
	linkSeq     int64  // counts the links to write to the URL (user changes); 0: none yet
	linkPush    bool   // the newest link to write replaced the scenario: a new history entry
	linkPrev    string // the link of the scenario before that replacing change
	linkWrite   string // the newest link to write (the last user change whose link fits)
	undo, redo  []undoEntry
	userPaused  bool // the user paused (Pause, Step): a new scenario stays paused
	playing     bool
	speed       float64
	budget      time.Duration
	pace        float64 // simulated ns per wall ns the last chunks ran at (0: not measured yet)
	lastErr     string
	talk        bool
	pauseOnMove bool
	pausedMove  bool // playing stopped on a migration; the next frame says so

	// The demo script (chapters.go) and the colour theme.
	ch     chapterState
	chDoes string
	theme  string
	// shadow: this session mirrors one that plays elsewhere (the page's
	// main thread mirrors the worker's): it never simulates for a seek, a
	// migration or an anchor; shownNS is the time the other one shows.
	shadow  bool
	shownNS int64

	// Seeks (seek.go): how many, the last one's numbers, the most any
	// re-simulated.
	seeks          int64
	lastSeek       seekStats
	maxResimMS     float64
	maxResimEvents int64

	seq         uint64
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
//
// With A/B on, side B is rebuilt from sc with the same compare sets; when
// they no longer apply (a path the new scenario lacks), A/B is turned off
// and Error says why, while sc itself loads.
func (s *Session) Load(sc *scenarios.Scenario, userChange bool) error {
	how := changeNone
	if userChange {
		how = changeEdit
	}
	return s.load(sc, how, "")
}

func (s *Session) load(sc *scenarios.Scenario, how change, preset string) error {
	return s.loadAt(sc, how, preset, -1)
}

// loadAt is load that installs sc only if the revision is still rev (-1:
// any), and otherwise returns errStale.
func (s *Session) loadAt(sc *scenarios.Scenario, how change, preset string, rev int64) error {
	userChange := how != changeNone
	s.mu.Lock()
	iv := SampleInterval(s.speed)
	compare := s.compare
	light := s.shadow
	s.mu.Unlock()
	a, err := newPlayer(sc, iv, light)
	if err != nil {
		return s.fail(err)
	}
	a.setBudget(len(compare) > 0)
	var b *player
	var abErr error
	if len(compare) > 0 {
		b, abErr = buildB(sc, compare, iv, light)
	}
	link := scenarios.EncodeLink(sc)
	if preset == "" {
		preset = scenarios.PresetOf(sc)
	}
	if loadHook != nil {
		loadHook()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rev >= 0 && s.rev != rev {
		return errStale
	}
	old, oldPreset, oldLink := s.scen, s.preset, s.link
	s.scen, s.a, s.b = sc, a, b
	s.pace = 0
	s.preset = preset
	s.rev++
	s.link = link
	if userChange {
		s.linkRev = s.rev
	}
	s.history(how, old, oldPreset, sc)
	s.wall = 0
	s.lastErr = ""
	s.lastMetrics = time.Time{}
	s.pausedMove = false
	if abErr != nil {
		s.lastCompare = s.compare
		s.compare = nil
		s.lastErr = "A/B turned off: " + abErr.Error()
	}
	if userChange {
		if err := LinkFits(link); err != nil {
			// The scenario plays; the address bar keeps the last link
			// that fits rather than get one a reload would refuse.
			s.lastErr = err.Error()
		} else {
			s.linkSeq++
			s.linkWrite = link
			s.linkPush = how == changeReplace
			s.linkPrev = oldLink
		}
	}
	if how == changeReplace && !s.userPaused {
		s.playing = true // a new scenario plays unless the user paused
	}
	return nil
}

// restartLocked plays the loaded scenario (and B) again from t=0.
func (s *Session) restartLocked() error {
	iv := SampleInterval(s.speed)
	a, err := newPlayer(s.scen, iv, s.shadow)
	if err != nil {
		return err
	}
	a.setBudget(len(s.compare) > 0)
	var b *player
	if len(s.compare) > 0 {
		if b, err = buildB(s.scen, s.compare, iv, s.shadow); err != nil {
			return err
		}
	}
	s.a, s.b = a, b
	s.pace = 0
	s.rev++
	s.wall = 0
	s.lastMetrics = time.Time{}
	s.pausedMove = false
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
	return s.Replace(sc)
}

// Replace loads sc as a user change that replaces the scenario (a file, an
// import, a blank scenario): it plays at SpeedFor(sc), gets a history entry
// of its own (Back restores what it replaced) and can be undone.
func (s *Session) Replace(sc *scenarios.Scenario) error {
	if err := s.load(sc, changeReplace, ""); err != nil {
		return err
	}
	s.resetChapters(sc)
	return s.SetSpeed(SpeedFor(sc))
}

// LoadLink decodes a share link (URL, "#s=..." or "s=...") and loads it;
// a "&v=..." part (the view block: speed, A/B, talk mode) is applied too.
func (s *Session) LoadLink(link string) error {
	sc, err := scenarios.DecodeLink(link)
	if err != nil {
		return s.fail(fmt.Errorf("share link: %w", err))
	}
	if err := s.Load(sc, false); err != nil {
		return err
	}
	s.resetChapters(sc)
	if err := s.SetSpeed(SpeedFor(sc)); err != nil {
		return err
	}
	s.loadLinkView(link)
	return nil
}

// LoadPreset loads a preset by name (a user change when user is true).
func (s *Session) LoadPreset(name string, user bool) error {
	sc, err := scenarios.Preset(name)
	if err != nil {
		return s.fail(err)
	}
	how := changeNone
	if user {
		how = changeReplace
	}
	if err := s.load(sc, how, name); err != nil {
		return err
	}
	s.resetChapters(sc)
	return s.SetSpeed(SpeedFor(sc))
}

// Preset is the name of the preset being played ("" when the scenario is
// not one). A loaded scenario is a preset when its canonical JSON is one's
// (scenarios.PresetOf); a preset changed with Set stays that preset's
// variant, so its A/B default and NextPreset still follow it.
func (s *Session) Preset() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.preset
}

// NextPreset loads the preset after the current one in Presets() order
// (the first when the scenario is not a preset), as a user change.
func (s *Session) NextPreset() error {
	list := scenarios.Presets()
	if len(list) == 0 {
		return s.fail(errors.New("no presets"))
	}
	cur := s.Preset()
	next := list[0].Name
	for i, p := range list {
		if p.Name == cur {
			next = list[(i+1)%len(list)].Name
		}
	}
	return s.LoadPreset(next, true)
}

// Set changes one field of the scenario by path ("policy.select_idle_sibling",
// "tasks.client.count") and restarts it.
//
// The new simulator is built without the lock (it can take a while); when
// another change landed meanwhile, the edit is applied again on top of it,
// so two concurrent Sets never lose one another.
func (s *Session) Set(path, value string) error {
	for try := 0; ; try++ {
		s.mu.Lock()
		if s.scen == nil {
			s.mu.Unlock()
			return s.fail(errors.New("no scenario loaded"))
		}
		c, rev, preset := s.scen.Clone(), s.rev, s.preset
		s.mu.Unlock()
		if err := c.Set(path, value); err != nil {
			return s.fail(err)
		}
		markEdited(c, preset)
		if preset == "" {
			preset = scenarios.PresetOf(c) // set back to a preset's values
		}
		err := s.loadAt(c, changeEdit, preset, rev)
		if err == nil {
			s.noteSet(path, value)
		}
		if err != errStale {
			return err
		}
		if try == maxSetRetries {
			return s.fail(fmt.Errorf("set %s: the scenario kept changing meanwhile; try again", path))
		}
	}
}

// maxSetRetries bounds how often Set re-applies an edit that raced with
// another change.
const maxSetRetries = 8

// errStale: the scenario changed while a change to it was being built.
var errStale = errors.New("the scenario changed meanwhile")

// loadHook, when set (tests), runs after load built the new simulator and
// before it takes the lock to install it.
var loadHook func()

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
	defer s.mu.Unlock()
	if s.a != nil && s.limitLocked() {
		return // keep what was simulated; the error says why it stopped
	}
	if s.a != nil && s.a.done() {
		if err := s.restartLocked(); err != nil {
			s.lastErr = err.Error()
			return
		}
	}
	s.playing = true
	s.userPaused = false
}

// Pause stops the clock; Step still works. A scenario loaded later stays
// paused until Play (a run that ends, or stops at a migration, is not the
// user's pause: the next scenario plays).
func (s *Session) Pause() {
	s.mu.Lock()
	s.playing = false
	s.userPaused = true
	s.mu.Unlock()
}

// Playing reports whether the clock runs.
func (s *Session) Playing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.playing
}

// TogglePlay plays when paused and pauses when playing.
func (s *Session) TogglePlay() {
	if s.Playing() {
		s.Pause()
	} else {
		s.Play()
	}
}

// SetSpeed sets simulated seconds per wall-clock second (1 = real time).
// The time series' sample interval follows (SampleInterval).
func (s *Session) SetSpeed(x float64) error {
	if math.IsNaN(x) || x < MinSpeed || x > MaxSpeed {
		return s.fail(fmt.Errorf("speed %g: must be between %g and %g simulated seconds per second", x, float64(MinSpeed), float64(MaxSpeed)))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.speed = x
	iv := SampleInterval(x)
	for _, p := range []*player{s.a, s.b} {
		if p != nil {
			p.series.setInterval(iv, p.now())
		}
	}
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

// SetPauseOnMove arms (or disarms) the pause on the next migration: while
// on, playing stops right after the first simulator event that migrates a
// task (an EvMigrate of side A, any cause), and the frame after it has
// PausedOnMove set and that migration as its LastMove (and as the last of
// its Moves). It stays armed: Play runs to the next migration. Step is not
// affected.
func (s *Session) SetPauseOnMove(on bool) {
	s.mu.Lock()
	s.pauseOnMove = on
	s.mu.Unlock()
}

// PauseOnMove reports whether the pause on the next migration is armed.
func (s *Session) PauseOnMove() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pauseOnMove
}

// SetTalk turns talk mode on or off (frame.Frame.Talk): the canvas uses large
// type and shows the clock, the newest explanations and the key help; the
// page hides its side panels.
func (s *Session) SetTalk(on bool) {
	s.mu.Lock()
	s.talk = on
	s.mu.Unlock()
}

// Talk reports whether talk mode is on.
func (s *Session) Talk() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.talk
}

// MaxStep bounds one Step call, in simulated time.
const MaxStep = 10 * time.Second

// Step pauses and advances simulated time by d (at most MaxStep, and not
// past the end of the run); side B follows to the same time. It returns the
// new simulated time in ns.
func (s *Session) Step(d time.Duration) (int64, error) {
	if d <= 0 || d > MaxStep {
		return 0, s.fail(fmt.Errorf("step %v: must be more than 0 and at most %v", d, MaxStep))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.playing = false
	s.userPaused = true
	if s.a == nil {
		return 0, nil
	}
	start := time.Now()
	target := s.a.now() + int64(d)
	s.a.workLimit = s.a.sim.Work() + MaxCallWork
	short := s.a.advance(target, false)
	s.a.workLimit = 0
	if s.b != nil {
		s.b.advance(s.a.now(), false)
	}
	if short && s.a.now() < target {
		s.lastErr = fmt.Sprintf("step stopped at %.3f ms, short of %.3f ms: one call does at most %d work units, so that the page stays responsive; step again to go on",
			float64(s.a.now())/1e6, float64(target)/1e6, int64(MaxCallWork))
	}
	s.wall += time.Since(start)
	s.limitLocked()
	return s.a.now(), nil
}

// MaxCallWork bounds the simulator work (sim.Work units) one Step call may
// do: it runs on the page's event loop. The slowest work measured runs at
// 140 million units per CPU second natively and, in wasm on a loaded
// 2-core machine, at 7 million a second (a 1 ns loop: 2*10^7 units took
// 2.9 s), so 5*10^6 units block the page for well under a second
// (tbench-pairs with one pair needs 0.9 million per simulated second, with
// 80 pairs 130 million: step(30) still runs whole).
const MaxCallWork = 5_000_000

// limitLocked reports whether a budget stopped side A or B (sim.Err), and
// then makes the error text say so (the page shows it; the frames keep what
// was simulated) and stops playing.
func (s *Session) limitLocked() bool {
	for _, p := range []*player{s.a, s.b} {
		if p == nil {
			continue
		}
		if err := p.sim.Err(); err != nil {
			side := ""
			if p == s.b {
				side = "side B "
			}
			s.lastErr = fmt.Sprintf("%sstopped early: %v. What was simulated stays on screen; shorten the duration or use fewer CPUs or tasks to run to the end", side, err)
			s.playing = false
			return true
		}
	}
	return false
}

// Tick is one frame: advance by the wall time dt since the previous frame
// (when playing), collect, and return the frame.Frame to publish. now is the
// frame's wall-clock time (for metrics pacing and the meter).
func (s *Session) Tick(now time.Time, dt time.Duration) *frame.Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return nil
	}
	dt = min(max(dt, 0), maxFrameDt)
	before := s.a.now()
	var work time.Duration
	if s.playing {
		start := time.Now()
		target := before + int64(float64(dt)*s.speed)
		for t := before; t < target && !s.a.done(); {
			step := max((target-before)/chunks, 1)
			if s.pace > 0 {
				step = min(step, max(int64(s.pace*float64(s.budget/4)), 1))
			} else {
				step = min(step, firstChunk)
			}
			t = min(t+step, target)
			from, chunkStart := s.a.now(), time.Now()
			stopped := s.a.advance(t, s.pauseOnMove)
			if s.b != nil {
				s.b.advance(s.a.now(), false)
			}
			s.notePace(from, chunkStart)
			if stopped {
				s.playing = false
				s.pausedMove = true
				break
			}
			if time.Since(start) > s.budget {
				break
			}
		}
		work = time.Since(start)
		s.wall += work
		if s.a.done() {
			s.playing = false
		}
		s.limitLocked()
	}
	s.meter.Frame(now, dt, s.a.now()-before, work)
	return s.frameLocked(now)
}

// Still returns a frame of the state as it is, without advancing the run
// (nil before a scenario is loaded). A shadow session's still frame is the
// page's first picture of a scenario at t = 0 (cmd/wasm game.Draw), drawn
// before the worker's first frame arrives: the same sim.New, the same
// frame building, so it is the frame the worker would send at t = 0.
func (s *Session) Still(now time.Time) *frame.Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return nil
	}
	return s.frameLocked(now)
}

// frameLocked builds the next frame from the players' state: A's (and B's)
// moves and log since the previous frame, snapshots, and the metrics when
// they are due.
func (s *Session) frameLocked(now time.Time) *frame.Frame {
	s.seq++
	ao := s.a.take()
	f := &frame.Frame{
		Seq:          s.seq,
		Rev:          s.rev,
		Duration:     s.a.sim.Config().Duration,
		Playing:      s.playing,
		Speed:        s.speed,
		Title:        s.scen.Title,
		Description:  s.scen.Description,
		Preset:       s.preset,
		Err:          s.lastErr,
		Stats:        s.meter.Stats(),
		Talk:         s.talk,
		Theme:        s.theme,
		PauseOnMove:  s.pauseOnMove,
		PausedOnMove: s.pausedMove,
		Compare:      append([]string(nil), s.compare...),
	}
	a := f.A()
	s.a.side(a, ao)
	a.LLCSize, a.L2Size = s.scen.Machine.LLCSize, s.scen.Machine.L2Size
	if s.pausedMove {
		// The move paused on is the newest migration of the frame.
		for i := len(a.Moves) - 1; i >= 0; i-- {
			if a.Moves[i].Kind == sim.EvMigrate {
				a.LastMove = s.a.sim.Explain(a.Moves[i])
				break
			}
		}
		s.pausedMove = false
	}
	if s.linkRev == s.rev {
		f.Link = s.link
	}
	if s.linkSeq > 0 {
		f.LinkSeq, f.LinkPush = s.linkSeq, s.linkPush
		f.LinkWrite, f.LinkPrev = s.linkWrite, s.linkPrev
	}
	fresh := now.Sub(s.lastMetrics) >= metricsEvery || !s.playing
	if fresh {
		m := s.metricsLocked(s.a)
		a.Metrics = &m
		s.lastMetrics = now
		s.presentLocked(f)
	}
	if s.b != nil {
		f.AB = true
		if s.aLabelRev != s.rev || s.aLabel == "" {
			s.aLabel, s.aLabelRev = "A: "+describeSets(s.scen, s.a.sim, s.compare), s.rev
		}
		a.Label = s.aLabel
		b := &f.Sides[1]
		s.b.side(b, s.b.take())
		b.Label = "B: " + joinSets(s.compare)
		b.LLCSize, b.L2Size = a.LLCSize, a.L2Size
		if fresh {
			m := s.metricsLocked(s.b)
			b.Metrics = &m
		}
	}
	return f
}

func eraOf(sm *sim.Sim) string { return sm.EraName() }

func (s *Session) metricsLocked(p *player) sim.Metrics {
	m := p.sim.Metrics()
	m.Title = p.scen.Title
	m.WallMS = float64(s.wall) / float64(time.Millisecond)
	return m
}

// Metrics returns the run's metrics so far (side A), with the CLI's JSON keys.
func (s *Session) Metrics() (sim.Metrics, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return sim.Metrics{}, false
	}
	return s.metricsLocked(s.a), true
}

// MetricsJSON is Metrics marshalled as the CLI's -json output.
func (s *Session) MetricsJSON() ([]byte, error) {
	m, ok := s.Metrics()
	if !ok {
		return nil, errors.New("no scenario loaded")
	}
	return json.Marshal(m)
}

// frame.Stats are the front end's own numbers.
func (s *Session) Stats() frame.Stats {
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

// Explain is the one-line explanation of an event of side A, with its decision.
func (s *Session) Explain(e sim.Event) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return ""
	}
	return s.a.sim.Explain(e)
}

// notePace updates the estimate of simulated time per wall-clock time from a
// chunk that ran side A from simulated time from, starting at wall time
// chunkStart (chunks under 20 us are too short to time).
func (s *Session) notePace(from int64, chunkStart time.Time) {
	el := time.Since(chunkStart)
	if el <= 20*time.Microsecond {
		return
	}
	p := float64(s.a.now()-from) / float64(el)
	if s.pace == 0 {
		s.pace = p
	} else {
		s.pace = 0.7*s.pace + 0.3*p
	}
}
