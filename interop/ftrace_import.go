package interop

import (
	"fmt"
	"math"
	"regexp"
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
	// Comm, when set, keeps only tasks whose comm matches.
	Comm *regexp.Regexp
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
// with B the mean burst. A wake step to group H is added when the group
// woke H at least every other burst; its fanout is "waker" when at least
// 80 % of those wake-ups went to the task that had last woken the waker,
// "index" when they went to the same index (or H has one task), else "one".
// A group whose tasks were blocked when the trace began starts with its
// wait (a server), so a pair does not start with two tokens. A task that
// never blocked is a hog: [run B].
//
// What the trace cannot say is a Problem: WF_SYNC (sched_waking has no
// flag: sync stays false), the topology (one LLC of the traced CPUs unless
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
	tasks, ncpu, win, err := readFtrace(data)
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
	c := &FtraceClock{}
	var rs, ns []int64
	err := ParseFtrace(data, func(e *FtraceEvent) error {
		if e.RawClock {
			c.raw = true
		}
		if e.Kind == FtraceMarker {
			if v, ok := strings.CutPrefix(e.Text, "schedsim clock "); ok {
				n, err := strconv.ParseInt(strings.Fields(v + " ")[0], 10, 64)
				if err != nil {
					return fmt.Errorf("line %d: schedsim clock marker: %q is not a number", e.Line, v)
				}
				rs, ns = append(rs, e.TS), append(ns, n)
			}
		}
		return nil
	})
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
func readFtrace(data []byte) (map[int]*ftTask, int, int64, error) {
	clk, err := NewFtraceClock(data)
	if err != nil {
		return nil, 0, 0, err
	}
	// Window: markers, else the events' span.
	var start, end int64 = -1, -1
	var first, last int64 = -1, -1
	nSched := 0
	err = ParseFtrace(data, func(e *FtraceEvent) error {
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
	})
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
			t = &ftTask{pid: pid, comm: comm, lastWaker: -1, wokenBy: map[int]int64{}, wakes: map[int]int64{}, lastCPU: -1}
			tasks[pid] = t
		}
		return t
	}
	maxCPU := 0
	err = ParseFtrace(data, func(e *FtraceEvent) error {
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
		case FtraceWaking:
			if e.TPID == 0 {
				return nil
			}
			w := get(e.TPID, e.TComm)
			if !w.seen {
				w.seen, w.startsBlock = true, true
				w.blocked, w.blockStart = true, start
			}
			waker := -1
			if !e.InIRQ() && e.PID != 0 && e.PID != e.TPID {
				waker = e.PID
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
				x.seen = true
				x.wakes[e.TPID]++
				if x.lastWaker == e.TPID {
					x.replies++
				}
				w.lastWaker = waker
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, 0, err
	}
	for _, t := range tasks { // close the open runs at the window's end
		if t.running {
			t.cpu += end - t.runStart
			t.burst += end - t.runStart
		}
		if t.nBursts == 0 && t.burst > 0 {
			t.nBursts, t.sumBurst = 1, t.burst
		}
	}
	return tasks, maxCPU + 1, end - start, nil
}

var schedsimName = regexp.MustCompile(`^(.*)/[0-9]+$`)

// groupName is the group a comm belongs to: schedsim's "name/3" -> "name";
// other comms as they are, made a valid task name.
func groupName(comm string) string {
	if m := schedsimName.FindStringSubmatch(comm); m != nil && m[1] != "" {
		comm = m[1]
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
	tasks, ncpu, win, err := readFtrace(data)
	if err != nil {
		return nil, nil, err
	}
	// Keep the workload's tasks.
	var pids []int
	for pid, t := range tasks {
		if opt.Comm != nil && !opt.Comm.MatchString(t.comm) {
			continue
		}
		if float64(t.cpu) < minShare*float64(win) && t.nBlocks < minBlocks {
			continue
		}
		pids = append(pids, pid)
	}
	sort.Ints(pids)
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
	var desc []string
	for gi, g := range groups {
		var bursts, sumBurst, blocks, byTask, startsBlocked, nWakes, span, cpu int64
		var prioSum int
		for _, m := range g.members {
			bursts += m.nBursts
			sumBurst += m.sumBurst
			blocks += m.nBlocks
			cpu += m.cpu
			prioSum += m.prio
			for w, n := range m.wokenBy {
				if groupOf[w] != nil {
					byTask += n
				}
			}
			if m.startsBlock {
				startsBlocked++
			}
			if m.nWakes > 1 {
				nWakes += m.nWakes - 1
				span += m.lastWake - m.firstWake
			}
		}
		path := fmt.Sprintf("tasks[%d]", gi)
		t := scenarios.Task{Name: g.name, Count: len(g.members)}
		prio := prioSum / len(g.members)
		switch {
		case prio >= 100 && prio <= 139:
			t.Nice = prio - 120
		default:
			probs.add(path+".nice", "prio %d is a real-time or deadline priority, which the simulator does not model: nice 0", prio)
		}
		burst := int64(0)
		if bursts > 0 {
			burst = sumBurst / bursts
		}
		prog := []scenarios.Step{{Run: dur(burst)}}
		if blocks == 0 {
			t.Program = prog
			s.Tasks = append(s.Tasks, t)
			desc = append(desc, fmt.Sprintf("%s (%d): never blocked, a hog (%.1f%% CPU)", g.name, t.Count, 100*float64(cpu)/float64(win)/float64(t.Count)))
			continue
		}
		// Wake steps: per target group, wake-ups per burst.
		type wk struct {
			h               *group
			n, reply, index int64
		}
		var wks []*wk
		wkOf := map[*group]*wk{}
		for _, m := range g.members {
			for pid, n := range m.wakes {
				h := groupOf[pid]
				if h == nil {
					continue
				}
				w := wkOf[h]
				if w == nil {
					w = &wk{h: h}
					wkOf[h] = w
					wks = append(wks, w)
				}
				w.n += n
				if h.index[pid] == g.index[m.pid]%len(h.members) {
					w.index += n
				}
			}
			// replies are counted per waker, over all its targets
		}
		sort.Slice(wks, func(i, j int) bool { return wks[i].h.name < wks[j].h.name })
		var rel []string
		for _, w := range wks {
			perBurst := float64(w.n) / float64(max(bursts, 1))
			if perBurst < 0.5 {
				continue
			}
			var replies int64
			for _, m := range g.members {
				replies += m.replies
			}
			fan := "one"
			switch {
			case float64(replies) >= 0.8*float64(w.n) && len(w.h.members) > 1:
				fan = "waker"
			case len(w.h.members) == 1 || float64(w.index) >= 0.8*float64(w.n):
				fan = "index"
			case perBurst >= float64(len(w.h.members))-0.5:
				fan = "all"
			}
			prog = append(prog, scenarios.Step{Wake: w.h.name, Fanout: fan})
			probs.add(fmt.Sprintf("%s.program[%d].sync", path, len(prog)-1), "a sched trace does not show WF_SYNC: sync left false")
			rel = append(rel, fmt.Sprintf("wakes %s (%.2f per burst, fanout %s)", w.h.name, perBurst, fan))
		}
		how := ""
		if float64(byTask) >= 0.5*float64(blocks) {
			prog = append(prog, scenarios.Step{Wait: true})
			if 2*startsBlocked > int64(len(g.members)) {
				prog = append([]scenarios.Step{{Wait: true}}, prog[:len(prog)-1]...)
			}
			how = fmt.Sprintf("woken by traced tasks %.0f%% of the time", 100*float64(byTask)/float64(blocks))
		} else {
			period := int64(0)
			if nWakes > 0 {
				period = span / nWakes
			}
			if period > burst && time.Duration(period) >= scenarios.MinTimer {
				prog = append(prog, scenarios.Step{Timer: dur(period)})
				how = "a timer of " + dur(period)
			} else {
				prog = append(prog, scenarios.Step{Sleep: dur(max(0, (win-cpu/int64(len(g.members)))/max(blocks/int64(len(g.members)), 1)))})
				how = "sleeps"
			}
		}
		if len(prog) > scenarios.MaxSteps {
			prog = prog[:scenarios.MaxSteps]
			probs.add(path+".program", "cut to %d steps", scenarios.MaxSteps)
		}
		t.Program = prog
		s.Tasks = append(s.Tasks, t)
		desc = append(desc, fmt.Sprintf("%s (%d): bursts of %s, %s, %.1f%% CPU each%s", g.name, t.Count, dur(burst), how,
			100*float64(cpu)/float64(win)/float64(t.Count), strings.Join(append([]string{""}, rel...), "; ")))
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
