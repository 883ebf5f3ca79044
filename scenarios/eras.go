package scenarios

import "slices"

// Which switches exist in which era, in one place: the schema's policy rows
// carry Field.Bases, and the names a flag or feature key takes carry
// KeyInfo.Bases from keyBases below; checkBase refuses a switch its base
// lacks at its path, and the editor offers only the rows that apply.
//
// v2.6.8 has no PELT (load is nr_running), no select_idle_sibling, no EEVDF
// or CFS tunables, and its own sched-domain flags; cpu_scheduler,
// staircase_mode, exec_balance_threshold, SD_WAKE_IDLE and SD_WAKE_BALANCE
// exist only there.
var (
	flags268     = []string{"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_WAKE_IDLE", "SD_WAKE_AFFINE", "SD_WAKE_BALANCE", "SD_SHARE_CPUPOWER", "SD_SHARE_CPUCAPACITY"}
	flagsOnly268 = []string{"SD_WAKE_IDLE", "SD_WAKE_BALANCE"}
	features268  = []string{"NEWIDLE_BALANCE", "WAKEUP_PREEMPTION"}
	only268      = "exists only on base \"v2.6.8\""
)

// BasePath is the field whose value the Bases lists name.
const BasePath = "policy.base"

// keyBases lists the bases on which a flag ("<flag>") or feature
// ("<feature>") name can be set (nil: all of them).
func keyBases(placeholder, name string) []string {
	var later []string
	for _, b := range bases {
		if b.name != "v2.6.8" {
			later = append(later, b.name)
		}
	}
	switch placeholder {
	case "<flag>":
		switch {
		case slices.Contains(flagsOnly268, name):
			return []string{"v2.6.8"}
		case slices.Contains(flags268, name):
			return nil
		}
		return later
	case "<feature>":
		if slices.Contains(features268, name) {
			return nil
		}
		return later
	}
	return nil
}
