package sim

// TaskState is where a task is.
type TaskState uint8

const (
	TaskUnborn   TaskState = iota // not forked yet
	TaskRunning                   // on a CPU
	TaskRunnable                  // queued on a runqueue, waiting
	TaskWaking                    // placed, in flight to its CPU (IPI, idle exit)
	TaskBlocked                   // sleeping, waiting for a timer or a wake
	TaskExited
)

var taskStateNames = []string{"unborn", "running", "runnable", "waking", "blocked", "exited"}

func (s TaskState) String() string {
	if int(s) < len(taskStateNames) {
		return taskStateNames[s]
	}
	return "?"
}

// TaskInfo is the static description of one task instance.
type TaskInfo struct {
	ID    int
	Name  string // "group/index"
	Group int
	Index int
	Nice  int
}

// CPUSnap is one CPU at the snapshot's time.
type CPUSnap struct {
	Curr      int32   // running task id, -1 = idle
	Queue     []int32 // queued tasks in pick order (not including Curr)
	Waking    int     // wake-ups in flight to this CPU
	Exiting   bool    // leaving an idle state (work arrived; IdleState is the state being left)
	IdleState int     // index into Costs.IdleStates of the current C-state (or the one being left), -1 = not idle
	IdleFor   int64   // ns idle so far (0 when busy)
	NrRunning int
	// PELT signals of the CPU's cfs_rq (v6.17 arithmetic), 0..1024 scale.
	UtilAvg     int64
	RunnableAvg int64
	LoadAvg     int64 // includes blocked load
	// v3.8 metrics.
	LoadWeight      int64 // rq->load.weight
	RunnableLoadAvg int64
	BlockedLoadAvg  int64
	CPULoad         [5]int64 // cpu_load[0..4]
	// v2.6.8 (snapO1 in o1.go): the queued tasks' dynamic priorities in
	// Queue's order, the running task's (-1 when idle), and how many of
	// Queue's last tasks wait in the O(1) expired array. Empty in the
	// other eras.
	QueuePrio []int16
	CurrPrio  int16
	Expired   int
}

// TaskSnap is one task at the snapshot's time.
type TaskSnap struct {
	State   TaskState
	CPU     int16 // current or last CPU, -1 if never ran
	Ops     int64
	UtilAvg int64
	LoadAvg int64
}

// Snapshot is a read-only picture of the machine. Front ends keep one and
// refill it with SnapshotInto to avoid allocating per frame.
type Snapshot struct {
	Now   int64
	CPUs  []CPUSnap
	Tasks []TaskSnap
	// NoPELT: the era tracks no per-entity load (v2.6.8); the PELT fields
	// are zero and must not be drawn.
	NoPELT bool
	// CPUScheduler is v2.6.8's runqueue ("o1" or "staircase"); "" in the
	// other eras.
	CPUScheduler string
}
