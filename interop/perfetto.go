package interop

import (
	"bufio"
	"io"
	"strconv"

	"schedplay/sim"
)

// Track ids of the Perfetto export. The machine is process 1; each CPU has
// two threads: "cpuN" (tid 1000+N) carries the task slices and the wake-up
// flows, "cpuN events" (tid 2000+N) the instant events (forks, migrations,
// balance passes). Instants live on their own track because a thread-scoped
// instant is a zero-length slice in Perfetto: on the task track it would
// capture the flow arrows meant for the task slice around it.
const (
	perfettoPID       = 1
	perfettoTaskTID   = 1000
	perfettoEventsTID = 2000
)

// Why a task slice ended, written as the slice's "end" argument.
const (
	endPreempt uint8 = iota // switched out while still runnable
	endSleep                // blocked (sleep, timer or wait)
	endExit                 // exited
)

var endNames = [...]string{"preempted", "blocked", "exited"}

// WritePerfetto runs s from its current time to opt's end and writes the run
// as a Chrome trace-event JSON file, which Perfetto's UI (ui.perfetto.dev)
// and chrome://tracing open:
//
//   - one process for the machine, one thread "cpuN" per CPU whose slices
//     ("X" events, named after the task) are the intervals the task ran
//     there, with args task id and why the slice ended
//     (preempted/blocked/exited/running);
//   - a flow ("s"/"f", category "wakeup", ids counting the wake-ups by a
//     running task from 1) from the waker's slice to the slice in which the
//     woken task next runs (timer wake-ups have no waker and no flow);
//   - on thread "cpuN events", instant events ("i") for forks
//     ("fork"), migrations ("migrate:CAUSE", on the destination CPU) and
//     load-balance passes ("balance:LEVEL", on the balancing CPU), with the
//     simulator's decision in their args: the kernel path and reason in
//     words, the CPUs examined and the numbers compared;
//   - per CPU a counter ("C") named "cpuN" with series nr_running and
//     util_avg (PELT, 0..1024), sampled every opt.Interval and written when
//     either changes.
//
// Timestamps are microseconds with the simulator's nanoseconds kept as three
// decimals. Flow end points are placed strictly inside their slices (at most
// 1 ns from the wake-up or the switch) so that every viewer binds them to
// the right slice. The output depends only on the run: the same scenario
// gives byte-identical files.
func WritePerfetto(w io.Writer, s *sim.Sim, opt Options) error {
	p := newPerfetto(w, s)
	p.header()
	drive(s, opt, p)
	p.finish(s.Now())
	return p.bw.Flush()
}

type pfFlow struct {
	id           int64
	wakeT        int64
	sCPU, fCPU   int
	sTS, fTS     int64
	sDone, fDone bool
	dead         bool // superseded before the wakee ran
}

type pfSlice struct {
	task  int32 // -1: idle
	start int64
	out   []*pfFlow // flows from this slice (this task woke others)
	in    *pfFlow   // the flow that ends in this slice
}

type perfetto struct {
	bw       *bufio.Writer
	s        *sim.Sim
	b        []byte
	first    bool
	cpus     []pfSlice
	running  []int     // per task: CPU it runs on, -1
	end      []uint8   // per task: why its current slice will end
	pending  []*pfFlow // per task: the wake-up flow waiting for its next slice
	nextFlow int64
	lastNr   []int64
	lastUtil []int64
}

func newPerfetto(w io.Writer, s *sim.Sim) *perfetto {
	n, nt := s.Topology().NCPU, len(s.Tasks())
	p := &perfetto{bw: bufio.NewWriterSize(w, 64<<10), s: s, first: true,
		cpus: make([]pfSlice, n), running: make([]int, nt), end: make([]uint8, nt),
		pending: make([]*pfFlow, nt), lastNr: make([]int64, n), lastUtil: make([]int64, n)}
	for i := range p.cpus {
		p.cpus[i].task = -1
		p.lastNr[i], p.lastUtil[i] = -1, -1
	}
	for i := range p.running {
		p.running[i] = -1
	}
	return p
}

// line writes one event (p.b, without the trailing comma) to the array.
func (p *perfetto) line() {
	if !p.first {
		p.bw.WriteString(",\n")
	}
	p.first = false
	p.bw.Write(p.b)
}

func (p *perfetto) header() {
	cfg := p.s.Config()
	b := []byte(`{"displayTimeUnit":"ns","otherData":{"generator":"schedplay","title":`)
	b = appendJSONString(b, cfg.Title)
	b = append(b, `,"seed":"`...)
	b = strconv.AppendUint(b, cfg.Seed, 10)
	b = append(b, `","base":"`...)
	b = append(b, p.s.EraName()...)
	b = append(b, `","cpus":"`...)
	b = strconv.AppendInt(b, int64(len(p.cpus)), 10)
	b = append(b, `"},"traceEvents":[`+"\n"...)
	p.bw.Write(b)

	name := "schedplay"
	if cfg.Title != "" {
		name += ": " + cfg.Title
	}
	p.b = append(p.b[:0], `{"ph":"M","name":"process_name","pid":1,"args":{"name":`...)
	p.b = appendJSONString(p.b, name)
	p.b = append(p.b, "}}"...)
	p.line()
	for c := range p.cpus {
		for k, suffix := range []string{"", " events"} {
			tid := perfettoTaskTID + c
			if k == 1 {
				tid = perfettoEventsTID + c
			}
			p.b = append(p.b[:0], `{"ph":"M","name":"thread_name","pid":1,"tid":`...)
			p.b = strconv.AppendInt(p.b, int64(tid), 10)
			p.b = append(p.b, `,"args":{"name":"cpu`...)
			p.b = strconv.AppendInt(p.b, int64(p.s.Topology().Label(c)), 10) // the kernel's number
			p.b = append(p.b, suffix...)
			p.b = append(p.b, `"}}`...)
			p.line()
			p.b = append(p.b[:0], `{"ph":"M","name":"thread_sort_index","pid":1,"tid":`...)
			p.b = strconv.AppendInt(p.b, int64(tid), 10)
			p.b = append(p.b, `,"args":{"sort_index":`...)
			p.b = strconv.AppendInt(p.b, int64(2*c+k), 10)
			p.b = append(p.b, "}}"...)
			p.line()
		}
	}
	// An export may start in the middle of a run: open the slices of the
	// tasks running now.
	var snap sim.Snapshot
	p.s.SnapshotInto(&snap)
	for c := range snap.CPUs {
		if t := snap.CPUs[c].Curr; t >= 0 {
			p.open(c, t, snap.Now)
		}
	}
}

// common starts an event: {"ph":PH,"pid":1,"tid":TID,"ts":TS
func (p *perfetto) common(ph byte, tid int, ts int64) {
	p.b = append(p.b[:0], `{"ph":"`...)
	p.b = append(p.b, ph)
	p.b = append(p.b, `","pid":1,"tid":`...)
	p.b = strconv.AppendInt(p.b, int64(tid), 10)
	p.b = append(p.b, `,"ts":`...)
	p.b = appendDecimal(p.b, ts, 3)
}

func (p *perfetto) str(key, val string) {
	p.b = append(p.b, ',', '"')
	p.b = append(p.b, key...)
	p.b = append(p.b, '"', ':')
	p.b = appendJSONString(p.b, val)
}

func (p *perfetto) num(key string, v int64) {
	p.b = append(p.b, ',', '"')
	p.b = append(p.b, key...)
	p.b = append(p.b, '"', ':')
	p.b = strconv.AppendInt(p.b, v, 10)
}

func (p *perfetto) event(e *sim.Event) {
	if e.Task >= 0 {
		p.growTasks(int(e.Task) + 1)
	}
	switch e.Kind {
	case sim.EvSwitch:
		c := int(e.CPU)
		p.close(c, e.T, false)
		if e.Task >= 0 {
			p.open(c, e.Task, e.T)
		}
	case sim.EvBlock:
		p.end[e.Task] = endSleep
	case sim.EvExit:
		p.end[e.Task] = endExit
	case sim.EvWakeup:
		if e.Arg < 0 || int(e.Arg) >= len(p.running) {
			return // a timer: no waker slice to start a flow from
		}
		wc := p.running[e.Arg]
		if wc < 0 {
			return
		}
		if old := p.pending[e.Task]; old != nil {
			old.dead = true
		}
		p.nextFlow++
		f := &pfFlow{id: p.nextFlow, wakeT: e.T, sCPU: wc}
		p.cpus[wc].out = append(p.cpus[wc].out, f)
		p.pending[e.Task] = f
	case sim.EvFork:
		p.instant(e, "fork")
	case sim.EvMigrate:
		p.instant(e, "migrate:"+e.Cause.String())
	case sim.EvBalance:
		p.instant(e, "balance:"+sim.Level(e.Level).String())
	}
}

// growTasks makes the per-task state hold n tasks: fork steps add task
// slots while the simulation runs (sim.Tasks grows).
func (p *perfetto) growTasks(n int) {
	for len(p.running) < n {
		p.running = append(p.running, -1)
		p.end = append(p.end, 0)
		p.pending = append(p.pending, nil)
	}
}

func (p *perfetto) open(c int, task int32, t int64) {
	sl := &p.cpus[c]
	sl.task, sl.start, sl.out, sl.in = task, t, sl.out[:0], nil
	p.running[task] = c
	p.end[task] = endPreempt
	if f := p.pending[task]; f != nil {
		sl.in = f
		p.pending[task] = nil
	}
}

// inside places a flow end point at t, moved strictly inside [start, end]
// when the slice is long enough (see WritePerfetto).
func inside(t, start, end int64) int64 {
	if end-start < 2 {
		return start
	}
	return max(start+1, min(t, end-1))
}

// close ends CPU c's slice at t: the "X" event, then the flows whose both
// ends are now known. atEnd: the export ends with the task still running.
func (p *perfetto) close(c int, t int64, atEnd bool) {
	sl := &p.cpus[c]
	if sl.task < 0 {
		return
	}
	task := sl.task
	p.common('X', perfettoTaskTID+c, sl.start)
	p.b = append(p.b, `,"dur":`...)
	p.b = appendDecimal(p.b, t-sl.start, 3)
	p.b = append(p.b, `,"cat":"task"`...)
	p.str("name", p.s.TaskName(int(task)))
	p.b = append(p.b, `,"args":{"task":`...)
	p.b = strconv.AppendInt(p.b, int64(task), 10)
	end := "running"
	if !atEnd {
		end = endNames[p.end[task]]
	}
	p.str("end", end)
	p.b = append(p.b, "}}"...)
	p.line()
	p.running[task] = -1
	for _, f := range sl.out {
		if f.dead {
			continue
		}
		f.sTS, f.sDone = inside(f.wakeT, sl.start, t), true
		if f.fDone {
			p.flow(f)
		}
	}
	if f := sl.in; f != nil && !f.dead {
		f.fCPU, f.fTS, f.fDone = c, inside(sl.start, sl.start, t), true
		if f.sDone {
			p.flow(f)
		}
	}
	sl.task, sl.out, sl.in = -1, sl.out[:0], nil
}

func (p *perfetto) flow(f *pfFlow) {
	for k, ph := range []byte{'s', 'f'} {
		c, ts := f.sCPU, f.sTS
		if k == 1 {
			c, ts = f.fCPU, f.fTS
		}
		p.common(ph, perfettoTaskTID+c, ts)
		p.b = append(p.b, `,"cat":"wakeup","name":"wakeup","id":`...)
		p.b = strconv.AppendInt(p.b, f.id, 10)
		if ph == 'f' {
			p.b = append(p.b, `,"bp":"e"`...)
		}
		p.b = append(p.b, '}')
		p.line()
	}
}

func (p *perfetto) instant(e *sim.Event, name string) {
	s := p.s
	p.common('i', perfettoEventsTID+int(e.CPU), e.T)
	p.b = append(p.b, `,"s":"t","cat":"sched"`...)
	p.str("name", name)
	p.b = append(p.b, `,"args":{"cpu":`...)
	p.b = strconv.AppendInt(p.b, int64(s.Topology().Label(int(e.CPU))), 10)
	if e.Task >= 0 {
		p.str("task", s.TaskName(int(e.Task)))
	}
	if e.From >= 0 {
		p.num("from", int64(e.From))
		if e.Kind == sim.EvMigrate {
			p.str("distance", s.Topology().Distance(int(e.From), int(e.CPU)).String())
		}
	}
	if e.Cause != sim.CauseNone {
		p.str("cause", e.Cause.String())
	}
	if e.Level >= 0 {
		p.str("level", sim.Level(e.Level).String())
	}
	if e.Kind == sim.EvBalance {
		p.num("moved", int64(e.Arg))
	}
	if d, ok := s.Decision(e.Why); ok {
		// The text has the path, reason, chosen CPU, level, CPUs and
		// groups examined, cost and numbers; the numbers are repeated as
		// numbers so that queries can use them.
		p.str("decision", d.Text(s.TaskName))
		if d.NNums > 0 {
			p.b = append(p.b, `,"numbers":{`...)
			for i := 0; i < d.NNums; i++ {
				if i > 0 {
					p.b = append(p.b, ',')
				}
				p.b = appendJSONString(p.b, d.Nums[i].K)
				p.b = append(p.b, ':')
				p.b = strconv.AppendInt(p.b, d.Nums[i].V, 10)
			}
			p.b = append(p.b, '}')
		}
	}
	p.b = append(p.b, "}}"...)
	p.line()
}

func (p *perfetto) sample(snap *sim.Snapshot) {
	for c := range snap.CPUs {
		cs := &snap.CPUs[c]
		nr, util := int64(cs.NrRunning), cs.UtilAvg
		if nr == p.lastNr[c] && util == p.lastUtil[c] {
			continue
		}
		p.lastNr[c], p.lastUtil[c] = nr, util
		p.b = append(p.b[:0], `{"ph":"C","pid":1,"ts":`...)
		p.b = appendDecimal(p.b, snap.Now, 3)
		p.b = append(p.b, `,"name":"cpu`...)
		p.b = strconv.AppendInt(p.b, int64(p.s.Topology().Label(c)), 10)
		p.b = append(p.b, `","args":{"nr_running":`...)
		p.b = strconv.AppendInt(p.b, nr, 10)
		p.b = append(p.b, `,"util_avg":`...)
		p.b = strconv.AppendInt(p.b, util, 10)
		p.b = append(p.b, "}}"...)
		p.line()
	}
}

// finish closes the slices still open at the end of the export (their end
// is "running") and the JSON document.
func (p *perfetto) finish(now int64) {
	for c := range p.cpus {
		p.close(c, now, true)
	}
	p.bw.WriteString("\n]}\n")
}
