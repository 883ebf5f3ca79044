package interop

import (
	"bytes"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

// The package stays portable (the browser page will call it): the standard
// library, sim and scenarios only, and nothing that reads the machine it
// runs on.
func TestImportsOnlyPortablePackages(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case path == "schedplay/sim" || path == "schedplay/scenarios":
			case strings.HasPrefix(path, "schedplay/") || strings.Contains(strings.Split(path, "/")[0], "."):
				t.Errorf("%s imports %s", name, path)
			case path == "os" || path == "syscall/js" || path == "net" || path == "unsafe" || strings.HasPrefix(path, "os/"):
				t.Errorf("%s imports %s: the package must not touch the system", name, path)
			}
		}
	}
}

// Every export of one scenario is the same bytes, run after run.
func TestExportsAreDeterministic(t *testing.T) {
	writers := map[string]func(io.Writer, *sim.Sim) error{
		"perfetto":       func(w io.Writer, s *sim.Sim) error { return WritePerfetto(w, s, Options{}) },
		"csv":            func(w io.Writer, s *sim.Sim) error { return WriteCSV(w, s, Options{Interval: 3_000_000}) },
		"schedstat":      func(w io.Writer, s *sim.Sim) error { return WriteSchedstatSeries(w, s, Options{Interval: 7_000_000}) },
		"perfetto-proto": func(w io.Writer, s *sim.Sim) error { return WritePerfettoProto(w, s, Options{}) },
	}
	for name, write := range writers {
		for _, base := range []string{"v3.8", "v6.17"} {
			var a, b bytes.Buffer
			write(&a, newSim(t, "testdata/export-small.json", "policy.base="+base))
			write(&b, newSim(t, "testdata/export-small.json", "policy.base="+base))
			if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s (%s): two exports differ or are empty (%d, %d bytes)", name, base, a.Len(), b.Len())
			}
		}
	}
}
