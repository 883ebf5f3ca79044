package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"schedplay/sim"
)

// exitLimit is the exit status of a run a limit stopped before its
// duration (design.md, second round): the metrics of what was simulated are
// still printed, and stderr names the limit and how to raise it.
const exitLimit = 3

// DefaultTimeout is the wall-clock limit of one simulation (-timeout). The
// deterministic work budget (-max-work, sim.DefaultMaxWork) stops every
// scenario within about 7.5 s of CPU on this kind of machine, so normally it
// is the work budget that stops a run, at the same event every time; a
// minute is what a person waiting at a terminal accepts before wanting to
// be told why, and it fires only on a machine (or a load) about ten times
// slower. -timeout 0 turns it off.
const DefaultTimeout = time.Minute

// limits are the -max-work and -timeout flags of run, sweep and export.
type limits struct {
	maxWork int64
	timeout time.Duration
	stop    func() bool // when set and true (an interrupt), runTo returns errInterrupted
}

func (l *limits) register(fs *flag.FlagSet) {
	fs.Int64Var(&l.maxWork, "max-work", sim.DefaultMaxWork, "deterministic work budget of a simulation, in work units (see schedsim help)")
	fs.DurationVar(&l.timeout, "timeout", DefaultTimeout, "wall-clock limit of a simulation; 0: none")
}

func (l *limits) check() error {
	if l.maxWork <= 0 {
		return badInputf("-max-work %d: want a positive number of work units", l.maxWork)
	}
	if l.timeout < 0 {
		return badInputf("-timeout %v: want a positive duration, or 0 for none", l.timeout)
	}
	return nil
}

// apply puts the work budget into a simulator configuration.
func (l *limits) apply(cfg *sim.Config) { cfg.MaxWork = l.maxWork }

// deadline is when a simulation started now must stop (zero: never).
func (l *limits) deadline() time.Time {
	if l.timeout == 0 {
		return time.Time{}
	}
	return time.Now().Add(l.timeout)
}

// limitError says which limit stopped a run, with how to raise it. Its exit
// status is exitLimit.
type limitError struct {
	msg string
}

func (e *limitError) Error() string { return e.msg }

// wallEvery is how many simulator events run between two looks at the
// clock: about a millisecond of work at the simulator's pace.
const wallEvery = 1 << 12

// runTo runs sm to until (its duration when 0), stopping at the deadline
// (zero: none) or when stop returns true (nil: never), both checked every
// wallEvery events. It returns nil, or a *limitError for a limit (the work
// budget, the event budget, the deadline). Stepping one event at a time and
// then RunUntil is the same run as RunUntil alone.
func (l *limits) runTo(sm *sim.Sim, until int64, deadline time.Time) error {
	if until <= 0 {
		until = sm.Config().Duration
	}
	for n := 1; ; n++ {
		nt := sm.NextEventTime()
		if nt < 0 || nt > until || !sm.Step() {
			break
		}
		if n%wallEvery == 0 && !deadline.IsZero() && time.Now().After(deadline) {
			return l.wallError(sm)
		}
		if n%wallEvery == 0 && l.stop != nil && l.stop() {
			return errInterrupted
		}
	}
	sm.RunUntil(until)
	return l.simError(sm)
}

// simError turns the simulator's Err into a limitError naming the flag.
func (l *limits) simError(sm *sim.Sim) error {
	err := sm.Err()
	if err == nil {
		return nil
	}
	var le *sim.LimitError
	if !errors.As(err, &le) {
		return internal(err)
	}
	end := float64(sm.Config().Duration) / 1e6
	switch le.Limit {
	case "work":
		return &limitError{fmt.Sprintf("limit: %v, of %.0f ms; the metrics cover what was simulated. "+
			"Raise it with -max-work %d (or more), or shorten the duration, or use fewer CPUs or tasks", err, end, 4*le.Budget)}
	default:
		return &limitError{fmt.Sprintf("limit: %v, of %.0f ms; the metrics cover what was simulated. "+
			"Shorten the duration, or use fewer CPUs or tasks", err, end)}
	}
}

func (l *limits) wallError(sm *sim.Sim) error {
	return &limitError{fmt.Sprintf("limit: stopped at %.3f ms of %.0f ms simulated: the run took longer than its wall-clock limit, -timeout %v; "+
		"the metrics cover what was simulated. Raise it with -timeout %v, or -timeout 0 for none, or shorten the duration",
		float64(sm.Now())/1e6, float64(sm.Config().Duration)/1e6, l.timeout, 4*l.timeout)}
}
