// Package validation puts the simulator's numbers beside the ones in the
// seed threads (shared/seeds, quoted with file and line in each
// Table's Source) and judges every point by the rule in rule.go. The seed
// numbers are typed here once, as the oracle's values; everything in the
// sim columns is computed by running the scenarios. `make validate` runs
// every table (cmd/validate) and regenerates docs/validation.md.
//
// One model: a table may choose a preset, a machine and a workload that
// match what the seed measured (and say where the figures come from), but
// never a cost or a kernel switch that only that table uses.
package validation

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"

	"schedplay/scenarios"
	"schedplay/sim"
)

// Table is one seed table: a preset, the axis the seed varied, the two
// kernels it compared, and the seed's numbers at each point.
type Table struct {
	ID       string
	Title    string
	Source   string // where the numbers are: seed file and lines, commit
	Machine  string // the seed's machine and how it is modelled
	Workload string // what one op is, and where the figures come from
	Preset   string
	Sets     []string // path=value, applied to the preset first
	VaryPath string   // the axis of the points (each point gives its value)
	// Before and After are the two kernels compared ("path=value" sets).
	BeforeName, AfterName string
	Before, After         []string
	// TimeMetric: the seed's numbers are times (lower is better), so the
	// seed's change is before÷after; the simulator's is still ops/s after÷before.
	TimeMetric bool
	// ElapsedTask, when set, names the task whose exit is the benchmark's
	// elapsed time (kernbench: make/0), and a run's throughput is then the
	// tasks it forked per second of that time instead of ops/s (make's jobs
	// exit instead of looping, so they count no op).
	ElapsedTask string
	// Tuned: the presets' descriptions were written against these numbers
	// (the other tables' points are rows the model was not tuned on).
	Tuned  bool
	Points []Point
	// Note explains the table's misses: which simplification causes them.
	Note string
}

// Point is one row of a seed table.
type Point struct {
	Label string
	Vary  string   // the value of Table.VaryPath
	Sets  []string // per-point sets (a database size)
	// SeedBefore, SeedAfter: the seed's numbers (throughput, or times with
	// TimeMetric), each the mean of the runs listed; or only SeedRatio when
	// the seed gives a percentage.
	SeedBefore, SeedAfter []float64
	SeedRatio             float64
	// Tuned overrides Table.Tuned for this point.
	Tuned *bool
}

// Ratio is the seed's after÷before throughput change.
func (p *Point) Ratio(time bool) float64 {
	if p.SeedRatio != 0 {
		return p.SeedRatio
	}
	b, a := mean(p.SeedBefore), mean(p.SeedAfter)
	if time {
		return b / a
	}
	return a / b
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Options say how much to run.
type Options struct {
	Seeds       []uint64  // each point's two runs are averaged over these seeds
	Sensitivity []float64 // cost scale factors for the sensitivity runs (seed Seeds[0] only)
	// Families: rerun each point that misses with one CostFamily at a
	// time scaled by each Sensitivity factor (seed Seeds[0] only).
	Families bool
	Workers  int      // parallel simulations (0: GOMAXPROCS)
	Tables   []string // only these table IDs (nil: all)
}

// DefaultOptions is what `make validate` runs.
func DefaultOptions() Options {
	return Options{Seeds: []uint64{1, 2, 3}, Sensitivity: []float64{0.5, 2}, Families: true}
}

// Run is one side of one point, averaged over the seeds.
type Run struct {
	OpsPerS     float64 // ops/s; with Table.ElapsedTask, tasks forked per second of its elapsed time
	Migrations  float64 // per simulated second
	WakeupMig   float64 // per simulated second
	BalanceMig  float64 // per simulated second (periodic+newidle+nohz+active)
	SearchPct   float64 // scheduler search cost, % of simulated CPU time
	CtxPerOp    float64
	IdleOverPct float64 // idle while overloaded, % of simulated CPU time
	WakeupP50US float64
	// Cost breakdown, % of simulated CPU time: cache refills (after a
	// migration or a C-state flush; FlushPct the flushes' part), and
	// C-state exit latency.
	RefillPct, FlushPct, IdleExitPct float64
	SimMS                            float64
	// PerSeedMig is Migrations for each seed, in Options.Seeds order.
	PerSeedMig    []float64
	ncpu          int
	seedsAveraged int
}

// PointResult is a point's two runs and its verdict.
type PointResult struct {
	Point     *Point
	SeedRatio float64
	Before    Run
	After     Run
	SimRatio  float64
	// SeedRatios is the sim ratio of each seed alone, in Options.Seeds
	// order; SeedRatios[0] is what the sensitivity and family runs, which
	// use that seed, compare with.
	SeedRatios []float64
	Verdict    Verdict
	Tuned      bool
	Sens       []float64 // sim ratio at each Options.Sensitivity scale
	SensHolds  []bool
	// Families: for a point that misses (with Options.Families), its sim
	// ratio with one CostFamily at a time scaled, in CostFamilies order.
	Families []FamilyResult
}

// FamilyResult is a missed point rerun with one cost family scaled.
type FamilyResult struct {
	Acts  bool      // the family has costs to scale on this point's machine
	Ratio []float64 // sim ratio at each Options.Sensitivity scale (Acts only)
	Holds []bool
}

// HoldsWithOne reports whether the point holds with some single family
// scaled by some factor.
func (pr *PointResult) HoldsWithOne() bool {
	for _, fr := range pr.Families {
		for _, h := range fr.Holds {
			if h {
				return true
			}
		}
	}
	return false
}

// TableResult is a table's points.
type TableResult struct {
	Table  *Table
	Points []PointResult
	SimMS  float64 // simulated duration of each run
}

// job is one simulation.
type job struct {
	scen    *scenarios.Scenario
	scale   float64
	family  int    // the CostFamilies index scale applies to; -1: every family
	elapsed string // Table.ElapsedTask
	m       sim.Metrics
	ops     float64 // the run's throughput: ops/s, or forks/s of elapsed's time
	ncpu    int
	err     error
}

// build returns the scenario of one side of one point.
func (t *Table) build(p *Point, side []string, seed uint64) (*scenarios.Scenario, error) {
	s, err := scenarios.Preset(t.Preset)
	if err != nil {
		return nil, err
	}
	sets := append(append(append([]string{}, t.Sets...), p.Sets...), side...)
	if t.VaryPath != "" {
		sets = append(sets, t.VaryPath+"="+p.Vary)
	}
	sets = append(sets, fmt.Sprintf("seed=%d", seed))
	for _, kv := range sets {
		path, val, ok := cut(kv)
		if !ok {
			return nil, fmt.Errorf("table %s: bad set %q", t.ID, kv)
		}
		if err := s.Set(path, val); err != nil {
			return nil, fmt.Errorf("table %s, %s: %w", t.ID, p.Label, err)
		}
	}
	return s, nil
}

func cut(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

// A CostFamily is one group of the cost model's numbers, scaled together.
// The sensitivity runs scale every family at once (ScaleCosts); a point
// that misses is also rerun with one family at a time (Options.Families),
// so the report can say which cost, if any, the miss hangs on.
type CostFamily struct {
	Name  string
	Scale func(c *sim.Costs, f float64)
}

func scaled(x int64, f float64) int64 { return int64(math.Round(float64(x) * f)) }

// CostFamilies are the cost model's families, in the report's column order;
// together they are every cost of sim.Costs (jitter is not a cost).
var CostFamilies = []CostFamily{
	{"context switch", func(c *sim.Costs, f float64) { c.ContextSwitch = scaled(c.ContextSwitch, f) }},
	{"IPI", func(c *sim.Costs, f float64) {
		// Its latency, the waker's cost of sending it, the latency of a
		// wake-up that needs none (a polling idle CPU), and what each
		// wake-up of a timer interrupt takes it (0 by default).
		c.WakeupIPI = scaled(c.WakeupIPI, f)
		c.WakeupIPISend = scaled(c.WakeupIPISend, f)
		c.WakeupPoll = scaled(c.WakeupPoll, f)
		c.TimerWakeup = scaled(c.TimerWakeup, f)
	}},
	{"C-state exits", func(c *sim.Costs, f float64) {
		// Exit latencies, not target residencies.
		states := make([]sim.IdleState, len(c.IdleStates))
		for i, st := range c.IdleStates {
			st.ExitLatency = scaled(st.ExitLatency, f)
			states[i] = st
		}
		c.IdleStates = states
		// The part of an idle CPU's exit after its own interrupt's
		// handler (0 by default).
		c.IdleReturn = scaled(c.IdleReturn, f)
	}},
	{"cache refills", func(c *sim.Costs, f float64) {
		for d := range c.CacheCold {
			c.CacheCold[d] = scaled(c.CacheCold[d], f)
		}
	}},
	{"messages", func(c *sim.Costs, f float64) {
		for d := range c.Comm {
			c.Comm[d] = scaled(c.Comm[d], f)
		}
	}},
	{"search and balancing", func(c *sim.Costs, f float64) {
		c.SearchCPU = scaled(c.SearchCPU, f)
		c.SearchGroup = scaled(c.SearchGroup, f)
		c.SearchDomain = scaled(c.SearchDomain, f)
		c.BalanceCPU = scaled(c.BalanceCPU, f)
	}},
	{"remote memory", func(c *sim.Costs, f float64) { c.RemoteMemPct = int(scaled(int64(c.RemoteMemPct), f)) }},
	{"SMT sharing", func(c *sim.Costs, f float64) {
		// The extra run time a busy sibling costs a thread (2048/SMTGain − 1
		// with two threads) is scaled, and SMTGain set back from it.
		if c.SMTGain > 0 && c.SMTGain < 2048 {
			stretch := 2048/float64(c.SMTGain) - 1
			c.SMTGain = int64(math.Round(2048 / (1 + stretch*f)))
		}
	}},
}

// ScaleCosts multiplies every cost of the model by f: every CostFamily.
func ScaleCosts(c *sim.Costs, f float64) {
	for _, fam := range CostFamilies {
		fam.Scale(c, f)
	}
}

// familyActs reports whether scaling family k changes costs c at all (a
// machine without remote memory or SMT sharing has nothing to scale there).
func familyActs(c sim.Costs, k int) bool {
	x := c
	CostFamilies[k].Scale(&x, 2)
	return !reflect.DeepEqual(c, x)
}

func (j *job) run() {
	cfg, err := j.scen.Config()
	if err != nil {
		j.err = err
		return
	}
	if j.scale != 1 {
		if j.family < 0 {
			ScaleCosts(&cfg.Machine.Costs, j.scale)
		} else {
			CostFamilies[j.family].Scale(&cfg.Machine.Costs, j.scale)
		}
	}
	s, err := sim.New(cfg)
	if err != nil {
		j.err = err
		return
	}
	s.Run()
	if err := s.Err(); err != nil {
		j.err = err
		return
	}
	j.m = s.Metrics()
	j.ncpu = cfg.Machine.NCPU()
	j.ops = j.m.OpsPerS
	if j.elapsed != "" {
		j.ops, j.err = forksPerElapsed(&j.m, j.elapsed)
	}
}

// forksPerElapsed is a run's tasks forked per second of task's lifetime up
// to its exit (Table.ElapsedTask).
func forksPerElapsed(m *sim.Metrics, task string) (float64, error) {
	if ms, ok := exitMS(m, task); ok {
		return float64(m.Forks) * 1000 / ms, nil
	}
	return 0, fmt.Errorf("%s did not exit in the %.0f ms simulated", task, m.SimMS)
}

// exitMS is when task exited in the run (false if it did not).
func exitMS(m *sim.Metrics, task string) (float64, bool) {
	for _, t := range m.Tasks {
		if t.Name == task && t.ExitMS > 0 {
			return t.ExitMS, true
		}
	}
	return 0, false
}

// runAll runs the jobs on workers goroutines; each job is its own
// deterministic simulation, so the order they finish in changes nothing.
func runAll(jobs []*job, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ch := make(chan *job)
	var wg sync.WaitGroup
	for range min(workers, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				j.run()
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

func summarize(js []*job) (Run, error) {
	var r Run
	for _, j := range js {
		if j.err != nil {
			return r, j.err
		}
		m := &j.m
		sec := m.SimMS / 1000
		cpuMS := m.SimMS * float64(j.ncpu)
		r.OpsPerS += j.ops
		r.Migrations += float64(m.Migrations.Total) / sec
		r.PerSeedMig = append(r.PerSeedMig, float64(m.Migrations.Total)/sec)
		r.WakeupMig += float64(m.Migrations.Wakeup) / sec
		r.BalanceMig += float64(m.Migrations.Balance+m.Migrations.Newidle+m.Migrations.Nohz+m.Migrations.Active) / sec
		r.SearchPct += 100 * m.SearchCostMS / cpuMS
		if m.Ops > 0 {
			r.CtxPerOp += float64(m.CtxSwitches) / float64(m.Ops)
		}
		r.IdleOverPct += 100 * m.IdleWhileOverloadedMS / cpuMS
		r.RefillPct += 100 * m.Costs.CacheRefillMS / cpuMS
		r.FlushPct += 100 * m.Costs.FlushRefillMS / cpuMS
		r.IdleExitPct += 100 * m.Costs.IdleExitMS / cpuMS
		r.WakeupP50US += m.WakeupLatencyUS.P50
		r.SimMS = m.SimMS
		r.ncpu = j.ncpu
	}
	n := float64(len(js))
	r.OpsPerS /= n
	r.Migrations /= n
	r.WakeupMig /= n
	r.BalanceMig /= n
	r.SearchPct /= n
	r.CtxPerOp /= n
	r.IdleOverPct /= n
	r.RefillPct /= n
	r.FlushPct /= n
	r.IdleExitPct /= n
	r.WakeupP50US /= n
	r.seedsAveraged = len(js)
	return r, nil
}

// Validate runs the tables and judges every point.
func Validate(tables []*Table, opt Options) ([]TableResult, error) {
	want := map[string]bool{}
	for _, id := range opt.Tables {
		want[id] = true
	}
	type pj struct {
		before, after []*job
		sens          [][2]*job
	}
	var all []*job
	var results []TableResult
	var pjs [][]pj
	for _, t := range tables {
		if len(want) > 0 && !want[t.ID] {
			continue
		}
		tr := TableResult{Table: t}
		var tp []pj
		for i := range t.Points {
			p := &t.Points[i]
			var x pj
			for _, seed := range opt.Seeds {
				for side, sets := range [][]string{t.Before, t.After} {
					s, err := t.build(p, sets, seed)
					if err != nil {
						return nil, err
					}
					j := &job{scen: s, scale: 1, family: -1, elapsed: t.ElapsedTask}
					if side == 0 {
						x.before = append(x.before, j)
					} else {
						x.after = append(x.after, j)
					}
					all = append(all, j)
				}
			}
			for _, f := range opt.Sensitivity {
				var pair [2]*job
				for side, sets := range [][]string{t.Before, t.After} {
					s, err := t.build(p, sets, opt.Seeds[0])
					if err != nil {
						return nil, err
					}
					pair[side] = &job{scen: s, scale: f, family: -1, elapsed: t.ElapsedTask}
					all = append(all, pair[side])
				}
				x.sens = append(x.sens, pair)
			}
			tp = append(tp, x)
		}
		results = append(results, tr)
		pjs = append(pjs, tp)
	}
	runAll(all, opt.Workers)
	for ti := range results {
		t := results[ti].Table
		for i, x := range pjs[ti] {
			p := &t.Points[i]
			b, err := summarize(x.before)
			if err != nil {
				return nil, fmt.Errorf("table %s, %s: %w", t.ID, p.Label, err)
			}
			a, err := summarize(x.after)
			if err != nil {
				return nil, fmt.Errorf("table %s, %s: %w", t.ID, p.Label, err)
			}
			pr := PointResult{Point: p, SeedRatio: p.Ratio(t.TimeMetric), Before: b, After: a, Tuned: t.Tuned}
			if p.Tuned != nil {
				pr.Tuned = *p.Tuned
			}
			pr.SimRatio = a.OpsPerS / b.OpsPerS
			for k := range x.before {
				pr.SeedRatios = append(pr.SeedRatios, x.after[k].ops/x.before[k].ops)
			}
			pr.Verdict = Judge(pr.SeedRatio, pr.SimRatio)
			for _, pair := range x.sens {
				sb, err := summarize(pair[:1])
				if err != nil {
					return nil, err
				}
				sa, err := summarize(pair[1:])
				if err != nil {
					return nil, err
				}
				r := sa.OpsPerS / sb.OpsPerS
				pr.Sens = append(pr.Sens, r)
				pr.SensHolds = append(pr.SensHolds, Judge(pr.SeedRatio, r).Holds)
			}
			results[ti].SimMS = b.SimMS
			results[ti].Points = append(results[ti].Points, pr)
		}
	}
	if opt.Families && len(opt.Sensitivity) > 0 {
		if err := runFamilies(results, opt); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// runFamilies reruns every point that misses with one cost family at a time
// scaled by each sensitivity factor, on seed Seeds[0]: which cost's level,
// alone, the miss hangs on.
func runFamilies(results []TableResult, opt Options) error {
	type fj struct {
		pr    *PointResult
		fam   int
		pairs [][2]*job // per factor
	}
	var all []*job
	var fjs []fj
	for ti := range results {
		t := results[ti].Table
		for i := range results[ti].Points {
			pr := &results[ti].Points[i]
			if pr.Verdict.Holds {
				continue
			}
			s, err := t.build(pr.Point, t.Before, opt.Seeds[0])
			if err != nil {
				return err
			}
			cfg, err := s.Config()
			if err != nil {
				return fmt.Errorf("table %s, %s: %w", t.ID, pr.Point.Label, err)
			}
			pr.Families = make([]FamilyResult, len(CostFamilies))
			for k := range CostFamilies {
				if !familyActs(cfg.Machine.Costs, k) {
					continue
				}
				pr.Families[k].Acts = true
				x := fj{pr: pr, fam: k}
				for _, f := range opt.Sensitivity {
					var pair [2]*job
					for side, sets := range [][]string{t.Before, t.After} {
						s, err := t.build(pr.Point, sets, opt.Seeds[0])
						if err != nil {
							return err
						}
						pair[side] = &job{scen: s, scale: f, family: k, elapsed: t.ElapsedTask}
						all = append(all, pair[side])
					}
					x.pairs = append(x.pairs, pair)
				}
				fjs = append(fjs, x)
			}
		}
	}
	runAll(all, opt.Workers)
	for _, x := range fjs {
		fr := &x.pr.Families[x.fam]
		for _, pair := range x.pairs {
			sb, err := summarize(pair[:1])
			if err != nil {
				return err
			}
			sa, err := summarize(pair[1:])
			if err != nil {
				return err
			}
			r := sa.OpsPerS / sb.OpsPerS
			fr.Ratio = append(fr.Ratio, r)
			fr.Holds = append(fr.Holds, Judge(x.pr.SeedRatio, r).Holds)
		}
	}
	return nil
}

// Summary counts the points that hold.
type Summary struct {
	Points, Holds         int
	Big, SignRight        int
	Untuned, UntunedHolds int
	// Missed points rerun by cost family, and those of them that hold with
	// one family scaled.
	FamilyRuns, HoldWithOne int
}

// Summarize counts over the tables given.
func Summarize(rs []TableResult) Summary {
	var s Summary
	for _, tr := range rs {
		for _, p := range tr.Points {
			s.Points++
			if p.Verdict.Holds {
				s.Holds++
			}
			if p.Verdict.Big {
				s.Big++
				if p.Verdict.SignRight {
					s.SignRight++
				}
			}
			if p.Families != nil {
				s.FamilyRuns++
				if p.HoldsWithOne() {
					s.HoldWithOne++
				}
			}
			if !p.Tuned {
				s.Untuned++
				if p.Verdict.Holds {
					s.UntunedHolds++
				}
			}
		}
	}
	return s
}
