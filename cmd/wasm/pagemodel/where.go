package pagemodel

import (
	"regexp"
	"strconv"
	"strings"

	"schedplay/scenarios"
)

// The page names a place in a scenario the way its editor shows it, never
// by its JSON path (web/names_test.go keeps the scenario's field names out
// of the scripts): this file is the one place that turns a path into those
// words.

var (
	taskPath = regexp.MustCompile(`^tasks\[(\d+)\](.*)$`)
	stepPath = regexp.MustCompile(`^\.program\[(\d+)\]`)
	ownField = regexp.MustCompile(`^\.[a-z_]+$`)
)

// Where names the place at path in sc as the editor shows it: a group's
// card by its name and a step by its number ("group \"server\", step 2", a
// repeat's body as "step 1 › step 2"), a group's own field by its label
// ("group \"client\", cpus"). Other paths (machine and policy fields carry
// their path's words) are returned as they are.
func Where(sc *scenarios.Scenario, path string) string {
	if path == "tasks" {
		return "task groups"
	}
	m := taskPath.FindStringSubmatch(path)
	if m == nil {
		return path
	}
	i, _ := strconv.Atoi(m[1])
	out := "group " + strconv.Itoa(i+1)
	if sc != nil && i < len(sc.Tasks) {
		out = "group " + strconv.Quote(sc.Tasks[i].Name)
	}
	rest := m[2]
	var steps []string
	for {
		s := stepPath.FindStringSubmatch(rest)
		if s == nil {
			break
		}
		n, _ := strconv.Atoi(s[1])
		steps = append(steps, strconv.Itoa(n+1))
		rest = rest[len(s[0]):]
	}
	switch {
	case len(steps) > 0:
		out += ", step " + strings.Join(steps, " › step ")
	case ownField.MatchString(rest):
		out += ", " + strings.Replace(rest[1:], "_", " ", 1)
	}
	return out
}

// refText says what a place that names a group to be removed does with it,
// in the words of the removal dialog.
func refText(sc *scenarios.Scenario, r Ref) string {
	name := strconv.Quote(r.Name)
	switch r.Field {
	case "wake":
		return Where(sc, r.Path) + ": wakes " + name + " (the step goes)"
	case "fork":
		return Where(sc, r.Path) + ": forks " + name + " (the step goes)"
	case "count_of":
		count := 0
		for _, t := range sc.Tasks {
			if t.Name == r.Name {
				count = t.Count
			}
		}
		return Where(sc, strings.TrimSuffix(r.Path, ".count_of")) + ": takes its count from " + name +
			" (keeps " + strconv.Itoa(count) + " as its own)"
	}
	return Where(sc, r.Path) + ": names " + name
}
