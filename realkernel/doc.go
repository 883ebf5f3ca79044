// Package realkernel runs a scenario on the machine's own Linux kernel and
// measures it from the kernel's sched events, so that the simulator can be
// compared with the real thing (schedsim real, schedsim calibrate).
//
// A real run (Run) starts one OS thread per task instance and executes the
// programs with real CPU burning, sleeps, timers, kernel wake-ups, repeat
// blocks, and mutexes, conditions and barriers as futexes (see run_linux.go
// for how each step maps onto system calls; processes are refused); a tracefs
// instance of its own records sched_switch, sched_waking, sched_wakeup,
// sched_migrate_task and sched_process_fork/exit for those threads only,
// and the entries to and returns from the system calls of their steps
// (raw_syscalls sys_enter and sys_exit of read, write, futex,
// clock_nanosleep: the threads' time in the kernel, Result.SyscallPct);
// Analyze puts back the switches the
// kernel did not report (interop.RepairFtrace: on this project's VMs no
// event is recorded in CPU 1's idle task or in the VM agent's threads) and
// turns the trace text into the CLI's -json keys with the simulator's
// definitions. Every run checks the threads' CPU time from the trace
// against their own CLOCK_THREAD_CPUTIME_ID (CPUCheck) and is refused when
// the two disagree by more than the switch-ins and the host's steal
// (/proc/stat) explain; the steal the trace counted as the threads' time
// is reported (Result.StealPct), as the simulator has no host. What sched events cannot show (PELT signals, the
// balancer's reasons, a trace hash) is null and listed under "unmeasured",
// never estimated.
//
// Calibrate measures the machine's costs (context switch, cross-CPU wake-up,
// idle-exit latency by idle length) with small thread ping-pongs and writes
// them as a scenario's machine.costs object.
//
// Everything that touches the system is Linux-only (build tag linux);
// Analyze and the types are portable. Running needs root (tracefs) and
// GODEBUG=asyncpreemptoff=1 in the process's environment.
package realkernel
