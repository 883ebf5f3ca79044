package render

import (
	"testing"

	"schedplay/sim"
)

type machineCase struct {
	name string
	m    sim.Machine
}

var machines = []machineCase{
	{"2cpu", sim.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 2, ThreadsPerCore: 1}},
	{"1cpu", sim.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 1, ThreadsPerCore: 1}},
	{"4x10x2-x86", sim.Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 10, ThreadsPerCore: 2, Numbering: sim.NumberX86}},
	{"2s-smt-linear", sim.Machine{Nodes: 1, SocketsPerNode: 2, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 8, ThreadsPerCore: 2}},
	{"arm-clusters", sim.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 2, ClustersPerLLC: 4, CoresPerCluster: 4, ThreadsPerCore: 1}},
	{"256-deep", sim.Machine{Nodes: 2, SocketsPerNode: 2, LLCsPerSocket: 2, ClustersPerLLC: 4, CoresPerCluster: 4, ThreadsPerCore: 2, Numbering: sim.NumberX86}},
	{"256-flat", sim.Machine{Nodes: 4, SocketsPerNode: 1, LLCsPerSocket: 1, ClustersPerLLC: 1, CoresPerCluster: 64, ThreadsPerCore: 1}},
	{"256-smt4", sim.Machine{Nodes: 1, SocketsPerNode: 1, LLCsPerSocket: 8, ClustersPerLLC: 1, CoresPerCluster: 8, ThreadsPerCore: 4}},
}

var stages = []Rect{
	{X: 0, Y: 0, W: 1200, H: 900},
	{X: 40, Y: 120, W: 1180, H: 780},
	{X: 0, Y: 0, W: 640, H: 480},
	{X: 0, Y: 0, W: 500, H: 1000},
}

func topo(t *testing.T, m sim.Machine) *sim.Topology {
	t.Helper()
	tp, err := sim.NewTopology(&m)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// coordinate returns the index of kind k in CPU coordinates c.
func coordinate(c sim.CPUTopo, k Kind) int {
	switch k {
	case KindNode:
		return c.Node
	case KindSocket:
		return c.Socket
	case KindLLC:
		return c.LLC
	case KindCluster:
		return c.Cluster
	case KindCore:
		return c.Core
	}
	return -1
}

func TestLayoutInvariants(t *testing.T) {
	for _, mc := range machines {
		for _, st := range stages {
			tp := topo(t, mc.m)
			l, err := NewLayout(tp, st, nil)
			if err != nil {
				t.Fatalf("%s in %v: %v", mc.name, st, err)
			}
			checkLayout(t, mc.name, tp, l)
		}
	}
}

func checkLayout(t *testing.T, name string, tp *sim.Topology, l *Layout) {
	t.Helper()
	if len(l.Cells) != tp.NCPU {
		t.Fatalf("%s: %d cells for %d CPUs", name, len(l.Cells), tp.NCPU)
	}
	for cpu, c := range l.Cells {
		if c.CPU != cpu {
			t.Fatalf("%s: cell %d says cpu %d (CPU without a cell)", name, cpu, c.CPU)
		}
		if c.W < 8 || c.H < 8 {
			t.Errorf("%s: cpu%d cell is %.1fx%.1f", name, cpu, c.W, c.H)
		}
		if !l.Stage.Contains(c.Rect) {
			t.Errorf("%s: cpu%d cell %v outside the stage %v", name, cpu, c.Rect, l.Stage)
		}
		parts := []Rect{c.Band, c.Run, c.Queue, c.Util, c.Runnable, c.Load}
		for i, part := range parts {
			if !c.Rect.Contains(part) {
				t.Errorf("%s: cpu%d part %v outside its cell %v", name, cpu, part, c.Rect)
			}
			for _, o := range parts[i+1:] {
				if part.Overlaps(o) {
					t.Errorf("%s: cpu%d interior parts %v and %v overlap", name, cpu, part, o)
				}
			}
			if i >= 3 && (part.H < 1 || part.W < c.W/2) {
				t.Errorf("%s: cpu%d PELT bar %v too small", name, cpu, part)
			}
		}
		// The full view only in cells of at least CompactBelow whose run
		// block is at least minRun tall; the heat view in smaller ones,
		// never in a cell twice CompactBelowH tall.
		if !l.Compact && (c.W < CompactBelowW || c.H < CompactBelowH || c.Run.H < minRun) {
			t.Errorf("%s: cell %.0fx%.0f, run block %.0f px tall, in the full view", name, c.W, c.H, c.Run.H)
		}
		if l.Compact && c.W >= CompactBelowW && c.H >= 2*CompactBelowH {
			t.Errorf("%s: cell %.0fx%.0f in the compact view", name, c.W, c.H)
		}
		for i := 0; i < l.QueueCols*l.QueueRows; i++ {
			if s := l.QueueSlot(&c, i); !c.Queue.Contains(s) {
				t.Errorf("%s: cpu%d queue slot %d %v outside %v", name, cpu, i, s, c.Queue)
			}
		}
		if c.Label == "" && !l.Compact {
			t.Errorf("%s: cpu%d has no label", name, cpu)
		}
		// Ancestors: contain the cell, one per expected kind, with the CPU's coordinates.
		var seen uint8
		for _, bi := range l.Ancestors(cpu) {
			b := &l.Boxes[bi]
			if !b.Contains(c.Rect) {
				t.Errorf("%s: cpu%d cell %v not inside its box %v (%s)", name, cpu, c.Rect, b.Rect, b.Label)
			}
			for k := Kind(0); k < numKinds; k++ {
				if !b.Is(k) {
					continue
				}
				seen |= 1 << k
				if want := coordinate(tp.CPU[cpu], k); b.Index != want {
					t.Errorf("%s: cpu%d is in %s %d, box says %d", name, cpu, k, want, b.Index)
				}
			}
		}
		want := uint8(1<<KindNode | 1<<KindSocket | 1<<KindLLC)
		if tp.HasClusters {
			want |= 1 << KindCluster
		}
		if tp.NCPU/tp.Cores > 1 {
			want |= 1 << KindCore
		}
		if seen != want {
			t.Errorf("%s: cpu%d enclosed by kinds %05b, want %05b", name, cpu, seen, want)
		}
	}
	for i := range l.Cells {
		for j := i + 1; j < len(l.Cells); j++ {
			if l.Cells[i].Overlaps(l.Cells[j].Rect) {
				t.Fatalf("%s: cells of cpu%d %v and cpu%d %v overlap", name, i, l.Cells[i].Rect, j, l.Cells[j].Rect)
			}
		}
	}
	for i := range l.Boxes {
		b := &l.Boxes[i]
		if !l.Stage.Contains(b.Rect) {
			t.Errorf("%s: box %d %v outside the stage", name, i, b.Rect)
		}
		if b.Parent >= 0 && !l.Boxes[b.Parent].Contains(b.Rect) {
			t.Errorf("%s: box %d %v outside its parent %v", name, i, b.Rect, l.Boxes[b.Parent].Rect)
		}
		if b.Parent >= i {
			t.Errorf("%s: box %d listed before its parent %d", name, i, b.Parent)
		}
		if b.Label != "" && ApproxMeasure(b.Label, l.BoxFont) > b.W {
			t.Errorf("%s: label %q wider than its box", name, b.Label)
		}
		for j := i + 1; j < len(l.Boxes); j++ {
			if l.Boxes[j].Parent == b.Parent && b.Overlaps(l.Boxes[j].Rect) {
				t.Errorf("%s: sibling boxes %d and %d overlap", name, i, j)
			}
		}
		// A box's label band holds no cell.
		if b.Label != "" {
			band := Rect{b.X, b.Y, b.W, b.LabelY - b.Y + l.BoxFont/2}
			for _, c := range l.Cells {
				if band.Overlaps(c.Rect) {
					t.Errorf("%s: cell cpu%d covers the label of box %q", name, c.CPU, b.Label)
					break
				}
			}
		}
	}
}

func TestLayoutCellSizes(t *testing.T) {
	stage := Rect{W: 1200, H: 900}
	for _, tc := range []struct {
		name       string
		minW, minH float64
	}{
		{"2cpu", 200, 200},
		{"4x10x2-x86", 55, 55},
		{"256-deep", 30, 30},
		{"256-flat", 35, 35},
	} {
		var m sim.Machine
		for _, mc := range machines {
			if mc.name == tc.name {
				m = mc.m
			}
		}
		l, err := NewLayout(topo(t, m), stage, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := l.Cells[0]
		t.Logf("%s: cell %.0fx%.0f, %d boxes, fonts box %.1f cell %.1f task %.1f, queue %dx%d of %.0fx%.0f px",
			tc.name, c.W, c.H, len(l.Boxes), l.BoxFont, l.CellFont, l.TaskFont, l.QueueCols, l.QueueRows, l.QueueW, l.QueueH)
		if c.W < tc.minW || c.H < tc.minH {
			t.Errorf("%s: cells %.0fx%.0f, want at least %.0fx%.0f", tc.name, c.W, c.H, tc.minW, tc.minH)
		}
		if l.CellFont < 10 || l.BoxFont < 12 {
			t.Errorf("%s: fonts too small to read: box %.1f cell %.1f", tc.name, l.BoxFont, l.CellFont)
		}
	}
}

// The layout should use the stage: the machine's bounding box fills it in at
// least one dimension, unless the cells hit their maximum size.
func TestLayoutFillsStage(t *testing.T) {
	for _, mc := range machines {
		stage := Rect{W: 1200, H: 900}
		l, err := NewLayout(topo(t, mc.m), stage, nil)
		if err != nil {
			t.Fatal(err)
		}
		minX, minY, maxX, maxY := 1e9, 1e9, -1e9, -1e9
		for _, c := range l.Cells {
			minX, minY = min(minX, c.X), min(minY, c.Y)
			maxX, maxY = max(maxX, c.Right()), max(maxY, c.Bottom())
		}
		fillW, fillH := (maxX-minX)/stage.W, (maxY-minY)/stage.H
		c := l.Cells[0]
		capped := c.W >= maxCellW-1e-6 || c.H >= maxCellH-1e-6
		if max(fillW, fillH) < 0.8 && !capped {
			t.Errorf("%s: cells fill only %.0f%% x %.0f%% of the stage", mc.name, fillW*100, fillH*100)
		}
	}
}

func TestLayoutX86Siblings(t *testing.T) {
	tp := topo(t, machines[2].m) // 4x10x2, x86 numbering
	l, err := NewLayout(tp, Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// cpu0 and cpu40 are the two threads of core 0: same core box, side by side.
	if l.Cells[0].Box != l.Cells[40].Box || !l.Boxes[l.Cells[0].Box].Is(KindCore) {
		t.Fatalf("cpu0 and cpu40 are not in the same core box")
	}
	if l.Cells[0].Box == l.Cells[1].Box {
		t.Fatalf("cpu0 and cpu1 share a core box; they are different cores")
	}
	// Four node boxes, labelled by node.
	nodes := 0
	for _, b := range l.Boxes {
		if b.Is(KindNode) {
			nodes++
			if b.Label == "" || b.Label[:4] != "node" {
				t.Errorf("node box labelled %q", b.Label)
			}
		}
	}
	if nodes != 4 {
		t.Errorf("%d node boxes, want 4", nodes)
	}
}

func TestLayoutMergedLabels(t *testing.T) {
	l, err := NewLayout(topo(t, machines[0].m), Rect{W: 1200, H: 900}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2 CPUs, one of everything: a single box for node, socket and L3.
	if len(l.Boxes) != 1 {
		t.Fatalf("%d boxes, want 1 merged box", len(l.Boxes))
	}
	if got, want := l.Boxes[0].Label, "node 0 · socket 0 · L3"; got != want {
		t.Errorf("label %q, want %q", got, want)
	}
}

func TestLayoutTooSmall(t *testing.T) {
	if _, err := NewLayout(topo(t, machines[5].m), Rect{W: 60, H: 40}, nil); err == nil {
		t.Fatal("a 256-CPU machine in 60x40 px should not lay out")
	}
	for _, st := range []Rect{{W: 100, H: -300}, {W: 0, H: 100}, {W: -1, H: -1}} {
		if _, err := NewLayout(topo(t, machines[0].m), st, nil); err == nil {
			t.Errorf("a stage of %v laid out", st)
		}
	}
}

func TestFitParts(t *testing.T) {
	parts := []string{"node 0", "socket 0", "L3"}
	for _, tc := range []struct {
		w    float64
		want string
	}{
		{1000, "node 0 · socket 0 · L3"},
		{ApproxMeasure("node 0 · socket 0", 10), "node 0 · socket 0"},
		{ApproxMeasure("node 0", 10), "node 0"},
		{ApproxMeasure("node…", 10), "node…"},
		{1, ""},
	} {
		if got := fitParts(ApproxMeasure, 10, tc.w, parts); got != tc.want {
			t.Errorf("fitParts(w=%.0f) = %q, want %q", tc.w, got, tc.want)
		}
	}
}

func TestTaskLabels(t *testing.T) {
	got := taskLabels("client/12")
	want := []string{"client/12", "cli/12", "c/12", "12"}
	if len(got) != len(want) {
		t.Fatalf("taskLabels = %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("taskLabels = %q, want %q", got, want)
		}
	}
	if s := fit(ApproxMeasure, 10, ApproxMeasure("c/12", 10), got...); s != "c/12" {
		t.Errorf("fit chose %q", s)
	}
}

func TestWrap(t *testing.T) {
	m := func(s string, size float64) float64 { return float64(len([]rune(s))) * size }
	for _, tc := range []struct {
		s    string
		w    float64
		want []string
	}{
		{"a bb ccc", 10, []string{"a bb ccc"}},
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"abcdefg hi", 3, []string{"abc", "def", "g", "hi"}},
		{"abc", 0, nil},
		{"abc", -5, nil},
		{"", 10, nil},
	} {
		got := Wrap(m, tc.s, 1, tc.w)
		if len(got) != len(tc.want) {
			t.Errorf("Wrap(%q, %v) = %q, want %q", tc.s, tc.w, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Wrap(%q, %v) = %q, want %q", tc.s, tc.w, got, tc.want)
				break
			}
		}
	}
}
