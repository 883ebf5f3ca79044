package pagemodel

import (
	"strconv"
	"strings"

	"schedplay/scenarios"
)

// The page names a place in a scenario the way its editor shows it, never
// by its JSON path (web/names_test.go keeps the scenario's field names out
// of the scripts): this file is the one place that turns a path into those
// words.

// The three shapes of path Where reads, by hand rather than by regular
// expressions (the page's module links none; where_test.go checks each
// against the expression it replaces).

// taskPath splits "tasks[i]rest" (^tasks\[(\d+)\](.*)$: rest holds no
// newline) into i's digits and rest.
func taskPath(path string) (digits, rest string, ok bool) {
	const head = "tasks["
	if !strings.HasPrefix(path, head) {
		return "", "", false
	}
	d, after, ok := bracketDigits(path[len(head):])
	if !ok || strings.IndexByte(after, '\n') >= 0 {
		return "", "", false
	}
	return d, after, true
}

// stepPath splits ".program[n]..." (^\.program\[(\d+)\]) into n's digits
// and what follows.
func stepPath(rest string) (digits, after string, ok bool) {
	const head = ".program["
	if !strings.HasPrefix(rest, head) {
		return "", "", false
	}
	return bracketDigits(rest[len(head):])
}

// bracketDigits splits "123]after" into "123" and "after".
func bracketDigits(s string) (digits, after string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i == len(s) || s[i] != ']' {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// ownField reports whether rest is ".name", the name of lower-case letters
// and underscores (^\.[a-z_]+$).
func ownField(rest string) bool {
	if len(rest) < 2 || rest[0] != '.' {
		return false
	}
	for i := 1; i < len(rest); i++ {
		if c := rest[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// Where names the place at path in sc as the editor shows it: a group's
// card by its name and a step by its number ("group \"server\", step 2", a
// repeat's body as "step 1 › step 2"), a group's own field by its label
// ("group \"client\", cpus"). Other paths (machine and policy fields carry
// their path's words) are returned as they are.
func Where(sc *scenarios.Scenario, path string) string {
	if path == "tasks" {
		return "task groups"
	}
	digits, rest, ok := taskPath(path)
	if !ok {
		return path
	}
	i, _ := strconv.Atoi(digits)
	out := "group " + strconv.Itoa(i+1)
	if sc != nil && i < len(sc.Tasks) {
		out = "group " + strconv.Quote(sc.Tasks[i].Name)
	}
	var steps []string
	for {
		d, after, ok := stepPath(rest)
		if !ok {
			break
		}
		n, _ := strconv.Atoi(d)
		steps = append(steps, strconv.Itoa(n+1))
		rest = after
	}
	switch {
	case len(steps) > 0:
		out += ", step " + strings.Join(steps, " › step ")
	case ownField(rest):
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
