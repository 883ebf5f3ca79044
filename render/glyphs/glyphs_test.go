package glyphs

import (
	"go/scanner"
	"go/token"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Drawn by this package and by x/image/font's opentype face from the TTF
// (one glyph at a time, so kerning plays no part), the same text differs
// only where the stored outlines' rounding (quarter font units) moves an
// edge: a wrong glyph, advance, baseline or scale differs by far more.
func TestMatchesOpenType(t *testing.T) {
	f, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var worstShare float64
	var worstPixel int
	for _, size := range []float64{9, 12, 18.5, 28, 40, 84, 120} {
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"H", "g", "@", "µ", "×", "→", "…", "≥", "é", "Wj", "9"} {
			w := int(size*2) + 8
			h := int(size*1.5) + 8
			x, y := 4.0, float64(int(size))+2
			want := image.NewRGBA(image.Rect(0, 0, w, h))
			d := font.Drawer{Dst: want, Src: image.White, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
			d.DrawString(s)
			got := image.NewRGBA(want.Rect)
			Draw(got, image.White, x, y, s, size)
			var sum, ink, worst int
			for i := 3; i < len(got.Pix); i += 4 {
				dv := int(got.Pix[i]) - int(want.Pix[i])
				sum += abs(dv)
				worst = max(worst, abs(dv))
				ink += int(want.Pix[i])
			}
			if ink == 0 {
				t.Fatalf("%q at %g px: opentype drew nothing", s, size)
			}
			// The difference is a share of the ink, and no pixel's coverage
			// differs by more than a rounding of an edge can make it.
			share := float64(sum) / float64(ink)
			worstShare, worstPixel = max(worstShare, share), max(worstPixel, worst)
			if share > 0.05 || worst > 100 {
				t.Errorf("%q at %g px: coverage differs by %.1f %% of the ink, at most %d/255 in a pixel", s, size, 100*share, worst)
			}
			// Advances are stored in quarter units too: 2/2048 em per glyph.
			if got, want := Measure(s, size), float64(font.MeasureString(face, s))/64; math.Abs(got-want) > float64(len([]rune(s)))*size*2/2048+1.0/64 {
				t.Errorf("%q at %g px: advance %.3f, opentype %.3f", s, size, got, want)
			}
		}
	}
	t.Logf("at worst %.2f %% of the ink differs, %d/255 in one pixel", 100*worstShare, worstPixel)
	m := face(t, f, 40).Metrics()
	if a, want := Ascent(40), float64(m.Ascent)/64; a < want-0.1 || a > want+0.1 {
		t.Errorf("ascent at 40 px %.2f, opentype %.2f", a, want)
	}
	if d, want := Descent(40), float64(m.Descent)/64; d < want-0.1 || d > want+0.1 {
		t.Errorf("descent at 40 px %.2f, opentype %.2f", d, want)
	}
}

func face(t *testing.T, f *opentype.Font, size float64) font.Face {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// A rune without a glyph measures and draws as U+FFFD: visible, not blank.
func TestUnknownRune(t *testing.T) {
	for _, r := range []rune{'😀', 'λ', '▶', 0x10ffff, -1, '\x01'} {
		if Has(r) {
			t.Errorf("%U has a glyph", r)
		}
		if got, want := Measure(string(r), 20), Measure("\uFFFD", 20); got != want || got <= 0 {
			t.Errorf("%U measures %g, U+FFFD %g", r, got, want)
		}
		im := image.NewRGBA(image.Rect(0, 0, 40, 40))
		Draw(im, image.White, 5, 30, string(r), 20)
		if inked(im) < 20 {
			t.Errorf("%U drew %d pixels", r, inked(im))
		}
	}
	// Invalid UTF-8 decodes to U+FFFD too.
	if Measure("\xff", 20) != Measure("\uFFFD", 20) {
		t.Error("invalid UTF-8")
	}
}

func inked(im *image.RGBA) int {
	n := 0
	for i := 3; i < len(im.Pix); i += 4 {
		if im.Pix[i] > 0 {
			n++
		}
	}
	return n
}

// Text partly or wholly off the image draws its visible part and nothing
// else; odd sizes draw nothing and do not panic.
func TestClip(t *testing.T) {
	im := image.NewRGBA(image.Rect(0, 0, 30, 20))
	for _, p := range [][2]float64{{-15, 10}, {20, 10}, {5, -2}, {5, 28}, {-1e6, 5}, {5, 1e6}, {200, 200}} {
		Draw(im, image.NewUniform(color.RGBA{255, 0, 0, 255}), p[0], p[1], "WWWW", 16)
	}
	if inked(im) == 0 {
		t.Error("nothing of the partly visible texts was drawn")
	}
	sub := image.NewRGBA(image.Rect(10, 10, 40, 30)) // bounds not at the origin
	Draw(sub, image.White, 12, 25, "Ag", 14)
	if inked(sub) == 0 {
		t.Error("nothing drawn on an image whose bounds do not start at 0,0")
	}
	for _, size := range []float64{0, -3, 1e-9, 1e300} {
		Draw(im, image.White, 0, 10, "x", size)
	}
	blank := image.NewRGBA(image.Rect(0, 0, 30, 20))
	Draw(blank, image.White, 2, 15, "   ", 14)
	if inked(blank) != 0 || Measure("   ", 14) <= 0 {
		t.Error("blanks drew ink or measured nothing")
	}
}

func TestParseRejects(t *testing.T) {
	if _, err := parse(data); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{nil, []byte("nope"), data[:len(data)-1], append(append([]byte{}, data...), 0)} {
		if _, err := parse(b); err == nil {
			t.Errorf("%d bytes accepted", len(b))
		}
	}
}

// Every non-ASCII rune in a string or rune literal of the packages whose
// strings reach the canvas has a glyph of its own (not the U+FFFD box).
func TestSourceRunes(t *testing.T) {
	dirs := []string{"..", "../canvas", "../../app", "../../frame", "../../sim"}
	seen := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, file := range files {
			if filepath.Ext(file) == ".go" && len(file) > 8 && file[len(file)-8:] == "_test.go" {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			var sc scanner.Scanner
			sc.Init(fset.AddFile(file, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := sc.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING && tok != token.CHAR {
					continue
				}
				s := lit
				if tok == token.STRING {
					if u, err := strconv.Unquote(lit); err == nil {
						s = u
					}
				}
				for _, r := range s {
					if r < 0x80 {
						continue
					}
					seen++
					if !Has(r) {
						t.Errorf("%s: %U %q has no glyph (add it to Runes, or use another)", fset.Position(pos), r, r)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Error("no non-ASCII rune found in the renderer's sources: the scan is broken")
	}
}
