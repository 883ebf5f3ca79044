package canvas

import (
	"testing"
	"time"

	"schedplay/app"
	"schedplay/frame"
	"schedplay/render"
	"schedplay/scenarios"
)

// benchFrames plays sh's scenario and returns a canvas with its frames taken.
func benchSession(b *testing.B, sh shot) (*app.Session, *Canvas) {
	b.Helper()
	sc, err := scenarios.Preset(sh.preset)
	if err != nil {
		b.Fatal(err)
	}
	for _, kv := range sh.sets {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			b.Fatal(err)
		}
	}
	s := app.NewSession()
	if err := s.Load(sc, false); err != nil {
		b.Fatal(err)
	}
	s.SetTalk(sh.talk)
	s.SetSpeed(sh.speed)
	s.SetBudget(time.Hour)
	return s, New(render.ApproxMeasure)
}

// BenchmarkBuild is the canvas work of one drawn frame (Take and Build,
// not the session's Tick), at 80 and 256 CPUs.
func BenchmarkBuild(b *testing.B) {
	for _, sh := range shots {
		if sh.name != "80cpu" && sh.name != "256cpu" && sh.name != "256cpu-talk" && sh.name != "80cpu-ab" {
			continue
		}
		b.Run(sh.name, func(b *testing.B) {
			s, c := benchSession(b, sh)
			if sh.compare != nil {
				s.SetCompare(sh.compare)
			}
			var frames []*frame.Frame
			t0 := time.Unix(0, 0)
			for i := range 120 {
				frames = append(frames, s.Tick(t0.Add(time.Duration(i)*time.Second/30), time.Second/30))
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				f := frames[i%len(frames)]
				c.Take(f, float64(i)/30)
				c.Build(sh.stage, float64(i)/30)
				i++
			}
		})
	}
}

// BenchmarkTick is the session's side of a frame (simulator, series, log
// with explanations) for the same scenarios.
func BenchmarkTick(b *testing.B) {
	for _, sh := range shots {
		if sh.name != "80cpu" && sh.name != "256cpu" {
			continue
		}
		b.Run(sh.name, func(b *testing.B) {
			s, _ := benchSession(b, sh)
			t0 := time.Unix(0, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				s.Tick(t0.Add(time.Duration(i)*time.Second/30), time.Second/30)
				if !s.Playing() {
					s.Play()
				}
				i++
			}
		})
	}
}
