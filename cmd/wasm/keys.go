//go:build js

package main

import (
	"syscall/js"

	"schedplay/app"
)

// installKeyboard turns key presses anywhere on the page (the canvas, or
// the document when no form field has the focus) into app.Commands and
// applies each one in the keydown handler itself, through do: a press acts
// at once and once, whatever the frame rate. (Queued for the next Ebiten
// Update, as before, presses made between two frames of a slow page were
// applied together in one bunch when the frame came.) The commands only
// post to the worker and update the main thread's shadow state, so the
// handler does not block; the effect shows as soon as the worker's frame
// arrives (the page's panels follow frames, not Ebiten's ticks).
//
// Keys typed into a text field or a select, Space and Enter on a focused
// button, keys while a modal dialog is open, and keys with Ctrl, Alt or
// Meta held are the page's, not ours. A
// key we take is marked with preventDefault: the browser does not act on it
// (Space would scroll) and the page's own key handlers leave it alone.
func installKeyboard(do func(app.Command)) {
	// Capture on window: we see the key before the page's own handlers
	// and, by preventDefault, tell them it was taken.
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	js.Global().Call("addEventListener", "keydown", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		if e.Get("ctrlKey").Bool() || e.Get("altKey").Bool() || e.Get("metaKey").Bool() || e.Get("defaultPrevented").Bool() {
			return nil
		}
		key := e.Get("key").String()
		if editable(e.Get("target"), key) || modalOpen() {
			return nil
		}
		c := app.KeyCommand(key)
		if c == app.CmdNone {
			return nil
		}
		e.Call("preventDefault")
		if c == app.CmdFullscreen {
			// Browsers grant full screen only inside the key's handler.
			toggleFullscreen()
			return nil
		}
		do(c)
		return nil
	}), opts)
}

// editable reports whether key belongs to a form control: typing in a
// text field, picking in a select, Space or Enter on a focused button or link.
func editable(t js.Value, key string) bool {
	if !t.Truthy() || !t.Get("tagName").Truthy() {
		return false
	}
	switch t.Get("tagName").String() {
	case "INPUT", "TEXTAREA", "SELECT", "OPTION":
		return true
	case "BUTTON", "A", "SUMMARY":
		return key == " " || key == "Enter"
	}
	return t.Get("isContentEditable").Truthy()
}

// modalOpen: a modal dialog of the page (a confirmation) is open; the keys
// are its own.
func modalOpen() bool {
	return js.Global().Get("document").Call("querySelector", "dialog[open]").Truthy()
}

var ignore = js.FuncOf(func(this js.Value, args []js.Value) any { return nil })

// toggleFullscreen puts the whole page (canvas and panels) in full screen,
// or leaves it. Ebiten's SetFullscreen would take only the canvas, leaving
// the page's panels and the stage rectangle behind.
func toggleFullscreen() {
	doc := js.Global().Get("document")
	if doc.Get("fullscreenElement").Truthy() {
		if f := doc.Get("exitFullscreen"); f.Truthy() {
			doc.Call("exitFullscreen")
		}
		return
	}
	el := doc.Get("documentElement")
	if f := el.Get("requestFullscreen"); f.Truthy() {
		p := el.Call("requestFullscreen")
		// A refused request rejects the promise: swallow it (the page stays as it is).
		if p.Truthy() && p.Get("catch").Truthy() {
			p.Call("catch", ignore)
		}
	}
}
