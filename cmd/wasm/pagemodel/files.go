package pagemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"schedplay/interop"
	"schedplay/scenarios"
)

// Import kinds: what the page's importText recognises.
const (
	KindScenario = "scenario"
	KindRTApp    = "rtapp"
	KindLscpu    = "lscpu"
)

// Sniff says what text is: a scenario, an rt-app workload or lscpu -p
// output ("" when it cannot tell). JSON with "version" or a tasks array is
// a scenario; JSON (or rt-app's relaxed JSON, with comments) with "global"
// or a tasks object is rt-app; lines of comma-separated numbers under '#'
// comments are lscpu. name (the file's name) decides what the text cannot.
func Sniff(text, name string) string {
	t := strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
	switch {
	case strings.HasPrefix(t, "{"), strings.HasPrefix(t, "/"):
		var top map[string]json.RawMessage
		if json.Unmarshal([]byte(t), &top) == nil {
			if _, ok := top["version"]; ok {
				return KindScenario
			}
			if _, ok := top["global"]; ok {
				return KindRTApp
			}
			if tasks := bytes.TrimSpace(top["tasks"]); len(tasks) > 0 && tasks[0] == '{' {
				return KindRTApp
			}
			return KindScenario
		}
		// Not strict JSON: rt-app's dialect has comments and trailing commas.
		if strings.Contains(t, `"tasks"`) && !strings.Contains(t, `"version"`) {
			return KindRTApp
		}
		return KindScenario
	case strings.HasPrefix(t, "#"), len(t) > 0 && t[0] >= '0' && t[0] <= '9':
		return KindLscpu
	}
	if strings.HasSuffix(strings.ToLower(name), ".json") {
		return KindScenario
	}
	return ""
}

// Imported is what an import gives the page: the scenario to load and what
// the importer could not map as written ("path: what happened").
type Imported struct {
	Kind     string
	Scenario *scenarios.Scenario
	Notes    []interop.Problem
}

// Adopt makes an imported scenario (tasks from a file that gives no
// scheduler policy: rt-app, a sched trace) one of the page's: titled
// "<source>: <file's base name>" when the file has a name, and with cur's
// policy (its base kernel and switches) where the scenario still validates
// with it, which a note says.
func Adopt(sc, cur *scenarios.Scenario, source, name string, notes []interop.Problem) (*scenarios.Scenario, []interop.Problem) {
	if name != "" {
		title := sc.Title
		if sc.Set("title", source+": "+path.Base(name)) != nil {
			sc.Title = title
		}
	}
	kept := sc.Clone()
	kept.Policy = cur.Clone().Policy
	if kept.Validate() != nil {
		return sc, notes
	}
	giver := source
	if source == "trace" {
		giver = "a trace"
	}
	return kept, append(notes, interop.Problem{Path: "policy", Message: "kept the current scenario's (" + PolicyWords(cur) + "): " + giver + " gives none"})
}

// Import reads text (a file named name) as kind ("" recognises it, see
// Sniff): a scenario; an rt-app workload, run on cur's machine; or an
// lscpu -p topology, which replaces cur's machine (its tasks and policy
// stay; a task pinned to CPUs the new machine lacks is an error by path).
// The result is always of the recognised kind, with the notes so far even
// on error.
func Import(cur *scenarios.Scenario, text, name, kind string) (Imported, error) {
	if kind == "" {
		kind = Sniff(text, name)
	}
	out := Imported{Kind: kind}
	switch kind {
	case KindScenario:
		sc, err := scenarios.Decode([]byte(text))
		out.Scenario = sc
		return out, err
	case KindRTApp:
		sc, notes, err := interop.ImportRTAppWith([]byte(text), interop.RTAppOptions{Machine: &cur.Machine})
		out.Notes = notes
		if err != nil {
			return out, fmt.Errorf("rt-app: %w", err)
		}
		// rt-app describes tasks only: the scheduler policy (its base
		// kernel and switches) stays the one being played, as the machine
		// does, and the notes say so.
		sc, out.Notes = Adopt(sc, cur, "rt-app", name, out.Notes)
		out.Notes = append(out.Notes, interop.Problem{Path: "machine", Message: "kept the current scenario's: rt-app gives none"})
		out.Scenario = sc
		return out, nil
	case KindLscpu:
		m, notes, err := interop.ImportLscpu([]byte(text))
		out.Notes = notes
		if err != nil {
			return out, fmt.Errorf("lscpu: %w", err)
		}
		c := cur.Clone()
		m.Costs = cur.Machine.Costs
		c.Machine = m
		if err := c.Validate(); err != nil {
			return out, err
		}
		out.Scenario = c
		return out, nil
	}
	return out, errors.New("this is not a scenario JSON, an rt-app JSON or lscpu -p output")
}

// ExportFile names the file an export offers: the scenario's title as a
// slug, then the format's suffix; mime is its media type.
func ExportFile(title, format string) (name, mime string, err error) {
	f, err := interop.LookupFormat(format)
	if err != nil {
		return "", "", fmt.Errorf("export(%q): the formats are %s", format, strings.Join(interop.FormatNames(), ", "))
	}
	return FileSlug(title) + f.Ext, f.MIME, nil
}

// FileSlug makes a file name from a title: lower case words joined by
// dashes, at most about 40 characters, cut between words.
func FileSlug(title string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			w.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	s := ""
	for _, word := range words {
		if s != "" && len(s)+1+len(word) > 40 {
			break
		}
		if s != "" {
			s += "-"
		}
		s += word
	}
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		return "scenario"
	}
	return s
}

// PolicyWords names a scenario's policy in a few words: its base kernel and
// how many settings it changes ("v3.8, 2 settings changed").
func PolicyWords(s *scenarios.Scenario) string {
	if s == nil {
		return "the default"
	}
	base := s.Policy.Base
	if base == "" {
		base = scenarios.DefaultBase
	}
	// Count what the policy's JSON sets besides the base: a setting, or
	// each entry of a map of them (features, a level's flags).
	n := 0
	var count func(v any)
	count = func(v any) {
		if m, ok := v.(map[string]any); ok {
			for _, x := range m {
				count(x)
			}
			return
		}
		n++
	}
	var top map[string]any
	if b, err := json.Marshal(s.Policy); err == nil && json.Unmarshal(b, &top) == nil {
		delete(top, "base")
		count(top)
	}
	switch n {
	case 0:
		return base
	case 1:
		return base + ", 1 setting changed"
	}
	return fmt.Sprintf("%s, %d settings changed", base, n)
}
