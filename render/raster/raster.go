// Package raster draws render's display lists in software, without Ebiten
// or a GPU: quads with golang.org/x/image/vector, text with render/glyphs
// as the browser does, images scaled nearest-neighbour. Tests use
// it for golden images and to look at a frame natively; it is not used in
// the browser.
package raster

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"

	"schedplay/render"
	"schedplay/render/glyphs"
)

// Measure is render.Measure with Go Medium (render/glyphs, as the page).
func Measure(s string, size float64) float64 {
	return glyphs.Measure(s, size)
}

// Canvas is an RGBA image that scenes are drawn onto.
type Canvas struct {
	Img   *image.RGBA
	Scale float64 // device pixels per layout pixel
	ras   *vector.Rasterizer
}

// New returns a w x h canvas filled with bg.
func New(w, h int, scale float64, bg color.RGBA) *Canvas {
	c := &Canvas{Img: image.NewRGBA(image.Rect(0, 0, w, h)), Scale: scale, ras: vector.NewRasterizer(w, h)}
	draw.Draw(c.Img, c.Img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return c
}

// Scene draws s: its quads, then its texts.
func (c *Canvas) Scene(s *render.Scene) {
	sc := float32(c.Scale)
	b := c.Img.Bounds()
	for _, q := range s.Quads {
		var x0, y0, x1, y1 float32 = q.X[0] * sc, q.Y[0] * sc, q.X[0] * sc, q.Y[0] * sc
		for k := 1; k < 4; k++ {
			x0, x1 = min(x0, q.X[k]*sc), max(x1, q.X[k]*sc)
			y0, y1 = min(y0, q.Y[k]*sc), max(y1, q.Y[k]*sc)
		}
		src := image.NewUniform(color.NRGBA{q.C.R, q.C.G, q.C.B, q.C.A})
		if q.X[0] == q.X[3] && q.X[1] == q.X[2] && q.Y[0] == q.Y[1] && q.Y[2] == q.Y[3] {
			// An axis-aligned rectangle: fill whole pixels.
			r := image.Rect(int(math.Round(float64(x0))), int(math.Round(float64(y0))), int(math.Round(float64(x1))), int(math.Round(float64(y1)))).Intersect(b)
			if r.Dx() <= 0 || r.Dy() <= 0 {
				if r.Dx() == 0 && x1 > x0 && r.Dy() > 0 { // thinner than a pixel: one column
					r.Max.X = r.Min.X + 1
				} else if r.Dy() == 0 && y1 > y0 && r.Dx() > 0 {
					r.Max.Y = r.Min.Y + 1
				} else {
					continue
				}
			}
			draw.Draw(c.Img, r, src, image.Point{}, draw.Over)
			continue
		}
		// Anything else: anti-aliased, rasterized in its bounding box.
		bb := image.Rect(int(math.Floor(float64(x0))), int(math.Floor(float64(y0))), int(math.Ceil(float64(x1))), int(math.Ceil(float64(y1)))).Intersect(b)
		if bb.Empty() {
			continue
		}
		ox, oy := float32(bb.Min.X), float32(bb.Min.Y)
		c.ras.Reset(bb.Dx(), bb.Dy())
		c.ras.MoveTo(q.X[0]*sc-ox, q.Y[0]*sc-oy)
		for k := 1; k < 4; k++ {
			c.ras.LineTo(q.X[k]*sc-ox, q.Y[k]*sc-oy)
		}
		c.ras.ClosePath()
		c.ras.DrawOp = draw.Over
		c.ras.Draw(c.Img, bb, src, image.Point{})
	}
	for _, t := range s.Texts {
		size := t.Size * c.Scale
		w := glyphs.Measure(t.S, size)
		x := t.X * c.Scale
		switch t.Align {
		case render.AlignCenter:
			x -= w / 2
		case render.AlignRight:
			x -= w
		}
		y := t.Y*c.Scale + (glyphs.Ascent(size)-glyphs.Descent(size))/2
		glyphs.Draw(c.Img, image.NewUniform(color.NRGBA{t.C.R, t.C.G, t.C.B, t.C.A}), x, y, t.S, size)
	}
}

// Image draws im scaled into its Dst rectangle, nearest-neighbour.
func (c *Canvas) Image(im *render.Image) {
	if im.W <= 0 || im.H <= 0 {
		return
	}
	x0, y0 := int(math.Round(im.Dst.X*c.Scale)), int(math.Round(im.Dst.Y*c.Scale))
	x1, y1 := int(math.Round(im.Dst.Right()*c.Scale)), int(math.Round(im.Dst.Bottom()*c.Scale))
	b := c.Img.Bounds()
	for y := max(y0, b.Min.Y); y < min(y1, b.Max.Y); y++ {
		sy := (y - y0) * im.H / max(1, y1-y0)
		for x := max(x0, b.Min.X); x < min(x1, b.Max.X); x++ {
			sx := (x - x0) * im.W / max(1, x1-x0)
			o := (sy*im.W + sx) * 4
			src := color.NRGBA{im.Pix[o], im.Pix[o+1], im.Pix[o+2], im.Pix[o+3]}
			if src.A == 0xff {
				c.Img.Set(x, y, src)
				continue
			}
			dr, dg, db, _ := c.Img.At(x, y).RGBA()
			a := uint32(src.A)
			mix := func(s uint8, d uint32) uint8 { return uint8((uint32(s)*a + (d>>8)*(255-a)) / 255) }
			c.Img.Set(x, y, color.RGBA{mix(src.R, dr), mix(src.G, dg), mix(src.B, db), 0xff})
		}
	}
}
