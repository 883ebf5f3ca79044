package realkernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"schedplay/scenarios"
	"schedplay/sim"
)

// SimScenario is the scenario the simulator runs to compare with a real run
// here: the same tasks and duration on the host's machine (HostMachine),
// the v6.17 base with no other policy overrides (the host runs a current
// kernel, not the scenario's era), and costs when given (Calibrate's).
func SimScenario(s *scenarios.Scenario, host scenarios.Machine, costs *scenarios.Costs) (*scenarios.Scenario, []string, error) {
	// The newest format (the same run): the host's machine may be given
	// per CPU (lscpu's import), which needs version 2.
	c := s.Upgrade()
	var notes []string
	if c.Policy.Base != "v6.17" || c.Policy.LoadMetric != "" || c.Policy.SelectIdleSibling != "" || len(c.Policy.SDFlags) > 0 ||
		len(c.Policy.Features) > 0 || len(c.Policy.Tunables) > 0 {
		notes = append(notes, fmt.Sprintf("policy: the scenario's policy (base %s and its overrides) replaced by the v6.17 base, the kernel running here", c.Policy.Base))
	}
	c.Policy = scenarios.Policy{Base: "v6.17"}
	old := c.Machine
	c.Machine = host
	if costs != nil {
		c.Machine.Costs = *costs
	} else {
		c.Machine.Costs = old.Costs
		notes = append(notes, "costs: no calibration given (-costs FILE from schedsim calibrate): the simulator's default costs")
	}
	out, err := scenarios.Decode(c.Canonical())
	if err != nil {
		return nil, notes, fmt.Errorf("the scenario on this machine's topology: %v", err)
	}
	return out, notes, nil
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
		if rows[i].Real != 0 {
			x := round3(rows[i].Sim / rows[i].Real)
			rows[i].Ratio = &x
		}
	}
	return rows
}
