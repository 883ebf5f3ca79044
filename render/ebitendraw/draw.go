//go:build js

// Package ebitendraw hands render's display lists to Ebiten: quads in
// batched DrawTriangles calls, labels in Go Medium drawn by render/glyphs
// from outlines embedded without an OpenType parser (not Ebiten's text/v2,
// whose HarfBuzz shaper is 0.4 MB of the gzipped download, nor
// x/image/font's opentype, 0.18 MB; labels are short Latin strings), pixel
// images (heatmaps) uploaded only when they change, and the static layer
// (boxes, chart frames, legend) cached in an offscreen image that is
// redrawn only when the layout changes.
//
// It is built for js only: native Ebiten needs cgo, X11 and a display, and
// everything worth testing lives in package render, which does not import
// Ebiten.
package ebitendraw

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"schedplay/render"
	"schedplay/render/glyphs"
)

// quadsPerCall keeps a batch's vertex indices within uint16.
const quadsPerCall = 16000

// Renderer draws scenes. It is not safe for concurrent use (Ebiten calls
// Draw on one goroutine).
type Renderer struct {
	white *ebiten.Image // 1x1 white sub-image, the source of every quad

	scale       float64       // device pixels per layout pixel
	static      *ebiten.Image // the static layer, drawn once per layout
	staticScene render.Scene
	images      map[int]*gpuImage
	verts       []ebiten.Vertex
	idx         []uint16
	labels      map[labelKey]*labelImage
	frame       int
	// newLabels counts the labels rasterised this frame; past
	// maxNewLabels a label not cached yet waits for a later frame (the
	// static layer's never wait: it is drawn once per layout).
	newLabels  int
	drawStatic bool
	// deferred: this frame left a label for a later one; pending: the
	// last frame ended so (Pending).
	deferred, pending bool
}

// maxNewLabels is how many labels one frame rasterises and uploads at
// most: aim9-burst's fork waves bring 64 new task labels at once, which
// with the rest of a frame made a long task on the page's main thread
// (issue 19); the rest appear over the next frames.
const maxNewLabels = 24

// Pending says that the last drawn frame left labels out for the
// maxNewLabels budget: the picture on screen is not whole, and the next
// frame has to be drawn even if nothing else changed (a paused run shown in
// talk mode had most of its 80 CPU numbers missing until it played on).
func (r *Renderer) Pending() bool { return r.pending }

// New returns a renderer (the error is kept for callers: there is none).
func New() (*Renderer, error) {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return &Renderer{
		white: img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image),
		scale: 1,
	}, nil
}

// measure is the advance of s and the line height (ascent + descent) at
// size px.
func measure(s string, size float64) (w, h float64) {
	return glyphs.Measure(s, size), glyphs.Ascent(size) + glyphs.Descent(size)
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
	return glyphs.Measure(s, size)
}

// SetStatic redraws the cached static layer from s on a w x h screen.
func (r *Renderer) SetStatic(s *render.Scene, w, h int) {
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
	r.drawStatic = true
	r.Draw(r.static, s)
	r.drawStatic = false
}

// SetLayout redraws the cached static layer with the boxes of l.
func (r *Renderer) SetLayout(l *render.Layout, w, h int) {
	render.StaticScene(l, &r.staticScene)
	r.SetStatic(&r.staticScene, w, h)
}

// DrawStatic copies the cached static layer onto dst.
func (r *Renderer) DrawStatic(dst *ebiten.Image) {
	if r.static == nil {
		dst.Fill(render.Background)
		return
	}
	dst.DrawImage(r.static, nil)
}

// DrawStaticIn copies the part of the cached static layer inside r (layout
// pixels) onto dst: under a software GL every pixel copied counts.
func (r *Renderer) DrawStaticIn(dst *ebiten.Image, clip render.Rect) {
	if r.static == nil {
		dst.Fill(render.Background)
		return
	}
	b := image.Rect(int(math.Floor(clip.X*r.scale)), int(math.Floor(clip.Y*r.scale)),
		int(math.Ceil(clip.Right()*r.scale)), int(math.Ceil(clip.Bottom()*r.scale))).Intersect(r.static.Bounds())
	if b.Empty() {
		return
	}
	var op ebiten.DrawImageOptions
	op.GeoM.Translate(float64(b.Min.X), float64(b.Min.Y))
	op.Blend = ebiten.BlendCopy
	dst.DrawImage(r.static.SubImage(b).(*ebiten.Image), &op)
}

// DrawImages draws pixel images scaled into their rectangles
// (nearest-neighbour), uploading an image's pixels only when its version
// changed.
func (r *Renderer) DrawImages(dst *ebiten.Image, ims []*render.Image) {
	if r.images == nil {
		r.images = map[int]*gpuImage{}
	}
	for _, im := range ims {
		if im.W <= 0 || im.H <= 0 || len(im.Pix) < im.W*im.H*4 {
			continue
		}
		g := r.images[im.ID]
		if g == nil || g.w != im.W || g.h != im.H {
			if g != nil {
				g.img.Deallocate()
			}
			g = &gpuImage{img: ebiten.NewImage(im.W, im.H), w: im.W, h: im.H, version: im.Version - 1}
			r.images[im.ID] = g
		}
		if g.version != im.Version {
			g.img.WritePixels(im.Pix[:im.W*im.H*4])
			g.version = im.Version
		}
		var op ebiten.DrawImageOptions
		op.GeoM.Scale(im.Dst.W*r.scale/float64(im.W), im.Dst.H*r.scale/float64(im.H))
		op.GeoM.Translate(math.Round(im.Dst.X*r.scale), math.Round(im.Dst.Y*r.scale))
		op.Filter = ebiten.FilterNearest
		dst.DrawImage(g.img, &op)
	}
}

type gpuImage struct {
	img     *ebiten.Image
	w, h    int
	version uint64
}

// Draw renders s onto dst: all quads, then all texts.
func (r *Renderer) Draw(dst *ebiten.Image, s *render.Scene) {
	for start := 0; start < len(s.Quads); start += quadsPerCall {
		r.quads(dst, s.Quads[start:min(len(s.Quads), start+quadsPerCall)])
	}
	var op ebiten.DrawImageOptions
	for i := range s.Texts {
		t := &s.Texts[i]
		e := r.label(t.S, t.Size*r.scale)
		if e == nil {
			continue
		}
		x := math.Round(t.X * r.scale)
		switch t.Align {
		case render.AlignCenter:
			x -= math.Round(e.w / 2)
		case render.AlignRight:
			x -= math.Round(e.w)
		}
		op.GeoM.Reset()
		op.GeoM.Translate(x-labelPad, math.Round(t.Y*r.scale-e.h/2)-labelPad)
		op.ColorScale.Reset()
		op.ColorScale.ScaleWithColor(t.C)
		dst.DrawImage(e.img, &op)
	}
}

// Labels are drawn once into small images (white, coloured when drawn)
// and kept while they are used: shaping and drawing glyph by glyph every
// frame costs more than one image draw per label, and most labels (cpu
// ids, task names, C-states, chart values) repeat from frame to frame.
type labelKey struct {
	s    string
	size int // device px × 2
}

type labelImage struct {
	img  *ebiten.Image
	w, h float64 // advance and line height, device px
	used int     // frame of last use
}

// labelPad is the margin around a label's glyphs in its image.
const labelPad = 2

// labelKeep is how many frames an unused label image is kept.
const labelKeep = 90

// maxLabels bounds the cache; beyond it the least recently used go.
const maxLabels = 6000

func (r *Renderer) label(s string, size float64) *labelImage {
	k := labelKey{s, int(math.Round(size * 2))}
	if e, ok := r.labels[k]; ok {
		e.used = r.frame
		return e
	}
	if r.labels == nil {
		r.labels = map[labelKey]*labelImage{}
	}
	if !r.drawStatic && r.newLabels >= maxNewLabels {
		r.deferred = true
		return nil // a later frame makes it
	}
	r.newLabels++
	size = float64(k.size) / 2 // the key's size, whoever asks first
	w, h := measure(s, size)
	if w <= 0 || h <= 0 {
		return nil
	}
	// White glyphs on transparent (premultiplied, as Ebiten takes pixels),
	// the top of the line labelPad below the image's top.
	rgba := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w))+2*labelPad, int(math.Ceil(h))+2*labelPad))
	glyphs.Draw(rgba, image.White, labelPad, labelPad+glyphs.Ascent(size), s, size)
	img := ebiten.NewImageFromImage(rgba)
	e := &labelImage{img: img, w: w, h: h, used: r.frame}
	r.labels[k] = e
	return e
}

// EndFrame ends a drawn frame: label images unused for a while are freed.
func (r *Renderer) EndFrame() {
	r.frame++
	r.newLabels = 0
	r.pending, r.deferred = r.deferred, false
	if r.frame%30 != 0 && len(r.labels) < maxLabels {
		return
	}
	keep := labelKeep
	if len(r.labels) >= maxLabels {
		keep = 1
	}
	for k, e := range r.labels {
		if r.frame-e.used > keep {
			e.img.Deallocate()
			delete(r.labels, k)
		}
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
