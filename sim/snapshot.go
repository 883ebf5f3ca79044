package sim

// SnapshotInto refills snap with the machine's state, reusing its slices.
func (s *Sim) SnapshotInto(snap *Snapshot) {
	snap.Now = s.now
	snap.NoPELT = s.era.noPELT
	snap.CPUScheduler = s.cpuSchedulerName()
	if cap(snap.CPUs) < len(s.cpus) {
		snap.CPUs = make([]CPUSnap, len(s.cpus))
	}
	snap.CPUs = snap.CPUs[:len(s.cpus)]
	for i, rq := range s.cpus {
		c := &snap.CPUs[i]
		q := c.Queue[:0]
		c.Curr = -1
		if rq.curr != nil {
			c.Curr = rq.curr.id
		}
		for _, t := range s.pickOrder(rq) {
			q = append(q, t.id)
		}
		c.Queue = q
		s.snapO1(rq, c)
		c.Waking = rq.ttwuPending
		c.IdleState, c.IdleFor, c.Exiting = -1, 0, rq.exiting
		if rq.idle {
			c.IdleFor = s.now - rq.idleSince
			c.IdleState = s.idleStateOf(rq, c.IdleFor)
		} else if rq.exiting {
			c.IdleState = rq.exitState
		}
		c.NrRunning = rq.nrRunning
		c.UtilAvg = int64(rq.cfsAvg.UtilAvg)
		c.RunnableAvg = int64(rq.cfsAvg.RunnableAvg)
		c.LoadAvg = int64(rq.cfsAvg.LoadAvg)
		c.LoadWeight = int64(rq.loadWeight)
		c.RunnableLoadAvg = int64(rq.runnableLoadAvg)
		c.BlockedLoadAvg = int64(rq.blockedLoadAvg)
		for k := range c.CPULoad {
			c.CPULoad[k] = int64(rq.cpuLoad[k])
		}
	}
	if cap(snap.Tasks) < len(s.tasks) {
		snap.Tasks = make([]TaskSnap, len(s.tasks))
	}
	snap.Tasks = snap.Tasks[:len(s.tasks)]
	for i, t := range s.tasks {
		snap.Tasks[i] = TaskSnap{State: t.state, CPU: int16(t.cpu), Ops: t.ops,
			UtilAvg: int64(t.avg.UtilAvg), LoadAvg: int64(t.avg.LoadAvg)}
	}
}

// pickOrder returns rq's queued tasks in the order they would run, by the
// class's pick key: earliest virtual deadline (EEVDF) or smallest vruntime
// (3.8) first, ties by task id. It allocates into a scratch buffer.
func (s *Sim) pickOrder(rq *RQ) []*Task {
	if s.cfg.Policy.Base == BaseV268 {
		return s.o1PickOrder(rq) // the lists' own order (o1.go)
	}
	out := append(s.orderBuf[:0], rq.queue...)
	key := s.era.class.pickKey
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (key(out[j]) < key(out[j-1]) || (key(out[j]) == key(out[j-1]) && out[j].id < out[j-1].id)); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	s.orderBuf = out
	return out
}
