package scenarios

import "encoding/json"

// Canonical returns the scenario's canonical JSON: compact, keys in the
// order of the Scenario struct (version, title, description, seed, duration,
// machine, policy, tasks; map keys sorted), every field that has a fixed
// default written out (seed, the six machine dimensions, hz, numbering,
// base, count, a wake's fanout), and every field whose absence means "the
// simulator's or the base's own" left out unless set. Strings are kept as
// written: "20us" stays "20us".
//
// The summary and the view block are not part of it (they change nothing
// in a run). For any s that Decode returned, Decode(Canonical(s)) equals s
// without them, and
// Canonical is idempotent. Share links are made from it, so equal scenarios
// give equal links.
func (s *Scenario) Canonical() []byte {
	c := s.Clone()
	c.Summary, c.View = "", View{}
	c.normalize()
	b, err := json.Marshal(c)
	if err != nil {
		// Only strings, ints, bools, maps with string keys and slices of
		// those: Marshal cannot fail.
		panic("scenarios: canonical encoding failed: " + err.Error())
	}
	return b
}
