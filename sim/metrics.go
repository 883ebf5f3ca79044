package sim

// Metrics are the run's results, with the CLI contract's JSON keys. The CLI
// fills Title and WallMS; everything else is computed by the simulator.
type Metrics struct {
	Title                 string         `json:"title"`
	Seed                  uint64         `json:"seed"`
	SimMS                 float64        `json:"sim_ms"`
	WallMS                float64        `json:"wall_ms"`
	Events                int64          `json:"events"`
	Ops                   int64          `json:"ops"`
	OpsPerS               float64        `json:"ops_per_s"`
	BusyPct               float64        `json:"busy_pct"`
	IdleWhileOverloadedMS float64        `json:"idle_while_overloaded_ms"`
	WakeupLatencyUS       Percentiles    `json:"wakeup_latency_us"`
	RunqWaitUS            Percentiles    `json:"runq_wait_us"`
	Migrations            MigrationStats `json:"migrations"`
	CtxSwitches           int64          `json:"ctx_switches"`
	Wakeups               int64          `json:"wakeups"`
	SearchCostMS          float64        `json:"search_cost_ms"`
	CPUsExaminedPerWakeup float64        `json:"cpus_examined_per_wakeup"`
	Tasks                 []TaskMetrics  `json:"tasks"`
	TraceHash             string         `json:"trace_hash"`
}

// Percentiles of a latency distribution, in microseconds.
type Percentiles struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	N    int64   `json:"n"`
}

// MigrationStats counts migrations by cause and by the cache distance crossed.
type MigrationStats struct {
	Total   int64 `json:"total"`
	Wakeup  int64 `json:"wakeup"`
	Balance int64 `json:"balance"`
	Newidle int64 `json:"newidle"`
	Nohz    int64 `json:"nohz"`
	Active  int64 `json:"active"`
	Fork    int64 `json:"fork"`
	SMT     int64 `json:"smt"`
	Cluster int64 `json:"cluster"`
	LLC     int64 `json:"llc"`
	Package int64 `json:"package"`
	NUMA    int64 `json:"numa"`
}

// TaskMetrics are per task instance.
type TaskMetrics struct {
	Name       string  `json:"name"`
	Ops        int64   `json:"ops"`
	CPUMS      float64 `json:"cpu_ms"`
	WaitMS     float64 `json:"wait_ms"`
	Migrations int64   `json:"migrations"`
	UtilAvg    int64   `json:"util_avg"`
	LoadAvg    int64   `json:"load_avg"`
}
