package sim

// CompareStates is compareStates for the external tests (checkpoint
// presets): the differences between two simulators' states, nil when b is
// a faithful, independent copy of a.
func CompareStates(a, b *Sim) []string { return compareStates(a, b) }
