package realkernel

import (
	"fmt"

	"schedplay/scenarios"
)

// x86CPU is what /proc/cpuinfo says about an x86 CPU: what decides where
// the kernel takes its last-level cache from.
type x86CPU struct {
	Vendor        string // vendor_id: GenuineIntel, AuthenticAMD, HygonGenuine
	Family, Model int
}

// noCacheinfoLLCs applies the x86 kernel's rule for CPUs that enumerate no
// caches (no /sys/devices/system/cpu/cpuN/cache: the hypervisor hides
// CPUID leaf 4, or 0x8000001d on AMD) to a machine imported without cache
// columns, where the importer assumed one LLC per socket.
//
// The LLC the scheduler's MC level spans is cpu_llc_shared_mask(), built by
// set_cpu_sibling_map() from match_llc() (arch/x86/kernel/smpboot.c, v6.17):
// "Do not match if we do not have a valid APICID for cpu": a CPU whose
// llc_id is BAD_APICID shares its LLC with no other CPU. llc_id comes from
// the cache leaves (init_intel_cacheinfo(); cacheinfo_amd_init_llc_id() for
// AMD family 0x17 models after Zen 1 and later families, from leaf
// 0x8000001d's sharing count), so without them it stays BAD_APICID, the MC
// level of every CPU is the CPU itself (with its SMT siblings, which
// build_sched_domain() adds back), and the package level, which has no
// SD_SHARE_LLC, is the first that spans several cores: select_idle_sibling()
// finds no sd_llc and returns the target wake_affine() chose, and every
// wake-up to another CPU goes through the wake list (ttwu_queue_cond(): not
// cpus_share_cache()). Older AMD families derive llc_id without the leaves
// (the node, or APIC id >> 3 on Zen 1), so for them the machine is kept.
//
// It returns the machine with one LLC per core and a note, or m unchanged
// and "" when the rule does not apply.
func noCacheinfoLLCs(m scenarios.Machine, goarch string, cpu x86CPU, haveCacheinfo bool) (scenarios.Machine, string) {
	if haveCacheinfo || (goarch != "amd64" && goarch != "386") {
		return m, ""
	}
	amd := cpu.Vendor == "AuthenticAMD" || cpu.Vendor == "HygonGenuine"
	if amd && (cpu.Family < 0x17 || cpu.Family == 0x17 && cpu.Model <= 0x1f) {
		return m, ""
	}
	note := "no CPU enumerates its caches (no /sys/devices/system/cpu/cpu*/cache): the x86 kernel then shares no last-level cache between cores (match_llc(): llc_id is BAD_APICID), so every core is modelled as its own LLC"
	if len(m.CPUs) > 0 {
		out := m
		out.CPUs = make([]scenarios.CPU, len(m.CPUs))
		for i, c := range m.CPUs {
			core := *c.Core
			c.LLC, c.Cluster = &core, nil
			out.CPUs[i] = c
		}
		return out, note
	}
	if m.LLCsPerSocket > 0 && m.ClustersPerLLC > 0 && m.CoresPerCluster > 0 {
		out := m
		out.LLCsPerSocket = m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster
		out.ClustersPerLLC, out.CoresPerCluster = 1, 1
		return out, note
	}
	return m, fmt.Sprintf("no CPU enumerates its caches, but the machine has no counts to split (%+v): kept", m)
}
