package scenarios

import (
	"fmt"
	"strings"
	"time"
)

// Chapters: a demo script carried in the view block. A talk about the load
// balancer is a story told in steps ("here is v3.6 — watch the pair walk;
// now the same run with CPU buddies; now back to the moment before that
// migration"); each Chapter is one step: a caption and what it does. The
// page walks them with next/previous (keys, buttons, a presentation
// clicker's PageDown/PageUp) and shows the caption (large in talk mode).
//
// A chapter's state is absolute, not a change of the previous one: the
// scenario is the link's own with the chapter's Set applied, so a chapter
// can be opened directly and walking back is walking forward. A chapter
// whose story is about an event anchors on it (At: "the 3rd wake-up
// migration of client/0") rather than on a time, so a later model change
// that moves the event does not leave the caption pointing at nothing.

// Chapter is one step of a demo script.
type Chapter struct {
	// Caption is what the presenter says (shown large in talk mode).
	Caption string `json:"caption"`
	// Set are changes to the link's scenario ("path=value", Scenario.Set
	// syntax): a policy change. Absent: the scenario as the link has it.
	Set []string `json:"set,omitempty"`
	// Compare turns A/B on with these sets for side B; absent: A/B off.
	Compare []string `json:"compare,omitempty"`
	// Seek goes to a simulated time (a duration, "50ms"); At goes to an
	// event instead. Neither: the run starts from 0 and plays.
	Seek string `json:"seek,omitempty"`
	At   Anchor `json:"at,omitzero"`
	// Speed sets the speed (simulated seconds per second); 0 keeps it.
	Speed float64 `json:"speed,omitzero"`
	// PauseOnMove arms the pause at the next migration.
	PauseOnMove bool `json:"pause_on_move,omitempty"`
	// Play plays after the chapter is applied (else it stays paused).
	Play bool `json:"play,omitempty"`
}

// Anchor names an event of the run: the Nth (1 = the first) trace event of
// kind Event, of cause Cause (migrations) and of task Task (an instance,
// "client/0", or every instance of a group, "client") when given. The
// chapter goes to the time of that event.
type Anchor struct {
	Event string `json:"event,omitempty"`
	Cause string `json:"cause,omitempty"`
	Task  string `json:"task,omitempty"`
	Nth   int    `json:"nth,omitempty"`
}

// IsZero reports whether the anchor names no event.
func (a Anchor) IsZero() bool { return a == Anchor{} }

// String is the anchor in words: "the 3rd wakeup migrate of client/0".
func (a Anchor) String() string {
	n := max(a.Nth, 1)
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		suffix = [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}[n%10]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the %d%s", n, suffix)
	if a.Cause != "" {
		b.WriteString(" " + a.Cause)
	}
	b.WriteString(" " + a.Event)
	if a.Task != "" {
		b.WriteString(" of " + a.Task)
	}
	return b.String()
}

// Limits of chapters.
const (
	MaxChapters   = 32
	MaxCaption    = 400 // characters
	maxChapterSet = 16  // sets per chapter
	maxAnchorNth  = 1_000_000
)

// AnchorEvents are the event kinds an anchor names (the trace's kinds, as
// the event log spells them).
var AnchorEvents = []string{"migrate", "wakeup", "fork", "exec", "exit", "switch", "block", "balance"}

// AnchorCauses are the causes of a migration an anchor may name.
var AnchorCauses = []string{"wakeup", "balance", "newidle", "nohz", "active", "fork", "exec"}

// Themes of the page.
var Themes = []string{"dark", "light"}

func (c Chapter) clone() Chapter {
	c.Set = cloneSlice(c.Set)
	c.Compare = cloneSlice(c.Compare)
	return c
}

// validateChapters checks the view's chapters beyond what their rows check.
func (v View) validateChapters(p *problems, path string) {
	if len(v.Chapters) > MaxChapters {
		p.add(join(path, "chapters"), fmt.Sprintf("%d chapters; the limit is %d", len(v.Chapters), MaxChapters))
	}
	for i, c := range v.Chapters {
		cp := index(join(path, "chapters"), i)
		if strings.TrimSpace(c.Caption) == "" {
			p.add(join(cp, "caption"), "a chapter needs a caption")
		}
		for _, l := range []struct {
			name string
			sets []string
		}{{"set", c.Set}, {"compare", c.Compare}} {
			name, sets := l.name, l.sets
			if len(sets) > maxChapterSet {
				p.add(join(cp, name), fmt.Sprintf("%d sets; the limit is %d", len(sets), maxChapterSet))
			}
			for j, kv := range sets {
				if pth, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(pth) == "" {
					p.add(index(join(cp, name), j), quote(kv)+" is not path=value")
				}
			}
		}
		if c.Seek != "" && !c.At.IsZero() {
			p.add(join(cp, "at"), "a chapter goes to a time (seek) or to an event (at), not both")
		}
		if !c.At.IsZero() && c.At.Event == "" {
			p.add(join(join(cp, "at"), "event"), "an anchor needs the kind of event")
		}
	}
	if v.Chapter > len(v.Chapters) {
		p.add(join(path, "chapter"), fmt.Sprintf("chapter %d of %d", v.Chapter, len(v.Chapters)))
	}
}

func chapter(s *Scenario, k keys) *Chapter { return &s.View.Chapters[k.index(0)] }

// chapterRows are the schema rows of the view's chapters, theme, current
// time and chapter.
func chapterRows() []Field {
	const v = 2
	list := func(path, what, doc, example string, get func(c *Chapter) *[]string) []Field {
		return []Field{
			{Path: path, Kind: KindList, Max: maxChapterSet, what: what, appends: true, Since: v,
				rangeMsg: "index %[1]d is out of range (there are %[2]d sets)", Absent: "none", Doc: doc, Example: example,
				val:    func(s *Scenario, k keys) any { return *get(chapter(s, k)) },
				enter:  func(s *Scenario, k keys) { *get(chapter(s, k)) = []string{} },
				reset:  func(s *Scenario, k keys) { *get(chapter(s, k)) = nil },
				length: func(s *Scenario, k keys) int { return len(*get(chapter(s, k))) },
				elem:   func(s *Scenario, k keys, i int) { l := get(chapter(s, k)); *l = append(*l, "") }},
			{Path: path + "[j]", Kind: KindString, Max: maxSetText, Since: v, Doc: "one change, as -set takes it", Example: "policy.select_idle_sibling=cpu_buddies",
				at: strAt(func(s *Scenario, k keys) *string { return &(*get(chapter(s, k)))[k.index(1)] })},
		}
	}
	rows := []Field{
		{Path: "view.theme", Kind: KindEnum, Enum: Themes, Absent: "dark", Since: v, Example: "light",
			Doc: "the page's colours: dark, or light for a projector that washes dark backgrounds out",
			at:  strAt(func(s *Scenario, _ keys) *string { return &s.View.Theme })},
		{Path: "view.time_ms", Kind: KindNumber, MinF: 0, MaxF: float64(MaxDuration / time.Millisecond), Unit: "ms", Absent: "0: from the start", Since: v,
			Doc: "the simulated time shown when the link was taken (the page seeks there)", Example: "50",
			at: func(s *Scenario, _ keys) slot { return numSlot{&s.View.TimeMS} }},
		{Path: "view.chapter", Kind: KindInt, Min: 0, Max: MaxChapters, Default: "0", Since: v,
			Doc: "the chapter shown (1 = the first; 0: none)", Example: "1",
			at: intAt(func(s *Scenario, _ keys) *int { return &s.View.Chapter })},
		{Path: "view.chapters", Kind: KindList, Max: MaxChapters, what: "chapters", appends: true, Since: v,
			rangeMsg: "no chapter at index %[1]d (there are %[2]d)", Absent: "none",
			Doc: "a demo script: the steps of a talk, each a caption and what it does", Example: `[{"caption":"the pair walks"}]`,
			val:    func(s *Scenario, _ keys) any { return s.View.Chapters },
			enter:  func(s *Scenario, _ keys) { s.View.Chapters = []Chapter{} },
			reset:  func(s *Scenario, _ keys) { s.View.Chapters = nil },
			length: func(s *Scenario, _ keys) int { return len(s.View.Chapters) },
			elem:   func(s *Scenario, _ keys, i int) { s.View.Chapters = append(s.View.Chapters, Chapter{}) }},
		{Path: "view.chapters[i]", Kind: KindObject, Since: v, Doc: "one step of the script: a caption and what it does",
			val:   func(s *Scenario, k keys) any { return *chapter(s, k) },
			reset: func(s *Scenario, k keys) { *chapter(s, k) = Chapter{} }},
		{Path: "view.chapters[i].caption", Kind: KindString, Max: MaxCaption, Since: v,
			Doc: "what the presenter says (large in talk mode; required)", Example: "v3.6: the pair walks from CPU to CPU",
			at: strAt(func(s *Scenario, k keys) *string { return &chapter(s, k).Caption })},
	}
	rows = append(rows, list("view.chapters[i].set", "sets", "changes to the link's scenario (a policy change)", `["policy.select_idle_sibling=cpu_buddies"]`,
		func(c *Chapter) *[]string { return &c.Set })...)
	rows = append(rows, list("view.chapters[i].compare", "compare sets", "A/B on, side B with these changes; absent: A/B off", `["policy.sd_flags.MC.SD_BALANCE_WAKE=false"]`,
		func(c *Chapter) *[]string { return &c.Compare })...)
	rows = append(rows, []Field{
		{Path: "view.chapters[i].seek", Kind: KindDuration, Max: int64(MaxDuration), Absent: "the start (or at's event)", Since: v,
			Doc: "go to this simulated time", Example: "50ms",
			at: strAt(func(s *Scenario, k keys) *string { return &chapter(s, k).Seek })},
		{Path: "view.chapters[i].at", Kind: KindObject, Absent: "none", Since: v,
			Doc: "go to the time of an event instead: the nth event of a kind, cause and task",
			val: func(s *Scenario, k keys) any { return chapter(s, k).At }, reset: func(s *Scenario, k keys) { chapter(s, k).At = Anchor{} }},
		{Path: "view.chapters[i].at.event", Kind: KindEnum, Enum: AnchorEvents, Absent: "none", Since: v,
			Doc: "the kind of event (the event log's)", Example: "migrate",
			at: strAt(func(s *Scenario, k keys) *string { return &chapter(s, k).At.Event })},
		{Path: "view.chapters[i].at.cause", Kind: KindEnum, Enum: AnchorCauses, Absent: "any", Since: v,
			Doc: "a migration's cause", Example: "wakeup",
			at: strAt(func(s *Scenario, k keys) *string { return &chapter(s, k).At.Cause })},
		{Path: "view.chapters[i].at.task", Kind: KindString, Max: 64, Absent: "any task", Since: v,
			Doc: "the task: an instance (client/0) or a group (client)", Example: "client/0",
			at: strAt(func(s *Scenario, k keys) *string { return &chapter(s, k).At.Task })},
		{Path: "view.chapters[i].at.nth", Kind: KindInt, Min: 0, Max: maxAnchorNth, Default: "0", Since: v,
			Doc: "which one (1 = the first; 0 means 1)", Example: "3",
			at: intAt(func(s *Scenario, k keys) *int { return &chapter(s, k).At.Nth })},
		{Path: "view.chapters[i].speed", Kind: KindNumber, MinF: MinSpeed, MaxF: MaxSpeed, Unit: "s/s", Absent: "the speed it had", Since: v,
			Doc: "set the speed (simulated seconds per second)", Example: "0.002",
			at: func(s *Scenario, k keys) slot { return numSlot{&chapter(s, k).Speed} }},
		{Path: "view.chapters[i].pause_on_move", Kind: KindBool, Default: "false", Since: v,
			Doc: "arm the pause at the next migration", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &chapter(s, k).PauseOnMove })},
		{Path: "view.chapters[i].play", Kind: KindBool, Default: "false", Since: v,
			Doc: "play once the chapter is applied (else paused there)", Example: "true",
			at: boolAt(func(s *Scenario, k keys) *bool { return &chapter(s, k).Play })},
	}...)
	return rows
}
