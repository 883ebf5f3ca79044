package validation

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// Every cause names points the tables have, each point at most once.
func TestCausesNameTablePoints(t *testing.T) {
	if err := checkCauses(Causes(), Tables()); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCausesRejects(t *testing.T) {
	tables := []*Table{{ID: "t", Points: []Point{{Label: "1 clients"}, {Label: "2 clients"}}}}
	ok := Cause{ID: "a", Title: "a", Text: "a", Points: map[string][]string{"t": {"1 clients"}}}
	for _, c := range []struct {
		name  string
		cs    []Cause
		wants string
	}{
		{"no such point", []Cause{{ID: "a", Title: "a", Text: "a", Points: map[string][]string{"t": {"3 clients"}}}}, `no table "t" has a point "3 clients"`},
		{"no such table", []Cause{{ID: "a", Title: "a", Text: "a", Points: map[string][]string{"u": {"1 clients"}}}}, `no table "u"`},
		{"a point twice", []Cause{ok, {ID: "b", Title: "b", Text: "b", Points: map[string][]string{"t": {"1 clients"}}}}, `already "a"'s`},
		{"an ID twice", []Cause{ok, {ID: "a", Title: "b", Text: "b", Points: map[string][]string{"t": {"2 clients"}}}}, "two causes"},
		{"no words", []Cause{{ID: "a", Points: map[string][]string{"t": {"2 clients"}}}}, "needs an ID, a title"},
	} {
		err := checkCauses(c.cs, tables)
		if err == nil || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: checkCauses = %v, want an error with %q", c.name, err, c.wants)
		}
	}
	if err := checkCauses([]Cause{ok}, tables); err != nil {
		t.Errorf("a good cause: %v", err)
	}
}

// The report's table of misses: a caused miss under its cause, a miss no
// cause names under "not explained", a cause whose points hold left out.
func TestWriteMisses(t *testing.T) {
	tb := &Table{ID: "buddies", Points: []Point{{Label: "8 clients"}, {Label: "16 clients"}, {Label: "3 clients"}}}
	tr := TableResult{Table: tb, Points: []PointResult{
		{Point: &tb.Points[0], Verdict: Verdict{Holds: false}},
		{Point: &tb.Points[1], Verdict: Verdict{Holds: true}},
		{Point: &tb.Points[2], Verdict: Verdict{Holds: false}},
	}}
	ms := Misses([]TableResult{tr}, Causes())
	if len(ms) != 2 || ms[0].Cause == nil || ms[0].Cause.ID != "cstate-walk" || ms[1].Cause != nil {
		t.Fatalf("Misses = %+v, want 8 clients under cstate-walk and 3 clients without a cause", ms)
	}
	if un := Unexplained(ms); len(un) != 1 || un[0] != "buddies / 3 clients" {
		t.Errorf("Unexplained = %q", un)
	}
	var b strings.Builder
	writeMisses(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, ms)
	out := b.String()
	for _, want := range []string{
		"| **where a walked socket's C-states turn shallow** | [buddies 8 clients](#buddies) |",
		"| **not explained** | [buddies 3 clients](#buddies) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the misses' table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "every move within an LLC") {
		t.Errorf("a cause none of whose points miss is shown:\n%s", out)
	}
}

// The committed report's misses (every table point it does not claim) each
// have a cause: a regenerated report with a new miss and no reason for it
// fails here as well as in make validate.
func TestCommittedMissesHaveCauses(t *testing.T) {
	c := committedClaims(t)
	claimed := map[string]bool{}
	for _, p := range c.Points {
		claimed[p.Table+"\x00"+p.Point] = true
	}
	idx := causeIndex(Causes())
	n := 0
	for _, tb := range Tables() {
		for _, p := range tb.Points {
			k := tb.ID + "\x00" + p.Label
			if claimed[k] {
				continue
			}
			n++
			if idx[k] == nil {
				t.Errorf("%s / %s misses in docs/validation.md and no cause in validation/causes.go names it", tb.ID, p.Label)
			}
		}
	}
	if n == 0 {
		t.Fatal("the claims file claims every point: read it wrong?")
	}
	t.Logf("%d missed points, each with a cause", n)
}

// checkCauses reports a cause that names a table or point the tables do
// not have, a point named twice, or a cause without its words.
func checkCauses(cs []Cause, tables []*Table) error {
	have := map[string]bool{}
	for _, tb := range tables {
		for _, p := range tb.Points {
			have[tb.ID+"\x00"+p.Label] = true
		}
	}
	ids := map[string]bool{}
	named := map[string]string{}
	for _, c := range cs {
		if c.ID == "" || c.Title == "" || c.Text == "" || len(c.Points) == 0 {
			return fmt.Errorf("cause %q: needs an ID, a title, a text and points", c.ID)
		}
		if ids[c.ID] {
			return fmt.Errorf("cause %q: two causes with that ID", c.ID)
		}
		ids[c.ID] = true
		tbs := make([]string, 0, len(c.Points))
		for tb := range c.Points {
			tbs = append(tbs, tb)
		}
		sort.Strings(tbs)
		for _, tb := range tbs {
			for _, l := range c.Points[tb] {
				k := tb + "\x00" + l
				if !have[k] {
					return fmt.Errorf("cause %q: no table %q has a point %q", c.ID, tb, l)
				}
				if other, ok := named[k]; ok {
					return fmt.Errorf("cause %q: %s / %s is already %q's", c.ID, tb, l, other)
				}
				named[k] = c.ID
			}
		}
	}
	return nil
}
