package sim

import (
	"math/rand/v2"
	"testing"
)

// sisIdleGroupRef is sisIdleGroup as first written (every group's span
// intersected with the allowed CPUs, its first CPU computed): the
// reference for the faster form.
func sisIdleGroupRef(s *Sim, p *Task, target int, d *Decision, skipTarget bool) int {
	for sd := s.cpus[target].sdLLC; sd != nil; sd = sd.Child {
		s.visitDomain(d)
		for _, g := range sd.Groups {
			s.examineGroup(d)
			if !g.Span.Intersects(&p.allowed) {
				continue
			}
			all := true
			for c := g.Span.First(); c >= 0; c = g.Span.Next(c) {
				s.examine(d, c)
				if (skipTarget && c == target) || !s.idleCPU(c) {
					all = false
					break
				}
			}
			if all {
				m := g.Span.And(&p.allowed)
				d.Level = int8(sd.Level)
				d.Reason = "first fully idle group"
				return m.First()
			}
		}
	}
	d.Reason = "no idle group: target"
	return target
}

// TestSISIdleGroupSame: on random idle masks and affinities (all CPUs or
// a random subset), sisIdleGroup picks the same CPU and charges the same
// look-ups (the whole Decision: examined set, counts, cost, level) as the
// reference, on machines with SMT, clusters, several LLCs and nodes, while
// recording (the examined set kept) and not.
func TestSISIdleGroupSame(t *testing.T) {
	for _, m := range []Machine{machine(4, 1, 1, 10, 2, NumberX86), machine(4, 2, 1, 16, 2, NumberX86), machine(2, 1, 2, 4, 2, NumberLinear), machine(1, 1, 1, 8, 1, NumberLinear), machine(2, 2, 3, 2, 4, NumberX86)} {
		for _, mode := range []int{0, 1, 2, 3} {
			feat, rec := mode&1 != 0, mode&2 != 0
			s, err := New(&Config{Seed: 1, Duration: 1e6, Machine: m, Policy: Policy{Base: BaseV38, SIS: SISV36}, Tasks: pairs(1, 1000)})
			if err != nil {
				t.Fatal(err)
			}
			if feat {
				s.feat |= 1 << FeatSchedBalanceMap
			}
			if rec {
				s.SetRecording(true) // the examined sets are kept only while recording
			}
			n := s.topo.NCPU
			rng := rand.New(rand.NewPCG(3, 4))
			p := s.tasks[0]
			for i := 0; i < 3000; i++ {
				s.idleMask = CPUMask{}
				dens := rng.IntN(101)
				for c := 0; c < n; c++ {
					if rng.IntN(100) < dens {
						s.idleMask.Set(c)
					}
				}
				p.allowed = MaskRange(0, n)
				if rng.IntN(3) == 0 {
					p.allowed = CPUMask{}
					for c := 0; c < n; c++ {
						if rng.IntN(4) == 0 {
							p.allowed.Set(c)
						}
					}
				}
				p.nrAllow = p.allowed.Weight()
				target := rng.IntN(n)
				skip := rng.IntN(2) == 0
				var d1, d2 Decision
				got := s.sisIdleGroup(p, target, &d1, skip)
				want := sisIdleGroupRef(s, p, target, &d2, skip)
				if got != want || d1 != d2 {
					t.Fatalf("%d CPUs, recording %v, idle %v, allowed %v, target %d, skip %v: got cpu%d %+v, want cpu%d %+v", n, rec, s.idleMask, p.allowed, target, skip, got, d1, want, d2)
				}
			}
		}
	}
}

// TestGroupRuns: the LLC domain of an x86-numbered SMT machine has its
// cores as runs, a linearly numbered one does not, and an SMT level of two
// threads has its two CPUs (so sisIdleGroup's word form is the one that
// TestSISIdleGroupSame compares with the reference there).
func TestGroupRuns(t *testing.T) {
	s, err := New(&Config{Seed: 1, Duration: 1e6, Machine: machine(4, 1, 1, 10, 2, NumberX86), Policy: Policy{Base: BaseV38, SIS: SISV36}, Tasks: pairs(1, 1000)})
	if err != nil {
		t.Fatal(err)
	}
	for c, rq := range s.cpus {
		r := rq.sdLLC.runs
		llc := c % 40 / 10
		if !r.ok || !r.pairs || r.n != 10 || int(r.first) != 10*llc || int(r.second) != 40+10*llc || int(r.rot) != c%10 {
			t.Fatalf("cpu%d: LLC domain runs %+v", c, r)
		}
		// The SMT level: the CPU, then its sibling.
		if r := rq.sdLLC.Child.runs; !r.ok || !r.two || int(r.first) != c || int(r.second) != (c+40)%80 {
			t.Fatalf("cpu%d: SMT domain runs %+v", c, r)
		}
	}
	s, err = New(&Config{Seed: 1, Duration: 1e6, Machine: machine(2, 1, 2, 4, 2, NumberLinear), Policy: Policy{Base: BaseV38, SIS: SISV36}, Tasks: pairs(1, 1000)})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.cpus[0].sdLLC.runs; r.ok {
		t.Fatalf("linear numbering: runs %+v", r)
	}
	if r := s.cpus[0].domains[0].runs; !r.ok || !r.two || r.first != 0 || r.second != 1 { // SMT level
		t.Fatalf("linear numbering, SMT level: runs %+v", r)
	}
}
