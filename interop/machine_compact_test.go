package interop

import (
	"strings"
	"testing"
)

// TestLscpuHugeIDsCompacted: ids past what the format holds (a firmware's
// 0x3fffffff) only say which CPUs share something, so they are renumbered
// by rank; the sharing and the order stay, and the import says so.
func TestLscpuHugeIDsCompacted(t *testing.T) {
	in := "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n" +
		"0,1073741823,7,0,,0,0,0,0\n" +
		"1,1073741823,7,0,,0,0,0,0\n" +
		"2,100000,9,0,,1,1,1,0\n" +
		"3,100000,9,0,,1,1,1,0\n"
	m, probs, err := ImportLscpu([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.CPUs) != 4 {
		t.Fatalf("%d CPUs", len(m.CPUs))
	}
	// Rank order: 100000 -> 0, 1073741823 -> 1; sockets 7 and 9 are within range and kept.
	want := []int{1, 1, 0, 0}
	for i, c := range m.CPUs {
		if *c.Core != want[i] {
			t.Errorf("cpu%d: core %d, want %d", i, *c.Core, want[i])
		}
	}
	if m.CPUs[0].Socket != 7 || m.CPUs[2].Socket != 9 {
		t.Errorf("sockets renumbered though within range: %d, %d", m.CPUs[0].Socket, m.CPUs[2].Socket)
	}
	said := false
	for _, p := range probs {
		said = said || strings.Contains(p.Message, "core ids above 65535 renumbered 0…1")
	}
	if !said {
		t.Errorf("the renumbering is not reported: %v", probs)
	}
}
