package scenarios

import (
	"encoding/json"
	"fmt"

	"schedplay/sim"
)

// Synchronisation steps (version 2): mutexes, condition variables and
// barriers, named by the steps that use them (as rt-app names its
// resources). A name is one object: using it as two kinds is an error.

type syncTable struct {
	objs  []sim.SyncObject
	index map[string]int
}

// syncUse is one step's use of a sync object.
func (st *Step) syncUses() []struct {
	key, name string
	kind      sim.SyncKind
} {
	var out []struct {
		key, name string
		kind      sim.SyncKind
	}
	add := func(key, name string, kind sim.SyncKind) {
		if name != "" {
			out = append(out, struct {
				key, name string
				kind      sim.SyncKind
			}{key, name, kind})
		}
	}
	sp := st.syncPart()
	add("lock", sp.Lock, sim.SyncMutex)
	add("unlock", sp.Unlock, sim.SyncMutex)
	add("cond_wait", sp.CondWait, sim.SyncCond)
	add("mutex", sp.Mutex, sim.SyncMutex)
	add("signal", sp.Signal, sim.SyncCond)
	add("broadcast", sp.Broadcast, sim.SyncCond)
	add("barrier", sp.Barrier, sim.SyncBarrier)
	return out
}

// resolveSyncs collects the objects the tasks' steps name, in order of
// first use, and a barrier's parties: the instances of every group whose
// program arrives at it (rt-app counts the threads that reference it).
func resolveSyncs(p *problems, path string, tasks []Task) *syncTable {
	t := &syncTable{index: map[string]int{}}
	if len(tasks) > MaxTaskGroups {
		return t // resolveTasks reports it
	}
	var walk func(steps []Step, sp string, gi int, seen map[string]bool)
	walk = func(steps []Step, sp string, gi int, seen map[string]bool) {
		for j := range steps {
			st := &steps[j]
			jp := index(sp, j)
			for _, u := range st.syncUses() {
				up := join(jp, u.key)
				if !validName(u.name) {
					p.add(up, quote(u.name)+" is not a name (1 to 32 of A-Z a-z 0-9 _ . -)")
					continue
				}
				i, ok := t.index[u.name]
				if !ok {
					if len(t.objs) >= MaxSyncObjects {
						p.add(up, fmt.Sprintf("more than %d mutexes, condition variables and barriers", MaxSyncObjects))
						continue
					}
					i = len(t.objs)
					t.index[u.name] = i
					t.objs = append(t.objs, sim.SyncObject{Name: u.name, Kind: u.kind})
				}
				if k := t.objs[i].Kind; k != u.kind {
					p.add(up, fmt.Sprintf("%s is a %s elsewhere; a name is one object", quote(u.name), syncKindName(k)))
					continue
				}
				if u.kind == sim.SyncBarrier && !seen[u.name] {
					seen[u.name] = true
					if tasks[gi].Count == 0 && tasks[gi].CountOf == "" {
						p.add(up, "a group started by forks cannot use a barrier (its parties are counted at the start)")
					}
					t.objs[i].Parties += tasks[gi].Count
				}
			}
			walk(st.Program, join(jp, "program"), gi, seen)
		}
	}
	for gi := range tasks {
		walk(tasks[gi].Program, join(index(path, gi), "program"), gi, map[string]bool{})
	}
	return t
}

func syncKindName(k sim.SyncKind) string {
	return [...]string{sim.SyncMutex: "mutex", sim.SyncCond: "condition variable", sim.SyncBarrier: "barrier"}[k]
}

// MaxSyncObjects bounds the sync objects of a scenario.
const MaxSyncObjects = 256

// syncStepRows are the schema rows of the synchronisation steps.
func syncStepRows() []Field {
	name := func(key, doc, example string, dst func(st *SyncStep) *string) Field {
		return Field{Path: "tasks[i].program[j]." + key, Kind: KindString, Max: 32, Example: example, OneOf: "step",
			Doc: doc, notEmpty: "needs a name",
			onSet: func(s *Scenario, k keys, v string) error {
				if sp := step(s, k).syncPart(); *dst(&sp) == "" {
					return resetStep(s, k, v)
				}
				return nil
			},
			at: syncAt(dst)}
	}
	rows := []Field{
		name("lock", "take this mutex, blocking while another task holds it (a plain futex: unlock wakes the first waiter, which retries)", "m",
			func(st *SyncStep) *string { return &st.Lock }),
		name("unlock", "release this mutex (held by this task)", "m", func(st *SyncStep) *string { return &st.Unlock }),
		name("cond_wait", "release mutex, block on this condition variable until signalled, then retake the mutex", "c",
			func(st *SyncStep) *string { return &st.CondWait }),
		{Path: "tasks[i].program[j].mutex", Kind: KindString, Max: 32, With: "cond_wait", Example: "m",
			Doc: "a cond_wait: the mutex it releases and retakes (required)",
			at:  syncAt(func(st *SyncStep) *string { return &st.Mutex })},
		name("signal", "wake the first task waiting on this condition variable (lost if none waits)", "c", func(st *SyncStep) *string { return &st.Signal }),
		name("broadcast", "wake every task waiting on this condition variable", "c", func(st *SyncStep) *string { return &st.Broadcast }),
		name("barrier", "block until every instance of every group using this barrier has arrived (rt-app's barrier)", "b",
			func(st *SyncStep) *string { return &st.Barrier }),
	}
	for i := range rows {
		rows[i].Since = 2
	}
	return rows
}

// syncAt is a sync step's string field: absent while the step has no sync
// part; setting it makes one (and setting it to "" leaves an empty one,
// which writes nothing).
func syncAt(dst func(st *SyncStep) *string) func(*Scenario, keys) slot {
	return func(s *Scenario, k keys) slot { return syncSlot{step(s, k), dst} }
}

type syncSlot struct {
	st  *Step
	dst func(st *SyncStep) *string
}

func (c syncSlot) part() *SyncStep {
	if c.st.SyncStep == nil {
		c.st.SyncStep = &SyncStep{}
	}
	return c.st.SyncStep
}

func (c syncSlot) get() (string, bool) {
	sp := c.st.syncPart()
	v := *c.dst(&sp)
	return v, v != ""
}
func (c syncSlot) set(st setter, v, def string) error {
	if v == "" && c.st.SyncStep == nil {
		return nil
	}
	return strSlot{c.dst(c.part())}.set(st, v, def)
}
func (c syncSlot) decode(d *decoder, raw json.RawMessage, path string) {
	d.str(raw, path, c.dst(c.part()))
}
