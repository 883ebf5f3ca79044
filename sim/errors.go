package sim

import "fmt"

// Error is a configuration error found by New (a bug in the caller: the
// scenarios package validates with paths before the simulator sees a Config).
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }
