package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"schedplay/realkernel"
	"schedplay/scenarios"
	"schedplay/sim"
)

// cmdReal runs a scenario on this machine's kernel (realkernel.Run) and
// prints what the kernel did with the run's -json keys; -compare also runs
// it in the simulator on this machine's topology and prints both.
func cmdReal(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("real", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	traceOut := fs.String("trace", "", "write the real run as a Perfetto trace-event JSON file")
	ftraceOut := fs.String("ftrace", "", "write the raw tracefs text (schedsim import -from ftrace reads it)")
	compare := fs.Bool("compare", false, "also run the simulator on this machine's topology and print both")
	costsFile := fs.String("costs", "", "-compare: machine.costs from schedsim calibrate -o FILE")
	isolate := fs.Bool("isolate", false, "shift every nice value so the most favoured group runs at nice -20: other work hardly competes")
	untraced := fs.Bool("untraced", false, "run the scenario once more first without the trace and print its rate too (what tracing costs it)")
	var sets setFlags
	fs.Var(&sets, "set", "path=value override (repeatable)")
	pos, err := parse(fs, args, 1, "one FILE or PRESET")
	if err != nil {
		return err
	}
	s, err := load(pos[0], sets)
	if err != nil {
		return err
	}
	var costs *scenarios.Costs
	var placementNote string // the calibration's wake-up placement probes, when they found a non-mainline rule
	if *costsFile != "" {
		if !*compare {
			return badInputf("schedsim real: -costs is for -compare")
		}
		data, err := readLimited(*costsFile, scenarios.MaxScenarioBytes)
		if err != nil {
			return badInput(err)
		}
		if costs, err = realkernel.ReadCosts(data); err != nil {
			return badInput(fmt.Errorf("%s: %v", *costsFile, err))
		}
		placementNote = realkernel.PlacementNote(realkernel.ReadPlacements(data))
	}
	if n := instances(s); n > realkernel.MaxThreads {
		return badInputf("%s: tasks: the scenario has %d task instances; a real run starts one thread per instance and is limited to %d", pos[0], n, realkernel.MaxThreads)
	}
	if err := realkernel.Check(); err != nil {
		return badInput(err)
	}
	res, rec, err := realkernel.Run(s, realkernel.Options{KeepTrace: *traceOut != "" || *ftraceOut != "", Isolate: *isolate, Untraced: *untraced})
	if err != nil && rec != nil && *ftraceOut != "" {
		// a run refused by its CPU time check: its trace, to look at
		writeOutput(*ftraceOut, nil, func(w io.Writer) error { _, err := w.Write(rec.Trace); return err })
	}
	if err != nil {
		if errors.Is(err, realkernel.ErrNoTracing) || strings.HasPrefix(err.Error(), "tasks") {
			return badInput(err)
		}
		return internal(err)
	}
	if *ftraceOut != "" {
		if _, err := writeOutput(*ftraceOut, nil, func(w io.Writer) error { _, err := w.Write(rec.Trace); return err }); err != nil {
			return err
		}
	}
	if *traceOut != "" {
		if _, err := writeOutput(*traceOut, nil, func(w io.Writer) error {
			return realkernel.WritePerfetto(w, rec.Trace, rec.Threads, rec.Window, s.Title)
		}); err != nil {
			return err
		}
	}
	if !*compare {
		if *asJSON {
			return writeJSON(stdout, res)
		}
		writeRealTable(stdout, res)
		return nil
	}
	host, notes, err := realkernel.HostMachine()
	if err != nil {
		return internal(err)
	}
	ss, more, err := realkernel.SimScenario(s, host, costs)
	if err != nil {
		return badInput(err)
	}
	notes = append(notes, more...)
	if placementNote != "" {
		notes = append(notes, placementNote)
	}
	// The simulator at the tick phases a real run's start may fall on
	// (realkernel.SimulatePhases), each run under the CLI's limits.
	var ms []sim.Metrics
	for i := range realkernel.TickPhases {
		ps, err := realkernel.TickPhase(ss, i)
		if err != nil {
			return badInput(err)
		}
		m, err := simulate(ps, &limits{maxWork: sim.DefaultMaxWork, timeout: DefaultTimeout})
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	rows := realkernel.PhaseRows(res, ms)
	if *asJSON {
		return writeJSON(stdout, struct {
			Real  *realkernel.Result `json:"real"`
			Sim   sim.Metrics        `json:"sim"` // the first tick phase's run (the scenario as written)
			Rows  []realkernel.Row   `json:"compare"`
			Notes []string           `json:"notes"`
		}{res, ms[0], rows, notes})
	}
	writeRealTable(stdout, res)
	fmt.Fprintf(stdout, "\nthe same scenario in the simulator (v6.17 base, this machine's topology%s; the mean of %d runs a fraction of a tick apart, and their range):\n\n",
		map[bool]string{true: ", calibrated costs", false: ", default costs"}[costs != nil], realkernel.TickPhases)
	table := [][]string{{"", "real", "sim", "sim/real", "sim min - max"}}
	for _, r := range rows {
		ratio := "-"
		if r.Ratio != nil {
			ratio = fmt.Sprintf("%.2f", *r.Ratio)
		}
		table = append(table, []string{r.Name, fmt.Sprintf("%.2f", r.Real), fmt.Sprintf("%.2f", r.Sim), ratio, fmt.Sprintf("%.2f - %.2f", r.SimMin, r.SimMax)})
	}
	writeColumns(stdout, table)
	for _, n := range notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	return nil
}

func instances(s *scenarios.Scenario) int {
	n := 0
	for _, t := range s.Tasks {
		n += t.Count
	}
	return n
}

// writeRealTable prints a real run for a person.
func writeRealTable(w io.Writer, r *realkernel.Result) {
	title := r.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "real kernel: %s on %s; %.0f ms measured in %.0f ms, %d trace events, %d lost\n\n", r.Kernel, r.Machine, r.SimMS, r.WallMS, r.Events, r.LostEvents)
	pct := func(p realkernel.Percentiles) string {
		return fmt.Sprintf("p50 %.1f  p95 %.1f  p99 %.1f  max %.1f  mean %.1f  (n %d)", p.P50, p.P95, p.P99, p.Max, p.Mean, p.N)
	}
	mg := r.Migrations
	rows := [][]string{
		{"ops", fmt.Sprintf("%d (%.2f/s)", r.Ops, r.OpsPerS)},
	}
	if u := r.UntracedOpsPerS; u != nil {
		rows = append(rows, []string{"ops/s untraced", fmt.Sprintf("%.2f (the same run without the trace, by the threads' own counts: tracing cost %.1f %%)", *u, 100*(1-r.OpsPerS/max(*u, 1e-9)))})
	}
	rows = append(rows, [][]string{
		{"busy", fmt.Sprintf("%.1f%%", r.BusyPct)},
		{"wake-up latency us", pct(r.WakeupLatencyUS)},
		{"run-queue wait us", pct(r.RunqWaitUS)},
		{"wake-ups", fmt.Sprint(r.Wakeups)},
		{"context switches", fmt.Sprintf("%d (preemptions %d)", r.CtxSwitches, r.Preemptions)},
		{"migrations", fmt.Sprintf("%d: wakeup %d, other %d (of which active %d)", mg.Total, mg.Wakeup, mg.Other, mg.Active)},
		{"  by distance", fmt.Sprintf("smt %d, cluster %d, llc %d, package %d, numa %d", mg.SMT, mg.Cluster, mg.LLC, mg.Package, mg.NUMA)},
	}...)
	for _, row := range rows {
		fmt.Fprintf(w, "%-20s%s\n", row[0], row[1])
	}
	fmt.Fprintln(w)
	trows := [][]string{{"task", "tid", "ops", "cpu ms", "wait ms", "migrations"}}
	for _, t := range r.Tasks {
		trows = append(trows, []string{t.Name, fmt.Sprint(t.TID), fmt.Sprint(t.Ops), fmt.Sprintf("%.1f", t.CPUMS), fmt.Sprintf("%.1f", t.WaitMS), fmt.Sprint(t.Migrations)})
	}
	writeColumns(w, trows)
	fmt.Fprintf(w, "\nunmeasured (the kernel's sched events do not show them): %s\n", strings.Join(r.Unmeasured, ", "))
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// cmdCalibrate measures this machine's costs and writes them as a
// machine.costs object ({"costs": ..., "samples": ...}: the costs plus the
// measurements they came from).
func cmdCalibrate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	out := fs.String("o", "", "write the result to this file instead of stdout")
	rounds := fs.Int("rounds", 0, "ping-pong rounds per measurement (default 400)")
	if _, err := parse(fs, args, 0, "no arguments"); err != nil {
		return err
	}
	if *rounds < 0 || *rounds > 100000 {
		return badInputf("schedsim calibrate: -rounds %d: want 1..100000", *rounds)
	}
	cal, err := realkernel.Calibrate(realkernel.CalibrateOptions{Rounds: *rounds})
	if err != nil {
		if errors.Is(err, realkernel.ErrNoTracing) {
			return badInput(err)
		}
		return internal(err)
	}
	b, err := json.MarshalIndent(cal, "", "  ")
	if err != nil {
		return internal(err)
	}
	b = append(b, '\n')
	for _, s := range cal.Samples {
		fmt.Fprintf(stderr, "%-22s p50 %7.2f us  (p25 %.2f, p75 %.2f, n %d)  %s\n", s.Name, s.P50US, s.P25US, s.P75US, s.N, s.About)
	}
	for _, p := range cal.Placements {
		if p.Failed != "" {
			fmt.Fprintf(stderr, "%-22s failed: %s\n", p.Name, p.Failed)
			continue
		}
		fmt.Fprintf(stderr, "%-22s %d of %d  %s\n", p.Name, p.OnWakerCPU, p.Rounds, p.About)
	}
	if n := realkernel.PlacementNote(cal.Placements); n != "" {
		fmt.Fprintln(stderr, "note:", n)
	}
	if d := cal.SchedDebug; d != nil {
		fmt.Fprintf(stderr, "%-22s %v (%s scaling); sched features mask %d  from the kernel's sched debug file\n", "base_slice", time.Duration(d.BaseSliceNS), d.TunableScaling, d.Features)
	}
	if *out == "" || *out == "-" {
		_, err := stdout.Write(b)
		return err
	}
	_, err = writeOutput(*out, nil, func(w io.Writer) error { _, err := w.Write(b); return err })
	if err == nil {
		fmt.Fprintf(stdout, "wrote %s (machine.costs for schedsim real -compare -costs %s)\n", *out, *out)
	}
	return err
}

// realNeedsReexec: schedsim real and calibrate run their threads with the
// Go runtime's asynchronous preemption off (realkernel's package comment);
// the setting is read at start-up, so main re-executes itself with it.
func realNeedsReexec(args []string) bool {
	return len(args) > 0 && (args[0] == "real" || args[0] == "calibrate") && !realkernel.AsyncPreemptOff() && os.Getenv("SCHEDSIM_NO_REEXEC") == ""
}
