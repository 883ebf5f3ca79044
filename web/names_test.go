package web

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"schedplay/scenarios"
)

// TestJSNamesNoField: no JavaScript file of the page names a scenario field,
// an enum value, a placeholder name (a level, a flag, a feature) or a unit
// as a string of its own: the
// editor takes them from the schema (describe().schema). It reads every
// string literal of the page's scripts, and every property access of a
// field whose key is unmistakable (with an underscore: cores_per_cluster,
// count_of); a literal that is a field's path, a field's key, a value of an
// enum, or a placeholder's name fails.
func TestJSNamesNoField(t *testing.T) {
	files, err := filepath.Glob("*.js")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // name -> what it is
	for _, f := range scenarios.Fields() {
		names[f.Path] = "the path " + f.Path
		if !strings.ContainsAny(f.Path, "<[") {
			for p := f.Path; p != ""; {
				names[p] = "the path " + f.Path
				i := strings.LastIndexByte(p, '.')
				if i < 0 {
					break
				}
				p = p[:i]
			}
		}
		key := f.Path[strings.LastIndexAny(f.Path, ".]")+1:]
		if key != "" && !strings.HasPrefix(key, "<") {
			names[key] = "the key of " + f.Path
		}
		for _, v := range f.Enum {
			names[v] = "a value of " + f.Path
		}
	}
	// Units: the schema's, and the duration units of time.ParseDuration
	// (the page parses no duration: Go does).
	for _, f := range scenarios.Fields() {
		if f.Unit != "" {
			names[f.Unit] = "the unit of " + f.Path
		}
	}
	for _, u := range []string{"ns", "us", "µs", "μs", "ms", "s", "m", "h"} {
		names[u] = "a duration unit"
	}
	for ph, list := range scenarios.Placeholders() {
		for _, n := range list {
			names[n] = "a name of " + ph
		}
	}
	literal := regexp.MustCompile(`"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'`)
	access := regexp.MustCompile(`\.([a-z]+_[a-z_]+)\b`)
	var found []string
	read := 0
	for _, file := range files {
		if file == "wasm_exec.js" {
			continue // the Go distribution's
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		read++
		for n, line := range strings.Split(string(data), "\n") {
			code := line
			if i := strings.Index(code, "//"); i >= 0 && !strings.Contains(code[:i], `"`) && !strings.Contains(code[:i], "'") {
				code = code[:i] // a comment may name fields: it explains them
			}
			if strings.HasPrefix(strings.TrimSpace(code), "*") || strings.HasPrefix(strings.TrimSpace(code), "/*") {
				continue
			}
			for _, m := range literal.FindAllStringSubmatch(code, -1) {
				s := m[1] + m[2]
				if what, ok := names[s]; ok && !allowed[s] {
					found = append(found, file+":"+itoa(n+1)+": "+strconvQuote(s)+" is "+what)
				}
			}
			for _, m := range access.FindAllStringSubmatch(code, -1) {
				if what, ok := names[m[1]]; ok && !allowed[m[1]] {
					found = append(found, file+":"+itoa(n+1)+": ."+m[1]+" is "+what)
				}
			}
		}
	}
	if read < 5 {
		t.Fatalf("read %d scripts", read)
	}
	sort.Strings(found)
	found = slices.Compact(found)
	for _, f := range found {
		t.Error(f)
	}
}

// allowed are words that are a field's key or an enum value and also the
// page's own vocabulary: the DOM's, the ids of index.html's controls, and
// the schema's kinds (the editor builds a control by kind); set in init.
var allowed = map[string]bool{
	"text":    true, // an input's type
	"title":   true, // an element's attribute
	"off":     true, // autocomplete="off"
	"summary": true, // the <summary> of a <details>, and a CSS class
	"seed":    true, // index.html's #seed control (its data-path is in the HTML)
	"speed":   true, // index.html's #speed menu
	"talk":    true, // index.html's #talk button
	// Words of the presenter's view (view.chapters, view.theme) that are the
	// page's own too:
	"play":    true, // index.html's #play button (view.chapters[i].play)
	"task":    true, // the event log's and the editor's word (view.chapters[i].at.task)
	"migrate": true, // an event kind as the event log shows it (view.chapters[i].at.event)
}

func init() {
	for _, f := range scenarios.Fields() {
		allowed[string(f.Kind)] = true
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func strconvQuote(s string) string { return strconv.Quote(s) }
