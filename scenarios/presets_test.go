package scenarios

import (
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

// Each preset exists to show a phenomenon from the seeds. These tests run
// the presets under the switches they are about and assert the direction
// and rough size of the effect, as the preset descriptions state it.

// runPreset runs a preset with -set overrides and returns its metrics.
func runPreset(t *testing.T, name string, sets ...string) sim.Metrics {
	t.Helper()
	s, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(sets); i += 2 {
		if err := s.Set(sets[i], sets[i+1]); err != nil {
			t.Fatalf("%s=%s: %v", sets[i], sets[i+1], err)
		}
	}
	return runScenario(t, s).Metrics()
}

func balancerMigrations(m sim.Metrics) int64 {
	g := m.Migrations
	return g.Balance + g.Newidle + g.Nohz + g.Active
}

func TestPresetTbenchPairs(t *testing.T) {
	ops := func(pairs, sis string, sets ...string) sim.Metrics {
		return runPreset(t, "tbench-pairs", append([]string{"duration", "300ms", "tasks.client.count", pairs, "policy.select_idle_sibling", sis}, sets...)...)
	}
	// Mike Galbraith's table: buddies ~10x ahead at 1-5 pairs, ~2x at 10,
	// even at saturation. The model's stock walk runs shallow from two pairs
	// a socket (the 3.x menu governor's multiplier), so at 5 pairs, one
	// socket holding two, the gain is x3.3 (docs/validation.md, buddies-3.6).
	for _, c := range []struct {
		pairs    string
		min, max float64
	}{{"1", 4, 100}, {"5", 2.5, 100}, {"10", 1.3, 100}, {"80", 0.9, 1.15}} {
		v36, buddies := ops(c.pairs, "v3.6"), ops(c.pairs, "cpu_buddies")
		r := buddies.OpsPerS / v36.OpsPerS
		if r < c.min || r > c.max {
			t.Errorf("%s pairs: cpu_buddies/v3.6 = %.2f (%.0f/%.0f ops/s), want %.1f..%.1f", c.pairs, r, buddies.OpsPerS, v36.OpsPerS, c.min, c.max)
		}
		if c.pairs == "1" && (v36.Migrations.Wakeup < 100*buddies.Migrations.Wakeup || v36.WakeupLatencyUS.P50 < 5*buddies.WakeupLatencyUS.P50) {
			t.Errorf("1 pair: the v3.6 walk should migrate on every wake-up and wake deep-idle CPUs: %d vs %d migrations, p50 %.1f vs %.1f us",
				v36.Migrations.Wakeup, buddies.Migrations.Wakeup, v36.WakeupLatencyUS.P50, buddies.WakeupLatencyUS.P50)
		}
	}
	// Preeti's SD_BALANCE_WAKE on SMT and MC: like v3.6 (or worse) at light
	// load, losing at heavy load while searching more per wake-up.
	wake := []string{"policy.sd_flags.SMT.SD_BALANCE_WAKE", "true", "policy.sd_flags.MC.SD_BALANCE_WAKE", "true"}
	light, lightBW := ops("1", "v3.6"), ops("1", "v3.6", wake...)
	if lightBW.OpsPerS > 1.1*light.OpsPerS {
		t.Errorf("1 pair: SD_BALANCE_WAKE %.0f ops/s should not beat v3.6 %.0f", lightBW.OpsPerS, light.OpsPerS)
	}
	heavy, heavyBW := ops("80", "v3.6"), ops("80", "v3.6", wake...)
	if heavyBW.OpsPerS > 0.8*heavy.OpsPerS || heavyBW.CPUsExaminedPerWakeup <= heavy.CPUsExaminedPerWakeup {
		t.Errorf("80 pairs: SD_BALANCE_WAKE %.0f ops/s (%.1f CPUs/wake-up) should lose to v3.6 %.0f (%.1f)",
			heavyBW.OpsPerS, heavyBW.CPUsExaminedPerWakeup, heavy.OpsPerS, heavy.CPUsExaminedPerWakeup)
	}
}

func TestPresetPgbench(t *testing.T) {
	perWake := func(m sim.Metrics) float64 { return m.SearchCostMS * 1e6 / float64(m.Wakeups) }
	one := runPreset(t, "pgbench-1toN", "tasks.client.count", "1", "duration", "300ms")
	busy := runPreset(t, "pgbench-1toN", "tasks.client.count", "24", "duration", "300ms")
	if perWake(busy) < 2*perWake(one) {
		t.Errorf("search cost per wake-up: %.0f ns at 24 clients vs %.0f at 1; it should grow at least 2x", perWake(busy), perWake(one))
	}
	// The schedule balance map's patch 3/3 leaves a client on its previous
	// CPU unless an idle one is found, instead of letting wake_affine() pull
	// it onto the server's CPU: at 32 clients the server gets its CPU back
	// and throughput rises (seed 003: +24 % to +33 %). Over the preset's
	// own second: the first 300 ms, which this test used until the 3.8
	// balancer's unsigned arithmetic (6 December), gave +14.9 %.
	stock := runPreset(t, "pgbench-1toN", "tasks.client.count", "32")
	sbm := runPreset(t, "pgbench-1toN", "tasks.client.count", "32", "policy.features.SCHED_BALANCE_MAP", "true")
	server := func(m sim.Metrics) float64 {
		for _, tm := range m.Tasks {
			if tm.Name == "server/0" {
				return tm.CPUMS
			}
		}
		return 0
	}
	if d := sbm.OpsPerS/stock.OpsPerS - 1; d < 0.15 || server(stock) <= 0 || server(sbm) < 1.2*server(stock) {
		t.Errorf("SCHED_BALANCE_MAP at 32 clients: throughput %+.1f%% (want > +15%%), server CPU %.0f -> %.0f ms (want more)",
			100*d, server(stock), server(sbm))
	}
}

func TestPresetPeltPingpong(t *testing.T) {
	lwOff := runPreset(t, "pelt-pingpong", "policy.load_metric", "load_weight", "policy.select_idle_sibling", "off")
	if n := balancerMigrations(lwOff); n < 50 {
		t.Errorf("load_weight without select_idle_sibling: %d balancer migrations; counting tasks should ping-pong them", n)
	}
	ralOn := runPreset(t, "pelt-pingpong", "policy.load_metric", "runnable_load_avg")
	if ralOn.Migrations.Wakeup < 300 || balancerMigrations(ralOn) < 300 {
		t.Errorf("runnable_load_avg with select_idle_sibling: %d wake-up and %d balancer migrations; want both >= 300 (pulled away, pushed back)",
			ralOn.Migrations.Wakeup, balancerMigrations(ralOn))
	}
	settled := runPreset(t, "pelt-pingpong", "policy.load_metric", "runnable_plus_blocked", "policy.select_idle_sibling", "off")
	// 10 s: the 80% task has 1000 periods, each 40% task 909.
	if settled.Migrations.Total > 5 || settled.Ops < 2800 {
		t.Errorf("runnable_plus_blocked on prev_cpu: %d migrations, %d periods met; it should settle and meet them (2818)", settled.Migrations.Total, settled.Ops)
	}
	if settled.IdleWhileOverloadedMS < 300 {
		t.Errorf("runnable_plus_blocked: %.0f ms idle while overloaded; blocked load should hide an idle CPU from the balancer", settled.IdleWhileOverloadedMS)
	}
}

func TestPresetAim9Burst(t *testing.T) {
	// The preset's metric is runnable + blocked load (seed 000: aim9 -30 %):
	// sleeping workers keep their CPUs looking loaded, which idle while
	// others queue work. load.weight counts only runnable tasks.
	// Seed 1 for the mechanism (idle while overloaded), seeds 1-3 for the
	// size: one seed's loss moves by several points (19 % on seed 1 since
	// the wake list is enqueued after the target's idle exit, 5 December;
	// 24-35 % on the others).
	rpb := runPreset(t, "aim9-burst")
	lw := runPreset(t, "aim9-burst", "policy.load_metric", "load_weight")
	if rpb.Ops >= lw.Ops || rpb.IdleWhileOverloadedMS < 50 || lw.IdleWhileOverloadedMS > 5 {
		t.Errorf("runnable_plus_blocked: %d tasks done, %.1f ms idle while overloaded; load_weight: %d, %.1f ms", rpb.Ops, rpb.IdleWhileOverloadedMS, lw.Ops, lw.IdleWhileOverloadedMS)
	}
	// 3.8's own fork state (new_task_load zero: runnable_avg_sum and
	// period zeroed, load_avg_contrib inherited from the parent) shows the
	// regression too. This asserted "within 5 % of full" on seed 1 alone,
	// where the two happened to match (253 and 253 tasks); over seeds 1-5
	// the stock fork state finished 12 % fewer than full (244 against 278
	// on average; 23 % since the wake-up's search delays its IPI), so only
	// the direction against load.weight is asserted, over three seeds.
	var zero, weight, full int64
	for _, seed := range []string{"1", "2", "3"} {
		zero += runPreset(t, "aim9-burst", "seed", seed, "policy.new_task_load", "zero").Ops
		full += runPreset(t, "aim9-burst", "seed", seed).Ops
		weight += runPreset(t, "aim9-burst", "seed", seed, "policy.load_metric", "load_weight").Ops
	}
	t.Logf("seeds 1-3: %d tasks done with 3.8's fork state, %d with the series' full initial load, %d with load.weight", zero, full, weight)
	if float64(zero) > 0.8*float64(weight) {
		t.Errorf("new_task_load zero (3.8's fork state): %d tasks done against %d with load.weight (seeds 1-3); want at least 20 %% fewer", zero, weight)
	}
	if float64(full) > 0.8*float64(weight) {
		t.Errorf("runnable_plus_blocked with the series' full initial load: %d tasks done against %d with load.weight (seeds 1-3); want at least 20 %% fewer (seed 000: -30 %%)", full, weight)
	}
}

// eligibleMigrationSeeds is how many seeds the eligible-migration preset's
// test and description sum: the mean wait of one run is carried by its few
// long waits (p50 0, p99 ~7 ms, max ~50 ms over ~2000 moves), and six seeds'
// means ranged 108-362 us on either side.
const eligibleMigrationSeeds = 24

func TestPresetEligibleMigration(t *testing.T) {
	var off, on struct {
		first, inelig, ops int64
		wait               float64
	}
	for seed := 1; seed <= eligibleMigrationSeeds; seed++ {
		a := runPreset(t, "eligible-migration", "seed", fmt.Sprint(seed), "policy.features.ELIGIBLE_FIRST", "false")
		b := runPreset(t, "eligible-migration", "seed", fmt.Sprint(seed), "policy.features.ELIGIBLE_FIRST", "true")
		off.first += a.Migrations.IneligibleFirstTry
		off.inelig += a.Migrations.Ineligible
		off.wait += a.MigrationWaitUS.Mean
		off.ops += a.Ops
		on.first += b.Migrations.IneligibleFirstTry
		on.inelig += b.Migrations.Ineligible
		on.wait += b.MigrationWaitUS.Mean
		on.ops += b.Ops
	}
	if off.first < 10 || on.first != 0 {
		t.Errorf("ineligible tasks moved at the first attempt: %d without, %d with ELIGIBLE_FIRST; want >= 10 and 0", off.first, on.first)
	}
	// The size follows from the mechanism: the patch refuses the first-try
	// moves (off.first), and a balance that fails can still move the task
	// later; at least half of what it refuses must stay unmoved. (This
	// was "20 % fewer" over seeds 1-3: 126 -> 86 ineligible migrations,
	// then 110 -> 89 once the wake-up's search delayed its IPI, 140 -> 94
	// once v6.17's sched_delayed tasks moved with migrate_load and left
	// sum_h_nr_running and a wake-up onto a busy CPU of the LLC was
	// enqueued at once; the counts are 30-50 per seed, so the seeds are
	// summed.)
	if off.inelig-on.inelig < off.first/2 {
		t.Errorf("ineligible migrations: %d with vs %d without, %d refused at the first try; want at least half of those fewer", on.inelig, off.inelig, off.first)
	}
	// The patch's rationale: a migrated task that is eligible runs sooner.
	// (Since task_hot() reads exec_start as update_curr() moves it, fewer
	// recently-run tasks are movable at all and the gap narrowed from ~25 %
	// to ~9 %.)
	t.Logf("seeds 1-%d: first-try ineligible moves %d -> %d, ineligible moves %d -> %d, mean wait (sum of the seeds' means) %.0f -> %.0f us, ops %d -> %d",
		eligibleMigrationSeeds, off.first, on.first, off.inelig, on.inelig, off.wait, on.wait, off.ops, on.ops)
	if on.wait > 0.95*off.wait {
		t.Errorf("mean wait from a balancer migration to the first run: %.0f us with vs %.0f without (summed over seeds); want 5%% less", on.wait, off.wait)
	}
	if d := float64(on.ops)/float64(off.ops) - 1; d < -0.01 || d > 0.01 {
		t.Errorf("throughput changed by %.2f%%; the effect should be slight", 100*d)
	}
}

func TestPresetOverloadOnWakeup(t *testing.T) {
	// Six seeds summed: which CPUs the 16 workers settle on differs from
	// seed to seed with NUMA wake-affine (idle while overloaded 378 to 2559
	// ms a seed), so one seed's run says little. Summed, the workers wait
	// while node 1 idles 7.5 s with the NUMA level's SD_WAKE_AFFINE and
	// 0.6 s without, and serve 118204 against 133187 requests (+13 %).
	// (Before the model's 3.8 idle_balance() set next_balance from the
	// idle intervals of the domains it walked, after a pull or when the
	// old one had passed, 10.3 s and +29 %. Before the 3.x menu
	// governor's multiplier was modelled, 13.1 s
	// against 6.3 s, and no more requests without: a worker kept landing on
	// the listener's cpu0.)
	var bug, far float64
	var bugOps, farOps int64
	for seed := 1; seed <= 6; seed++ {
		n := strconv.Itoa(seed)
		b := runPreset(t, "overload-on-wakeup", "seed", n)
		f := runPreset(t, "overload-on-wakeup", "seed", n, "policy.sd_flags.NUMA.SD_WAKE_AFFINE", "false")
		bug, far = bug+b.IdleWhileOverloadedMS, far+f.IdleWhileOverloadedMS
		bugOps, farOps = bugOps+b.Ops, farOps+f.Ops
	}
	if bug < 6*500 || far > 0.25*bug {
		t.Errorf("idle while overloaded over six seeds: %.0f ms with NUMA wake-affine, %.0f ms without; want >= 3000 and at most 25 %%", bug, far)
	}
	if float64(farOps) < 1.10*float64(bugOps) {
		t.Errorf("requests served over six seeds: %d with NUMA wake-affine, %d without; want at least 10 %% more without", bugOps, farOps)
	}
}

func TestFirstSentence(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"One. Two.", 100, "One."},
		{"No full stop", 100, "No full stop"},
		{"v3.8 is old. Yes.", 100, "v3.8 is old."},
		{"abcdefghij", 5, "abcd…"},
	} {
		if got := FirstSentence(c.in, c.max); got != c.want {
			t.Errorf("FirstSentence(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// TestPresetOf: a preset is recognised by its canonical JSON, whatever its
// title; a changed field makes it no preset.
func TestPresetOf(t *testing.T) {
	for _, p := range Presets() {
		s, err := Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got := PresetOf(s); got != p.Name {
			t.Errorf("PresetOf(%s) = %q", p.Name, got)
		}
		link, err := DecodeLink(EncodeLink(s))
		if err != nil || PresetOf(link) != p.Name {
			t.Errorf("%s through its link: %q, %v", p.Name, PresetOf(link), err)
		}
		if err := s.Set("seed", "12345"); err != nil {
			t.Fatal(err)
		}
		if got := PresetOf(s); got != "" {
			t.Errorf("%s with another seed is preset %q", p.Name, got)
		}
	}
}

// execOff switches exec balancing off at every level the NUMA-Q has.
var execOff = []string{"policy.sd_flags.MC.SD_BALANCE_EXEC", "false", "policy.sd_flags.NUMA.SD_BALANCE_EXEC", "false"}

// TestPresetSDETNUMAQ: with fork balancing off (the 2004 kernels), exec
// balancing is what spreads SDET's short commands across the quads: at 8
// users it gains more than 8% throughput on both bases and cuts the idle
// time beside queued work several-fold, with most exec migrations crossing
// a node; at 32 users (saturated) the difference is within 5%.
func TestPresetSDETNUMAQ(t *testing.T) {
	for _, base := range []string{"v3.8", "v6.17"} {
		on := runPreset(t, "sdet-numaq", "policy.base", base)
		off := runPreset(t, "sdet-numaq", append([]string{"policy.base", base}, execOff...)...)
		if r := on.OpsPerS / off.OpsPerS; r < 1.08 || r > 1.4 {
			t.Errorf("%s, 8 users: exec balancing %.0f ops/s against %.0f without (x%.3f), want +8%% to +40%%", base, on.OpsPerS, off.OpsPerS, r)
		}
		if on.IdleWhileOverloadedMS*3 > off.IdleWhileOverloadedMS {
			t.Errorf("%s: idle while overloaded %.0f ms with exec balancing, %.0f without: want at least 3x less", base, on.IdleWhileOverloadedMS, off.IdleWhileOverloadedMS)
		}
		if on.Migrations.Exec < on.Execs/10 || off.Migrations.Exec != 0 || on.Forks < 1000 || on.Exits < on.Forks-16 {
			t.Errorf("%s: %d exec migrations of %d execs (off: %d), %d forks, %d exits", base, on.Migrations.Exec, on.Execs, off.Migrations.Exec, on.Forks, on.Exits)
		}
		on32 := runPreset(t, "sdet-numaq", "policy.base", base, "tasks.user.count", "32")
		off32 := runPreset(t, "sdet-numaq", append([]string{"policy.base", base, "tasks.user.count", "32"}, execOff...)...)
		if r := on32.OpsPerS / off32.OpsPerS; r < 0.95 || r > 1.05 {
			t.Errorf("%s, 32 users: exec balancing %.0f ops/s against %.0f (x%.3f), want within 5%%", base, on32.OpsPerS, off32.OpsPerS, r)
		}
	}
}

// TestPresetKernbenchNUMAQ: make's elapsed time (its exit) with and
// without exec balancing, fork balancing off, make running GNU make's job
// server (-jN tokens, each job's exit giving one back). With two jobs a CPU
// or more (-j32, -j256, unlimited) a CPU that finishes a job has another
// waiting, so exec balancing hardly moves the elapsed time (within 6 %),
// though without it CPUs idle beside queued jobs at least 5x as long at
// -j32; at -j16, one job a CPU, it saves 2-20 %. And seed 004's shape: -j32,
// -j256 and unlimited within 3 % of each other ("a full -j kernel compile
// goes as fast as the -j 256").
func TestPresetKernbenchNUMAQ(t *testing.T) {
	elapsed := func(m sim.Metrics) float64 {
		for _, tk := range m.Tasks {
			if tk.Name == "make/0" {
				if tk.ExitMS == 0 {
					t.Fatalf("make did not finish in %.0f ms", m.SimMS)
				}
				return tk.ExitMS
			}
		}
		t.Fatal("no make/0")
		return 0
	}
	for _, base := range []string{"v3.8", "v6.17"} {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, j := range []struct {
			tokens   string
			min, max float64 // elapsed without / with exec balancing
		}{{"32", 0.98, 1.06}, {"256", 0.98, 1.06}, {"1280", 0.98, 1.06}, {"16", 1.02, 1.2}} {
			sets := []string{"policy.base", base, "tasks.make.program[0].repeat", j.tokens}
			on := runPreset(t, "kernbench-numaq", sets...)
			off := runPreset(t, "kernbench-numaq", append(sets, execOff...)...)
			with := elapsed(on)
			if r := elapsed(off) / with; r < j.min || r > j.max {
				t.Errorf("%s -j%s: %.0f ms without exec balancing, %.0f with (x%.3f), want x%.2f..%.2f", base, j.tokens, elapsed(off), with, r, j.min, j.max)
			}
			if j.tokens == "32" && on.IdleWhileOverloadedMS*5 > off.IdleWhileOverloadedMS {
				t.Errorf("%s -j32: idle while overloaded %.0f ms with exec balancing, %.0f without: want at least 5x less", base, on.IdleWhileOverloadedMS, off.IdleWhileOverloadedMS)
			}
			if on.Forks != 1280 || on.Exits != 1281 {
				t.Errorf("%s -j%s: forks %d exits %d", base, j.tokens, on.Forks, on.Exits)
			}
			if j.tokens != "16" {
				lo, hi = math.Min(lo, with), math.Max(hi, with)
			}
		}
		if hi > 1.03*lo {
			t.Errorf("%s: -j32, -j256 and unlimited take %.0f to %.0f ms with exec balancing; want within 3%% of each other", base, lo, hi)
		}
	}
}

// TestNUMAQMachine: the two seed-004 presets run on the same NUMA-Q.
func TestNUMAQMachine(t *testing.T) {
	a, err := Preset("sdet-numaq")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Preset("kernbench-numaq")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Machine, b.Machine) || !reflect.DeepEqual(a.Policy, b.Policy) {
		t.Errorf("sdet-numaq and kernbench-numaq differ in machine or policy:\n%+v\n%+v", a.Machine, b.Machine)
	}
	cfg, _ := a.Config()
	if n := cfg.Machine.NCPU(); n != 16 || cfg.Machine.Nodes != 4 || len(cfg.Machine.Costs.IdleStates) != 1 {
		t.Errorf("NUMA-Q: %d CPUs on %d nodes, %d idle states", n, cfg.Machine.Nodes, len(cfg.Machine.Costs.IdleStates))
	}
}

var updatePresetSums = flag.Bool("update-preset-sums", false, "rewrite presets.sums")

// TestPresetSums: presets.sums holds every preset's canonical-JSON sum and
// nothing else, so that PresetOf decodes only a preset whose sum matches
// (a stale sum would make PresetOf miss the preset).
func TestPresetSums(t *testing.T) {
	var want strings.Builder
	for _, p := range Presets() {
		fmt.Fprintf(&want, "%s %016x\n", p.Name, canonSum([]byte(presets()[p.Name].load().canon)))
	}
	if *updatePresetSums {
		if err := os.WriteFile("presets.sums", []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if presetSumsFile != want.String() {
		t.Fatalf("presets.sums is stale (go test ./scenarios -run PresetSums -update-preset-sums):\nhave\n%swant\n%s", presetSumsFile, want.String())
	}
}
