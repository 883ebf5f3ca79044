package sim

import "fmt"

// SMT throughput sharing (Costs.SMTGain).
//
// The hardware threads of a core share its execution resources: while a
// thread's sibling also runs a task, each makes progress at a fraction of
// the rate it has alone. A core whose k threads are all busy delivers
// SMTGain/1024 of one thread's throughput, shared equally: each thread's
// rate is SMTGain/(1024·k), capped at 1 (a thread alone, or a gain that
// covers every thread, runs at full speed). SMTGain 0 turns the model off.
//
// What is shared is the progress of the CPU work a task's step needs
// (Task.remaining: run steps, and everything the cost model charges as CPU
// time: context switches, cache refills, search costs); the kernel's clock
// is not touched. update_curr() still charges the wall time the task held
// the CPU, so a step that ran slower shows up as a longer sum_exec_runtime,
// a longer PELT running and util signal and a longer slice consumed, as on
// real hardware, and the capacity the kernel computes (v3.8's smt_gain
// shared by the threads, v6.17's 1024 per CPU) stays what the kernel
// computes.
//
// A thread counts as busy while it has a task as curr. When that changes
// (a switch to or from idle, within one event), the core is marked and, at
// the end of the event, every busy thread of the core has its progress up
// to now accounted at the old rate and its completion event re-armed at the
// new one. All changes inside one event happen at the same instant, so
// settling them at the event's end is exact.

// smtMarkChange notes that rq's busy state (curr set or not) is changing.
func (s *Sim) smtMarkChange(rq *RQ) {
	s.smtDirty.Set(rq.cpu)
}

// smtRate returns the numerator and denominator of rq's current progress
// rate; den 0 means full speed.
func (s *Sim) smtRate(rq *RQ) (num, den int64) {
	if rq.smtOthers == 0 {
		return 0, 0
	}
	den = 1024 * int64(rq.smtOthers+1)
	if s.costs.SMTGain >= den {
		return 0, 0
	}
	return s.costs.SMTGain, den
}

// progress charges p, rq's curr, with the CPU work done since rq.progAt at
// rq's current rate (only with the model on: off, accountCurr charges the
// time run, progAt is not kept). Partial work
// is rounded up, so a step never needs more wall time than its completion
// event was armed for.
func (s *Sim) progress(rq *RQ, p *Task) {
	d := s.now - rq.progAt
	rq.progAt = s.now
	if d <= 0 {
		return
	}
	w := d
	if num, den := s.smtRate(rq); den != 0 {
		w = (d*num + den - 1) / den
		if w > p.remaining {
			w = p.remaining
		}
		s.m.cost.smt += d - w
	}
	p.remaining -= w
	if p.remaining < 0 {
		panic(fmt.Sprintf("sim: a task ran past its step: cpu%d t=%d progAt=%d d=%d w=%d rem=%d others=%d gen=%d", rq.cpu, s.now, s.now-d, d, w, p.remaining+w, rq.smtOthers, rq.gen))
	}
}

// armRunDone queues rq's evRunDone for the end of its curr's remaining work
// at rq's current rate, superseding any pending one.
func (s *Sim) armRunDone(rq *RQ) {
	rq.gen++
	t := rq.curr.remaining
	if s.smtOn {
		rq.progAt = s.now
		if num, den := s.smtRate(rq); den != 0 {
			t = (t*den + num - 1) / num
		}
	}
	s.q.push(qev{t: s.now + t, kind: evRunDone, cpu: int32(rq.cpu), gen: rq.gen})
}

// smtSync settles the cores whose threads changed busy state during the
// event just processed.
func (s *Sim) smtSync() {
	m := s.smtDirty
	s.smtDirty = CPUMask{}
	for c := m.Next(-1); c >= 0; c = m.Next(c) {
		core := s.topo.coreCPUs[c]
		// The rate each busy thread had until now.
		busy := int32(0)
		for _, x := range core {
			m.Clear(x)
			if rq := s.cpus[x]; rq.curr != nil {
				s.progress(rq, rq.curr)
				busy++
			}
		}
		// The new rate from now on.
		for _, x := range core {
			rq := s.cpus[x]
			others := busy
			if rq.curr != nil {
				others--
			}
			if others == rq.smtOthers {
				continue
			}
			rq.smtOthers = others
			if rq.curr != nil {
				// A curr always has its completion pending; one whose
				// work the rounded-up progress already finished completes
				// now rather than at its old time.
				s.armRunDone(rq)
			}
		}
	}
}
