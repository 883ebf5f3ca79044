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
	// Per-task events (at most one pending of each kind per task).
	evTimer  // a blocked task's sleep/timer expired (gen-checked)
	evArrive // a woken task arrives at its CPU (after the IPI)
	evSpawn  // fork a task instance
	numEvKinds
)

const numCPUEvKinds = int(evActiveBalance) + 1

// qev is a queued event. Order: time, then the sequence number given when it
// was (last) scheduled, so that events at the same instant run in the order
// they were created (determinism).
type qev struct {
	t    int64
	seq  uint64
	kind evKind
	cpu  int32
	task int32
	gen  uint32
}

// eventQueue orders pending events by (time, sequence).
//
// Every event has a slot — one per (CPU, per-CPU kind) and per (task,
// per-task kind) — and a slot is pending at most once: scheduling an event
// whose slot is pending replaces it (the old one was stale: a re-armed
// completion, a re-armed timer). So the queue never holds dead entries.
//
// Events are nearly all due within a millisecond (a run step's end, an IPI,
// an idle exit), so the queue is a timing wheel of wheelSize buckets of
// bucketNS each, covering the next ~1 ms, with a binary heap for what lies
// beyond. Within a bucket (about a microsecond) a few events are compared by
// (time, sequence); a bitmap finds the next non-empty bucket. Overflow events
// move into the wheel once, when it reaches them. The order is exactly the
// heap's: the trace does not depend on the structure.
type eventQueue struct {
	// Per slot.
	t     []int64
	sq    []uint64
	gen   []uint32
	arg   []int32  // per-CPU slots: the event's task field; per-task slots: its CPU
	where []int32  // -1 not pending; -2 in the overflow heap; else bucket index
	at    []int32  // index within its bucket, or within the heap
	kind  []evKind // fixed at init
	id    []int32  // fixed at init: the CPU of a per-CPU slot, the task of a per-task slot
	head  int32    // cached earliest slot, -1 when unknown

	buckets  [wheelSize][]int32 // slots per bucket (absolute bucket index & mask)
	nonempty [wheelSize / 64]uint64
	base     int64   // absolute bucket index of the current time
	heap     []int32 // overflow min-heap of slots
	n        int     // pending events

	seq   uint64
	ncpu  int32
	ntask int32
}

const (
	wheelBits   = 10
	wheelSize   = 1 << wheelBits
	bucketShift = 10 // a bucket is 1024 ns
)

func (q *eventQueue) init(ncpu, ntask int) {
	q.ncpu = int32(ncpu)
	n := numCPUEvKinds * ncpu
	q.t = make([]int64, n)
	q.sq = make([]uint64, n)
	q.gen = make([]uint32, n)
	q.arg = make([]int32, n)
	q.where = make([]int32, n)
	q.at = make([]int32, n)
	q.kind = make([]evKind, n)
	q.id = make([]int32, n)
	for i := range q.where {
		q.where[i] = -1
		q.kind[i], q.id[i] = evKind(i/ncpu), int32(i%ncpu)
	}
	q.grow(ntask)
	q.head = -1
	// A few slots per bucket up front, in one allocation; a busy bucket grows.
	const perBucket = 4
	backing := make([]int32, wheelSize*perBucket)
	for i := range q.buckets {
		q.buckets[i] = backing[i*perBucket : i*perBucket : (i+1)*perBucket]
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
			q.t = append(q.t, 0)
			q.sq = append(q.sq, 0)
			q.gen = append(q.gen, 0)
			q.arg = append(q.arg, 0)
			q.where = append(q.where, -1)
			q.at = append(q.at, 0)
			q.kind = append(q.kind, evKind(numCPUEvKinds+k))
			q.id = append(q.id, t)
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

// before orders slots a and b by (time, sequence).
func (q *eventQueue) before(a, b int32) bool {
	if q.t[a] != q.t[b] {
		return q.t[a] < q.t[b]
	}
	return q.sq[a] < q.sq[b]
}

func (q *eventQueue) len() int { return q.n }

// push schedules e, replacing a pending event of the same slot.
func (q *eventQueue) push(e qev) {
	q.seq++
	s := q.slot(&e)
	if q.where[s] != -1 {
		q.remove(s)
	}
	q.t[s], q.sq[s], q.gen[s] = e.t, q.seq, e.gen
	if int(e.kind) < numCPUEvKinds {
		q.arg[s] = e.task
	} else {
		q.arg[s] = e.cpu
	}
	q.insert(s)
	q.n++
	if q.head >= 0 && q.before(s, q.head) {
		q.head = s
	}
}

// insert puts a slot whose time is set into the wheel or the heap.
func (q *eventQueue) insert(s int32) {
	b := q.t[s] >> bucketShift
	if b < q.base {
		b = q.base // cannot happen (no event is scheduled in the past); be safe
	}
	if b >= q.base+wheelSize {
		q.where[s] = -2
		q.heap = append(q.heap, s)
		q.heapUp(len(q.heap)-1, s)
		return
	}
	i := int32(b & (wheelSize - 1))
	q.where[s] = i
	q.at[s] = int32(len(q.buckets[i]))
	q.buckets[i] = append(q.buckets[i], s)
	q.nonempty[i>>6] |= 1 << (uint(i) & 63)
}

// remove takes a pending slot out of the queue.
func (q *eventQueue) remove(s int32) {
	if s == q.head {
		q.head = -1
	}
	w := q.where[s]
	q.where[s] = -1
	q.n--
	if w == -2 {
		i := int(q.at[s])
		last := q.heap[len(q.heap)-1]
		q.heap = q.heap[:len(q.heap)-1]
		if i < len(q.heap) {
			q.heapFix(i, last)
		}
		return
	}
	bk := q.buckets[w]
	i := q.at[s]
	last := bk[len(bk)-1]
	bk[i] = last
	q.at[last] = i
	bk = bk[:len(bk)-1]
	q.buckets[w] = bk
	if len(bk) == 0 {
		q.nonempty[w>>6] &^= 1 << (uint(w) & 63)
	}
}

// first returns the earliest pending slot (the queue must not be empty).
func (q *eventQueue) first() int32 {
	if q.head < 0 {
		q.head = q.findFirst()
	}
	return q.head
}

func (q *eventQueue) findFirst() int32 {
	for {
		if i := q.nextBucket(); i >= 0 {
			bk := q.buckets[i]
			m := bk[0]
			for _, s := range bk[1:] {
				if q.before(s, m) {
					m = s
				}
			}
			return m
		}
		// The wheel is empty: move it to the heap's first event.
		q.advance(q.t[q.heap[0]] >> bucketShift)
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
// the overflow events it now covers into the wheel.
func (q *eventQueue) advance(b int64) {
	if b <= q.base {
		return
	}
	q.base = b
	for len(q.heap) > 0 && q.t[q.heap[0]]>>bucketShift < q.base+wheelSize {
		s := q.heap[0]
		last := q.heap[len(q.heap)-1]
		q.heap = q.heap[:len(q.heap)-1]
		if len(q.heap) > 0 {
			q.heapDown(0, last)
		}
		q.insert(s)
	}
}

// peekTime is the time of the earliest event (the queue must not be empty).
func (q *eventQueue) peekTime() int64 { return q.t[q.first()] }

// pop removes and returns the earliest event.
func (q *eventQueue) pop() qev {
	s := q.first()
	e := q.event(s)
	q.remove(s)
	q.advance(e.t >> bucketShift)
	return e
}

// event rebuilds the event of a slot.
func (q *eventQueue) event(s int32) qev {
	e := qev{t: q.t[s], seq: q.sq[s], gen: q.gen[s], kind: q.kind[s]}
	if int(e.kind) < numCPUEvKinds {
		e.cpu, e.task = q.id[s], q.arg[s]
	} else {
		e.task, e.cpu = q.id[s], q.arg[s]
	}
	return e
}

// The overflow heap: a binary heap of slots, sifted with a hole.

func (q *eventQueue) heapFix(i int, s int32) {
	if i > 0 && q.before(s, q.heap[(i-1)/2]) {
		q.heapUp(i, s)
	} else {
		q.heapDown(i, s)
	}
}

func (q *eventQueue) heapUp(i int, s int32) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.before(s, q.heap[p]) {
			break
		}
		q.heap[i] = q.heap[p]
		q.at[q.heap[i]] = int32(i)
		i = p
	}
	q.heap[i] = s
	q.at[s] = int32(i)
}

func (q *eventQueue) heapDown(i int, s int32) {
	n := len(q.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q.before(q.heap[c+1], q.heap[c]) {
			c++
		}
		if !q.before(q.heap[c], s) {
			break
		}
		q.heap[i] = q.heap[c]
		q.at[q.heap[i]] = int32(i)
		i = c
	}
	q.heap[i] = s
	q.at[s] = int32(i)
}
