package sim

import "fmt"

// Error is a configuration error found by New (a bug in the caller: the
// scenarios package validates with paths before the simulator sees a Config).
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// LimitError is why a run stopped before its duration: it reached one of its
// budgets (Limit is "events" or "work"). What was simulated up to At is
// intact: Metrics, the trace hash and snapshots describe it.
type LimitError struct {
	Limit  string // "events" | "work" | "forks" | "live tasks"
	Budget int64  // the budget that was reached
	At     int64  // simulated time, ns, where the run stopped
}

func (e *LimitError) Error() string {
	at := float64(e.At) / 1e6
	switch e.Limit {
	case "forks":
		return fmt.Sprintf("stopped at %.3f ms of simulated time: fork steps started %d tasks, the limit of a run", at, e.Budget)
	case "live tasks":
		return fmt.Sprintf("stopped at %.3f ms of simulated time: %d tasks alive at once, the limit", at, e.Budget)
	}
	what := "events"
	if e.Limit == "work" {
		what = "work units (events, tasks woken, CPUs ticked, CPUs, groups and domains examined)"
	}
	return fmt.Sprintf("stopped at %.3f ms of simulated time: the run reached its budget of %d %s", at, e.Budget, what)
}
