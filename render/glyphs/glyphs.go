// Package glyphs draws and measures text for render's display lists with the
// outlines of the Go Medium glyphs the canvas uses, embedded as a small
// file (gomedium.glyphs, written by ./gen from golang.org/x/image's Go
// Medium; Go fonts licence: BSD-style, see golang.org/x/image/font/gofont),
// rasterised with golang.org/x/image/vector: the same outlines and the same
// rasteriser as opentype's faces, so text is as sharp at any size and
// device-pixel ratio, without an OpenType parser (sfnt, opentype, x/text:
// 0.18 MB of the page's gzip download with the font file).
//
// Advances only: no kerning, no hinting, no shaping (labels are short Latin
// strings and symbols). A rune without a glyph here (see Runes) draws as
// U+FFFD, a visible box, and measures as it.
package glyphs

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"image"
	"image/draw"
	"math"
	"sort"
	"sync"

	"golang.org/x/image/vector"
)

//go:generate go run ./gen -o gomedium.glyphs

//go:embed gomedium.glyphs
var data []byte

// File format (all integers varints, signed ones zig-zag): Magic; units
// per em, ascent, descent (font units, positive); the glyph count; per glyph
// in rune order: the rune's difference from the previous one, the advance,
// the segment count, each segment an op byte and its points (1 for Op Move
// and OpLine, 2 for OpQuad; y down) as differences from the previous point.
const (
	Magic  = "schedplay-glyphs-1\n"
	OpMove = 0
	OpLine = 1
	OpQuad = 2
)

// Replacement is drawn for runes without a glyph.
const Replacement = '\uFFFD'

// Runes are the runes with a glyph, apart from Replacement: printable ASCII
// and Latin-1 (µ, ×, ÷, ±, ·, », accented letters), and the punctuation,
// arrows, maths signs and shapes the renderer's strings use or may
// (TestSourceRunes checks the string literals of the packages that make
// the canvas's texts against it). Not Greek (no string of ours has any;
// 5 kB): a Greek task name draws as boxes. Go Medium has no ▶, ◀, ◆, ⇒.
func Runes() []rune {
	var rs []rune
	span := func(a, b rune) {
		for r := a; r <= b; r++ {
			rs = append(rs, r)
		}
	}
	span(0x20, 0x7e)
	span(0xa0, 0xff)
	rs = append(rs, []rune("\u2009\u202f–—‘’“”•…‰′″€™←↑→↓↔−∞≈≠≤≥●○■□▲►▼◄█▌▐░▒▓─│┌┐└┘├┤┬┴┼")...)
	return rs
}

type glyph struct {
	adv  int32
	ops  []byte
	pts  []int32 // x, y pairs, font units, y down
	minX int32   // horizontal extent of the outline (font units)
	maxX int32
}

type typeface struct {
	upem, ascent, descent float64
	ascii                 [128]*glyph
	runes                 []rune // sorted, beyond ASCII
	others                []*glyph
	repl                  *glyph
}

var (
	parsed   *typeface
	parseErr error
	once     sync.Once
)

func get() *typeface {
	once.Do(func() { parsed, parseErr = parse(data) })
	if parseErr != nil {
		// The file is generated and embedded: only a broken build gets here.
		panic("glyphs: gomedium.glyphs: " + parseErr.Error())
	}
	return parsed
}

var errShort = errors.New("truncated")

func parse(b []byte) (*typeface, error) {
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		return nil, errors.New("not a glyphs file")
	}
	b = b[len(Magic):]
	var err error
	uv := func() int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > 1<<24 {
			err = errShort
			return 0
		}
		b = b[n:]
		return int(v)
	}
	sv := func() int32 {
		v, n := binary.Varint(b)
		if n <= 0 || v > 1<<24 || v < -1<<24 {
			err = errShort
			return 0
		}
		b = b[n:]
		return int32(v)
	}
	f := &typeface{upem: float64(uv()), ascent: float64(uv()), descent: float64(uv())}
	count := uv()
	if err != nil || f.upem == 0 {
		return nil, errors.New("bad header")
	}
	r := rune(0)
	for i := 0; i < count && err == nil; i++ {
		r += rune(uv())
		g := &glyph{adv: int32(uv()), minX: math.MaxInt32, maxX: math.MinInt32}
		nseg := uv()
		var x, y int32
		for s := 0; s < nseg && err == nil; s++ {
			if len(b) == 0 {
				err = errShort
				break
			}
			op := b[0]
			b = b[1:]
			n := 1
			switch op {
			case OpMove, OpLine:
			case OpQuad:
				n = 2
			default:
				return nil, errors.New("bad segment op")
			}
			g.ops = append(g.ops, op)
			for range n {
				x += sv()
				y += sv()
				g.pts = append(g.pts, x, y)
				g.minX, g.maxX = min(g.minX, x), max(g.maxX, x)
			}
		}
		if g.minX > g.maxX {
			g.minX, g.maxX = 0, 0
		}
		switch {
		case r < 128:
			f.ascii[r] = g
		default:
			if len(f.runes) > 0 && r <= f.runes[len(f.runes)-1] {
				return nil, errors.New("runes out of order")
			}
			f.runes = append(f.runes, r)
			f.others = append(f.others, g)
		}
		if r == Replacement {
			f.repl = g
		}
	}
	if err != nil {
		return nil, err
	}
	if len(b) != 0 {
		return nil, errors.New("trailing bytes")
	}
	if f.repl == nil {
		return nil, errors.New("no U+FFFD")
	}
	return f, nil
}

// lookup is r's glyph, or nil.
func (f *typeface) lookup(r rune) *glyph {
	if r >= 0 && r < 128 {
		return f.ascii[r]
	}
	i := sort.Search(len(f.runes), func(i int) bool { return f.runes[i] >= r })
	if i < len(f.runes) && f.runes[i] == r {
		return f.others[i]
	}
	return nil
}

func (f *typeface) glyph(r rune) *glyph {
	if g := f.lookup(r); g != nil {
		return g
	}
	return f.repl
}

// Has reports whether r has a glyph of its own (others draw as U+FFFD).
func Has(r rune) bool { return get().lookup(r) != nil }

// Ascent and Descent are the font's (hhea) ascent and descent at size px,
// both positive: a line of text is Ascent+Descent high, its baseline Ascent
// below its top.
func Ascent(size float64) float64  { f := get(); return f.ascent * size / f.upem }
func Descent(size float64) float64 { f := get(); return f.descent * size / f.upem }

// Measure is the advance of s at size px (render.Measure).
func Measure(s string, size float64) float64 {
	f := get()
	adv := int64(0)
	for _, r := range s {
		adv += int64(f.glyph(r).adv)
	}
	return float64(adv) * size / f.upem
}

var rasterizers = sync.Pool{New: func() any { return vector.NewRasterizer(0, 0) }}

// Draw draws s at size px onto dst in src's colour (src is usually an
// *image.Uniform; draw.Over), the left end of its baseline at (x, y) in
// dst's pixels. Glyphs are placed at fractional positions (advances are not
// rounded), anti-aliased by coverage.
func Draw(dst draw.Image, src image.Image, x, y float64, s string, size float64) {
	if s == "" || !(size > 0) || math.IsInf(size, 0) {
		return
	}
	f := get()
	k := size / f.upem
	// The string's extent: its outlines horizontally, the line vertically
	// (Go Medium's outlines stay within ascent and descent).
	pen, lo, hi := int64(0), int64(math.MaxInt64), int64(math.MinInt64)
	for _, r := range s {
		g := f.glyph(r)
		if len(g.ops) > 0 {
			lo, hi = min(lo, pen+int64(g.minX)), max(hi, pen+int64(g.maxX))
		}
		pen += int64(g.adv)
	}
	if lo > hi {
		return // only blanks
	}
	box := image.Rect(int(math.Floor(x+float64(lo)*k)), int(math.Floor(y-f.ascent*k)),
		int(math.Ceil(x+float64(hi)*k)), int(math.Ceil(y+f.descent*k))).Intersect(dst.Bounds())
	if box.Empty() {
		return
	}
	z := rasterizers.Get().(*vector.Rasterizer)
	defer rasterizers.Put(z)
	z.Reset(box.Dx(), box.Dy())
	z.DrawOp = draw.Over
	ox, oy := x-float64(box.Min.X), y-float64(box.Min.Y)
	for _, r := range s {
		g := f.glyph(r)
		p := g.pts
		pt := func() (float32, float32) {
			px, py := float32(ox+float64(p[0])*k), float32(oy+float64(p[1])*k)
			p = p[2:]
			return px, py
		}
		started := false
		for _, op := range g.ops {
			switch op {
			case OpMove:
				if started {
					z.ClosePath()
				}
				z.MoveTo(pt())
				started = true
			case OpLine:
				z.LineTo(pt())
			case OpQuad:
				bx, by := pt()
				cx, cy := pt()
				z.QuadTo(bx, by, cx, cy)
			}
		}
		if started {
			z.ClosePath()
		}
		ox += float64(g.adv) * k
	}
	z.Draw(dst, box, src, image.Point{})
}
