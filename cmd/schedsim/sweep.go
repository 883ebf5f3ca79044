package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"

	"schedplay/scenarios"
	"schedplay/sim"
)

// maxCells bounds a sweep: each cell is a whole simulation.
const maxCells = 1024

// axis is one -vary or -compare flag: paths (joined by '+' on the command
// line, all set to the same value) and the values to try, in order.
type axis struct {
	flag   string
	paths  []string
	values []string
}

func (a *axis) label() string { return strings.Join(a.paths, "+") }

func parseAxis(flagName, v string) (*axis, error) {
	path, list, ok := strings.Cut(v, "=")
	if !ok || path == "" || list == "" {
		return nil, badInputf("-%s %q: want path=v1,v2,...", flagName, v)
	}
	a := &axis{flag: flagName}
	for _, p := range strings.Split(path, "+") {
		if p = strings.TrimSpace(p); p == "" {
			return nil, badInputf("-%s %q: empty path", flagName, v)
		}
		a.paths = append(a.paths, p)
	}
	for _, x := range strings.Split(list, ",") {
		a.values = append(a.values, strings.TrimSpace(x))
	}
	return a, nil
}

// apply sets every path of the axis to value.
func (a *axis) apply(s *scenarios.Scenario, value string) error {
	for _, p := range a.paths {
		if err := s.Set(p, value); err != nil {
			return badInputf("-%s %v", a.flag, err)
		}
	}
	return nil
}

// cell is one simulation of a sweep; its JSON is the -json output element.
type cell struct {
	Vary    string      `json:"vary"`
	Compare string      `json:"compare"` // "" without -compare
	Metrics sim.Metrics `json:"metrics"`

	scen *scenarios.Scenario
	err  error
}

func cmdSweep(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print [{vary, compare, metrics}] as JSON")
	vary := fs.String("vary", "", "path=v1,v2,...: one row per value")
	compare := fs.String("compare", "", "path=a,b,...: one column per value")
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
	if *vary == "" {
		return badInputf("schedsim sweep: -vary path=v1,v2,... is required\n\n%s", usage)
	}
	rows, err := parseAxis("vary", *vary)
	if err != nil {
		return err
	}
	var cols *axis
	if *compare != "" {
		if cols, err = parseAxis("compare", *compare); err != nil {
			return err
		}
	}
	base, err := load(pos[0], sets)
	if err != nil {
		return err
	}
	ncols := 1
	if cols != nil {
		ncols = len(cols.values)
	}
	if n := len(rows.values) * ncols; n > maxCells {
		return badInputf("schedsim sweep: %d cells; the limit is %d", n, maxCells)
	}

	// Build and check every cell before running any: a typo in the last
	// value should not cost the time of the first simulations.
	cells := make([]*cell, 0, len(rows.values)*ncols)
	for _, rv := range rows.values {
		for c := 0; c < ncols; c++ {
			cl := &cell{Vary: rv, scen: base.Clone()}
			if err := rows.apply(cl.scen, rv); err != nil {
				return err
			}
			if cols != nil {
				cl.Compare = cols.values[c]
				if err := cols.apply(cl.scen, cl.Compare); err != nil {
					return err
				}
			}
			cells = append(cells, cl)
		}
	}

	// Each cell is its own deterministic simulation; the workers only
	// decide which finishes first, never what a cell computes, and the
	// output order is the cells' order.
	work := make(chan *cell)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(cells)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cl := range work {
				cl.Metrics, cl.err = simulate(cl.scen, &lim)
			}
		}()
	}
	for _, cl := range cells {
		work <- cl
	}
	close(work)
	wg.Wait()
	var stopped []string // cells a limit stopped: the table still shows them
	for _, cl := range cells {
		if cl.err != nil {
			where := "vary " + cl.Vary
			if cols != nil {
				where += ", compare " + cl.Compare
			}
			var le *limitError
			if errors.As(cl.err, &le) {
				stopped = append(stopped, fmt.Sprintf("cell %s: %v", where, le))
				continue
			}
			var ee *exitError
			if errors.As(cl.err, &ee) {
				return &exitError{ee.code, fmt.Errorf("cell %s: %w", where, ee.err)}
			}
			return internal(fmt.Errorf("cell %s: %w", where, cl.err))
		}
	}

	var limitErr error
	if len(stopped) > 0 {
		limitErr = &limitError{fmt.Sprintf("%d of %d cells stopped early (their cells show the time simulated up to the stop):\n%s", len(stopped), len(cells), strings.Join(stopped, "\n"))}
	}
	if *asJSON {
		if err := writeJSON(stdout, cells); err != nil {
			return err
		}
		return limitErr
	}
	writeSweepTable(stdout, base, rows, cols, cells)
	return limitErr
}

// writeSweepTable prints ops/s like the tbench tables of the seeds: the
// varied path heads the first column, the compared values head the others.
// Where every cell's tasks all exit (sim.Metrics.CountsExits: kernbench),
// no op is counted, and the cells are the elapsed time instead, as a
// kernbench table prints it: when the last task exited.
func writeSweepTable(w io.Writer, base *scenarios.Scenario, rows, cols *axis, cells []*cell) {
	title := base.Title
	if title == "" {
		title = "(untitled)"
	}
	unit, column := "ops/s", "ops/s"
	value := func(m *sim.Metrics) (string, string) { return fmt.Sprintf("%.2f", m.OpsPerS), "" }
	stoppedNote := "ops/s over the time simulated"
	if !slices.ContainsFunc(cells, func(c *cell) bool { return !c.Metrics.CountsExits }) {
		unit, column = "elapsed ms (when the last task exited)", "elapsed"
		stoppedNote = "the time simulated, not the workload's end"
		value = func(m *sim.Metrics) (string, string) {
			if m.LiveTasks > 0 {
				return fmt.Sprintf("%.1f", m.SimMS), "+"
			}
			return fmt.Sprintf("%.1f", m.LastExitMS), ""
		}
	}
	fmt.Fprintf(w, "# %s: %s over %s simulated, seed %d\n", title, unit, base.Duration, base.Seed)
	shown := func(v string) string {
		if v == "" {
			return "(default)" // an empty value restores the default
		}
		return v
	}
	header := []string{rows.label()}
	if cols != nil {
		fmt.Fprintf(w, "# rows: %s; columns: %s\n", rows.label(), cols.label())
		for _, v := range cols.values {
			header = append(header, shown(v))
		}
	} else {
		fmt.Fprintf(w, "# rows: %s\n", rows.label())
		header = append(header, column)
	}
	ncols := len(header) - 1
	table := [][]string{header}
	stopped, running := false, false
	for r, rv := range rows.values {
		line := []string{shown(rv)}
		for c := 0; c < ncols; c++ {
			m := &cells[r*ncols+c].Metrics
			v, mark := value(m)
			if m.Stopped != "" {
				mark, stopped = "*", true
			}
			running = running || mark == "+"
			line = append(line, v+mark)
		}
		table = append(table, line)
	}
	writeColumns(w, table)
	if running {
		fmt.Fprintln(w, "# + tasks still alive at the end: the workload took longer than the time simulated (shown)")
	}
	if stopped {
		fmt.Fprintln(w, "# * stopped early by a limit (stderr says which): "+stoppedNote)
	}
}
