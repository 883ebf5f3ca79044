//go:build js

package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/teivah/broadcast"

	"schedplay/cmd/wasm/pagemodel"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/sim"
)

// page holds the DOM elements the Go side writes. Every text goes in with
// textContent: nothing from a scenario is ever parsed as HTML.
type page struct {
	doc, win, body js.Value
	stage          js.Value
	shown          map[string]string // element id -> text last written

	log *pagemodel.EventLog

	mu         sync.Mutex
	now, dur   int64        // simulated time and run length of the newest frame, ns
	bMetrics   *sim.Metrics // side B's newest metrics (nil: A/B off)
	attributed string       // an error shown next to its field, not at the top

	firstFrameMS float64 // performance.now() when the first frame was drawn (ms since navigation start); 0 before
	// firstSimMS: the same for the first drawn frame that came from the
	// worker (the first frame may be the shadow's picture at t = 0).
	firstSimMS float64
	drawn      int64  // frames drawn
	painted    int64  // of those, the ones whose picture changed (the others are left on screen)
	layouts    uint64 // times the machine was laid out (canvas.Canvas.Static's version)
	// labelsPending: the last painted frame left labels for later ones.
	labelsPending bool

	// fastForward reports a run to the end under way (front.fastForward).
	fastForward func() bool
}

// markFrame records when the first frame reached the canvas, and the first
// frame from the worker (fromWorker), in ms since the navigation started
// (the browser's performance.now() origin). The first picture takes the
// "Loading the simulator…" notice off the stage; the page is ready
// (setReady) once the worker's frames are drawn.
func (p *page) markFrame(fromWorker bool) {
	p.mu.Lock()
	first, firstSim := p.firstFrameMS == 0, fromWorker && p.firstSimMS == 0
	p.mu.Unlock()
	if !first && !firstSim {
		return
	}
	perf := p.win.Get("performance")
	if !perf.Truthy() {
		return
	}
	t := perf.Call("now").Float()
	p.mu.Lock()
	if first {
		p.firstFrameMS = t
	}
	if firstSim {
		p.firstSimMS = t
	}
	p.mu.Unlock()
	if first {
		if l := p.el("loading"); l.Truthy() {
			l.Set("hidden", true)
		}
		// On two cores the worker gets the module only now (web/loader.js
		// afterPagePicture).
		if f := p.win.Get("schedplayFirstPicture"); f.Type() == js.TypeFunction {
			f.Invoke()
		}
	}
}

// drew counts a drawn frame (painted: its picture changed, and was
// painted), the canvas' layouts so far, and whether the picture on screen
// still lacks labels (pending: ebitendraw.Renderer.Pending).
func (p *page) drew(layouts uint64, painted, pending bool) {
	p.mu.Lock()
	p.drawn++
	if painted {
		p.painted++
	}
	p.layouts = layouts
	p.labelsPending = pending
	p.mu.Unlock()
}

// drawCounts is what drew counted: frames drawn, frames painted and
// layouts. A layout while a scenario plays means the stage changed size
// under it (each one is a new static layer and every label fitted again).
// pending: the picture on screen lacks labels a later frame will draw
// (ebitendraw's per-frame budget).
func (p *page) drawCounts() (drawn, painted int64, layouts uint64, pending bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.drawn, p.painted, p.layouts, p.labelsPending
}

// firstFrame is what markFrame recorded: the first frame and the first
// from the worker (0 before each).
func (p *page) firstFrame() (first, fromWorker float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.firstFrameMS, p.firstSimMS
}

// clock is the simulated time and run length of the newest frame, in ns.
func (p *page) clock() (now, dur int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.now, p.dur
}

// notify dispatches a DOM event the page's scripts listen to
// ("schedplay:scenario" when another scenario revision starts playing).
func (p *page) notify(name string, detail map[string]any) {
	ev := p.win.Get("CustomEvent").New(name, map[string]any{"detail": detail})
	p.doc.Call("dispatchEvent", ev)
}

func newPage() *page {
	win := js.Global()
	doc := win.Get("document")
	p := &page{doc: doc, win: win, body: doc.Get("body"), shown: map[string]string{}, log: &pagemodel.EventLog{}}
	p.stage = p.el("stage")
	// Colour the legend swatches with the canvas' cause colours.
	causes := map[string]sim.Cause{
		"wakeup": sim.CauseWakeup, "balance": sim.CauseBalance, "newidle": sim.CauseNewidle,
		"nohz": sim.CauseNohz, "active": sim.CauseActive, "fork": sim.CauseFork,
		"exec": sim.CauseExec,
	}
	sw := doc.Call("querySelectorAll", ".swatch[data-cause]")
	for i := 0; i < sw.Length(); i++ {
		e := sw.Index(i)
		if c, ok := causes[e.Get("dataset").Get("cause").String()]; ok {
			e.Get("style").Set("backgroundColor", render.CSS(render.CauseColor(c)))
		}
	}
	return p
}

func (p *page) el(id string) js.Value { return p.doc.Call("getElementById", id) }

// setText writes text into element id if it changed.
func (p *page) setText(id, text string) {
	if v, ok := p.shown[id]; ok && v == text {
		return
	}
	p.shown[id] = text
	if e := p.el(id); e.Truthy() {
		e.Set("textContent", text)
	}
}

// setBreakable sets element id's text to text, with a <wbr> after each
// '.', '=' and ',' (pagemodel.BreakPieces), when it changed: a path breaks
// between its segments, not inside a flag's name.
func (p *page) setBreakable(id, text string) {
	if v, ok := p.shown[id]; ok && v == text {
		return
	}
	p.shown[id] = text
	e := p.el(id)
	if !e.Truthy() {
		return
	}
	e.Call("replaceChildren")
	prev := ""
	for _, piece := range pagemodel.BreakPieces(text) {
		if prev != "" && prev != "\n" && piece != "\n" {
			e.Call("appendChild", p.doc.Call("createElement", "wbr"))
		}
		e.Call("appendChild", p.doc.Call("createTextNode", piece))
		prev = piece
	}
}

// setData sets element id's data-key attribute to v ("" removes it), when
// it changed.
func (p *page) setData(id, key, v string) { p.setAttr(id, "data-"+key, v) }

// setAttr sets element id's attribute name to v ("" removes it), when it
// changed.
func (p *page) setAttr(id, name, v string) {
	k := id + "\x00" + name
	if old, ok := p.shown[k]; ok && old == v {
		return
	}
	p.shown[k] = v
	if e := p.el(id); e.Truthy() {
		if v == "" {
			e.Call("removeAttribute", name)
		} else {
			e.Call("setAttribute", name, v)
		}
	}
}

func (p *page) hash() string { return p.win.Get("location").Get("hash").String() }

// stageRect is the #stage element's rectangle in CSS pixels, inset by a
// small margin, and the number of screen pixels per CSS pixel (the screen is
// sw device pixels wide and covers the body).
func (p *page) stageRect(sw, sh float64) (render.Rect, float64) {
	bw := p.body.Get("clientWidth").Float()
	if !p.stage.Truthy() || bw <= 0 {
		return render.Rect{W: sw, H: sh}, 1
	}
	r := p.stage.Call("getBoundingClientRect")
	const margin = 10
	return render.Rect{
		X: r.Get("left").Float() + margin,
		Y: r.Get("top").Float() + 2,
		W: max(0, r.Get("width").Float()-2*margin),
		H: max(0, r.Get("height").Float()-margin-2),
	}, sw / bw
}

// wired reports whether web/loader.js has built the editor and wired the
// page's controls (window.schedplayWired): it does so after the first
// frame (so the machine shows first), and ready waits for it, so a page
// that says ready can be used.
func (p *page) wired() bool {
	return p.win.Get("schedplayWired").Truthy()
}

// setReady flips window.schedplay.ready once frames are on screen and the
// page is wired.
func (p *page) setReady() {
	if l := p.el("loading"); l.Truthy() {
		l.Set("hidden", true)
	}
	if api := p.win.Get("schedplay"); api.Truthy() {
		api.Set("ready", true)
	}
}

// fatal shows an error the page cannot recover from.
func (p *page) fatal(text string) {
	if e := p.el("error"); e.Truthy() {
		e.Set("textContent", "The simulator stopped: "+text)
		e.Set("hidden", false)
	}
}

// panels consumes frames and updates the text panels: title, description
// and error when they change, the clock at most 10 times a second, the
// metrics (A, and B with the difference when A/B is on) when a frame
// carries them, talk mode and the pause-on-migration state as the session
// has them (a key on the canvas may change them).
func (p *page) panels(l *broadcast.Listener[*frame.Frame]) {
	var rev int64 = -1
	var lastClock, lastMove time.Time
	talk, armed, ab, exits := false, false, false, false
	pausedAtMove := false
	first := true
	for f := range l.Ch() {
		if f.Rev != rev {
			rev = f.Rev
			p.setText("title", f.Title)
			p.setText("description", f.Description)
			p.doc.Set("title", "schedplay: "+f.Title)
			p.setText("last-move", "–")
			lastMove = time.Time{}
			p.notify("schedplay:scenario", map[string]any{"rev": f.Rev})
		}
		p.mu.Lock()
		p.now, p.dur = f.A().Now, f.Duration
		if f.B() == nil {
			p.bMetrics = nil
		} else if f.B().Metrics != nil {
			p.bMetrics = f.B().Metrics
		}
		p.mu.Unlock()
		p.setError(f.Err)
		// Talk mode is shown as the frames have it; nothing else writes it,
		// so a change by the API, a key or the button cannot be lost.
		if first || f.Talk != talk {
			talk = f.Talk
			p.showTalk(talk)
		}
		if first || f.PauseOnMove != armed {
			armed = f.PauseOnMove
			if e := p.el("pause-on-move"); e.Truthy() {
				e.Set("checked", armed)
			}
		}
		if on := f.B() != nil; first || on != ab {
			ab = on
			if e := p.el("metrics-table"); e.Truthy() {
				e.Get("classList").Call("toggle", "ab", ab)
			}
			if !ab {
				p.setBreakable("ab-caption", "")
			}
		}
		first = false
		if f.PausedOnMove {
			pausedAtMove = true
		} else if f.Playing {
			pausedAtMove = false
		}
		if now := time.Now(); now.Sub(lastClock) >= 100*time.Millisecond || !f.Playing {
			lastClock = now
			p.setText("clock", "t = "+frame.FormatClock(f.A().Now)+" of "+frame.FormatClock(f.Duration))
			state := "paused"
			switch {
			case p.fastForward != nil && p.fastForward() && f.A().Now < f.Duration && f.Duration > 0:
				state = fmt.Sprintf("» to the end: %d %%", 100*f.A().Now/f.Duration)
			case f.A().Now >= f.Duration:
				state = "finished"
			case f.Playing:
				state = "▶ " + frame.FormatSpeed(f.Speed)
			case pausedAtMove:
				state = "paused at a migration"
			}
			p.setText("state", state)
			st := f.Stats
			p.setText("perf", fmt.Sprintf("%.0f fps · %.1f ms of work per frame · sim %s real time", st.FPS, st.FrameMS, frame.FormatRTF(st.SimRTF)))
		}
		// The newest move's explanation, held for a moment so it can be
		// read; the move paused on is shown at once.
		if now := time.Now(); f.A().LastMove != "" && (now.Sub(lastMove) >= 700*time.Millisecond || !f.Playing || f.PausedOnMove) {
			lastMove = now
			p.setText("last-move", f.A().LastMove)
		}
		if m := f.A().Metrics; m != nil {
			var b *sim.Metrics
			if f.B() != nil {
				b = f.B().Metrics
				p.setBreakable("ab-caption", f.A().Label+"\n"+f.B().Label)
			}
			if x := frame.CountsExits(m, b); x != exits {
				exits = x
				if e := p.el("metrics-table"); e.Truthy() {
					e.Get("classList").Call("toggle", "exits", exits)
				}
			}
			p.showMetrics(m, b)
			p.setText("talk-strip", pagemodel.Strip(m, b))
		}
	}
}

func (p *page) showMetrics(a, b *sim.Metrics) {
	for _, c := range pagemodel.MetricCells(a, b) {
		p.setText(c.ID, c.Text)
		if !strings.HasPrefix(c.ID, "md-") {
			p.setAttr(c.ID, "title", c.Full)
		} else {
			p.setData(c.ID, "verdict", c.Verdict)
		}
	}
	p.setText("m-switches", pagemodel.SwitchLine(a))
}

// showTalk puts the page in or out of talk mode (the canvas side follows
// the session's flag by itself).
func (p *page) showTalk(on bool) {
	p.doc.Get("documentElement").Get("classList").Call("toggle", "talk", on)
	if b := p.el("talk"); b.Truthy() {
		b.Call("setAttribute", "aria-pressed", strconv.FormatBool(on))
		label := "Talk mode (T)"
		if on {
			label = "Leave talk mode (T)"
		}
		b.Set("textContent", label)
	}
}

// metricsB is side B's newest metrics, nil when A/B is off.
func (p *page) metricsB() *sim.Metrics {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bMetrics
}

// attribute marks an error text the page shows next to the field (or box)
// that caused it, so the line at the top does not repeat it.
func (p *page) attribute(text string) {
	p.mu.Lock()
	p.attributed = text
	p.mu.Unlock()
}

// result is result(err) for a change the page's editor (or a console
// user) made and gets the error of directly.
func (p *page) result(err error) any {
	if err != nil {
		p.attribute(err.Error())
	}
	return result(err)
}

func (p *page) setError(text string) {
	p.mu.Lock()
	if text != "" && text == p.attributed {
		text = ""
	}
	p.mu.Unlock()
	if v, ok := p.shown["error"]; ok && v == text {
		return
	}
	p.setText("error", text)
	if e := p.el("error"); e.Truthy() {
		e.Set("hidden", text == "")
	}
}

// linkUpdater keeps the address bar on the share link of the scenario the
// user changed (set, an edit, a preset, an import, undo). An edit replaces
// the current history entry (replaceState); a change that replaces the
// scenario (a preset, N, an import, a blank scenario) gets an entry of its
// own (pushState), so that Back returns to what it replaced: the hashchange
// handler loads it. Neither call fires hashchange, so this does not reload
// anything.
//
// Each write runs in a task of its own (a timeout), not in the one that
// took the worker's frame: history.pushState and replaceState take
// main-thread time that grows with the URL (headless Chromium here: a few
// ms for 2 kB, 3-40 ms for 10 kB, 10-130 ms for 30 kB, issue 19). The
// timeouts keep the writes in their order.
func (p *page) linkUpdater(l *broadcast.Listener[*frame.Frame]) {
	var written int64
	for f := range l.Ch() {
		if f.LinkSeq == 0 || f.LinkSeq == written || f.LinkWrite == "" {
			continue
		}
		written = f.LinkSeq
		write, prev, push := f.LinkWrite, f.LinkPrev, f.LinkPush
		p.later(func() {
			h := p.win.Get("history")
			if !push {
				h.Call("replaceState", js.Null(), "", "#"+write)
				return
			}
			// The entry Back returns to must name the scenario replaced:
			// the page opened without a link has none, and an edit (or
			// undo) made just before has not reached it when its own
			// write was merged into this frame (the worker merges frames
			// the page has not taken yet).
			if prev != "" && p.hash() != "#"+prev {
				h.Call("replaceState", js.Null(), "", "#"+prev)
			}
			h.Call("pushState", js.Null(), "", "#"+write)
		})
	}
}

// later runs f in a task of the main thread's own (setTimeout 0).
func (p *page) later(f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		cb.Release()
		f()
		return nil
	})
	p.win.Call("setTimeout", cb, 0)
}

// shareURL is the page URL with the scenario's fragment.
func (p *page) shareURL(link string) string {
	href := p.win.Get("location").Get("href").String()
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	return href + "#" + link
}
