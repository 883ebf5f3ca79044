package sim

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// cloneHandling says, for every field of the simulator's state whose type
// holds a pointer, slice, map, interface or function, how clone (checkpoint.go)
// treats it. TestCheckpointCoversEveryField fails on a field missing here:
// a new such field must be taught to clone first (re-aim the pointer,
// give the slice its own backing array, or argue that it is immutable or
// scratch), then listed. Plain value fields need nothing: the struct copy
// takes them.
var cloneHandling = map[string]string{
	// Sim.
	"Sim.cfg":           "shared: the Config is immutable after New",
	"Sim.topo":          "shared: immutable",
	"Sim.costs":         "shared: the cost model is immutable",
	"Sim.rng":           "a new rand.Rand over a copy of the PCG",
	"Sim.pcg":           "copied by value",
	"Sim.q":             "eventQueue: its slices copied (below)",
	"Sim.cpus":          "new RQ objects",
	"Sim.tasks":         "new Task objects",
	"Sim.infos":         "shared, capped at its length: entries immutable, append-only",
	"Sim.groups":        "re-aimed by group ID",
	"Sim.gfirst":        "copied",
	"Sim.sgroups":       "new SchedGroup objects",
	"Sim.cpuGroups":     "re-aimed by group ID",
	"Sim.llcs":          "new llcShared objects",
	"Sim.dirty":         "copied",
	"Sim.syncs":         "copied, each waiters list",
	"syncState.waiters": "copied",
	"Sim.openDec":       "nil between events (clone panics otherwise)",
	"Sim.err":           "shared: a *LimitError is immutable",
	"Sim.lruBuf":        "scratch: reset by every use",
	"Sim.freeSlots":     "copied, each list",
	"Sim.nSlots":        "copied",
	"Sim.orderBuf":      "scratch",
	"Sim.candBuf":       "scratch",
	"Sim.movedBuf":      "scratch",
	"Sim.events":        "copied",
	"Sim.decisions":     "not copied: a fresh ring (explanations only)",
	"Sim.m":             "metricsAcc: hist counts copied (below)",
	"Sim.era":           "copied; a class bound to the simulator re-bound (classFor)",
	"Sim.sisVariant":    "copied: a top-level function",
	"Sim.lbEnv":         "scratch: every pass sets *env = lbEnv{...}",
	"Sim.albEnv":        "scratch: as lbEnv",
	// Task.
	"Task.prog":     "shared: the group's program in the Config",
	"Task.wakers":   "copied",
	"Task.rr":       "copied",
	"Task.o1":       "o1Task: before re-aimed",
	"o1Task.before": "re-aimed by task id",
	// RQ.
	"RQ.curr":       "re-aimed by task id",
	"RQ.nextBuddy":  "re-aimed by task id",
	"RQ.lastBuddy":  "re-aimed by task id",
	"RQ.queue":      "re-aimed, own backing array",
	"RQ.sdLLC":      "re-aimed",
	"RQ.llc":        "re-aimed",
	"RQ.domains":    "new SchedDomain objects, re-aimed",
	"RQ.o1":         "a new o1RQ (allocated beside the RQ), its lists re-aimed",
	"o1RQ.arrays":   "each list re-aimed, own backing array",
	"o1Array.queue": "as o1RQ.arrays",
	// Domains.
	"SchedDomain.Parent": "re-aimed",
	"SchedDomain.Child":  "re-aimed",
	"SchedDomain.Groups": "re-aimed by group ID",
	// Event queue.
	"eventQueue.slots":   "copied (kind and id included: fixed per slot)",
	"eventQueue.buckets": "copied into one backing array, each capped",
	"eventQueue.heap":    "copied",
	"qbucket.e":          "as eventQueue.buckets",
	// Metrics.
	"metricsAcc.migWait":  "hist: counts copied",
	"metricsAcc.wakeLat":  "hist: counts copied",
	"metricsAcc.runqWait": "hist: counts copied",
	"metricsAcc.lifetime": "hist: counts copied",
	"hist.counts":         "copied",
	// The era's table: immutable functions; the class re-bound.
	"era.cpuCapacity": "shared", "era.sdInit": "shared", "era.class": "re-bound by classFor",
	"era.track": "shared", "era.selectTaskRQ": "shared", "era.ttwuAvgIdle": "shared",
	"era.rebalanceDomains": "shared", "era.loadBalance": "shared", "era.lbNames": "shared",
	"era.migrateEligible": "shared", "era.migratePinned": "shared", "era.detachAccount": "shared",
	"era.needActiveBalance": "shared", "era.newidleBalance": "shared", "era.nohzKickBusy": "shared",
	"era.activeBalance": "shared", "era.classFor": "shared", "era.nohzIdleUpdate": "shared", "era.idleMult": "shared",
	"era.ttwuWakeList": "shared",
	"rqClass.enqueue":  "re-bound", "rqClass.dequeue": "re-bound", "rqClass.queueAdd": "re-bound",
	"rqClass.queueRemove": "re-bound", "rqClass.putPrev": "re-bound", "rqClass.setNext": "re-bound",
	"rqClass.updateCurr": "re-bound", "rqClass.pick": "re-bound", "rqClass.wakeupPreempt": "re-bound",
	"rqClass.tickPreempt": "re-bound", "rqClass.taskFork": "re-bound", "rqClass.taskWaking": "re-bound",
	"rqClass.pickKey": "re-bound", "rqClass.chargeWork": "re-bound",
	"sisVariant.fn": "shared: a top-level function",
}

// fieldTypes records the type of each field refFields lists.
var fieldTypes = map[string]string{}

// refFields lists "Type.field" for every field, of every struct type of this
// package reachable from Sim, whose type holds a reference (pointer, slice,
// map, interface, function, channel), directly or in an array, or is a
// struct of this package that does.
func refFields() []string {
	pkg := reflect.TypeOf(Sim{}).PkgPath()
	seen := map[reflect.Type]bool{}
	var out []string
	var holds func(t reflect.Type) bool
	var visit func(t reflect.Type)
	holds = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			return true
		case reflect.Array:
			return holds(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				if holds(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.PkgPath() != pkg || seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if holds(f.Type) {
				key := t.Name() + "." + f.Name
				out = append(out, key)
				fieldTypes[key] = f.Type.String()
				// What is shared or scratch is not walked into.
				if h := cloneHandling[key]; !strings.HasPrefix(h, "shared") && !strings.HasPrefix(h, "scratch") {
					visit(f.Type)
				}
			}
		}
	}
	visit(reflect.TypeOf(Sim{}))
	slices.Sort(out)
	return out
}

// Every reference-holding field of the state is one clone knows about, and
// every field the list names still exists.
func TestCheckpointCoversEveryField(t *testing.T) {
	have := refFields()
	for _, f := range have {
		if _, ok := cloneHandling[f]; !ok {
			t.Errorf("%s holds a pointer, slice, map or function that a checkpoint does not know: teach clone (sim/checkpoint.go) to copy or re-aim it, then list it in cloneHandling", f)
		}
	}
	for f := range cloneHandling {
		if !slices.Contains(have, f) {
			t.Errorf("cloneHandling lists %s, which is no longer a reference field of the state: remove it", f)
		}
	}
	// A field whose type changes (a struct becoming a pointer) needs clone's
	// attention too.
	for _, f := range have {
		typ, ok := cloneTypes[f]
		switch {
		case !ok:
			t.Errorf("cloneTypes lacks %s (%s): check clone (sim/checkpoint.go) handles it, then add it", f, fieldTypes[f])
		case typ != fieldTypes[f]:
			t.Errorf("%s is now %s, clone was written for %s: check clone (sim/checkpoint.go), then update cloneTypes", f, fieldTypes[f], typ)
		}
	}
}

// Fields a clone may share with its original (immutable) and fields that are
// not state (scratch, explanations), by "Type.field".
var (
	cloneShared = map[string]bool{"Sim.cfg": true, "Sim.topo": true, "Sim.costs": true, "Sim.infos": true,
		"Sim.err": true, "Task.prog": true, "era.lbNames": true}
	cloneSkipped = map[string]bool{"Sim.lruBuf": true, "Sim.orderBuf": true, "Sim.candBuf": true, "Sim.movedBuf": true,
		"Sim.lbEnv": true, "Sim.albEnv": true, "Sim.scratch": true, "Sim.openDec": true, "Sim.decisions": true}
)

// stateWalker compares two simulators' states by reflection: equal values,
// the same pointer graph (a pointer of a always maps to the same pointer of
// b), and no mutable memory in common.
type stateWalker struct {
	pairs map[uintptr]uintptr
	errs  []string
}

func (w *stateWalker) fail(path, format string, args ...any) {
	if len(w.errs) < 20 {
		w.errs = append(w.errs, path+": "+fmt.Sprintf(format, args...))
	}
}

func (w *stateWalker) walk(path string, a, b reflect.Value, shared bool) {
	if len(w.errs) >= 20 {
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			w.fail(path, "nil in one copy only")
			return
		}
		if a.IsNil() {
			return
		}
		pa, pb := a.Pointer(), b.Pointer()
		if shared {
			if pa != pb {
				w.fail(path, "an immutable shared object was copied")
			}
			return
		}
		if pa == pb {
			w.fail(path, "the copy points at the original's object (%s): re-aim it in clone", a.Type())
			return
		}
		if q, ok := w.pairs[pa]; ok {
			if q != pb {
				w.fail(path, "one object of the original maps to two objects of the copy")
			}
			return
		}
		w.pairs[pa] = pb
		w.walk(path, a.Elem(), b.Elem(), false)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			w.fail(path, "nil or length differs (%d, %d)", a.Len(), b.Len())
			return
		}
		if a.Len() > 0 && a.Pointer() == b.Pointer() && !shared {
			w.fail(path, "shares its backing array with the original: copy it in clone")
		}
		for i := 0; i < a.Len(); i++ {
			w.walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), shared)
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			w.walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), shared)
		}
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < t.NumField(); i++ {
			key := t.Name() + "." + t.Field(i).Name
			if cloneSkipped[key] {
				continue
			}
			w.walk(path+"."+t.Field(i).Name, a.Field(i), b.Field(i), shared || cloneShared[key])
		}
	case reflect.Interface:
		if a.IsNil() != b.IsNil() {
			w.fail(path, "nil in one copy only")
			return
		}
		if !a.IsNil() {
			if a.Elem().Type() != b.Elem().Type() {
				w.fail(path, "dynamic types differ")
				return
			}
			w.walk(path, a.Elem(), b.Elem(), shared)
		}
	case reflect.Func:
		if a.IsNil() != b.IsNil() {
			w.fail(path, "nil in one copy only")
		}
	case reflect.Map, reflect.Chan, reflect.UnsafePointer:
		w.fail(path, "a %s in the state: teach clone about it", a.Kind())
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			w.fail(path, "%v != %v", a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			w.fail(path, "%d != %d", a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			w.fail(path, "%d != %d", a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			w.fail(path, "%g != %g", a.Float(), b.Float())
		}
	case reflect.String:
		if a.String() != b.String() {
			w.fail(path, "%q != %q", a.String(), b.String())
		}
	default:
		w.fail(path, "unhandled kind %s", a.Kind())
	}
}

// compareStates returns the differences between a and b's states (nil when
// b is a faithful, independent copy of a).
func compareStates(a, b *Sim) []string {
	w := &stateWalker{pairs: map[uintptr]uintptr{}}
	w.walk("Sim", reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), false)
	return w.errs
}

// checkpointConfigs are states with everything populated: v6.17 and 3.8
// balancers on 256 and 80 CPUs, the O(1) and staircase runqueues (their
// lists and their class bound to the simulator), forks and exits.
func checkpointConfigs() map[string]*Config {
	m := map[string]*Config{
		"mixed-256": benchConfig("mixed-256"),
		"tbench-40": benchConfig("tbench-40"),
		"o1":        cfg268(8, 2, CPUSchedO1, append(hogs(6, 0), pairs(4, 30000)...)),
		"staircase": cfg268(8, 2, CPUSchedStaircase, append(hogs(6, 5), pairs(4, 30000)...)),
	}
	// Mutex contention and a barrier (sync.go): waiter lists in the state.
	m["syncs"] = &Config{Seed: 2, Machine: machine(1, 1, 1, 4, 1, NumberLinear), Policy: Policy{Base: BaseV617},
		Syncs: []SyncObject{{Name: "m", Kind: SyncMutex}, {Name: "b", Kind: SyncBarrier, Parties: 6}},
		Tasks: []TaskGroup{{Name: "w", Count: 6, Program: []Step{
			{Op: OpLock, Obj: 0}, {Op: OpRun, Dur: 300_000}, {Op: OpUnlock, Obj: 0},
			{Op: OpRun, Dur: 200_000}, {Op: OpBarrier, Obj: 1}, {Op: OpSleep, Dur: 100_000}}}}}
	// SMT sharing on (smt.go): cores settled at the end of each event.
	smt := benchConfig("tbench-40")
	smt.Machine.Costs.SMTGain = 1178
	m["tbench-40-smt"] = smt
	for _, c := range m {
		c.Duration = 60e6
	}
	return m
}

// A clone is equal to its original and shares no mutable memory with it, in
// states taken from several eras part-way through a run.
func TestCheckpointNoAliasing(t *testing.T) {
	for name, cfg := range checkpointConfigs() {
		s, err := New(cfg)
		if err != nil {
			t.Fatal(name, err)
		}
		s.SetRecording(true)
		s.RunUntil(cfg.Duration / 3)
		ck := s.Checkpoint()
		if errs := compareStates(s, ck.s); errs != nil {
			t.Errorf("%s: checkpoint:\n  %s", name, strings.Join(errs, "\n  "))
		}
		r := ck.Restore()
		if errs := compareStates(ck.s, r); errs != nil {
			t.Errorf("%s: restore:\n  %s", name, strings.Join(errs, "\n  "))
		}
	}
}

// The guard catches what it is there for: a slice left shared, a pointer
// left aimed at the original.
func TestCheckpointGuardFails(t *testing.T) {
	s, err := New(benchConfig("tbench-40"))
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(5e6)
	c := s.Clone()
	c.tasks[0].rr = s.tasks[0].rr
	if errs := compareStates(s, c); len(errs) == 0 || !strings.Contains(errs[0], "backing array") {
		t.Errorf("a shared slice went unnoticed: %v", errs)
	}
	c = s.Clone()
	c.cpus[1].domains[0].Parent = s.cpus[1].domains[0].Parent
	if errs := compareStates(s, c); len(errs) == 0 || !strings.Contains(errs[0], "re-aim") {
		t.Errorf("a pointer into the original went unnoticed: %v", errs)
	}
}

// Running on from a restored checkpoint is running on from where it was
// taken: the same trace hash, events, work and metrics at the end, for the
// original (untouched by the checkpoint) and for two restores.
func TestCheckpointResume(t *testing.T) {
	for name, cfg := range checkpointConfigs() {
		ref, _ := New(cfg)
		ref.Run()
		s, _ := New(cfg)
		s.RunUntil(cfg.Duration / 3)
		ck, twin := s.Checkpoint(), s.Checkpoint()
		s.Run()
		r1 := ck.Restore()
		r1.Run()
		r2 := ck.Restore()
		r2.RunUntil(cfg.Duration / 2)
		r2.Run()
		for i, x := range []*Sim{s, r1, r2} {
			if x.TraceHash() != ref.TraceHash() || x.Events() != ref.Events() || x.Work() != ref.Work() {
				t.Errorf("%s: run %d: hash %s events %d work %d, continuous %s %d %d", name, i, x.TraceHash(), x.Events(), x.Work(), ref.TraceHash(), ref.Events(), ref.Work())
			}
			if !reflect.DeepEqual(x.Metrics(), ref.Metrics()) {
				t.Errorf("%s: run %d: metrics differ", name, i)
			}
			var a, b Snapshot
			x.SnapshotInto(&a)
			ref.SnapshotInto(&b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: run %d: snapshots differ", name, i)
			}
		}
		// Running the restored copies left the checkpoint as it was (a
		// function bound to a simulator follows the copy).
		if errs := compareStates(twin.s, ck.s); errs != nil {
			t.Errorf("%s: the checkpoint changed after restores ran:\n  %s", name, strings.Join(errs, "\n  "))
		}
	}
}

// cloneTypes are the types clone was written for.
var cloneTypes = map[string]string{
	"RQ.curr":               "*sim.Task",
	"RQ.nextBuddy":          "*sim.Task",
	"RQ.lastBuddy":          "*sim.Task",
	"RQ.domains":            "[]*sim.SchedDomain",
	"RQ.llc":                "*sim.llcShared",
	"RQ.o1":                 "*sim.o1RQ",
	"RQ.queue":              "[]*sim.Task",
	"RQ.sdLLC":              "*sim.SchedDomain",
	"SchedDomain.Child":     "*sim.SchedDomain",
	"SchedDomain.Groups":    "[]*sim.SchedGroup",
	"SchedDomain.Parent":    "*sim.SchedDomain",
	"Sim.albEnv":            "sim.lbEnv",
	"Sim.candBuf":           "[]*sim.Task",
	"Sim.cfg":               "sim.Config",
	"Sim.costs":             "sim.Costs",
	"Sim.cpuGroups":         "[][]*sim.SchedGroup",
	"Sim.cpus":              "[]*sim.RQ",
	"Sim.decisions":         "[]sim.Decision",
	"Sim.dirty":             "[]int",
	"Sim.era":               "sim.era",
	"Sim.err":               "error",
	"Sim.events":            "[]sim.Event",
	"Sim.freeSlots":         "[][]int32",
	"Sim.gfirst":            "[]int",
	"Sim.groups":            "[]*sim.SchedGroup",
	"Sim.infos":             "[]sim.TaskInfo",
	"Sim.lbEnv":             "sim.lbEnv",
	"Sim.llcs":              "[]*sim.llcShared",
	"Sim.lruBuf":            "[]*sim.Task",
	"Sim.m":                 "sim.metricsAcc",
	"Sim.movedBuf":          "[]*sim.Task",
	"Sim.nSlots":            "[]int",
	"Sim.openDec":           "*sim.Decision",
	"Sim.orderBuf":          "[]*sim.Task",
	"Sim.pcg":               "*rand.PCG",
	"Sim.q":                 "sim.eventQueue",
	"Sim.rng":               "*rand.Rand",
	"Sim.sgroups":           "[]*sim.SchedGroup",
	"Sim.sisVariant":        "sim.sisVariant",
	"Sim.syncs":             "[]sim.syncState",
	"Sim.tasks":             "[]*sim.Task",
	"Sim.topo":              "*sim.Topology",
	"Task.o1":               "sim.o1Task",
	"Task.prog":             "[]sim.Step",
	"Task.rr":               "[]int",
	"Task.wakers":           "[]int32",
	"era.activeBalance":     "func(*sim.Sim, *sim.RQ, int)",
	"era.class":             "sim.rqClass",
	"era.classFor":          "func(*sim.Sim) sim.rqClass",
	"era.cpuCapacity":       "func(int) int64",
	"era.detachAccount":     "func(*sim.Sim, *sim.lbEnv, *sim.Task)",
	"era.lbNames":           "*[3]string",
	"era.loadBalance":       "func(*sim.Sim, *sim.lbEnv) int",
	"era.migrateEligible":   "func(*sim.Sim, *sim.Task, *sim.lbEnv) bool",
	"era.migratePinned":     "func(*sim.Task, *sim.lbEnv)",
	"era.needActiveBalance": "func(*sim.lbEnv) bool",
	"era.newidleBalance":    "func(*sim.Sim, *sim.RQ) bool",
	"era.nohzIdleUpdate":    "func(*sim.Sim, *sim.RQ)",
	"era.idleMult":          "func(*sim.RQ) int64",
	"era.nohzKickBusy":      "func(*sim.Sim, *sim.RQ) bool",
	"era.ttwuWakeList":      "func(*sim.Sim, int, *sim.RQ) bool",
	"era.rebalanceDomains":  "func(*sim.Sim, *sim.RQ, int)",
	"era.sdInit":            "func(*sim.SchedDomain)",
	"era.selectTaskRQ":      "func(*sim.Sim, *sim.Task, int, int, bool, *sim.Task, sim.SDFlag, *sim.Decision) int",
	"era.track":             "sim.loadTracker",
	"era.ttwuAvgIdle":       "func(*sim.Sim, *sim.RQ, int64)",
	"eventQueue.buckets":    "[1024]sim.qbucket",
	"eventQueue.heap":       "[]sim.hent",
	"eventQueue.slots":      "[]sim.slotInfo",
	"hist.counts":           "[]int64",
	"metricsAcc.lifetime":   "sim.hist",
	"metricsAcc.migWait":    "sim.hist",
	"metricsAcc.runqWait":   "sim.hist",
	"metricsAcc.wakeLat":    "sim.hist",
	"o1Array.queue":         "[140][]*sim.Task",
	"o1RQ.arrays":           "[2]sim.o1Array",
	"o1Task.before":         "*sim.Task",
	"qbucket.e":             "[]sim.qent",
	"rqClass.chargeWork":    "func(*sim.Sim, *sim.RQ)",
	"rqClass.dequeue":       "func(*sim.Sim, *sim.RQ, *sim.Task, int)",
	"rqClass.enqueue":       "func(*sim.Sim, *sim.RQ, *sim.Task, int)",
	"rqClass.pick":          "func(*sim.Sim, *sim.RQ, *sim.Task) *sim.Task",
	"rqClass.pickKey":       "func(*sim.Task) int64",
	"rqClass.putPrev":       "func(*sim.Sim, *sim.RQ, *sim.Task)",
	"rqClass.queueAdd":      "func(*sim.RQ, *sim.Task)",
	"rqClass.queueRemove":   "func(*sim.RQ, *sim.Task)",
	"rqClass.setNext":       "func(*sim.Sim, *sim.RQ, *sim.Task)",
	"rqClass.taskFork":      "func(*sim.Sim, *sim.RQ, *sim.Task)",
	"rqClass.taskWaking":    "func(*sim.Sim, *sim.RQ, *sim.Task)",
	"rqClass.tickPreempt":   "func(*sim.Sim, *sim.RQ) bool",
	"rqClass.updateCurr":    "func(*sim.Sim, *sim.RQ) bool",
	"rqClass.wakeupPreempt": "func(*sim.Sim, *sim.RQ, *sim.Task, *sim.Task) bool",
	"sisVariant.fn":         "func(*sim.Sim, *sim.Task, int, int, *sim.Decision) int",
	"syncState.waiters":     "[]int32",
}
