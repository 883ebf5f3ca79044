package sim

import (
	"fmt"
	"math/rand/v2"
	"unsafe"
)

// Checkpoints and seeking.
//
// The simulator is deterministic, so the state at any time t is a function
// of the scenario and t: a front end that wants to show t again can re-run
// from zero. A Checkpoint makes that quick: it is a complete, frozen copy of
// the simulator (the PRNG's state included) taken between two events;
// Restore returns a new, independent simulator in exactly that state, and
// running it to t gives what running the original to t gives, event for
// event (the trace hash and the metrics agree). A Timeline takes a
// checkpoint every Interval of simulated time as the run goes, so a seek
// re-simulates at most one interval.
//
// The copy (clone) is explicit, field by field, because the state is a
// graph: runqueues point at tasks, domains at groups and at each other, the
// O(1) lists and the balancer's lb_env at tasks, runqueues and domains.
// Flat structs (Task, RQ, SchedDomain, SchedGroup, llcShared and Sim itself)
// are copied by value, which takes every scalar, array and new value field
// along without being told; then every pointer is re-aimed at the copy's
// object of the same identity (a task by id, a runqueue by CPU, a group by
// ID, a domain by (CPU, level position), an LLC by index), and every slice
// that the run mutates gets its own backing array. What is shared with the
// original is immutable after New: the Config (programs included), the
// Topology, the cost model, the era's function table, the task infos and
// the event queue's per-slot kind and id (append-only prefixes, shared
// capped at their length so that an append reallocates).
//
// Not copied: the decision ring (explanations of the last 16384 decisions,
// about 5 MB; a restored simulator starts an empty ring, so Decision of an
// event before the restore reports false) and scratch buffers that every use
// resets (lruBuf, orderBuf, candBuf, movedBuf, lbEnv, albEnv, scratch).
// None of them reaches the trace or the metrics.
//
// A field added later is covered by the value copy if it holds values; if
// it holds a pointer, slice, map or function, clone must be taught about
// it: TestCheckpointCoversEveryField (checkpoint_test.go) lists every such
// field of the state's types and fails on one it does not know, and
// TestCheckpointNoAliasing walks a clone beside its original by reflection
// and fails on any mutable memory the two share.

// Checkpoint is the whole simulator state at one instant, frozen: nothing
// runs it, and Restore copies it again, so it can be restored any number
// of times.
type Checkpoint struct {
	s     *Sim
	bytes int64
}

// Checkpoint takes a checkpoint of s at its current time. Call it between
// events (not from inside the simulator).
func (s *Sim) Checkpoint() *Checkpoint {
	c, n := s.clone(false)
	return &Checkpoint{s: c, bytes: n}
}

// Time is the simulated time of the checkpoint, ns.
func (c *Checkpoint) Time() int64 { return c.s.now }

// Bytes is the memory the checkpoint holds, counted as it was copied (the
// Sim, runqueues, domains, groups, tasks and every slice it owns, at their
// capacity).
func (c *Checkpoint) Bytes() int64 { return c.bytes }

// Restore returns a new simulator in the checkpoint's state, independent of
// it and of the simulator it was taken from. Recording (events and the
// decision ring) is as it was when the checkpoint was taken.
func (c *Checkpoint) Restore() *Sim {
	s, _ := c.s.clone(c.s.recording)
	return s
}

// Clone returns an independent copy of s in the same state (as a
// checkpoint restored at once).
func (s *Sim) Clone() *Sim {
	c, _ := s.clone(s.recording)
	return c
}

// cloneSlice copies a slice with its own backing array (nil stays nil) and
// adds its size to *n.
func cloneSlice[T any](src []T, n *int64) []T {
	if src == nil {
		return nil
	}
	var z T
	*n += int64(len(src)) * int64(unsafe.Sizeof(z))
	return append(make([]T, 0, len(src)), src...)
}

// cloner re-aims the original's pointers at the copy's objects.
type cloner struct {
	src, dst *Sim
	doms     map[*SchedDomain]*SchedDomain
	llcs     map[*llcShared]*llcShared
	n        int64 // bytes allocated
}

func (k *cloner) task(t *Task) *Task {
	if t == nil {
		return nil
	}
	if int(t.id) >= len(k.src.tasks) || k.src.tasks[t.id] != t {
		panic(fmt.Sprintf("sim: clone: task %d is not in the task table", t.id))
	}
	return k.dst.tasks[t.id]
}

func (k *cloner) tasks(l []*Task) []*Task {
	if l == nil {
		return nil
	}
	out := make([]*Task, len(l), max(len(l), cap(l)))
	k.n += int64(cap(out)) * int64(unsafe.Sizeof((*Task)(nil)))
	for i, t := range l {
		out[i] = k.task(t)
	}
	return out
}

func (k *cloner) rq(rq *RQ) *RQ {
	if rq == nil {
		return nil
	}
	return k.dst.cpus[rq.cpu]
}

func (k *cloner) dom(sd *SchedDomain) *SchedDomain {
	if sd == nil {
		return nil
	}
	d, ok := k.doms[sd]
	if !ok {
		panic("sim: clone: a domain outside the per-CPU chains")
	}
	return d
}

func (k *cloner) group(g *SchedGroup) *SchedGroup {
	if g == nil {
		return nil
	}
	if g.ID >= len(k.src.sgroups) || k.src.sgroups[g.ID] != g {
		panic(fmt.Sprintf("sim: clone: group %d is not in the group table", g.ID))
	}
	return k.dst.sgroups[g.ID]
}

func (k *cloner) groups(l []*SchedGroup) []*SchedGroup {
	if l == nil {
		return nil
	}
	out := make([]*SchedGroup, len(l))
	k.n += int64(len(l)) * int64(unsafe.Sizeof((*SchedGroup)(nil)))
	for i, g := range l {
		out[i] = k.group(g)
	}
	return out
}

// clone deep-copies s (see the essay above). ring: give the copy a fresh
// decision ring when recording (a frozen checkpoint needs none). It
// returns the copy and the bytes it allocated.
func (s *Sim) clone(ring bool) (*Sim, int64) {
	if s.openDec != nil {
		panic("sim: clone inside an event")
	}
	c := new(Sim)
	*c = *s // every value field; the rest is re-done below
	k := &cloner{src: s, dst: c}
	k.n = int64(unsafe.Sizeof(*c))

	// The PRNG: a copy of the PCG's state.
	pcg := *s.pcg
	c.pcg = &pcg
	c.rng = rand.New(c.pcg)

	// The era's table is immutable, except a runqueue class bound to its
	// simulator (2.6.8: o1Class, staircaseClass): bind it to the copy.
	if c.era.classFor != nil {
		c.era.class = c.era.classFor(c)
	}

	// Objects first (so that pointers can be re-aimed), then their fields.
	tasks := make([]Task, len(s.tasks))
	k.n += int64(len(tasks)) * int64(unsafe.Sizeof(Task{}))
	c.tasks = make([]*Task, len(s.tasks), cap(s.tasks))
	k.n += int64(cap(c.tasks)) * int64(unsafe.Sizeof((*Task)(nil)))
	for i, t := range s.tasks {
		tasks[i] = *t
		c.tasks[i] = &tasks[i]
	}
	rqs := make([]RQ, len(s.cpus))
	k.n += int64(len(rqs)) * int64(unsafe.Sizeof(RQ{}))
	c.cpus = make([]*RQ, len(s.cpus))
	for i, rq := range s.cpus {
		rqs[i] = *rq
		c.cpus[i] = &rqs[i]
	}
	groups := make([]SchedGroup, len(s.sgroups))
	k.n += int64(len(groups)) * int64(unsafe.Sizeof(SchedGroup{}))
	c.sgroups = make([]*SchedGroup, len(s.sgroups))
	for i, g := range s.sgroups {
		groups[i] = *g
		c.sgroups[i] = &groups[i]
	}
	llcs := make([]llcShared, len(s.llcs))
	c.llcs = make([]*llcShared, len(s.llcs))
	k.llcs = make(map[*llcShared]*llcShared, len(s.llcs))
	for i, l := range s.llcs {
		llcs[i] = *l
		c.llcs[i] = &llcs[i]
		k.llcs[l] = &llcs[i]
	}
	ndom := 0
	for _, rq := range s.cpus {
		ndom += len(rq.domains)
	}
	doms := make([]SchedDomain, 0, ndom)
	k.n += int64(ndom) * int64(unsafe.Sizeof(SchedDomain{}))
	k.doms = make(map[*SchedDomain]*SchedDomain, ndom)
	for _, rq := range s.cpus {
		for _, sd := range rq.domains {
			doms = append(doms, *sd)
			k.doms[sd] = &doms[len(doms)-1]
		}
	}

	// Tasks.
	for _, t := range c.tasks {
		t.wakers = cloneSlice(t.wakers, &k.n)
		t.rr = cloneSlice(t.rr, &k.n)
		t.o1.before = k.task(t.o1.before)
		// t.prog is the group's program in the Config: immutable, shared.
	}
	// Runqueues.
	for _, rq := range c.cpus {
		rq.curr = k.task(rq.curr)
		rq.nextBuddy, rq.lastBuddy = k.task(rq.nextBuddy), k.task(rq.lastBuddy)
		rq.queue = k.tasks(rq.queue)
		rq.sdLLC = k.dom(rq.sdLLC)
		if rq.llc != nil {
			rq.llc = k.llcs[rq.llc]
		}
		if rq.domains != nil {
			ds := make([]*SchedDomain, len(rq.domains))
			for i, sd := range rq.domains {
				ds[i] = k.dom(sd)
			}
			rq.domains = ds
			k.n += int64(len(ds)) * int64(unsafe.Sizeof((*SchedDomain)(nil)))
		}
		if rq.o1 != nil { // allocated beside the RQ
			o1 := *rq.o1
			rq.o1 = &o1
			k.n += int64(unsafe.Sizeof(o1))
			for a := range o1.arrays {
				arr := &o1.arrays[a]
				for prio, l := range arr.queue {
					if l != nil {
						arr.queue[prio] = k.tasks(l)
					}
				}
			}
		}
	}
	// Domains and groups.
	for i := range doms {
		sd := &doms[i]
		sd.Parent = k.dom(sd.Parent)
		sd.Child = k.dom(sd.Child)
		sd.Groups = k.groups(sd.Groups)
	}
	c.groups = k.groups(s.groups)
	c.cpuGroups = make([][]*SchedGroup, len(s.cpuGroups))
	for i, l := range s.cpuGroups {
		c.cpuGroups[i] = k.groups(l)
	}

	// The event queue.
	q := &c.q
	q.slots = cloneSlice(s.q.slots, &k.n)
	q.heap = cloneSlice(s.q.heap, &k.n)
	nb := 0
	for i := range s.q.buckets {
		nb += len(s.q.buckets[i].e)
	}
	backing := make([]qent, nb)
	k.n += int64(nb) * int64(unsafe.Sizeof(qent{}))
	nb = 0
	for i := range s.q.buckets {
		// Each bucket capped at its length: an append reallocates it and
		// never writes into its neighbour. Consumed entries (before h)
		// are kept, so the copy is the original entry for entry.
		b := s.q.buckets[i].e
		q.buckets[i].e = backing[nb : nb+copy(backing[nb:], b) : nb+len(b)]
		nb += len(b)
	}

	// Slot tables, buffers, metrics.
	c.infos = s.infos[:len(s.infos):len(s.infos)] // immutable entries, append-only
	c.gfirst = cloneSlice(s.gfirst, &k.n)
	c.nSlots = cloneSlice(s.nSlots, &k.n)
	c.freeSlots = make([][]int32, len(s.freeSlots))
	for i, l := range s.freeSlots {
		c.freeSlots[i] = cloneSlice(l, &k.n)
	}
	c.dirty = cloneSlice(s.dirty, &k.n)
	if s.syncs != nil {
		c.syncs = make([]syncState, len(s.syncs))
		k.n += int64(len(s.syncs)) * int64(unsafe.Sizeof(syncState{}))
		for i, o := range s.syncs {
			o.waiters = cloneSlice(o.waiters, &k.n)
			c.syncs[i] = o
		}
	}
	c.events = cloneSlice(s.events, &k.n)
	c.m.migWait.counts = cloneSlice(s.m.migWait.counts, &k.n)
	c.m.wakeLat.counts = cloneSlice(s.m.wakeLat.counts, &k.n)
	c.m.runqWait.counts = cloneSlice(s.m.runqWait.counts, &k.n)
	c.m.lifetime.counts = cloneSlice(s.m.lifetime.counts, &k.n)

	// Scratch: reset by every use, not state between events.
	c.lruBuf, c.orderBuf, c.candBuf, c.movedBuf = nil, nil, nil, nil
	c.lbEnv, c.albEnv = lbEnv{}, lbEnv{}
	c.scratch = Decision{}
	c.openDec = nil
	c.decisions = nil
	if ring && c.recording {
		c.decisions = make([]Decision, decisionRing)
	}
	return c, k.n
}

// Timeline keeps the checkpoints of one run: one at time 0 and one at every
// multiple of Interval the run reaches, within a memory budget. When the
// checkpoints outgrow it, the interval doubles and every other checkpoint
// goes, so memory stays under the budget (plus one checkpoint) however long
// the run, and a seek re-simulates less than one (current) interval.
type Timeline struct {
	interval int64
	budget   int64
	cks      []*Checkpoint // by time; cks[0] at the start
	bytes    int64
}

// NewTimeline starts a timeline for s (checkpointing it now, normally at
// time 0) that takes a checkpoint every interval ns and holds at most about
// budget bytes of them.
func NewTimeline(s *Sim, interval, budget int64) *Timeline {
	tl := &Timeline{interval: max(interval, 1), budget: budget}
	tl.add(s.Checkpoint())
	return tl
}

// Interval is the time between two checkpoints, ns (it doubles when the
// checkpoints outgrow the budget).
func (tl *Timeline) Interval() int64 { return tl.interval }

// Len is the number of checkpoints held; Bytes their memory.
func (tl *Timeline) Len() int     { return len(tl.cks) }
func (tl *Timeline) Bytes() int64 { return tl.bytes }

// Last is the time of the newest checkpoint.
func (tl *Timeline) Last() int64 { return tl.cks[len(tl.cks)-1].Time() }

// Next is the time of the next checkpoint after now: the run should stop
// there (RunUntil) and call Observe.
func (tl *Timeline) Next(now int64) int64 { return (now/tl.interval + 1) * tl.interval }

// Observe takes a checkpoint of s if it stands on a checkpoint time beyond
// the newest one (a re-simulation of times already checkpointed takes
// none). It reports whether it took one.
func (tl *Timeline) Observe(s *Sim) bool {
	now := s.Now()
	if now%tl.interval != 0 || now <= tl.Last() {
		return false
	}
	tl.add(s.Checkpoint())
	return true
}

// SetBudget changes the memory budget, thinning the checkpoints at once
// when they outgrow it.
func (tl *Timeline) SetBudget(budget int64) {
	tl.budget = budget
	tl.thin()
}

func (tl *Timeline) add(c *Checkpoint) {
	tl.cks = append(tl.cks, c)
	tl.bytes += c.Bytes()
	tl.thin()
}

func (tl *Timeline) thin() {
	for tl.budget > 0 && tl.bytes > tl.budget && len(tl.cks) > 2 {
		tl.interval *= 2
		kept := tl.cks[:1]
		tl.bytes = tl.cks[0].Bytes()
		for _, k := range tl.cks[1:] {
			if k.Time()%tl.interval == 0 {
				kept = append(kept, k)
				tl.bytes += k.Bytes()
			}
		}
		clear(tl.cks[len(kept):])
		tl.cks = kept
	}
}

// At is the newest checkpoint at or before t (the first one when t is
// earlier than all).
func (tl *Timeline) At(t int64) *Checkpoint {
	i := len(tl.cks) - 1
	for i > 0 && tl.cks[i].Time() > t {
		i--
	}
	return tl.cks[i]
}
