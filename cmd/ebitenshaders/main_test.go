package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	src := "import (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\ta()\n\tb()\n}\n\nfunc c() {\n}\n"
	cases := []struct {
		name string
		e    edit
		want string
		err  bool
	}{
		{"one line", edit{"f", "\t\"fmt\"", "", ""}, "import (\n\t\"os\"\n)\n\nfunc init() {\n\ta()\n\tb()\n}\n\nfunc c() {\n}\n", false},
		{"a span, to the first closing line after it", edit{"f", "func init() {", "}", "func init() {\n\tz()\n}\n"},
			"import (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\tz()\n}\n\nfunc c() {\n}\n", false},
		{"a one-line edit needs the whole line", edit{"f", "\t\"fm", "", ""}, "", true},
		{"no such line", edit{"f", "func main() {", "}", ""}, "", true},
		{"two lines start the span", edit{"f", "func ", "}", ""}, "", true},
		{"no end", edit{"f", "func c() {", "\treturn", ""}, "", true},
	}
	wrapped, err := applyWrap(src, wrap{"f", "func init() {", "}", "func init() {\n\tif x {\n", "\t}\n}\n"})
	if want := "import (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\tif x {\n\ta()\n\tb()\n\t}\n}\n\nfunc c() {\n}\n"; err != nil || wrapped != want {
		t.Errorf("a wrap: got %q, %v\nwant %q", wrapped, err, want)
	}
	if _, err := applyWrap(src, wrap{"f", "\t\"fmt\"", "", "x", "y"}); !errors.Is(err, errEdit) {
		t.Errorf("a wrap of one line: err %v, want errEdit", err)
	}
	for _, c := range cases {
		got, err := apply(src, c.e)
		if c.err {
			if !errors.Is(err, errEdit) {
				t.Errorf("%s: err %v, want errEdit", c.name, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v\nwant %q", c.name, got, err, c.want)
		}
	}
}

// ebitenDir is the module cache's Ebiten, the one go.mod names.
func ebitenDir(t *testing.T) string {
	t.Helper()
	b, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", ebitenModule).Output()
	if err != nil {
		t.Fatal(err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if version != ebitenVersion {
		t.Fatalf("go.mod has Ebiten %s, the edits are for %s", version, ebitenVersion)
	}
	return dir
}

// TestEditsFitEbiten: every edit finds its place in the Ebiten go.mod
// names, and afterwards none of the three files compiles a built-in shader
// (the root package's newShader stays, for ebiten.NewShader), the GLSL
// generator uses no regular expression and the Kage compiler's is not
// compiled in its package initialiser.
func TestEditsFitEbiten(t *testing.T) {
	dir := ebitenDir(t)
	for _, file := range filesOf(edits, wraps) {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, e := range edits {
			if e.file == file {
				if s, err = apply(s, e); err != nil {
					t.Fatalf("%s: %v", file, err)
				}
			}
		}
		for _, w := range wraps {
			if w.file == file {
				if s, err = applyWrap(s, w); err != nil {
					t.Fatalf("%s: %v", file, err)
				}
			}
		}
		gone := map[string][]string{ // the calls that compiled a built-in shader, or a regular expression at start
			"internal/restorable/shader.go":            {"CompileShader("},
			"shader.go":                                {"newShader(src, name)"},
			"gameforui.go":                             {"newShader("},
			"internal/shaderir/glsl/glsl.go":           {"regexp"},
			"internal/shader/expr.go":                  {"var textureVariableRe = regexp"},
			"internal/ui/input_js.go":                  {"var uiKeyToJSKey = map", "range uiKeyToJSKey {", "uiKeyToJSCode[key]", "range uiKeyToJSCode {"},
			"internal/ui/keys_js.go":                   {"var uiKeyToJSCode = map"},
			"internal/graphicsdriver/opengl/shader.go": {"glsl.Compile("},
		}[file]
		if len(gone) == 0 {
			t.Errorf("%s: an edited file the test does not know", file)
		}
		for _, gone := range gone {
			if strings.Contains(s, gone) {
				t.Errorf("%s still has %q after the edits", file, gone)
			}
		}
	}
}

// TestMakeCopy makes the copy as make wasm does (the check inside it
// compares the GLSL of every built-in shader, and the blank-line collapse
// with the regular expression it replaces), then makes it again from its
// stamp, and builds the page's module against it.
func TestMakeCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("copies Ebiten and builds twice")
	}
	out := t.TempDir()
	t.Chdir("../..")
	if err := run(out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "ebiten", "internal", "restorable", "shader.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "CompileShader") || !strings.Contains(string(b), "schedplayNearestIR()") {
		t.Errorf("restorable/shader.go not edited:\n%s", b)
	}
	stamp, err := os.ReadFile(filepath.Join(out, "stamp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := run(out); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(filepath.Join(out, "stamp")); string(again) != string(stamp) {
		t.Errorf("stamp changed on a second run: %s -> %s", stamp, again)
	}
	cmd := exec.Command("go", "build", "-modfile", filepath.Join(out, "go.mod"), "-o", filepath.Join(out, "main.wasm"), "./cmd/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the page's module against the copy: %v\n%s", err, msg)
	}
	// The Kage compiler is gone from the module: nothing calls it.
	wasm, err := os.ReadFile(filepath.Join(out, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(wasm), "internal/shader.(*compileState).parseExpr") {
		t.Errorf("main.wasm still has Ebiten's Kage compiler")
	}
	// Nor any regular expression: neither Ebiten's two edited ones nor one
	// of the page's own packages (whose path readers are written by hand),
	// which would bring regexp's compiler and unicode's tables back to both
	// threads' start (docs/performance.md, round thirty-seven).
	for _, name := range []string{"regexp/syntax.Parse", "regexp.compile"} {
		if strings.Contains(string(wasm), name) {
			t.Errorf("main.wasm links %s: something on the page's paths compiles a regular expression", name)
		}
	}
}
