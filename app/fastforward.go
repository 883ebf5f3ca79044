package app

import "time"

// RunFor runs the scenario toward its end for about budget of wall time,
// as fast as the simulator goes (no wall-clock pacing, no pause on a
// migration), and pauses: the page's "run to the end" calls it repeatedly
// from its worker, drawing a frame (Tick with dt 0) between calls. Side B
// follows side A to the same simulated time after every chunk, as in Tick.
// It reports whether the run is over: side A reached its end, or a limit
// stopped a side (Error says which).
func (s *Session) RunFor(budget time.Duration) (over bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.a == nil {
		return true
	}
	s.playing = false
	start := time.Now()
	end := s.a.sim.Config().Duration
	for !s.a.done() && s.a.sim.Err() == nil {
		// A chunk of about a tenth of the budget at the measured pace.
		step := int64(firstChunk)
		if s.pace > 0 {
			step = max(int64(s.pace*float64(budget/10)), 1)
		}
		from, chunkStart := s.a.now(), time.Now()
		s.a.advance(min(from+step, end), false)
		if s.b != nil {
			s.b.advance(s.a.now(), false)
		}
		s.notePace(from, chunkStart)
		if time.Since(start) >= budget {
			break
		}
	}
	s.wall += time.Since(start)
	if s.limitLocked() {
		return true
	}
	return s.a.done()
}
