package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultPreset is the scenario the page shows when it has no link (or a
// bad one): Mike Galbraith's tbench pair on the 4x10x2 Westmere.
const DefaultPreset = "tbench-pairs"

//go:embed *.json
var presetFS embed.FS

// PresetInfo describes one preset for a menu.
type PresetInfo struct {
	Name        string // the file name without .json: what Load and Preset take
	Title       string
	Description string
	Summary     string // one line for a picker: the file's summary, or the description's first sentence
	View        View   // the preset's default view (its A/B sets)
}

type preset struct {
	file string
	once sync.Once // decodes the file on first use (load)

	info  PresetInfo
	s     *Scenario
	canon string
	err   error
}

// presets lists the embedded files; each is decoded when first used. A
// page opened on one preset decodes that one (in wasm the eight together
// took 186 ms of a cold start, on the page's thread and again on the
// worker's); a menu, PresetOf or NextPreset decode them all.
var presets = sync.OnceValue(func() map[string]*preset {
	m := map[string]*preset{}
	entries, _ := fs.ReadDir(presetFS, ".")
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			m[name] = &preset{file: e.Name(), info: PresetInfo{Name: name}}
		}
	}
	return m
})

// load decodes the preset's file once and returns p.
func (p *preset) load() *preset {
	p.once.Do(func() {
		data, err := presetFS.ReadFile(p.file)
		if err == nil {
			p.s, err = Decode(data)
		}
		if err != nil {
			p.err = &FileError{File: "preset " + p.info.Name, Err: err}
			return
		}
		p.info.Title, p.info.Description = p.s.Title, p.s.Description
		p.info.Summary, p.info.View = p.s.Summary, p.s.View.clone()
		if p.info.Summary == "" {
			p.info.Summary = FirstSentence(p.s.Description, 160)
		}
		p.canon = string(p.s.Canonical())
	})
	return p
}

// Presets lists the embedded presets, sorted by name.
func Presets() []PresetInfo {
	var out []PresetInfo
	for _, p := range presets() {
		out = append(out, p.load().info)
	}
	slices.SortFunc(out, func(a, b PresetInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// PresetOf names the preset that s is, "" if none: the one rule for
// preset identity is equal canonical JSON (a preset with a changed field
// is no longer that preset; title, summary and view do not matter).
//
// Only a preset whose recorded sum (presets.sums) matches s's is decoded
// to compare: deciding that an import or a link's scenario is none of the
// presets decoded all of them (39-75 ms in wasm under Node, on the page's
// main thread at its first import or link, issue 19). A preset missing
// from the file is decoded and compared, as before the sums.
func PresetOf(s *Scenario) string {
	canon := s.Canonical()
	sum, sums := canonSum(canon), presetSums()
	all := presets()
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if want, ok := sums[name]; ok && want != sum {
			continue
		}
		if all[name].load().canon == string(canon) {
			return name
		}
	}
	return ""
}

// presets.sums records each preset's canonSum, one "name sum" line each
// (go test ./scenarios -run PresetSums -update-preset-sums rewrites it;
// TestPresetSums fails when a preset no longer has its recorded sum).
//
//go:embed presets.sums
var presetSumsFile string

var presetSums = sync.OnceValue(func() map[string]uint64 {
	m := map[string]uint64{}
	for line := range strings.Lines(presetSumsFile) {
		name, hex, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseUint(hex, 16, 64); err == nil {
			m[name] = v
		}
	}
	return m
})

// canonSum is the FNV-1a 64 sum of a canonical JSON: a filter only, a
// match is confirmed by comparing the JSON itself.
func canonSum(canon []byte) uint64 {
	h := fnv.New64a()
	h.Write(canon)
	return h.Sum64()
}

// FirstSentence is text up to the first ". " (or the end), cut to at most
// max characters with an ellipsis.
func FirstSentence(text string, max int) string {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, ". "); i >= 0 {
		text = text[:i+1]
	}
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	r := []rune(text)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}

// Preset returns a fresh copy of the named preset.
func Preset(name string) (*Scenario, error) {
	p, ok := presets()[name]
	if !ok {
		var names []string
		for _, pi := range Presets() {
			names = append(names, pi.Name)
		}
		return nil, &Error{Problem: fmt.Sprintf("no preset named %s (presets: %s)", quote(name), strings.Join(names, ", "))}
	}
	if p.load().err != nil {
		return nil, p.err
	}
	return p.s.Clone(), nil
}

// Load reads a scenario: the name of a preset ("tbench-pairs"), or else a
// file path. A path that happens to equal a preset name can be written as
// "./tbench-pairs". Files larger than MaxScenarioBytes are refused before
// they are read whole. Every error line starts with the file's name.
func Load(nameOrPath string) (*Scenario, error) {
	if _, ok := presets()[nameOrPath]; ok {
		return Preset(nameOrPath)
	}
	// A named pipe with no writer would block the open for ever, a device
	// never end: only regular files are read (a stat never blocks).
	if st, err := os.Stat(nameOrPath); err == nil && !st.Mode().IsRegular() {
		return nil, &FileError{File: nameOrPath, Err: &Error{Problem: notRegular(st.Mode())}}
	}
	f, err := os.Open(nameOrPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(nameOrPath, `/\`) && !strings.HasSuffix(nameOrPath, ".json") {
			var names []string
			for _, pi := range Presets() {
				names = append(names, pi.Name)
			}
			return nil, &FileError{File: nameOrPath, Err: &Error{Problem: "no such file, and no such preset (presets: " + strings.Join(names, ", ") + ")"}}
		}
		return nil, &FileError{File: nameOrPath, Err: &Error{Problem: unwrapPathError(err)}}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxScenarioBytes+1))
	if err != nil {
		return nil, &FileError{File: nameOrPath, Err: &Error{Problem: unwrapPathError(err)}}
	}
	if len(data) > MaxScenarioBytes {
		return nil, &FileError{File: nameOrPath, Err: &Error{Problem: fmt.Sprintf("larger than %d bytes (256 KiB)", MaxScenarioBytes)}}
	}
	s, err := Decode(data)
	if err != nil {
		return nil, &FileError{File: nameOrPath, Err: err}
	}
	return s, nil
}

// unwrapPathError drops the "open FILE: " of an *fs.PathError, since the
// FileError names the file already.
func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// notRegular says what a file that is not a regular file is.
func notRegular(m fs.FileMode) string {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return "is " + what + ", not a regular file: save the scenario to a file and give its path"
}
