package pagemodel

import "schedplay/scenarios"

// BlankTitle is the title of a new blank scenario.
const BlankTitle = "New scenario"

// Blank is a new scenario to start from: the machine and the policy of cur
// (what the user was looking at), one task that runs 1 ms and sleeps 1 ms,
// and a one-second run. It is a scenario of its own, not an edited preset.
func Blank(cur *scenarios.Scenario) (*scenarios.Scenario, error) {
	s, err := scenarios.Decode([]byte(`{"version": 2, "seed": 1, "duration": "1s",
		"tasks": [{"name": "task", "count": 1, "program": [{"run": "1ms"}, {"sleep": "1ms"}]}]}`))
	if err != nil {
		return nil, err
	}
	s.Title = BlankTitle
	s.Description = "A blank scenario on the machine and policy of " + quoteTitle(cur) + ": add task groups on the Tasks tab."
	if cur != nil {
		c := cur.Clone()
		s.Machine, s.Policy = c.Machine, c.Policy
	}
	// The copy's fields must still agree with the new tasks.
	if _, err := scenarios.Decode(s.Canonical()); err != nil {
		return nil, err
	}
	return s, nil
}

func quoteTitle(s *scenarios.Scenario) string {
	if s == nil || s.Title == "" {
		return "the default"
	}
	return "“" + s.Title + "”"
}
