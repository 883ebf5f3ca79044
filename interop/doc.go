/*
Package interop lets schedplay speak the formats scheduler people already
use: it exports a simulator run as a Perfetto trace, as /proc/schedstat
snapshots and as a CSV time series, and imports rt-app workloads and lscpu
topologies as scenarios. It imports only the standard library, package sim
and package scenarios, never reads a clock or the file system, and builds
for GOOS=js GOARCH=wasm: the browser page can call it as the CLI does.

# Using it

Exports drive a simulator from its current time to the end of its scenario
(or Options.Until) and write as they go:

	s, _ := sim.New(cfg)
	err := interop.WritePerfetto(w, s, interop.Options{})           // trace-event JSON
	err := interop.WritePerfettoProto(w, s, interop.Options{})      // binary Perfetto trace
	err := interop.WriteCSV(w, s, interop.Options{Interval: 1e6})   // long-form CSV, 1 ms samples
	err := interop.WriteSchedstatSeries(w, s, interop.Options{})    // /proc/schedstat every ms
	s.Run(); err := interop.WriteSchedstat(w, s)                    // one snapshot, now
	data, problems, err := interop.WriteRTApp(scenario)             // the workload for rt-app

Imports return a scenario that has passed scenarios.Decode, plus the list of
what could not be mapped as written, each a Problem with the path in the
input ("tasks.thread0.phases.p1.lock: mutexes are not modelled; dropped"):

	s, problems, err := interop.ImportRTApp(data)
	s, problems, err := interop.ImportRTAppWith(data, interop.RTAppOptions{Machine: &m})
	m, problems, err := interop.ImportLscpu(data)   // just the machine
	s, problems, err := interop.LscpuScenario(data) // the machine and a placeholder workload
	s, problems, err := interop.ImportFtrace(data)  // a tracefs / trace-cmd sched trace (ftrace.go)

An error means the input is not what it claims to be (not JSON, no tasks,
no CPU rows) or nothing of it could be mapped; problems never stop an
import. The schedsim CLI wraps all of this as `schedsim export` and
`schedsim import`; docs/interop.md is the user's guide.

# The Perfetto trace

Chrome's trace-event JSON, which ui.perfetto.dev and chrome://tracing both
open. Process 1 is the machine. Each CPU has a thread "cpuN" (tid 1000+N)
whose complete events ("X") are the task slices, and a thread "cpuN events"
(tid 2000+N) with instant events: forks, migrations ("migrate:wakeup",
"migrate:balance", ... on the destination CPU) and balance passes
("balance:MC", ... on the balancing CPU), their args holding the decision
the simulator recorded (kernel path, reason, CPUs examined, numbers
compared). Flows ("s"/"f") join the slice of a waker to the next slice of
the task it woke. Counters "cpuN" carry nr_running and util_avg. The slices
of a CPU never overlap and add up to the tasks' CPU time (tests check both).

Placement rules, and why: instants are not on the task tracks because
Perfetto turns a thread-scoped instant into a zero-length slice, which
would capture flow arrows; a flow's start is written after the waker's
slice and its end after the wakee's, each moved at most 1 ns into its slice,
so that both Perfetto (which binds a flow step to the slice open on the
track) and the legacy viewer (which looks for the enclosing slice) bind them
to the right slices, whatever their order for equal timestamps.

# The binary Perfetto trace

WritePerfettoProto writes what a real capture with Perfetto's linux.ftrace
data source holds, so that the UI draws its CPU tracks and the trace
processor fills its sched and thread_state tables: per CPU ftrace event
bundles (sched_switch, sched_waking, sched_wakeup, sched_migrate_task,
task_newtask, sched_process_fork, sched_wakeup_new, sched_process_exit),
a process tree, and as track events the simulator's decisions and per-CPU
counters. protowire.go is a minimal protobuf encoder (standard library
only); testdata/perfetto_trace.proto holds the messages written, from
Perfetto's published field numbers, so that `protoc --decode` can check a
trace. Where the simulator's events and the kernel's differ, the export
writes the kernel's: a blocked task whose CPU pulls another by newidle
balancing is switched out to that task (the simulator reports idle in
between), and a wake-up migration's sched_migrate_task comes between
sched_waking and sched_wakeup, as in try_to_wake_up().

# rt-app files

WriteRTApp writes a scenario's workload in rt-app 1.0's JSON (the version
Debian ships); ImportRTApp reads it back with the same programs (a test
round-trips every preset). Groups whose instances are woken one by one
become one rt-app task per instance, since rt-app's resume wakes every
thread suspended on a name.

# /proc/schedstat

Version 15 (kernel 3.8, kernel/sched/stats.c) for the v3.8 base, version 17
(v6.13 onwards) for the modern one: per CPU the cpu line of 9 counters, then
a domain line per sched domain: v15 "domainN MASK" and 36 counters (8 per
idle type, in the order idle, busy, newly idle, then 12); v17 "domainN NAME
MASK" and 45 counters (11 per idle type, lb_imbalance split into load,
util, task and misfit, in the order busy, idle, newly idle, then the same
12). Masks are the kernel's %*pb for the machine's CPU count.

# Imports

rt-app: see ImportRTAppWith for the mapping. rt-app's JSON dialect (C
comments, trailing commas, repeated keys such as two "run" events in one
phase) is read as json-c reads it, and a bare key (`"suspend",`) as
rt-app's workgen completes it; events are recognised by the prefix of
their key, as rt-app does ("run1", "timer_a"). Times are microseconds.

lscpu: see ImportLscpu. The scenario's machine is a regular tree (nodes,
sockets, LLCs, L2 clusters, cores, threads); an irregular machine becomes
the closest regular one, and the importer says how it differs.

# Not done

KernelShark's trace-cmd .dat format (its users can open the JSON in
Perfetto); rt-app's mutexes, condition variables and barriers, which the
scenario format has no words for.
*/
package interop
