package scenarios

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestIsCacheSizeAsRegexp: the hand-written test of a cache size label
// accepts exactly the strings the regular expression it replaced matches
// (the page's module links no regular expressions): edge cases, then
// random strings over the bytes that matter.
func TestIsCacheSizeAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[0-9]{1,6}(\.[0-9]{1,3})?\s?[KMG]i?B$`)
	cases := []string{"", "B", "KB", "1KB", "1 KB", "1\tMiB", "1\vMB", "1  MB", "123456GB", "1234567GB",
		"1.5MB", "1.MB", ".5MB", "1.123MiB", "1.1234MiB", "30MB", "30MiB", "30MBB", "30Mi", "30MiBx", "x30MB",
		"30MB\n", "30 MB ", "1.5 KiB", "1.5\nKiB", "1..5KB", "1.5.5KB", "30mb", "30kB"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	digits := func() string { return strings.Repeat(pick("0", "5", "9"), r.IntN(9)) }
	for range 100000 {
		// The label's parts, each at and around its bounds (0-8 digits,
		// 0-8 after the point), each now and then missing or wrong.
		c := digits() + pick("", ".", ".", "..", "x") + digits() + pick("", " ", "\t", "\n", "\v", "  ") +
			pick("K", "M", "G", "k", "x", "") + pick("", "i", "I") + pick("B", "B", "b", "", "BB") + pick("", "", "", " ", "\n")
		cases = append(cases, c)
	}
	matched := 0
	for _, c := range cases {
		want := re.MatchString(c)
		if got := isCacheSize(c); got != want {
			t.Errorf("isCacheSize(%q) = %v, the regular expression says %v", c, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 100 {
		t.Errorf("only %d of %d cases are cache sizes: the generator does not reach the accepting shapes", matched, len(cases))
	}
}
