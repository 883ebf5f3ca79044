package app

import (
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"testing"
	"time"

	"schedplay/scenarios"
	"schedplay/sim"
)

// freshMetrics is the CLI's "run -json -set duration=D" for the preset with
// sets: a fresh simulator run to the end of a run D long.
func freshMetrics(t *testing.T, preset string, d time.Duration, sets ...[2]string) sim.Metrics {
	t.Helper()
	sc, err := scenarios.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range append(sets, [2]string{"duration", d.String()}) {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Config()
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	return s.Metrics()
}

func sameMetrics(t *testing.T, what string, got, want sim.Metrics) {
	t.Helper()
	got.WallMS, want.WallMS, got.Title, want.Title = 0, 0, "", ""
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s: metrics\n got %s\nwant %s", what, g, w)
	}
}

// After playing 300 ms of tbench-pairs, Seek(50) lands on a fresh 50 ms
// run's state (trace hash and every metric); ← steps back; a seek forward
// to a time already simulated re-simulates less than one checkpoint
// interval.
func TestSeekEqualsFreshRun(t *testing.T) {
	s := loaded(t)
	s.Pause()
	for range 3 {
		if _, err := s.Step(100 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Seek(50)
	if err != nil || got != 50 {
		t.Fatalf("Seek(50) = %v, %v", got, err)
	}
	m, _ := s.Metrics()
	sameMetrics(t, "seek(50) after 300 ms", m, freshMetrics(t, "tbench-pairs", 50*time.Millisecond))
	ti, _ := s.Timeline()
	if ti.LastSeek.RestoredMS != 50 || ti.LastSeek.ResimMS != 0 || ti.IntervalMS != 10 {
		t.Errorf("seek(50): %+v (interval %v ms)", ti.LastSeek, ti.IntervalMS)
	}
	if _, err := s.Seek(123.456); err != nil {
		t.Fatal(err)
	}
	m, _ = s.Metrics()
	sameMetrics(t, "seek(123.456)", m, freshMetrics(t, "tbench-pairs", 123456*time.Microsecond))
	if ti, _ := s.Timeline(); ti.LastSeek.RestoredMS != 120 || ti.LastSeek.ResimMS >= ti.IntervalMS {
		t.Errorf("seek(123.456): %+v", ti.LastSeek)
	}
	// ←: back by one step.
	if err := s.Do(CmdStepBack); err != nil {
		t.Fatal(err)
	}
	back := time.Duration(float64(StepFrame) * s.Speed())
	m, _ = s.Metrics()
	sameMetrics(t, "← after the seek", m, freshMetrics(t, "tbench-pairs", 123456*time.Microsecond-back))
	// Marks: the migrations of the first 300 ms are counted once, however
	// often that time is simulated again.
	ti, _ = s.Timeline()
	var marks int64
	for _, l := range ti.Marks {
		for _, n := range l {
			marks += int64(n)
		}
	}
	f := freshMetrics(t, "tbench-pairs", 300*time.Millisecond)
	if want := f.Migrations.Total; marks != want {
		t.Errorf("marks count %d migrations, a 300 ms run has %d", marks, want)
	}
}

// Previous / next migration: the next lands right after a migration (a
// fresh run to that time has one more migration than a run to just
// before); the previous goes back to it.
func TestSeekMigration(t *testing.T) {
	s := loaded(t)
	s.Pause()
	if _, err := s.Seek(20); err != nil {
		t.Fatal(err)
	}
	t1, err := s.SeekMigration(+1)
	if err != nil || t1 <= 20 {
		t.Fatalf("next migration: %v, %v", t1, err)
	}
	at := time.Duration(math.Round(t1 * 1e6))
	before, after := freshMetrics(t, "tbench-pairs", at-1), freshMetrics(t, "tbench-pairs", at)
	if after.Migrations.Total <= before.Migrations.Total {
		t.Errorf("next migration at %v: migrations %d just before, %d at", at, before.Migrations.Total, after.Migrations.Total)
	}
	if _, err := s.Seek(t1 + 5); err != nil {
		t.Fatal(err)
	}
	t2, err := s.SeekMigration(+1)
	if err != nil || t2 <= t1 {
		t.Fatalf("second next migration: %v, %v", t2, err)
	}
	if p, err := s.SeekMigration(-1); err != nil || p < t1 || p >= t2 {
		t.Errorf("previous migration from %v: %v, %v (want in [%v, %v))", t2, p, err, t1, t2)
	}
	p, _ := s.SeekMigration(-1)
	m, _ := s.Metrics()
	sameMetrics(t, "previous migration", m, freshMetrics(t, "tbench-pairs", time.Duration(math.Round(p*1e6))))
}

// The 256-CPU machine: after 9.5 s played, a seek to 9 s re-simulates at
// most one checkpoint interval; the checkpoints stay under 64 MB.
func TestSeek256(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("simulates 9.5 s of 256 CPUs natively (e2e TestSeek256 does it in the page)")
	}
	s := NewSession()
	sc, _ := scenarios.Preset("tbench-pairs")
	for _, kv := range [][2]string{{"machine.cores_per_cluster", "32"}, {"tasks.client.count", "20"}, {"duration", "10s"}} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Load(sc, false); err != nil {
		t.Fatal(err)
	}
	s.Pause()
	// Forward past the furthest time played: each seek simulates at most
	// MaxSeekWork, so seek until there.
	for i := 0; i < 100; i++ {
		if now, err := s.Seek(9500); err != nil || now == 9500 {
			break
		}
	}
	ti, _ := s.Timeline()
	if ti.NowMS != 9500 {
		t.Fatalf("seek(9500) reached %v ms: %+v", ti.NowMS, ti.LastSeek)
	}
	if _, err := s.Seek(9000); err != nil {
		t.Fatal(err)
	}
	ti, _ = s.Timeline()
	t.Logf("256 CPUs: %d checkpoints, interval %v ms, %.1f MB; seek(9000): %+v", ti.Checkpoints, ti.IntervalMS, ti.CheckpointMB, ti.LastSeek)
	if ti.LastSeek.ResimMS > ti.IntervalMS || ti.LastSeek.RestoredMS < 0 || ti.CheckpointMB >= 64 {
		t.Errorf("seek(9000): %+v, interval %v ms, %.1f MB", ti.LastSeek, ti.IntervalMS, ti.CheckpointMB)
	}
}
