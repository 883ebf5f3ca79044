//go:build js

package main

import (
	"github.com/teivah/broadcast"

	"schedplay/cmd/wasm/pagemodel"
	"schedplay/frame"
)

// runEventLog feeds the page's event log (pagemodel.EventLog) from its own
// listener, which does nothing but copy, so it keeps up with the frame rate
// and the log has no holes.
func runEventLog(l *pagemodel.EventLog, ch *broadcast.Listener[*frame.Frame]) {
	for f := range ch.Ch() {
		l.Add(f)
	}
}
