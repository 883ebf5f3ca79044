package app

import (
	"errors"
	"fmt"
	"strings"

	"schedplay/scenarios"
	"schedplay/sim"
)

// fallbackCompare is side B for a scenario that is no preset: wake-ups
// without wake_affine(), which every era has and most workloads feel.
var fallbackCompare = []string{"policy.features.WAKE_AFFINE=false"}

// defaultCompareFor is the comparison the A key turns on for preset: the
// A/B sets of the preset's default view (its file's "view"), the switch
// its seed argues about.
func defaultCompareFor(preset string) []string {
	for _, p := range scenarios.Presets() {
		if p.Name == preset && len(p.View.Compare) > 0 {
			return p.View.Compare
		}
	}
	return fallbackCompare
}

// buildB applies sets ("path=value", scenarios.Scenario.Set syntax) to a
// copy of sc and starts side B's simulator from it.
func buildB(sc *scenarios.Scenario, sets []string, interval int64, light bool) (*player, error) {
	c, err := applySets(sc, sets)
	if err != nil {
		return nil, err
	}
	p, err := newPlayer(c, interval, light)
	if err == nil {
		p.setBudget(true)
	}
	return p, err
}

func applySets(sc *scenarios.Scenario, sets []string) (*scenarios.Scenario, error) {
	c := sc.Clone()
	for _, kv := range sets {
		path, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(path) == "" {
			return nil, fmt.Errorf("compare %q: want path=value", kv)
		}
		if err := c.Set(strings.TrimSpace(path), strings.TrimSpace(value)); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
	}
	return c, nil
}

// SetCompare turns A/B on with side B = the loaded scenario with sets
// applied (each "path=value", as Scenario.Set and the CLI's -set take them),
// or off for nil or empty sets. Turning it on restarts both sides at t=0 so
// that they run in lock-step from the same state; turning it off lets A
// play on. On error nothing changes.
func (s *Session) SetCompare(sets []string) error {
	s.mu.Lock()
	if s.scen == nil {
		s.mu.Unlock()
		return s.fail(errors.New("no scenario loaded"))
	}
	sc := s.scen
	s.mu.Unlock()
	if len(sets) == 0 {
		s.mu.Lock()
		if len(s.compare) > 0 {
			s.lastCompare = s.compare
		}
		s.compare, s.b = nil, nil
		s.rev++ // the canvas lays out one machine again
		s.mu.Unlock()
		return nil
	}
	sets = append([]string(nil), sets...)
	if _, err := applySets(sc, sets); err != nil {
		return s.fail(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scen != sc {
		// Another scenario was loaded meanwhile: apply to that one.
		if _, err := applySets(s.scen, sets); err != nil {
			s.lastErr = err.Error()
			return err
		}
	}
	prev := s.compare
	s.compare = sets
	if err := s.restartLocked(); err != nil {
		s.compare = prev
		s.lastErr = err.Error()
		return err
	}
	s.lastCompare = sets
	return nil
}

// Compare returns the compare sets of side B, nil when A/B is off.
func (s *Session) Compare() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.compare...)
}

// ToggleCompare turns A/B off when it is on; when off, it turns it on with
// the sets it last ran with, or else the preset's default view's (for a
// scenario that is no preset: policy.features.WAKE_AFFINE=false).
func (s *Session) ToggleCompare() error {
	s.mu.Lock()
	on := len(s.compare) > 0
	sets := s.lastCompare
	preset := s.preset
	s.mu.Unlock()
	if on {
		return s.SetCompare(nil)
	}
	if len(sets) > 0 {
		if err := s.SetCompare(sets); err == nil {
			return nil
		}
	}
	return s.SetCompare(defaultCompareFor(preset))
}

// describeSets writes side A's values of the compare paths, to label A the
// way B is labelled: "policy.select_idle_sibling=v3.6". A path the scenario
// leaves to its base reads as the value side A's simulator sm runs with
// (scenarios.EffectiveValue: "policy.features.SCHED_BALANCE_MAP=false" on
// v3.8), and "path=default" where that has no name (sm nil, or a path
// such as a cost whose default the file format does not spell).
func describeSets(sc *scenarios.Scenario, sm *sim.Sim, sets []string) string {
	parts := make([]string, 0, len(sets))
	for _, kv := range sets {
		path, _, _ := strings.Cut(kv, "=")
		path = strings.TrimSpace(path)
		v, err := sc.Get(path)
		if err != nil || v == "" {
			v = "default"
			if eff, ok := effectiveValue(sm, path); ok && err == nil {
				v = eff
			}
		}
		parts = append(parts, path+"="+v)
	}
	return joinSets(parts)
}

// joinSets writes sets ("path=value") as one label, the way a shell writes
// a brace expansion where sets differ in one segment of their paths and
// have the same value: "policy.sd_flags.{MC,NUMA}.SD_BALANCE_EXEC=false"
// for the two levels' flags, which took four lines of the side panel
// spelled out. Each set is still spelled exactly; the order is the sets'.
func joinSets(sets []string) string {
	type set struct {
		seg []string
		val string
	}
	ss := make([]set, len(sets))
	for i, kv := range sets {
		path, val, _ := strings.Cut(kv, "=")
		ss[i] = set{strings.Split(strings.TrimSpace(path), "."), val}
	}
	// differsAt is the one segment a and b differ in, -1 if they differ in
	// none, in more than one, in their length or in their value.
	differsAt := func(a, b set) int {
		if len(a.seg) != len(b.seg) || a.val != b.val {
			return -1
		}
		k := -1
		for i := range a.seg {
			if a.seg[i] != b.seg[i] {
				if k >= 0 {
					return -1
				}
				k = i
			}
		}
		return k
	}
	used := make([]bool, len(ss))
	parts := make([]string, 0, len(ss))
	for i, a := range ss {
		if used[i] {
			continue
		}
		k, alts := -1, []string(nil)
		for j := i + 1; j < len(ss); j++ {
			d := differsAt(a, ss[j])
			if used[j] || d < 0 || (k >= 0 && d != k) {
				continue
			}
			if k < 0 {
				k, alts = d, []string{a.seg[d]}
			}
			alts = append(alts, ss[j].seg[d])
			used[j] = true
		}
		if k < 0 {
			parts = append(parts, strings.TrimSpace(sets[i]))
			continue
		}
		seg := append([]string(nil), a.seg...)
		seg[k] = "{" + strings.Join(alts, ",") + "}"
		parts = append(parts, strings.Join(seg, ".")+"="+a.val)
	}
	return strings.Join(parts, ", ")
}

func effectiveValue(sm *sim.Sim, path string) (string, bool) {
	if sm == nil {
		return "", false
	}
	return scenarios.EffectiveValue(sm, path)
}
