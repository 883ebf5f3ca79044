package scenarios

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

// View is what the page shows but the simulation does not depend on: how
// fast it plays, the A/B comparison, talk mode (later: theme, chapters, the
// current time). It has its own rows in the schema (view.*) and travels
// encoded like a scenario (deflate, base64url) as a link's "v=" part, or as
// a preset's default view inside the preset's file. It is never part of the
// scenario's canonical JSON, its share link's "s=" part, or its trace hash.
type View struct {
	// Speed is simulated seconds per wall-clock second; 0 keeps the
	// player's speed.
	Speed float64 `json:"speed,omitzero"`
	// Compare are side B's changes ("path=value", Scenario.Set syntax): the
	// A/B comparison the A key turns on.
	Compare []string `json:"compare,omitempty"`
	// AB says whether the comparison is on.
	AB bool `json:"ab,omitempty"`
	// Talk is talk mode (large type, the canvas alone).
	Talk bool `json:"talk,omitempty"`

	// The presenter's view (chapters.go, format version 2): the colour
	// theme, the simulated time shown (ms), the demo script and the
	// chapter shown (1-based; 0 none).
	Theme    string    `json:"theme,omitempty"`
	TimeMS   float64   `json:"time_ms,omitzero"`
	Chapters []Chapter `json:"chapters,omitempty"`
	Chapter  int       `json:"chapter,omitzero"`
	// Paused: the player was paused by its user (a link opens paused
	// where the presenter stopped to explain; absent: it plays).
	Paused bool `json:"paused,omitempty"`
}

// Limits of a view.
const (
	MinSpeed   = 1e-6 // simulated seconds per second
	MaxSpeed   = 10
	MaxCompare = 8   // compare sets
	maxSetText = 300 // characters of one "path=value"
)

// IsZero reports whether v says nothing.
func (v View) IsZero() bool {
	return v.Speed == 0 && len(v.Compare) == 0 && !v.AB && !v.Talk && !v.Paused &&
		v.Theme == "" && v.TimeMS == 0 && len(v.Chapters) == 0 && v.Chapter == 0
}

func (v View) clone() View {
	v.Compare = cloneSlice(v.Compare)
	if v.Chapters != nil {
		cs := make([]Chapter, len(v.Chapters))
		for i, c := range v.Chapters {
			cs[i] = c.clone()
		}
		v.Chapters = cs
	}
	return v
}

// validate checks the view's values; the compare sets are checked against
// the scenario by whoever applies them (app: side B is built from them).
func (v View) validate(p *problems, path string) {
	if v.Speed != 0 && (math.IsNaN(v.Speed) || v.Speed < MinSpeed || v.Speed > MaxSpeed) {
		p.add(join(path, "speed"), fmt.Sprintf("%g is out of range %g..%g", v.Speed, float64(MinSpeed), float64(MaxSpeed)))
	}
	if len(v.Compare) > MaxCompare {
		p.add(join(path, "compare"), fmt.Sprintf("%d sets; the limit is %d", len(v.Compare), MaxCompare))
	}
	for i, kv := range v.Compare {
		pth, _, ok := strings.Cut(kv, "=")
		switch {
		case len(kv) > maxSetText:
			p.add(index(join(path, "compare"), i), fmt.Sprintf("longer than %d characters", maxSetText))
		case !ok || strings.TrimSpace(pth) == "":
			p.add(index(join(path, "compare"), i), quote(kv)+" is not path=value")
		}
	}
	if v.AB && len(v.Compare) == 0 {
		p.add(join(path, "ab"), "A/B needs compare sets")
	}
	v.validateChapters(p, path)
}

// viewRows are the view block's rows of the schema.
func viewRows() []Field {
	rows := []Field{
		{Path: "summary", Kind: KindString, Max: MaxTitle, Absent: "the first sentence of the description",
			Doc: "one line for a preset picker; not part of the canonical JSON", Example: "a summary",
			at: strAt(func(s *Scenario, _ keys) *string { return &s.Summary })},
		{Path: "view", Kind: KindObject, Absent: "the page's own", Doc: "how the page shows the scenario (a preset's default view); not part of the canonical JSON",
			val: func(s *Scenario, _ keys) any { return s.View }, reset: func(s *Scenario, _ keys) { s.View = View{} }},
		{Path: "view.speed", Kind: KindNumber, Absent: "the player's speed", Unit: "s/s", MinF: MinSpeed, MaxF: MaxSpeed,
			Doc: "simulated seconds per wall-clock second", Example: "0.002",
			at: func(s *Scenario, _ keys) slot { return numSlot{&s.View.Speed} }},
		{Path: "view.compare", Kind: KindList, Max: MaxCompare, what: "compare sets", rangeMsg: "index %[1]d is out of range (there are %[2]d compare sets)", appends: true,
			Absent: "policy.features.WAKE_AFFINE=false", Doc: "side B's changes for A/B (path=value)", Example: `["policy.select_idle_sibling=cpu_buddies"]`,
			val:    func(s *Scenario, _ keys) any { return s.View.Compare },
			enter:  func(s *Scenario, _ keys) { s.View.Compare = []string{} },
			reset:  func(s *Scenario, _ keys) { s.View.Compare = nil },
			length: func(s *Scenario, _ keys) int { return len(s.View.Compare) },
			elem:   func(s *Scenario, _ keys, i int) { s.View.Compare = append(s.View.Compare, "") }},
		{Path: "view.compare[i]", Kind: KindString, Max: maxSetText, Doc: "one change of side B, as -set takes it", Example: "policy.load_metric=load_avg",
			at: strAt(func(s *Scenario, k keys) *string { return &s.View.Compare[k.index(0)] })},
		{Path: "view.ab", Kind: KindBool, Default: "false", Doc: "A/B on: side B plays beside A", Example: "true",
			at: boolAt(func(s *Scenario, _ keys) *bool { return &s.View.AB })},
		{Path: "view.talk", Kind: KindBool, Default: "false", Doc: "talk mode: large type, the canvas alone", Example: "true",
			at: boolAt(func(s *Scenario, _ keys) *bool { return &s.View.Talk })},
		{Path: "view.paused", Kind: KindBool, Default: "false", Doc: "opens paused (the player's user had paused it)", Example: "true",
			at: boolAt(func(s *Scenario, _ keys) *bool { return &s.View.Paused })},
	}
	return append(rows, chapterRows()...)
}

// numSlot is a JSON number (a float).
type numSlot struct{ p *float64 }

func (s numSlot) get() (string, bool) {
	if *s.p == 0 {
		return "", false
	}
	return strconv.FormatFloat(*s.p, 'g', -1, 64), true
}
func (s numSlot) set(st setter, v, _ string) error {
	if v == "" {
		*s.p = 0
		return nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return st.err(quote(v) + " is not a number")
	}
	*s.p = f
	return nil
}
func (s numSlot) decode(d *decoder, raw json.RawMessage, path string) {
	if !d.want(path, raw, '0') {
		return
	}
	text := string(bytes.TrimSpace(raw))
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		d.add(path, text+" is not a number")
		return
	}
	*s.p = f
}

// EncodeView is a view's link part, without the "v=": base64url (no
// padding) of the raw DEFLATE of its JSON, as a scenario's "s=" part. A
// zero view encodes to "".
func EncodeView(v View) string {
	if v.IsZero() {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("scenarios: view encoding failed: " + err.Error())
	}
	return pack(b)
}

// DecodeView decodes EncodeView's text, bounded and as strictly as a
// scenario: unknown fields and bad values are "view.PATH: problem" errors.
func DecodeView(text string) (View, error) {
	raw, err := unpack(text, "view")
	if err != nil {
		return View{}, err
	}
	data, err := single(raw)
	if err != nil {
		return View{}, err
	}
	var s Scenario
	d := &decoder{}
	d.node(schema().root.kids["view"], data, "view", &s, keys{})
	if !d.ok() {
		return View{}, d.err()
	}
	var p problems
	s.View.validate(&p, "view")
	if err := p.err(); err != nil {
		return View{}, err
	}
	return s.View, nil
}

// LinkView returns the view of a link ("...#s=...&v=..."): ok is false
// when the link has none (old links), and err says why a "v=" part is bad.
func LinkView(link string) (v View, ok bool, err error) {
	if len(link) > MaxLinkBytes {
		return View{}, false, nil // DecodeLink refuses it
	}
	if i := strings.IndexByte(link, '#'); i >= 0 {
		link = link[i+1:]
	}
	for _, param := range strings.Split(strings.TrimSpace(link), "&") {
		if text, found := strings.CutPrefix(param, "v="); found {
			v, err := DecodeView(text)
			return v, err == nil, err
		}
	}
	return View{}, false, nil
}

// EncodeLinkView is EncodeLink plus the view's "&v=" part (none for a zero
// view): "s=...&v=...".
func EncodeLinkView(s *Scenario, v View) string {
	link := EncodeLink(s)
	if text := EncodeView(v); text != "" {
		link += "&v=" + text
	}
	return link
}

// pack is the link codec: raw DEFLATE, then base64url without padding.
func pack(data []byte) string {
	var buf bytes.Buffer
	flater.Lock()
	if flater.w == nil {
		var err error
		if flater.w, err = flate.NewWriter(&buf, flate.BestCompression); err != nil {
			flater.Unlock()
			panic(err) // only for an invalid level
		}
	} else {
		flater.w.Reset(&buf) // as NewWriter at the same level: the same bytes
	}
	flater.w.Write(data) // a bytes.Buffer does not fail
	flater.w.Close()
	flater.Unlock()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// flater is pack's compressor, kept for the life of the process: a new one
// allocates about 1 MB of tables, and a link is made at every change (on
// the page's main thread too). A sync.Pool lost it at every garbage
// collection, and a page collects between two edits: the profile of a
// 64-group import's load had NewWriter at 7 % of its CPU time.
var flater struct {
	sync.Mutex
	w *flate.Writer
}

// unpack reverses pack, bounded: at most MaxLinkBytes of text, inflated to
// at most MaxScenarioBytes. what names the part in errors ("scenario").
func unpack(data, what string) ([]byte, error) {
	linkErr := func(format string, args ...any) error {
		return &Error{Path: "link", Problem: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxLinkBytes {
		return nil, linkErr("%d bytes; the limit is %d (64 KiB)", len(data), MaxLinkBytes)
	}
	data = strings.TrimRight(data, "=") // tolerate padding
	if data == "" {
		return nil, linkErr("the %s data is empty", what)
	}
	compressed, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		return nil, linkErr("not base64url: %v (was the link cut or changed?)", err)
	}
	br := bytes.NewReader(compressed)
	fr := flate.NewReader(br)
	defer fr.Close()
	raw, err := io.ReadAll(io.LimitReader(fr, MaxScenarioBytes+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, linkErr("the compressed data is truncated (was the link cut?)")
	case err != nil:
		return nil, linkErr("the compressed data is corrupt: %v", err)
	case len(raw) > MaxScenarioBytes:
		return nil, linkErr("inflates to more than %d bytes (256 KiB)", MaxScenarioBytes)
	case br.Len() != 0:
		return nil, linkErr("%d bytes of unexpected data after the compressed %s", br.Len(), what)
	}
	return raw, nil
}
