package app

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"schedplay/frame"
	"schedplay/scenarios"
	"schedplay/sim"
)

func TestSampleInterval(t *testing.T) {
	for _, tc := range []struct {
		speed float64
		want  int64
	}{
		{DefaultSpeed, 50_000}, // 1 ms/s: 40 us -> 50 us
		{1e-4, 5_000},
		{MinSpeed, MinSampleInterval},
		{0.01, 500_000},
		{0.1, 5_000_000},
		{1, 50_000_000},
		{MaxSpeed, MaxSampleInterval},
		{0.0075, 200_000}, // 300 us: nearer 200 than 500 in ratio
		{0.0025, 100_000}, // 100 us
		{math.NaN(), MinSampleInterval},
	} {
		if got := SampleInterval(tc.speed); got != tc.want {
			t.Errorf("SampleInterval(%g) = %d, want %d", tc.speed, got, tc.want)
		}
	}
}

func TestLatHist(t *testing.T) {
	var h latHist
	if h.quantile(0.5) != -1 {
		t.Fatalf("empty histogram quantile = %v", h.quantile(0.5))
	}
	// 1..1000 us uniformly: p50 ~ 500 us, p99 ~ 990 us, within a bucket (~9%).
	for us := int64(1); us <= 1000; us++ {
		h.add(us * 1000)
	}
	for _, tc := range []struct{ q, want float64 }{{0.5, 500}, {0.95, 950}, {0.99, 990}} {
		if got := h.quantile(tc.q); math.Abs(got-tc.want)/tc.want > 0.1 {
			t.Errorf("q%.2f = %.1f us, want about %.0f", tc.q, got, tc.want)
		}
	}
	// Buckets are monotonic and cover small values.
	prev := -1
	for _, ns := range []int64{0, 1, 2, 3, 4, 5, 7, 8, 100, 1 << 20, 1 << 40} {
		b := latBucket(ns)
		if b < prev {
			t.Errorf("latBucket(%d) = %d < %d", ns, b, prev)
		}
		prev = b
		if ns >= 4 && ns < 1<<32 {
			if v := latValue(b); v < float64(ns)*0.8 || v > float64(ns)*1.25 {
				t.Errorf("latValue(latBucket(%d)) = %.1f", ns, v)
			}
		}
	}
}

// playAll runs s to the end at a fixed frame rate and returns the frames.
func playAll(t *testing.T, s *Session, dt time.Duration) []*frame.Frame {
	t.Helper()
	s.SetBudget(time.Hour)
	var out []*frame.Frame
	for i := 0; s.Playing() && i < 100000; i++ {
		out = append(out, s.Tick(t0.Add(time.Duration(i)*dt), dt))
	}
	return out
}

func shortPreset(t *testing.T, name, dur string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration", dur); err != nil {
		t.Fatal(err)
	}
	return sc
}

// playSampled plays preset name for dur at 5 ms/s, so the series samples
// every 200 us, and returns the session and its frames.
func playSampled(t *testing.T, name, dur string) (*Session, []*frame.Frame) {
	t.Helper()
	s := NewSession()
	if err := s.Load(shortPreset(t, name, dur), false); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSpeed(0.005); err != nil {
		t.Fatal(err)
	}
	return s, playAll(t, s, 16*time.Millisecond)
}

// The series adds up to the run's metrics: ops, migrations by cause, wake-ups.
func TestSeriesMatchesMetrics(t *testing.T) {
	s, frames := playSampled(t, "pgbench-1toN", "20ms") // 100 samples
	last := frames[len(frames)-1]
	ser := last.A().Series
	if n := len(ser.Samples); n != 100 {
		t.Fatalf("%d samples in 20 ms at 200 us, want 100", n)
	}
	var ops int64
	var mig [sim.NumCauses]int64
	var wakeups int64
	for i, smp := range ser.Samples {
		if smp.Dt != 200_000 || smp.T != int64(i+1)*200_000 {
			t.Fatalf("sample %d: T %d Dt %d", i, smp.T, smp.Dt)
		}
		if len(smp.NR) != last.A().Topology.NCPU {
			t.Fatalf("sample %d has %d CPUs", i, len(smp.NR))
		}
		ops += smp.Ops
		for c := range mig {
			mig[c] += int64(smp.Mig[c])
		}
		wakeups += int64(smp.Wakeups)
		// The smoothed rate is the window's ops over its time.
		var wops, wdt int64
		for j := max(0, i-frame.SmoothSamples+1); j <= i; j++ {
			wops += ser.Samples[j].Ops
			wdt += ser.Samples[j].Dt
		}
		if want := float64(wops) * 1e9 / float64(wdt); math.Abs(smp.OpsRate-want) > 1e-6*want {
			t.Errorf("sample %d: OpsRate %v, want %v", i, smp.OpsRate, want)
		}
		if smp.Wakeups > 0 && !(smp.LatP50 > 0 && smp.LatP50 <= smp.LatP95 && smp.LatP95 <= smp.LatP99) {
			t.Errorf("sample %d: latency p50 %v p95 %v p99 %v", i, smp.LatP50, smp.LatP95, smp.LatP99)
		}
	}
	m, _ := s.Metrics()
	if ops != m.Ops {
		t.Errorf("samples add up to %d ops, metrics say %d", ops, m.Ops)
	}
	mg := m.Migrations
	want := [sim.NumCauses]int64{0, mg.Wakeup, mg.Balance, mg.Newidle, mg.Nohz, mg.Active, mg.Fork}
	if mig != want {
		t.Errorf("migrations by cause: samples %v, metrics %v", mig, want)
	}
	// Every completed wake-up latency is counted once (the last ones may be
	// in flight at the end).
	if n := m.WakeupLatencyUS.N; wakeups != n {
		t.Errorf("samples saw %d wake-up latencies, metrics %d", wakeups, n)
	}
	// Frames share samples: the series of an early frame is a prefix of the last.
	mid := frames[len(frames)/2].A().Series
	for i, smp := range mid.Samples {
		if ser.Samples[i] != smp {
			t.Fatalf("sample %d differs between frames", i)
		}
	}
}

// The series counts the tasks that exit, as the run's metrics do: kernbench's
// compiler jobs exit instead of looping (no op is ever counted), and the
// throughput chart plots their exits per second (frame.CountsExits).
func TestSeriesCountsExits(t *testing.T) {
	s, frames := playSampled(t, "kernbench-numaq", "40ms") // 200 samples
	ser := frames[len(frames)-1].A().Series
	if n := len(ser.Samples); n != 200 {
		t.Fatalf("%d samples in 40 ms at 200 us, want 200", n)
	}
	var exits int64
	for i, smp := range ser.Samples {
		exits += int64(smp.Exits)
		var wex, wdt int64
		for j := max(0, i-frame.SmoothSamples+1); j <= i; j++ {
			wex += int64(ser.Samples[j].Exits)
			wdt += ser.Samples[j].Dt
		}
		if want := float64(wex) * 1e9 / float64(wdt); math.Abs(smp.ExitRate-want) > 1e-6*want {
			t.Errorf("sample %d: ExitRate %v, want %v", i, smp.ExitRate, want)
		}
	}
	m, _ := s.Metrics()
	if exits != m.Exits || m.Exits == 0 || m.Ops != 0 {
		t.Errorf("samples add up to %d exits, metrics say %d exits and %d ops (want equal exits, some, and no op)", exits, m.Exits, m.Ops)
	}
	if !frame.CountsExits(&m, nil) {
		t.Errorf("kernbench's run does not count exits: %d ops, %d exits", m.Ops, m.Exits)
	}
}

func TestSeriesRing(t *testing.T) {
	s := NewSession()
	if err := s.Load(shortPreset(t, "pelt-pingpong", "100ms"), false); err != nil {
		t.Fatal(err)
	}
	s.SetSpeed(0.005) // 200 us: 500 samples, more than the ring holds
	frames := playAll(t, s, 50*time.Millisecond)
	ser := frames[len(frames)-1].A().Series
	if len(ser.Samples) != frame.SeriesLen {
		t.Fatalf("%d samples, want the ring's %d", len(ser.Samples), frame.SeriesLen)
	}
	if got := ser.Last().T; got != 100_000_000 {
		t.Errorf("newest sample ends at %d", got)
	}
	// The hog keeps a CPU busy: nr_running is 1 or more on one CPU mostly.
	busy := 0
	for _, smp := range ser.Samples {
		if smp.NR[0] > 0 || smp.NR[1] > 0 {
			busy++
		}
	}
	if busy < frame.SeriesLen/2 {
		t.Errorf("only %d of %d samples show a running task", busy, frame.SeriesLen)
	}
}

func TestLogBounded(t *testing.T) {
	s := NewSession()
	if err := s.Load(shortPreset(t, "aim9-burst", "30ms"), false); err != nil {
		t.Fatal(err)
	}
	s.SetSpeed(0.01)
	frames := playAll(t, s, 100*time.Millisecond)
	dropped, kept, migr := 0, 0, 0
	for _, f := range frames {
		if len(f.A().Log) > frame.MaxLogPerFrame {
			t.Fatalf("frame has %d log entries", len(f.A().Log))
		}
		kept += len(f.A().Log)
		dropped += f.A().LogDropped
		for i, e := range f.A().Log {
			if i > 0 && e.T < f.A().Log[i-1].T {
				t.Fatalf("log out of order")
			}
			if e.Text == "" || !strings.HasPrefix(e.Text, "t=") {
				t.Fatalf("entry without text: %+v", e)
			}
			if e.Kind == "migrate" {
				migr++
				if e.Cause == "" || e.From < 0 || e.Task < 0 || !strings.Contains(e.Text, "moved") {
					t.Errorf("migration entry %+v", e)
				}
			}
		}
	}
	m, _ := s.Metrics()
	if int64(kept+dropped) != m.Events {
		t.Errorf("log kept %d + dropped %d != %d events", kept, dropped, m.Events)
	}
	if dropped == 0 {
		t.Errorf("aim9 at 100 ms per frame should overflow the log")
	}
	// Migrations are kept before wake-ups and switches: all of them fit
	// (forks placed away count as migrations but are fork events).
	if want := m.Migrations.Total - m.Migrations.Fork; int64(migr) != want {
		t.Errorf("log shows %d migrations of %d", migr, want)
	}
}

func TestLogTiers(t *testing.T) {
	var l logBuf
	for i := range 3 * frame.MaxLogPerFrame {
		l.add(&sim.Event{T: int64(i), Kind: sim.EvSwitch})
	}
	l.add(&sim.Event{T: 1000, Kind: sim.EvMigrate})
	l.add(&sim.Event{T: 1001, Kind: sim.EvBalance, Arg: 0})
	evs, dropped := l.take(nil)
	if len(evs) != frame.MaxLogPerFrame || dropped != 3*frame.MaxLogPerFrame+2-frame.MaxLogPerFrame {
		t.Fatalf("kept %d dropped %d", len(evs), dropped)
	}
	if !slices.ContainsFunc(evs, func(e sim.Event) bool { return e.Kind == sim.EvMigrate }) {
		t.Errorf("the migration was dropped")
	}
	// The newest switches were kept, in order.
	if evs[len(evs)-1].T != 1001 && evs[len(evs)-2].T != 1000 {
		t.Errorf("tail %v", evs[len(evs)-3:])
	}
	if evs[0].T != int64(3*frame.MaxLogPerFrame-(frame.MaxLogPerFrame-2)) {
		t.Errorf("oldest kept switch at %d", evs[0].T)
	}
	if evs2, d := l.take(nil); len(evs2) != 0 || d != 0 {
		t.Errorf("take did not empty the buffer")
	}
}

func TestPauseOnMove(t *testing.T) {
	s := loaded(t)
	s.SetBudget(time.Hour)
	s.SetPauseOnMove(true)
	if !s.PauseOnMove() {
		t.Fatal("not armed")
	}
	var f *frame.Frame
	for i := 0; i < 2000 && s.Playing(); i++ {
		f = s.Tick(t0.Add(time.Duration(i)*16*time.Millisecond), 16*time.Millisecond)
	}
	if s.Playing() || !f.PausedOnMove || f.Playing {
		t.Fatalf("did not pause on a migration: playing %v paused-on-move %v", s.Playing(), f.PausedOnMove)
	}
	last := f.A().Moves[len(f.A().Moves)-1]
	if last.Kind != sim.EvMigrate || last.T != f.A().Now {
		t.Errorf("last move %+v at now %d", last, f.A().Now)
	}
	if f.A().LastMove != s.Explain(last) || !strings.Contains(f.A().LastMove, "moved") {
		t.Errorf("LastMove %q", f.A().LastMove)
	}
	// Exactly one simulator event's worth of migrations in the frame.
	n := 0
	for _, e := range f.A().Moves {
		if e.Kind == sim.EvMigrate {
			n++
			if e.T != f.A().Now {
				t.Errorf("a migration before the one paused on: %+v", e)
			}
		}
	}
	// The next frame is an ordinary paused frame.
	g := s.Tick(t0.Add(time.Hour), 16*time.Millisecond)
	if g.PausedOnMove || g.A().Now != f.A().Now || !g.PauseOnMove {
		t.Errorf("frame after the pause: %+v", g)
	}
	// Play runs to the next migration.
	s.Play()
	var h *frame.Frame
	for i := 0; i < 2000 && s.Playing(); i++ {
		h = s.Tick(t0.Add(time.Hour+time.Duration(i)*16*time.Millisecond), 16*time.Millisecond)
	}
	if !h.PausedOnMove || h.A().Now <= f.A().Now {
		t.Errorf("second pause: %+v", h)
	}
	// Pausing on moves does not change the run.
	s.SetPauseOnMove(false)
	ref := NewSession()
	ref.LoadPreset(scenarios.DefaultPreset, false)
	ref.Step(time.Duration(h.A().Now))
	rm, _ := ref.Metrics()
	m, _ := s.Metrics()
	if rm.TraceHash != m.TraceHash {
		t.Errorf("pausing on moves changed the trace")
	}
}

func TestCompareLockStep(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("tbench-pairs", false); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCompare([]string{"policy.select_idle_sibling=cpu_buddies"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Compare(); len(got) != 1 {
		t.Fatalf("Compare() = %v", got)
	}
	s.SetSpeed(0.01)
	s.SetBudget(time.Hour)
	var f *frame.Frame
	for i := range 60 {
		f = s.Tick(t0.Add(time.Duration(i)*16*time.Millisecond), 16*time.Millisecond)
		if f.B() == nil {
			t.Fatal("A/B on but no side B")
		}
		if f.B().Now != f.A().Now || f.B().Snap.Now != f.A().Snap.Now {
			t.Fatalf("sides apart: A %d B %d", f.A().Now, f.B().Now)
		}
	}
	if f.B().Label != "B: policy.select_idle_sibling=cpu_buddies" || f.A().Label != "A: policy.select_idle_sibling=v3.6" {
		t.Errorf("titles %q %q", f.A().Label, f.B().Label)
	}
	if f.A().Metrics == nil || f.B().Metrics == nil {
		// Paused frames carry metrics; force one.
		s.Pause()
		f = s.Tick(t0.Add(time.Hour), 0)
	}
	if f.A().Metrics.TraceHash == f.B().Metrics.TraceHash {
		t.Errorf("B plays the same trace as A")
	}
	// Buddies pin the pair: B has far fewer migrations than A (seed 000).
	if a, b := f.A().Metrics.Migrations.Total, f.B().Metrics.Migrations.Total; b*2 > a {
		t.Errorf("migrations A %d, B %d: buddies should move much less", a, b)
	}
	if f.A().Series == nil || f.B().Series == nil || len(f.B().Series.Samples) != len(f.A().Series.Samples) {
		t.Errorf("series: A %v B %v", f.A().Series, f.B().Series)
	}
	// B is the same run as the CLI's -set gives.
	sc, _ := scenarios.Preset("tbench-pairs")
	sc.Set("policy.select_idle_sibling", "cpu_buddies")
	ref := NewSession()
	ref.Load(sc, false)
	ref.Step(time.Duration(f.A().Now))
	if m, _ := ref.Metrics(); m.TraceHash != f.B().Metrics.TraceHash {
		t.Errorf("side B differs from the scenario with the set applied")
	}

	// Bad sets change nothing.
	for _, bad := range [][]string{{"policy.select_idle_sibling"}, {"policy.no_such=1"}, {"=x"}} {
		if err := s.SetCompare(bad); err == nil {
			t.Errorf("SetCompare(%q) accepted", bad)
		}
	}
	if got := s.Compare(); len(got) != 1 {
		t.Errorf("a rejected SetCompare changed the sets: %v", got)
	}
	// Loading a scenario where the sets apply keeps A/B.
	if err := s.LoadPreset("pgbench-1toN", true); err != nil {
		t.Fatal(err)
	}
	if s.Compare() == nil || s.Error() != "" {
		t.Errorf("A/B dropped on a scenario it applies to: %v %q", s.Compare(), s.Error())
	}
	// A set that no longer applies turns A/B off with an error.
	if err := s.SetCompare([]string{"tasks.client.count=2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadPreset("pelt-pingpong", true); err != nil {
		t.Fatal(err)
	}
	if s.Compare() != nil || !strings.Contains(s.Error(), "A/B turned off") {
		t.Errorf("after a scenario without task client: compare %v, error %q", s.Compare(), s.Error())
	}
	if f := s.Tick(t0, 0); f.B() != nil || f.Compare != nil {
		t.Errorf("frame still has side B")
	}
	// Off.
	s.SetCompare([]string{"policy.select_idle_sibling=off"})
	if err := s.SetCompare(nil); err != nil || s.Compare() != nil {
		t.Errorf("SetCompare(nil): %v, %v", err, s.Compare())
	}
}

func TestDefaultCompareApplies(t *testing.T) {
	for _, p := range scenarios.Presets() {
		sets := p.View.Compare
		if len(sets) == 0 {
			t.Errorf("preset %s has no default comparison", p.Name)
			continue
		}
		sc, err := scenarios.Preset(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := applySets(sc, sets)
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if string(b.Canonical()) == string(sc.Canonical()) {
			t.Errorf("%s: the default comparison %v changes nothing", p.Name, sets)
		}
	}
}

func TestToggleCompareAndPresets(t *testing.T) {
	s := NewSession()
	if err := s.LoadPreset("pelt-pingpong", false); err != nil {
		t.Fatal(err)
	}
	if s.Preset() != "pelt-pingpong" {
		t.Fatalf("Preset() = %q", s.Preset())
	}
	if err := s.ToggleCompare(); err != nil {
		t.Fatal(err)
	}
	if got := s.Compare(); !slices.Equal(got, defaultCompareFor("pelt-pingpong")) {
		t.Errorf("A turned on %v", got)
	}
	f := s.Tick(t0, 0)
	if f.A().Label != "A: policy.load_metric=load_weight, policy.select_idle_sibling=v3.8" {
		t.Errorf("ATitle %q", f.A().Label)
	}
	s.ToggleCompare()
	if s.Compare() != nil {
		t.Errorf("A did not turn A/B off")
	}
	// A set by hand is what A restores.
	s.SetCompare([]string{"seed=9"})
	s.ToggleCompare()
	s.ToggleCompare()
	if got := s.Compare(); !slices.Equal(got, []string{"seed=9"}) {
		t.Errorf("restored %v", got)
	}
	// N walks the presets in order and wraps.
	list := scenarios.Presets()
	s.SetCompare(nil)
	s.LoadPreset(list[len(list)-1].Name, false)
	if err := s.NextPreset(); err != nil || s.Preset() != list[0].Name {
		t.Errorf("after the last preset: %q, %v", s.Preset(), err)
	}
	s.NextPreset()
	if s.Preset() != list[1].Name || s.Tick(t0, 0).Link == "" {
		t.Errorf("next preset %q (a user change writes the link)", s.Preset())
	}
	// A scenario changed by set is still its preset.
	s.Set("seed", "3")
	if s.Preset() != list[1].Name {
		t.Errorf("after set: %q", s.Preset())
	}
	// Talk.
	s.SetTalk(true)
	if !s.Talk() || !s.Tick(t0, 0).Talk {
		t.Errorf("talk mode not in the frame")
	}
}

func TestLookup(t *testing.T) {
	sc, _ := scenarios.Preset("tbench-pairs")
	if got := describeSets(sc, nil, []string{"policy.select_idle_sibling=off", "tasks.client.count=3", "machine.nodes=1", "policy.features.X=1"}); got != "policy.select_idle_sibling=v3.6, tasks.client.count=1, machine.nodes=4, policy.features.X=default" {
		t.Errorf("describeSets = %q", got)
	}
}

// Side A's label names the value A runs with where the scenario leaves a
// compared path to its base, as B's names B's: an A/B of SCHED_BALANCE_MAP
// reads "=false" against "=true", not "=default" against "=true".
func TestDescribeSetsNamesTheBasesValue(t *testing.T) {
	for _, c := range []struct {
		preset string
		sets   []string
		want   string
	}{
		// v3.8's own: load.weight, the v3.8 walk; the features as
		// features.h has them.
		{"pelt-pingpong", []string{"policy.load_metric=runnable_plus_blocked", "policy.select_idle_sibling=off"},
			"policy.load_metric=load_weight, policy.select_idle_sibling=v3.8"},
		{"pgbench-1toN", []string{"policy.features.SCHED_BALANCE_MAP=true"}, "policy.features.SCHED_BALANCE_MAP=false"},
		// The era's domain flags: SD_NUMA_INIT and SD_MC_INIT set
		// SD_BALANCE_EXEC; 3.8's NUMA level has SD_WAKE_AFFINE within
		// RECLAIM_DISTANCE; MC has no SD_BALANCE_WAKE.
		{"kernbench-numaq", []string{"policy.sd_flags.MC.SD_BALANCE_EXEC=false", "policy.sd_flags.NUMA.SD_BALANCE_EXEC=false"},
			"policy.sd_flags.{MC,NUMA}.SD_BALANCE_EXEC=true"},
		{"overload-on-wakeup", []string{"policy.sd_flags.NUMA.SD_WAKE_AFFINE=false", "policy.sd_flags.MC.SD_BALANCE_WAKE=true"},
			"policy.sd_flags.NUMA.SD_WAKE_AFFINE=true, policy.sd_flags.MC.SD_BALANCE_WAKE=false"},
		// v6.17 as mainline: eligible-first and DELAY_DEQUEUE on.
		{"eligible-migration", []string{"policy.features.ELIGIBLE_FIRST=false", "policy.features.DELAY_DEQUEUE=false"},
			"policy.features.{ELIGIBLE_FIRST,DELAY_DEQUEUE}=true"},
		// The era's new-task load and a level's tunables (3.8's
		// SD_MC_INIT: imbalance_pct 125, busy_factor 64).
		{"pelt-pingpong", []string{"policy.new_task_load=full", "policy.tunables.MC.imbalance_pct=110", "policy.tunables.MC.busy_factor=8"},
			"policy.new_task_load=zero, policy.tunables.MC.imbalance_pct=125, policy.tunables.MC.busy_factor=64"},
		{"eligible-migration", []string{"policy.new_task_load=zero"}, "policy.new_task_load=full"},
		// What the file format has no name for stays "default": a level
		// the machine lacks, an unknown feature, a cost.
		{"pelt-pingpong", []string{"policy.sd_flags.NUMA.SD_WAKE_AFFINE=false", "policy.features.NO_SUCH=true", "machine.costs.context_switch=5us"},
			"policy.sd_flags.NUMA.SD_WAKE_AFFINE=default, policy.features.NO_SUCH=default, machine.costs.context_switch=default"},
	} {
		sc, err := scenarios.Preset(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Config()
		if err != nil {
			t.Fatal(err)
		}
		sm, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := describeSets(sc, sm, c.sets); got != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.preset, c.sets, got, c.want)
		}
	}
}

// A/B labels write sets that differ in one segment of their paths, with one
// value, as a brace expansion (the side panel spelled kernbench's two levels
// out over four lines); anything else stays as it was, in its order.
func TestJoinSets(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"policy.sd_flags.MC.SD_BALANCE_EXEC=false", "policy.sd_flags.NUMA.SD_BALANCE_EXEC=false"},
			"policy.sd_flags.{MC,NUMA}.SD_BALANCE_EXEC=false"},
		// Different values, or more than one segment apart: spelled out.
		{[]string{"policy.sd_flags.MC.SD_BALANCE_EXEC=false", "policy.sd_flags.NUMA.SD_BALANCE_EXEC=true"},
			"policy.sd_flags.MC.SD_BALANCE_EXEC=false, policy.sd_flags.NUMA.SD_BALANCE_EXEC=true"},
		{[]string{"policy.sd_flags.NUMA.SD_WAKE_AFFINE=false", "policy.sd_flags.MC.SD_BALANCE_WAKE=false"},
			"policy.sd_flags.NUMA.SD_WAKE_AFFINE=false, policy.sd_flags.MC.SD_BALANCE_WAKE=false"},
		// Groups keep the place of their first set; a set that differs from
		// the group elsewhere stays out of it.
		{[]string{"policy.features.ELIGIBLE_FIRST=false", "policy.load_metric=load_weight", "policy.features.DELAY_DEQUEUE=false",
			"policy.tunables.MC.busy_factor=8", "policy.tunables.NUMA.busy_factor=8", "policy.tunables.NUMA.imbalance_pct=8"},
			"policy.features.{ELIGIBLE_FIRST,DELAY_DEQUEUE}=false, policy.load_metric=load_weight, policy.tunables.{MC,NUMA}.busy_factor=8, policy.tunables.NUMA.imbalance_pct=8"},
		{[]string{"policy.select_idle_sibling=cpu_buddies"}, "policy.select_idle_sibling=cpu_buddies"},
		{nil, ""},
	} {
		if got := joinSets(c.sets); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.sets, got, c.want)
		}
	}
}
