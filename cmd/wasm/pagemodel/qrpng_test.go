package pagemodel

import (
	"bytes"
	"image/png"
	"testing"
)

// bilevelPNG's files decode (by image/png) to the pixels it was given, at
// sizes around a byte's edge.
func TestBilevelPNG(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 29, 105, 185} {
		dark := func(x, y int) bool { return (x*7+y*y*3+x*y)%5 < 2 }
		b, err := bilevelPNG(n, dark)
		if err != nil {
			t.Fatal(err)
		}
		im, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("n %d: %v", n, err)
		}
		if im.Bounds().Dx() != n || im.Bounds().Dy() != n {
			t.Fatalf("n %d: decoded %v", n, im.Bounds())
		}
		bad := 0
		for y := range n {
			for x := range n {
				r, _, _, _ := im.At(x, y).RGBA()
				if (r == 0) != dark(x, y) {
					bad++
				}
			}
		}
		if bad > 0 {
			t.Errorf("n %d: %d pixels differ", n, bad)
		}
	}
}
