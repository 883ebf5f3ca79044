package app

import (
	"testing"
	"time"
)

// BenchmarkTick is one frame of the default scenario at the default speed
// (16.7 ms of wall time), simulator included.
func BenchmarkTick(b *testing.B) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		b.Fatal(err)
	}
	s.SetBudget(time.Hour)
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second / 60)
		if s.Tick(now, time.Second/60) == nil {
			b.Fatal("no frame")
		}
		if !s.Playing() {
			s.Play() // restart at the end of the run
		}
	}
}
