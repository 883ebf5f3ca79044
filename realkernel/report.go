package realkernel

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// Stat summarises repeated real runs of one quantity.
type Stat struct {
	Mean, SD, Min, Max float64
	N                  int
}

// StatOf computes mean, sample standard deviation, min and max.
func StatOf(v []float64) Stat {
	s := Stat{N: len(v)}
	if len(v) == 0 {
		return s
	}
	s.Min, s.Max = v[0], v[0]
	for _, x := range v {
		s.Mean += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean /= float64(len(v))
	if len(v) > 1 {
		for _, x := range v {
			s.SD += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(s.SD / float64(len(v)-1))
	}
	return s
}

// Simulate runs a scenario in the simulator to its end.
func Simulate(s *scenarios.Scenario) (sim.Metrics, error) {
	cfg, err := s.Config()
	if err != nil {
		return sim.Metrics{}, err
	}
	sm, err := sim.New(cfg)
	if err != nil {
		return sim.Metrics{}, err
	}
	sm.Run()
	if err := sm.Err(); err != nil {
		return sim.Metrics{}, err
	}
	return sm.Metrics(), nil
}

// ReportCase is one scenario of the reference table.
type ReportCase struct {
	File     string // path of the scenario
	Duration string // the real runs' duration ("" = the scenario's)
	// Variants are what-ifs for the simulator ("path=value", several
	// separated by spaces, applied to the compared scenario with the
	// calibrated costs).
	Variants []string
}

// VariantResult is the simulator under one what-if.
type VariantResult struct {
	Set                                 string
	OpsPerS, BusyPct, MigPerS, LatP50US float64
}

// ReportOptions drive WriteReport.
type ReportOptions struct {
	Cases []ReportCase
	Runs  int                    // real runs per case
	Log   io.Writer              // progress (nil: none)
	Costs *scenarios.Costs       // calibrated costs (nil: measure them)
	Cal   *Calibration           // the calibration they came from
	Load  func() (float64, bool) // the 1-minute load average before a run
	// Isolate: real runs with Options.Isolate.
	Isolate bool
}

// CaseResult is the measured and simulated figures of one case.
type CaseResult struct {
	Title        string
	File         string
	Duration     string
	Rows         []string
	Real         []Stat
	SimCal       []float64 // the means over the tick phases (PhaseRows)
	SimCalMin    []float64 // and their ranges
	SimCalMax    []float64
	SimDef       []float64
	Loads        []float64
	Notes        []string
	HostNotes    []string
	ScenarioNote string
	Variants     []VariantResult
	// RealOps etc. repeat the real means for the what-if table.
	RealVariant VariantResult
}

// RunCase runs one case: opt.Runs real runs (each after the same run
// without the trace, Options.Untraced) and the simulator with the
// calibrated and with the default costs, on the host's machine.
func RunCase(c ReportCase, runs int, isolate bool, costs *scenarios.Costs, host scenarios.Machine, load func() (float64, bool), log io.Writer) (*CaseResult, error) {
	s, err := scenarios.Load(c.File)
	if err != nil {
		return nil, err
	}
	if c.Duration != "" {
		if err := s.Set("duration", c.Duration); err != nil {
			return nil, err
		}
	}
	cr := &CaseResult{Title: s.Title, File: c.File, Duration: s.Duration, ScenarioNote: s.Description}
	var per [][]float64
	var inferred, cpuRatio, steal []float64
	var refused []string
	var switchIns float64
	var intrRate, intrHarness []float64
	intrBy := map[string]int64{}
	for i := 0; i < runs; i++ {
		if load != nil {
			if l, ok := load(); ok {
				cr.Loads = append(cr.Loads, l)
			}
		}
		res, _, err := Run(s, Options{Isolate: isolate, Untraced: true})
		for retry := 0; err != nil && errors.Is(err, ErrCPUCheck) && retry < 2; retry++ {
			// A run whose trace does not account for its threads' CPU time
			// is refused, said, and run again (at most twice).
			refused = append(refused, err.Error())
			if log != nil {
				fmt.Fprintf(log, "%s run %d/%d refused, once more: %v\n", c.File, i+1, runs, err)
			}
			res, _, err = Run(s, Options{Isolate: isolate, Untraced: true})
		}
		if err != nil {
			return nil, err
		}
		// Sim metrics are only used for the row names here.
		rows := CompareRows(res, &sim.Metrics{SimMS: 1})
		if per == nil {
			per = make([][]float64, len(rows))
			for _, r := range rows {
				cr.Rows = append(cr.Rows, r.Name)
			}
		}
		for j, r := range rows {
			per[j] = append(per[j], r.Real)
		}
		if log != nil {
			fmt.Fprintf(log, "%s run %d/%d: %.0f ops/s (%.0f untraced), %d migrations, wake-up p50 %.1f us\n", c.File, i+1, runs, res.OpsPerS, *res.UntracedOpsPerS, res.Migrations.Total, res.WakeupLatencyUS.P50)
		}
		for _, n := range res.Notes {
			// Per-run counts are summed up below, not repeated per run.
			if strings.Contains(n, "switch-ins of the scenario's threads were not in the trace") || strings.HasPrefix(n, "CPU time check") || strings.HasPrefix(n, interruptionNotePrefix) {
				continue
			}
			if !contains(cr.Notes, n) && !strings.HasPrefix(n, "trace_clock") {
				cr.Notes = append(cr.Notes, n)
			}
		}
		inferred = append(inferred, float64(res.InferredSwitchIns))
		if c := res.CPUCheck; c != nil && c.OwnMS() > 0 {
			cpuRatio = append(cpuRatio, c.TraceMS/c.OwnMS())
			if c.StealCPUs > 0 {
				steal = append(steal, c.StealMS)
			}
		}
		switchIns += float64(res.CtxSwitches)
		if sec := res.SimMS / 1e3; sec > 0 {
			intrRate = append(intrRate, float64(res.Interruptions.Count)/sec)
			intrHarness = append(intrHarness, float64(res.Interruptions.Harness)/sec)
		}
		for k, v := range res.Interruptions.By {
			intrBy[k] += v
		}
	}
	if len(intrRate) > 0 {
		rate, harness := StatOf(intrRate), StatOf(intrHarness)
		who := topInterrupters(intrBy)
		if len(who) > 4 {
			who = who[:4]
		}
		if rate.Max > 0 {
			cr.Notes = append(cr.Notes, fmt.Sprintf("other threads' interruptions (a CPU taken from a scenario thread and given straight back; not counted as context switches, preemptions or run-queue waits): %.1f – %.1f a second per run, of them this harness's own Go runtime threads %.1f – %.1f; most often %s",
				rate.Min, rate.Max, harness.Min, harness.Max, strings.Join(who, ", ")))
		}
	}
	if len(inferred) > 0 {
		st := StatOf(inferred)
		sum := 0.0
		for _, v := range inferred {
			sum += v
		}
		cr.Notes = append(cr.Notes, fmt.Sprintf("switch-ins the kernel did not report, put back by interop.RepairFtrace: %.0f – %.0f per run (%.2f %% of all context switches counted)",
			st.Min, st.Max, 100*sum/max(switchIns, 1)))
	}
	for _, r := range refused {
		cr.Notes = append(cr.Notes, "a run refused and run again: "+r)
	}
	if len(cpuRatio) > 0 {
		st := StatOf(cpuRatio)
		cr.Notes = append(cr.Notes, fmt.Sprintf("CPU time check, the trace's over the threads' own clocks from their switch-ins (less what they count before a switch-in from idle): %.4f – %.4f", st.Min, st.Max))
	}
	if len(steal) > 0 {
		st := StatOf(steal)
		cr.Notes = append(cr.Notes, fmt.Sprintf("the host's steal time on the guest's CPUs (/proc/stat, 10 ms ticks): %.0f – %.0f ms per run", st.Min, st.Max))
	}
	for _, v := range per {
		cr.Real = append(cr.Real, StatOf(v))
	}
	get := func(name string) float64 {
		for i, r := range cr.Rows {
			if r == name {
				return cr.Real[i].Mean
			}
		}
		return 0
	}
	cr.RealVariant = VariantResult{Set: "real kernel (mean)", OpsPerS: get("ops/s"), BusyPct: get("busy %"), MigPerS: get("migrations/s"), LatP50US: get("wake-up latency p50 us")}
	for _, set := range append([]string{""}, c.Variants...) {
		ss, _, err := SimScenario(s, host, costs)
		if err != nil {
			return nil, err
		}
		for _, one := range strings.Fields(set) {
			path, value, _ := strings.Cut(one, "=")
			if err := ss.Set(path, value); err != nil {
				return nil, fmt.Errorf("variant %s: %v", set, err)
			}
		}
		ms, err := SimulatePhases(ss)
		if err != nil {
			return nil, err
		}
		name := set
		if name == "" {
			name = "simulator, calibrated (as above)"
		}
		rows := PhaseRows(&Result{SimMS: 1}, ms)
		cr.Variants = append(cr.Variants, VariantResult{Set: name, OpsPerS: rowSim(rows, "ops/s"), BusyPct: rowSim(rows, "busy %"),
			MigPerS: rowSim(rows, "migrations/s"), LatP50US: rowSim(rows, "wake-up latency p50 us")})
	}
	for k, cst := range []*scenarios.Costs{costs, nil} {
		ss, notes, err := SimScenario(s, host, cst)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			cr.HostNotes = notes
		}
		ms, err := SimulatePhases(ss)
		if err != nil {
			return nil, err
		}
		// The same rows as the real runs' (their untraced rate included).
		rows := PhaseRows(&Result{SimMS: 1, UntracedOpsPerS: new(float64)}, ms)
		for _, r := range rows {
			if k == 0 {
				cr.SimCal = append(cr.SimCal, r.Sim)
				cr.SimCalMin = append(cr.SimCalMin, r.SimMin)
				cr.SimCalMax = append(cr.SimCalMax, r.SimMax)
			} else {
				cr.SimDef = append(cr.SimDef, r.Sim)
			}
		}
	}
	return cr, nil
}

// rowSim is the simulated value of the row named name (0: none).
func rowSim(rows []Row, name string) float64 {
	for _, r := range rows {
		if r.Name == name {
			return r.Sim
		}
	}
	return 0
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Within says whether x lies within k standard deviations of the real mean
// (at least 5 % of the mean, so a quantity with no spread still has a band).
func (s Stat) Within(x, k float64) bool {
	band := max(k*s.SD, 0.05*math.Abs(s.Mean))
	return math.Abs(x-s.Mean) <= band
}

func fmtNum(x float64) string {
	switch {
	case x == 0:
		return "0"
	case math.Abs(x) >= 1000:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// WriteCaseTable writes one case's markdown table.
func WriteCaseTable(w io.Writer, cr *CaseResult) {
	fmt.Fprintf(w, "| %s | real: mean ± sd (min – max) | sim, calibrated: mean of %d tick phases (min – max) | sim/real | within 3 sd? | sim, default costs |\n|---|---|---|---|---|---|\n", "quantity", TickPhases)
	for i, name := range cr.Rows {
		st := cr.Real[i]
		ratio := "–"
		if st.Mean != 0 {
			ratio = fmt.Sprintf("%.2f", cr.SimCal[i]/st.Mean)
		}
		ok := "no"
		if st.Within(cr.SimCal[i], 3) {
			ok = "yes"
		}
		simCal := fmtNum(cr.SimCal[i])
		if i < len(cr.SimCalMin) && cr.SimCalMin[i] != cr.SimCalMax[i] {
			simCal += fmt.Sprintf(" (%s – %s)", fmtNum(cr.SimCalMin[i]), fmtNum(cr.SimCalMax[i]))
		}
		fmt.Fprintf(w, "| %s | %s ± %s (%s – %s) | %s | %s | %s | %s |\n", name, fmtNum(st.Mean), fmtNum(st.SD), fmtNum(st.Min), fmtNum(st.Max),
			simCal, ratio, ok, fmtNum(cr.SimDef[i]))
	}
}

// writePlacements writes the calibration's wake-up placement probes and,
// when they found a kernel that does not place as mainline does, the note
// saying so.
func writePlacements(w io.Writer, ps []Placement) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWake-up placement (`schedsim calibrate`; not a cost): a task allowed on both CPUs, woken every %d ms by a thread pinned to one that runs the share below of each period, while the other CPU has nothing to run. Mainline v6.17 wakes it on the idle CPU every time, and so does the simulator (`realkernel.TestPlacementProbeInTheSimulator`).\n\n| waker's share | wake-ups counted | on the waker's busy CPU |\n|---|---|---|\n", placementPeriod/1e6)
	for _, p := range ps {
		if p.Failed != "" {
			fmt.Fprintf(w, "| %d %% | failed: %s | |\n", p.WakerPct, p.Failed)
			continue
		}
		fmt.Fprintf(w, "| %d %% | %d | %d (%.0f %%) |\n", p.WakerPct, p.Rounds, p.OnWakerCPU, 100*float64(p.OnWakerCPU)/float64(max(p.Rounds, 1)))
	}
	if n := PlacementNote(ps); n != "" {
		fmt.Fprintf(w, "\n- %s.\n", n)
	}
}

// WriteReport measures every case and writes docs/real-kernel.md.
func WriteReport(w io.Writer, opt ReportOptions, intro, outro string) error {
	host, hostNotes, err := HostMachine()
	if err != nil {
		return err
	}
	cal := opt.Cal
	if opt.Costs == nil {
		if cal, err = Calibrate(CalibrateOptions{}); err != nil {
			return err
		}
		opt.Costs = &cal.Costs
	}
	var results []*CaseResult
	for _, c := range opt.Cases {
		cr, err := RunCase(c, opt.Runs, opt.Isolate, opt.Costs, host, opt.Load, opt.Log)
		if err != nil {
			return fmt.Errorf("%s: %v", c.File, err)
		}
		results = append(results, cr)
	}
	fmt.Fprint(w, intro)
	kernel := KernelVersion()
	if p := KernelSchedParams(); len(p) > 0 {
		kernel += "; scheduler and idle parameters on its command line: `" + strings.Join(p, " ") + "`"
	}
	shape := fmt.Sprintf("%d CPUs (%d×%d×%d×%d×%d×%d)", host.Nodes*host.SocketsPerNode*host.LLCsPerSocket*host.ClustersPerLLC*host.CoresPerCluster*host.ThreadsPerCore,
		host.Nodes, host.SocketsPerNode, host.LLCsPerSocket, host.ClustersPerLLC, host.CoresPerCluster, host.ThreadsPerCore)
	if len(host.CPUs) > 0 { // given per CPU (lscpu's import)
		shape = fmt.Sprintf("%d CPUs given per CPU, as lscpu -p lists them", len(host.CPUs))
	}
	fmt.Fprintf(w, "\n## This run\n\n- kernel: %s\n- machine: %s; as a scenario machine: %s, HZ %d\n- generated: %s, %d real runs per scenario\n",
		kernel, MachineName(), shape, host.HZ, time.Now().UTC().Format("2006-01-02 15:04 MST"), opt.Runs)
	for _, n := range hostNotes {
		fmt.Fprintf(w, "- %s\n", n)
	}
	var loads []float64
	for _, r := range results {
		loads = append(loads, r.Loads...)
	}
	if len(loads) > 0 {
		sort.Float64s(loads)
		fmt.Fprintf(w, "- 1-minute load average before the runs: %.2f – %.2f (median %.2f): other work on the machine competes with the scenario's threads\n",
			loads[0], loads[len(loads)-1], loads[len(loads)/2])
	}
	if cal != nil {
		fmt.Fprintf(w, "\n### Calibration (`schedsim calibrate`)\n\n| measurement | p50 µs | p25 – p75 µs | n |\n|---|---|---|---|\n")
		for _, s := range cal.Samples {
			fmt.Fprintf(w, "| %s | %.2f | %.2f – %.2f | %d |\n", s.Name, s.P50US, s.P25US, s.P75US, s.N)
		}
		c := cal.Costs
		fmt.Fprintf(w, "\nDerived `machine.costs`: context_switch %s, wakeup_ipi %s, wakeup_ipi_send %s, idle_states", c.ContextSwitch, c.WakeupIPI, c.WakeupIPISend)
		for _, st := range c.IdleStates {
			fmt.Fprintf(w, " %s (after %s, exit %s)", st.Name, st.After, st.ExitLatency)
		}
		if c.TimerIRQSpread != "" {
			fmt.Fprintf(w, ", timer_irq_spread %s", c.TimerIRQSpread)
		}
		if c.TimerWakeup != "" {
			fmt.Fprintf(w, ", timer_wakeup %s", c.TimerWakeup)
		}
		if c.IdleReturn != "" {
			fmt.Fprintf(w, ", idle_return %s", c.IdleReturn)
		}
		fmt.Fprintf(w, "; the rest are the simulator's defaults.\n")
		writePlacements(w, cal.Placements)
		if d := cal.SchedDebug; d != nil {
			fmt.Fprintf(w, "\nThe kernel's sched debug file (`/sys/kernel/debug/sched/debug`): base slice %v (%s scaling), sched features mask %d (bit i is the i-th `SCHED_FEAT` of this kernel's `features.h`).\n",
				time.Duration(d.BaseSliceNS), d.TunableScaling, d.Features)
		}
	}
	for _, r := range results {
		fmt.Fprintf(w, "\n## %s\n\n`%s`, %s per run. %s\n\n", r.Title, r.File, r.Duration, r.ScenarioNote)
		WriteCaseTable(w, r)
		for _, n := range append(r.HostNotes, r.Notes...) {
			fmt.Fprintf(w, "\n- %s", n)
		}
		fmt.Fprintln(w)
		if len(r.Variants) > 1 {
			fmt.Fprintf(w, "\nWhat-ifs in the simulator, one row each (calibrated costs, means of the tick phases), beside the real means:\n\n| | ops/s | busy %% | migrations/s | wake-up latency p50 µs |\n|---|---|---|---|---|\n")
			for _, v := range append([]VariantResult{r.RealVariant}, r.Variants...) {
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", v.Set, fmtNum(v.OpsPerS), fmtNum(v.BusyPct), fmtNum(v.MigPerS), fmtNum(v.LatP50US))
			}
		}
	}
	fmt.Fprint(w, outro)
	return nil
}
