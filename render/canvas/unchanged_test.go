package canvas

import (
	"bytes"
	"testing"
	"time"

	"schedplay/render"
	"schedplay/render/raster"
)

// A drawer paints a frame only when its picture differs from the one on
// screen (Unchanged). The picture changes while the machine plays and
// while a move still glides; once the run is paused and the glides have
// landed, every Build gives the same picture, and a paused page paints
// nothing. Rasterizing both Builds says the picture really is the same.
func TestUnchangedOnlyWhenThePictureIs(t *testing.T) {
	s := session(t, shot{preset: "tbench-pairs", sets: [][2]string{{"tasks.client.count", "8"}}, speed: 0.001})
	c := New(raster.Measure)
	t0 := time.Unix(1000, 0)
	wall := 0.0
	changed := 0
	moves := 0
	for i := 0; i < 60; i++ {
		wall = float64(i) / 30
		f := s.Tick(t0.Add(time.Duration(wall*float64(time.Second))), time.Second/30)
		moves += len(f.A().Moves)
		c.Take(f, wall)
		c.Build(normalStage, wall)
		if i > 0 && !c.Unchanged() {
			changed++
		}
	}
	if moves == 0 {
		t.Fatal("8 tbench pairs made no move in 2 s of wall time: nothing glides, the test proves nothing")
	}
	// Playing, the cells and charts move with the simulated time: nearly
	// every frame is a new picture.
	if changed < 50 {
		t.Errorf("playing: %d of 59 frames changed the picture; want nearly all", changed)
	}

	s.Pause()
	f := s.Tick(t0.Add(time.Duration(wall*float64(time.Second))), time.Second/30)
	c.Take(f, wall)
	c.Build(normalStage, wall)
	// A move taken just before still glides: the picture changes with the
	// wall time alone until it lands.
	if len(c.sides[0].glides.Active(wall)) > 0 {
		c.Build(normalStage, wall+render.MinGlide/2)
		if c.Unchanged() {
			t.Errorf("a glide under way at %.2f s, and the next Build was called unchanged", wall)
		}
	} else {
		t.Logf("no glide under way at the pause (%d moves in all)", moves)
	}
	// Landed (GlideDuration, then Linger for the badge): the same picture
	// frame after frame.
	later := wall + render.GlideDuration + render.Linger + 1
	c.Build(normalStage, later)
	before := rasterize(c, 1200, 1000)
	for i := 1; i <= 3; i++ {
		c.Build(normalStage, later+float64(i)/60)
		if !c.Unchanged() {
			t.Fatalf("paused, glides landed: Build %d at %.2f s changed the picture", i, later+float64(i)/60)
		}
	}
	if after := rasterize(c, 1200, 1000); !samePixels(before, after) {
		t.Fatal("Unchanged, but the rasterized picture differs")
	}
	// Another stage is another picture (a relayout).
	c.Build(wideStage, later+1)
	if c.Unchanged() {
		t.Error("the stage changed and the Build was called unchanged")
	}
	// A new frame that moves the machine on is another picture too.
	s.Play()
	for i := 0; i < 3; i++ {
		f = s.Tick(t0.Add(time.Duration((later+2+float64(i)/30)*float64(time.Second))), time.Second/30)
		c.Take(f, later+2+float64(i)/30)
	}
	c.Build(wideStage, later+2.1)
	if c.Unchanged() {
		t.Error("played on after the pause, and the Build was called unchanged")
	}
}

func samePixels(a, b *raster.Canvas) bool {
	return bytes.Equal(a.Img.Pix, b.Img.Pix)
}
