package render

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/sim"
)

// irregularMachines are machines given per CPU that the regular form cannot
// hold.
func irregularMachines() map[string]sim.Machine {
	out := map[string]sim.Machine{}
	// EPYC 7451 x2 in NPS4: 8 nodes of 6 cores (two 3-core CCXs), SMT2,
	// thread 1 of core k is cpu k+48.
	var epyc sim.Machine
	for c := range 96 {
		core := c % 48
		epyc.CPUs = append(epyc.CPUs, sim.CPUPlace{ID: c, Core: core, Cluster: -1, LLC: core / 3, Socket: core / 24, Node: core / 6})
	}
	out["epyc-nps4"] = epyc
	// Core i7-1260P: 4 P-cores with HT, 8 E-cores in two L2 clusters.
	var hybrid sim.Machine
	for c := range 16 {
		core, cl := c/2, c/2
		if c >= 8 {
			core, cl = c-4, 4+(c-8)/4
		}
		hybrid.CPUs = append(hybrid.CPUs, sim.CPUPlace{ID: c, Core: core, Cluster: cl, LLC: 0})
	}
	out["hybrid"] = hybrid
	// Sub-NUMA clustering: a socket of two nodes of different sizes, and
	// offline CPUs 5 and 6.
	var snc sim.Machine
	for _, c := range []int{0, 1, 2, 3, 4, 7, 8, 9} {
		node := 0
		if c >= 4 {
			node = 1
		}
		snc.CPUs = append(snc.CPUs, sim.CPUPlace{ID: c, Core: c, Cluster: -1, LLC: 0, Socket: 0, Node: node})
	}
	out["snc-offline"] = snc
	// POWER9: nodes 0 and 8, SMT4.
	var p9 sim.Machine
	for c := range 32 {
		node := 0
		if c >= 16 {
			node = 8
		}
		p9.CPUs = append(p9.CPUs, sim.CPUPlace{ID: c, Core: c / 4, Cluster: -1, LLC: c / 8, Socket: node / 8, Node: node})
	}
	out["power9"] = p9
	for k, m := range out {
		m.HZ = 1000
		out[k] = m
	}
	return out
}

// TestLayoutIrregular: every CPU of a machine given per CPU has a cell in
// the stage, inside the boxes of its own node, LLC and core, labelled with
// its kernel number; no two cells overlap; boxes nest.
func TestLayoutIrregular(t *testing.T) {
	for name, m := range irregularMachines() {
		tp, err := sim.NewTopology(&m)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []Rect{{W: 1200, H: 900}, {W: 700, H: 500}, {W: 2400, H: 1350}} {
			l, err := NewLayout(tp, st, nil)
			if err != nil {
				t.Fatalf("%s in %v: %v", name, st, err)
			}
			for cpu, c := range l.Cells {
				if c.CPU != cpu || c.W < 8 || !l.Stage.Contains(c.Rect) {
					t.Fatalf("%s: cpu%d cell %+v", name, cpu, c.Rect)
				}
				if !l.Compact && c.Label != fmt.Sprintf("cpu%d", tp.Label(cpu)) && c.Label != fmt.Sprint(tp.Label(cpu)) {
					t.Errorf("%s: cell %d labelled %q, want the kernel's cpu%d", name, cpu, c.Label, tp.Label(cpu))
				}
				for _, bi := range l.Ancestors(cpu) {
					b := &l.Boxes[bi]
					if !b.Contains(c.Rect) {
						t.Errorf("%s: cpu%d not inside its box %s", name, cpu, b.Label)
					}
					want := map[Kind]int{KindNode: tp.CPU[cpu].Node, KindLLC: tp.CPU[cpu].LLC, KindCore: tp.CPU[cpu].Core}
					for k, id := range want {
						if b.Is(k) && b.Kinds&^(1<<k) == 0 && b.Index != id {
							t.Errorf("%s: cpu%d in %s %d, its box says %d", name, cpu, k, id, b.Index)
						}
					}
					if b.Is(KindNode) && !strings.Contains(b.Label, fmt.Sprintf("node %d", tp.NodeID[tp.CPU[cpu].Node])) && b.Label != "" && !strings.HasSuffix(b.Label, "…") {
						t.Errorf("%s: cpu%d (node %d) drawn in box %q", name, cpu, tp.NodeID[tp.CPU[cpu].Node], b.Label)
					}
				}
				for j := cpu + 1; j < len(l.Cells); j++ {
					if c.Overlaps(l.Cells[j].Rect) {
						t.Fatalf("%s: cells %d and %d overlap", name, cpu, j)
					}
				}
			}
			for i, b := range l.Boxes {
				if b.Parent >= 0 && !l.Boxes[b.Parent].Contains(b.Rect) {
					t.Errorf("%s: box %d (%s) outside its parent", name, i, b.Label)
				}
			}
		}
	}
}
