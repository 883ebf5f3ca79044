package main

import (
	"encoding/binary"
	"strings"
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
	m, err := parse(handModule())
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

// handModule is a module built by hand: one imported function, two defined
// ones with bodies of 3 and 5 bytes, names for all three.
func handModule() []byte {
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
	return mod
}

// TestTierUp: two TurboFan compiles of the hand-built module's functions
// and one Liftoff compile, among lines of the browser's own log, add up by
// package; a trace whose body sizes are not the module's is refused, and so
// is a tier the log lacks, or a log without compiles.
func TestTierUp(t *testing.T) {
	m, err := parse(handModule())
	if err != nil {
		t.Fatal(err)
	}
	log := `[29764:29796:1207/010005.935278:ERROR:dbus/bus.cc:405] Failed to connect to the bus
Compiled function 0x295c009d4e18#1 using Liftoff, took 190 μs and 13584 bytes; bodysize 3 codesize 196
Compiled function 0x295c009d4e18#2 using TurboFan, took 53309 μs and 649640 / 1471408 max/total bytes; bodysize 5 codesize 5056 name wasm-function#2
Compiled function 0x295c009d4e18#1 using TurboFan, took 1000 μs and 649640 / 1471408 max/total bytes; bodysize 3 codesize 500 name wasm-function#1
`
	trace, err := readV8Trace(strings.NewReader(log))
	if err != nil || len(trace) != 3 {
		t.Fatalf("read %d compiles, %v", len(trace), err)
	}
	r, err := tierUp(m, trace, "TurboFan", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.funcs != 2 || r.us != 54309 {
		t.Errorf("TurboFan: %d compiles, %d us; want 2 and 54309", r.funcs, r.us)
	}
	if len(r.byPkg) != 2 || r.byPkg[0] != (pkgTime{"runtime", 1, 53309}) || r.byPkg[1] != (pkgTime{"schedplay/sim", 1, 1000}) {
		t.Errorf("by package %v", r.byPkg)
	}
	if r.top[0].name != "runtime.b" {
		t.Errorf("top function %q, want runtime.b", r.top[0].name)
	}
	if l, _ := tierUp(m, trace, "Liftoff", 0); l.funcs != 1 || l.us != 190 {
		t.Errorf("Liftoff: %d compiles, %d us; want 1 and 190", l.funcs, l.us)
	}
	if _, err := tierUp(m, trace, "turbofan", 0); err == nil || !strings.Contains(err.Error(), "[Liftoff TurboFan]") {
		t.Errorf("a tier the log lacks: %v; want an error naming the log's tiers", err)
	}
	if _, err := tierUp(m, nil, "TurboFan", 0); err == nil || !strings.Contains(err.Error(), "--trace-wasm-compilation-times") {
		t.Errorf("a log without compiles: %v; want an error naming the flag", err)
	}
	other, _ := readV8Trace(strings.NewReader("Compiled function 0x1#2 using TurboFan, took 5 μs and 1 bytes; bodysize 6 codesize 1\n"))
	if _, err := tierUp(m, other, "TurboFan", 0); err == nil {
		t.Error("a compile of a 6-byte function #2 was taken for this module's 5-byte one")
	}
}
