package frame

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportGraph keeps the arrows one way (design.md: front ends → render
// → sim): frame and sim are leaves, render/... reads frames but never the
// package that makes them (app), app does not draw, and nothing imports a
// command. It reads the packages' non-test imports, natively and for
// js/wasm (cmd/wasm's files are js-only).
func TestImportGraph(t *testing.T) {
	const mod = "schedplay/"
	forbidden := map[string][]string{
		"sim":       {"schedplay/"},
		"frame":     {"schedplay/app", "schedplay/render", "schedplay/scenarios", "schedplay/interop", "schedplay/cmd"},
		"scenarios": {"schedplay/app", "schedplay/render", "schedplay/frame", "schedplay/interop", "schedplay/cmd"},
		"render":    {"schedplay/app", "schedplay/scenarios", "schedplay/interop", "schedplay/cmd"},
		"app":       {"schedplay/render", "schedplay/cmd"},
		"interop":   {"schedplay/app", "schedplay/render", "schedplay/cmd"},
	}
	allowedSim := map[string]bool{"schedplay/sim": true}
	root := ".."
	checked := 0
	for _, goos := range [][2]string{{"linux", "amd64"}, {"js", "wasm"}} {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH = goos[0], goos[1]
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "web" || name == "e2e") {
				return filepath.SkipDir
			}
			pkg, err := ctx.ImportDir(path, 0)
			if err != nil {
				return nil // no Go files for this platform
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			top, _, _ := strings.Cut(rel, "/")
			checked++
			// A command's own packages (cmd/wasm/pagemodel, cmd/wasm/importjob)
			// are parts of that command: they may import each other.
			own := rel
			if parts := strings.SplitN(rel, "/", 3); parts[0] == "cmd" && len(parts) > 1 {
				own = "cmd/" + parts[1] + "/"
			}
			for _, imp := range pkg.Imports {
				if strings.HasPrefix(imp, mod+"cmd/") && !strings.HasPrefix(imp+"/", mod+own) {
					t.Errorf("%s (%s) imports the command package %s", rel, goos[0], imp)
				}
				for _, bad := range forbidden[top] {
					if strings.HasPrefix(imp, bad) && !(top == "frame" && allowedSim[imp]) {
						t.Errorf("%s (%s) imports %s", rel, goos[0], imp)
					}
				}
				if top == "frame" && strings.HasPrefix(imp, mod) && !allowedSim[imp] {
					t.Errorf("frame imports %s: it may import only sim", imp)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages read", checked)
	}
}
