package realkernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// SimScenario is the scenario the simulator runs to compare with a real run
// here: the same tasks and duration on the host's machine (HostMachine),
// the v6.17 base with no other policy overrides (the host runs a current
// kernel, not the scenario's era), and costs when given (Calibrate's).
//
// Two things of the real run's, not of the kernel's, are set as the
// harness has them:
//   - run steps are exact: a thread spins until its CPU clock has advanced
//     by the step (run_linux.go), so the simulator's run jitter is 0
//     (jitter_pct; the default ±2 % stands for requests of varying cost);
//   - the threads have no PELT history to speak of: they are not forked at
//     the start but were created before it and slept in its start barrier
//     (new_task_load zero; a fork's full initial load would give the
//     simulator's tasks util_avg 512 on an idle CPU, and a util_est that a
//     task queued behind another never lowers: the real run's four 30 %
//     tasks began with util_est 91, 103, 115 and 549, the last on a thread
//     the Go runtime had run before, and all ended near 330).
func SimScenario(s *scenarios.Scenario, host scenarios.Machine, costs *scenarios.Costs) (*scenarios.Scenario, []string, error) {
	// The newest format (the same run): the host's machine may be given
	// per CPU (lscpu's import), which needs version 2.
	c := s.Upgrade()
	var notes []string
	if c.Policy.Base != "v6.17" || c.Policy.LoadMetric != "" || c.Policy.SelectIdleSibling != "" || len(c.Policy.SDFlags) > 0 ||
		len(c.Policy.Features) > 0 || len(c.Policy.Tunables) > 0 {
		notes = append(notes, fmt.Sprintf("policy: the scenario's policy (base %s and its overrides) replaced by the v6.17 base, the kernel running here", c.Policy.Base))
	}
	c.Policy = scenarios.Policy{Base: "v6.17", NewTaskLoad: "zero"}
	if f, note := ReleaseFeatures(KernelRelease()); f != nil {
		c.Policy.Features = f
		notes = append(notes, note)
	}
	old := c.Machine
	c.Machine = host
	if costs != nil {
		c.Machine.Costs = *costs
	} else {
		c.Machine.Costs = old.Costs
		notes = append(notes, "costs: no calibration given (-costs FILE from schedsim calibrate): the simulator's default costs")
	}
	exact := 0
	c.Machine.Costs.JitterPct = &exact
	out, err := scenarios.Decode(c.Canonical())
	if err != nil {
		return nil, notes, fmt.Errorf("the scenario on this machine's topology: %v", err)
	}
	if d, err := KernelSchedDebug(); err != nil {
		notes = append(notes, fmt.Sprintf("policy: the kernel's base slice not read (%v): the model's v6.17 rule for this many CPUs", err))
	} else if cfg, err := out.Config(); err == nil {
		set, note := baseSliceFromKernel(d, cfg.Machine.NCPU())
		notes = append(notes, note)
		if set != "" {
			out.Policy.BaseSlice = set
			if out, err = scenarios.Decode(out.Canonical()); err != nil {
				return nil, notes, fmt.Errorf("the scenario with the kernel's base slice: %v", err)
			}
		}
	}
	return out, notes, nil
}

// ReleaseFeatures says which of the simulator's switches give v6.17's rules
// those of a kernel of this release, and a note saying so ("" and nil for a
// release with v6.17's own rules, or an unknown one). Two sets of changes:
//
// Newly idle balancing. v6.17 bumps a domain's cost when its newidle pass
// fails (155213a2aed4, merged for 6.17-rc1); d206fbad9328 reverted the bump
// and 33cf66d88306 made newidle balancing proportional to its success rate
// (NI_RANDOM), both for 6.19 and backported: the 6.18 stable queue took the
// latter on 11 January 2026, for 6.18.6. A release older than 6.17 had
// neither (some stable kernels took the bump and its replacement; they are
// not told apart here).
//
// The wake-up preemption check. ac8e69e69363 (with 9f6d929ee2c6) makes it
// dequeue a sched_delayed entity its pick finds and pick again
// (WAKEUP_DEQUEUE_DELAYED): merged for 7.1, and in the 6.18 stables from
// 6.18.33 (the review series of 20 May 2026, "6.18.32-rc1 review (actually
// 6.18.33-rc1)"), which took e837456fdca8's rework of the check with it
// and 15257cc2f905, which undid that rework's one change of behaviour for
// a kernel without NEXT_BUDDY (a waker that is no longer eligible is
// rescheduled). Other 6.19 and 7.0 stables are not known here: off.
func ReleaseFeatures(release string) (map[string]bool, string) {
	var major, minor, patch int
	n, _ := fmt.Sscanf(release, "%d.%d.%d", &major, &minor, &patch)
	if n < 2 {
		return nil, ""
	}
	v := major*10000 + minor*100
	if n == 3 {
		v += min(patch, 99)
	}
	f := map[string]bool{}
	var parts []string
	switch {
	case v >= 61806: // 6.18.6 and later, 6.19
		f["NEWIDLE_BUMP"], f["NI_RANDOM"] = false, true
		parts = append(parts, "newidle balancing proportional to its success rate (NI_RANDOM), without v6.17's cost bump on failure (NEWIDLE_BUMP)")
	case v < 61700:
		f["NEWIDLE_BUMP"] = false
		parts = append(parts, "newidle balancing without v6.17's cost bump on failure (NEWIDLE_BUMP)")
	}
	if v >= 61833 && v < 61900 || v >= 70100 {
		f["WAKEUP_DEQUEUE_DELAYED"] = true
		parts = append(parts, "a wake-up's preemption check that dequeues a sched_delayed task its pick finds (WAKEUP_DEQUEUE_DELAYED, ac8e69e69363)")
	}
	if len(f) == 0 {
		return nil, ""
	}
	return f, "policy: as Linux " + release + " has it: " + strings.Join(parts, "; ")
}

// TickPhases is how many tick phases SimulatePhases runs.
const TickPhases = 8

// SimulatePhases runs s at TickPhases phases of the tick: its tasks start
// i/TickPhases of a jiffy later in run i. A real run starts at no
// particular point of the tick (Run sleeps to t0 = its clock + 20 ms), and
// where the tick falls against a workload's own period decides when the
// balancers look, and so some migrations: the four 30 % tasks migrate from
// 0.4 to 70 times a second in the simulator depending on it. The rows of a
// comparison are then the means over the phases (PhaseRows). The runs end
// at the scenario's end, so a later start leaves up to a jiffy of an
// idle beginning in the window (at HZ 250, 4 ms of a 2 s run: rates 0.2 %
// lower at most).
func SimulatePhases(s *scenarios.Scenario) ([]sim.Metrics, error) {
	var ms []sim.Metrics
	for i := range TickPhases {
		c, err := TickPhase(s, i)
		if err != nil {
			return nil, err
		}
		m, err := Simulate(c)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// TickPhase is s with every task's start i/TickPhases of a jiffy later
// (SimulatePhases).
func TickPhase(s *scenarios.Scenario, i int) (*scenarios.Scenario, error) {
	hz := s.Machine.HZ
	if hz <= 0 {
		hz = 1000
	}
	c, err := scenarios.Decode(s.Canonical())
	if err != nil {
		return nil, err
	}
	shift := time.Second / time.Duration(hz) * time.Duration(i) / TickPhases
	for j := range c.Tasks {
		start := time.Duration(0)
		if c.Tasks[j].Start != "" {
			if start, err = time.ParseDuration(c.Tasks[j].Start); err != nil {
				return nil, fmt.Errorf("tasks[%d].start: %v", j, err)
			}
		}
		c.Tasks[j].Start = (start + shift).String()
	}
	return c, nil
}

// PhaseRows is CompareRows against the mean of several simulations (the
// tick phases of SimulatePhases), each row's Sim the mean and SimMin and
// SimMax its range.
func PhaseRows(r *Result, ms []sim.Metrics) []Row {
	var rows []Row
	for k := range ms {
		rk := CompareRows(r, &ms[k])
		if k == 0 {
			rows = rk
			for i := range rows {
				rows[i].SimMin, rows[i].SimMax = rows[i].Sim, rows[i].Sim
			}
			continue
		}
		for i := range rows {
			rows[i].Sim += rk[i].Sim
			rows[i].SimMin, rows[i].SimMax = min(rows[i].SimMin, rk[i].Sim), max(rows[i].SimMax, rk[i].Sim)
		}
	}
	for i := range rows {
		rows[i].Sim = round3(rows[i].Sim / float64(len(ms)))
		rows[i].Ratio = nil
		if rows[i].Real != 0 {
			x := round3(rows[i].Sim / rows[i].Real)
			rows[i].Ratio = &x
		}
	}
	return rows
}

// ReadCosts reads a machine.costs object (schedsim calibrate's output, or a
// scenario's machine.costs) and checks it by decoding a scenario with it.
func ReadCosts(data []byte) (*scenarios.Costs, error) {
	var wrap struct {
		Costs *json.RawMessage `json:"costs"`
	}
	raw := data
	// calibrate writes {"costs": {...}, ...}; a bare object works too.
	if json.Unmarshal(data, &wrap) == nil && wrap.Costs != nil {
		raw = *wrap.Costs
	}
	var c scenarios.Costs
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("machine.costs: %v", err)
	}
	probe := &scenarios.Scenario{Version: scenarios.Version, Title: "costs", Seed: 1, Duration: "1ms",
		Machine: scenarios.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1, HZ: 1000, Costs: c},
		Policy:  scenarios.Policy{Base: "v6.17"}, Tasks: []scenarios.Task{{Name: "a", Count: 1, Program: []scenarios.Step{{Run: "1ms"}}}}}
	if _, err := scenarios.Decode(probe.Canonical()); err != nil {
		return nil, err
	}
	return &c, nil
}

// Row is one line of a real-vs-simulator comparison.
type Row struct {
	Name  string   `json:"name"`
	Real  float64  `json:"real"`
	Sim   float64  `json:"sim"`
	Ratio *float64 `json:"sim_over_real"` // null when real is 0
	// SimMin and SimMax: the range of Sim over the tick phases (PhaseRows;
	// equal to Sim for one simulation).
	SimMin float64 `json:"sim_min"`
	SimMax float64 `json:"sim_max"`
}

// CompareRows lines up what both count the same way. Simulated
// migrations other than wake-ups exclude fork placements (a real run's
// threads exist before it starts).
func CompareRows(r *Result, m *sim.Metrics) []Row {
	sec := r.SimMS / 1e3
	ssec := m.SimMS / 1e3
	rows := []Row{
		{Name: "ops/s", Real: r.OpsPerS, Sim: m.OpsPerS},
		{Name: "wake-up latency p50 us", Real: r.WakeupLatencyUS.P50, Sim: m.WakeupLatencyUS.P50},
		{Name: "wake-up latency p95 us", Real: r.WakeupLatencyUS.P95, Sim: m.WakeupLatencyUS.P95},
		{Name: "wake-up latency p99 us", Real: r.WakeupLatencyUS.P99, Sim: m.WakeupLatencyUS.P99},
		{Name: "run-queue wait p50 us", Real: r.RunqWaitUS.P50, Sim: m.RunqWaitUS.P50},
		{Name: "wake-ups/s", Real: float64(r.Wakeups) / sec, Sim: float64(m.Wakeups) / ssec},
		{Name: "migrations/s", Real: float64(r.Migrations.Total) / sec, Sim: float64(m.Migrations.Total-m.Migrations.Fork) / ssec},
		{Name: "wake-up migrations/s", Real: float64(r.Migrations.Wakeup) / sec, Sim: float64(m.Migrations.Wakeup) / ssec},
		{Name: "other migrations/s", Real: float64(r.Migrations.Other) / sec, Sim: float64(m.Migrations.Total-m.Migrations.Wakeup-m.Migrations.Fork) / ssec},
		{Name: "context switches/s", Real: float64(r.CtxSwitches) / sec, Sim: float64(m.CtxSwitches) / ssec},
		{Name: "preemptions/s", Real: float64(r.Preemptions) / sec, Sim: float64(m.Preemptions) / ssec},
		{Name: "busy %", Real: r.BusyPct, Sim: m.BusyPct},
		// The simulator has no host: the real busy time less the host's
		// steal (Result.StealPct) is the one to set beside it.
		{Name: "busy % less host steal", Real: r.BusyLessStealPct(), Sim: m.BusyPct},
		// The kernel's own time per operation: the threads' system calls
		// on the real kernel (Result.SyscallPct), the context-switch and
		// IPI-sending charges in the model (its kernel time on a thread).
		{Name: "syscall / switch time per op us", Real: 1e3 * r.SyscallMS() / max(float64(r.Ops), 1), Sim: 1e3 * (m.Costs.ContextSwitchMS + m.Costs.IPISendMS) / max(float64(m.Ops), 1)},
	}
	if u := r.UntracedOpsPerS; u != nil {
		// The simulator's rate beside the kernel's untraced one (Options.Untraced).
		rows = slices.Insert(rows, 1, Row{Name: "ops/s untraced", Real: *u, Sim: m.OpsPerS})
	}
	for i := range rows {
		rows[i].Real, rows[i].Sim = round3(rows[i].Real), round3(rows[i].Sim)
		rows[i].SimMin, rows[i].SimMax = rows[i].Sim, rows[i].Sim
		if rows[i].Real != 0 {
			x := round3(rows[i].Sim / rows[i].Real)
			rows[i].Ratio = &x
		}
	}
	return rows
}
