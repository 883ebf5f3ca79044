package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// newSim is sim.New; a test replaces it to reach the internal-error path.
var newSim = sim.New

// simulate runs one scenario to its duration within the limits. Wall time
// (New plus Run) is measured here: the CLI may read the clock, the
// simulator never does. A run a limit stopped returns its metrics (of what
// was simulated) and a *limitError.
func simulate(s *scenarios.Scenario, lim *limits) (sim.Metrics, error) {
	cfg, err := s.Config()
	if err != nil {
		return sim.Metrics{}, badInput(err)
	}
	lim.apply(cfg)
	start := time.Now()
	sm, err := newSim(cfg)
	if err != nil {
		// The scenario validated, so the simulator refusing it is our bug.
		return sim.Metrics{}, internal(fmt.Errorf("internal error: the simulator refused a valid scenario: %v", err))
	}
	stopped := lim.runTo(sm, 0, lim.deadline())
	m := sm.Metrics()
	m.WallMS = float64(time.Since(start).Microseconds()) / 1000
	m.Title = s.Title
	if stopped != nil {
		m.Stopped = stopped.Error()
	}
	return m, stopped
}

func cmdRun(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the metrics as JSON")
	var sets setFlags
	fs.Var(&sets, "set", "path=value override (repeatable)")
	var lim limits
	lim.register(fs)
	pos, err := parse(fs, args, 1, "one FILE or PRESET")
	if err != nil {
		return err
	}
	if err := lim.check(); err != nil {
		return err
	}
	s, err := load(pos[0], sets)
	if err != nil {
		return err
	}
	m, err := simulate(s, &lim)
	var le *limitError
	if err != nil && !errors.As(err, &le) {
		return err
	}
	if *asJSON {
		if werr := writeJSON(stdout, m); werr != nil {
			return werr
		}
		return err
	}
	writeTable(stdout, &m)
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return internal(err)
	}
	return nil
}

// maxTaskRows: above this many task instances the table shows one row per
// task group (sums; util/load are averages) instead of one per task.
const maxTaskRows = 32

// costLines is -json's cost_breakdown in words: the CPU time the cost model
// charged to tasks, and the latency it put before tasks could run, by kind,
// the parts that are zero left out ("none" when all are).
func costLines(c sim.CostBreakdown) (cpu, latency string) {
	join := func(parts ...string) string {
		var out []string
		for i := 0; i+1 < len(parts); i += 2 {
			if parts[i+1] != "" {
				out = append(out, parts[i]+" "+parts[i+1])
			}
		}
		if len(out) == 0 {
			return "none"
		}
		return strings.Join(out, ", ")
	}
	f := func(ms float64) string {
		if ms == 0 {
			return ""
		}
		return strconv.FormatFloat(ms, 'f', 3, 64)
	}
	refill := f(c.CacheRefillMS)
	if c.FlushRefillMS != 0 {
		refill += " (" + f(c.FlushRefillMS) + " after a C-state flush)"
	}
	cpu = join("context switches", f(c.ContextSwitchMS), "cache refills", refill, "messages", f(c.CommMS),
		"wake-up search", f(c.SearchMS), "balancing", f(c.BalanceMS), "IPI sends", f(c.IPISendMS),
		"remote memory", f(c.RemoteMemMS), "SMT sibling", f(c.SMTShareMS))
	latency = join("IPIs", f(c.IPIMS), "C-state exits", f(c.IdleExitMS))
	return cpu, latency
}

// writeTable prints the metrics for a person.
func writeTable(w io.Writer, m *sim.Metrics) {
	title := m.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintln(w, title)
	rtf := ""
	if m.WallMS > 0 {
		rtf = fmt.Sprintf(", %.1fx real time", m.SimMS/m.WallMS)
	}
	fmt.Fprintf(w, "seed %d: %.0f ms simulated in %.0f ms%s, %d events, trace %s\n", m.Seed, m.SimMS, m.WallMS, rtf, m.Events, m.TraceHash)
	if m.Stopped != "" {
		fmt.Fprintf(w, "STOPPED EARLY (%d work units): %s\n", m.Work, m.Stopped)
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pct := func(p sim.Percentiles) string {
		return fmt.Sprintf("p50 %.1f  p95 %.1f  p99 %.1f  max %.1f  mean %.1f  (n %d)", p.P50, p.P95, p.P99, p.Max, p.Mean, p.N)
	}
	mg := m.Migrations
	if m.CountsExits {
		// Every task exits (kernbench's make and its jobs): no op is ever
		// counted, and the last exit is the workload's elapsed time.
		fmt.Fprintf(tw, "tasks exited\t%d", m.Exits)
		if m.Exits > 0 {
			fmt.Fprintf(tw, ", the last at %.3f ms", m.LastExitMS)
		}
		fmt.Fprintln(tw)
	} else {
		fmt.Fprintf(tw, "ops\t%d (%.2f/s)\n", m.Ops, m.OpsPerS)
	}
	fmt.Fprintf(tw, "busy\t%.1f%%\n", m.BusyPct)
	fmt.Fprintf(tw, "idle while overloaded\t%.2f ms\n", m.IdleWhileOverloadedMS)
	fmt.Fprintf(tw, "wake-up latency us\t%s\n", pct(m.WakeupLatencyUS))
	fmt.Fprintf(tw, "run-queue wait us\t%s\n", pct(m.RunqWaitUS))
	fmt.Fprintf(tw, "wake-ups\t%d\n", m.Wakeups)
	fmt.Fprintf(tw, "context switches\t%d (preemptions %d)\n", m.CtxSwitches, m.Preemptions)
	fmt.Fprintf(tw, "migrations\t%d: wakeup %d, balance %d, newidle %d, nohz %d, active %d, fork %d, exec %d\n",
		mg.Total, mg.Wakeup, mg.Balance, mg.Newidle, mg.Nohz, mg.Active, mg.Fork, mg.Exec)
	fmt.Fprintf(tw, "  by distance\tsmt %d, cluster %d, llc %d, package %d, numa %d\n", mg.SMT, mg.Cluster, mg.LLC, mg.Package, mg.NUMA)
	if m.Forks+m.Execs+m.Exits > 0 {
		fmt.Fprintf(tw, "processes\tforks %d, execs %d, exits %d, at most %d alive, %d at the end; lifetime us %s\n",
			m.Forks, m.Execs, m.Exits, m.LiveTasksMax, m.LiveTasks, pct(m.LifetimeUS))
	}
	fmt.Fprintf(tw, "search cost\t%.3f ms, %.2f CPUs examined per wake-up\n", m.SearchCostMS, m.CPUsExaminedPerWakeup)
	cpu, lat := costLines(m.Costs)
	fmt.Fprintf(tw, "CPU time charged ms\t%s\n", cpu)
	fmt.Fprintf(tw, "latency added ms\t%s\n", lat)
	tw.Flush()

	if len(m.Tasks) == 0 {
		return
	}
	fmt.Fprintln(w)
	var rows [][]string
	if len(m.Tasks) <= maxTaskRows {
		rows = append(rows, []string{"task", "ops", "cpu ms", "wait ms", "migrations", "util_avg", "load_avg"})
		for _, t := range m.Tasks {
			rows = append(rows, []string{t.Name, fmt.Sprint(t.Ops), fmt.Sprintf("%.1f", t.CPUMS), fmt.Sprintf("%.1f", t.WaitMS),
				fmt.Sprint(t.Migrations), fmt.Sprint(t.UtilAvg), fmt.Sprint(t.LoadAvg)})
		}
	} else {
		type group struct {
			name           string
			n              int
			ops, migr      int64
			cpu, wait      float64
			utilSum, ldSum int64
		}
		var groups []*group
		byName := map[string]*group{}
		for _, t := range m.Tasks {
			name := t.Name
			if i := strings.LastIndexByte(name, '/'); i >= 0 {
				name = name[:i]
			}
			g := byName[name]
			if g == nil {
				g = &group{name: name}
				byName[name] = g
				groups = append(groups, g)
			}
			g.n++
			g.ops += t.Ops
			g.migr += t.Migrations
			g.cpu += t.CPUMS
			g.wait += t.WaitMS
			g.utilSum += t.UtilAvg
			g.ldSum += t.LoadAvg
		}
		rows = append(rows, []string{"group", "tasks", "ops", "cpu ms", "wait ms", "migrations", "avg util_avg", "avg load_avg"})
		for _, g := range groups {
			rows = append(rows, []string{g.name, fmt.Sprint(g.n), fmt.Sprint(g.ops), fmt.Sprintf("%.1f", g.cpu), fmt.Sprintf("%.1f", g.wait),
				fmt.Sprint(g.migr), fmt.Sprint(g.utilSum / int64(g.n)), fmt.Sprint(g.ldSum / int64(g.n))})
		}
	}
	writeColumns(w, rows)
}

// writeColumns prints a table: the first column left-aligned, the others
// (numbers) right-aligned, two spaces apart.
func writeColumns(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, f := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(f))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, f := range row {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", widths[0], f)
			} else {
				fmt.Fprintf(&b, "  %*s", widths[i], f)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
