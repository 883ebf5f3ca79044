package sim

// evKind is the kind of an internal (queued) event. Internal events drive the
// simulation; trace Events are what it reports.
type evKind uint8

const (
	evRunDone       evKind = iota // the running task finished its step's CPU work (gen-checked)
	evTick                        // scheduler tick on a CPU
	evTimer                       // a blocked task's sleep/timer expired (gen-checked)
	evArrive                      // a woken task arrives at its CPU (after the IPI)
	evIdleReady                   // a CPU finished leaving its idle state
	evSpawn                       // fork a task instance
	evNohzKick                    // the idle load balancer was kicked
	evActiveBalance               // the stopper runs on the busiest CPU (task = destination CPU)
)

// qev is a queued event. Order: time, then insertion sequence, so that events
// at the same instant run in the order they were created (determinism).
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

// eventQueue is a binary min-heap of qev values.
type eventQueue struct {
	h   []qev
	seq uint64
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) push(e qev) {
	q.seq++
	e.seq = q.seq
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].less(&q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *eventQueue) peek() *qev { return &q.h[0] }

func (q *eventQueue) pop() qev {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.h[r].less(&q.h[l]) {
			m = r
		}
		if !q.h[m].less(&q.h[i]) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}
