package interop

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"schedplay/sim"
)

// FormatPerfettoProto is the export format name of WritePerfettoProto, the
// same in `schedsim export -format` and in the page's export list.
const FormatPerfettoProto = "perfetto-proto"

// Process ids of the perfetto-proto export. pid 0 is the idle task
// (swapper/N), as in the kernel. pid 1 is "schedplay", the launcher every
// task is forked from (the scenario's spawner: rt-app's main thread, a
// shell); task id i is pid ppTaskPID+i, a process of one thread.
const (
	ppLauncherPID = 1
	ppTaskPID     = 1000
	ppLauncher    = "schedplay"
)

// Packet sequences (TracePacket.trusted_packet_sequence_id): track
// descriptors and track events on one, ftrace bundles on the other, as a
// real capture has them from two data sources.
const (
	ppSeqTrack  = 1
	ppSeqFtrace = 2
)

// Track uuids: the root track "schedplay", and per CPU a track of the
// simulator's decisions and two counter tracks.
const (
	ppRootUUID     = 1
	ppDecisionUUID = 0x10000 // + cpu
	ppNrUUID       = 0x20000 // + cpu
	ppUtilUUID     = 0x30000 // + cpu
)

// prev_state values of sched_switch, in the encoding of kernels 4.14 and
// later (include/linux/sched.h TASK_REPORT, __trace_sched_switch_state()):
// the system_info packet says the kernel is 6.17 so that Perfetto's trace
// processor decodes them so, whatever the scenario's policy base.
const (
	ppStatePreempted = 0x100 // TASK_REPORT_MAX: switched out while runnable, "R+"
	ppStateSleeping  = 0x1   // TASK_INTERRUPTIBLE: blocked (sleep, timer, wait), "S"
	ppStateDead      = 0x10  // EXIT_DEAD: exited (and reaped), "X"
)

// ppCloneFlags is task_newtask's clone_flags for fork(): SIGCHLD (17) as
// the exit signal and no CLONE_THREAD, so every task is a new process.
const ppCloneFlags = 17

// Field numbers of Perfetto's messages (see interop/testdata/perfetto_trace.proto,
// which names the Perfetto file each comes from).
const (
	fTracePacket = 1 // Trace.packet

	fPktTimestamp      = 8
	fPktFtraceEvents   = 1
	fPktProcessTree    = 2
	fPktTrackEvent     = 11
	fPktSystemInfo     = 45
	fPktTrackDesc      = 60
	fPktSeqID          = 10
	fPktSequenceFlags  = 13
	seqIncrementalInit = 1 // SEQ_INCREMENTAL_STATE_CLEARED

	fBundleCPU   = 1
	fBundleEvent = 2

	fEvTimestamp       = 1
	fEvPID             = 2
	fEvSchedSwitch     = 4
	fEvSchedWakeup     = 17
	fEvSchedWaking     = 20
	fEvSchedWakeupNew  = 114
	fEvTaskNewtask     = 235
	fEvSchedProcExit   = 238
	fEvSchedProcFork   = 239
	fEvSchedMigrate    = 491
	fSwitchPrevComm    = 1
	fSwitchPrevPID     = 2
	fSwitchPrevPrio    = 3
	fSwitchPrevState   = 4
	fSwitchNextComm    = 5
	fSwitchNextPID     = 6
	fSwitchNextPrio    = 7
	fWakeComm          = 1 // sched_waking, sched_wakeup, sched_wakeup_new
	fWakePID           = 2
	fWakePrio          = 3
	fWakeSuccess       = 4
	fWakeTargetCPU     = 5
	fMigrateComm       = 1
	fMigratePID        = 2
	fMigratePrio       = 3
	fMigrateOrigCPU    = 4
	fMigrateDestCPU    = 5
	fMigrateRunning    = 6
	fNewtaskPID        = 1
	fNewtaskComm       = 2
	fNewtaskCloneFlags = 3
	fNewtaskOOMAdj     = 4
	fExitComm          = 1
	fExitPID           = 2
	fExitTgid          = 3
	fExitPrio          = 4
	fForkParentComm    = 1
	fForkParentPID     = 2
	fForkChildComm     = 3
	fForkChildPID      = 4

	fTreeProcesses  = 1
	fTreeThreads    = 2
	fProcPID        = 1
	fProcPPID       = 2
	fProcCmdline    = 3
	fThreadTid      = 1
	fThreadName     = 2
	fThreadTgid     = 3
	fSysUtsname     = 1
	fSysNumCPUs     = 8
	fUtsSysname     = 1
	fUtsVersion     = 2
	fUtsRelease     = 3
	fUtsMachine     = 4
	fTrackUUID      = 1
	fTrackParent    = 5
	fTrackName      = 2
	fTrackDesc      = 14
	fTrackCounter   = 8
	fCounterUnit    = 3
	fTECategories   = 22
	fTEName         = 23
	fTEType         = 9
	fTETrackUUID    = 11
	fTECounterValue = 30
	fTEDebug        = 4
	teInstant       = 3 // TrackEvent.TYPE_INSTANT
	teCounter       = 4 // TrackEvent.TYPE_COUNTER
	unitCount       = 2 // CounterDescriptor.UNIT_COUNT
	fDAName         = 10
	fDAInt          = 4
	fDAString       = 6
	fDADict         = 11
)

// ppMaxBundle is the size at which a CPU's pending ftrace events are
// written as a bundle before the next sample.
const ppMaxBundle = 256 << 10

// WritePerfettoProto runs s from its current time to opt's end and writes
// the run as a binary Perfetto trace (a perfetto.protos.Trace), the format
// of a real capture with the linux.ftrace data source, which
// ui.perfetto.dev opens with its CPU scheduling tracks and whose trace
// processor fills the sched, thread_state and thread tables:
//
//   - a system_info packet (utsname: Linux, release "6.17.0-schedplay",
//     the scenario in version) and the number of CPUs;
//   - track descriptors: a root track "schedplay" with, per CPU, a track
//     "cpuN decisions" and counter tracks "cpuN nr_running" and
//     "cpuN util_avg";
//   - a process tree with the launcher (pid 1, "schedplay") and the tasks
//     alive when the export starts; a task forked later gets its own
//     process-tree packet 1 ns after its fork, as Perfetto's process_stats
//     data source writes one when it sees a new pid;
//   - per CPU, ftrace event bundles (flushed at every opt.Interval) with
//     the kernel's scheduler events in the order the kernel emits them:
//     sched_switch (prev_state R+ when preempted, S when blocked, X when
//     exited), sched_waking (on the waker's CPU, or for a timer on the
//     task's previous CPU), sched_migrate_task, sched_wakeup (on the waker's
//     CPU when it wakes the task there, else on the target CPU),
//     task_newtask, sched_process_fork and sched_wakeup_new for a fork
//     (from pid 1), sched_process_exit; FtraceEvent.pid is the task current
//     on that CPU;
//   - the simulator's decisions as instant track events on "cpuN
//     decisions" of the deciding CPU: "fork", "migrate:CAUSE" and
//     "balance:LEVEL", with debug annotations task, cpu, from, cause,
//     level, moved, decision (the text) and numbers (the numbers compared);
//   - counter track events nr_running and util_avg per CPU, sampled every
//     opt.Interval and written when they change.
//
// Timestamps are the simulator's nanoseconds in the trace's default clock
// (BOOTTIME; no clock snapshot is needed with one clock). pids are
// 1000+task id; comm is the task's name cut to 15 bytes (TASK_COMM_LEN),
// the full name is in the process tree. prio is 120+nice. The output
// depends only on the run.
func WritePerfettoProto(w io.Writer, s *sim.Sim, opt Options) error {
	p := newProtoTrace(w, s)
	p.header()
	drive(s, opt, p)
	p.flushWake()
	p.flushBundles(true)
	return p.bw.Flush()
}

type ppWake struct {
	task    int32
	t       int64
	waker   int // the CPU of sched_waking
	cpu     int // where sched_wakeup is written
	ctx     int32
	pending bool
}

type protoTrace struct {
	bw       *bufio.Writer
	s        *sim.Sim
	pkt      pbWriter
	cpuEv    []pbWriter // per CPU: encoded FtraceEventBundle.event fields not yet written
	cur      []int32    // per CPU: running task, -1 idle
	running  []int      // per task: CPU it runs on, -1
	outState []int64    // per task: prev_state of its next switch-out
	wake     ppWake
	started  bool // a packet on ppSeqTrack was written
	lastNr   []int64
	lastUtil []int64
	comms    []string
}

func newProtoTrace(w io.Writer, s *sim.Sim) *protoTrace {
	n, nt := s.Topology().NCPU, len(s.Tasks())
	p := &protoTrace{bw: bufio.NewWriterSize(w, 64<<10), s: s,
		cpuEv: make([]pbWriter, n), cur: make([]int32, n), running: make([]int, nt),
		outState: make([]int64, nt), lastNr: make([]int64, n), lastUtil: make([]int64, n),
		comms: make([]string, nt)}
	for c := range p.cur {
		p.cur[c] = -1
		p.lastNr[c], p.lastUtil[c] = -1, -1
	}
	for i := range p.running {
		p.running[i] = -1
		p.outState[i] = ppStatePreempted
		name := s.TaskName(i)
		if len(name) > 15 {
			name = name[:15]
		}
		p.comms[i] = name
	}
	return p
}

func ppPID(task int32) int64 {
	if task < 0 {
		return 0
	}
	return ppTaskPID + int64(task)
}

func (p *protoTrace) comm(task int32, cpu int) string {
	if task < 0 {
		return "swapper/" + strconv.Itoa(p.s.Topology().Label(cpu))
	}
	return p.comms[task]
}

func (p *protoTrace) prio(task int32) int64 {
	if task < 0 {
		return 120
	}
	return 120 + int64(p.s.Tasks()[task].Nice)
}

// packet starts a TracePacket (with a timestamp when ts >= 0).
func (p *protoTrace) packet(ts int64) *pbWriter {
	p.pkt.reset()
	p.pkt.begin(fTracePacket)
	if ts >= 0 {
		p.pkt.uint(fPktTimestamp, uint64(ts))
	}
	return &p.pkt
}

// done closes the packet on sequence seq and writes it.
func (p *protoTrace) done(seq int) {
	w := &p.pkt
	w.uint(fPktSeqID, uint64(seq))
	if seq == ppSeqTrack && !p.started {
		p.started = true
		w.uint(fPktSequenceFlags, seqIncrementalInit)
	}
	w.end()
	p.bw.Write(w.b)
}

func (p *protoTrace) header() {
	s := p.s
	cfg := s.Config()
	n := len(p.cur)
	base := s.EraName()
	w := p.packet(-1)
	w.begin(fPktSystemInfo)
	w.begin(fSysUtsname)
	w.string(fUtsSysname, "Linux")
	// Protobuf strings are UTF-8; a title is any text.
	w.string(fUtsVersion, strings.ToValidUTF8("schedplay simulation: "+cfg.Title+" (policy base "+base+", seed "+strconv.FormatUint(cfg.Seed, 10)+")", "\uFFFD"))
	w.string(fUtsRelease, "6.17.0-schedplay")
	w.string(fUtsMachine, "schedplay")
	w.end()
	w.uint(fSysNumCPUs, uint64(s.Topology().Label(n-1)+1)) // a machine given per CPU keeps its numbers
	w.end()
	p.done(ppSeqTrack)

	track := func(uuid, parent uint64, name, desc string, counter int) {
		w := p.packet(-1)
		w.begin(fPktTrackDesc)
		w.uint(fTrackUUID, uuid)
		if parent != 0 {
			w.uint(fTrackParent, parent)
		}
		w.string(fTrackName, name)
		if desc != "" {
			w.string(fTrackDesc, desc)
		}
		if counter >= 0 {
			w.begin(fTrackCounter)
			if counter > 0 {
				w.uint(fCounterUnit, uint64(counter))
			}
			w.end()
		}
		w.end()
		p.done(ppSeqTrack)
	}
	track(ppRootUUID, 0, "schedplay", "The simulator's decisions and per-CPU signals", -1)
	for c := range n {
		cs := "cpu" + strconv.Itoa(s.Topology().Label(c))
		track(ppDecisionUUID+uint64(c), ppRootUUID, cs+" decisions", "Forks, migrations and load-balance passes decided on "+cs+", with the simulator's explanation", -1)
		track(ppNrUUID+uint64(c), ppRootUUID, cs+" nr_running", "Runnable tasks on the CPU, the running one included", unitCount)
		track(ppUtilUUID+uint64(c), ppRootUUID, cs+" util_avg", "PELT utilization of the CPU's cfs_rq, 0..1024", 0)
	}

	// The launcher and the tasks alive now; the tasks running now.
	var snap sim.Snapshot
	s.SnapshotInto(&snap)
	w = p.packet(snap.Now)
	w.begin(fPktProcessTree)
	p.process(w, ppLauncherPID, 0, ppLauncher)
	alive := func(i int) bool {
		st := snap.Tasks[i].State
		return st != sim.TaskUnborn && st != sim.TaskExited
	}
	for i := range snap.Tasks {
		if alive(i) {
			p.process(w, ppPID(int32(i)), ppLauncherPID, s.TaskName(i))
		}
	}
	p.thread(w, ppLauncherPID, ppLauncher)
	for i := range snap.Tasks {
		if alive(i) {
			p.thread(w, ppPID(int32(i)), s.TaskName(i))
		}
	}
	w.end()
	p.done(ppSeqTrack)
	for c := range snap.CPUs {
		if t := snap.CPUs[c].Curr; t >= 0 {
			p.cur[c] = t
			p.running[t] = c
		}
	}
}

func (p *protoTrace) process(w *pbWriter, pid, ppid int64, name string) {
	w.begin(fTreeProcesses)
	w.int(fProcPID, pid)
	w.int(fProcPPID, ppid)
	w.string(fProcCmdline, name)
	w.end()
}

func (p *protoTrace) thread(w *pbWriter, tid int64, name string) {
	w.begin(fTreeThreads)
	w.int(fThreadTid, tid)
	w.string(fThreadName, name)
	w.int(fThreadTgid, tid)
	w.end()
}

// ftrace starts an FtraceEvent on CPU cpu's pending bundle; the caller
// writes the event's message and calls end() on the returned writer.
func (p *protoTrace) ftrace(cpu int, ts int64, ctx int64) *pbWriter {
	w := &p.cpuEv[cpu]
	w.begin(fBundleEvent)
	w.uint(fEvTimestamp, uint64(ts))
	w.uint(fEvPID, uint64(ctx))
	return w
}

// wakeEvent writes sched_waking, sched_wakeup or sched_wakeup_new.
func (p *protoTrace) wakeEvent(field, cpu int, ts int64, ctx int64, task int32, target int) {
	w := p.ftrace(cpu, ts, ctx)
	w.begin(field)
	w.string(fWakeComm, p.comm(task, 0))
	w.int(fWakePID, ppPID(task))
	w.int(fWakePrio, p.prio(task))
	w.int(fWakeSuccess, 1)
	w.int(fWakeTargetCPU, int64(p.s.Topology().Label(target)))
	w.end()
	w.end()
}

// flushWake writes the sched_wakeup held back by a wake-up (it follows the
// sched_migrate_task of a wake-up migration, as in try_to_wake_up()).
func (p *protoTrace) flushWake() {
	if !p.wake.pending {
		return
	}
	wk := &p.wake
	wk.pending = false
	p.wakeEvent(fEvSchedWakeup, wk.cpu, wk.t, int64(wk.ctx), wk.task, wk.cpu)
}

// growTasks makes the per-task state hold n tasks: fork steps add task
// slots while the simulation runs (sim.Tasks grows).
func (p *protoTrace) growTasks(n int) {
	for i := len(p.running); i < n; i++ {
		name := p.s.TaskName(i)
		if len(name) > 15 {
			name = name[:15]
		}
		p.running = append(p.running, -1)
		p.outState = append(p.outState, ppStatePreempted)
		p.comms = append(p.comms, name)
	}
}

func (p *protoTrace) event(e *sim.Event) {
	s := p.s
	if e.Task >= 0 {
		p.growTasks(int(e.Task) + 1)
	}
	if p.wake.pending && !(e.Kind == sim.EvMigrate && e.Cause == sim.CauseWakeup && e.Task == p.wake.task && e.T == p.wake.t) {
		p.flushWake()
	}
	c := int(e.CPU)
	switch e.Kind {
	case sim.EvSwitch:
		// prev is the task this CPU ran (e.Arg names it too: after a
		// newidle pull, the task that blocked, as the kernel's __schedule()
		// reports it), tracked here so that the state written is its own.
		prev, next := p.cur[c], e.Task
		if prev < 0 && next < 0 {
			// A CPU that left idle for a wake-up whose task was taken
			// elsewhere goes back to idle: the kernel's __schedule() picks
			// the idle task again (prev == next) and traces no switch.
			break
		}
		state := int64(0)
		if prev >= 0 {
			state = p.outState[prev]
			p.running[prev] = -1
		}
		w := p.ftrace(c, e.T, ppPID(prev))
		w.begin(fEvSchedSwitch)
		w.string(fSwitchPrevComm, p.comm(prev, c))
		w.int(fSwitchPrevPID, ppPID(prev))
		w.int(fSwitchPrevPrio, p.prio(prev))
		w.int(fSwitchPrevState, state)
		w.string(fSwitchNextComm, p.comm(next, c))
		w.int(fSwitchNextPID, ppPID(next))
		w.int(fSwitchNextPrio, p.prio(next))
		w.end()
		w.end()
		p.cur[c] = next
		if next >= 0 {
			p.running[next] = c
			p.outState[next] = ppStatePreempted
		}
	case sim.EvBlock:
		p.outState[e.Task] = ppStateSleeping
	case sim.EvExit:
		p.outState[e.Task] = ppStateDead
		w := p.ftrace(c, e.T, ppPID(e.Task))
		w.begin(fEvSchedProcExit)
		w.string(fExitComm, p.comm(e.Task, c))
		w.int(fExitPID, ppPID(e.Task))
		w.int(fExitTgid, ppPID(e.Task))
		w.int(fExitPrio, p.prio(e.Task))
		w.end()
		w.end()
	case sim.EvWakeup:
		// The waker's CPU; a timer fires on the task's previous CPU.
		wc := int(e.From)
		if e.Arg >= 0 && int(e.Arg) < len(p.running) && p.running[e.Arg] >= 0 {
			wc = p.running[e.Arg]
		}
		if wc < 0 || wc >= len(p.cur) {
			wc = c
		}
		p.wakeEvent(fEvSchedWaking, wc, e.T, ppPID(p.cur[wc]), e.Task, c)
		p.wake = ppWake{task: e.Task, t: e.T, waker: wc, cpu: wc, ctx: p.cur[wc], pending: true}
		if wc != c {
			p.wake.cpu, p.wake.ctx = c, p.cur[c]
		}
	case sim.EvMigrate:
		ctx := c // the CPU doing the move
		switch {
		case e.Cause == sim.CauseWakeup && p.wake.pending && p.wake.task == e.Task:
			ctx = p.wake.waker // set_task_cpu() inside try_to_wake_up()
		case e.Cause == sim.CauseActive:
			ctx = int(e.From) // the stopper runs on the busiest CPU
		default:
			if d, ok := s.Decision(e.Why); ok && d.This >= 0 && int(d.This) < len(p.cur) {
				ctx = int(d.This)
			}
		}
		if ctx < 0 || ctx >= len(p.cur) {
			ctx = c
		}
		w := p.ftrace(ctx, e.T, ppPID(p.cur[ctx]))
		w.begin(fEvSchedMigrate)
		w.string(fMigrateComm, p.comm(e.Task, c))
		w.int(fMigratePID, ppPID(e.Task))
		w.int(fMigratePrio, p.prio(e.Task))
		w.int(fMigrateOrigCPU, int64(p.s.Topology().Label(int(e.From))))
		w.int(fMigrateDestCPU, int64(p.s.Topology().Label(int(e.CPU))))
		w.int(fMigrateRunning, 0)
		w.end()
		w.end()
		p.flushWake()
		p.decision(e, "migrate:"+e.Cause.String(), ctx)
	case sim.EvFork:
		pc := int(e.From)
		if pc < 0 || pc >= len(p.cur) {
			pc = c
		}
		comm := p.comm(e.Task, c)
		w := p.ftrace(pc, e.T, ppLauncherPID)
		w.begin(fEvTaskNewtask)
		w.int(fNewtaskPID, ppPID(e.Task))
		w.string(fNewtaskComm, comm)
		w.uint(fNewtaskCloneFlags, ppCloneFlags)
		w.int(fNewtaskOOMAdj, 0)
		w.end()
		w.end()
		w = p.ftrace(pc, e.T, ppLauncherPID)
		w.begin(fEvSchedProcFork)
		w.string(fForkParentComm, ppLauncher)
		w.int(fForkParentPID, ppLauncherPID)
		w.string(fForkChildComm, comm)
		w.int(fForkChildPID, ppPID(e.Task))
		w.end()
		w.end()
		p.wakeEvent(fEvSchedWakeupNew, pc, e.T, ppLauncherPID, e.Task, c)
		// The new process, as process_stats would record it.
		pw := p.packet(e.T + 1)
		pw.begin(fPktProcessTree)
		p.process(pw, ppPID(e.Task), ppLauncherPID, s.TaskName(int(e.Task)))
		p.thread(pw, ppPID(e.Task), s.TaskName(int(e.Task)))
		pw.end()
		p.done(ppSeqTrack)
		p.decision(e, "fork", pc)
	case sim.EvBalance:
		p.decision(e, "balance:"+sim.Level(e.Level).String(), c)
	}
	if len(p.cpuEv[c].b) > ppMaxBundle {
		p.flushBundles(false)
	}
}

// decision writes an instant on cpu's decisions track with the event's
// decision as debug annotations.
func (p *protoTrace) decision(e *sim.Event, name string, cpu int) {
	s := p.s
	w := p.packet(e.T)
	w.begin(fPktTrackEvent)
	w.uint(fTEType, teInstant)
	w.uint(fTETrackUUID, ppDecisionUUID+uint64(cpu))
	w.string(fTECategories, "sched")
	w.string(fTEName, name)
	da := func(key string) { w.begin(fTEDebug); w.string(fDAName, key) }
	if e.Task >= 0 {
		da("task")
		w.string(fDAString, s.TaskName(int(e.Task)))
		w.end()
	}
	da("cpu")
	w.int(fDAInt, int64(s.Topology().Label(int(e.CPU))))
	w.end()
	if e.From >= 0 {
		da("from")
		w.int(fDAInt, int64(s.Topology().Label(int(e.From))))
		w.end()
		if e.Kind == sim.EvMigrate {
			da("distance")
			w.string(fDAString, s.Topology().Distance(int(e.From), int(e.CPU)).String())
			w.end()
		}
	}
	if e.Cause != sim.CauseNone {
		da("cause")
		w.string(fDAString, e.Cause.String())
		w.end()
	}
	if e.Level >= 0 {
		da("level")
		w.string(fDAString, sim.Level(e.Level).String())
		w.end()
	}
	if e.Kind == sim.EvBalance {
		da("moved")
		w.int(fDAInt, int64(e.Arg))
		w.end()
	}
	if d, ok := s.Decision(e.Why); ok {
		da("decision")
		w.string(fDAString, d.Text(s.TaskName))
		w.end()
		if d.NNums > 0 {
			da("numbers")
			for i := 0; i < d.NNums; i++ {
				// A decision over several domain levels repeats its keys
				// (this_load at SMT, then at MC): the second is key#2.
				key, n := d.Nums[i].K, 1
				for j := 0; j < i; j++ {
					if d.Nums[j].K == d.Nums[i].K {
						n++
					}
				}
				if n > 1 {
					key += "#" + strconv.Itoa(n)
				}
				w.begin(fDADict)
				w.string(fDAName, key)
				w.int(fDAInt, d.Nums[i].V)
				w.end()
			}
			w.end()
		}
	}
	w.end()
	p.done(ppSeqTrack)
}

// sample writes the counters that changed and the pending ftrace bundles.
func (p *protoTrace) sample(snap *sim.Snapshot) {
	p.flushWake()
	p.flushBundles(true)
	counter := func(uuid uint64, v int64) {
		w := p.packet(snap.Now)
		w.begin(fPktTrackEvent)
		w.uint(fTEType, teCounter)
		w.uint(fTETrackUUID, uuid)
		w.int(fTECounterValue, v)
		w.end()
		p.done(ppSeqTrack)
	}
	for c := range snap.CPUs {
		cs := &snap.CPUs[c]
		nr, util := int64(cs.NrRunning), cs.UtilAvg
		if nr != p.lastNr[c] {
			counter(ppNrUUID+uint64(c), nr)
		}
		if util != p.lastUtil[c] {
			counter(ppUtilUUID+uint64(c), util)
		}
		p.lastNr[c], p.lastUtil[c] = nr, util
	}
}

// flushBundles writes each CPU's pending events as one FtraceEventBundle
// packet (all CPUs, or only those past ppMaxBundle).
func (p *protoTrace) flushBundles(all bool) {
	for c := range p.cpuEv {
		ev := &p.cpuEv[c]
		if len(ev.b) == 0 || (!all && len(ev.b) <= ppMaxBundle) {
			continue
		}
		w := p.packet(-1)
		w.begin(fPktFtraceEvents)
		w.uint(fBundleCPU, uint64(p.s.Topology().Label(c)))
		w.raw(ev.b)
		w.end()
		p.done(ppSeqFtrace)
		ev.reset()
	}
}
