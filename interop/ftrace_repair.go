package interop

import "strconv"

// Switches the kernel did not report.
//
// On the 2-vCPU Firecracker guests this project runs on (Linux
// 6.18.44-fc-v657), no event is ever recorded in the task context of one
// CPU's idle task: on CPU 1, sched_switch from swapper/1 to a task and the
// idle loop's cpu_idle events are missing from every trace, in a tracefs
// instance and in the global buffer, with or without event filters, with
// every trace clock, and from perf's tracepoint events too (perf record -e
// sched:sched_switch -a), while the events of interrupts taken in that idle
// task (the timer or IPI wake-up itself) and every event on CPU 0 are
// recorded, and the tasks' own schedstat pcount and perf's
// PERF_RECORD_SWITCH_CPU_WIDE records (written in the incoming task's
// context, not by the tracepoint) show the switches did happen.
// docs/real-kernel.md has the measurements.
//
// The loss is visible in the trace itself: every event names the task it was
// recorded in (the comm-pid column; an interrupt's event names the task it
// interrupted), so an event on CPU c recorded in task X while the last
// switch on c went to another task means a switch to X was not reported.
// RepairFtrace puts it back: a sched_switch from the CPU's current task to
// X, marked Inferred, at the latest moment known to precede it, the last
// event recorded on c or X's last wake-up or migration, whichever is later.
// That is a lower bound: when c was idle, the event is the interrupt that
// woke X there, and the real switch follows it by the idle exit (a few
// microseconds here). When the event that gave the switch away is X's
// raw_syscalls:sys_exit (schedsim real records those of the system calls
// its threads block in), it is the upper bound and the time given: X was
// switched in just before it returned. FtraceRepair sums the gap between
// the two bounds.
//
// The same loss hits the threads of this VM's own agent (PID 1,
// process_api's tokio-rt-worker threads) on both CPUs: a switch from one of
// them to another task is never reported either, and is put back the same
// way.

// FtraceRepair counts what RepairFtrace inferred.
type FtraceRepair struct {
	Inferred int64         // switches put back
	FromIdle int64         // of which left a CPU's idle task
	ByCPU    map[int]int64 // inferred switches by CPU
	// The gap between the two bounds of an inferred switch (the event that
	// gave it away minus the time given to it): the largest and the sum.
	MaxGapNS, SumGapNS int64

	cur      map[int]int   // the task believed current on a CPU
	last     map[int]int64 // the last event on a CPU
	lastWake map[int]int64 // per task: its last waking, wakeup or migration
	lastOut  map[int]int64 // per task: its last switch-out
	// lastWoken: per task, its last waking or wakeup (not migration)
	lastWoken map[int]int64
	comm      map[int]string
}

// RepairFtrace wraps fn: every event is passed on after any switch it shows
// was not reported (see above), which is passed first with Inferred set and
// Name "sched_switch". rep (may be nil) receives the counts.
func RepairFtrace(rep *FtraceRepair, fn func(*FtraceEvent) error) func(*FtraceEvent) error {
	if rep == nil {
		rep = &FtraceRepair{}
	}
	rep.ByCPU = map[int]int64{}
	rep.cur = map[int]int{}
	rep.last = map[int]int64{}
	rep.lastWake = map[int]int64{}
	rep.lastOut = map[int]int64{}
	rep.lastWoken = map[int]int64{}
	rep.comm = map[int]string{}
	var syn FtraceEvent
	return func(e *FtraceEvent) error {
		c := e.CPU
		x := e.PID // the task the event was recorded in
		if e.Kind == FtraceSwitch {
			x = e.PrevPID
		}
		if x != 0 && e.Comm != "" && e.Comm != "<idle>" && e.Comm != "<...>" {
			rep.comm[x] = e.Comm
		}
		if cur, known := rep.cur[c]; known && cur != x {
			at := rep.last[c]
			if w, ok := rep.lastWake[x]; ok && w > at {
				at = w
			}
			at = min(at, e.TS)
			if e.Name == "sys_exit" && rep.lastWoken[x] > rep.lastOut[x] {
				// X was woken after it last left a CPU (it had blocked) and
				// is returning from the call it blocked in: it was switched
				// in just before (about a microsecond here). A thread that
				// was preempted instead may have run a while before a call
				// that did not block.
				at = e.TS
			}
			syn = FtraceEvent{Line: e.Line, CPU: c, TS: at, RawClock: e.RawClock, Comm: rep.comm[cur], PID: cur,
				Name: "sched_switch", Kind: FtraceSwitch, Flags: "d..2.", Inferred: true,
				PrevComm: rep.comm[cur], PrevPID: cur, PrevPrio: 120, PrevState: "R",
				NextComm: rep.comm[x], NextPID: x, NextPrio: 120}
			if cur == 0 {
				syn.Comm, syn.PrevComm = "<idle>", "swapper/"+strconv.Itoa(c)
				rep.FromIdle++
			} else {
				syn.PrevState = "S" // a task's own switch-out was lost: it had left
			}
			if x == 0 {
				syn.NextComm = "swapper/" + strconv.Itoa(c)
			}
			rep.Inferred++
			rep.ByCPU[c]++
			gap := e.TS - at
			rep.SumGapNS += gap
			rep.MaxGapNS = max(rep.MaxGapNS, gap)
			if err := fn(&syn); err != nil {
				return err
			}
		}
		switch e.Kind {
		case FtraceSwitch:
			rep.lastOut[e.PrevPID] = e.TS
			x = e.NextPID
			if x != 0 {
				rep.comm[x] = e.NextComm
			}
		case FtraceWaking, FtraceWakeup, FtraceWakeupNew:
			rep.lastWake[e.TPID] = e.TS
			rep.lastWoken[e.TPID] = e.TS
		case FtraceMigrate:
			rep.lastWake[e.TPID] = e.TS
		}
		rep.cur[c] = x
		rep.last[c] = e.TS
		return fn(e)
	}
}
