package sim

import "math/bits"

// evKind is the kind of an internal (queued) event. Internal events drive the
// simulation; trace Events are what it reports.
type evKind uint8

const (
	// Per-CPU events (at most one pending of each kind per CPU).
	evRunDone       evKind = iota // the running task finished its step's CPU work (gen-checked)
	evTick                        // the jiffy: ticks every ticking CPU (uses CPU 0's slot)
	evIdleReady                   // a CPU finished leaving its idle state
	evNohzKick                    // the idle load balancer was kicked
	evActiveBalance               // the stopper runs on the busiest CPU (task = destination CPU)
	evTickCPU                     // one CPU's tick, its interrupt late by its spread (timer.go)
	// Per-task events (at most one pending of each kind per task).
	evTimer  // a blocked task's sleep/timer expired (gen-checked)
	evArrive // a woken task arrives at its CPU (after the IPI)
	evSpawn  // fork a task instance
	numEvKinds
)

const numCPUEvKinds = int(evTickCPU) + 1

// qev is a queued event. Order: time, then the order in which events were
// (last) scheduled, so that events at the same instant run in the order they
// were created (determinism).
type qev struct {
	t    int64
	kind evKind
	cpu  int32
	task int32
	gen  uint32
}

// eventQueue orders pending events by (time, sequence), the sequence being
// the order in which they were scheduled.
//
// Every event has a slot — one per (CPU, per-CPU kind) and per (task,
// per-task kind) — and a slot is pending at most once: scheduling an event
// whose slot is pending replaces it (the old one was stale: a re-armed
// completion, a re-armed timer). So the queue never holds dead entries.
//
// Events are nearly all due within a millisecond (a run step's end, an IPI,
// an idle exit), so the queue is a timing wheel of wheelSize buckets of
// bucketNS each, covering the next ~1 ms, with a binary heap for what lies
// beyond. A bucket (about a microsecond) holds its events in order, each
// entry carrying its time: an event scheduled later has a later sequence
// number than every event already queued, so it goes after those of the
// same time, and the earliest event is the front of the first non-empty
// bucket, which a bitmap finds and which is cached. Overflow events move into
// the wheel once, when it reaches them: the buckets the wheel newly covers
// are empty then and the heap hands its events over in order. The order is
// exactly (time, sequence): the trace does not depend on the structure.
type eventQueue struct {
	slots []slotInfo

	buckets  [wheelSize]qbucket
	nonempty [wheelSize / 64]uint64
	base     int64 // absolute bucket index of the current time
	head     int64 // absolute index of the first non-empty bucket, -1 when unknown
	heap     []hent
	n        int // pending events

	seq   uint64
	ncpu  int32
	ntask int32
}

// slotInfo is what a slot holds besides its time: where its pending event
// is, and the event's fields.
type slotInfo struct {
	where int32 // -1 not pending; -2 in the overflow heap; else bucket index
	at    int32 // index within the heap (where == -2)
	gen   uint32
	arg   int32  // per-CPU slots: the event's task field; per-task slots: its CPU
	id    int32  // fixed at init: the CPU of a per-CPU slot, the task of a per-task slot
	kind  evKind // fixed at init
}

// qent is a wheel entry; a bucket's live entries are e[h:], in order.
type qent struct {
	t    int64
	slot int32
}

// A bucket's slice is only ever assigned in the forms bk.e = bk.e[:n] and
// bk.e = append(bk.e, x), which the compiler turns into a store of the
// length alone unless the array grows: no pointer store, so no GC write
// barrier (which Go's wasm port pays while a collection is marking).
type qbucket struct {
	e []qent
	h int
}

// hent is an overflow-heap entry.
type hent struct {
	t    int64
	seq  uint64
	slot int32
}

const (
	wheelBits   = 10
	wheelSize   = 1 << wheelBits
	bucketShift = 10 // a bucket is 1024 ns
)

func (q *eventQueue) init(ncpu, ntask int) {
	q.ncpu = int32(ncpu)
	n := numCPUEvKinds * ncpu
	q.slots = make([]slotInfo, n)
	for i := range q.slots {
		q.slots[i] = slotInfo{where: -1, kind: evKind(i / ncpu), id: int32(i % ncpu)}
	}
	q.grow(ntask)
	q.head = -1
	// A few entries per bucket up front, in one allocation; a busy bucket grows.
	const perBucket = 4
	backing := make([]qent, wheelSize*perBucket)
	for i := range q.buckets {
		q.buckets[i].e = backing[i*perBucket : i*perBucket : (i+1)*perBucket]
	}
}

// numTaskEvKinds is the number of per-task kinds: each task has that many
// consecutive slots after the per-CPU ones, so that a task forked during a
// run only appends slots (grow). Slot numbers never order events.
const numTaskEvKinds = int(numEvKinds) - numCPUEvKinds

// grow makes the queue hold slots for ntask tasks.
func (q *eventQueue) grow(ntask int) {
	for t := q.ntask; t < int32(ntask); t++ {
		for k := 0; k < numTaskEvKinds; k++ {
			q.slots = append(q.slots, slotInfo{where: -1, kind: evKind(numCPUEvKinds + k), id: t})
		}
	}
	if int32(ntask) > q.ntask {
		q.ntask = int32(ntask)
	}
}

func (q *eventQueue) slot(e *qev) int32 {
	if int(e.kind) < numCPUEvKinds {
		return int32(e.kind)*q.ncpu + e.cpu
	}
	return int32(numCPUEvKinds)*q.ncpu + e.task*int32(numTaskEvKinds) + int32(int(e.kind)-numCPUEvKinds)
}

func (q *eventQueue) len() int { return q.n }

// push schedules e, replacing a pending event of the same slot.
func (q *eventQueue) push(e qev) {
	q.seq++
	s := q.slot(&e)
	si := &q.slots[s]
	if si.where != -1 {
		q.remove(s)
	}
	si.gen = e.gen
	if int(e.kind) < numCPUEvKinds {
		si.arg = e.task
	} else {
		si.arg = e.cpu
	}
	q.insert(s, e.t, q.seq)
	q.n++
}

// insert puts slot s, due at t with sequence number seq, into the wheel or
// the heap. Into the wheel, it goes after every entry of its bucket due at
// or before t: those were scheduled earlier (smaller sequence numbers).
func (q *eventQueue) insert(s int32, t int64, seq uint64) {
	b := t >> bucketShift
	if b < q.base {
		b = q.base // cannot happen (no event is scheduled in the past); be safe
	}
	if b >= q.base+wheelSize {
		q.slots[s].where = -2
		q.heap = append(q.heap, hent{})
		q.heapUp(len(q.heap)-1, hent{t: t, seq: seq, slot: s})
		return
	}
	i := int32(b & (wheelSize - 1))
	q.slots[s].where = i
	bk := &q.buckets[i]
	if len(bk.e) == bk.h {
		// Empty: start over at the front.
		bk.e = bk.e[:0]
		bk.e = append(bk.e, qent{t: t, slot: s})
		bk.h = 0
		q.nonempty[i>>6] |= 1 << (uint(i) & 63)
		if q.head >= 0 && b < q.head {
			q.head = b
		}
		return
	}
	e := bk.e
	if e[len(e)-1].t <= t {
		if len(e) == cap(e) && bk.h > 0 {
			bk.e = bk.e[:copy(e, e[bk.h:])]
			bk.h = 0
		}
		bk.e = append(bk.e, qent{t: t, slot: s})
		return
	}
	// Somewhere inside: after the last entry due at or before t. Buckets
	// are short, so entries move one by one.
	if len(e) == cap(e) && bk.h > 0 {
		j := bk.h
		for e[j].t <= t {
			e[j-1] = e[j]
			j++
		}
		e[j-1] = qent{t: t, slot: s}
		bk.h--
		return
	}
	bk.e = append(bk.e, qent{})
	e = bk.e
	j := len(e) - 1
	for j > bk.h && e[j-1].t > t {
		e[j] = e[j-1]
		j--
	}
	e[j] = qent{t: t, slot: s}
}

// remove takes a pending slot out of the queue.
func (q *eventQueue) remove(s int32) {
	si := &q.slots[s]
	w := si.where
	si.where = -1
	q.n--
	if w == -2 {
		i := int(si.at)
		last := q.heap[len(q.heap)-1]
		q.heap = q.heap[:len(q.heap)-1]
		if i < len(q.heap) {
			q.heapFix(i, last)
		}
		return
	}
	bk := &q.buckets[w]
	e := bk.e
	for j := bk.h; j < len(e); j++ {
		if e[j].slot == s {
			bk.e = bk.e[:j+copy(e[j:], e[j+1:])]
			break
		}
	}
	if len(bk.e) == bk.h {
		bk.e, bk.h = bk.e[:0], 0
		q.nonempty[w>>6] &^= 1 << (uint(w) & 63)
		if q.head >= 0 && q.head&(wheelSize-1) == int64(w) {
			q.head = -1
		}
	}
}

// front returns the bucket holding the earliest event (the queue must not
// be empty).
func (q *eventQueue) front() *qbucket {
	if q.head < 0 {
		q.head = q.findHead()
	}
	return &q.buckets[q.head&(wheelSize-1)]
}

// findHead returns the absolute index of the first non-empty bucket,
// moving the wheel to the heap's first event if the wheel is empty.
func (q *eventQueue) findHead() int64 {
	for {
		if i := q.nextBucket(); i >= 0 {
			return q.base + int64((i-int(q.base&(wheelSize-1)))&(wheelSize-1))
		}
		q.advance(q.heap[0].t >> bucketShift)
	}
}

// nextBucket finds the first non-empty bucket at or after base, -1 if none.
func (q *eventQueue) nextBucket() int {
	start := int(q.base & (wheelSize - 1))
	w, bit := start>>6, uint(start&63)
	if x := q.nonempty[w] >> bit; x != 0 {
		return start + bits.TrailingZeros64(x)
	}
	for k := 1; k <= wheelSize/64; k++ {
		ww := (w + k) & (wheelSize/64 - 1)
		x := q.nonempty[ww]
		if k == wheelSize/64 {
			x &= 1<<bit - 1 // back at the start word: only the bits before start
		}
		if x != 0 {
			return ww<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// advance moves the wheel's origin to bucket b (never backwards) and pulls
// the overflow events it now covers into the wheel, in order.
func (q *eventQueue) advance(b int64) {
	if b <= q.base {
		return
	}
	q.base = b
	for len(q.heap) > 0 && q.heap[0].t>>bucketShift < q.base+wheelSize {
		h := q.heap[0]
		last := q.heap[len(q.heap)-1]
		q.heap = q.heap[:len(q.heap)-1]
		if len(q.heap) > 0 {
			q.heapDown(0, last)
		}
		q.insert(h.slot, h.t, h.seq)
	}
}

// peekTime is the time of the earliest event (the queue must not be empty).
func (q *eventQueue) peekTime() int64 {
	bk := q.front()
	return bk.e[bk.h].t
}

// pop removes and returns the earliest event.
func (q *eventQueue) pop() qev {
	t, kind, cpu, task, gen := q.popFields()
	return qev{t: t, kind: kind, cpu: cpu, task: task, gen: gen}
}

// popFields removes the earliest event and returns its fields one by one.
// The event loop takes them this way, in registers: a qev built field by
// field and then copied as a whole is read back with one wide load from the
// narrow stores just made, which the CPU cannot forward from its store
// buffer (a perf profile of Mixed256 put 42 % of step's samples on that
// copy).
func (q *eventQueue) popFields() (t int64, kind evKind, cpu, task int32, gen uint32) {
	bk := q.front()
	ent := bk.e[bk.h]
	bk.h++
	if bk.h == len(bk.e) {
		bk.e, bk.h = bk.e[:0], 0
		i := q.head & (wheelSize - 1)
		q.nonempty[i>>6] &^= 1 << (uint(i) & 63)
		q.head = -1
	}
	si := &q.slots[ent.slot]
	si.where = -1
	q.n--
	t, gen, kind = ent.t, si.gen, si.kind
	if int(kind) < numCPUEvKinds {
		cpu, task = si.id, si.arg
	} else {
		task, cpu = si.id, si.arg
	}
	if b := t >> bucketShift; b > q.base {
		q.advance(b)
	}
	return t, kind, cpu, task, gen
}

// The overflow heap: a binary heap ordered by (time, sequence), sifted with
// a hole; each slot knows its index (for replacement).

func (a *hent) before(b *hent) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.seq < b.seq
}

func (q *eventQueue) heapFix(i int, h hent) {
	if i > 0 && h.before(&q.heap[(i-1)/2]) {
		q.heapUp(i, h)
	} else {
		q.heapDown(i, h)
	}
}

func (q *eventQueue) heapUp(i int, h hent) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.before(&q.heap[p]) {
			break
		}
		q.heap[i] = q.heap[p]
		q.slots[q.heap[i].slot].at = int32(i)
		i = p
	}
	q.heap[i] = h
	q.slots[h.slot].at = int32(i)
}

func (q *eventQueue) heapDown(i int, h hent) {
	n := len(q.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q.heap[c+1].before(&q.heap[c]) {
			c++
		}
		if !q.heap[c].before(&h) {
			break
		}
		q.heap[i] = q.heap[c]
		q.slots[q.heap[i].slot].at = int32(i)
		i = c
	}
	q.heap[i] = h
	q.slots[h.slot].at = int32(i)
}
