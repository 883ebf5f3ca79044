package sim

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func machine(nodes, llcs, clusters, cores, threads int, numbering Numbering) Machine {
	return Machine{Nodes: nodes, SocketsPerNode: 1, LLCsPerSocket: llcs, ClustersPerLLC: clusters,
		CoresPerCluster: cores, ThreadsPerCore: threads, HZ: 1000, Numbering: numbering, Costs: DefaultCosts()}
}

func pairs(n int, run int64) []TaskGroup {
	return []TaskGroup{
		{Name: "client", Count: n, Program: []Step{{Op: OpRun, Dur: run}, {Op: OpWake, Target: 1, Sync: true}, {Op: OpWait}}},
		{Name: "server", Count: n, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: run}, {Op: OpWake, Target: 0, Sync: true}}},
	}
}

func dutyCycle() []TaskGroup {
	return []TaskGroup{
		{Name: "hog", Count: 2, Program: []Step{{Op: OpRun, Dur: 8e6}, {Op: OpTimer, Dur: 10e6}}},
		{Name: "light", Count: 1, Program: []Step{{Op: OpRun, Dur: 4e6}, {Op: OpTimer, Dur: 10e6}}},
	}
}

func mixed() []TaskGroup {
	return []TaskGroup{
		{Name: "server", Count: 1, Nice: -5, Program: []Step{{Op: OpWait}, {Op: OpRun, Dur: 30000}, {Op: OpWake, Target: 1, Fanout: FanoutWaker}}},
		{Name: "client", Count: 12, Program: []Step{{Op: OpRun, Dur: 50000}, {Op: OpWake, Target: 0, Sync: true}, {Op: OpWait}, {Op: OpSleep, Dur: 200000}}},
		{Name: "batch", Count: 6, Nice: 10, CPUs: MaskRange(0, 4), Start: 5e6, Program: []Step{{Op: OpRun, Dur: 3e6}, {Op: OpSleep, Dur: 1e6}}},
		{Name: "burst", Count: 20, Start: 10e6, Loop: 3, Program: []Step{{Op: OpRun, Dur: 400000}, {Op: OpWake, Target: 3, Fanout: FanoutOne}, {Op: OpWait}}},
	}
}

// runChecked runs cfg to its end, checking the invariants after every event.
func runChecked(t *testing.T, cfg *Config) *Sim {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for s.NextEventTime() >= 0 && s.NextEventTime() <= cfg.Duration {
		s.Step()
		n++
		if err := s.CheckInvariants(); err != nil {
			t.Fatalf("after %d events at t=%dns: %v", n, s.Now(), err)
		}
	}
	s.RunUntil(cfg.Duration)
	return s
}

// TestInvariantsEverywhere runs every policy switch on several machines and
// workloads, checking the invariants after every event.
func TestInvariantsEverywhere(t *testing.T) {
	machines := map[string]Machine{
		"2cpu":       machine(1, 1, 1, 2, 1, NumberLinear),
		"4x10x2-x86": machine(4, 1, 1, 10, 2, NumberX86),
		"clusters":   machine(1, 2, 2, 2, 2, NumberLinear),
		"smt-shared": machine(1, 1, 1, 4, 2, NumberX86), // SMT sharing on (smt.go)
	}
	smt := machines["smt-shared"]
	smt.Costs.SMTGain = 1178
	machines["smt-shared"] = smt
	workloads := map[string][]TaskGroup{"pairs": pairs(6, 20000), "duty": dutyCycle(), "mixed": mixed()}
	for _, mn := range []string{"2cpu", "4x10x2-x86", "clusters", "smt-shared"} {
		for _, wn := range []string{"pairs", "duty", "mixed"} {
			for _, base := range []Base{BaseV38, BaseV617} {
				for _, sis := range []SIS{SISV36, SISV38, SISBuddies, SISBottomUp, SISUtil, SISOff} {
					for _, lm := range []LoadMetric{LoadWeight, LoadRunnableAvg, LoadRunnablePlusBlocked, LoadAvg} {
						if lm != LoadWeight && sis != SISUtil && sis != SISV36 {
							continue // keep the matrix affordable: every metric with two variants
						}
						cfg := &Config{Seed: 3, Duration: 30e6, Machine: machines[mn], Policy: Policy{Base: base, SIS: sis, LoadMetric: lm}, Tasks: workloads[wn]}
						if sis == SISV36 {
							cfg.Policy.SDFlags[LevelMC].Set = SDBalanceWake
							cfg.Policy.SDFlags[LevelSMT].Set = SDBalanceWake
						}
						name := fmt.Sprintf("%s/%s/base%d/sis%d/lm%d", mn, wn, base, sis, lm)
						t.Run(name, func(t *testing.T) {
							s := runChecked(t, cfg)
							if s.Metrics().Ops == 0 {
								t.Fatal("no progress")
							}
						})
					}
				}
			}
		}
	}
}

// TestDeterminism: the same config and seed give the same trace, twice;
// another seed gives another one.
func TestDeterminism(t *testing.T) {
	cfg := &Config{Seed: 7, Duration: 50e6, Machine: machine(2, 1, 1, 4, 2, NumberX86), Policy: Policy{Base: BaseV617}, Tasks: mixed()}
	h := func(seed uint64) string {
		c := *cfg
		c.Seed = seed
		s, err := New(&c)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		return s.TraceHash()
	}
	a, b, c := h(7), h(7), h(8)
	if a != b {
		t.Fatalf("same seed, different traces: %s %s", a, b)
	}
	if a == c {
		t.Fatalf("different seeds, same trace %s", a)
	}
}

// TestRunUntilSlicing: running in slices (as the browser does per frame)
// gives the same trace as one run.
func TestRunUntilSlicing(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 40e6, Machine: machine(1, 1, 1, 4, 2, NumberLinear), Policy: Policy{Base: BaseV38}, Tasks: mixed()}
	one, _ := New(cfg)
	one.Run()
	sliced, _ := New(cfg)
	for t0 := int64(0); t0 < cfg.Duration; t0 += 333_333 {
		sliced.RunUntil(t0)
	}
	sliced.RunUntil(cfg.Duration)
	if one.TraceHash() != sliced.TraceHash() || one.Events() != sliced.Events() {
		t.Fatalf("sliced run differs: %s/%d vs %s/%d", one.TraceHash(), one.Events(), sliced.TraceHash(), sliced.Events())
	}
}

// TestGoldenTrace compares the explained event stream of a small scenario
// with testdata/golden_pingpong.txt (regenerate with -rewrite, the one flag that rewrites every expected
// output of this package, and read it).
func TestGoldenTrace(t *testing.T) {
	costs := DefaultCosts()
	costs.JitterPct = 0
	m := machine(1, 1, 1, 2, 1, NumberLinear)
	m.Costs = costs
	cfg := &Config{Seed: 1, Duration: 25e6, Machine: m, Policy: Policy{Base: BaseV38}, Tasks: dutyCycle()}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRecording(true)
	var b strings.Builder
	var evs []Event
	for s.NextEventTime() >= 0 && s.NextEventTime() <= cfg.Duration {
		s.Step()
		evs = s.TakeEvents(evs[:0])
		for _, e := range evs {
			b.WriteString(s.Explain(e))
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "trace_hash %s events %d\n", s.TraceHash(), s.Events())
	path := "testdata/golden_pingpong.txt"
	if *rewrite {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if string(want) != b.String() {
		os.WriteFile(path+".bad", []byte(b.String()), 0o644)
		t.Fatalf("trace differs from %s; the new one is in %s.bad (git ignores *.bad)", path, path)
	}
}

// TestConfigErrors: New rejects what it cannot build.
func TestConfigErrors(t *testing.T) {
	good := func() *Config {
		return &Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Tasks: dutyCycle()}
	}
	for name, mod := range map[string]func(*Config){
		"zero duration":  func(c *Config) { c.Duration = 0 },
		"bad hz":         func(c *Config) { c.Machine.HZ = 123 },
		"too many cpus":  func(c *Config) { c.Machine.CoresPerCluster = 300 },
		"no timed step":  func(c *Config) { c.Tasks[0].Program = []Step{{Op: OpWait}} },
		"bad wake":       func(c *Config) { c.Tasks[0].Program = []Step{{Op: OpRun, Dur: 1}, {Op: OpWake, Target: 9}} },
		"affinity empty": func(c *Config) { c.Tasks[0].CPUs = MaskOf(5) },
	} {
		c := good()
		c.Tasks = append([]TaskGroup(nil), c.Tasks...)
		mod(c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestEventBudget: a run that would take too long stops with a clear error.
func TestEventBudget(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 10e9, MaxEvents: 5000, Machine: machine(1, 1, 1, 4, 2, NumberLinear), Policy: Policy{Base: BaseV617}, Tasks: pairs(4, 20000)}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	if s.Err() == nil || !s.Done() || s.Now() >= cfg.Duration || !strings.Contains(s.Err().Error(), "budget of 5000 events") {
		t.Fatalf("err %v, done %v, now %d", s.Err(), s.Done(), s.Now())
	}
	if s.Step() {
		t.Fatal("a stopped run kept stepping")
	}
}

// TestCostBreakdown works the cost breakdown by hand on one CPU: a task
// runs 1 ms and sleeps 9 ms. Every switch-in comes from an idle CPU that
// slept at least 800 us (C6: 200 us exit), is local (no IPI), and is on the
// CPU it last ran on (no refill, no message): each context switch charges
// 2 us and each wake-up one C6 exit.
func TestCostBreakdown(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 100e6, Machine: machine(1, 1, 1, 1, 1, NumberLinear), Policy: Policy{Base: BaseV617},
		Tasks: []TaskGroup{{Name: "t", Count: 1, Program: []Step{{Op: OpRun, Dur: 1e6}, {Op: OpSleep, Dur: 9e6}}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	m := s.Metrics()
	c := m.Costs
	n := float64(m.CtxSwitches) / 2 // each period switches the task in, then to idle (no cost)
	// Every run but the first finds the core's caches flushed by C6
	// (IdleState.Flushes): a 5 us refill from the LLC.
	if n < 9 || c.ContextSwitchMS != round3(n*0.002) || c.IdleExitMS != round3(n*0.2) ||
		c.IPIMS != 0 || c.CacheRefillMS != round3((n-1)*0.005) || c.CommMS != 0 {
		t.Fatalf("%v switches: breakdown %+v; want %.3f ms of switches, %.3f ms of C6 exits, %.3f ms of refills after them, nothing else", n, c, n*0.002, n*0.2, (n-1)*0.005)
	}
}
