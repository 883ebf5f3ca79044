//go:build js

// Command wasm is the browser entry point. The same module runs twice
// (web/loader.js compiles it once): in a dedicated worker (web/worker.js)
// it is the simulator (worker.go: an app.Session ticked in wall-clock time,
// posting frames); on the page it loads the scenario named by the page URL
// (#s=...) or the default preset, draws the worker's frames with Ebiten and
// installs the page API window.schedplay.
//
// Wiring (one way, top to bottom):
//
//	worker: Session.Tick ─▶ *frame.Frame ─wire─▶ postMessage
//	page:   onmessage ─wire─▶ *frame.Frame ──Hub.Publish (Broadcast)──┬─▶ canvas (drained in Draw)
//	                                                                ├─▶ page panels goroutine
//	                                                                └─▶ link updater goroutine
//	window.schedplay.* and hashchange ──▶ front (front.go): the shadow Session for the
//	        synchronous result, then the same call, numbered, to the worker's Session
//
// The simulator is only ever called by the worker's Session.
package main

import (
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"schedplay/app"
	"schedplay/render/ebitendraw"
	"schedplay/scenarios"
)

func main() {
	if inWorker() {
		runWorker()
		return
	}
	// The start's steps, read by cmd/coldstart with the loader's marks:
	// main is where the package initialisers ended (Ebiten's shaders among
	// them), shadow-loaded where the page's copy of the scenario is ready.
	mark("schedplay:main")
	pageGC()
	hub := app.NewHub()
	pg := newPage()
	worker := js.Global().Get("schedplayWorker")
	if !worker.Truthy() {
		pg.fatal("no simulator worker (web/loader.js starts it)")
		return
	}
	sess := newFront(worker, hub)
	pg.fastForward = sess.fastForward
	worker.Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		sess.onMessage(args[0].Get("data"))
		return nil
	}))

	r, err := ebitendraw.New()
	if err != nil {
		pg.fatal("font: " + err.Error())
		return
	}
	g := newGame(sess, hub, pg, r)
	installKeyboard(sess.Do) // errors show in the page's error area

	// Consumers. The canvas drains its channel every frame; the panels only
	// need the latest state; the link updater only acts on revisions.
	g.frames = hub.Listen(16)
	go pg.panels(hub.Listen(4))
	go pg.linkUpdater(hub.Listen(4))
	go runEventLog(pg.log, hub.Listen(64))

	installAPI(sess, g, pg)

	loadFromURL(sess, pg.hash())
	mark("schedplay:shadow-loaded")
	js.Global().Call("addEventListener", "hashchange", js.FuncOf(func(this js.Value, args []js.Value) any {
		// The event's newURL, not location.hash: the link updater may have
		// replaced the fragment (replaceState) since the change that fired
		// this event.
		h := pg.hash()
		if len(args) > 0 {
			if u := args[0].Get("newURL"); u.Type() == js.TypeString {
				if i := strings.IndexByte(u.String(), '#'); i >= 0 {
					h = u.String()[i:]
				}
			}
		}
		if strings.Contains(h, "s=") {
			// Event handlers must not block: load on a goroutine.
			go loadFromURL(sess, h)
		}
		return nil
	}))

	singleSampledCanvas()
	ebiten.SetWindowTitle("schedplay")
	ebiten.SetTPS(ebiten.SyncWithFPS)        // one Update per drawn frame
	ebiten.SetRunnableOnUnfocused(true)      // keep playing on a projector without focus
	ebiten.SetScreenClearedEveryFrame(false) // Draw covers the whole screen
	if err := ebiten.RunGame(g); err != nil {
		pg.fatal(err.Error())
		consoleError(err.Error())
	}
}

// loadFromURL loads the scenario of a "#s=..." fragment, or the default
// preset. A bad link is reported on the page and the default plays instead.
func loadFromURL(sess *front, hash string) {
	if strings.Contains(hash, "s=") {
		err := sess.LoadLink(hash)
		if err == nil {
			return
		}
		if derr := sess.LoadPreset(scenarios.DefaultPreset, false); derr != nil {
			sess.SetError(err.Error() + "\n" + derr.Error())
			return
		}
		sess.SetError(err.Error() + "\nShowing the default scenario instead.")
		return
	}
	if err := sess.LoadPreset(scenarios.DefaultPreset, false); err != nil {
		sess.SetError(err.Error())
	}
}

// singleSampledCanvas makes the canvas' WebGL 2 context before Ebiten
// asks for it, with Ebiten's attributes (internal/graphicsdriver/opengl,
// v2.8.8: alpha, premultipliedAlpha, stencil) and without WebGL's default
// multisampling and depth buffer: Ebiten draws every frame into images of
// its own and copies the finished screen onto the canvas pixel for pixel,
// so the canvas' 4x multisampled buffer only cost its resolve at each frame
// and four times the canvas' memory (132 MB at 3840x2160), and nothing
// tests depth. The same HTMLCanvasElement hands Ebiten this context
// (getContext returns the one it has); the pictures are the same to the
// pixel. Under SwiftShader the page paints 18-19 frames a second instead of
// 12.7 for the same CPU (docs/performance.md, round twenty-four). Without
// a document or Ebiten's canvas, nothing is done.
func singleSampledCanvas() {
	doc := js.Global().Get("document")
	if !doc.Truthy() {
		return
	}
	c := doc.Call("querySelector", "body > canvas")
	if !c.Truthy() {
		return
	}
	attr := js.Global().Get("Object").New()
	attr.Set("alpha", true)
	attr.Set("premultipliedAlpha", true)
	attr.Set("stencil", true)
	attr.Set("antialias", false)
	attr.Set("depth", false)
	c.Call("getContext", "webgl2", attr)
}

// consoleError writes msg to the browser's console (the standard log
// package would do the same through os.Stderr, at 6 kB of the download).
func consoleError(msg string) {
	js.Global().Get("console").Call("error", msg)
}

// mark is performance.mark(name): a step of the page's start.
func mark(name string) { js.Global().Get("performance").Call("mark", name) }
