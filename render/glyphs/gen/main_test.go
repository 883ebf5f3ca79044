package main

import (
	"bytes"
	"os"
	"testing"

	"golang.org/x/image/font/gofont/gomedium"

	"schedplay/render/glyphs"
)

// The embedded file is what the generator makes from Go Medium now
// (`go generate ./render/glyphs` after changing glyphs.Runes), and every
// rune listed has a glyph in the font.
func TestDataUpToDate(t *testing.T) {
	want, missing, err := generate(gomedium.TTF, glyphs.Runes())
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("Go Medium has no glyph for %q: take them out of glyphs.Runes", missing)
	}
	got, err := os.ReadFile("../gomedium.glyphs")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("render/glyphs/gomedium.glyphs is stale: go generate ./render/glyphs")
	}
	for _, r := range glyphs.Runes() {
		if !glyphs.Has(r) {
			t.Errorf("%U listed but not drawn", r)
		}
	}
}
