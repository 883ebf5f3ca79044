package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// EventKind is the kind of a trace event. The order is part of the trace
// hash: append new kinds at the end.
type EventKind uint8

const (
	EvFork    EventKind = iota // a task was forked and placed: CPU = chosen, Why = fork decision
	EvWakeup                   // try_to_wake_up placed Task on CPU (From = prev CPU), Arg = waker (-1: timer)
	EvSwitch                   // CPU switched to Task (-1 = idle) from Arg (-1 = idle)
	EvMigrate                  // Task moved From -> CPU, Cause says why
	EvBlock                    // Task blocked on CPU (sleep, timer or wait)
	EvExit                     // Task exited
	EvBalance                  // a load-balance pass on CPU at Level; Arg = tasks moved
	NumEventKinds
)

var eventKindNames = [NumEventKinds]string{"fork", "wakeup", "switch", "migrate", "block", "exit", "balance"}

func (k EventKind) String() string {
	if k < NumEventKinds {
		return eventKindNames[k]
	}
	return "?"
}

// Cause says why a task was placed or moved.
type Cause uint8

const (
	CauseNone    Cause = iota
	CauseWakeup        // select_task_rq_fair() at wake-up
	CauseBalance       // periodic load balancing
	CauseNewidle       // newidle balancing
	CauseNohz          // nohz idle balancing on behalf of an idle CPU
	CauseActive        // active balancing (the stopper pushed a running task)
	CauseFork          // fork balancing
	CauseExec          // exec balancing (sched_exec() moved the task)
	NumCauses
)

var causeNames = [NumCauses]string{"", "wakeup", "balance", "newidle", "nohz", "active", "fork", "exec"}

func (c Cause) String() string {
	if c < NumCauses {
		return causeNames[c]
	}
	return "?"
}

// Event is one entry of the trace. Events are small values; explanations
// live in Decisions, referenced by Why.
type Event struct {
	T     int64 // ns
	Kind  EventKind
	Cause Cause
	Level int8  // domain level (-1 none)
	CPU   int16 // the CPU it happened on / was placed on
	From  int16 // previous CPU, -1 if none
	Task  int32 // task id, -1 if none
	Arg   int32 // kind-specific: waker, previous task, tasks moved
	Why   int64 // sequence number of the Decision explaining it, -1 if none
}

// KV is one named number of a decision (keys are constant strings).
type KV struct {
	K string
	V int64
}

// Decision explains one placement or balancing decision: the path taken,
// what was examined, the numbers compared and the reason.
type Decision struct {
	Seq      int64
	T        int64
	Path     string // kernel function mirrored, e.g. "select_idle_sibling(v3.6)"
	Reason   string // why this CPU, in words
	Task     int32
	This     int16   // the CPU doing the work (waker / balancer)
	Prev     int16   // the task's previous CPU
	Target   int16   // wake_affine's target or balance source
	Chosen   int16   // the CPU picked (-1: none)
	Level    int8    // domain level where it was decided (-1 none)
	Examined CPUMask // CPUs examined (kept only while recording: explanations read it)
	NCPUs    int     // CPUs examined (a CPU may be examined twice)
	NGroups  int     // groups examined
	NDomains int     // domains visited
	Cost     int64   // search cost charged, ns
	Nums     [8]KV
	NNums    int
}

// Value is the number in words where it names something: a group type
// (busiest_type, local_type, idlest_type, also per level: "MC.local_type")
// or a migration type; else the number.
func (kv KV) Value() string {
	switch {
	case kv.K == "migration_type" && kv.V >= 0 && int(kv.V) < len(migrationTypeNames):
		return migrationTypeNames[kv.V]
	case strings.HasSuffix(kv.K, "_type") && kv.V >= 0 && int(kv.V) < len(groupTypeNames):
		return groupTypeNames[kv.V]
	}
	return strconv.FormatInt(kv.V, 10)
}

func (d *Decision) add(k string, v int64) {
	if d.NNums < len(d.Nums) {
		d.Nums[d.NNums] = KV{k, v}
		d.NNums++
	}
}

// Text renders the decision in words.
func (d *Decision) Text(taskName func(int) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", d.Path, d.Reason)
	if d.Chosen >= 0 {
		fmt.Fprintf(&b, " -> cpu%d", d.Chosen)
	}
	if d.Level >= 0 {
		fmt.Fprintf(&b, " in %s", Level(d.Level))
	}
	if !d.Examined.Empty() {
		fmt.Fprintf(&b, "; examined {%s}", d.Examined)
	}
	if d.NGroups > 0 {
		fmt.Fprintf(&b, ", %d groups", d.NGroups)
	}
	if d.Cost > 0 {
		fmt.Fprintf(&b, ", cost %.2fus", float64(d.Cost)/1e3)
	}
	for i := 0; i < d.NNums; i++ {
		fmt.Fprintf(&b, " %s=%s", d.Nums[i].K, d.Nums[i].Value())
	}
	return b.String()
}
