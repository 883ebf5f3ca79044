package render

import (
	"fmt"
	"schedplay/sim"
	"testing"
)

// Every region of every dashboard lies in the stage and no two overlap.
func TestDashRegions(t *testing.T) {
	legend := func(w, f float64) float64 { return LayoutLegend(LegendItems(LegendOptions{}), w, f, nil).H }
	talkLegend := func(w, f float64) float64 { return LayoutLegend(LegendItems(LegendOptions{Talk: true}), w, f, nil).H }
	stages := []Rect{
		{X: 550, Y: 142, W: 626, H: 850},
		{X: 10, Y: 142, W: 1166, H: 850},
		{X: 10, Y: 262, W: 1580, H: 730},
		{W: 1920, H: 1080},
		{W: 1280, H: 720},
		{W: 800, H: 1200},
		// Phones (issue 20): portrait 390x844 and landscape 844x390 with
		// the page's header.
		{X: 10, Y: 79, W: 370, H: 755},
		{X: 10, Y: 50, W: 824, H: 328},
		{X: 10, Y: 130, W: 824, H: 205},  // landscape, talk mode's header and chapters above
		{X: 10, Y: 290, W: 1260, H: 390}, // 1280x720 in talk mode under a three-line chapter caption
		{X: 10, Y: 50, W: 340, H: 600},
	}
	for _, st := range stages {
		for _, o := range []DashOptions{{}, {AB: true}, {AB: true, Stacked: true}, {Talk: true}, {Talk: true, AB: true}} {
			o.LegendH = legend
			if o.Talk {
				o.LegendH = talkLegend
			}
			d := NewDash(st, o)
			name := fmt.Sprintf("%v talk=%v ab=%v stacked=%v", st, o.Talk, o.AB, o.Stacked)
			regions := map[string]Rect{"legend": d.Legend, "machine A": d.Machine[0]}
			if d.NoCharts && !(o.Talk && o.AB && st.H < ShortStage) {
				t.Errorf("%s: charts left out outside the short talk A/B dashboard", name)
			}
			for i, r := range d.Charts {
				if d.NoCharts {
					if r != (Rect{}) {
						t.Errorf("%s: charts left out, but %s is %v", name, ChartTitle(Chart(i)), r)
					}
					continue
				}
				regions[ChartTitle(Chart(i))] = r
				// In talk mode a chart shows its plot, not its title alone.
				if o.Talk && r.H < minChartH(d.Font, d.MinText) {
					t.Errorf("%s: %s only %.0f px tall (its title and caption need %.0f)", name, ChartTitle(Chart(i)), r.H, minChartH(d.Font, d.MinText))
				}
			}
			if o.Talk {
				regions["status"] = d.Status
				if !o.AB {
					regions["log"] = d.Log
				}
			}
			if o.AB {
				regions["machine B"] = d.Machine[1]
				regions["caption A"], regions["caption B"] = d.Caption[0], d.Caption[1]
				regions["diff"] = d.Diff
			}
			phone := st.W < 700 || st.H < ShortStage
			for k, r := range regions {
				if k == "legend" && phone && r.H == 0 {
					continue // left out on a phone (maxLegendShare)
				}
				if k == "log" && st.H < ShortStage && st.W >= 1.3*st.H && r.H == 0 {
					continue // the short dashboard has one only with room to spare
				}
				if k == "log" && st.W < minTalkLogW && r.H == 0 {
					continue // left out on a phone held upright
				}
				if r.W <= 0 || r.H <= 0 {
					t.Errorf("%s: %s is empty: %v", name, k, r)
				}
				if !st.Contains(r) {
					t.Errorf("%s: %s %v outside the stage", name, k, r)
				}
				for k2, r2 := range regions {
					if k < k2 && r.Overlaps(r2) {
						t.Errorf("%s: %s %v overlaps %s %v", name, k, r, k2, r2)
					}
				}
			}
			if d.Font < 11 || (o.Talk && d.Font < TalkMinText) || (o.Talk && d.LegendFont < TalkMinText) {
				t.Errorf("%s: fonts %.1f / %.1f too small", name, d.Font, d.LegendFont)
			}
			// The machine gets the largest share (with A/B, half of it each).
			share := 0.18
			if o.AB {
				share = 0.09
			}
			if a := d.Machine[0].W * d.Machine[0].H; a < st.W*st.H*share {
				t.Errorf("%s: machine A has only %.0f%% of the stage", name, a/(st.W*st.H)*100)
			}
		}
	}
}

func TestLegend(t *testing.T) {
	for _, o := range []LegendOptions{{}, {V38: true}, {Compact: true}, {Keys: true}} {
		items := LegendItems(o)
		causes := map[string]bool{}
		for _, it := range items {
			if it.Icon == IconLine {
				causes[it.Text] = true
			}
		}
		if want := int(sim.NumCauses) - 1; len(causes) != want { // every cause but "none"
			t.Errorf("%+v: %d cause lines in the legend, want %d", o, len(causes), want)
		}
		lg := LayoutLegend(items, 600, 13, nil)
		for i, a := range lg.Items {
			ra := Rect{a.X, a.Y, a.W, lg.lineH()}
			if a.X < 0 || a.X+a.W > 600 {
				t.Errorf("%+v: item %q at %.0f+%.0f outside 600 px", o, a.Text, a.X, a.W)
			}
			for _, b := range lg.Items[i+1:] {
				if ra.Overlaps(Rect{b.X, b.Y, b.W, lg.lineH()}) {
					t.Errorf("%+v: legend items %q and %q overlap", o, a.Text, b.Text)
				}
			}
		}
		if lg.H <= 0 || lg.H > 12*lg.lineH() {
			t.Errorf("%+v: legend %.0f px high", o, lg.H)
		}
	}
	has := func(items []LegendItem, text string) bool {
		for _, it := range items {
			if it.Text == text {
				return true
			}
		}
		return false
	}
	if !has(LegendItems(LegendOptions{V38: true}), "runnable_load_avg | blocked_load_avg") || !has(LegendItems(LegendOptions{}), "load_avg: tasks on rq | blocked") {
		t.Errorf("the load bar's legend does not follow the era")
	}
	if !has(LegendItems(LegendOptions{Compact: true}), "top strip: nr_running") || has(LegendItems(LegendOptions{}), "top strip: nr_running") {
		t.Errorf("the compact view's strip is explained only in the compact view")
	}
	// A legend drawn at an origin stays right of and below it.
	lg := LayoutLegend(LegendItems(LegendOptions{}), 500, 14, nil)
	var sc Scene
	lg.Draw(&sc, 100, 200)
	for _, q := range sc.Quads {
		for k := range 4 {
			if q.X[k] < 100-1 || q.Y[k] < 200-1 || q.X[k] > 600+1 || float64(q.Y[k]) > 200+lg.H+1 {
				t.Fatalf("legend quad %v outside %v", q, Rect{100, 200, 500, lg.H})
			}
		}
	}
}

// TestShortTalkExplains: talk mode's explanations stay on a short stage
// with room for them: at 1280x720 under a three-line chapter caption a
// chapter paused on a move showed the move and no word of why. A phone
// held sideways keeps its machine instead.
func TestShortTalkExplains(t *testing.T) {
	projector := NewDash(Rect{X: 10, Y: 290, W: 1260, H: 390}, DashOptions{Talk: true})
	if projector.Log.H == 0 {
		t.Errorf("1280x720 under a three-line caption: no explanations")
	}
	if projector.Machine[0].H < shortLogMachineH {
		t.Errorf("1280x720: the machine is %.0f px tall", projector.Machine[0].H)
	}
	phone := NewDash(Rect{X: 10, Y: 130, W: 824, H: 205}, DashOptions{Talk: true})
	if phone.Log.H != 0 {
		t.Errorf("a phone held sideways: explanations %v take the machine's room", phone.Log)
	}
}
