//go:build js

package main

import (
	"fmt"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/teivah/broadcast"

	"schedplay/app"
	"schedplay/render"
	"schedplay/scenarios"
	"schedplay/sim"
)

// page holds the DOM elements the Go side writes. Every text goes in with
// textContent: nothing from a scenario is ever parsed as HTML.
type page struct {
	doc, win, body js.Value
	stage          js.Value
	shown          map[string]string // element id -> text last written
}

func newPage() *page {
	win := js.Global()
	doc := win.Get("document")
	p := &page{doc: doc, win: win, body: doc.Get("body"), shown: map[string]string{}}
	p.stage = p.el("stage")
	// Colour the legend swatches with the canvas' cause colours.
	causes := map[string]sim.Cause{
		"wakeup": sim.CauseWakeup, "balance": sim.CauseBalance, "newidle": sim.CauseNewidle,
		"nohz": sim.CauseNohz, "active": sim.CauseActive, "fork": sim.CauseFork,
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

// setReady flips window.schedplay.ready once frames are on screen.
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

func (p *page) fillPresets(list []scenarios.PresetInfo) {
	sel := p.el("preset")
	if !sel.Truthy() {
		return
	}
	add := func(value, label string) {
		o := p.doc.Call("createElement", "option")
		o.Set("value", value)
		o.Set("textContent", label)
		sel.Call("appendChild", o)
	}
	add("", "choose a preset…")
	for _, pi := range list {
		label := pi.Name
		if pi.Title != "" {
			label = pi.Name + ": " + pi.Title
		}
		add(pi.Name, label)
	}
}

// panels consumes frames and updates the text panels: title, description
// and error when they change, the clock at most 10 times a second, the
// metrics when a frame carries them.
func (p *page) panels(l *broadcast.Listener[*app.Frame]) {
	var rev int64 = -1
	var lastClock, lastMove time.Time
	for f := range l.Ch() {
		if f.Rev != rev {
			rev = f.Rev
			p.setText("title", f.Title)
			p.setText("description", f.Description)
			p.doc.Set("title", "schedplay: "+f.Title)
			p.setText("last-move", "–")
			lastMove = time.Time{}
		}
		p.setError(f.Err)
		if now := time.Now(); now.Sub(lastClock) >= 100*time.Millisecond || !f.Playing {
			lastClock = now
			p.setText("clock", "t = "+fmtSimTime(f.Now)+" of "+fmtSimTime(f.Duration))
			state := "paused"
			switch {
			case f.Now >= f.Duration:
				state = "finished"
			case f.Playing:
				state = "▶ " + fmtSpeed(f.Speed)
			}
			p.setText("state", state)
			st := f.Stats
			p.setText("perf", fmt.Sprintf("%.0f fps · %.1f ms of work per frame · sim %s real time", st.FPS, st.FrameMS, fmtRTF(st.SimRTF)))
		}
		// The newest move's explanation, held for a moment so it can be read.
		if now := time.Now(); f.LastMove != "" && (now.Sub(lastMove) >= 700*time.Millisecond || !f.Playing) {
			lastMove = now
			p.setText("last-move", f.LastMove)
		}
		if m := f.Metrics; m != nil {
			p.setText("m-ops-per-s", fmtNum(m.OpsPerS))
			p.setText("m-ops", fmtNum(float64(m.Ops)))
			p.setText("m-wakeup", fmt.Sprintf("%s / %s µs", fmtUS(m.WakeupLatencyUS.P50), fmtUS(m.WakeupLatencyUS.P99)))
			p.setText("m-busy", fmt.Sprintf("%.1f %%", m.BusyPct))
			p.setText("m-iwo", fmt.Sprintf("%.2f ms", m.IdleWhileOverloadedMS))
			p.setText("m-ctx", fmtNum(float64(m.CtxSwitches)))
			mg := &m.Migrations
			p.setText("m-migrations", fmtNum(float64(mg.Total)))
			p.setText("m-wakeup-mig", fmtNum(float64(mg.Wakeup)))
			p.setText("m-balance", fmtNum(float64(mg.Balance)))
			p.setText("m-newidle", fmtNum(float64(mg.Newidle)))
			p.setText("m-nohz", fmtNum(float64(mg.Nohz)))
			p.setText("m-active", fmtNum(float64(mg.Active)))
			p.setText("m-fork", fmtNum(float64(mg.Fork)))
		}
	}
}

func (p *page) setError(text string) {
	if v, ok := p.shown["error"]; ok && v == text {
		return
	}
	p.setText("error", text)
	if e := p.el("error"); e.Truthy() {
		e.Set("hidden", text == "")
	}
}

// linkUpdater keeps the address bar on the share link of the scenario the
// user changed (loadScenario, set, a preset chosen). replaceState does not
// fire hashchange, so this does not reload anything.
func (p *page) linkUpdater(l *broadcast.Listener[*app.Frame]) {
	var written int64 = -1
	for f := range l.Ch() {
		if f.Link == "" || f.Rev == written {
			continue
		}
		written = f.Rev
		p.win.Get("history").Call("replaceState", js.Null(), "", "#"+f.Link)
	}
}

// shareURL is the page URL with the scenario's fragment.
func (p *page) shareURL(link string) string {
	href := p.win.Get("location").Get("href").String()
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	return href + "#" + link
}

func fmtSimTime(ns int64) string {
	switch {
	case ns < 1e6:
		return strconv.FormatFloat(float64(ns)/1e3, 'f', 1, 64) + " µs"
	case ns < 1e9:
		return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(float64(ns)/1e9, 'f', 3, 64) + " s"
}

func fmtSpeed(x float64) string {
	switch {
	case x >= 1:
		return strconv.FormatFloat(x, 'g', 3, 64) + "× real time"
	case x >= 1e-3:
		return strconv.FormatFloat(x*1e3, 'g', 3, 64) + " ms per s"
	}
	return strconv.FormatFloat(x*1e6, 'g', 3, 64) + " µs per s"
}

func fmtRTF(x float64) string {
	if x == 0 {
		return "0×"
	}
	return strconv.FormatFloat(x, 'g', 2, 64) + "×"
}

func fmtUS(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// fmtNum prints a count or rate with thin-space thousands separators.
func fmtNum(x float64) string {
	neg := x < 0
	if neg {
		x = -x
	}
	s := strconv.FormatFloat(x, 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u2009")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
