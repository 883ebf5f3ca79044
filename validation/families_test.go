package validation

import (
	"reflect"
	"testing"

	"schedplay/sim"
)

// TestScaleCostsIsEveryFamily: scaling every family one after another is
// ScaleCosts, and each cost of sim.Costs but the two spreads (the run
// jitter and the timer interrupts' spread: timing, not costs) belongs to a family
// (a cost added to the model and to no family would be left out of both the
// sensitivity columns and the "what the misses hang on" tables).
func TestScaleCostsIsEveryFamily(t *testing.T) {
	c := sim.DefaultCosts()
	c.WakeupIPISend, c.RemoteMemPct, c.SMTGain, c.TimerIRQSpread, c.TimerWakeup, c.IdleReturn = 3000, 45, 1178, 20000, 3000, 20000
	all := c
	ScaleCosts(&all, 2)
	each := c
	for _, fam := range CostFamilies {
		fam.Scale(&each, 2)
	}
	if !reflect.DeepEqual(all, each) {
		t.Fatalf("ScaleCosts %+v, the families one by one %+v", all, each)
	}
	v, a := reflect.ValueOf(c), reflect.ValueOf(all)
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		same := reflect.DeepEqual(v.Field(i).Interface(), a.Field(i).Interface())
		if name == "JitterPct" || name == "TimerIRQSpread" {
			if !same {
				t.Errorf("%s scaled: a spread in time is not a cost", name)
			}
			continue
		}
		if same {
			t.Errorf("%s is in no cost family: ScaleCosts leaves it as it is", name)
		}
	}
}

// TestFamiliesOfAMiss: a point that misses is rerun with one family at a
// time; the families with nothing to scale on its machine (remote memory and
// SMT sharing are off by default) are not run; each rerun scales its family
// alone (the same ratio as a run with only that family's costs changed by
// hand); a point that holds is not rerun.
func TestFamiliesOfAMiss(t *testing.T) {
	tb := &Table{
		ID: "test", Preset: "tbench-pairs", VaryPath: "tasks.client.count",
		Sets:   []string{"duration=20ms"},
		Before: []string{"policy.select_idle_sibling=v3.6"}, After: []string{"policy.select_idle_sibling=cpu_buddies"},
		Points: []Point{{Label: "miss", Vary: "1", SeedRatio: 100}}, // buddies gain about ×8 here, not ×100
	}
	first, err := Validate([]*Table{tb}, Options{Seeds: []uint64{1}})
	if err != nil {
		t.Fatal(err)
	}
	// A second point whose seed says what the simulator does: it holds.
	tb.Points = append(tb.Points, Point{Label: "hold", Vary: "1", SeedRatio: first[0].Points[0].SimRatio})
	rs, err := Validate([]*Table{tb}, Options{Seeds: []uint64{1}, Sensitivity: []float64{2}, Families: true})
	if err != nil {
		t.Fatal(err)
	}
	miss, hold := rs[0].Points[0], rs[0].Points[1]
	if miss.Verdict.Holds || len(miss.Families) != len(CostFamilies) {
		t.Fatalf("the missed point: holds %v, %d family results", miss.Verdict.Holds, len(miss.Families))
	}
	if !hold.Verdict.Holds || hold.Families != nil {
		t.Errorf("the point that holds (%v): rerun by family %v", hold.Verdict.Holds, hold.Families)
	}
	if sum := Summarize(rs); sum.FamilyRuns != 1 {
		t.Errorf("Summary.FamilyRuns %d, want 1", sum.FamilyRuns)
	}
	for k, fam := range CostFamilies {
		fr := miss.Families[k]
		wantActs := fam.Name != "remote memory" && fam.Name != "SMT sharing"
		if fr.Acts != wantActs {
			t.Errorf("%s: acts %v, want %v", fam.Name, fr.Acts, wantActs)
		}
		if fr.Acts && (len(fr.Ratio) != 1 || len(fr.Holds) != 1) {
			t.Errorf("%s: %d ratios, %d verdicts for one factor", fam.Name, len(fr.Ratio), len(fr.Holds))
		}
	}
	// The C-state family by hand: only the exit latencies doubled.
	opsWithExitsDoubled := func(sets []string) float64 {
		s, err := tb.build(&tb.Points[0], sets, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Config()
		if err != nil {
			t.Fatal(err)
		}
		for i := range cfg.Machine.Costs.IdleStates {
			cfg.Machine.Costs.IdleStates[i].ExitLatency *= 2
		}
		x, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		x.Run()
		return x.Metrics().OpsPerS
	}
	k := -1
	for i, fam := range CostFamilies {
		if fam.Name == "C-state exits" {
			k = i
		}
	}
	want := opsWithExitsDoubled(tb.After) / opsWithExitsDoubled(tb.Before)
	if got := miss.Families[k].Ratio[0]; got != want {
		t.Errorf("C-state exits ×2: %v, by hand %v", got, want)
	}
	if want == miss.SeedRatios[0] {
		t.Errorf("doubling the exits changed nothing (%v): the check above proves nothing", want)
	}
}
