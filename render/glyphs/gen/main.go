// Command gen writes render/glyphs' data file: the outlines and advances of
// the Go Medium glyphs the canvas draws (glyphs.Runes, plus U+FFFD, drawn
// for any other rune), read from golang.org/x/image/font/gofont/gomedium
// with x/image/font/sfnt. It runs natively (`go generate ./render/glyphs`);
// nothing of it is linked into the page, which carries the outlines only and
// no OpenType parser.
//
//	go run ./render/glyphs/gen -o render/glyphs/gomedium.glyphs
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"schedplay/render/glyphs"
)

// blanks are spaces the font lacks, made here: an advance (in ems), no
// outline. Thin spaces are a fifth of an em (the typographic convention;
// frame.FormatCount separates thousands with U+2009).
var blanks = map[rune]float64{0x2009: 0.2, 0x202f: 0.2}

// quant is how many font units one stored unit is.
const quant = 4

func main() {
	out := flag.String("o", "gomedium.glyphs", "file to write")
	flag.Parse()
	b, missing, err := generate(gomedium.TTF, glyphs.Runes())
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for _, r := range missing {
		fmt.Fprintf(os.Stderr, "gen: Go Medium has no glyph for %U %q: it draws as U+FFFD\n", r, r)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d glyphs, %d bytes\n", *out, len(glyphs.Runes())+1-len(missing), len(b))
}

// generate encodes the glyphs of runes (and U+FFFD: the font's own, or its
// .notdef box) in the format glyphs.parse reads. Runes the font lacks are
// left out and returned.
func generate(ttf []byte, runes []rune) (data []byte, missing []rune, err error) {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		return nil, nil, err
	}
	var buf sfnt.Buffer
	upem := f.UnitsPerEm()
	// At ppem = unitsPerEm/64 pixels, sfnt's 26.6 coordinates are font units.
	ppem := fixed.Int26_6(upem)
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, nil, err
	}
	rs := slices.Clone(runes)
	if !slices.Contains(rs, glyphs.Replacement) {
		rs = append(rs, glyphs.Replacement)
	}
	slices.Sort(rs)
	rs = slices.Compact(rs)

	var w bytes.Buffer
	w.WriteString(glyphs.Magic)
	uv := func(v int) { w.Write(binary.AppendUvarint(nil, uint64(v))) }
	sv := func(v int) { w.Write(binary.AppendVarint(nil, int64(v))) }
	// Coordinates are stored in quarters of Go Medium's font units (512 to
	// the em): 0.23 px at 120 px (a 40 px label on a dpr-3 screen), and
	// 2.3 kB less of the download than whole units.
	if upem%quant != 0 {
		return nil, nil, fmt.Errorf("%d units per em: not a multiple of %d", upem, quant)
	}
	q := func(v fixed.Int26_6) int { return int(math.Round(float64(v) / quant)) }
	uv(int(upem) / quant)
	uv(q(m.Ascent))
	uv(q(m.Descent))
	type glyph struct {
		r   rune
		idx int // -1: a blank of blanks
	}
	var gs []glyph
	for _, r := range rs {
		x, err := f.GlyphIndex(&buf, r)
		if err != nil {
			return nil, nil, err
		}
		if x == 0 {
			if _, ok := blanks[r]; ok {
				gs = append(gs, glyph{r, -1})
				continue
			}
			if r != glyphs.Replacement {
				missing = append(missing, r)
				continue
			}
			// No U+FFFD: the .notdef glyph (0) stands for it.
		}
		gs = append(gs, glyph{r, int(x)})
	}
	uv(len(gs))
	prev := rune(0)
	for _, g := range gs {
		if g.idx < 0 {
			uv(int(g.r - prev))
			prev = g.r
			uv(int(math.Round(blanks[g.r] * float64(upem) / quant)))
			uv(0)
			continue
		}
		adv, err := f.GlyphAdvance(&buf, sfnt.GlyphIndex(g.idx), ppem, font.HintingNone)
		if err != nil {
			return nil, nil, err
		}
		segs, err := f.LoadGlyph(&buf, sfnt.GlyphIndex(g.idx), ppem, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("%U: %v", g.r, err)
		}
		uv(int(g.r - prev))
		prev = g.r
		uv(q(adv))
		uv(len(segs))
		var px, py int
		for _, s := range segs {
			n := 0
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				w.WriteByte(glyphs.OpMove)
				n = 1
			case sfnt.SegmentOpLineTo:
				w.WriteByte(glyphs.OpLine)
				n = 1
			case sfnt.SegmentOpQuadTo:
				w.WriteByte(glyphs.OpQuad)
				n = 2
			default:
				return nil, nil, fmt.Errorf("%U: segment op %d (a cubic: not a TrueType outline)", g.r, s.Op)
			}
			for _, p := range s.Args[:n] {
				x, y := q(p.X), q(p.Y)
				sv(x - px)
				sv(y - py)
				px, py = x, y
			}
		}
	}
	if len(gs) == 0 {
		return nil, nil, errors.New("no glyphs")
	}
	return w.Bytes(), missing, nil
}
