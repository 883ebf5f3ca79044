package qr

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Known vectors from the standard and its worked examples.

// The Reed–Solomon codewords of "HELLO WORLD" in version 1-M (16 data
// codewords, 10 of error correction).
func TestReedSolomonVector(t *testing.T) {
	data := []byte{32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17}
	want := []byte{196, 35, 39, 119, 235, 215, 231, 226, 93, 23}
	if got := remainder(data, generator(10)); !bytes.Equal(got, want) {
		t.Errorf("ecc = %v, want %v", got, want)
	}
}

func TestFormatAndVersionBits(t *testing.T) {
	// The standard's table of the 15-bit format information, by mask.
	table := [2][8]string{
		{"111011111000100", "111001011110011", "111110110101010", "111100010011101",
			"110011000101111", "110001100011000", "110110001000001", "110100101110110"},
		{"101010000010010", "101000100100101", "101111001111100", "101101101001011",
			"100010111111001", "100000011001110", "100111110010111", "100101010100000"},
	}
	for l := range Level(2) {
		for m := range 8 {
			if got := fmt.Sprintf("%015b", FormatBits(l, m)); got != table[l][m] {
				t.Errorf("format %c%d = %s, want %s", "LM"[l], m, got, table[l][m])
			}
		}
	}
	for v, want := range map[int]int{7: 0b000111110010010100, 8: 0b001000010110111100, 40: 0b101000110001101001} {
		if got := VersionBits(v); got != want {
			t.Errorf("version %d = %018b, want %018b", v, got, want)
		}
	}
}

func TestLayoutTables(t *testing.T) {
	// Total codewords per version, and byte capacities at L and M.
	for v, want := range map[int]int{1: 26, 2: 44, 7: 196, 10: 346, 40: 3706} {
		if got := rawModules(v) / 8; got != want {
			t.Errorf("version %d: %d codewords, want %d", v, got, want)
		}
	}
	for _, c := range []struct{ v, l, want int }{{1, 0, 17}, {1, 1, 14}, {10, 0, 271}, {10, 1, 213}, {40, 0, 2953}, {40, 1, 2331}} {
		if got := Capacity(c.v, Level(c.l)); got != c.want {
			t.Errorf("capacity %d-%c = %d, want %d", c.v, "LM"[c.l], got, c.want)
		}
	}
	for v, want := range map[int][]int{2: {6, 18}, 7: {6, 22, 38}, 15: {6, 26, 48, 70}, 32: {6, 34, 60, 86, 112, 138}, 40: {6, 30, 58, 86, 114, 142, 170}} {
		if got := alignment(v); !slices.Equal(got, want) {
			t.Errorf("alignment %d = %v, want %v", v, got, want)
		}
	}
}

// decode reads a symbol back as a reader does: format information (with
// its BCH check), unmasking, the zig-zag, de-interleaving, each block's
// Reed–Solomon check, and the byte-mode segment.
func decode(t *testing.T, c *Code) []byte {
	t.Helper()
	s := c.Size
	f := 0
	for i := 0; i <= 5; i++ {
		if c.Dark(8, i) {
			f |= 1 << i
		}
	}
	for i, p := range [][2]int{{8, 7}, {8, 8}, {7, 8}} {
		if c.Dark(p[0], p[1]) {
			f |= 1 << (6 + i)
		}
	}
	for i := 9; i < 15; i++ {
		if c.Dark(14-i, 8) {
			f |= 1 << i
		}
	}
	level, mask := Level(9), -1
	for l := range Level(2) {
		for m := range 8 {
			if FormatBits(l, m) == f {
				level, mask = l, m
			}
		}
	}
	if mask < 0 {
		t.Fatalf("format bits %015b are no valid code", f)
	}
	// The function patterns of this version, to skip.
	ref := newCode(c.Version, level)
	var bits []bool
	for right := s - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		for vert := range s {
			for j := range 2 {
				x := right - j
				y := vert
				if (right+1)&2 == 0 {
					y = s - 1 - vert
				}
				if !ref.fn[y*s+x] {
					bits = append(bits, c.Dark(x, y) != maskAt(mask, x, y))
				}
			}
		}
	}
	words := make([]byte, len(bits)/8)
	for i := range words {
		for k := range 8 {
			if bits[i*8+k] {
				words[i] |= 0x80 >> k
			}
		}
	}
	v := c.Version
	nb, ecc := numBlocks[level][v], eccPerBlock[level][v]
	short := nb - len(words)%nb
	shortLen := len(words)/nb - ecc
	blocks := make([][]byte, nb)
	k := 0
	for i := 0; i <= shortLen; i++ {
		for b := range nb {
			if i < shortLen || b >= short {
				blocks[b] = append(blocks[b], words[k])
				k++
			}
		}
	}
	eccs := make([][]byte, nb)
	for range ecc {
		for b := range nb {
			eccs[b] = append(eccs[b], words[k])
			k++
		}
	}
	var data []byte
	for b := range nb {
		if got := remainder(blocks[b], generator(ecc)); !bytes.Equal(got, eccs[b]) {
			t.Fatalf("block %d fails its Reed–Solomon check", b)
		}
		data = append(data, blocks[b]...)
	}
	// Mode, count, bytes.
	pos := 0
	read := func(n int) int {
		x := 0
		for range n {
			x = x<<1 | int(data[pos/8]>>(7-pos%8)&1)
			pos++
		}
		return x
	}
	if m := read(4); m != 0b0100 {
		t.Fatalf("mode %04b, want byte mode", m)
	}
	n := read(countBits(v))
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(read(8))
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 17, 18, 100, 271, 272, 1000, 2331, 2953} {
		for _, l := range []Level{L, M} {
			if l == M && n > Capacity(40, M) {
				continue
			}
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(r.IntN(256))
			}
			c, err := Encode(data, l)
			if err != nil {
				t.Fatalf("%d bytes at %c: %v", n, "LM"[l], err)
			}
			if c.Version > 1 && Capacity(c.Version-1, l) >= n {
				t.Errorf("%d bytes: version %d, but %d fits", n, c.Version, c.Version-1)
			}
			if got := decode(t, c); !bytes.Equal(got, data) {
				t.Errorf("%d bytes at %c (version %d mask %d): read back differs", n, "LM"[l], c.Version, c.Mask)
			}
		}
	}
	if _, err := Encode(make([]byte, 2954), L); err == nil {
		t.Error("2954 bytes encoded")
	}
}

// Image draws c with a quiet zone of 4 modules, px pixels per module.
func img(c *Code, px int) image.Image {
	n := (c.Size + 8) * px
	im := image.NewGray(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			v := uint8(255)
			if c.Dark(x/px-4, y/px-4) {
				v = 0
			}
			im.SetGray(x, y, color.Gray{v})
		}
	}
	return im
}

// TestZbar: an independent reader (zbarimg, when installed) decodes what
// Encode makes, small and at a link's size.
func TestZbar(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Skip("zbarimg not installed (apt-get install zbar-tools)")
	}
	dir := t.TempDir()
	texts := []string{
		"HELLO WORLD",
		"https://example.org/schedplay/#s=" + strings.Repeat("hFVdb-M2EPwrAwJFb", 40),
		"https://example.org/#s=" + strings.Repeat("0123456789abcdefghijKLMNOP_-", 60),
	}
	for i, text := range texts {
		for _, l := range []Level{L, M} {
			c, err := Encode([]byte(text), l)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, fmt.Sprintf("q%d%c.png", i, "LM"[l]))
			var b bytes.Buffer
			if err := png.Encode(&b, img(c, 4)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file).Output()
			if err != nil {
				t.Errorf("text %d at %c (version %d): zbarimg: %v", i, "LM"[l], c.Version, err)
				continue
			}
			if got := strings.TrimSuffix(string(out), "\n"); got != text {
				t.Errorf("text %d at %c: zbarimg read %q", i, "LM"[l], got)
			}
		}
	}
}
