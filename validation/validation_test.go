package validation

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"schedplay/sim"
)

// The rule, worked by hand from the examples.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		seed, sim       float64
		big, holds, sgn bool
	}{
		{10, 6.7, true, true, true},    // ×10 holds from ×6.7 ...
		{10, 15, true, true, true},     // ... to ×15
		{10, 6.5, true, false, true},   // below ×10/1.5
		{10, 15.2, true, false, true},  // above ×10·1.5
		{1.24, 1.16, true, true, true}, // +24 % holds from +16 % ...
		{1.24, 1.36, true, true, true}, // ... to +36 %
		{1.24, 1.15, true, false, true},
		{1.24, 1.37, true, false, true},
		{1.24, 0.97, true, false, false}, // wrong sign
		{0.69, 0.75, true, true, true},   // −31 %: −20.7 % … −46.5 %
		{0.69, 0.80, true, false, true},
		{0.69, 1.10, true, false, false},
		{0.5, 0.34, true, true, true}, // ×0.5 as a ratio: ×0.33 … ×0.75
		{1.03, 1.049, false, true, false},
		{1.03, 0.951, false, true, false},
		{1.03, 1.06, false, false, false},
		{0.98, 0.94, false, false, false},
	} {
		v := Judge(c.seed, c.sim)
		if v.Big != c.big || v.Holds != c.holds || v.SignRight != c.sgn {
			t.Errorf("Judge(%g, %g) = %+v, want big %v holds %v sign %v", c.seed, c.sim, v, c.big, c.holds, c.sgn)
		}
		lo, hi := Range(c.seed)
		in := c.sim >= lo-1e-12 && c.sim <= hi+1e-12
		if in != c.holds {
			t.Errorf("Range(%g) = %g … %g disagrees with Judge for %g", c.seed, lo, hi, c.sim)
		}
	}
}

// Every table builds, every point's sets are valid, and seed ratios are
// what the sources print (spot checks against the figures).
func TestTables(t *testing.T) {
	ids := map[string]bool{}
	for _, tb := range Tables() {
		if ids[tb.ID] {
			t.Errorf("duplicate table id %s", tb.ID)
		}
		ids[tb.ID] = true
		for i := range tb.Points {
			p := &tb.Points[i]
			for _, side := range [][]string{tb.Before, tb.After} {
				if _, err := tb.build(p, side, 1); err != nil {
					t.Errorf("%s %s: %v", tb.ID, p.Label, err)
				}
			}
			if r := p.Ratio(tb.TimeMetric); !(r > 0) {
				t.Errorf("%s %s: seed ratio %g", tb.ID, p.Label, r)
			}
		}
	}
	want := map[string]map[string]float64{
		"buddies": {"1 clients": 9.97, "8 clients": 3.75, "64 clients": 0.949},
		"sbm":     {"22 MB, 32 clients": 1.2448, "15 GB, 32 clients": 1.3327},
	}
	for _, tb := range Tables() {
		for i := range tb.Points {
			if w, ok := want[tb.ID][tb.Points[i].Label]; ok {
				if r := tb.Points[i].Ratio(tb.TimeMetric); r < w-0.005 || r > w+0.005 {
					t.Errorf("%s %s: seed ratio %.4f, want %.4f", tb.ID, tb.Points[i].Label, r, w)
				}
			}
		}
	}
}

// TestClaimedShapes re-runs every point docs/validation.md says holds and
// asserts the rule still holds there: the shape (direction and size band),
// not the exact numbers. A model change that breaks a claimed point fails
// here until the report is regenerated (make validate) and says so.
func TestClaimedShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the claimed points of the validation report")
	}
	c := committedClaims(t)
	claimed := map[string]map[string]bool{}
	for _, p := range c.Points {
		if claimed[p.Table] == nil {
			claimed[p.Table] = map[string]bool{}
		}
		claimed[p.Table][p.Point] = true
	}
	var tables []*Table
	for _, tb := range Tables() {
		var keep []Point
		for _, p := range tb.Points {
			if claimed[tb.ID][p.Label] {
				keep = append(keep, p)
				delete(claimed[tb.ID], p.Label)
			}
		}
		if len(keep) > 0 {
			cp := *tb
			cp.Points = keep
			tables = append(tables, &cp)
		}
	}
	for id, ps := range claimed {
		for label := range ps {
			t.Errorf("the report claims %s / %s, which no table has", id, label)
		}
	}
	rs, err := Validate(tables, Options{Seeds: c.Seeds})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tr := range rs {
		for _, p := range tr.Points {
			n++
			if !p.Verdict.Holds {
				t.Errorf("%s / %s: seed %.3f, sim %.3f: the rule no longer holds", tr.Table.ID, p.Point.Label, p.SeedRatio, p.SimRatio)
			}
		}
	}
	t.Logf("%d claimed points re-run", n)
}

// committedClaims reads docs/validation-claims.json, the points the
// committed report says hold.
func committedClaims(t *testing.T) Claims {
	t.Helper()
	data, err := os.ReadFile("../docs/validation-claims.json")
	if err != nil {
		t.Fatalf("%v (run make validate)", err)
	}
	var c Claims
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestForksPerElapsed: a table measured by a task's exit (kernbench: make's
// exit is the elapsed time) compares the tasks forked per second of that
// time, so two runs of the same jobs compare as their elapsed times do; a
// run whose task did not exit is an error naming it, not a zero.
func TestForksPerElapsed(t *testing.T) {
	run := func(exitMS float64) *sim.Metrics {
		return &sim.Metrics{SimMS: 6000, Forks: 1280, Tasks: []sim.TaskMetrics{{Name: "cc/0"}, {Name: "make/0", ExitMS: exitMS}}}
	}
	before, err := forksPerElapsed(run(2000), "make/0")
	if err != nil || before != 640 {
		t.Fatalf("1280 jobs, make exits at 2000 ms: %v forks/s (%v), want 640", before, err)
	}
	after, _ := forksPerElapsed(run(1600), "make/0")
	if r := after / before; math.Abs(r-2000.0/1600) > 1e-12 {
		t.Errorf("after÷before %v, want the elapsed times' before÷after %v", r, 2000.0/1600)
	}
	if _, err := forksPerElapsed(run(0), "make/0"); err == nil || !strings.Contains(err.Error(), "make/0 did not exit") {
		t.Errorf("make never exits: %v", err)
	}
}
