//go:build js

package main

import (
	"sync"
	"syscall/js"

	"schedplay/app"
)

// keyboard turns key presses anywhere on the page (the canvas, or the
// document when no form field has the focus) into app.Commands, queued for
// the next Update: input is read once per tick.
//
// Keys typed into a text field or a select, Space and Enter on a focused
// button, and keys with Ctrl, Alt or Meta held are the page's, not ours. A
// key we take is marked with preventDefault: the browser does not act on it
// (Space would scroll) and the page's own key handlers leave it alone.
type keyboard struct {
	mu    sync.Mutex
	queue []app.Command
}

// maxQueued bounds the commands waiting for the next tick (a held key repeats).
const maxQueued = 16

func installKeyboard() *keyboard {
	k := &keyboard{}
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
		if editable(e.Get("target"), key) {
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
		k.mu.Lock()
		if len(k.queue) < maxQueued {
			k.queue = append(k.queue, c)
		}
		k.mu.Unlock()
		return nil
	}), opts)
	return k
}

// take returns the queued commands and empties the queue.
func (k *keyboard) take() []app.Command {
	k.mu.Lock()
	defer k.mu.Unlock()
	q := k.queue
	k.queue = nil
	return q
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
