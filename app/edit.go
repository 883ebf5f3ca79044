package app

import (
	"errors"

	"schedplay/scenarios"
)

// Edit applies a structural edit (scenarios.Scenario.RenameTask, AddStep,
// ...) to a copy of the scenario and plays the result, as Set does for one
// field: on error nothing changes.
func (s *Session) Edit(edit func(sc *scenarios.Scenario) error) error {
	s.mu.Lock()
	if s.scen == nil {
		s.mu.Unlock()
		return s.fail(errors.New("no scenario loaded"))
	}
	c := s.scen.Clone()
	preset := s.preset
	s.mu.Unlock()
	if err := edit(c); err != nil {
		return s.fail(err)
	}
	markEdited(c, preset)
	if preset == "" {
		preset = scenarios.PresetOf(c)
	}
	return s.load(c, changeEdit, preset)
}
