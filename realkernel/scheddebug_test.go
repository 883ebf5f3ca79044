package realkernel

import (
	"os"
	"strings"
	"testing"
	"time"
)

// The header of this project's guest's sched debug file (6.18.44, 2 CPUs):
// the base slice is v6.17's 0.7 ms times 1 + ilog2(2).
func TestParseSchedDebug(t *testing.T) {
	b, err := os.ReadFile("testdata/sched-debug-v1294.txt")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseSchedDebug(b)
	if err != nil {
		t.Fatal(err)
	}
	if d.BaseSliceNS != 1_400_000 || d.TunableScaling != "logarithmic" || d.Features != 99674079 {
		t.Errorf("got %+v, want base slice 1400000 ns, logarithmic, features 99674079", *d)
	}
}

// A file without the lines, or with a value that is not PN()'s format,
// is an error naming the line.
func TestParseSchedDebugRefuses(t *testing.T) {
	good := "  .sysctl_sched_base_slice                 : 1.400000\n  .sysctl_sched_features                   : 99674079\n  .sysctl_sched_tunable_scaling            : 1 (logarithmic)\n"
	for _, c := range []struct{ text, want string }{
		{"", "no sysctl_sched_base_slice line"},
		{strings.Replace(good, "1.400000", "1.4", 1), `sysctl_sched_base_slice: "1.4"`},
		{strings.Replace(good, "1.400000", "-1.400000", 1), `sysctl_sched_base_slice: "-1.400000"`},
		{strings.Replace(good, "99674079", "x", 1), `sysctl_sched_features: "x"`},
		{strings.Replace(good, " (logarithmic)", "", 1), `sysctl_sched_tunable_scaling: "1"`},
		{strings.Replace(good, "  .sysctl_sched_features                   : 99674079\n", "", 1), "no sysctl_sched_features line"},
	} {
		_, err := ParseSchedDebug([]byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.text, err, c.want)
		}
	}
}

// The comparison keeps the model's base slice where the kernel's is the
// same and takes the kernel's where it is not: an older kernel's 0.75 ms,
// a tuned one.
func TestBaseSliceFromKernel(t *testing.T) {
	for _, c := range []struct {
		kernel time.Duration
		ncpu   int
		set    string
	}{
		{1400 * time.Microsecond, 2, ""},
		{700 * time.Microsecond, 1, ""},
		{2800 * time.Microsecond, 64, ""}, // the factor stops at 8 CPUs
		{750 * time.Microsecond, 1, "750µs"},
		{3 * time.Millisecond, 8, "3ms"},
		{50 * time.Microsecond, 2, ""}, // below what a scenario may set: the model's is kept, and said
	} {
		set, note := baseSliceFromKernel(&SchedDebug{BaseSliceNS: int64(c.kernel), TunableScaling: "logarithmic"}, c.ncpu)
		if set != c.set || !strings.Contains(note, c.kernel.String()) {
			t.Errorf("kernel %v on %d CPUs: set %q (%s), want %q and a note naming the kernel's", c.kernel, c.ncpu, set, note, c.set)
		}
	}
}
