package render

import (
	"strconv"

	"schedplay/sim"
)

// Machines given per CPU (sim.Topology.Irregular) need not be regular:
// nodes of different sizes, sockets spanning nodes, cores with different
// thread counts, offline CPUs. They are drawn as the tree they are: every
// level's grid is sized for the largest fan at that level (solve() as for
// a regular machine), and each box holds the children it has, leaving the
// rest of its grid empty. Cells are labelled with the kernel's CPU numbers.

// tnode is one item of the machine tree: a node, socket, LLC, cluster or
// core (id: its dense index in the topology), or a CPU (cpu >= 0).
type tnode struct {
	id   int
	cpu  int
	kids []*tnode
}

// irregularTree builds the machine tree, top-down: node, socket, LLC,
// cluster (when the machine has clusters), core (when some core has more
// than one thread), CPU. Children are in order of their first CPU.
func irregularTree(t *sim.Topology) (root *tnode, kinds []Kind) {
	kinds = []Kind{KindNode, KindSocket, KindLLC}
	if t.HasClusters {
		kinds = append(kinds, KindCluster)
	}
	if t.MaxThreads > 1 {
		kinds = append(kinds, KindCore)
	}
	root = &tnode{cpu: -1}
	for cpu, c := range t.CPU {
		ids := []int{c.Node, c.Socket, c.LLC}
		if t.HasClusters {
			ids = append(ids, c.Cluster)
		}
		if t.MaxThreads > 1 {
			ids = append(ids, c.Core)
		}
		n := root
		for _, id := range ids {
			var next *tnode
			for _, k := range n.kids {
				if k.id == id {
					next = k
					break
				}
			}
			if next == nil {
				next = &tnode{id: id, cpu: -1}
				n.kids = append(n.kids, next)
			}
			n = next
		}
		n.kids = append(n.kids, &tnode{id: cpu, cpu: cpu})
	}
	return root, kinds
}

// irregularLevels are the drawn levels of the tree (as levels() for a
// regular machine: a tree level whose every parent has one child is merged
// into its parent's box) and, per drawn level, how many tree levels it
// stands for.
func irregularLevels(root *tnode, kinds []Kind) ([]level, []int) {
	depth := len(kinds) + 1 // the CPU level last
	maxFan := make([]int, depth)
	var walk func(n *tnode, d int)
	walk = func(n *tnode, d int) {
		if d == depth {
			return
		}
		maxFan[d] = max(maxFan[d], len(n.kids))
		for _, k := range n.kids {
			walk(k, d+1)
		}
	}
	walk(root, 0)
	var out []level
	var spans []int
	for d, kind := range kinds {
		fan := maxFan[d]
		if d == 0 || fan > 1 {
			lv := level{kinds: 1 << kind, fan: fan, core: kind == KindCore}
			if kind != KindCore {
				lv.parts = []Kind{kind}
			}
			out = append(out, lv)
			spans = append(spans, 1)
			continue
		}
		last := &out[len(out)-1]
		last.kinds |= 1 << kind
		if kind != KindCore {
			last.parts = append(last.parts, kind)
		}
		spans[len(spans)-1]++
	}
	out = append(out, level{fan: maxFan[depth-1], isCell: true})
	spans = append(spans, 1)
	return out, spans
}

// placeTree lays out the tree items nodes at drawn level j.
func (b *builder) placeTree(j int, nodes []*tnode, spans []int, kinds []Kind, kindAt int, x, y float64, parentBox int) {
	lv := &b.lvs[j]
	cols := b.sol.cols[j]
	g := gapOf(b.lvs, j, b.d)
	w, h := b.sol.boxW[j], b.sol.boxH[j]
	for i, n := range nodes {
		r := Rect{X: x + float64(i%cols)*(w+g), Y: y + float64(i/cols)*(h+g), W: w, H: h}
		if lv.isCell {
			b.l.Cells[n.cpu] = Cell{Rect: r, CPU: n.cpu, Box: parentBox}
			continue
		}
		pad, band := lv.pad(b.d)
		box := Box{Rect: r, Kinds: lv.kinds, Index: n.id, Parent: parentBox}
		if parentBox >= 0 {
			box.Depth = b.l.Boxes[parentBox].Depth + 1
		}
		// The chain of tree items this box stands for.
		chain := n
		var parts []string
		for s := 0; s < spans[j]; s++ {
			if s > 0 {
				chain = chain.kids[0]
			}
			if k := kinds[kindAt+s]; k != KindCore {
				parts = append(parts, b.treeLabel(k, chain.id))
			}
		}
		if band > 0 {
			box.Label = fitParts(b.measure, b.d.boxFont, w-2*pad, parts)
			box.LabelX = r.X + pad
			box.LabelY = r.Y + pad + band/2
		}
		b.l.Boxes = append(b.l.Boxes, box)
		b.placeTree(j+1, chain.kids, spans, kinds, kindAt+spans[j], r.X+pad, r.Y+pad+band, len(b.l.Boxes)-1)
	}
}

// treeLabel names a tree item: nodes by the kernel's node number.
func (b *builder) treeLabel(k Kind, id int) string {
	if k == KindNode && b.topo != nil && id < len(b.topo.NodeID) {
		return "node " + strconv.Itoa(b.topo.NodeID[id])
	}
	return b.itemLabel(k, id)
}

// irregularLayout finishes NewLayoutWith for a machine given per CPU.
func irregularLayout(t *sim.Topology, stage Rect, measure Measure, o LayoutOptions) (*Layout, error) {
	root, kinds := irregularTree(t)
	lvs, spans := irregularLevels(root, kinds)
	l, b, sol, err := solveLayout(t, lvs, stage, measure, o)
	if err != nil {
		return nil, err
	}
	b.topo = t
	b.llcLabelIndex = t.LLCs > 1
	ox := stage.X + (stage.W-sol.totalW)/2
	oy := stage.Y + (stage.H-sol.totalH)/2
	b.placeTree(0, root.kids, spans, kinds, 0, ox, oy, -1)
	b.cellInteriors()
	// Cells carry the kernel's CPU numbers.
	for i := range l.Cells {
		c := &l.Cells[i]
		if c.Label != "" {
			id := strconv.Itoa(t.Label(c.CPU))
			c.Label = fit(b.measure, l.CellFont, c.Run.W, "cpu"+id, id)
			if l.Compact {
				c.Label = id // the heat view's blocks carry the number alone
			}
		}
	}
	return l, nil
}
