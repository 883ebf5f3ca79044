package render

import (
	"image/color"
	"math"
	"slices"
)

// Quad is a filled quadrilateral, corners in order (clockwise or not).
// Colours are straight (not premultiplied) alpha.
type Quad struct {
	X, Y [4]float32
	C    color.RGBA
}

// Align is the horizontal anchor of a Text.
type Align uint8

const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// Text is one label: X is the anchor given by Align, Y the vertical middle.
type Text struct {
	X, Y  float64
	Size  float64
	C     color.RGBA
	S     string
	Align Align
}

// Image is a pixel buffer drawn scaled into Dst with nearest-neighbour
// sampling (the heatmaps). A drawer keeps one GPU image per ID and uploads
// Pix again only when Version changes.
type Image struct {
	ID      int
	Version uint64
	W, H    int
	Pix     []byte // RGBA, straight alpha, row-major, W*H*4 bytes
	Dst     Rect
}

// Scene is a display list: quads first, then texts on top.
type Scene struct {
	Quads []Quad
	Texts []Text
}

// Equal reports whether s and o hold the same display list.
func (s *Scene) Equal(o *Scene) bool {
	return slices.Equal(s.Quads, o.Quads) && slices.Equal(s.Texts, o.Texts)
}

// Reset empties the scene, keeping its storage.
func (s *Scene) Reset() {
	s.Quads = s.Quads[:0]
	s.Texts = s.Texts[:0]
}

// Fill adds a filled rectangle.
func (s *Scene) Fill(r Rect, c color.RGBA) {
	if r.W <= 0 || r.H <= 0 || c.A == 0 {
		return
	}
	x0, y0, x1, y1 := float32(r.X), float32(r.Y), float32(r.Right()), float32(r.Bottom())
	s.Quads = append(s.Quads, Quad{X: [4]float32{x0, x1, x1, x0}, Y: [4]float32{y0, y0, y1, y1}, C: c})
}

// Stroke adds the outline of r, w pixels wide, inside r.
func (s *Scene) Stroke(r Rect, w float64, c color.RGBA) {
	w = min(w, r.W/2, r.H/2)
	if w <= 0 {
		return
	}
	s.Fill(Rect{r.X, r.Y, r.W, w}, c)
	s.Fill(Rect{r.X, r.Bottom() - w, r.W, w}, c)
	s.Fill(Rect{r.X, r.Y + w, w, r.H - 2*w}, c)
	s.Fill(Rect{r.Right() - w, r.Y + w, w, r.H - 2*w}, c)
}

// Line adds a segment w pixels wide.
func (s *Scene) Line(x0, y0, x1, y1, w float64, c color.RGBA) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n < 0.01 || c.A == 0 {
		return
	}
	px, py := -dy/n*w/2, dx/n*w/2
	s.Quads = append(s.Quads, Quad{
		X: [4]float32{float32(x0 + px), float32(x1 + px), float32(x1 - px), float32(x0 - px)},
		Y: [4]float32{float32(y0 + py), float32(y1 + py), float32(y1 - py), float32(y0 - py)},
		C: c,
	})
}

// Polyline strokes the path through xs, ys, w pixels wide, with an optional
// dash pattern (lengths in multiples of w, on and off alternating; the
// pattern runs on across the vertices).
func (s *Scene) Polyline(xs, ys []float64, w float64, c color.RGBA, dash Pattern) {
	if len(dash) == 0 {
		for i := 1; i < len(xs); i++ {
			s.Line(xs[i-1], ys[i-1], xs[i], ys[i], w, c)
		}
		return
	}
	k := 0              // index in dash
	left := dash[0] * w // length left in the current dash element
	for i := 1; i < len(xs); i++ {
		x0, y0 := xs[i-1], ys[i-1]
		seg := math.Hypot(xs[i]-x0, ys[i]-y0)
		if seg == 0 {
			continue
		}
		ux, uy := (xs[i]-x0)/seg, (ys[i]-y0)/seg
		pos := 0.0
		for pos < seg {
			step := min(left, seg-pos)
			if k%2 == 0 {
				s.Line(x0+ux*pos, y0+uy*pos, x0+ux*(pos+step), y0+uy*(pos+step), w, c)
			}
			pos += step
			left -= step
			if left <= 1e-9 {
				k = (k + 1) % len(dash)
				left = dash[k] * w
			}
		}
	}
}

// Label adds a text.
func (s *Scene) Label(x, y, size float64, c color.RGBA, str string, a Align) {
	if str == "" || size <= 0 {
		return
	}
	s.Texts = append(s.Texts, Text{X: x, Y: y, Size: size, C: c, S: str, Align: a})
}

// Append adds o's quads and texts to s.
func (s *Scene) Append(o *Scene) {
	s.Quads = append(s.Quads, o.Quads...)
	s.Texts = append(s.Texts, o.Texts...)
}

// StaticScene draws the layout's boxes and their labels into dst (after
// resetting it). Cells are dynamic: they change colour with the CPU's state.
func StaticScene(l *Layout, dst *Scene) {
	dst.Reset()
	AppendStatic(l, dst)
}

// AppendStatic adds the layout's boxes and their labels to dst.
func AppendStatic(l *Layout, dst *Scene) {
	for i := range l.Boxes {
		b := &l.Boxes[i]
		border, width := BoxBorder, 2.0
		if b.Is(KindCore) && b.Label == "" {
			border, width = CoreBorder, 1
		}
		dst.Fill(b.Rect, boxFill(b.Depth))
		dst.Stroke(b.Rect, width, border)
		dst.Label(b.LabelX, b.LabelY, l.BoxFont, BoxLabel, b.Label, AlignLeft)
	}
}
