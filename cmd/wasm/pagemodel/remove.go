package pagemodel

import (
	"errors"
	"strconv"
	"strings"

	"schedplay/scenarios"
)

// Removing a task group. Other groups name it: a wake or fork step (also
// inside a repeat's body), or count_of. Client and server wake each other,
// so neither can go alone: the editor asks first, listing what goes with
// the group (Removal), and RemoveGroup then takes it all out in one edit
// (one undo step brings everything back).

// Removal is what removing one group takes with it.
type Removal struct {
	// Groups are the indices of the groups that go: the group, then those
	// only it starts (count 0, and every fork that starts them is in a
	// group that goes), in index order.
	Groups []int `json:"groups"`
	// Refs are the places in the groups that stay that name a group that
	// goes: a step (removed) or a count_of (the group keeps that count as
	// its own).
	Refs []Ref `json:"refs"`
}

// Ref is one place that names a group: Path in the scenario's vocabulary
// ("tasks[1].program[2].wake"), Field the key there ("wake", "fork",
// "count_of") and Name the group it names.
type Ref struct {
	Path  string `json:"path"`
	Field string `json:"field"`
	Name  string `json:"name"`
	// Text is the place and what happens to it in the editor's words
	// (refText).
	Text string `json:"text"`
}

// Removals lists, for each group of sc, what removing it takes with it.
func Removals(sc *scenarios.Scenario) []Removal {
	out := make([]Removal, len(sc.Tasks))
	for i := range sc.Tasks {
		out[i] = removalOf(sc, i)
	}
	return out
}

func removalOf(sc *scenarios.Scenario, i int) Removal {
	gone := goneWith(sc, i)
	r := Removal{Refs: []Ref{}}
	for g := range sc.Tasks {
		if gone[sc.Tasks[g].Name] {
			r.Groups = append(r.Groups, g)
		}
	}
	for g, t := range sc.Tasks {
		if gone[t.Name] {
			continue
		}
		base := "tasks[" + strconv.Itoa(g) + "]"
		if gone[t.CountOf] {
			r.Refs = append(r.Refs, Ref{Path: base + ".count_of", Field: "count_of", Name: t.CountOf})
		}
		walkSteps(t.Program, base+".program", func(path string, st *scenarios.Step) {
			if f, name := stepTarget(st); gone[name] {
				r.Refs = append(r.Refs, Ref{Path: path + "." + f, Field: f, Name: name})
			}
		})
	}
	for k := range r.Refs {
		r.Refs[k].Text = refText(sc, r.Refs[k])
	}
	return r
}

// goneWith is the set of group names that go when group i goes: i, and
// the groups that nothing else would start (count 0, forked only from
// groups that go), to a fixed point.
func goneWith(sc *scenarios.Scenario, i int) map[string]bool {
	gone := map[string]bool{sc.Tasks[i].Name: true}
	for changed := true; changed; {
		changed = false
		for _, t := range sc.Tasks {
			if gone[t.Name] || t.Count != 0 || t.CountOf != "" {
				continue
			}
			started, byGone := false, true
			for _, u := range sc.Tasks {
				walkSteps(u.Program, "", func(_ string, st *scenarios.Step) {
					if st.Fork == t.Name {
						started = true
						byGone = byGone && gone[u.Name]
					}
				})
			}
			if started && byGone {
				gone[t.Name] = true
				changed = true
			}
		}
	}
	return gone
}

// stepTarget is the group a step names and the key that names it.
func stepTarget(st *scenarios.Step) (field, name string) {
	switch {
	case st.Wake != "":
		return "wake", st.Wake
	case st.Fork != "":
		return "fork", st.Fork
	}
	return "", ""
}

// walkSteps calls f for every step of prog, repeat bodies included, with
// its path under base.
func walkSteps(prog []scenarios.Step, base string, f func(path string, st *scenarios.Step)) {
	for j := range prog {
		p := base + "[" + strconv.Itoa(j) + "]"
		f(p, &prog[j])
		walkSteps(prog[j].Program, p+".program", f)
	}
}

// RemoveGroup removes group i of s with everything Removals lists for it:
// the groups only it starts, the steps of the other groups that wake or
// fork one of them (a repeat left with an empty body goes too), and a
// count_of naming one (the group keeps that count as its own). s is
// unchanged on error; the problems' paths are those of s as it is (the
// places the page shows), or "" for a place that would have gone.
func RemoveGroup(s *scenarios.Scenario, i int) error {
	if i < 0 || i >= len(s.Tasks) {
		return &scenarios.Error{Path: "tasks", Problem: "no task group at index " + strconv.Itoa(i) + " (there are " + strconv.Itoa(len(s.Tasks)) + ")"}
	}
	c, where := without(s, i)
	d, err := scenarios.Decode(c.Canonical())
	if err != nil {
		var errs []error
		for _, p := range scenarios.Problems(err) {
			errs = append(errs, &scenarios.Error{Path: mapPath(p.Path, where), Problem: p.Problem})
		}
		return errors.Join(errs...)
	}
	*s = *d
	return nil
}

// without is s without group i and what goes with it (not validated), and
// a map from the result's group and step paths to the same places in s.
func without(s *scenarios.Scenario, i int) (*scenarios.Scenario, map[string]string) {
	gone := goneWith(s, i)
	c := s.Clone()
	c.Tasks = nil
	where := map[string]string{}
	for g, t := range s.Tasks {
		if gone[t.Name] {
			continue
		}
		t.Program = keepSteps(t.Program, gone)
		if gone[t.CountOf] {
			for _, u := range s.Tasks {
				if u.Name == t.CountOf {
					t.CountOf, t.Count = "", u.Count
				}
			}
		}
		from, to := "tasks["+strconv.Itoa(g)+"]", "tasks["+strconv.Itoa(len(c.Tasks))+"]"
		where[to] = from
		mapSteps(s.Tasks[g].Program, t.Program, from+".program", to+".program", gone, where)
		c.Tasks = append(c.Tasks, t)
	}
	return c, where
}

// keepSteps is prog without the steps that name a group that goes (a
// repeat whose body is left empty goes too); prog itself is not changed.
func keepSteps(prog []scenarios.Step, gone map[string]bool) []scenarios.Step {
	var out []scenarios.Step
	for _, st := range prog {
		if _, name := stepTarget(&st); gone[name] {
			continue
		}
		if len(st.Program) > 0 {
			st.Program = keepSteps(st.Program, gone)
			if len(st.Program) == 0 {
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// mapSteps records, for each step kept from old in kept, its new path
// (under to) and its old one (under from).
func mapSteps(old, kept []scenarios.Step, from, to string, gone map[string]bool, where map[string]string) {
	k := 0
	for j := range old {
		st := old[j]
		if _, name := stepTarget(&st); gone[name] {
			continue
		}
		if len(st.Program) > 0 && len(keepSteps(st.Program, gone)) == 0 {
			continue
		}
		pf, pt := from+"["+strconv.Itoa(j)+"]", to+"["+strconv.Itoa(k)+"]"
		where[pt] = pf
		if k < len(kept) {
			mapSteps(st.Program, kept[k].Program, pf+".program", pt+".program", gone, where)
		}
		k++
	}
}

// mapPath turns a path of the result into the path of the same place
// before the removal: its longest mapped prefix, then the rest as it is.
func mapPath(p string, where map[string]string) string {
	for end := len(p); end > 0; end = strings.LastIndexAny(p[:end], ".[") {
		if q, ok := where[p[:end]]; ok {
			return q + p[end:]
		}
	}
	if strings.HasPrefix(p, "tasks[") {
		return "tasks"
	}
	return p
}
