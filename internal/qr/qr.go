// Package qr encodes text as a QR code (ISO/IEC 18004): byte mode, error
// correction level L or M, versions 1 to 40, the mask with the lowest
// penalty. It is written from the standard's description (function
// patterns, Reed–Solomon over GF(256) with the polynomial x^8+x^4+x^3+x^2+1,
// BCH-coded format and version information, the zig-zag placement); the
// page shows the current link as one in talk mode.
package qr

import (
	"errors"
	"fmt"
)

// Level is an error correction level.
type Level uint8

const (
	L Level = iota // about 7 % of the codewords can be restored
	M              // about 15 %
)

// formatBits are the two bits a level has in the format information.
func (l Level) formatBits() int {
	if l == L {
		return 1
	}
	return 0
}

// The standard's table of error correction per version (index 0 unused):
// codewords of error correction in each block, and the number of blocks.
var (
	eccPerBlock = [2][41]int{
		{0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
		{0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28},
	}
	numBlocks = [2][41]int{
		{0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25},
		{0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49},
	}
)

// Code is an encoded symbol: Size×Size modules, true = dark.
type Code struct {
	Version int
	Level   Level
	Mask    int
	Size    int
	dark    []bool
	fn      []bool // function pattern modules (not data)
}

// Dark reports whether module (x, y) is dark; outside the symbol (the
// quiet zone) it is light.
func (c *Code) Dark(x, y int) bool {
	if x < 0 || y < 0 || x >= c.Size || y >= c.Size {
		return false
	}
	return c.dark[y*c.Size+x]
}

// ErrTooLong: the text does not fit in version 40 at the level.
var ErrTooLong = errors.New("qr: too long for a QR code")

// Capacity is how many bytes fit in version v at level l (byte mode).
func Capacity(v int, l Level) int {
	bits := dataCodewords(v, l)*8 - 4 - countBits(v)
	return bits / 8
}

func countBits(v int) int {
	if v <= 9 {
		return 8
	}
	return 16
}

// Encode makes the smallest symbol of level l holding data.
func Encode(data []byte, l Level) (*Code, error) {
	v := 1
	for ; v <= 40 && Capacity(v, l) < len(data); v++ {
	}
	if v > 40 {
		return nil, fmt.Errorf("%w: %d bytes; at most %d at level %c", ErrTooLong, len(data), Capacity(40, l), "LM"[l])
	}
	return EncodeVersion(data, v, l)
}

// EncodeVersion makes a symbol of version v.
func EncodeVersion(data []byte, v int, l Level) (*Code, error) {
	if v < 1 || v > 40 || l > M {
		return nil, fmt.Errorf("qr: version %d level %d", v, l)
	}
	if len(data) > Capacity(v, l) {
		return nil, fmt.Errorf("%w: %d bytes in version %d", ErrTooLong, len(data), v)
	}
	c := newCode(v, l)
	words := interleave(codewords(data, v, l), v, l)
	c.place(words)
	best, bestScore := 0, -1
	for m := range 8 {
		c.applyMask(m)
		c.drawFormat(m)
		if s := c.penalty(); bestScore < 0 || s < bestScore {
			best, bestScore = m, s
		}
		c.applyMask(m) // XOR again: undo
	}
	c.Mask = best
	c.applyMask(best)
	c.drawFormat(best)
	return c, nil
}

// ---- data codewords ----------------------------------------------------

func dataCodewords(v int, l Level) int {
	return rawModules(v)/8 - eccPerBlock[l][v]*numBlocks[l][v]
}

// rawModules counts the modules of version v that carry data or error
// correction: the symbol minus its function patterns (counted from the
// layout itself, so the capacity follows from the same code that draws it).
func rawModules(v int) int {
	c := newCode(v, L)
	n := 0
	for _, f := range c.fn {
		if !f {
			n++
		}
	}
	return n
}

type bitBuf struct {
	b []byte
	n int // bits
}

func (w *bitBuf) put(val, bits int) {
	for i := bits - 1; i >= 0; i-- {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		if val>>i&1 != 0 {
			w.b[w.n/8] |= 0x80 >> (w.n % 8)
		}
		w.n++
	}
}

// codewords is the data codeword sequence: mode 0100 (byte), the count,
// the bytes, the terminator, padding to a byte, then 0xEC 0x11 alternately.
func codewords(data []byte, v int, l Level) []byte {
	capBits := dataCodewords(v, l) * 8
	var w bitBuf
	w.put(0b0100, 4)
	w.put(len(data), countBits(v))
	for _, b := range data {
		w.put(int(b), 8)
	}
	w.put(0, min(4, capBits-w.n))
	if w.n%8 != 0 {
		w.put(0, 8-w.n%8)
	}
	for pad := 0xEC; len(w.b) < capBits/8; pad ^= 0xEC ^ 0x11 {
		w.put(pad, 8)
	}
	return w.b
}

// interleave splits data into the version's blocks, adds each block's
// Reed–Solomon codewords and interleaves them: data codewords column by
// column across the blocks, then the error correction codewords.
func interleave(data []byte, v int, l Level) []byte {
	nb, ecc := numBlocks[l][v], eccPerBlock[l][v]
	total := rawModules(v) / 8
	short := nb - total%nb     // blocks one codeword shorter
	shortLen := total/nb - ecc // data codewords of a short block
	gen := generator(ecc)
	var blocks, eccs [][]byte
	k := 0
	for i := range nb {
		n := shortLen
		if i >= short {
			n++
		}
		blocks = append(blocks, data[k:k+n])
		eccs = append(eccs, remainder(data[k:k+n], gen))
		k += n
	}
	out := make([]byte, 0, total)
	for i := 0; i <= shortLen; i++ {
		for _, b := range blocks {
			if i < len(b) {
				out = append(out, b[i])
			}
		}
	}
	for i := range ecc {
		for _, e := range eccs {
			out = append(out, e[i])
		}
	}
	return out
}

// ---- Reed–Solomon over GF(256), polynomial 0x11D -----------------------

var gfExp, gfLog [512]int

func init() {
	x := 1
	for i := range 255 {
		gfExp[i], gfLog[x] = x, i
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11D
		}
	}
	for i := 255; i < 512; i++ {
		gfExp[i] = gfExp[i-255]
	}
}

func gfMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[gfLog[a]+gfLog[b]]
}

// generator is (x - α^0)(x - α^1)...(x - α^(n-1)), highest power first
// (its leading 1 left out).
func generator(n int) []int {
	g := []int{1}
	for i := range n {
		next := make([]int, len(g)+1)
		for j, c := range g {
			next[j] ^= c
			next[j+1] ^= gfMul(c, gfExp[i])
		}
		g = next
	}
	return g[1:]
}

// remainder is data(x)·x^n mod gen(x): the n error correction codewords.
func remainder(data []byte, gen []int) []byte {
	r := make([]int, len(gen))
	for _, d := range data {
		f := int(d) ^ r[0]
		copy(r, r[1:])
		r[len(r)-1] = 0
		for i, g := range gen {
			r[i] ^= gfMul(g, f)
		}
	}
	out := make([]byte, len(r))
	for i, x := range r {
		out[i] = byte(x)
	}
	return out
}

// ---- the symbol --------------------------------------------------------

func newCode(v int, l Level) *Code {
	size := 17 + 4*v
	c := &Code{Version: v, Level: l, Size: size, dark: make([]bool, size*size), fn: make([]bool, size*size)}
	c.drawFunctions()
	return c
}

func (c *Code) set(x, y int, dark bool) {
	c.dark[y*c.Size+x] = dark
	c.fn[y*c.Size+x] = true
}

// alignment is the row/column list of alignment pattern centres.
func alignment(v int) []int {
	if v == 1 {
		return nil
	}
	n := v/7 + 2
	size := 17 + 4*v
	// Evenly spaced from size-7 down to 6, the step even (the standard's
	// table; version 32 is its one exception).
	step := 26
	if v != 32 {
		step = (size - 13 + (n-1)*2 - 1) / ((n - 1) * 2) * 2
	}
	pos := make([]int, n)
	pos[0] = 6
	for i := n - 1; i >= 1; i-- {
		pos[i] = size - 7 - (n-1-i)*step
	}
	return pos
}

func (c *Code) drawFunctions() {
	s := c.Size
	// Timing patterns.
	for i := range s {
		c.set(6, i, i%2 == 0)
		c.set(i, 6, i%2 == 0)
	}
	// Finders with their separators.
	for _, p := range [][2]int{{3, 3}, {s - 4, 3}, {3, s - 4}} {
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				x, y := p[0]+dx, p[1]+dy
				if x < 0 || y < 0 || x >= s || y >= s {
					continue
				}
				d := max(abs(dx), abs(dy))
				c.set(x, y, d != 2 && d != 4)
			}
		}
	}
	// Alignment patterns, but where they would overlap a finder.
	al := alignment(c.Version)
	for i, ay := range al {
		for j, ax := range al {
			if i == 0 && j == 0 || i == 0 && j == len(al)-1 || i == len(al)-1 && j == 0 {
				continue
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					c.set(ax+dx, ay+dy, max(abs(dx), abs(dy)) != 1)
				}
			}
		}
	}
	c.drawFormat(0) // reserve the format areas (drawn again per mask)
	if c.Version >= 7 {
		bits := VersionBits(c.Version)
		for i := range 18 {
			dark := bits>>i&1 != 0
			a, b := s-11+i%3, i/3
			c.set(a, b, dark)
			c.set(b, a, dark)
		}
	}
}

// FormatBits is the 15-bit format information of level l and mask m:
// 5 bits, a BCH(15,5) remainder (generator 0x537), XOR 0x5412.
func FormatBits(l Level, m int) int {
	data := l.formatBits()<<3 | m
	r := data
	for range 10 {
		r = r<<1 ^ (r>>9)*0x537
	}
	return (data<<10 | r) ^ 0x5412
}

// VersionBits is the 18-bit version information (versions 7 and up): 6
// bits and a BCH(18,6) remainder (generator 0x1F25).
func VersionBits(v int) int {
	r := v
	for range 12 {
		r = r<<1 ^ (r>>11)*0x1F25
	}
	return v<<12 | r
}

func (c *Code) drawFormat(m int) {
	bits := FormatBits(c.Level, m)
	s := c.Size
	bit := func(i int) bool { return bits>>i&1 != 0 }
	// Around the top-left finder: bits 0-7 down column 8 (skipping the
	// timing row), bits 8-14 along row 8 right to left.
	for i := 0; i <= 5; i++ {
		c.set(8, i, bit(i))
	}
	c.set(8, 7, bit(6))
	c.set(8, 8, bit(7))
	c.set(7, 8, bit(8))
	for i := 9; i < 15; i++ {
		c.set(14-i, 8, bit(i))
	}
	// The copy: bits 0-7 along row 8 from the right edge, bits 8-14 up
	// column 8 from the bottom.
	for i := range 8 {
		c.set(s-1-i, 8, bit(i))
	}
	for i := 8; i < 15; i++ {
		c.set(8, s-15+i, bit(i))
	}
	c.set(8, s-8, true) // the dark module
}

// place writes the codewords' bits in the zig-zag order: two columns at a
// time from the right, upwards then downwards, skipping column 6 and the
// function patterns.
func (c *Code) place(words []byte) {
	s := c.Size
	i := 0
	for right := s - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		for vert := range s {
			for j := range 2 {
				x := right - j
				up := (right+1)&2 == 0
				y := vert
				if up {
					y = s - 1 - vert
				}
				if c.fn[y*s+x] {
					continue
				}
				if i < len(words)*8 {
					c.dark[y*s+x] = words[i/8]>>(7-i%8)&1 != 0
					i++
				}
			}
		}
	}
}

func maskAt(m, x, y int) bool {
	switch m {
	case 0:
		return (x+y)%2 == 0
	case 1:
		return y%2 == 0
	case 2:
		return x%3 == 0
	case 3:
		return (x+y)%3 == 0
	case 4:
		return (x/3+y/2)%2 == 0
	case 5:
		return x*y%2+x*y%3 == 0
	case 6:
		return (x*y%2+x*y%3)%2 == 0
	}
	return ((x+y)%2+x*y%3)%2 == 0
}

func (c *Code) applyMask(m int) {
	for y := range c.Size {
		for x := range c.Size {
			if !c.fn[y*c.Size+x] && maskAt(m, x, y) {
				c.dark[y*c.Size+x] = !c.dark[y*c.Size+x]
			}
		}
	}
}

// penalty is the standard's score of a masked symbol: runs of five or more
// modules of one colour, 2×2 blocks, finder-like 1:1:3:1:1 patterns with
// four light modules on a side, and the imbalance of dark and light.
func (c *Code) penalty() int {
	s := c.Size
	p := 0
	at := func(x, y int, row bool) bool {
		if row {
			return c.dark[y*s+x]
		}
		return c.dark[x*s+y]
	}
	for _, row := range []bool{true, false} {
		for y := range s {
			run := 0
			var prev bool
			for x := range s {
				d := at(x, y, row)
				if x > 0 && d == prev {
					run++
					if run == 5 {
						p += 3
					} else if run > 5 {
						p++
					}
				} else {
					run = 1
				}
				prev = d
			}
			// 1:1:3:1:1 with 4 light on either side (the quiet zone counts
			// as light).
			for x := -4; x < s; x++ {
				pat := [11]bool{true, false, true, true, true, false, true}
				match := func(rev bool) bool {
					for k := range 11 {
						want := false
						if rev {
							if k >= 4 {
								want = pat[k-4]
							}
						} else if k < 7 {
							want = pat[k]
						}
						xx := x + k
						got := xx >= 0 && xx < s && at(xx, y, row)
						if got != want {
							return false
						}
					}
					return true
				}
				if match(false) || match(true) {
					p += 40
				}
			}
		}
	}
	dark := 0
	for y := range s {
		for x := range s {
			d := c.dark[y*s+x]
			if d {
				dark++
			}
			if x < s-1 && y < s-1 && d == c.dark[y*s+x+1] && d == c.dark[(y+1)*s+x] && d == c.dark[(y+1)*s+x+1] {
				p += 3
			}
		}
	}
	k := (abs(dark*20-s*s*10) + s*s - 1) / (s * s)
	p += max(k-1, 0) * 10
	return p
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
