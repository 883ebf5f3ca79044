package app

import (
	"strings"
	"testing"
	"time"

	"schedplay/frame"
	"schedplay/scenarios"
)

// withWork lowers the page simulators' work budget for one test.
func withWork(t *testing.T, n int64) {
	old := playerMaxWork
	playerMaxWork = n
	t.Cleanup(func() { playerMaxWork = old })
}

// tbench is the tbench-pairs preset with n pairs and a duration.
func tbench(t *testing.T, n, dur string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("tasks.client.count", n); err != nil {
		t.Fatal(err)
	}
	if err := sc.Set("duration", dur); err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestPauseOnMoveAtBudget: issue 18, item 3. With the pause on the next
// migration armed, a run that reaches its budget made stepUntil spin for
// ever (Step's false ignored: the page hung). Now the frame says why the
// run stopped, keeps what was simulated, and Play does not restart it.
func TestPauseOnMoveAtBudget(t *testing.T) {
	withWork(t, 300_000)
	s := NewSession()
	// One pair on 80 CPUs, v3.6 search: migrations are rare after the
	// start, so the budget comes before the next one.
	if err := s.Load(tbench(t, "1", "600s"), false); err != nil {
		t.Fatal(err)
	}
	s.SetBudget(time.Hour)
	s.SetSpeed(MaxSpeed)
	s.SetPauseOnMove(true)
	done := make(chan *frame.Frame)
	go func() {
		var f *frame.Frame
		for i := 0; i < 10000; i++ {
			s.Play()
			f = s.Tick(t0.Add(time.Duration(i)*maxFrameDt), maxFrameDt)
			if f.Err != "" {
				break
			}
		}
		done <- f
	}()
	var f *frame.Frame
	select {
	case f = <-done:
	case <-time.After(2 * time.Minute): // generous: the loop takes well under a second
		t.Fatal("Tick did not return: the player spins at the budget")
	}
	if !strings.Contains(f.Err, "stopped early") || !strings.Contains(f.Err, "work units") || f.Playing || f.A().Now <= 0 || f.A().Now >= f.Duration {
		t.Fatalf("frame: err %q playing %v now %d", f.Err, f.Playing, f.A().Now)
	}
	m, _ := s.Metrics()
	if m.Stopped == "" || m.Work < 300_000 {
		t.Fatalf("metrics: stopped %q work %d", m.Stopped, m.Work)
	}
	// Play keeps what was simulated (it used to restart from 0 silently).
	s.Play()
	if g := s.Tick(t0.Add(time.Hour), maxFrameDt); g.A().Now != f.A().Now || g.Playing || g.Err == "" {
		t.Fatalf("after Play: now %d (was %d), playing %v, err %q", g.A().Now, f.A().Now, g.Playing, g.Err)
	}
}

// TestStepAtBudget: Step stops at the budget too, and says so.
func TestStepAtBudget(t *testing.T) {
	withWork(t, 300_000)
	s := NewSession()
	if err := s.Load(tbench(t, "1", "600s"), false); err != nil {
		t.Fatal(err)
	}
	now, err := s.Step(MaxStep)
	if err != nil || now <= 0 || now >= int64(MaxStep) || !strings.Contains(s.Error(), "stopped early") {
		t.Fatalf("step: %d %v %q", now, err, s.Error())
	}
}

// TestStepBoundedPerCall: issue 18, item 7. step(10 s) on a heavy scenario
// blocked the page's event loop for as long as it took; one call now does
// at most MaxCallWork work units and says where it stopped.
func TestStepBoundedPerCall(t *testing.T) {
	s := NewSession()
	if err := s.Load(tbench(t, "80", "20s"), false); err != nil {
		t.Fatal(err)
	}
	w0 := s.a.sim.Work()
	now, err := s.Step(MaxStep)
	work := s.a.sim.Work() - w0
	if err != nil || now <= 0 || now >= int64(MaxStep) || !strings.Contains(s.Error(), "step again") {
		t.Fatalf("step: %d %v %q", now, err, s.Error())
	}
	// At most one chunk past, and chunks stay under MaxCallWork/16.
	if work < MaxCallWork || work > MaxCallWork*5/4 {
		t.Fatalf("one call did %d work units; the bound is %d", work, MaxCallWork)
	}
	// The next call goes on from there.
	if again, _ := s.Step(MaxStep); again <= now {
		t.Fatalf("second step: %d after %d", again, now)
	}
}

// TestSetNoLostUpdate: issue 18, item 7. Set cloned the scenario, unlocked,
// built the new simulator and installed it: a change landing meanwhile was
// lost. Now the edit is applied again on top of it.
func TestSetNoLostUpdate(t *testing.T) {
	s := loaded(t)
	once := false
	loadHook = func() {
		if !once {
			once = true
			if err := s.Set("seed", "7"); err != nil { // lands while the outer Set builds
				t.Error(err)
			}
		}
	}
	defer func() { loadHook = nil }()
	if err := s.Set("duration", "2s"); err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Decode(s.Scenario())
	if err != nil {
		t.Fatal(err)
	}
	if sc.Seed != 7 || sc.Duration != "2s" {
		t.Fatalf("seed %d, duration %s: an update was lost", sc.Seed, sc.Duration)
	}
}
