package interop

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"schedplay/scenarios"
)

// FtraceOptions adjust ImportFtraceWith.
type FtraceOptions struct {
	// Machine replaces the guessed machine (the trace shows CPU numbers,
	// not their topology).
	Machine *scenarios.Machine
	// Comm, when set, keeps only tasks whose comm it accepts (schedsim
	// import -comm passes a regular expression's MatchString; the page's
	// module links no regular expressions).
	Comm func(comm string) bool
	// Progress, when set, is called now and then while the trace is
	// read (three passes over it) with the fraction done, in [0, 1].
	Progress func(frac float64)
}

// ImportFtrace turns a recorded sched trace (ParseFtrace's input) into a
// scenario: each traced task becomes a task whose program repeats what the
// kernel saw it do, tasks with the same comm (schedsim's "name/3" threads,
// or 8 "nginx" workers) become one group of that count.
//
// For every task the trace gives its CPU bursts (CPU time between a wake-up
// and the next block; preemptions inside a burst do not end it), what ended
// each block (a sched_waking issued by another traced task, or one from
// interrupt context or an untraced task: a timer), and the wake-ups it
// issued itself. A group becomes
//
//	[run B, wake H..., wait]   when most of its blocks were ended by traced tasks
//	[run B, wake H..., timer P] otherwise (P: the mean period between its wake-ups)
//
// with B the mean burst. A group most of whose tasks were woken by a
// traced task before they first woke one themselves was waiting for a
// token when the window opened: its program starts with the wait. A wake step to group H is added when the group
// woke H at least every other burst; its fanout is "waker" when at least
// 80 % of those wake-ups went to the task that had last woken the waker,
// "index" when they went to the same index (or H has one task), else "one".
// So a pair does not start with two tokens. A task that
// never blocked is a hog: [run B].
//
// What the trace cannot say is a Problem: WF_SYNC (sched_waking has no
// flag: sync is inferred, true when at least 70 % of the wake-ups put the
// wakee on the waker's CPU, as wake_affine() does for sync wake-ups), the
// topology (one LLC of the traced CPUs unless
// opt.Machine), real-time priorities, tasks dropped by the group limit.
func ImportFtrace(data []byte) (*scenarios.Scenario, []Problem, error) {
	return ImportFtraceWith(data, FtraceOptions{})
}

// ftTask is one traced pid while the trace is read.
type ftTask struct {
	pid, prio   int
	comm        string
	seen        bool // any event about it yet
	startsBlock bool // its first event was its wake-up: it was blocked
	running     bool
	runStart    int64
	blocked     bool
	blockStart  int64
	burst       int64
	nBursts     int64
	sumBurst    int64
	cpu         int64
	nBlocks     int64
	sumSleep    int64
	wokenBy     map[int]int64 // waker pid (-1: interrupt/none) -> count
	wakes       map[int]int64 // wakee pid -> count
	replies     int64         // wakes that went to the task that last woke this one
	lastWaker   int
	firstWake   int64
	lastWake    int64
	nWakes      int64
	lastCPU     int
	// subject: named by a non-switch event (woken, waking another task,
	// migrated): a task the recording was about, not only one that ran
	// between two of them on a CPU.
	subject bool
	// firstWoken, firstIssued: the first wake-up by a traced task it got,
	// and the first it issued to one (-1: none).
	firstWoken, firstIssued int64
	// affine: wake-ups it issued whose wakee was enqueued on the waker's
	// CPU (sched_wakeup's target_cpu), by wakee pid; pendWaker/pendCPU: the
	// waker and its CPU of this task's wake-up in flight.
	affine             map[int]int64
	pendWaker, pendCPU int
	// burstWoke: the tasks it woke in its current burst; multi: the most
	// distinct tasks of one group (by name) it woke in one burst.
	burstWoke map[int]bool
	multi     map[string]int64
}

// FtraceTask is one traced task as the importer measured it.
type FtraceTask struct {
	PID      int
	Comm     string
	CPUNS    int64 // CPU time inside the window
	Bursts   int64
	Blocks   int64
	WokenBy  map[int]int64 // waker pid, -1 for interrupt context / untraced
	Wakes    map[int]int64 // wakee pid -> wake-ups issued
	WindowNS int64
}

// Duty is the task's CPU share of the window.
func (t *FtraceTask) Duty() float64 { return float64(t.CPUNS) / float64(t.WindowNS) }

// FtraceTasks measures every task of a trace (pid 0, the idle task, left
// out) in the trace's window: between the "schedsim start" and "schedsim
// end" markers when the trace has them, else from its first to its last
// event. Sorted by pid.
func FtraceTasks(data []byte) ([]*FtraceTask, int, error) {
	tasks, ncpu, win, err := readFtrace(data, nil)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*FtraceTask, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, &FtraceTask{PID: t.pid, Comm: t.comm, CPUNS: t.cpu, Bursts: t.nBursts, Blocks: t.nBlocks,
			WokenBy: t.wokenBy, Wakes: t.wakes, WindowNS: win})
	}
	return out, ncpu, nil
}

// FtraceClock maps a trace's timestamps to nanoseconds. Traces in a
// nanosecond clock need nothing; raw counters (x86-tsc) are scaled by two
// or more "schedsim clock <ns>" markers (schedsim real writes them).
type FtraceClock struct {
	raw    bool
	r0, n0 int64
	scale  float64
}

// NS converts a timestamp.
func (c *FtraceClock) NS(ts int64) int64 {
	if !c.raw {
		return ts
	}
	return c.n0 + int64(math.Round(float64(ts-c.r0)*c.scale))
}

// NewFtraceClock scans the trace's markers and returns its clock.
func NewFtraceClock(data []byte) (*FtraceClock, error) {
	return newFtraceClock(data, nil)
}

func newFtraceClock(data []byte, tick func(int)) (*FtraceClock, error) {
	c := &FtraceClock{}
	var rs, ns []int64
	err := parseFtrace(data, func(e *FtraceEvent) error {
		if e.RawClock {
			c.raw = true
		}
		if e.Kind == FtraceMarker {
			if v, ok := strings.CutPrefix(e.Text, "schedsim clock "); ok {
				n, err := strconv.ParseInt(firstField(v), 10, 64)
				if err != nil {
					return fmt.Errorf("line %d: schedsim clock marker: %q is not a number", e.Line, v)
				}
				rs, ns = append(rs, e.TS), append(ns, n)
			}
		}
		return nil
	}, tick)
	if err != nil {
		return nil, err
	}
	if !c.raw {
		return c, nil
	}
	if len(rs) < 2 || rs[len(rs)-1] == rs[0] {
		return nil, fmt.Errorf("the timestamps are raw counter values (trace_clock x86-tsc or counter) and the trace has no two \"schedsim clock\" markers to scale them: record with trace_clock mono, local or global")
	}
	c.r0, c.n0 = rs[0], ns[0]
	c.scale = float64(ns[len(ns)-1]-ns[0]) / float64(rs[len(rs)-1]-rs[0])
	return c, nil
}

// readFtrace runs the per-task accounting over a trace.
func readFtrace(data []byte, progress func(float64)) (map[int]*ftTask, int, int64, error) {
	// Three passes (the clock, the window, the accounting): progress is
	// the bytes read over three times the trace's size.
	var tick [3]func(int)
	for i := range tick {
		if progress != nil && len(data) > 0 {
			tick[i] = func(read int) { progress((float64(i) + float64(read)/float64(len(data))) / 3) }
		}
	}
	clk, err := newFtraceClock(data, tick[0])
	if err != nil {
		return nil, 0, 0, err
	}
	// Window: markers, else the events' span.
	var start, end int64 = -1, -1
	var first, last int64 = -1, -1
	nSched := 0
	err = parseFtrace(data, func(e *FtraceEvent) error {
		ts := clk.NS(e.TS)
		if first < 0 {
			first = ts
		}
		if ts < last {
			return fmt.Errorf("line %d: timestamp goes backwards (the trace must be one merged, time-ordered listing)", e.Line)
		}
		last = ts
		switch e.Kind {
		case FtraceMarker:
			if strings.HasPrefix(e.Text, "schedsim start") {
				start = ts
			} else if strings.HasPrefix(e.Text, "schedsim end") {
				end = ts
			}
		case FtraceSwitch:
			nSched++
		}
		return nil
	}, tick[1])
	if err != nil {
		return nil, 0, 0, err
	}
	if nSched == 0 {
		return nil, 0, 0, fmt.Errorf("no sched_switch events: not a scheduler trace (enable events/sched/sched_switch, sched_waking)")
	}
	if start < 0 {
		start = first
	}
	if end < 0 || end <= start {
		end = last
	}
	if end <= start {
		return nil, 0, 0, fmt.Errorf("the trace spans no time")
	}
	tasks := map[int]*ftTask{}
	get := func(pid int, comm string) *ftTask {
		t := tasks[pid]
		if t == nil {
			t = &ftTask{pid: pid, comm: comm, lastWaker: -1, firstWoken: -1, firstIssued: -1, affine: map[int]int64{}, pendWaker: -1, burstWoke: map[int]bool{}, multi: map[string]int64{}, wokenBy: map[int]int64{}, wakes: map[int]int64{}, lastCPU: -1}
			tasks[pid] = t
		}
		return t
	}
	maxCPU := 0
	err = parseFtrace(data, RepairFtrace(nil, func(e *FtraceEvent) error {
		ts := clk.NS(e.TS)
		maxCPU = max(maxCPU, e.CPU)
		if ts < start || ts > end {
			return nil
		}
		switch e.Kind {
		case FtraceSwitch:
			if e.PrevPID != 0 {
				p := get(e.PrevPID, e.PrevComm)
				p.seen = true
				p.prio = e.PrevPrio
				if p.running {
					d := ts - p.runStart
					p.cpu += d
					p.burst += d
				}
				p.running = false
				if !e.Preempted() {
					if p.burst > 0 || p.nBursts > 0 || p.nBlocks > 0 {
						p.nBursts++
						p.sumBurst += p.burst
					}
					p.burst = 0
					clear(p.burstWoke)
					p.blocked, p.blockStart = true, ts
				}
			}
			if e.NextPID != 0 {
				n := get(e.NextPID, e.NextComm)
				n.seen = true
				n.prio = e.NextPrio
				n.running, n.runStart = true, ts
				n.lastCPU = e.CPU
			}
		case FtraceWakeup:
			if e.TPID == 0 {
				return nil
			}
			w := get(e.TPID, e.TComm)
			if w.pendWaker >= 0 && e.TargetCPU == w.pendCPU {
				get(w.pendWaker, "").affine[e.TPID]++
			}
			w.pendWaker = -1
		case FtraceMigrate, FtraceWakeupNew, FtraceExit:
			if e.TPID != 0 {
				get(e.TPID, e.TComm).subject = true
			}
		case FtraceWaking:
			if e.TPID == 0 {
				return nil
			}
			w := get(e.TPID, e.TComm)
			w.subject = true
			waker := -1
			if !e.InIRQ() && e.PID != 0 && e.PID != e.TPID {
				waker = e.PID
			}
			if !w.seen {
				w.seen = true
				w.blocked, w.blockStart = true, start
			}
			if waker >= 0 && w.firstWoken < 0 {
				w.firstWoken = ts
			}
			if w.blocked {
				w.blocked = false
				w.nBlocks++
				w.sumSleep += ts - w.blockStart
				w.wokenBy[waker]++
				if w.nWakes == 0 {
					w.firstWake = ts
				}
				w.nWakes++
				w.lastWake = ts
			}
			if waker >= 0 {
				x := get(waker, e.Comm)
				x.seen, x.subject = true, true
				if x.firstIssued < 0 {
					x.firstIssued = ts
				}
				x.wakes[e.TPID]++
				if !x.burstWoke[e.TPID] && len(x.burstWoke) < 256 {
					x.burstWoke[e.TPID] = true
					n := int64(0)
					gn := groupName(e.TComm)
					for pid := range x.burstWoke {
						if t := tasks[pid]; t != nil && groupName(t.comm) == gn {
							n++
						}
					}
					x.multi[gn] = max(x.multi[gn], n)
				}
				w.pendWaker, w.pendCPU = waker, e.CPU
				if x.lastWaker == e.TPID {
					x.replies++
				}
				w.lastWaker = waker
			}
		}
		return nil
	}), tick[2])
	if err != nil {
		return nil, 0, 0, err
	}
	for _, t := range tasks { // close the open runs at the window's end
		t.startsBlock = t.firstWoken >= 0 && (t.firstIssued < 0 || t.firstWoken < t.firstIssued)
		if t.running {
			t.cpu += end - t.runStart
			t.burst += end - t.runStart
		}
		if t.nBursts == 0 && t.burst > 0 {
			t.nBursts, t.sumBurst = 1, t.burst
		}
	}
	return tasks, max(maxCPU+1, headerCPUs(data)), end - start, nil
}

// headerCPUs reads the CPU count from a trace's header: tracefs prints
// "#P:2" on its entries line, trace-cmd report "cpus=2"; 0 if neither.
func headerCPUs(data []byte) int {
	head := string(data[:min(len(data), 4096)])
	for _, key := range []string{"#P:", "cpus="} {
		if i := strings.Index(head, key); i >= 0 {
			j := i + len(key)
			k := j
			for k < len(head) && head[k] >= '0' && head[k] <= '9' && k-j < 5 {
				k++
			}
			if n, err := strconv.Atoi(head[j:k]); err == nil && n > 0 && n <= scenarios.MaxCPUs {
				return n
			}
		}
	}
	return 0
}

// schedsimGroup returns the group of a schedsim thread's comm, "name" of
// "name/3": the text before a last '/' followed by one or more ASCII digits
// to the end, if that text is not empty and holds no newline (as the
// regular expression ^(.*)/[0-9]+$ would take it; the test checks both
// agree).
func schedsimGroup(comm string) (string, bool) {
	i := strings.LastIndexByte(comm, '/')
	if i <= 0 || i == len(comm)-1 || strings.IndexByte(comm[:i], '\n') >= 0 {
		return "", false
	}
	for j := i + 1; j < len(comm); j++ {
		if comm[j] < '0' || comm[j] > '9' {
			return "", false
		}
	}
	return comm[:i], true
}

// groupName is the group a comm belongs to: schedsim's "name/3" -> "name";
// other comms as they are, made a valid task name.
func groupName(comm string) string {
	if g, ok := schedsimGroup(comm); ok {
		comm = g
	}
	b := []byte(comm)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 32 {
		b = b[:32]
	}
	if len(b) == 0 {
		return "task"
	}
	return string(b)
}

// minShare: a task with less CPU than this share of the window and fewer
// than minBlocks wake-ups is background noise, not part of the workload.
const (
	minShare  = 0.005
	minBlocks = 10
)

// ImportFtraceWith is ImportFtrace with options.
func ImportFtraceWith(data []byte, opt FtraceOptions) (*scenarios.Scenario, []Problem, error) {
	var probs problems
	tasks, ncpu, win, err := readFtrace(data, opt.Progress)
	if err != nil {
		return nil, nil, err
	}
	// Keep the workload's tasks.
	var pids, onlySwitched []int
	for pid, t := range tasks {
		if opt.Comm != nil && !opt.Comm(t.comm) {
			continue
		}
		if float64(t.cpu) < minShare*float64(win) && t.nBlocks < minBlocks {
			continue
		}
		if !t.subject && opt.Comm == nil {
			onlySwitched = append(onlySwitched, pid)
			continue
		}
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	if len(onlySwitched) > 0 {
		sort.Ints(onlySwitched)
		var names []string
		for i, pid := range onlySwitched {
			if i == 8 {
				names = append(names, fmt.Sprintf("and %d more", len(onlySwitched)-8))
				break
			}
			names = append(names, fmt.Sprintf("%s-%d", tasks[pid].comm, pid))
		}
		probs.add("tasks", "left out %d tasks that appear only in sched_switch lines (no wake-up or migration of theirs was traced: a filtered recording's neighbours, or hogs; -comm REGEXP imports them): %s",
			len(onlySwitched), strings.Join(names, ", "))
	}
	if len(pids) == 0 {
		return nil, nil, fmt.Errorf("no task in the trace ran %.1f%% of the time or woke %d times%s", 100*minShare, minBlocks, map[bool]string{true: " (and matched -comm)", false: ""}[opt.Comm != nil])
	}
	// Groups by name, biggest CPU users first when there are too many.
	type group struct {
		name    string
		members []*ftTask
		cpu     int64
		index   map[int]int // pid -> instance index
	}
	byName := map[string]*group{}
	var groups []*group
	for _, pid := range pids {
		t := tasks[pid]
		n := groupName(t.comm)
		g := byName[n]
		if g == nil {
			g = &group{name: n, index: map[int]int{}}
			byName[n] = g
			groups = append(groups, g)
		}
		g.index[pid] = len(g.members)
		g.members = append(g.members, t)
		g.cpu += t.cpu
	}
	if len(groups) > scenarios.MaxTaskGroups {
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].cpu > groups[j].cpu })
		for _, g := range groups[scenarios.MaxTaskGroups:] {
			probs.add("task "+g.name, "dropped: a scenario has at most %d task groups (these used the least CPU)", scenarios.MaxTaskGroups)
			for _, m := range g.members {
				delete(byName, g.name)
				_ = m
			}
		}
		groups = groups[:scenarios.MaxTaskGroups]
	}
	inst := 0
	for _, g := range groups {
		if inst+len(g.members) > scenarios.MaxInstances {
			return nil, probs, fmt.Errorf("the trace has more than %d tasks to import", scenarios.MaxInstances)
		}
		inst += len(g.members)
	}
	groupOf := map[int]*group{}
	for _, g := range groups {
		for _, m := range g.members {
			groupOf[m.pid] = g
		}
	}
	dur := func(ns int64) string {
		d := time.Duration(max(ns, 1000)).Round(time.Microsecond)
		return d.String()
	}
	s := &scenarios.Scenario{
		Version: scenarios.Version,
		Title:   "Imported from an ftrace sched trace",
		Seed:    scenarios.DefaultSeed,
		Policy:  scenarios.Policy{Base: scenarios.DefaultBase},
	}
	winMS := max(int64(math.Round(float64(win)/1e6)), 1)
	s.Duration = (time.Duration(min(winMS, int64(scenarios.MaxDuration/time.Millisecond))) * time.Millisecond).String()
	if opt.Machine != nil {
		s.Machine = *opt.Machine
	} else {
		s.Machine = scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1,
			CoresPerCluster: ncpu, ThreadsPerCore: 1, HZ: scenarios.DefaultHZ, Numbering: scenarios.DefaultNumbering}
		probs.add("machine", "the trace shows %d CPUs but not their topology: one LLC of %d cores without SMT assumed (schedsim import -machine FILE gives the real one)", ncpu, ncpu)
	}
	// Pass 1: per group, its measurements and its wake steps.
	type wk struct {
		h                              *group
		n, reply, index, affine, multi int64
		fan                            string
		sync                           bool
		perBurst                       float64
	}
	type plan struct {
		bursts, sumBurst, blocks, byTask, startsBlocked, nWakes, span, cpu int64
		prio                                                               int
		wks                                                                []*wk
	}
	plans := make([]*plan, len(groups))
	for gi, g := range groups {
		pl := &plan{}
		plans[gi] = pl
		for _, m := range g.members {
			pl.bursts += m.nBursts
			pl.sumBurst += m.sumBurst
			pl.blocks += m.nBlocks
			pl.cpu += m.cpu
			pl.prio += m.prio
			for w, n := range m.wokenBy {
				if groupOf[w] != nil {
					pl.byTask += n
				}
			}
			if m.startsBlock {
				pl.startsBlocked++
			}
			if m.nWakes > 1 {
				pl.nWakes += m.nWakes - 1
				pl.span += m.lastWake - m.firstWake
			}
		}
		pl.prio /= len(g.members)
		wkOf := map[*group]*wk{}
		var replies int64
		for _, m := range g.members {
			replies += m.replies
			for pid, n := range m.wakes {
				h := groupOf[pid]
				if h == nil {
					continue
				}
				w := wkOf[h]
				if w == nil {
					w = &wk{h: h}
					wkOf[h] = w
					pl.wks = append(pl.wks, w)
				}
				w.n += n
				w.affine += m.affine[pid]
				if h.index[pid] == g.index[m.pid]%len(h.members) {
					w.index += n
				}
			}
			for name, k := range m.multi {
				if h := byName[name]; h != nil && wkOf[h] != nil {
					wkOf[h].multi = max(wkOf[h].multi, k)
				}
			}
		}
		sort.Slice(pl.wks, func(i, j int) bool { return pl.wks[i].h.name < pl.wks[j].h.name })
		kept := pl.wks[:0]
		for _, w := range pl.wks {
			w.perBurst = float64(w.n) / float64(max(pl.bursts, 1))
			if w.perBurst < 0.25 {
				continue
			}
			w.fan = "one"
			switch {
			case float64(replies) >= 0.8*float64(w.n) && len(w.h.members) > 1:
				w.fan = "waker"
			case len(w.h.members) > 1 && w.multi >= int64(len(w.h.members)):
				w.fan = "all"
			case len(w.h.members) == 1 || float64(w.index) >= 0.8*float64(w.n):
				w.fan = "index"
			}
			w.sync = float64(w.affine) >= 0.7*float64(w.n)
			kept = append(kept, w)
		}
		pl.wks = kept
	}
	// Tokens each group receives in the imported scenario: one per burst
	// of each waker group (every member's, with fanout all).
	tokens := make(map[*group]int64)
	for gi, g := range groups {
		for _, w := range plans[gi].wks {
			n := plans[gi].bursts
			if w.fan == "all" {
				n *= int64(len(w.h.members))
			}
			tokens[w.h] += n
			_ = g
		}
	}
	// Pass 2: the programs.
	var desc []string
	for gi, g := range groups {
		pl := plans[gi]
		path := fmt.Sprintf("tasks[%d]", gi)
		t := scenarios.Task{Name: g.name, Count: len(g.members)}
		switch {
		case pl.prio >= 100 && pl.prio <= 139:
			t.Nice = pl.prio - 120
		default:
			probs.add(path+".nice", "prio %d is a real-time or deadline priority, which the simulator does not model: nice 0", pl.prio)
		}
		burst := int64(0)
		if pl.bursts > 0 {
			burst = pl.sumBurst / pl.bursts
		}
		share := 100 * float64(pl.cpu) / float64(win) / float64(t.Count)
		if pl.blocks == 0 {
			t.Program = []scenarios.Step{{Run: dur(burst)}}
			s.Tasks = append(s.Tasks, t)
			desc = append(desc, fmt.Sprintf("%s (%d): never blocked, a hog (%.1f%% CPU)", g.name, t.Count, share))
			continue
		}
		woken := float64(pl.byTask) >= 0.5*float64(pl.blocks)
		if woken && tokens[g] > 0 {
			// A token-driven group: its CPU time spread over the tokens it
			// will receive (wake-ups to a task that is still running are
			// not in the trace, so its bursts may span several).
			burst = pl.cpu / tokens[g]
		}
		prog := []scenarios.Step{{Run: dur(burst)}}
		var rel []string
		for _, w := range pl.wks {
			prog = append(prog, scenarios.Step{Wake: w.h.name, Fanout: w.fan, Sync: w.sync})
			probs.add(fmt.Sprintf("%s.program[%d].sync", path, len(prog)-1),
				"a sched trace does not show WF_SYNC: sync %v inferred from placement (%.0f%% of these wake-ups enqueued the wakee on the waker's CPU)", w.sync, 100*float64(w.affine)/float64(w.n))
			rel = append(rel, fmt.Sprintf("wakes %s (%.2f traced wake-ups per burst, fanout %s, sync %v)", w.h.name, w.perBurst, w.fan, w.sync))
		}
		how := ""
		if woken {
			prog = append(prog, scenarios.Step{Wait: true})
			if 2*pl.startsBlocked > int64(len(g.members)) {
				prog = append([]scenarios.Step{{Wait: true}}, prog[:len(prog)-1]...)
			}
			how = fmt.Sprintf("woken by traced tasks %.0f%% of the time", 100*float64(pl.byTask)/float64(pl.blocks))
		} else {
			period := int64(0)
			if pl.nWakes > 0 {
				period = pl.span / pl.nWakes
			}
			if period > burst && time.Duration(period) >= scenarios.MinTimer {
				prog = append(prog, scenarios.Step{Timer: dur(period)})
				how = "a timer of " + dur(period)
			} else {
				n := int64(len(g.members))
				prog = append(prog, scenarios.Step{Sleep: dur(max(0, (win-pl.cpu/n)/max(pl.blocks/n, 1)))})
				how = "sleeps"
			}
		}
		if len(prog) > scenarios.MaxSteps {
			prog = prog[:scenarios.MaxSteps]
			probs.add(path+".program", "cut to %d steps", scenarios.MaxSteps)
		}
		t.Program = prog
		s.Tasks = append(s.Tasks, t)
		desc = append(desc, fmt.Sprintf("%s (%d): runs of %s, %s, %.1f%% CPU each%s", g.name, t.Count, dur(burst), how,
			share, strings.Join(append([]string{""}, rel...), "; ")))
	}
	s.Description = "Derived from a sched trace of " + s.Duration + " on " + strconv.Itoa(ncpu) + " CPUs. " + strings.Join(desc, ". ") + "."
	if len([]rune(s.Description)) > scenarios.MaxDescription {
		s.Description = string([]rune(s.Description)[:scenarios.MaxDescription])
	}
	out, err := scenarios.Decode(s.Canonical())
	if err != nil {
		return nil, probs, fmt.Errorf("internal error: the imported scenario is invalid: %v", err)
	}
	return out, probs, nil
}
