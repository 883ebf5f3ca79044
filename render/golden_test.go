package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		bad := path + ".bad"
		os.WriteFile(bad, []byte(got), 0o644)
		t.Errorf("%s differs from the golden file; the new output is in %s (diff them; -update accepts it)", path, bad)
	}
}

func rs(r Rect) string { return fmt.Sprintf("%.1f,%.1f %.1fx%.1f", r.X, r.Y, r.W, r.H) }

// dumpLayout writes a layout as text: fonts, boxes, cells.
func dumpLayout(l *Layout) string {
	var b strings.Builder
	fmt.Fprintf(&b, "stage %s compact=%v\n", rs(l.Stage), l.Compact)
	fmt.Fprintf(&b, "fonts box=%.1f cell=%.1f task=%.1f queue=%.1f bar=%.1f\n", l.BoxFont, l.CellFont, l.TaskFont, l.QueueFont, l.BarFont)
	fmt.Fprintf(&b, "queue %dx%d slots of %.1fx%.1f gap %.1f\n", l.QueueCols, l.QueueRows, l.QueueW, l.QueueH, l.QueueGap)
	for i, bx := range l.Boxes {
		var kinds []string
		for k := Kind(0); k < numKinds; k++ {
			if bx.Is(k) {
				kinds = append(kinds, k.String())
			}
		}
		fmt.Fprintf(&b, "box %d %s #%d depth %d parent %d %s %q\n", i, strings.Join(kinds, "+"), bx.Index, bx.Depth, bx.Parent, rs(bx.Rect), bx.Label)
	}
	if len(l.Cells) > 0 {
		c := l.Cells[0]
		fmt.Fprintf(&b, "cell0 band %s run %s queue %s util %s runnable %s load %s\n", rs(c.Band), rs(c.Run), rs(c.Queue), rs(c.Util), rs(c.Runnable), rs(c.Load))
	}
	for _, c := range l.Cells {
		fmt.Fprintf(&b, "cpu%d box %d %s %q\n", c.CPU, c.Box, rs(c.Rect), c.Label)
	}
	return b.String()
}

// Golden layouts: a change in how machines are laid out shows up as a diff
// to read, not as a silent shift.
func TestGoldenLayouts(t *testing.T) {
	for _, tc := range []struct {
		machine string
		stage   Rect
		opts    LayoutOptions
	}{
		{"2cpu", Rect{W: 1150, H: 600}, LayoutOptions{}},
		{"4x10x2-x86", Rect{X: 10, Y: 58, W: 1150, H: 560}, LayoutOptions{}},
		{"4x10x2-x86", Rect{X: 10, Y: 300, W: 1100, H: 480}, LayoutOptions{Talk: true}},
		{"arm-clusters", Rect{W: 900, H: 600}, LayoutOptions{LLCSize: "32 MB", L2Size: "2 MB"}},
		{"256-deep", Rect{W: 1150, H: 560}, LayoutOptions{}},
		{"256-smt4", Rect{W: 620, H: 500}, LayoutOptions{}},
	} {
		var mc machineCase
		for _, m := range machines {
			if m.name == tc.machine {
				mc = m
			}
		}
		l, err := NewLayoutWith(topo(t, mc.m), tc.stage, nil, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("layout-%s-%.0fx%.0f", tc.machine, tc.stage.W, tc.stage.H)
		if tc.opts.Talk {
			name += "-talk"
		}
		golden(t, name+".txt", dumpLayout(l))
	}
}

func dumpDash(d Dash) string {
	var b strings.Builder
	fmt.Fprintf(&b, "stage %s font %.1f legend font %.1f\n", rs(d.Stage), d.Font, d.LegendFont)
	for _, kv := range []struct {
		k string
		r Rect
	}{
		{"status", d.Status}, {"caption A", d.Caption[0]}, {"caption B", d.Caption[1]},
		{"machine A", d.Machine[0]}, {"machine B", d.Machine[1]},
		{"ops", d.Charts[ChartOps]}, {"latency", d.Charts[ChartLatency]},
		{"migrations", d.Charts[ChartMigrations]}, {"heat", d.Charts[ChartHeat]},
		{"diff", d.Diff}, {"log", d.Log}, {"legend", d.Legend},
	} {
		if kv.r.W > 0 || kv.r.H > 0 {
			fmt.Fprintf(&b, "%-10s %s\n", kv.k, rs(kv.r))
		}
	}
	return b.String()
}

func TestGoldenDashboards(t *testing.T) {
	legend := func(w, f float64) float64 {
		return LayoutLegend(LegendItems(LegendOptions{}), w, f, nil).H
	}
	var b strings.Builder
	for _, tc := range []struct {
		name  string
		stage Rect
		o     DashOptions
	}{
		{"narrow", Rect{X: 550, Y: 142, W: 626, H: 850}, DashOptions{}},
		{"narrow A/B", Rect{X: 550, Y: 142, W: 626, H: 850}, DashOptions{AB: true}},
		{"narrow A/B stacked", Rect{X: 550, Y: 142, W: 626, H: 850}, DashOptions{AB: true, Stacked: true}},
		{"wide", Rect{X: 10, Y: 142, W: 1166, H: 850}, DashOptions{}},
		{"wide A/B", Rect{X: 10, Y: 142, W: 1166, H: 850}, DashOptions{AB: true}},
		{"talk", Rect{X: 10, Y: 262, W: 1580, H: 730}, DashOptions{Talk: true}},
		{"talk A/B", Rect{X: 10, Y: 262, W: 1580, H: 730}, DashOptions{Talk: true, AB: true}},
		{"talk 1080p", Rect{W: 1920, H: 1080}, DashOptions{Talk: true}},
	} {
		tc.o.LegendH = legend
		if tc.o.Talk {
			tc.o.LegendH = func(w, f float64) float64 {
				return LayoutLegend(LegendItems(LegendOptions{Talk: true}), w, f, nil).H
			}
		}
		fmt.Fprintf(&b, "== %s\n%s", tc.name, dumpDash(NewDash(tc.stage, tc.o)))
	}
	golden(t, "dashboards.txt", b.String())
}
