package pagemodel

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestPathShapesAsRegexp: the three path readers of Where split a path as
// the regular expressions they replaced did (the page's module links none),
// on edge cases and on random paths made of the pieces real paths have.
func TestPathShapesAsRegexp(t *testing.T) {
	taskRe := regexp.MustCompile(`^tasks\[(\d+)\](.*)$`)
	stepRe := regexp.MustCompile(`^\.program\[(\d+)\]`)
	ownRe := regexp.MustCompile(`^\.[a-z_]+$`)
	cases := []string{"", "tasks", "tasks[", "tasks[]", "tasks[0]", "tasks[12].count", "tasks[1x]", "tasks[0]\n.a",
		"tasks[0].program[3].wake", ".program[", ".program[]", ".program[4]", ".program[4]x", ".", ".a", ".a_b", ".aB", "._"}
	r := rand.New(rand.NewPCG(5, 6))
	tokens := []string{"tasks[", ".program[", "]", "[", "0", "12", "9", ".", "a", "count_of", "_", "B", "\n", "x"}
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(7); n > 0; n-- {
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
		cases = append(cases, b.String())
	}
	var hits [3]int
	for _, c := range cases {
		d, rest, ok := taskPath(c)
		if m := taskRe.FindStringSubmatch(c); (m != nil) != ok || ok && (d != m[1] || rest != m[2]) {
			t.Errorf("taskPath(%q) = %q, %q, %v; the regular expression gives %q", c, d, rest, ok, m)
		} else if ok {
			hits[0]++
		}
		d, after, ok := stepPath(c)
		if m := stepRe.FindStringSubmatch(c); (m != nil) != ok || ok && (d != m[1] || after != c[len(m[0]):]) {
			t.Errorf("stepPath(%q) = %q, %q, %v; the regular expression gives %q", c, d, after, ok, m)
		} else if ok {
			hits[1]++
		}
		if got, want := ownField(c), ownRe.MatchString(c); got != want {
			t.Errorf("ownField(%q) = %v, the regular expression says %v", c, got, want)
		} else if got {
			hits[2]++
		}
	}
	for i, n := range hits {
		if n < 50 {
			t.Errorf("reader %d accepted only %d of %d paths: the generator does not reach it", i, n, len(cases))
		}
	}
}
