package interop

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// FormatRTApp is the export format name of WriteRTApp.
const FormatRTApp = "rtapp"

// WriteRTApp writes a scenario's workload as an rt-app file (the JSON of
// rt-app 1.0, as Debian packages it; see its doc/tutorial.txt), so that the
// workload can run on a real machine: `rt-app FILE`. It returns what could
// not be expressed exactly, by the scenario path it is about. The mapping:
//
//   - duration to global.duration, in whole seconds, rounded up (rt-app
//     stops every thread then); default_policy SCHED_OTHER, calibration on
//     CPU0, lock_pages false (no privilege needed);
//   - each task group to a task: count to instance, nice to priority (the
//     nice value for SCHED_OTHER), cpus to the cpus array, start to delay
//     (us), loop to loop (absent: -1, forever); its program's steps to
//     events in order, with keys made unique by the step index (run0,
//     timer1: rt-app recognises an event by its key's prefix);
//   - run to run (us of calibrated work; rt-app's runtime would be wall
//     time), sleep to sleep, timer to a timer with ref "unique" (one timer
//     per thread; "unique1"... for further periods) in absolute mode, whose
//     expiries are fixed multiples of the period as the scenario's are;
//   - wait to suspend on the thread's own resource (the group's name, or
//     "name-i" for an expanded instance), wake to resume of the target's
//     resource. rt-app's resume broadcasts: it wakes every thread
//     suspended on that resource, and nobody when none is suspended yet.
//     So a wake of one instance of a group of several is expressed by
//     writing that group as one rt-app task per instance ("client-0",
//     "client-1", ...): fanout "index" (and "waker" when the target wakes
//     this group only by index, a 1:1 reply) then names the instance.
//     fanout "one" and other "waker" replies become a resume of every
//     instance, reported.
//
// Reported as not expressible: the machine, the policy and the costs (rt-app
// runs on the machine and kernel it is started on), WF_SYNC wakes,
// sub-microsecond durations (rounded to 1 us), a duration that is not whole
// seconds, and once, the difference between a counted wake (scenario) and
// a lost one (rt-app, when the target is not suspended yet).
func WriteRTApp(sc *scenarios.Scenario) ([]byte, []Problem, error) {
	x := &rtExport{sc: sc}
	return x.run()
}

type rtExport struct {
	sc       *scenarios.Scenario
	probs    problems
	counts   []int
	expand   []bool
	b        strings.Builder
	lostNote bool
}

func (x *rtExport) group(name string) int {
	for i, t := range x.sc.Tasks {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// fanout returns a wake step's fanout with "waker" replies that are 1:1
// (the target wakes this group only with fanout index, and the counts are
// equal) turned into "index".
func (x *rtExport) fanout(gi int, st scenarios.Step) string {
	f := st.Fanout
	if f == "" {
		f = scenarios.DefaultFanout
	}
	ti := x.group(st.Wake)
	if f != "waker" || ti < 0 || x.counts[ti] != x.counts[gi] {
		return f
	}
	byIndex := true
	for _, o := range x.sc.Tasks {
		for _, s2 := range o.Program {
			if s2.Wake != x.sc.Tasks[gi].Name {
				continue
			}
			ff := s2.Fanout
			if ff == "" {
				ff = scenarios.DefaultFanout
			}
			byIndex = byIndex && o.Name == st.Wake && ff == "index"
		}
	}
	if byIndex {
		return "index"
	}
	return f
}

func (x *rtExport) run() ([]byte, []Problem, error) {
	sc := x.sc
	if len(sc.Tasks) == 0 {
		return nil, nil, fmt.Errorf("tasks: the scenario has no task")
	}
	x.counts = make([]int, len(sc.Tasks))
	x.expand = make([]bool, len(sc.Tasks))
	for i, t := range sc.Tasks {
		x.counts[i] = t.Count
		if t.CountOf != "" {
			if j := x.group(t.CountOf); j >= 0 {
				x.counts[i] = sc.Tasks[j].Count
			}
		}
	}
	// Which groups must be one rt-app task per instance.
	for i, t := range sc.Tasks {
		for _, st := range t.Program {
			ti := x.group(st.Wake)
			if st.Wake == "" || ti < 0 || x.counts[ti] <= 1 {
				continue
			}
			if x.fanout(i, st) == "index" {
				x.expand[ti] = true
				if x.counts[i] > 1 {
					x.expand[i] = true
				}
			}
		}
	}

	durNS, err := time.ParseDuration(sc.Duration)
	if err != nil {
		return nil, nil, fmt.Errorf("duration: %v", err)
	}
	secs := int64((durNS + time.Second - 1) / time.Second)
	if durNS%time.Second != 0 {
		x.probs.add("duration", "%s: rt-app's duration is whole seconds; %ds", sc.Duration, secs)
	}
	x.probs.add("machine", "rt-app runs on the machine it is started on; the scenario's machine (and its costs) is not part of an rt-app file")
	x.probs.add("policy", "rt-app runs under the kernel it is started on; the scenario's policy base and switches are not part of an rt-app file")

	b := &x.b
	b.WriteString("{\n")
	fmt.Fprintf(b, "\t\"global\": {\n\t\t\"duration\": %d,\n\t\t\"default_policy\": \"SCHED_OTHER\",\n\t\t\"calibration\": \"CPU0\",\n\t\t\"lock_pages\": false,\n\t\t\"log_basename\": \"schedplay\"\n\t},\n", secs)
	b.WriteString("\t\"tasks\": {")
	first := true
	for i := range sc.Tasks {
		if x.counts[i] == 0 {
			x.probs.add(taskPath(i), "no instance: nothing to run; left out")
			continue
		}
		if x.expand[i] {
			for k := range x.counts[i] {
				x.task(i, k, &first)
			}
		} else {
			x.task(i, -1, &first)
		}
	}
	b.WriteString("\n\t}\n}\n")
	// An expanded group reports each problem once, not per instance.
	var out []Problem
	for _, p := range x.probs {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return []byte(b.String()), out, nil
}

func taskPath(i int) string { return "tasks[" + strconv.Itoa(i) + "]" }

// resource is the suspend resource of group gi's instance k (-1: the
// group's one task).
func (x *rtExport) resource(gi, k int) string {
	if k < 0 {
		return x.sc.Tasks[gi].Name
	}
	return x.sc.Tasks[gi].Name + "-" + strconv.Itoa(k)
}

// us converts a scenario duration to whole microseconds (at least 1).
func (x *rtExport) us(path, d string) int64 {
	ns, err := time.ParseDuration(d)
	if err != nil {
		x.probs.add(path, "%q is not a duration; 1us", d)
		return 1
	}
	us := int64((ns + 500) / time.Microsecond)
	if us < 1 {
		us = 1
	}
	if ns%time.Microsecond != 0 {
		x.probs.add(path, "%s: rt-app takes whole microseconds; %dus", d, us)
	}
	return us
}

// task writes group gi (instance k, or all of them with k = -1).
func (x *rtExport) task(gi, k int, first *bool) {
	sc := x.sc
	t := sc.Tasks[gi]
	tp := taskPath(gi)
	b := &x.b
	if !*first {
		b.WriteByte(',')
	}
	*first = false
	b.WriteString("\n\t\t")
	b.Write(appendJSONString(nil, x.resource(gi, k)))
	b.WriteString(": {\n")
	var fields []string
	if k < 0 && x.counts[gi] > 1 {
		fields = append(fields, "\"instance\": "+strconv.Itoa(x.counts[gi]))
	}
	if t.Nice != 0 {
		fields = append(fields, "\"policy\": \"SCHED_OTHER\"", "\"priority\": "+strconv.Itoa(t.Nice))
	}
	if t.CPUs != "" {
		ncpu := scenarios.MaxCPUs
		if m, err := sim.ParseCPUList(t.CPUs, ncpu); err == nil {
			var cs []string
			for c := m.First(); c >= 0; c = m.Next(c) {
				cs = append(cs, strconv.Itoa(c))
			}
			fields = append(fields, "\"cpus\": ["+strings.Join(cs, ", ")+"]")
		} else {
			x.probs.add(tp+".cpus", "%v; left out", err)
		}
	}
	if t.Start != "" {
		fields = append(fields, "\"delay\": "+strconv.FormatInt(x.us(tp+".start", t.Start), 10))
	}
	loop := -1
	if t.Loop > 0 {
		loop = t.Loop
	}
	fields = append(fields, "\"loop\": "+strconv.Itoa(loop))
	periods := []int64{}
	for si, st := range t.Program {
		sp := tp + ".program[" + strconv.Itoa(si) + "]"
		key := func(kind string) string { return "\"" + kind + strconv.Itoa(si) + "\": " }
		switch {
		case st.Run != "":
			fields = append(fields, key("run")+strconv.FormatInt(x.us(sp+".run", st.Run), 10))
		case st.Sleep != "":
			fields = append(fields, key("sleep")+strconv.FormatInt(x.us(sp+".sleep", st.Sleep), 10))
		case st.Timer != "":
			per := x.us(sp+".timer", st.Timer)
			ref := "unique"
			n := -1
			for j, p := range periods {
				if p == per {
					n = j
				}
			}
			if n < 0 {
				n = len(periods)
				periods = append(periods, per)
			}
			if n > 0 {
				ref += strconv.Itoa(n)
			}
			fields = append(fields, key("timer")+"{ \"ref\": \""+ref+"\", \"period\": "+strconv.FormatInt(per, 10)+", \"mode\": \"absolute\" }")
		case st.Wait:
			fields = append(fields, key("suspend")+string(appendJSONString(nil, x.resource(gi, k))))
		case st.Wake != "":
			ti := x.group(st.Wake)
			if ti < 0 {
				x.probs.add(sp+".wake", "%q is not a task of the scenario; left out", st.Wake)
				continue
			}
			if st.Sync {
				x.probs.add(sp+".sync", "rt-app has no WF_SYNC wake-up; a plain resume")
			}
			f := x.fanout(gi, st)
			target := -1 // every instance
			switch {
			case x.counts[ti] == 1:
			case f == "index" && x.expand[ti]:
				idx := k
				if idx < 0 {
					idx = 0
				}
				target = idx % x.counts[ti]
			case f == "all":
			default:
				x.probs.add(sp+".fanout", "%q: rt-app's resume wakes every suspended thread of %s, not one of its %d", f, st.Wake, x.counts[ti])
			}
			if target >= 0 || !x.expand[ti] {
				fields = append(fields, key("resume")+string(appendJSONString(nil, x.resource(ti, target))))
			} else {
				for j := range x.counts[ti] {
					fields = append(fields, "\"resume"+strconv.Itoa(si)+"_"+strconv.Itoa(j)+"\": "+string(appendJSONString(nil, x.resource(ti, j))))
				}
			}
			if !x.lostNote {
				x.lostNote = true
				x.probs.add(sp, "a scenario wake is counted (it ends the next wait even if it comes first); rt-app's resume is lost when the target is not suspended yet")
			}
		case st.SyncStep != nil:
			// Sync steps are rt-app's own events (rtappsync.go).
			sy := *st.SyncStep
			str := func(v string) string { return string(appendJSONString(nil, v)) }
			switch {
			case sy.Lock != "":
				fields = append(fields, key("lock")+str(sy.Lock))
			case sy.Unlock != "":
				fields = append(fields, key("unlock")+str(sy.Unlock))
			case sy.CondWait != "":
				fields = append(fields, key("wait")+"{ \"ref\": "+str(sy.CondWait)+", \"mutex\": "+str(sy.Mutex)+" }")
			case sy.Signal != "":
				fields = append(fields, key("signal")+str(sy.Signal))
			case sy.Broadcast != "":
				fields = append(fields, key("broad")+str(sy.Broadcast))
			case sy.Barrier != "":
				fields = append(fields, key("barrier")+str(sy.Barrier))
			}
		default:
			x.probs.add(sp, "a step rt-app 1.0 has no event for; left out")
		}
	}
	for i, f := range fields {
		b.WriteString("\t\t\t")
		b.WriteString(f)
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("\t\t}")
}
