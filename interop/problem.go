package interop

import (
	"fmt"
	"strconv"
	"time"

	"schedplay/scenarios"
)

// Problem is something in an imported file that the importer could not map
// as written: it was dropped, approximated or replaced by a default. Path
// says where, in the input's own terms (an rt-app JSON path such as
// tasks.thread0.phases.p1.lock, an lscpu line such as "line 12" or a
// column, or "machine" for the result as a whole); Message says what
// happened to it.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

type problems []Problem

// MaxProblems bounds the problems an import lists: a hostile file can have
// one per few bytes; after this many a last one says the rest are left out.
const MaxProblems = 1000

func (ps *problems) add(path, format string, args ...any) {
	switch {
	case len(*ps) > MaxProblems:
		return
	case len(*ps) == MaxProblems:
		*ps = append(*ps, Problem{Message: fmt.Sprintf("more than %d problems: the rest are not listed", MaxProblems)})
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	*ps = append(*ps, Problem{Path: path, Message: msg})
}

// fmtUS writes a duration given in microseconds as a scenario duration
// string, in the largest unit that keeps it whole: 10000 -> "10ms".
func fmtUS(us int64) string {
	switch {
	case us%1_000_000 == 0:
		return strconv.FormatInt(us/1_000_000, 10) + "s"
	case us%1000 == 0:
		return strconv.FormatInt(us/1000, 10) + "ms"
	}
	return strconv.FormatInt(us, 10) + "us"
}

// maxUS is the longest duration a scenario takes, in microseconds.
const maxUS = int64(scenarios.MaxDuration / time.Microsecond)
