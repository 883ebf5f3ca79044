package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"schedplay/frame"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Chapters (scenarios.Chapter): the session keeps the demo script of the
// scenario it loaded (a preset's, a file's, or the link's view), the
// scenario the chapters apply their sets to (the base), and the chapter
// shown. Going to chapter n is absolute: the base with chapter n's sets
// (reloaded only when that differs from what plays), A/B on with its
// compare sets or off, its speed, the pause at the next migration armed
// or not, then a seek to its time or to its anchor event, and play or
// pause. Set (the editor) keeps the script and records the change, so
// that RecordChapter can turn the current state into a chapter.

// chapterState is the session's script.
type chapterState struct {
	list []scenarios.Chapter
	base *scenarios.Scenario // the scenario the chapters' sets apply to
	cur  int                 // the chapter shown, 1-based; 0: none
	sets []string            // Set calls since base ("path=value"), for RecordChapter
}

// resetChapters makes sc's own script (its view's) the session's.
func (s *Session) resetChapters(sc *scenarios.Scenario) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ch = chapterState{list: cloneChapters(sc.View.Chapters), base: sc.Clone()}
	if sc.View.Theme != "" {
		s.theme = sc.View.Theme
	}
}

func cloneChapters(l []scenarios.Chapter) []scenarios.Chapter {
	if l == nil {
		return nil
	}
	out := make([]scenarios.Chapter, len(l))
	for i, c := range l {
		out[i] = c
		out[i].Set = append([]string(nil), c.Set...)
		out[i].Compare = append([]string(nil), c.Compare...)
	}
	return out
}

// ChapterInfo is the script as the page shows it (frame's).
type ChapterInfo = frame.ChapterInfo

// Chapters returns the script and the chapter shown.
func (s *Session) Chapters() ChapterInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chaptersLocked()
}

func (s *Session) chaptersLocked() ChapterInfo {
	ci := ChapterInfo{Current: s.ch.cur, Captions: []string{}}
	for _, c := range s.ch.list {
		ci.Captions = append(ci.Captions, c.Caption)
	}
	if s.ch.cur > 0 && s.ch.cur <= len(s.ch.list) {
		ci.Caption = s.ch.list[s.ch.cur-1].Caption
		ci.Does = s.chDoes
	}
	return ci
}

// SetChapters replaces the script (from a link's view); the chapters apply
// to the scenario loaded now.
func (s *Session) SetChapters(l []scenarios.Chapter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	base := s.scen
	if base != nil {
		base = base.Clone()
	}
	s.ch = chapterState{list: cloneChapters(l), base: base}
}

// StepChapter goes to the next (dir > 0) or previous chapter; from none,
// next is the first. It reports the chapter shown.
func (s *Session) StepChapter(dir int) (int, error) {
	s.mu.Lock()
	n, cur := len(s.ch.list), s.ch.cur
	s.mu.Unlock()
	if n == 0 {
		return 0, s.fail(errors.New("this scenario has no chapters"))
	}
	next := min(max(cur+dir, 1), n)
	if next == cur {
		return cur, nil
	}
	return next, s.GoChapter(next)
}

// MaxAnchorWork bounds the simulation that looks for a chapter's anchor
// event (from t = 0).
const MaxAnchorWork = 3 * MaxSeekWork

// GoChapter applies chapter n (1-based).
func (s *Session) GoChapter(n int) error {
	s.mu.Lock()
	if n < 1 || n > len(s.ch.list) {
		s.mu.Unlock()
		return s.fail(fmt.Errorf("chapter %d: there are %d chapters", n, len(s.ch.list)))
	}
	c, base, cur := s.ch.list[n-1], s.ch.base, s.scen
	s.mu.Unlock()
	if base == nil {
		return s.fail(errors.New("no scenario loaded"))
	}
	where := fmt.Sprintf("chapter %d (%s)", n, c.Caption)
	sc, err := applySets(base, c.Set)
	if err != nil {
		return s.fail(fmt.Errorf("%s: %w", where, err))
	}
	var does []string
	does = append(does, c.Set...)
	if cur == nil || string(sc.Canonical()) != string(cur.Canonical()) {
		if err := s.loadAt(sc, changeNone, "", -1); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if err := s.SetCompare(c.Compare); err != nil {
		return fmt.Errorf("%s: compare: %w", where, err)
	}
	if len(c.Compare) > 0 {
		does = append(does, "A/B: "+strings.Join(c.Compare, ", "))
	}
	if c.Speed != 0 {
		if err := s.SetSpeed(c.Speed); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	s.SetPauseOnMove(c.PauseOnMove)
	s.mu.Lock()
	defer s.mu.Unlock()
	var t int64
	switch {
	case s.shadow:
		// The session that plays goes there; a mirror only notes the
		// chapter (its time comes with that session's frames).
		s.ch.cur = n
		s.chDoes = strings.Join(does, "; ")
		s.playing = c.Play
		return nil
	case !c.At.IsZero():
		at, ok, err := findAnchor(s.a, c.At)
		if err != nil {
			return s.failLocked(fmt.Errorf("%s: %w", where, err))
		}
		if !ok {
			return s.failLocked(fmt.Errorf("%s: %s does not happen within the run (or %d work units)", where, c.At, int64(MaxAnchorWork)))
		}
		t = at
		does = append(does, fmt.Sprintf("%s at %.3f ms", c.At, ms(t)))
	case c.Seek != "":
		d, err := time.ParseDuration(c.Seek)
		if err != nil {
			return s.failLocked(fmt.Errorf("%s: seek: %w", where, err))
		}
		t = int64(d)
		does = append(does, "t = "+c.Seek)
	}
	if _, err := s.seekLocked(t); err != nil {
		return err
	}
	s.ch.cur = n
	s.chDoes = strings.Join(does, "; ")
	if c.Play {
		s.playing = true
	}
	return nil
}

// findAnchor is the time of a's event in p's run, found on a copy run from
// t = 0 (the player is not moved).
func findAnchor(p *player, a scenarios.Anchor) (int64, bool, error) {
	kind := -1
	for k := sim.EventKind(0); k < sim.NumEventKinds; k++ {
		if k.String() == a.Event {
			kind = int(k)
		}
	}
	if kind < 0 {
		return 0, false, fmt.Errorf("at.event: %q is not an event kind", a.Event)
	}
	cause := sim.Cause(0)
	if a.Cause != "" {
		found := false
		for c := sim.Cause(1); c < sim.NumCauses; c++ {
			if c.String() == a.Cause {
				cause, found = c, true
			}
		}
		if !found {
			return 0, false, fmt.Errorf("at.cause: %q is not a cause", a.Cause)
		}
	}
	c := p.tl.At(0).Restore()
	c.SetRecording(true)
	c.TakeEvents(nil)
	nth := max(a.Nth, 1)
	limit := c.Work() + MaxAnchorWork
	end := c.Config().Duration
	var evs []sim.Event
	for c.Step() && c.Work() < limit {
		evs = c.TakeEvents(evs[:0])
		for i := range evs {
			e := &evs[i]
			if e.T > end {
				// Step runs on past the duration; an event there is not
				// in the run the page plays (overload-on-wakeup's
				// chapter 3 found its anchor at 46.7 s of a 2 s run).
				return 0, false, nil
			}
			if int(e.Kind) != kind || (cause != 0 && e.Cause != cause) {
				continue
			}
			if a.Task != "" {
				name := c.TaskName(int(e.Task))
				if name != a.Task && !strings.HasPrefix(name, a.Task+"/") {
					continue
				}
			}
			if nth--; nth == 0 {
				return e.T, true, nil
			}
		}
	}
	return 0, false, nil
}

// noteSet records a Set made since the chapters' base (RecordChapter
// replays them).
func (s *Session) noteSet(path, value string) {
	s.mu.Lock()
	s.ch.sets = append(s.ch.sets, path+"="+value)
	s.mu.Unlock()
}

// RecordChapter appends the current state as a chapter: the changes made
// with Set since the chapters' base (or since the chapter shown), A/B, the
// speed, the pause at the next migration, and the current time. A change
// that Set did not make (a structural edit, a loaded file) cannot be told
// as sets: then it says so and records nothing.
func (s *Session) RecordChapter(caption string) (int, error) {
	caption = strings.TrimSpace(caption)
	if caption == "" {
		return 0, s.fail(errors.New("record chapter: a chapter needs a caption"))
	}
	if len([]rune(caption)) > scenarios.MaxCaption {
		return 0, s.fail(fmt.Errorf("record chapter: the caption is longer than %d characters", scenarios.MaxCaption))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scen == nil || s.a == nil {
		return 0, s.failLocked(errors.New("no scenario loaded"))
	}
	if len(s.ch.list) >= scenarios.MaxChapters {
		return 0, s.failLocked(fmt.Errorf("record chapter: %d chapters is the limit", scenarios.MaxChapters))
	}
	if s.ch.base == nil {
		s.ch.base = s.scen.Clone()
	}
	var sets []string
	if s.ch.cur > 0 {
		sets = append(sets, s.ch.list[s.ch.cur-1].Set...)
	}
	sets = append(sets, s.ch.sets...)
	sc, err := applySets(s.ch.base, sets)
	if err == nil {
		sc.Title = s.scen.Title // an edited preset's "(edited)" mark (markEdited) is no field edit
	}
	if err != nil || string(sc.Canonical()) != string(s.scen.Canonical()) {
		return 0, s.failLocked(errors.New("record chapter: the scenario was changed by more than field edits (a structural edit or a loaded file): load it as the base first"))
	}
	c := scenarios.Chapter{Caption: caption, Set: sets, Compare: append([]string(nil), s.compare...),
		Speed: s.speed, PauseOnMove: s.pauseOnMove}
	if now := s.nowLocked(); now > 0 {
		c.Seek = scenarios.FormatDuration(now)
	}
	s.ch.list = append(s.ch.list, c)
	s.ch.cur = len(s.ch.list)
	s.ch.sets = nil
	does := append([]string{"recorded"}, sets...)
	if len(c.Compare) > 0 {
		does = append(does, "A/B: "+strings.Join(c.Compare, ", "))
	}
	if c.Seek != "" {
		does = append(does, "t = "+c.Seek)
	}
	s.chDoes = strings.Join(does, "; ")
	return s.ch.cur, nil
}

// SetTheme sets the page's colour theme ("dark" or "light").
func (s *Session) SetTheme(theme string) error {
	switch theme {
	case "dark", "light":
	default:
		return s.fail(fmt.Errorf("theme %q: want dark or light", theme))
	}
	s.mu.Lock()
	s.theme = theme
	s.mu.Unlock()
	return nil
}

// Theme is the page's colour theme.
func (s *Session) Theme() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.theme == "" {
		return "dark"
	}
	return s.theme
}
