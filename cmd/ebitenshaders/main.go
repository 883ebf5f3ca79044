// Command ebitenshaders makes the page's build of Ebiten whose built-in
// shaders come compiled:
//
//	ebitenshaders -o DIR
//
// Ebiten v2.8.8 compiles its built-in shaders from Kage source when the
// program starts (internal/restorable's package initialiser, on the page's
// thread and on the worker's, which never draws) and when the game starts
// (the screen shader), with a Kage compiler built on go/parser. In the
// browser that costs about 0.4 s of each thread's start, 4.3 s of V8's
// TurboFan compiling the parser after it has run its last, and 170 kB of
// the download (docs/performance.md, round thirty-five). This command
// copies Ebiten's module into DIR/ebiten, compiles every built-in shader
// there with Ebiten's own compiler and writes each program as a Go literal
// into the package that uses it, changes the three places that compiled
// them to use the literals, and checks that Ebiten generates from each
// literal the same GLSL as from the compiled source. It also takes the two
// regular expressions off the page's paths (the Kage compiler's, compiled
// in its package initialiser, and the GLSL generator's blank-line
// collapse), so the module links no regexp, makes internal/ui's two maps
// of key names at the first key event instead of in its package
// initialiser, and has the OpenGL driver take each built-in shader's GLSL
// ES 3.00 from a table the generator writes (docs/performance.md, round
// thirty-seven); nothing else of Ebiten changes. DIR/go.mod is this
// module's go.mod with Ebiten replaced by the copy: the build passes it as
// -modfile, so go.mod itself and every other build keep Ebiten as
// released.
//
// The copy is remade only when Ebiten, go.mod, go.sum or this command
// changed (DIR/stamp). Anything unexpected (another Ebiten version, a
// place to change not found once exactly, a check that differs) exits 1
// with the reason, and make builds the page with Ebiten as released.
package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const (
	ebitenModule  = "github.com/hajimehoshi/ebiten/v2"
	ebitenVersion = "v2.8.8" // the version whose code the edits below were read against
)

// What is placed inside the copy: the generator and the check (programs,
// where Ebiten's internal packages can be imported) and the GLSL
// generator's blank-line collapse.
var (
	//go:embed gen.go.txt
	genSrc []byte
	//go:embed check.go.txt
	checkSrc []byte
	//go:embed blanklines.go.txt
	blankLinesSrc []byte
)

// An edit replaces, in one file of Ebiten, the text from the line that
// starts with from through the line that starts with to (inclusive; to ""
// means from's line alone) by with. Each from must occur exactly once.
type edit struct {
	file, from, to, with string
}

// edits are the places that compile a built-in shader, and the imports
// that only they used.
var edits = []edit{
	{"internal/restorable/shader.go", "func init() {", "}", "func init() {\n" +
		"\tNearestFilterShader = NewShader(schedplayNearestIR(), \"nearest\")\n" +
		"\tLinearFilterShader = NewShader(schedplayLinearIR(), \"linear\")\n" +
		"\tclearShader = NewShader(schedplayClearIR(), \"clear\")\n" +
		"}\n"},
	{"internal/restorable/shader.go", "\t\"fmt\"", "", ""},
	{"internal/restorable/shader.go", "\t\"golang.org/x/sync/errgroup\"", "", ""},
	{"internal/restorable/shader.go", "\t\"github.com/hajimehoshi/ebiten/v2/internal/builtinshader\"", "", ""},
	{"internal/restorable/shader.go", "\t\"github.com/hajimehoshi/ebiten/v2/internal/graphics\"", "", ""},
	{"shader.go", "\t\ts, err := newShader(src, name)", "\t\tshader = s", "\t\t_ = src\n" +
		"\t\tir := schedplayBuiltinIR(int(filter), int(address), useColorM)\n" +
		"\t\tshader = &Shader{shader: ui.NewShader(ir, name), unit: ir.Unit}\n"},
	{"shader.go", "\t\"fmt\"", "", ""},
	{"gameforui.go", "\ts, err := newShader(builtinshader.ScreenShaderSource, \"screen\")", "\tg.screenShader = s", "\tir := schedplayScreenIR()\n" +
		"\tg.screenShader = &Shader{shader: ui.NewShader(ir, \"screen\"), unit: ir.Unit}\n"},
	{"gameforui.go", "\t\"fmt\"", "", ""},
	{"gameforui.go", "\t\"github.com/hajimehoshi/ebiten/v2/internal/builtinshader\"", "", ""},
	// The two regular expressions left on the page's paths: the GLSL
	// generator's blank-line collapse (run whenever it generates a shader's
	// GLSL, on the page's thread) and the Kage compiler's texture-variable pattern,
	// compiled in internal/shader's package initialiser on both threads
	// though nothing calls the compiler. Without them the module links no
	// regexp, regexp/syntax or unicode tables (docs/performance.md, round
	// thirty-seven).
	{"internal/shaderir/glsl/glsl.go", "\tnls := regexp.MustCompile(`\\n\\n+`)", "\tfs = nls.ReplaceAllString(fs, \"\\n\\n\")",
		"\tvs = SchedplayBlankLines(vs)\n\tfs = SchedplayBlankLines(fs)\n"},
	{"internal/shaderir/glsl/glsl.go", "\t\"regexp\"", "", ""},
	{"internal/shader/expr.go", "var textureVariableRe = regexp.MustCompile(`\\A__t(\\d+)\\z`)", "",
		"// schedplay: compiled at its first use, not in the package initialiser\n" +
			"// (a function, so that only a call links it).\n" +
			"var textureVariableReOnce struct {\n\tsync.Once\n\tre *regexp.Regexp\n}\n\n" +
			"func textureVariableRe() *regexp.Regexp {\n" +
			"\ttextureVariableReOnce.Do(func() { textureVariableReOnce.re = regexp.MustCompile(`\\A__t(\\d+)\\z`) })\n" +
			"\treturn textureVariableReOnce.re\n}\n"},
	{"internal/shader/expr.go", "\t\tif m := textureVariableRe.FindStringSubmatch(e.Name); m != nil {", "",
		"\t\tif m := textureVariableRe().FindStringSubmatch(e.Name); m != nil {\n"},
	{"internal/shader/expr.go", "\t\"regexp\"", "", "\t\"regexp\"\n\t\"sync\"\n"},
	// internal/ui's two maps of key names (about 180 js.ValueOf calls, in
	// its package initialiser on both threads, which V8 then re-compiles)
	// are made at the first key event instead (the wraps below).
	{"internal/ui/input_js.go", "\tfor uiKey, jsCode := range uiKeyToJSCode {", "", "\tfor uiKey, jsCode := range uiKeyToJSCodeOf() {\n"},
	{"internal/ui/input_js.go", "\tfor uiKey, jsKey := range uiKeyToJSKey {", "", "\tfor uiKey, jsKey := range uiKeyToJSKeyOf() {\n"},
	{"internal/ui/input_js.go", "\tn := u.keyboardLayoutMap.Call(\"get\", uiKeyToJSCode[key])", "", "\tn := u.keyboardLayoutMap.Call(\"get\", uiKeyToJSCodeOf()[key])\n"},
	// The OpenGL driver takes a built-in shader's GLSL from the table the
	// generator writes (glsl.SchedplayCompile) instead of generating it on
	// the page's thread when the shader is first used.
	{"internal/graphicsdriver/opengl/shader.go", "\tvssrc, fssrc := glsl.Compile(s.ir, s.graphics.context.glslVersion())", "",
		"\tvssrc, fssrc := glsl.SchedplayCompile(s.ir, s.graphics.context.glslVersion())\n"},
}

// wraps turn internal/ui's key maps into functions that make them at their
// first use; the maps' entries stay Ebiten's text.
var wraps = []wrap{
	{"internal/ui/input_js.go", "var uiKeyToJSKey = map[Key]js.Value{", "}", lazyMapHead("uiKeyToJSKey"), "}\n}\n"},
	{"internal/ui/keys_js.go", "var uiKeyToJSCode = map[Key]js.Value{", "}", lazyMapHead("uiKeyToJSCode"), "}\n}\n"},
}

// lazyMapHead is the head of a wrap that makes the map name at its first
// use (nameOf() returns it; the page's Go runs on one thread).
func lazyMapHead(name string) string {
	return "// schedplay: made at its first use, not in the package initialiser.\n" +
		"var " + name + " map[Key]js.Value\n\n" +
		"func " + name + "Of() map[Key]js.Value {\n" +
		"\tif " + name + " == nil {\n\t\t" + name + " = schedplayMake" + name + "()\n\t}\n" +
		"\treturn " + name + "\n}\n\n" +
		"func schedplayMake" + name + "() map[Key]js.Value {\n" +
		"\treturn map[Key]js.Value{\n"
}

func main() {
	out := flag.String("o", "", "the directory to make (its ebiten/ and go.mod)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: ebitenshaders -o DIR")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "ebitenshaders:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	var mod struct{ Dir, Version string }
	b, err := goCmd("mod", "download", "-json", ebitenModule) // on a fresh machine, the first step that needs it
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &mod); err != nil || mod.Dir == "" {
		return fmt.Errorf("go mod download %s: no module directory (%v)", ebitenModule, err)
	}
	if mod.Version != ebitenVersion {
		return fmt.Errorf("go.mod has Ebiten %s; the edits were written for %s: read them against the new version's code", mod.Version, ebitenVersion)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	gosum, err := os.ReadFile("go.sum")
	if err != nil {
		return err
	}
	stamp := stampOf(mod.Version, gomod, gosum)
	old, err := os.ReadFile(filepath.Join(out, "stamp"))
	if _, statErr := os.Stat(filepath.Join(out, "go.mod")); err == nil && statErr == nil && string(old) == stamp {
		fmt.Printf("ebitenshaders: %s is up to date\n", out)
		return nil
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	dst := filepath.Join(out, "ebiten")
	if err := copyTree(mod.Dir, dst); err != nil {
		return err
	}
	for _, file := range filesOf(edits, wraps) {
		if err := editFile(filepath.Join(dst, file), file, edits, wraps); err != nil {
			return err
		}
	}
	for path, src := range map[string][]byte{
		"internal/schedplayshaders/main.go":              genSrc,
		"internal/schedplayshaders/check/main.go":        checkSrc,
		"internal/shaderir/glsl/schedplay_blanklines.go": blankLinesSrc,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, path)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, path), src, 0o644); err != nil {
			return err
		}
	}
	modfile := filepath.Join(out, "go.mod")
	if err := os.WriteFile(modfile, append(gomod, fmt.Sprintf("\nreplace %s => %s\n", ebitenModule, dst)...), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "go.sum"), gosum, 0o644); err != nil {
		return err
	}
	if _, err := goCmd("run", "-modfile", modfile, ebitenModule+"/internal/schedplayshaders", "gen", dst); err != nil {
		return err
	}
	msg, err := goCmd("run", "-modfile", modfile, ebitenModule+"/internal/schedplayshaders/check")
	if err != nil {
		return err
	}
	fmt.Print(string(msg))
	if err := os.WriteFile(filepath.Join(out, "stamp"), []byte(stamp), 0o644); err != nil {
		return err
	}
	fmt.Printf("ebitenshaders: %s (pass -modfile=%s)\n", out, modfile)
	return nil
}

// stampOf names what the copy is made from: Ebiten's version, go.mod and
// go.sum, and this command (its executable, which holds the programs and
// edits it places).
func stampOf(version string, gomod, gosum []byte) string {
	self, err := os.Executable()
	var exe []byte
	if err == nil {
		exe, _ = os.ReadFile(self)
	}
	h := sha256.New()
	for _, b := range [][]byte{[]byte(version), gomod, gosum, exe} {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// goCmd runs the go command natively (the page's build sets GOOS=js for
// its own command only, but a caller's environment may have it too).
func goCmd(args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return b, nil
}

// copyTree copies Ebiten's module (its examples left out), writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "examples" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// filesOf lists the files the edits and wraps touch, each once, in order.
func filesOf(es []edit, ws []wrap) []string {
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, e := range es {
		add(e.file)
	}
	for _, w := range ws {
		add(w.file)
	}
	return files
}

func editFile(path, file string, es []edit, ws []wrap) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	for _, e := range es {
		if e.file != file {
			continue
		}
		if s, err = apply(s, e); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	for _, w := range ws {
		if w.file != file {
			continue
		}
		if s, err = applyWrap(s, w); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	out, err := format.Source([]byte(s))
	if err != nil {
		return fmt.Errorf("%s after the edits: %v", file, err)
	}
	return os.WriteFile(path, out, 0o644)
}

var errEdit = errors.New("Ebiten's code is not as the edit expects")

// apply makes one edit. A one-line edit (to "") needs exactly one line of s
// equal to from; a span needs exactly one line starting with from, and runs
// from it to the first line after it that starts with to.
func apply(s string, e edit) (string, error) {
	lines, at, end, err := span(s, e.from, e.to)
	if err != nil {
		return "", err
	}
	return strings.Join(lines[:at], "") + e.with + strings.Join(lines[end+1:], ""), nil
}

// A wrap replaces the first and the last line of a span (found as an edit's)
// by head and tail and keeps the lines between: a declaration's body stays
// Ebiten's own text.
type wrap struct {
	file, from, to, head, tail string
}

func applyWrap(s string, w wrap) (string, error) {
	lines, at, end, err := span(s, w.from, w.to)
	if err != nil {
		return "", err
	}
	if end == at {
		return "", fmt.Errorf("%w: a wrap needs a span, %q has no end", errEdit, w.from)
	}
	return strings.Join(lines[:at], "") + w.head + strings.Join(lines[at+1:end], "") + w.tail + strings.Join(lines[end+1:], ""), nil
}

// span splits s into lines and finds the edit's place: the line at and the
// last line end (at itself for a one-line edit).
func span(s, from, to string) (lines []string, at, end int, err error) {
	lines = strings.SplitAfter(s, "\n")
	at = -1
	for i, l := range lines {
		line := strings.TrimSuffix(l, "\n")
		if to == "" && line == from || to != "" && strings.HasPrefix(line, from) {
			if at >= 0 {
				return nil, 0, 0, fmt.Errorf("%w: %q starts two lines (%d and %d)", errEdit, from, at+1, i+1)
			}
			at = i
		}
	}
	if at < 0 {
		return nil, 0, 0, fmt.Errorf("%w: no line is %q", errEdit, from)
	}
	end = at
	if to != "" {
		for end = at + 1; end < len(lines) && !strings.HasPrefix(lines[end], to); end++ {
		}
		if end == len(lines) {
			return nil, 0, 0, fmt.Errorf("%w: no line starting %q after %q", errEdit, to, from)
		}
	}
	return lines, at, end, nil
}
