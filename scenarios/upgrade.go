package scenarios

import "maps"

// Format versions. Version 2 (issue 14) changes one meaning: SD_BALANCE_WAKE
// alone is the stock kernels' flag (an affine wake-up never consults it), and
// Preeti U Murthy's merge patch is its own switch,
// policy.features.BALANCE_WAKE_MERGE. Version 1 made any SD_BALANCE_WAKE at
// or below the LLC on v3.8 mean the merge patch; a version-1 scenario keeps
// that meaning: it is read as its version-2 form (Upgrade), which gives the
// same run.

// mergeFeature is the feature that carries version 1's implicit merge patch.
const mergeFeature = "BALANCE_WAKE_MERGE"

// llcLevels are the domain levels at or below the LLC (the SHARE_LLC
// levels: SMT, CLS, MC).
var llcLevels = []string{"SMT", "CLS", "MC"}

// v1BalanceWakeMerge reports whether a version-1 scenario asks for Preeti's
// merge patch without naming it: base v3.8 and SD_BALANCE_WAKE on at a
// level at or below the LLC, and BALANCE_WAKE_MERGE not set either way.
func (s *Scenario) v1BalanceWakeMerge() bool {
	if s.Version != 1 || s.Policy.Base != "v3.8" {
		return false
	}
	if _, named := s.Policy.Features[mergeFeature]; named {
		return false
	}
	for _, lvl := range llcLevels {
		if s.Policy.SDFlags[lvl]["SD_BALANCE_WAKE"] {
			return true
		}
	}
	return false
}

// Upgrade returns the scenario in the newest format (a copy): a version-1
// scenario becomes version 2 with BALANCE_WAKE_MERGE on where version 1
// implied it. A newer scenario is returned as it is (copied).
func (s *Scenario) Upgrade() *Scenario {
	c := s.Clone()
	if c.Version != 1 {
		return c
	}
	if s.v1BalanceWakeMerge() {
		c.Policy.Features = maps.Clone(c.Policy.Features)
		if c.Policy.Features == nil {
			c.Policy.Features = map[string]bool{}
		}
		c.Policy.Features[mergeFeature] = true
	}
	c.Version = MaxVersion
	return c
}
