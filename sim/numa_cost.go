package sim

// Remote memory on a NUMA machine (Costs.RemoteMemPct, docs/costs.md).
//
// Where a task's memory lives: Linux allocates a page on the node of the CPU
// that first touches it (the default local policy: alloc_pages() from
// numa_node_id(), 2.6.8's __alloc_pages() zonelist of the current node, and
// MPOL_DEFAULT in later kernels). So
//
//   - a task the scenario starts has its memory on the node of the CPU it
//     first runs on (first touch);
//   - a forked task's memory is on the node of the CPU that forked it:
//     copy_process() runs there, dup_task_struct() allocates the task_struct
//     and the kernel stack there, and the files, pipes and COW-shared pages
//     it inherits are its parent's;
//   - exec replaces the user image, which is first touched where the task
//     lands (sched_balance_exec()/sched_exec() move it before the new mm is
//     set up, so no cache refill is charged: process.go), so the task's home
//     node becomes the landing CPU's; its kernel stack, task_struct and the
//     files and pipes it inherited stay on the forking node and are not
//     charged (one home node per task; sim/doc.go lists the simplification);
//   - nothing migrates pages afterwards (no NUMA balancing: sim/doc.go).
//
// The charge: a task running on a node other than its home node pays
// RemoteMemPct percent more CPU time for each run step begun there, scaled
// by the node distance above LOCAL_DISTANCE (node_distance() of the two
// nodes: the machine's table, or REMOTE_DISTANCE 20 when it has none), so
// RemoteMemPct is the slowdown at REMOTE_DISTANCE and a node at distance 30
// costs twice as much. A step that begins on the home node pays nothing,
// even if the task is moved during it; one that begins away pays its whole
// surcharge (the charge is per run step, the step's length known when it
// starts). RemoteMemPct 0 switches the model off.
//
// DefaultCosts() leaves RemoteMemPct at 0 (off). The derivation, s × (R −
// 1) with a 5 % share s of run time waiting on local memory: 3 % for the
// default Nehalem/Westmere model (R = 100 ns ÷ 60 ns), 45 % for the
// NUMA-Q of seed 004 (R ≈ 10), which its presets set; docs/costs.md.

// firstTouch gives p a home node if it has none: the node of cpu, where it
// runs first.
func (s *Sim) firstTouch(p *Task, cpu int) {
	if p.homeNode < 0 {
		p.homeNode = s.topo.CPU[cpu].Node
	}
}

// nodeDistance is node_distance() between nodes na and nb (topology indices).
func (s *Sim) nodeDistance(na, nb int) int {
	if na == nb {
		return LocalDistance
	}
	if t := s.topo; t.NodeDist != nil && na < len(t.NodeDist) && nb < len(t.NodeDist[na]) {
		return t.NodeDist[na][nb]
	}
	return RemoteDistance
}

// remoteMem returns the surcharge of a run step of d ns that p begins on
// cpu: d × RemoteMemPct/100 × (distance − 10)/(20 − 10) when cpu is not on
// p's home node, 0 otherwise. It accounts the surcharge in the cost
// breakdown.
func (s *Sim) remoteMem(p *Task, cpu int, d int64) int64 {
	pct := s.costs.RemoteMemPct
	if pct <= 0 || p.homeNode < 0 || d <= 0 {
		return 0
	}
	node := s.topo.CPU[cpu].Node
	if node == p.homeNode {
		return 0
	}
	dist := s.nodeDistance(p.homeNode, node)
	extra := d * int64(pct) * int64(dist-LocalDistance) / (100 * (RemoteDistance - LocalDistance))
	s.m.cost.remoteMem += extra
	return extra
}
