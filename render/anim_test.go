package render

import (
	"math"
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

func TestEase(t *testing.T) {
	if Ease(0) != 0 || Ease(1) != 1 || math.Abs(Ease(0.5)-0.5) > 1e-12 {
		t.Errorf("Ease endpoints: %v %v %v", Ease(0), Ease(0.5), Ease(1))
	}
	prev := 0.0
	for i := 1; i <= 100; i++ {
		v := Ease(float64(i) / 100)
		if v < prev {
			t.Fatalf("Ease not monotonic at %d", i)
		}
		prev = v
	}
	if Ease(-1) != 0 || Ease(2) != 1 {
		t.Errorf("Ease does not clamp")
	}
}

func TestGlides(t *testing.T) {
	g := Glides{Max: 3}
	evs := []sim.Event{
		{Kind: sim.EvWakeup, From: 0, CPU: 1, Task: 1},
		{Kind: sim.EvSwitch, CPU: 1, Task: 1},
		{Kind: sim.EvMigrate, Cause: sim.CauseNewidle, From: 1, CPU: 2, Task: 2},
	}
	g.Add(evs, nil, nil, 0)
	act := g.Active(0.1)
	if len(act) != 2 {
		t.Fatalf("%d glides, want 2", len(act))
	}
	if act[0].Cause != sim.CauseWakeup {
		t.Errorf("a wake-up without cause glides as %v, want wakeup", act[0].Cause)
	}
	// Task 1 moves again: its glide is replaced, not doubled.
	g.Add([]sim.Event{{Kind: sim.EvMigrate, Cause: sim.CauseActive, From: 1, CPU: 3, Task: 1}}, nil, nil, 0.2)
	act = g.Active(0.2)
	if len(act) != 2 || act[1].Task != 1 || act[1].From != 1 || act[1].To != 3 {
		t.Fatalf("after re-move: %+v", act)
	}
	// Max: the oldest gives way.
	g.Add([]sim.Event{
		{Kind: sim.EvMigrate, From: 0, CPU: 3, Task: 7},
		{Kind: sim.EvMigrate, From: 0, CPU: 3, Task: 8},
	}, nil, nil, 0.25)
	act = g.Active(0.25)
	if len(act) != 3 || act[0].Task != 1 {
		t.Fatalf("after overflow: %+v", act)
	}
	// Finished glides go.
	if n := len(g.Active(0.25 + GlideDuration + Linger)); n != 0 {
		t.Errorf("%d glides left after they all ended", n)
	}
	if p := (&Glide{Start: 1}).Progress(1+GlideDuration/2, GlideDuration); math.Abs(p-0.5) > 1e-9 {
		t.Errorf("Progress = %v", p)
	}
}
