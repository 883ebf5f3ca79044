package render

import (
	"testing"

	"schedplay/sim"
)

func BenchmarkLayout256(b *testing.B) {
	tp, err := sim.NewTopology(&machines[5].m)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := NewLayout(tp, Rect{W: 1600, H: 1000}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCells256 is the per-frame scene work for a busy 256-CPU machine.
func BenchmarkCells256(b *testing.B) {
	tp, err := sim.NewTopology(&machines[5].m)
	if err != nil {
		b.Fatal(err)
	}
	l, err := NewLayout(tp, Rect{W: 1600, H: 1000}, nil)
	if err != nil {
		b.Fatal(err)
	}
	tasks := tasksN(1024)
	p := NewPainter(l, tasks, idle, nil)
	snap := emptySnap(tp.NCPU)
	for c := range snap.CPUs {
		snap.CPUs[c] = sim.CPUSnap{Curr: int32(c), Queue: []int32{int32(256 + c), int32(512 + c), int32(768 + c)}, IdleState: -1, UtilAvg: 700}
	}
	var g Glides
	var evs []sim.Event
	for i := range MaxGlides {
		evs = append(evs, sim.Event{Kind: sim.EvMigrate, Cause: sim.CauseBalance, From: int16(i), CPU: int16(255 - i), Task: int32(i)})
	}
	g.Add(evs, nil, tp, 0)
	var sc Scene
	b.ReportAllocs()
	for b.Loop() {
		sc.Reset()
		p.Cells(snap, &sc)
		p.Glides(&g, 0.1, &sc)
	}
}
