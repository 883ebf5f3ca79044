package realkernel

import (
	"testing"

	"schedplay/scenarios"
)

// TestNoCacheinfoLLCs: an x86 machine whose CPUs enumerate no caches shares
// no LLC between cores (match_llc(): llc_id is BAD_APICID), so the host
// machine gets one LLC per core, SMT siblings together; with cacheinfo, on
// another architecture, or on an AMD family whose llc_id does not come from
// the cache leaves, the importer's machine is kept.
func TestNoCacheinfoLLCs(t *testing.T) {
	ip := func(v int) *int { return &v }
	// Four CPUs: two cores of two threads, as lscpu -p gives them without
	// cache columns (no LLC: one per socket assumed).
	perCPU := scenarios.Machine{CPUs: []scenarios.CPU{
		{CPU: ip(0), Core: ip(0)}, {CPU: ip(1), Core: ip(1)}, {CPU: ip(2), Core: ip(0)}, {CPU: ip(3), Core: ip(1)},
	}}
	counts := scenarios.Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 2, CoresPerCluster: 4, ThreadsPerCore: 2}
	zen4 := x86CPU{"AuthenticAMD", 0x19, 0x11}
	intel := x86CPU{"GenuineIntel", 6, 0x8f}
	for _, c := range []struct {
		name      string
		m         scenarios.Machine
		arch      string
		cpu       x86CPU
		cacheinfo bool
		wantLLCs  []int // per CPU, or nil: unchanged
		wantCount int   // LLCs per socket for counts
	}{
		{"zen4 guest without cache leaves", perCPU, "amd64", zen4, false, []int{0, 1, 0, 1}, 0},
		{"intel guest without cpuid(4)", perCPU, "amd64", intel, false, []int{0, 1, 0, 1}, 0},
		{"counts", counts, "amd64", intel, false, nil, 8},
		{"cacheinfo present", perCPU, "amd64", intel, true, nil, 0},
		{"arm64", perCPU, "arm64", x86CPU{}, false, nil, 0},
		{"family 0x15 (llc_id is the node)", perCPU, "amd64", x86CPU{"AuthenticAMD", 0x15, 2}, false, nil, 0},
		{"zen 1 (llc_id is apicid >> 3)", perCPU, "amd64", x86CPU{"AuthenticAMD", 0x17, 1}, false, nil, 0},
	} {
		got, note := noCacheinfoLLCs(c.m, c.arch, c.cpu, c.cacheinfo)
		switch {
		case c.wantLLCs != nil:
			for i, cpu := range got.CPUs {
				if cpu.LLC == nil || *cpu.LLC != c.wantLLCs[i] {
					t.Errorf("%s: cpu%d's LLC %v, want %d", c.name, i, cpu.LLC, c.wantLLCs[i])
				}
			}
			if perCPU.CPUs[0].LLC != nil {
				t.Fatalf("%s: the input machine was changed", c.name)
			}
		case c.wantCount > 0:
			if got.LLCsPerSocket != c.wantCount || got.ClustersPerLLC != 1 || got.CoresPerCluster != 1 || got.ThreadsPerCore != 2 {
				t.Errorf("%s: %+v, want %d LLCs of one core of 2 threads per socket", c.name, got, c.wantCount)
			}
		default:
			if note != "" || len(got.CPUs) != len(c.m.CPUs) || (len(got.CPUs) > 0 && got.CPUs[0].LLC != nil) {
				t.Errorf("%s: machine changed (note %q)", c.name, note)
			}
			continue
		}
		if note == "" {
			t.Errorf("%s: no note", c.name)
		}
	}
}
