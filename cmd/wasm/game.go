//go:build js

package main

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/teivah/broadcast"

	"schedplay/app"
	"schedplay/render"
	"schedplay/render/ebitendraw"
)

// game is the Ebiten game: Update advances the session and publishes the
// frame; Draw takes the frames published since the last Draw from its
// listener and paints the newest one.
type game struct {
	sess   *app.Session
	hub    *app.Hub
	page   *page
	r      *ebitendraw.Renderer
	frames *broadcast.Listener[*app.Frame]

	start    time.Time
	lastTick time.Time
	last     *app.Frame
	glides   render.Glides

	// The layout is rebuilt when the scenario, the stage or the screen changes.
	layout     *render.Layout
	layoutErr  error
	painter    *render.Painter
	layoutRev  int64
	layoutArea render.Rect
	screenW    int
	screenH    int
	dyn        render.Scene // cells
	top        render.Scene // glides, drawn over the cells' labels
	msg        render.Scene

	drawn int
	ready bool
}

func newGame(sess *app.Session, hub *app.Hub, pg *page, r *ebitendraw.Renderer) *game {
	return &game{sess: sess, hub: hub, page: pg, r: r, start: time.Now(), layoutRev: -1}
}

// Update is one tick of the simulation (TPS is synced to the frame rate).
func (g *game) Update() error {
	now := time.Now()
	var dt time.Duration
	if !g.lastTick.IsZero() {
		dt = now.Sub(g.lastTick)
	}
	g.lastTick = now
	g.hub.Publish(g.sess.Tick(now, dt))
	return nil
}

// wall is the glides' clock, in seconds.
func (g *game) wall() float64 { return time.Since(g.start).Seconds() }

// take drains the canvas listener: every frame's moves start glides, the
// newest frame is drawn.
func (g *game) take() {
	for {
		select {
		case f := <-g.frames.Ch():
			if g.last == nil || f.Rev != g.last.Rev {
				g.glides.Clear()
			}
			g.glides.Add(f.Moves, g.wall())
			g.last = f
		default:
			return
		}
	}
}

func (g *game) Draw(screen *ebiten.Image) {
	t0 := time.Now()
	g.take()
	f := g.last
	if f == nil {
		screen.Fill(render.Background)
		return
	}
	sw, sh := screen.Bounds().Dx(), screen.Bounds().Dy()
	// The layout is in CSS pixels (so type sizes mean the same on every
	// screen); the renderer scales it to device pixels.
	area, scale := g.page.stageRect(float64(sw), float64(sh))
	if f.Rev != g.layoutRev || area != g.layoutArea || sw != g.screenW || sh != g.screenH {
		g.r.SetScale(scale)
		g.relayout(f, area, sw, sh)
	}
	if g.layout == nil {
		screen.Fill(render.Background)
		g.msg.Reset()
		cx, cy := area.Center()
		text := "the window is too small for this machine"
		if g.layoutErr != nil {
			text = g.layoutErr.Error()
		}
		g.msg.Label(cx, cy, 20, render.BoxLabel, text, render.AlignCenter)
		g.r.Draw(screen, &g.msg)
	} else {
		g.r.DrawStatic(screen)
		// Cells (with their labels) first, then the glides on top of them.
		g.dyn.Reset()
		g.painter.Cells(f.Snap, &g.dyn)
		g.r.Draw(screen, &g.dyn)
		g.top.Reset()
		g.painter.Glides(&g.glides, g.wall(), &g.top)
		g.r.Draw(screen, &g.top)
	}
	g.sess.DrawTime(time.Since(t0))
	g.drawn++
	if !g.ready && g.drawn >= 2 && g.layout != nil {
		g.ready = true
		g.page.setReady()
	}
}

func (g *game) relayout(f *app.Frame, area render.Rect, sw, sh int) {
	g.layoutRev, g.layoutArea, g.screenW, g.screenH = f.Rev, area, sw, sh
	l, err := render.NewLayout(f.Topology, area, g.r.Measure)
	g.layout, g.layoutErr = l, err
	if err != nil {
		g.painter = nil
		return
	}
	g.painter = render.NewPainter(l, f.Tasks, f.IdleStates, g.r.Measure)
	g.r.SetLayout(l, sw, sh)
}

// Layout: the screen has the canvas' device pixels, so text stays sharp on
// high-DPI screens and projectors.
func (g *game) Layout(w, h int) (int, int) {
	s := ebiten.Monitor().DeviceScaleFactor()
	return int(float64(w) * s), int(float64(h) * s)
}

func (g *game) LayoutF(w, h float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	return w * s, h * s
}
