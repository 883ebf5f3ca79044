//go:build js

// Package ebitendraw hands render's display lists to Ebiten: quads in
// batched DrawTriangles calls, labels with text/v2 in Go Medium, and the
// static layer (the topology boxes) cached in an offscreen image that is
// redrawn only when the layout changes.
//
// It is built for js only: native Ebiten needs cgo, X11 and a display, and
// everything worth testing lives in package render, which does not import
// Ebiten.
package ebitendraw

import (
	"bytes"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomedium"

	"schedplay/render"
)

// quadsPerCall keeps a batch's vertex indices within uint16.
const quadsPerCall = 16000

// Renderer draws scenes. It is not safe for concurrent use (Ebiten calls
// Draw on one goroutine).
type Renderer struct {
	font  *text.GoTextFaceSource
	faces map[int]*text.GoTextFace // by size in half pixels
	white *ebiten.Image            // 1x1 white sub-image, the source of every quad

	scale       float64       // device pixels per layout pixel
	static      *ebiten.Image // the layout's boxes, drawn once per layout
	staticScene render.Scene
	verts       []ebiten.Vertex
	idx         []uint16
}

// New loads the font.
func New() (*Renderer, error) {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gomedium.TTF))
	if err != nil {
		return nil, err
	}
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return &Renderer{
		font:  src,
		faces: map[int]*text.GoTextFace{},
		white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image),
		scale: 1,
	}, nil
}

func (r *Renderer) face(size float64) *text.GoTextFace {
	k := int(math.Round(size * 2))
	f, ok := r.faces[k]
	if !ok {
		f = &text.GoTextFace{Source: r.font, Size: float64(k) / 2}
		r.faces[k] = f
	}
	return f
}

// SetScale sets how many device pixels one layout pixel is (the page's
// devicePixelRatio): scenes are laid out in CSS pixels and drawn sharp.
func (r *Renderer) SetScale(s float64) {
	if s > 0 {
		r.scale = s
	}
}

// Measure is render.Measure with the real font, in layout pixels.
func (r *Renderer) Measure(s string, size float64) float64 {
	return text.Advance(s, r.face(size))
}

// SetLayout redraws the cached static layer for l on a w x h screen.
func (r *Renderer) SetLayout(l *render.Layout, w, h int) {
	if r.static != nil {
		b := r.static.Bounds()
		if b.Dx() != w || b.Dy() != h {
			r.static.Deallocate()
			r.static = nil
		}
	}
	if r.static == nil {
		r.static = ebiten.NewImage(w, h)
	}
	r.static.Fill(render.Background)
	render.StaticScene(l, &r.staticScene)
	r.Draw(r.static, &r.staticScene)
}

// DrawStatic copies the cached static layer onto dst.
func (r *Renderer) DrawStatic(dst *ebiten.Image) {
	if r.static == nil {
		dst.Fill(render.Background)
		return
	}
	dst.DrawImage(r.static, nil)
}

// Draw renders s onto dst: all quads, then all texts.
func (r *Renderer) Draw(dst *ebiten.Image, s *render.Scene) {
	for start := 0; start < len(s.Quads); start += quadsPerCall {
		r.quads(dst, s.Quads[start:min(len(s.Quads), start+quadsPerCall)])
	}
	var op text.DrawOptions
	for i := range s.Texts {
		t := &s.Texts[i]
		op.GeoM.Reset()
		op.GeoM.Translate(math.Round(t.X*r.scale), math.Round(t.Y*r.scale))
		op.ColorScale.Reset()
		op.ColorScale.ScaleWithColor(t.C)
		op.SecondaryAlign = text.AlignCenter
		switch t.Align {
		case render.AlignCenter:
			op.PrimaryAlign = text.AlignCenter
		case render.AlignRight:
			op.PrimaryAlign = text.AlignEnd
		default:
			op.PrimaryAlign = text.AlignStart
		}
		text.Draw(dst, t.S, r.face(t.Size*r.scale), &op)
	}
}

func (r *Renderer) quads(dst *ebiten.Image, qs []render.Quad) {
	r.verts = r.verts[:0]
	r.idx = r.idx[:0]
	sc := float32(r.scale)
	for _, q := range qs {
		base := uint16(len(r.verts))
		cr, cg, cb, ca := float32(q.C.R)/255, float32(q.C.G)/255, float32(q.C.B)/255, float32(q.C.A)/255
		for k := range 4 {
			r.verts = append(r.verts, ebiten.Vertex{
				DstX: q.X[k] * sc, DstY: q.Y[k] * sc, SrcX: 1.5, SrcY: 1.5,
				ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca,
			})
		}
		r.idx = append(r.idx, base, base+1, base+2, base, base+2, base+3)
	}
	if len(r.idx) == 0 {
		return
	}
	dst.DrawTriangles(r.verts, r.idx, r.white, nil)
}
