package main

import (
	"encoding/binary"
	"testing"
)

func TestPkgOf(t *testing.T) {
	for name, want := range map[string]string{
		"schedplay_sim.__Sim_.tick":                                 "schedplay/sim",
		"runtime.mallocgc":                                          "runtime",
		"github.com_hajimehoshi_ebiten_v2.NewImage":                 "github.com/hajimehoshi/ebiten/v2",
		"golang.org_x_image_font_gofont_gomedium.init":              "golang.org/x/image/font/gofont/gomedium",
		"github.com_hajimehoshi_ebiten_v2_internal_ui.__UI_.init_1": "github.com/hajimehoshi/ebiten/v2/internal/ui",
		"": "(unnamed: built with -s?)",
	} {
		if got := pkgOf(name, 0); got != want {
			t.Errorf("pkgOf(%q) = %q, want %q", name, got, want)
		}
	}
	if got := pkgOf("github.com_hajimehoshi_ebiten_v2_internal_ui.x", 3); got != "github.com/hajimehoshi/ebiten" {
		t.Errorf("depth 3: %q", got)
	}
}

// TestParse builds a module by hand: one imported function, two defined ones
// with bodies of 3 and 5 bytes, names for all three.
func TestParse(t *testing.T) {
	sec := func(id byte, data []byte) []byte {
		return append(append([]byte{id}, binary.AppendUvarint(nil, uint64(len(data)))...), data...)
	}
	str := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	mod := []byte("\x00asm\x01\x00\x00\x00")
	// import: 1 entry, "go"."f", kind func, type 0
	imp := append([]byte{1}, str("go")...)
	imp = append(append(imp, str("f")...), 0, 0)
	mod = append(mod, sec(2, imp)...)
	code := []byte{2, 3, 0, 0, 0x0b, 5, 0, 1, 1, 1, 0x0b}
	mod = append(mod, sec(10, code)...)
	names := []byte{3}
	for i, n := range []string{"go.f", "schedplay_sim.a", "runtime.b"} {
		names = append(append(names, byte(i)), str(n)...)
	}
	sub := append([]byte{1}, binary.AppendUvarint(nil, uint64(len(names)))...)
	mod = append(mod, sec(0, append(str("name"), append(sub, names...)...))...)

	m, err := parse(mod)
	if err != nil {
		t.Fatal(err)
	}
	if m.imports != 1 || len(m.bodies) != 2 || len(m.bodies[0]) != 3 || len(m.bodies[1]) != 5 {
		t.Fatalf("imports %d, bodies %d", m.imports, len(m.bodies))
	}
	if m.names[1] != "schedplay_sim.a" || m.names[2] != "runtime.b" {
		t.Errorf("names %v", m.names)
	}
	if _, err := parse([]byte("nope")); err == nil {
		t.Error("parse accepted a non-wasm file")
	}
	if _, err := parse(append([]byte("\x00asm\x01\x00\x00\x00"), 10, 100)); err == nil {
		t.Error("parse accepted a truncated section")
	}
}
