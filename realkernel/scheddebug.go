package realkernel

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"schedplay/sim"
)

// SchedDebug is what the kernel's scheduler debug file
// (/sys/kernel/debug/sched/debug, sched_debug_header() in
// kernel/sched/debug.c) says of the tunables the simulator otherwise takes
// from its era: the file is readable where the tunables' own debugfs files
// may not be (this project's guests refuse base_slice_ns and features to
// root, EPERM, and print them here).
type SchedDebug struct {
	// BaseSliceNS is sysctl_sched_base_slice as the kernel uses it, already
	// multiplied by the CPU-count factor of TunableScaling.
	BaseSliceNS int64 `json:"base_slice_ns"`
	// TunableScaling is sysctl_sched_tunable_scaling: "none",
	// "logarithmic" (the default) or "linear".
	TunableScaling string `json:"tunable_scaling"`
	// Features is sysctl_sched_features: bit i is the i-th SCHED_FEAT of
	// the running kernel's features.h, an order that differs between
	// releases (and stable backports append to it), so it is recorded, not
	// decoded.
	Features uint64 `json:"features"`
}

// ParseSchedDebug reads the header of the scheduler debug file: the
// "sysctl_sched" block's base slice (printed by PN() as milliseconds and
// six digits of nanoseconds), features and tunable scaling.
func ParseSchedDebug(text []byte) (*SchedDebug, error) {
	var d SchedDebug
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		key, val, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok {
			continue
		}
		key, val = strings.TrimPrefix(strings.TrimSpace(key), "."), strings.TrimSpace(val)
		var err error
		switch key {
		case "sysctl_sched_base_slice":
			d.BaseSliceNS, err = parseSplitNS(val)
		case "sysctl_sched_features":
			d.Features, err = strconv.ParseUint(val, 10, 64)
		case "sysctl_sched_tunable_scaling":
			// "1 (logarithmic)"
			_, name, found := strings.Cut(val, "(")
			d.TunableScaling = strings.TrimSuffix(name, ")")
			if !found || d.TunableScaling == "" {
				err = fmt.Errorf("no scaling name")
			}
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sched debug: %s: %q: %v", key, val, err)
		}
		seen[key] = true
		if len(seen) == 3 {
			return &d, nil
		}
	}
	for _, k := range []string{"sysctl_sched_base_slice", "sysctl_sched_features", "sysctl_sched_tunable_scaling"} {
		if !seen[k] {
			return nil, fmt.Errorf("sched debug: no %s line (a kernel before EEVDF, 6.6, has no base slice)", k)
		}
	}
	return &d, nil
}

// parseSplitNS reads PN()'s "%Ld.%06ld" of SPLIT_NS(): milliseconds, then
// the nanoseconds below a millisecond.
func parseSplitNS(v string) (int64, error) {
	ms, frac, ok := strings.Cut(v, ".")
	if !ok || len(frac) != 6 {
		return 0, fmt.Errorf("want milliseconds and six digits of nanoseconds")
	}
	a, err1 := strconv.ParseInt(ms, 10, 64)
	b, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || a < 0 {
		return 0, fmt.Errorf("not a duration")
	}
	return a*1_000_000 + b, nil
}

// baseSliceFromKernel compares the kernel's base slice with the one the
// simulator gives a machine of ncpu CPUs (sim.DefaultBaseSlice: v6.17's
// 0.7 ms times the logarithmic factor; a kernel from before 2ae891b82695,
// v6.6 to v6.14, has 0.75 ms, and sysctl or debugfs can set any). It returns the policy.base_slice
// the comparison should set ("" when the two agree) and a note saying
// which it is.
func baseSliceFromKernel(d *SchedDebug, ncpu int) (set string, note string) {
	model := sim.DefaultBaseSlice(ncpu)
	k := time.Duration(d.BaseSliceNS)
	if d.BaseSliceNS == model {
		return "", fmt.Sprintf("policy: base slice %v, the kernel's (sched debug file, %s scaling) and the model's for %d CPUs", k, d.TunableScaling, ncpu)
	}
	if d.BaseSliceNS < 100_000 || d.BaseSliceNS > int64(time.Second) {
		return "", fmt.Sprintf("policy: the kernel's base slice is %v (sched debug file, %s scaling), outside what a scenario can set; the model's for %d CPUs, %v, kept", k, d.TunableScaling, ncpu, time.Duration(model))
	}
	return k.String(), fmt.Sprintf("policy: base slice %v, the kernel's (sched debug file, %s scaling), where the model's for %d CPUs is %v (0.7 ms, logarithmic)", k, d.TunableScaling, ncpu, time.Duration(model))
}
