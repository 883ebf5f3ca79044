package sim

import (
	"math/rand/v2"
	"testing"
)

// TestEventQueueOrder drives the queue with random pushes (replacing
// pending slots, same-instant bursts, events beyond the wheel) and pops,
// against a reference that keeps every pending event with its sequence
// number and pops the least (time, sequence).
func TestEventQueueOrder(t *testing.T) {
	const ncpu, ntask = 8, 40
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var q eventQueue
		q.init(ncpu, ntask)
		type ref struct {
			e   qev
			seq uint64
		}
		pending := map[int32]ref{}
		var seq uint64
		now := int64(0)
		for op := 0; op < 20000; op++ {
			if len(pending) > 0 && rng.IntN(100) < 45 {
				var best int32 = -1
				for s, r := range pending {
					if b, ok := pending[best]; best < 0 || !ok || r.e.t < b.e.t || r.e.t == b.e.t && r.seq < b.seq {
						best = s
					}
				}
				if q.len() != len(pending) {
					t.Fatalf("seed %d op %d: len %d, want %d", seed, op, q.len(), len(pending))
				}
				if pt := q.peekTime(); pt != pending[best].e.t {
					t.Fatalf("seed %d op %d: peekTime %d, want %d", seed, op, pt, pending[best].e.t)
				}
				got := q.pop()
				want := pending[best].e
				if got != want {
					t.Fatalf("seed %d op %d: pop %+v, want %+v", seed, op, got, want)
				}
				delete(pending, best)
				now = got.t
				continue
			}
			var d int64
			switch rng.IntN(6) {
			case 0:
				d = 0 // same instant
			case 1:
				d = rng.Int64N(50) // same bucket
			case 2:
				d = rng.Int64N(3 << bucketShift)
			case 3:
				d = rng.Int64N(wheelSize << bucketShift)
			case 4:
				d = rng.Int64N(5 * wheelSize << bucketShift) // the heap
			default:
				d = wheelSize<<bucketShift - rng.Int64N(2<<bucketShift) // the wheel's edge
			}
			e := qev{t: now + d, gen: uint32(rng.IntN(1000))}
			if rng.IntN(2) == 0 {
				e.kind = evKind(rng.IntN(numCPUEvKinds))
				e.cpu, e.task = int32(rng.IntN(ncpu)), int32(rng.IntN(ntask))
			} else {
				e.kind = evKind(numCPUEvKinds + rng.IntN(numTaskEvKinds))
				e.cpu, e.task = int32(rng.IntN(ncpu)), int32(rng.IntN(ntask))
			}
			seq++
			q.push(e)
			pending[q.slot(&e)] = ref{e, seq}
		}
	}
}
