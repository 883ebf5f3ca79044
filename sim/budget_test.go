package sim

import (
	"errors"
	"testing"
)

// fanoutAll: n tasks that each run 10 us, wake every task of their group
// and wait; one run-done event wakes n tasks.
func fanoutAll(n int) []TaskGroup {
	return []TaskGroup{{Name: "w", Count: n, Program: []Step{{Op: OpRun, Dur: 10000}, {Op: OpWake, Target: 0, Fanout: FanoutAll}, {Op: OpWait}}}}
}

// TestWorkCountsInsideEvents: the work of an event that wakes 4096 tasks is
// counted, so a budget of work stops such a run after few events where an
// event budget would let it run (issue 18, item 2: 4096 tasks waking all on
// 256 CPUs ran for hours within the event budget).
func TestWorkCountsInsideEvents(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 600e9, MaxWork: 20_000_000, Machine: machine(2, 1, 1, 64, 2, NumberLinear), Policy: Policy{Base: BaseV617}, Tasks: fanoutAll(4096)}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	var le *LimitError
	if !errors.As(s.Err(), &le) || le.Limit != "work" || le.Budget != 20_000_000 || le.At != s.Now() {
		t.Fatalf("err %v", s.Err())
	}
	// Every internal event counts 1 and wakes are counted inside: far more
	// work than events, and the overrun past the budget is one event's.
	if s.Work() < 20_000_000 || s.processed*20 > s.Work() {
		t.Fatalf("work %d after %d events", s.Work(), s.processed)
	}
	if s.Work() > 20_000_000+4*4096*4096 {
		t.Fatalf("work %d: overran the budget by more than one event", s.Work())
	}
	if s.Step() || s.Now() >= cfg.Duration || !s.Done() {
		t.Fatal("a stopped run kept stepping")
	}
	m := s.Metrics()
	if m.Work != s.Work() || m.Stopped == "" || m.Ops == 0 {
		t.Fatalf("metrics: work %d stopped %q ops %d", m.Work, m.Stopped, m.Ops)
	}
}

// TestWorkCountsRunqueueScans: 4096 tasks on one CPU make every pick scan
// the runqueue; that is work too (it was 2.7 us per counted unit before).
func TestWorkCountsRunqueueScans(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 600e9, MaxWork: 50_000_000, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV38},
		Tasks: []TaskGroup{{Name: "a", Count: 4096, Program: []Step{{Op: OpRun, Dur: 1000}, {Op: OpSleep, Dur: 1}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	if s.Err() == nil || s.processed*1000 > s.Work() {
		t.Fatalf("err %v: work %d after %d events", s.Err(), s.Work(), s.processed)
	}
}

// TestWorkBudgetDeterministic: recording (the page) or not (the CLI), one
// event at a time or in one RunUntil, a run stops at the same event with
// the same work and trace hash.
func TestWorkBudgetDeterministic(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"pairs-v38", Config{Seed: 3, Duration: 10e9, MaxWork: 300_000, Machine: machine(2, 1, 1, 4, 2, NumberX86), Policy: Policy{Base: BaseV38}, Tasks: pairs(12, 20000)}},
		{"mixed-v617", Config{Seed: 5, Duration: 10e9, MaxWork: 300_000, Machine: machine(2, 2, 2, 2, 2, NumberLinear), Policy: Policy{Base: BaseV617}, Tasks: mixed()}},
		{"fanout", Config{Seed: 1, Duration: 10e9, MaxWork: 300_000, Machine: machine(1, 1, 1, 8, 2, NumberLinear), Policy: Policy{Base: BaseV617}, Tasks: fanoutAll(64)}},
	} {
		var ref *Sim
		for i, mode := range []string{"run", "record-step"} {
			cfg := tc.cfg
			s, err := New(&cfg)
			if err != nil {
				t.Fatal(err)
			}
			if mode == "run" {
				s.Run()
			} else {
				s.SetRecording(true)
				for s.Step() {
					s.TakeEvents(nil)
				}
				s.RunUntil(cfg.Duration)
			}
			if s.Err() == nil {
				t.Fatalf("%s %s: the budget did not stop the run", tc.name, mode)
			}
			if i == 0 {
				ref = s
				continue
			}
			if s.Work() != ref.Work() || s.Now() != ref.Now() || s.TraceHash() != ref.TraceHash() || s.processed != ref.processed {
				t.Errorf("%s: %s stopped at work %d t %d hash %s, run at work %d t %d hash %s", tc.name, mode, s.Work(), s.Now(), s.TraceHash(), ref.Work(), ref.Now(), ref.TraceHash())
			}
		}
	}
}

// TestWorkDefaultBudget: a config without MaxWork gets DefaultMaxWork, and
// a normal run stays far below it.
func TestWorkDefaultBudget(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 1e9, Machine: machine(1, 1, 1, 4, 2, NumberLinear), Policy: Policy{Base: BaseV617}, Tasks: pairs(4, 20000)}
	s := runChecked(t, cfg)
	if s.maxWork != DefaultMaxWork || s.Err() != nil || s.Work() == 0 || s.Work() > DefaultMaxWork/10 {
		t.Fatalf("budget %d, err %v, work %d", s.maxWork, s.Err(), s.Work())
	}
}

// TestCPUMaskStringLastCPU: a mask holding cpu255 printed a panic instead of
// its list (Has(256) was evaluated before the bound), seen in the page's
// explanation of a fork on a 256-CPU machine.
func TestCPUMaskStringLastCPU(t *testing.T) {
	var m CPUMask
	m.Set(250)
	m.Set(251)
	m.Set(255)
	if got := m.String(); got != "250-251,255" {
		t.Fatalf("String() = %q", got)
	}
	m = MaskRange(0, 256)
	if got := m.String(); got != "0-255" {
		t.Fatalf("String() = %q", got)
	}
}
