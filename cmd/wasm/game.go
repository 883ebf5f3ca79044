//go:build js

package main

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/teivah/broadcast"

	"schedplay/app"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/render/canvas"
	"schedplay/render/ebitendraw"
)

// game is the Ebiten game: Update ticks the main thread's meter (keys act
// in their keydown handler, keys.go; frames come from the worker); Draw
// takes the frames published since the last Draw from its listener and
// paints the newest one. What to
// draw is package canvas's business (tested natively); this file only
// hands its layers to the renderer.
type game struct {
	sess   *front
	hub    *app.Hub
	page   *page
	r      *ebitendraw.Renderer
	frames *broadcast.Listener[*frame.Frame]

	start time.Time
	cv    *canvas.Canvas

	staticVer uint64 // canvas static version drawn into the renderer's cache
	screenW   int
	screenH   int
	area      render.Rect // the stage the static layer was last drawn for
	msg       render.Scene

	drawn int
	ready bool
	// stilled: the shadow's picture at t = 0 was asked for (once, before
	// the worker's first frame), still is that frame; fromWorker: a frame
	// of the worker's has been taken.
	stilled, fromWorker bool
	still               *frame.Frame
	// shown: the screen holds the canvas' last picture (not the blank
	// background of before the first frame, nor an error message).
	shown          bool
	blankW, blankH int // the screen size the background was filled for
}

func newGame(sess *front, hub *app.Hub, pg *page, r *ebitendraw.Renderer) *game {
	return &game{sess: sess, hub: hub, page: pg, r: r, start: time.Now(), cv: canvas.New(r.Measure)}
}

// Update ticks the main thread's meter; the frames come from the worker
// (front.onMessage publishes them as they arrive) and keys act in their
// keydown handler (keys.go). TPS is synced to the frame rate.
func (g *game) Update() error {
	g.sess.tick(time.Now())
	return nil
}

// wall is the animations' clock, in seconds.
func (g *game) wall() float64 { return time.Since(g.start).Seconds() }

// take drains the canvas listener: every frame's moves start glides, the
// newest frame is drawn.
func (g *game) take() {
	for {
		select {
		case f := <-g.frames.Ch():
			g.cv.Take(f, g.wall())
			if f != g.still {
				g.fromWorker = true
			}
		default:
			return
		}
	}
}

func (g *game) Draw(screen *ebiten.Image) {
	t0 := time.Now()
	g.take()
	if g.cv.Frame() == nil && !g.stilled {
		// Before the worker's first frame: the scenario at t = 0 as the
		// page's shadow has it, so the machine is on screen while the
		// worker starts (its frames replace this one as they come).
		g.stilled = true
		if g.still = g.sess.still(); g.still != nil {
			g.take()
		}
	}
	sw, sh := screen.Bounds().Dx(), screen.Bounds().Dy()
	if g.cv.Frame() == nil {
		// No frame yet (no scenario loaded: the shadow had no still
		// frame, and the worker has sent none): the background, filled once
		// per screen size (Ebiten then skips presenting the frames that
		// change nothing, and the GPU's time goes to the start).
		if g.blankW != sw || g.blankH != sh {
			screen.Fill(render.Background)
			g.blankW, g.blankH = sw, sh
		}
		g.shown = false
		return
	}
	// The layout is in CSS pixels (so type sizes mean the same on every
	// screen); the renderer scales it to device pixels.
	area, scale := g.page.stageRect(float64(sw), float64(sh))
	g.r.SetScale(scale)
	g.cv.Build(area, g.wall())
	static, ver := g.cv.Static()
	painted := true
	// relaid: the screen does not hold this layout's static layer at this
	// size (a relayout, a resize, or the blank or error screen before).
	relaid := !g.shown || ver != g.staticVer || sw != g.screenW || sh != g.screenH || area != g.area
	if err := g.cv.Err(); err != nil {
		screen.Fill(render.Background)
		g.msg.Reset()
		cx, cy := area.Center()
		g.msg.Label(cx, cy, 20, render.BoxLabel, err.Error(), render.AlignCenter)
		g.r.Draw(screen, &g.msg)
		g.shown = false
	} else if !relaid && g.cv.Unchanged() && !g.r.Pending() {
		// The same picture as the one on screen (a paused run whose
		// glides have landed), and whole (no label left for a later
		// frame): leave it. Nothing drawn, Ebiten presents nothing, and
		// under a software GL the GPU process stops taking a core from
		// the simulator's thread.
		painted = false
	} else {
		if relaid {
			g.staticVer, g.screenW, g.screenH, g.area = ver, sw, sh, area
			g.r.SetStatic(static, sw, sh)
			g.r.DrawStatic(screen) // the whole screen once
		}
		// Only the stage changes from frame to frame; outside it the
		// page's panels cover the canvas (it was filled when the static
		// layer was redrawn).
		g.r.DrawStaticIn(screen, area.Inset(-4))
		g.r.Draw(screen, g.cv.Dynamic())
		g.r.DrawImages(screen, g.cv.Images())
		g.r.Draw(screen, g.cv.Top())
		g.shown = true
	}
	if painted {
		g.r.EndFrame()
	}
	g.sess.DrawTime(time.Since(t0))
	g.drawn++
	g.page.drew(ver, painted, g.r.Pending())
	g.page.markFrame(g.fromWorker)
	if !g.ready && g.fromWorker && g.drawn >= 2 && g.cv.Err() == nil && g.page.wired() {
		g.ready = true
		g.page.setReady()
	}
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
