package frame

import (
	"testing"

	"schedplay/sim"
)

func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		e    sim.Event
		want bool
	}{
		{sim.Event{Kind: sim.EvMigrate, From: 0, CPU: 1, Task: 2}, true},
		{sim.Event{Kind: sim.EvWakeup, From: 3, CPU: 1, Task: 2}, true},
		{sim.Event{Kind: sim.EvWakeup, From: 1, CPU: 1, Task: 2}, false},  // woke where it slept
		{sim.Event{Kind: sim.EvWakeup, From: -1, CPU: 1, Task: 2}, false}, // first wake-up
		{sim.Event{Kind: sim.EvSwitch, From: 0, CPU: 1, Task: 2}, false},
		{sim.Event{Kind: sim.EvMigrate, From: 0, CPU: 1, Task: -1}, false},
		{sim.Event{Kind: sim.EvFork, From: 0, CPU: 5, Task: 2}, true},  // fork balancing placed it away
		{sim.Event{Kind: sim.EvFork, From: 0, CPU: 0, Task: 2}, false}, // on its parent's CPU
	} {
		if got := Moves(&tc.e); got != tc.want {
			t.Errorf("Moves(%+v) = %v, want %v", tc.e, got, tc.want)
		}
	}
}
