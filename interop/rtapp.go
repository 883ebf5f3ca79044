package interop

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/scenarios"
)

// MaxRTAppBytes bounds an rt-app file: the largest examples rt-app ships are
// a few kilobytes.
const MaxRTAppBytes = 1 << 20

// DefaultRTAppDuration is the scenario duration, in seconds, given to an
// rt-app file whose global.duration is -1 ("until the threads end") or
// absent: a scenario always has a duration.
const DefaultRTAppDuration = 10

// RTAppOptions adjust ImportRTAppWith.
type RTAppOptions struct {
	// Machine is the machine the workload runs on. rt-app files describe no
	// hardware; nil gives the scenario defaults (one LLC, two cores), widened
	// to the highest CPU a cpus list names, and a Problem saying so.
	Machine *scenarios.Machine
}

// ImportRTApp converts an rt-app workload description (the JSON that rt-app
// runs and LISA generates; see rt-app's doc/tutorial.txt) into a scenario
// on the default machine. See ImportRTAppWith.
func ImportRTApp(data []byte) (*scenarios.Scenario, []Problem, error) {
	return ImportRTAppWith(data, RTAppOptions{})
}

// ImportRTAppWith converts an rt-app workload description into a scenario.
// It reads rt-app's JSON dialect (comments, trailing commas and repeated
// keys are accepted, as json-c does) and maps:
//
//   - global.duration (s) to duration (at most 600 s; -1 or absent: 10 s);
//     global.default_policy and each task's policy/priority to nice for
//     SCHED_OTHER (SCHED_BATCH runs as SCHED_OTHER, SCHED_IDLE as nice 19,
//     real-time and deadline classes as nice 0, each reported);
//   - each task (thread object) to a task group: instance to count, delay
//     (us) to start, cpus to the affinity list, loop to loop (-1: forever);
//   - the events of a thread, or of each of its phases in order, to program
//     steps: run and runtime (us) to run, sleep to sleep, timer's period to
//     timer, suspend to wait, resume to a wake of every instance of the named
//     task, sem_wait to wait and sem_post to a wake of the one task group that
//     waits on that semaphore. Phases follow one another; a phase's loop
//     becomes a repeat block (scenario format version 2), not unrolled
//     copies, and one phase alone becomes the task's loop;
//   - everything else (lock, unlock, signal, broad, wait, sync, barrier, mem,
//     memrun, iorun, yield, fork, per-phase policy or affinity changes,
//     uclamp, NUMA memory binding, task groups, unknown keys) is dropped and
//     reported, by its path in the file, in the returned Problems.
//
// Semantic differences that remain are reported too: a scenario's wake is
// counted (a wake that arrives before the wait is not lost) where rt-app's
// resume broadcasts on a condition variable and is lost if nobody is
// suspended yet; a scenario's timer wakes at multiples of its period since
// the task's start, where rt-app's timer is relative to its previous
// expiry (the same period, another phase).
//
// The error is non-nil when the input is not an rt-app file (not JSON, no
// tasks object) or when no task survives the mapping. Otherwise the
// scenario has passed scenarios.Decode of its canonical form.
func ImportRTAppWith(data []byte, opt RTAppOptions) (*scenarios.Scenario, []Problem, error) {
	if len(data) > MaxRTAppBytes {
		return nil, nil, fmt.Errorf("rt-app file is %d bytes; the limit is %d", len(data), MaxRTAppBytes)
	}
	root, err := parseRelaxed(data)
	if err != nil {
		return nil, nil, fmt.Errorf("not rt-app JSON: %v", err)
	}
	if root.kind != '{' {
		return nil, nil, errors.New("not rt-app JSON: the file is " + root.describe() + ", not an object")
	}
	im := &rtImporter{}
	return im.run(root, opt)
}

type rtStep struct {
	step   scenarios.Step
	path   string
	resume string // rt-app name of the task to wake (resume)
	post   string // semaphore posted (sem_post)
	// A phase that loops is a repeat block: a marker opening it (open =
	// its loop count) before its steps and one closing it (close) after,
	// so that the passes over a task's steps stay flat; nestSteps builds
	// the block when the program is written.
	open  int
	close bool
}

type rtTask struct {
	key     string // rt-app's name
	name    string // the scenario's
	path    string
	count   int
	nice    int
	cpus    []int64
	start   int64 // us
	loop    int   // 0: forever
	steps   []rtStep
	waitsOn []string // "suspend", "sem S": what its wait steps wait for
	periods []int64  // distinct timer periods (us)
	dropped bool
}

// rtPhase is one phase of a thread: its steps (at most MaxSteps: no
// program keeps more), how many its events mapped to, and its loop (-1
// forever).
type rtPhase struct {
	steps  []rtStep
	events int
	loop   int64
	path   string
}

type rtImporter struct {
	probs     problems
	resources map[string]rtResource // rt-app resource name -> scenario object (sync events)
	resNames  map[string]bool       // scenario object names in use
	defPolicy string
	tasks     []*rtTask
}

func (im *rtImporter) run(root *jval, opt RTAppOptions) (*scenarios.Scenario, []Problem, error) {
	durationS := int64(DefaultRTAppDuration)
	var tasksV *jval
	im.defPolicy = "SCHED_OTHER"
	// global first: its default_policy applies to every task.
	if g := root.member("global"); g != nil {
		durationS = im.global(g)
	}
	for _, m := range root.obj {
		switch m.key {
		case "tasks":
			tasksV = m.val
		case "global":
		case "resources":
			// rt-app creates resources as events name them; this object is
			// only kept for old files.
		default:
			im.probs.add(pathJoin("", m.key), "unknown top-level key; ignored")
		}
	}
	if tasksV == nil {
		return nil, im.probs, errors.New("not an rt-app workload: no tasks object")
	}
	if tasksV.kind != '{' {
		return nil, im.probs, errors.New("tasks: is " + tasksV.describe() + ", not an object")
	}
	for _, m := range tasksV.obj {
		if t := im.task(m.key, m.val, pathJoin("tasks", m.key)); t != nil {
			im.tasks = append(im.tasks, t)
		}
	}
	im.limitTasks()
	im.names()
	im.resolveWakes()
	im.pruneTasks()
	var kept []*rtTask
	for _, t := range im.tasks {
		if !t.dropped {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return nil, im.probs, errors.New("no task of the file could be mapped onto the scenario format")
	}
	m := im.machine(opt.Machine, kept)
	im.affinity(&m, kept)

	s := &scenarios.Scenario{
		Version:  scenarios.Version,
		Title:    "rt-app workload",
		Seed:     scenarios.DefaultSeed,
		Duration: strconv.FormatInt(durationS, 10) + "s",
		Machine:  m,
		Policy:   scenarios.Policy{Base: scenarios.DefaultBase},
	}
	if len(m.CPUs) > 0 {
		s.Version = 2 // a machine given per CPU
	}
	threads := 0
	var names []string
	for _, t := range kept {
		st := scenarios.Task{Name: t.name, Count: t.count, Nice: t.nice, Loop: t.loop}
		if len(t.cpus) > 0 {
			st.CPUs = cpuList(t.cpus)
		}
		if t.start > 0 {
			st.Start = fmtUS(t.start)
		}
		var blocks bool
		st.Program, blocks = nestSteps(t.steps)
		if blocks || len(im.resources) > 0 {
			s.Version = 2 // repeat blocks and sync steps are version 2
		}
		s.Tasks = append(s.Tasks, st)
		threads += t.count
		names = append(names, t.name)
	}
	s.Description = fmt.Sprintf("Imported from an rt-app workload: %d threads of %d tasks (%s). "+
		"rt-app's times are microseconds; run and runtime both became run steps (the simulator has no frequency scaling). "+
		"Timers wake at multiples of their period since the task started. "+
		"The importer listed what it could not map.", threads, len(kept), strings.Join(names, ", "))
	if len(s.Description) > scenarios.MaxDescription {
		s.Description = s.Description[:scenarios.MaxDescription-3] + "..."
	}
	out, err := scenarios.Decode(s.Canonical())
	if err != nil {
		// Every field was checked on the way in: this is the importer's bug.
		return nil, im.probs, fmt.Errorf("internal error: the imported scenario is invalid: %v", err)
	}
	return out, im.probs, nil
}

// global reads the global object and returns the duration in seconds.
func (im *rtImporter) global(g *jval) int64 {
	dur := int64(DefaultRTAppDuration)
	if g.kind != '{' {
		im.probs.add("global", "is %s, not an object; ignored", g.describe())
		return dur
	}
	for _, m := range g.obj {
		p := pathJoin("global", m.key)
		switch m.key {
		case "duration":
			n, ok := m.val.integer()
			switch {
			case !ok:
				im.probs.add(p, "%s is not an integer number of seconds; %ds chosen", m.val.describe(), DefaultRTAppDuration)
			case n <= 0:
				im.probs.add(p, "%d (run until every thread ends): a scenario needs a duration; %ds chosen", n, DefaultRTAppDuration)
			case n > maxUS/1_000_000:
				dur = maxUS / 1_000_000
				im.probs.add(p, "%ds is longer than a scenario may run; capped at %ds", n, dur)
			default:
				dur = n
			}
		case "default_policy":
			if m.val.kind != 's' {
				im.probs.add(p, "%s is not a policy name; SCHED_OTHER assumed", m.val.describe())
				continue
			}
			im.defPolicy = m.val.str
			if m.val.str != "SCHED_OTHER" {
				// Reported per task by policy(), where it takes effect.
				if _, ok := rtPolicies[m.val.str]; !ok {
					im.probs.add(p, "unknown policy %q; SCHED_OTHER assumed", m.val.str)
					im.defPolicy = "SCHED_OTHER"
				}
			}
		case "pi_enabled":
			if m.val.kind == 'b' && m.val.b {
				im.probs.add(p, "priority-inheritance mutexes are modelled as plain futex mutexes (no hand-off to the waiter, no boosting)")
			}
		case "calibration", "logdir", "log_basename", "log_size", "ftrace", "gnuplot",
			"lock_pages", "io_device", "mem_buffer_size", "cumulative_slack", "frag":
			// How rt-app calibrates, logs and locks memory: nothing the
			// workload's scheduling depends on (io_device and
			// mem_buffer_size only matter to events reported where used).
		default:
			im.probs.add(p, "unknown global key; ignored")
		}
	}
	return dur
}

// rtPolicies maps rt-app policy names to what the simulator runs instead
// ("" = exactly SCHED_OTHER).
var rtPolicies = map[string]string{
	"SCHED_OTHER":    "",
	"SCHED_BATCH":    "SCHED_BATCH runs as SCHED_OTHER (batch tasks' wake-up preemption rules are not modelled)",
	"SCHED_IDLE":     "SCHED_IDLE runs as SCHED_OTHER at nice 19 (weight 15, not SCHED_IDLE's 3)",
	"SCHED_FIFO":     "real-time classes are not modelled; runs as SCHED_OTHER at nice 0",
	"SCHED_RR":       "real-time classes are not modelled; runs as SCHED_OTHER at nice 0",
	"SCHED_DEADLINE": "SCHED_DEADLINE is not modelled; runs as SCHED_OTHER at nice 0",
}

// rtEventKinds are rt-app's event names. rt-app recognises an event by the
// prefix of its key ("run1", "timer_a" ...), "runtime" before "run" and
// "memrun" before "mem", as here.
var rtEventKinds = []string{"runtime", "run", "sleep", "timer", "suspend", "resume", "sem_post", "sem_wait",
	"memrun", "mem", "iorun", "lock", "unlock", "signal", "broad", "wait", "sync", "barrier", "yield", "fork"}

func rtEventKind(key string) string {
	for _, k := range rtEventKinds {
		if strings.HasPrefix(key, k) {
			return k
		}
	}
	return ""
}

// rtUnmapped says why the events the scenario format has no word for are
// dropped.
var rtUnmapped = map[string]string{
	"mem":    "memory load is not modelled; dropped (use run for CPU time)",
	"memrun": "memory load is not modelled; dropped (use run for CPU time)",
	"iorun":  "I/O load is not modelled; dropped",
	"yield":  "sched_yield() is not modelled; dropped",
	"fork":   "fork events are not modelled; dropped (the forked task is not started)",
}

func (im *rtImporter) task(key string, v *jval, path string) *rtTask {
	if v.kind != '{' {
		im.probs.add(path, "is %s, not a thread object; ignored", v.describe())
		return nil
	}
	t := &rtTask{key: key, path: path, count: 1}
	policy := im.defPolicy
	policyPath := "global.default_policy"
	var phases *jval
	hasPhases := v.member("phases") != nil // looked up once: a key per member made this quadratic
	loop := int64(-1)                      // the thread's loop key; absent: forever
	for _, m := range v.obj {
		p := pathJoin(path, m.key)
		switch m.key {
		case "instance":
			n, ok := m.val.integer()
			switch {
			case !ok || n < 0:
				im.probs.add(p, "%s is not a thread count; 1 assumed", m.val.describe())
			case n == 0:
				im.probs.add(p, "0: rt-app creates no thread (only a fork event would); task dropped")
				return nil
			case n > scenarios.MaxInstances:
				im.probs.add(p, "%d threads; capped at %d", n, scenarios.MaxInstances)
				t.count = scenarios.MaxInstances
			default:
				t.count = int(n)
			}
		case "delay":
			n, ok := m.val.integer()
			switch {
			case !ok || n < 0:
				im.probs.add(p, "%s is not a delay in microseconds; ignored", m.val.describe())
			case n > maxUS:
				im.probs.add(p, "%dus is longer than a scenario may run; capped", n)
				t.start = maxUS
			default:
				t.start = n
			}
		case "loop":
			n, ok := m.val.integer()
			if !ok || n < -1 {
				im.probs.add(p, "%s is not a loop count; -1 (forever) assumed", m.val.describe())
				continue
			}
			loop = n
		case "cpus":
			t.cpus = im.cpus(m.val, p)
		case "policy":
			if m.val.kind != 's' {
				im.probs.add(p, "%s is not a policy name; ignored", m.val.describe())
				continue
			}
			if _, ok := rtPolicies[m.val.str]; !ok {
				im.probs.add(p, "unknown policy %q; ignored", m.val.str)
				continue
			}
			policy, policyPath = m.val.str, p
		case "priority":
			// Read below, once the policy is known.
		case "phases":
			phases = m.val
		case "dl-runtime", "dl-period", "dl-deadline", "period", "deadline":
			im.probs.add(p, "deadline parameters (and SCHED_OTHER custom slices) are not modelled; ignored")
		case "nodes_membind":
			im.probs.add(p, "NUMA memory binding is not modelled; ignored")
		case "taskgroup":
			im.probs.add(p, "task groups (cgroups) are not modelled; ignored")
		case "util_min", "util_max":
			im.probs.add(p, "utilization clamping is not modelled; ignored")
		default:
			switch {
			case rtEventKind(m.key) == "":
				im.probs.add(p, "unknown key; ignored")
			case hasPhases:
				im.probs.add(p, "an event beside phases: rt-app only reads the events of the phases; ignored")
			}
			// Otherwise an event of the single implicit phase, read below.
		}
	}
	// Scheduling class and nice.
	if why := rtPolicies[policy]; why != "" {
		im.probs.add(policyPath, "%s (task %s)", why, key)
	}
	if pr := v.member("priority"); pr != nil {
		p := pathJoin(path, "priority")
		n, ok := pr.integer()
		switch {
		case !ok:
			im.probs.add(p, "%s is not a priority; nice 0 assumed", pr.describe())
		case policy == "SCHED_FIFO" || policy == "SCHED_RR" || policy == "SCHED_DEADLINE":
			// Reported with the policy.
		case n < -20 || n > 19:
			t.nice = int(min(max(n, -20), 19))
			im.probs.add(p, "nice %d is out of range -20..19; %d used", n, t.nice)
		default:
			t.nice = int(n)
		}
	}
	if policy == "SCHED_IDLE" {
		t.nice = 19
	}

	var ph []rtPhase
	if phases != nil {
		pp := pathJoin(path, "phases")
		if phases.kind != '{' {
			im.probs.add(pp, "is %s, not an object; task dropped", phases.describe())
			return nil
		}
		for _, m := range phases.obj {
			p := pathJoin(pp, m.key)
			steps, n, l := im.phase(t, m.val, p, false)
			ph = append(ph, rtPhase{steps, n, l, p})
		}
	} else {
		// Without phases, the thread object is its one phase, the
		// thread's loop is the phase's, and the thread runs it once; with no
		// loop at all, it runs forever.
		steps, n, _ := im.phase(t, v, path, true)
		ph = append(ph, rtPhase{steps, n, loop, path})
		loop = 1
	}
	if len(t.periods) > 1 {
		var ps []string
		for _, us := range t.periods {
			ps = append(ps, fmtUS(us))
		}
		im.probs.add(path, "timers with different periods (%s): each wakes at multiples of its own period since the task started, not one period after the previous timer", strings.Join(ps, ", "))
	}

	// Phases with loop 0 never run; a phase that loops forever hides
	// those after it.
	var live []rtPhase
	for i, p := range ph {
		if p.loop == 0 {
			im.probs.add(pathJoin(p.path, "loop"), "0: the phase never runs; dropped")
			continue
		}
		if len(p.steps) == 0 {
			continue
		}
		live = append(live, p)
		if p.loop < 0 && i < len(ph)-1 {
			im.probs.add(pathJoin(p.path, "loop"), "-1: this phase repeats forever, so the phases after it never run; dropped")
			break
		}
	}
	for i, p := range live {
		if p.loop < 0 && i > 0 {
			im.probs.add(pathJoin(p.path, "loop"), "-1 after other phases: a scenario program cannot run a prefix once and then loop; the earlier phases were dropped")
			live = live[i:]
			break
		}
	}
	if len(live) == 0 {
		im.probs.add(path, "no event left that the scenario format can run; task dropped")
		return nil
	}
	if loop == 0 {
		im.probs.add(pathJoin(path, "loop"), "0: the thread never runs its phases; task dropped")
		return nil
	}
	switch {
	case len(live) == 1:
		// One phase: its events are the program, and its loop multiplies
		// the thread's.
		t.steps = live[0].steps
		if live[0].loop > 0 && loop > 0 {
			n := live[0].loop * loop
			if n > 1_000_000_000 || n/loop != live[0].loop {
				n = 1_000_000_000
			}
			t.loop = int(n)
		}
		if live[0].events > scenarios.MaxSteps {
			im.probs.add(path, "%d steps; only the first %d are kept (a program has at most %d)", live[0].events, scenarios.MaxSteps, scenarios.MaxSteps)
		}
	default:
		im.phaseBlocks(t, live)
		if loop > 0 {
			t.loop = int(min(loop, 1_000_000_000))
		}
	}
	return t
}

// phaseBlocks lays phases out one after the other: a phase that runs once
// as its steps, a phase that loops as a repeat block of its steps (not
// unrolled, so a 300-iteration loop is one block). The program keeps to the
// format's limits: at most MaxSteps steps at its top level and in a block,
// MaxProgramSteps in all; a phase that does not fit is dropped, and said so.
// A looping phase with no run, sleep or timer step cannot be a block (a
// block's iteration must take time): it is unrolled as far as it fits.
func (im *rtImporter) phaseBlocks(t *rtTask, live []rtPhase) {
	timed := func(steps []rtStep) bool {
		for _, rs := range steps {
			if rs.step.Run != "" || rs.step.Sleep != "" || rs.step.Timer != "" {
				return true
			}
		}
		return false
	}
	block := func(p rtPhase) bool { return p.loop > 1 && timed(p.steps) }
	// restTop[i], restTotal[i]: the room the phases after i need (once
	// each), summed from the end in one pass: a rescan per phase made 60
	// thousand phases quadratic.
	restTops, restTotals := make([]int, len(live)+1), make([]int, len(live)+1)
	for i := len(live) - 1; i >= 0; i-- {
		q := live[i]
		n := min(len(q.steps), scenarios.MaxSteps)
		if block(q) {
			restTops[i], restTotals[i] = restTops[i+1]+1, restTotals[i+1]+n+1
		} else {
			restTops[i], restTotals[i] = restTops[i+1]+n, restTotals[i+1]+n
		}
	}
	top, total := 0, 0
	for i, p := range live {
		steps := p.steps
		if p.events > scenarios.MaxSteps {
			im.probs.add(p.path, "%d steps; only the first %d are kept (a program has at most %d)", p.events, scenarios.MaxSteps, scenarios.MaxSteps)
		}
		reps := p.loop
		if block(p) {
			if top+1 > scenarios.MaxSteps || total+1+len(steps) > scenarios.MaxProgramSteps {
				im.probs.add(p.path, "%d steps do not fit in the program after the phases before it; dropped", len(steps))
				continue
			}
			t.steps = append(t.steps, rtStep{open: int(min(reps, 1_000_000_000)), path: p.path})
			t.steps = append(t.steps, steps...)
			t.steps = append(t.steps, rtStep{close: true, path: p.path})
			top, total = top+1, total+1+len(steps)
			continue
		}
		// Leave room for the phases after this one (once each).
		restTop, restTotal := restTops[i+1], restTotals[i+1]
		fit := int64(min(scenarios.MaxSteps-top-restTop, scenarios.MaxProgramSteps-total-restTotal) / len(steps))
		if fit < 1 {
			im.probs.add(p.path, "%d steps do not fit in the program after the phases before it; dropped", len(steps))
			continue
		}
		if reps > fit {
			im.probs.add(pathJoin(p.path, "loop"), "%d: unrolled only %d times (the phase has no run, sleep or timer step, so it cannot be a repeat block, and a program has at most %d steps)", reps, fit, scenarios.MaxSteps)
			reps = fit
		}
		for range reps {
			t.steps = append(t.steps, steps...)
		}
		top += int(reps) * len(steps)
		total += int(reps) * len(steps)
	}
}

// nestSteps writes a task's steps as a program, building the repeat blocks
// their markers delimit; it reports whether there is a block.
func nestSteps(rs []rtStep) (prog []scenarios.Step, blocks bool) {
	var stack [][]scenarios.Step
	var reps []int
	cur := []scenarios.Step{}
	for _, r := range rs {
		switch {
		case r.open > 0:
			stack, reps = append(stack, cur), append(reps, r.open)
			cur = []scenarios.Step{}
		case r.close:
			body, n := cur, reps[len(reps)-1]
			cur, stack, reps = stack[len(stack)-1], stack[:len(stack)-1], reps[:len(reps)-1]
			if len(body) > 0 {
				cur = append(cur, scenarios.Step{Repeat: n, Program: body})
				blocks = true
			}
		default:
			cur = append(cur, r.step)
		}
	}
	return cur, blocks
}

// phase maps one phase's events to steps and returns the first MaxSteps of
// them (no program keeps more: 120 thousand events of one phase had made
// the importer copy 230 MB), how many there were, and its loop (-1
// forever). Every event is still read, so its problems are reported.
// inTask: the phase is the thread object itself, whose other keys task()
// has read.
func (im *rtImporter) phase(t *rtTask, v *jval, path string, inTask bool) ([]rtStep, int, int64) {
	if v.kind != '{' {
		im.probs.add(path, "is %s, not a phase object; dropped", v.describe())
		return nil, 0, 0
	}
	loop := int64(1)
	var steps []rtStep
	n := 0
	keep := func(st ...rtStep) {
		n += len(st)
		if room := scenarios.MaxSteps - len(steps); room > 0 {
			steps = append(steps, st[:min(room, len(st))]...)
		}
	}
	for _, m := range v.obj {
		p := pathJoin(path, m.key)
		kind := rtEventKind(m.key)
		if kind == "" {
			if inTask {
				continue // a thread key, read by task()
			}
			switch m.key {
			case "loop":
				n, ok := m.val.integer()
				if !ok || n < -1 {
					im.probs.add(p, "%s is not a loop count; 1 assumed", m.val.describe())
				} else {
					loop = n
				}
			case "cpus":
				c := im.cpus(m.val, p)
				if !slices.Equal(c, t.cpus) {
					im.probs.add(p, "affinity changes per phase are not modelled; the task keeps its own cpus for every phase")
				}
			case "policy", "priority", "dl-runtime", "dl-period", "dl-deadline":
				im.probs.add(p, "scheduling changes per phase are not modelled; ignored")
			case "nodes_membind":
				im.probs.add(p, "NUMA memory binding is not modelled; ignored")
			case "taskgroup":
				im.probs.add(p, "task groups (cgroups) are not modelled; ignored")
			case "util_min", "util_max":
				im.probs.add(p, "utilization clamping is not modelled; ignored")
			default:
				im.probs.add(p, "unknown key; ignored")
			}
			continue
		}
		switch kind {
		case "lock", "unlock", "signal", "broad", "wait", "sync", "barrier":
			keep(im.syncEvent(kind, m.val, p)...)
			continue
		}
		if st, ok := im.event(t, kind, m.val, p); ok {
			keep(st)
		}
	}
	return steps, n, loop
}

// usec reads a duration event's microseconds; ok is false when there is
// nothing to do (0) or the value is unusable (reported).
func (im *rtImporter) usec(v *jval, path string) (int64, bool) {
	n, ok := v.integer()
	switch {
	case !ok:
		im.probs.add(path, "%s is not an integer number of microseconds (rt-app refuses it); dropped", v.describe())
		return 0, false
	case n < 0:
		im.probs.add(path, "%d is negative; dropped", n)
		return 0, false
	case n == 0:
		return 0, false // rt-app does nothing for 0 either
	case n > maxUS:
		im.probs.add(path, "%dus is longer than a scenario may run; capped at %s", n, fmtUS(maxUS))
		return maxUS, true
	}
	return n, true
}

func (im *rtImporter) event(t *rtTask, kind string, v *jval, path string) (rtStep, bool) {
	rs := rtStep{path: path}
	switch kind {
	case "run", "runtime":
		us, ok := im.usec(v, path)
		if !ok {
			return rs, false
		}
		rs.step.Run = fmtUS(us)
	case "sleep":
		us, ok := im.usec(v, path)
		if !ok {
			return rs, false
		}
		rs.step.Sleep = fmtUS(us)
	case "timer":
		if v.kind != '{' {
			im.probs.add(path, "is %s, not a timer object {ref, period}; dropped", v.describe())
			return rs, false
		}
		per := v.member("period")
		if per == nil {
			return rs, false // period 0: the timer never blocks
		}
		us, ok := im.usec(per, pathJoin(path, "period"))
		if !ok {
			return rs, false
		}
		if min := int64(scenarios.MinTimer.Microseconds()); us < min {
			im.probs.add(pathJoin(path, "period"), "%dus is shorter than the shortest timer period, %s; %s used", us, fmtUS(min), fmtUS(min))
			us = min
		}
		if !slices.Contains(t.periods, us) {
			t.periods = append(t.periods, us)
		}
		for _, m := range v.obj {
			if m.key != "ref" && m.key != "period" && m.key != "mode" {
				im.probs.add(pathJoin(path, m.key), "unknown timer key; ignored")
			}
		}
		rs.step.Timer = fmtUS(us)
	case "suspend":
		rs.step.Wait = true
		t.addWait("suspend")
	case "resume", "sem_post", "sem_wait":
		if v.kind != 's' || v.str == "" {
			im.probs.add(path, "is %s, not a name; dropped", v.describe())
			return rs, false
		}
		switch kind {
		case "resume":
			rs.resume = v.str
		case "sem_post":
			rs.post = v.str
		default:
			rs.step.Wait = true
			t.addWait("sem " + v.str)
		}
	default:
		im.probs.add(path, "%s", rtUnmapped[kind])
		return rs, false
	}
	return rs, true
}

func (t *rtTask) addWait(what string) {
	if !slices.Contains(t.waitsOn, what) {
		t.waitsOn = append(t.waitsOn, what)
	}
}

// cpus reads an affinity array of CPU numbers, sorted and deduplicated.
func (im *rtImporter) cpus(v *jval, path string) []int64 {
	if v.kind != '[' {
		im.probs.add(path, "is %s, not an array of CPU numbers; ignored", v.describe())
		return nil
	}
	var out []int64
	for i, el := range v.arr {
		n, ok := el.integer()
		if !ok || n < 0 {
			im.probs.add(path+"["+strconv.Itoa(i)+"]", "%s is not a CPU number; ignored", el.describe())
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// limitTasks keeps within the scenario's task-group and instance limits.
func (im *rtImporter) limitTasks() {
	total := 0
	for i, t := range im.tasks {
		switch {
		case i >= scenarios.MaxTaskGroups:
			im.probs.add(t.path, "more than %d tasks; dropped", scenarios.MaxTaskGroups)
			t.dropped = true
		case total+t.count > scenarios.MaxInstances:
			im.probs.add(t.path, "more than %d threads in all; dropped", scenarios.MaxInstances)
			t.dropped = true
		default:
			total += t.count
		}
	}
}

// names gives every task a scenario name: rt-app's, with characters the
// format does not allow replaced by '_', cut to 32, made unique.
func (im *rtImporter) names() {
	used := map[string]bool{}
	for _, t := range im.tasks {
		if t.dropped {
			continue
		}
		name := uniqueName(t.key, "task", used)
		t.name = name
		if name != t.key {
			im.probs.add(t.path, "named %q in the scenario (names are 1-32 of A-Z a-z 0-9 _ . -)", name)
		}
	}
}

func (im *rtImporter) byKey(key string) *rtTask {
	for _, t := range im.tasks {
		if t.key == key {
			return t
		}
	}
	return nil
}

// resolveWakes turns resume and sem_post into wake steps.
func (im *rtImporter) resolveWakes() {
	noted := false
	for _, t := range im.tasks {
		if t.dropped {
			continue
		}
		for i := range t.steps {
			rs := &t.steps[i]
			switch {
			case rs.resume != "":
				target := im.byKey(rs.resume)
				if target == nil || target.dropped {
					im.probs.add(rs.path, "%q is not a task of this file that was imported; dropped", rs.resume)
					continue
				}
				rs.step.Wake = target.key // the scenario name is set below
				if target.count > 1 {
					rs.step.Fanout = "all"
				}
				if !noted {
					noted = true
					im.probs.add(rs.path, "resume wakes every suspended thread of the task, but unlike rt-app's "+
						"(a condition variable broadcast, lost if nobody is suspended yet) a scenario wake is counted "+
						"and ends the next wait; suspend became wait")
				}
			case rs.post != "":
				var waiters []*rtTask
				for _, w := range im.tasks {
					if !w.dropped && slices.Contains(w.waitsOn, "sem "+rs.post) {
						waiters = append(waiters, w)
					}
				}
				switch len(waiters) {
				case 0:
					im.probs.add(rs.path, "no imported task waits on semaphore %q; dropped", rs.post)
					continue
				case 1:
					rs.step.Wake = waiters[0].key
					if waiters[0].count > 1 {
						rs.step.Fanout = "one" // one waiter per post, round-robin
					}
				default:
					var ns []string
					for _, w := range waiters {
						ns = append(ns, w.key)
					}
					im.probs.add(rs.path, "several tasks wait on semaphore %q (%s): a scenario wake names one task; dropped", rs.post, strings.Join(ns, ", "))
					continue
				}
			}
		}
	}
}

// pruneTasks drops the steps that could not be resolved, then tasks whose
// program cannot take time, then wakes of dropped tasks, until nothing
// changes.
func (im *rtImporter) pruneTasks() {
	for _, t := range im.tasks {
		if t.dropped {
			continue
		}
		kept := t.steps[:0]
		for _, rs := range t.steps {
			if (rs.resume != "" || rs.post != "") && rs.step.Wake == "" {
				continue
			}
			kept = append(kept, rs)
		}
		t.steps = kept
	}
	for changed := true; changed; {
		changed = false
		for _, t := range im.tasks {
			if t.dropped {
				continue
			}
			takesTime := false
			for _, rs := range t.steps {
				takesTime = takesTime || rs.step.Run != "" || rs.step.Sleep != "" || rs.step.Timer != ""
			}
			if !takesTime {
				im.probs.add(t.path, "no run, sleep or timer left, so an iteration would take no time; task dropped")
				t.dropped, changed = true, true
			}
		}
		for _, t := range im.tasks {
			if t.dropped {
				continue
			}
			kept := t.steps[:0]
			for _, rs := range t.steps {
				if rs.step.Wake != "" {
					if target := im.byKey(rs.step.Wake); target == nil || target.dropped {
						im.probs.add(rs.path, "wakes a task that was dropped; dropped")
						changed = true
						continue
					}
				}
				kept = append(kept, rs)
			}
			t.steps = kept
		}
	}
	// Scenario names in wakes; note waits nothing ends and merged waits.
	for _, t := range im.tasks {
		if t.dropped {
			continue
		}
		for i := range t.steps {
			if w := t.steps[i].step.Wake; w != "" {
				t.steps[i].step.Wake = im.byKey(w).name
			}
		}
	}
	for _, t := range im.tasks {
		if t.dropped || len(t.waitsOn) == 0 {
			continue
		}
		woken := false
		for _, o := range im.tasks {
			for _, rs := range o.steps {
				woken = woken || (!o.dropped && rs.step.Wake == t.name)
			}
		}
		if !woken {
			im.probs.add(t.path, "waits (%s) but no imported task wakes it: it blocks for good at its first wait", strings.Join(t.waitsOn, ", "))
		}
		if len(t.waitsOn) > 1 {
			im.probs.add(t.path, "waits on several things (%s): a scenario task has one wake-up count, so a wake for any of them ends any wait", strings.Join(t.waitsOn, ", "))
		}
	}
}

// machine returns the machine to run on.
func (im *rtImporter) machine(given *scenarios.Machine, tasks []*rtTask) scenarios.Machine {
	if given != nil {
		m := *given
		return m
	}
	hi := int64(-1)
	for _, t := range tasks {
		if len(t.cpus) > 0 {
			hi = max(hi, t.cpus[len(t.cpus)-1])
		}
	}
	cores := scenarios.DefaultCoresPerCluster
	if hi+1 > int64(cores) {
		cores = int(min(hi+1, scenarios.MaxCPUs))
	}
	im.probs.add("machine", "rt-app files describe no machine: the scenario runs on %d CPUs sharing one last-level cache (the scenario default, widened to the highest CPU a cpus list names); give a machine to run on another", cores)
	return scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1,
		CoresPerCluster: cores, ThreadsPerCore: 1, HZ: scenarios.DefaultHZ, Numbering: scenarios.DefaultNumbering}
}

// affinity drops CPUs the machine does not have from the tasks' lists.
func (im *rtImporter) affinity(m *scenarios.Machine, tasks []*rtTask) {
	ncpu := int64(m.Nodes * m.SocketsPerNode * m.LLCsPerSocket * m.ClustersPerLLC * m.CoresPerCluster * m.ThreadsPerCore)
	has := func(c int64) bool { return c < ncpu }
	if len(m.CPUs) > 0 {
		// A machine given per CPU: its CPUs keep the kernel's numbers.
		ncpu = int64(len(m.CPUs))
		has = func(c int64) bool {
			return slices.ContainsFunc(m.CPUs, func(x scenarios.CPU) bool { return x.CPU != nil && int64(*x.CPU) == c })
		}
	}
	for _, t := range tasks {
		if len(t.cpus) == 0 {
			continue
		}
		var ok, bad []int64
		for _, c := range t.cpus {
			if has(c) {
				ok = append(ok, c)
			} else {
				bad = append(bad, c)
			}
		}
		if len(bad) > 0 {
			if len(ok) == 0 {
				im.probs.add(pathJoin(t.path, "cpus"), "the machine has %d CPUs and none of %s; the task may run on any CPU", ncpu, cpuList(bad))
			} else {
				im.probs.add(pathJoin(t.path, "cpus"), "the machine has %d CPUs: %s dropped from the affinity", ncpu, cpuList(bad))
			}
		}
		t.cpus = ok
	}
}

// cpuList prints sorted CPU numbers in the kernel's list format: "0-3,8".
func cpuList(cpus []int64) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(cpus[i], 10))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.FormatInt(cpus[j], 10))
		}
		i = j + 1
	}
	return b.String()
}
