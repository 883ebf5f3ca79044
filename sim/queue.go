package sim

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

func (a *qev) less(b *qev) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.seq < b.seq
}

// eventQueue is an indexed 4-ary min-heap. Every event has a slot — one
// per (CPU, per-CPU kind) and per (task, per-task kind) — and a slot is
// pending at most once: scheduling an event whose slot is pending replaces it
// (the old one was stale: a re-armed completion, a re-armed timer). The heap
// therefore never holds dead entries, and its size is bounded by the slots.
// Heap entries are small (time, sequence, slot); the rest of an event lives
// in per-slot arrays. Sifting moves a hole instead of swapping.
type eventQueue struct {
	h     []hent  // heap of pending events
	pos   []int32 // slot -> heap index, -1 when not pending
	gen   []uint32
	arg   []int32 // per-CPU slots: the event's task field; per-task slots: its CPU
	seq   uint64
	ncpu  int32
	ntask int32
}

type hent struct {
	t    int64
	seq  uint64
	slot int32
}

func (a *hent) less(b *hent) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.seq < b.seq
}

const heapArity = 4

func (q *eventQueue) init(ncpu, ntask int) {
	q.ncpu, q.ntask = int32(ncpu), int32(ntask)
	n := numCPUEvKinds*ncpu + (int(numEvKinds)-numCPUEvKinds)*ntask
	q.pos = make([]int32, n)
	for i := range q.pos {
		q.pos[i] = -1
	}
	q.gen = make([]uint32, n)
	q.arg = make([]int32, n)
	q.h = make([]hent, 0, 64)
}

func (q *eventQueue) slot(e *qev) int32 {
	if int(e.kind) < numCPUEvKinds {
		return int32(e.kind)*q.ncpu + e.cpu
	}
	return int32(numCPUEvKinds)*q.ncpu + int32(int(e.kind)-numCPUEvKinds)*q.ntask + e.task
}

// event rebuilds the event of a slot.
func (q *eventQueue) event(h *hent) qev {
	s := h.slot
	e := qev{t: h.t, seq: h.seq, gen: q.gen[s]}
	cpuSlots := int32(numCPUEvKinds) * q.ncpu
	if s < cpuSlots {
		e.kind = evKind(s / q.ncpu)
		e.cpu = s % q.ncpu
		e.task = q.arg[s]
	} else {
		s -= cpuSlots
		e.kind = evKind(numCPUEvKinds + int(s/q.ntask))
		e.task = s % q.ntask
		e.cpu = q.arg[h.slot]
	}
	return e
}

func (q *eventQueue) len() int { return len(q.h) }

// peekTime is the time of the earliest event (the queue must not be empty).
func (q *eventQueue) peekTime() int64 { return q.h[0].t }

// push schedules e, replacing a pending event of the same slot.
func (q *eventQueue) push(e qev) {
	q.seq++
	s := q.slot(&e)
	q.gen[s] = e.gen
	if int(e.kind) < numCPUEvKinds {
		q.arg[s] = e.task
	} else {
		q.arg[s] = e.cpu
	}
	x := hent{t: e.t, seq: q.seq, slot: s}
	if i := q.pos[s]; i >= 0 {
		q.fix(int(i), x)
		return
	}
	q.h = append(q.h, x)
	q.up(len(q.h)-1, x)
}

// pop removes and returns the earliest event.
func (q *eventQueue) pop() qev {
	top := q.h[0]
	q.pos[top.slot] = -1
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n > 0 {
		q.down(0, last)
	}
	return q.event(&top)
}

// fix places x at index i (its slot's old place) and restores the order.
func (q *eventQueue) fix(i int, x hent) {
	if i > 0 && x.less(&q.h[(i-1)/heapArity]) {
		q.up(i, x)
	} else {
		q.down(i, x)
	}
}

// up moves the hole at i towards the root until x fits, then writes x.
func (q *eventQueue) up(i int, x hent) {
	for i > 0 {
		p := (i - 1) / heapArity
		if !x.less(&q.h[p]) {
			break
		}
		q.h[i] = q.h[p]
		q.pos[q.h[i].slot] = int32(i)
		i = p
	}
	q.h[i] = x
	q.pos[x.slot] = int32(i)
}

// down moves the hole at i towards the leaves until x fits, then writes x.
func (q *eventQueue) down(i int, x hent) {
	n := len(q.h)
	for {
		c := heapArity*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+heapArity, n)
		for k := c + 1; k < end; k++ {
			if q.h[k].less(&q.h[m]) {
				m = k
			}
		}
		if !q.h[m].less(&x) {
			break
		}
		q.h[i] = q.h[m]
		q.pos[q.h[i].slot] = int32(i)
		i = m
	}
	q.h[i] = x
	q.pos[x.slot] = int32(i)
}
