//go:build linux

package realkernel

import "testing"

// TestParseStealNS reads the eighth time of the named CPUs' /proc/stat
// lines (steal, in USER_HZ ticks) and says when a CPU is missing.
func TestParseStealNS(t *testing.T) {
	stat := []byte(`cpu  870 0 1058 16072 58 0 18 398 0 0
cpu0 274 0 476 8282 6 0 4 200 0 0
cpu1 596 0 582 7790 51 0 13 197 0 0
intr 12345
`)
	for _, c := range []struct {
		cpus []int
		want int64
		ok   bool
	}{
		{[]int{0, 1}, 3970e6, true},
		{[]int{1}, 1970e6, true},
		{[]int{0, 2}, 2000e6, false},
	} {
		got, ok := parseStealNS(stat, c.cpus)
		if got != c.want || ok != c.ok {
			t.Errorf("cpus %v: %d ns ok=%v, want %d ok=%v", c.cpus, got, ok, c.want, c.ok)
		}
	}
	if _, ok := parseStealNS([]byte("cpu0 1 2 3\n"), []int{0}); ok {
		t.Error("a line without a steal field was read")
	}
}
