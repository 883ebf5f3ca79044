package interop

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestSchedsimGroupAsRegexp: a schedsim thread's group is read from its
// comm as the regular expression ^(.*)/[0-9]+$ read it (the page's module
// links no regular expressions), on edge cases and random comms.
func TestSchedsimGroupAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`^(.*)/[0-9]+$`)
	cases := []string{"", "/", "/3", "a/", "a/3", "a/b/3", "a/3/", "a/3b", "a\n/3", "a/\n3", "a/3\n", "worker/12", "kworker/0:1", "a//3"}
	r := rand.New(rand.NewPCG(3, 4))
	tokens := []string{"a", "b", "/", "0", "9", ":", "\n", " ", "-"}
	for range 100000 {
		var b strings.Builder
		for n := r.IntN(10); n > 0; n-- {
			b.WriteString(tokens[r.IntN(len(tokens))])
		}
		cases = append(cases, b.String())
	}
	found := 0
	for _, c := range cases {
		g, ok := schedsimGroup(c)
		m := re.FindStringSubmatch(c)
		want := m != nil && m[1] != ""
		if ok != want || ok && g != m[1] {
			t.Errorf("schedsimGroup(%q) = %q, %v; the regular expression gives %q", c, g, ok, m)
		}
		if ok {
			found++
		}
	}
	if found < 100 {
		t.Errorf("only %d of %d comms name a group: the generator does not reach them", found, len(cases))
	}
}
