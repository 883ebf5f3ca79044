package sim

// Decisions tested as scripts, in the style of etcd raft's testdata/*.txt
// (cockroachdb/datadriven): each file under testdata/decisions/ builds a
// machine, puts tasks and load where a hand-worked example wants them, runs
// one wake-up, fork or balancing decision, and prints the decision's
// explanation. The printed output is the expectation:
//
//	go test ./sim -run TestDecisionScripts -rewrite
//
// rewrites every expected output from what the simulator says now; read the
// diff before committing it. A file is a sequence of blocks:
//
//	# comments (the hand derivation of the expected decision)
//	command key=value key=value flag
//	----
//	expected output (no blank line inside)
//
// separated by blank lines. The commands and their arguments are documented
// where they are handled, in (*scriptRunner).do. A hand-worked expectation
// is also written as an expect command (expect chosen=1 imbalance=1280),
// which fails the test whatever -rewrite says: rewriting can change how a
// decision is explained, not what a person derived it must be.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs under testdata/: the decision scripts and the golden trace")

// TestDecisionScripts runs every script under testdata/decisions.
func TestDecisionScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/decisions/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scripts under testdata/decisions")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runScriptFile(t, f) })
	}
}

// scriptBlock is one command of a script with its expected output.
type scriptBlock struct {
	pre  []string // comment and blank lines before the command
	cmd  string
	line int // 1-based line of the command
	want string
}

func parseScript(path, text string) ([]scriptBlock, []string, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var blocks []scriptBlock
	var pre []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			pre = append(pre, l)
			continue
		}
		b := scriptBlock{pre: pre, cmd: l, line: i + 1}
		pre = nil
		if i+1 >= len(lines) || lines[i+1] != "----" {
			return nil, nil, fmt.Errorf("%s:%d: %q is not followed by ----", path, i+1, l)
		}
		i += 2
		var out []string
		for ; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		i-- // the blank line (if any) belongs to the next block's preamble
		b.want = strings.Join(out, "\n")
		blocks = append(blocks, b)
	}
	return blocks, pre, nil
}

func runScriptFile(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks, tail, err := parseScript(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	r := &scriptRunner{t: t}
	var b strings.Builder
	for i := range blocks {
		bl := &blocks[i]
		got, err := r.do(bl.cmd)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, bl.line, bl.cmd, err)
		}
		got = strings.TrimRight(got, "\n")
		if strings.Contains(got, "\n\n") {
			t.Fatalf("%s:%d: output has a blank line", path, bl.line)
		}
		if !*rewrite && got != bl.want {
			t.Errorf("%s:%d: %s\n--- want\n%s\n--- got\n%s", path, bl.line, bl.cmd, bl.want, got)
		}
		for _, p := range bl.pre {
			b.WriteString(p + "\n")
		}
		b.WriteString(bl.cmd + "\n----\n")
		if got != "" {
			b.WriteString(got + "\n")
		}
	}
	for _, p := range tail {
		b.WriteString(p + "\n")
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scriptRunner holds the machine a script builds.
type scriptRunner struct {
	t *testing.T
	s *Sim
	// facts of the last decision command, for expect: chosen, the
	// decision's numbers, moved, ok, hot, wide, flips.
	facts map[string]string
}

// noteDecision records a decision's facts for expect.
func (r *scriptRunner) noteDecision(d *Decision) {
	r.facts = map[string]string{"chosen": strconv.Itoa(int(d.Chosen))}
	for i := 0; i < d.NNums; i++ {
		r.facts[d.Nums[i].K] = d.Nums[i].Value()
	}
}

// expect KEY=VALUE ...: each fact of the last decision command has the
// value (chosen=CPU, moved=N, ok=true, hot=false, wide=true, flips=N, or
// any number the decision compared, by its name: imbalance=1280,
// busiest_type=overloaded); on.ID=CPU: task ID is on (or bound for) CPU.
// Prints nothing; a mismatch is an error.
func (r *scriptRunner) expect(a *args) (string, error) {
	var keys []string
	for k := range a.kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		want := a.str(k, "")
		var got string
		if id, ok := strings.CutPrefix(k, "on."); ok {
			n, err := strconv.Atoi(id)
			if err != nil || n < 0 || n >= len(r.s.tasks) {
				return "", fmt.Errorf("%s: no such task", k)
			}
			got = strconv.Itoa(r.s.tasks[n].cpu)
		} else {
			v, ok := r.facts[k]
			if !ok {
				return "", fmt.Errorf("expect %s: the last decision has no %s", k, k)
			}
			got = v
		}
		if got != want {
			return "", fmt.Errorf("expect %s=%s, got %s", k, want, got)
		}
	}
	return "", nil
}

// args are a command's key=value arguments and bare flags.
type args struct {
	kv    map[string]string
	flags map[string]bool
	used  map[string]bool
}

func parseArgs(fields []string) *args {
	a := &args{kv: map[string]string{}, flags: map[string]bool{}, used: map[string]bool{}}
	for _, f := range fields {
		if k, v, ok := strings.Cut(f, "="); ok {
			a.kv[k] = v
		} else {
			a.flags[f] = true
		}
	}
	return a
}

func (a *args) str(k, def string) string {
	a.used[k] = true
	if v, ok := a.kv[k]; ok {
		return v
	}
	return def
}

func (a *args) has(k string) bool {
	a.used[k] = true
	_, ok := a.kv[k]
	return ok
}

func (a *args) flag(k string) bool {
	a.used[k] = true
	return a.flags[k]
}

func (a *args) int(k string, def int) (int, error) {
	v := a.str(k, "")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: not a number", k, v)
	}
	return n, nil
}

// dur reads a duration in ns ("100us", "1ms", "-2ms" or a plain number).
func (a *args) dur(k string) (int64, error) {
	v := a.str(k, "0")
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	mult := int64(1)
	for _, u := range []struct {
		s string
		m int64
	}{{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}} {
		if strings.HasSuffix(v, u.s) {
			v, mult = strings.TrimSuffix(v, u.s), u.m
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration", k, a.kv[k])
	}
	if neg {
		n = -n
	}
	return n * mult, nil
}

// check reports arguments the command did not use (typos).
func (a *args) check() error {
	var bad []string
	for k := range a.kv {
		if !a.used[k] {
			bad = append(bad, k)
		}
	}
	for k := range a.flags {
		if !a.used[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("unknown arguments %v", bad)
	}
	return nil
}

var (
	scriptBases = map[string]Base{"v3.8": BaseV38, "v6.17": BaseV617}
	scriptSIS   = map[string]SIS{"v3.6": SISV36, "v3.8": SISV38, "cpu_buddies": SISBuddies,
		"bottom_up": SISBottomUp, "sis_util": SISUtil, "off": SISOff}
	scriptLoadMetrics = map[string]LoadMetric{"load_weight": LoadWeight, "runnable_load_avg": LoadRunnableAvg,
		"runnable_plus_blocked": LoadRunnablePlusBlocked, "load_avg": LoadAvg}
	scriptIdleTypes = map[string]int{"idle": cpuIdle, "busy": cpuNotIdle, "newidle": cpuNewlyIdle}
)

func (r *scriptRunner) cpus(a *args, k string) ([]int, error) {
	m, err := ParseCPUList(a.str(k, ""), r.s.topo.NCPU)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", k, err)
	}
	var out []int
	for c := m.First(); c >= 0; c = m.Next(c) {
		out = append(out, c)
	}
	return out, nil
}

func (r *scriptRunner) cpu(a *args, k string) (int, error) {
	c, err := a.int(k, -1)
	if err != nil {
		return 0, err
	}
	if c < 0 || c >= r.s.topo.NCPU {
		return 0, fmt.Errorf("%s=%d: no such CPU", k, c)
	}
	return c, nil
}

func (r *scriptRunner) task(a *args, k string) (*Task, error) {
	id, err := a.int(k, -1)
	if err != nil {
		return nil, err
	}
	if id < 0 || id >= len(r.s.tasks) {
		return nil, fmt.Errorf("%s=%d: no such task", k, id)
	}
	return r.s.tasks[id], nil
}

func (r *scriptRunner) domain(a *args, cpu int) (*SchedDomain, error) {
	name := a.str("level", "")
	l, ok := LevelByName(name)
	if !ok {
		return nil, fmt.Errorf("level=%q: no such level", name)
	}
	for _, sd := range r.s.cpus[cpu].domains {
		if sd.Level == l {
			return sd, nil
		}
	}
	return nil, fmt.Errorf("cpu%d has no %s domain", cpu, name)
}

// do runs one command and returns its output.
func (r *scriptRunner) do(line string) (string, error) {
	fields := strings.Fields(line)
	a := parseArgs(fields[1:])
	if fields[0] != "machine" && r.s == nil {
		return "", fmt.Errorf("no machine yet")
	}
	var out string
	var err error
	switch fields[0] {
	case "machine":
		out, err = r.machine(a)
	case "busy", "idle":
		out, err = r.setBusy(a, fields[0] == "busy")
	case "place":
		out, err = r.place(a)
	case "rq":
		out, err = r.rq(a)
	case "task":
		out, err = r.setTask(a)
	case "domain":
		out, err = r.setDomain(a)
	case "now":
		var d int64
		d, err = a.dur("t")
		r.s.now = d
	case "sis":
		out, err = r.sis(a)
	case "select":
		out, err = r.selectRQ(a)
	case "wake_affine":
		out, err = r.wakeAffine(a)
	case "record_wakee":
		out, err = r.recordWakee(a)
	case "wake_wide":
		out, err = r.wakeWide(a)
	case "balance":
		out, err = r.balance(a)
	case "can_migrate":
		out, err = r.canMigrate(a)
	case "newidle":
		out, err = r.newidle(a)
	case "cpus":
		out = r.cpuState()
	case "expect":
		out, err = r.expect(a)
	default:
		return "", fmt.Errorf("unknown command %q", fields[0])
	}
	if err != nil {
		return "", err
	}
	return out, a.check()
}

// machine [base=v6.17|v3.8] [sis=NAME] [load_metric=NAME] [nodes=1] [llcs=1]
// [clusters=1] [cores=4] [threads=1] [numbering=linear|x86] [tasks=6]
// [features=+NAME,-NAME]: a new simulator with the default costs, nothing
// running, every CPU idle for a second; tasks t/0 … t/N-1 (1 ms run steps)
// exist but are not forked. Prints the domains of cpu0.
func (r *scriptRunner) machine(a *args) (string, error) {
	base, ok := scriptBases[a.str("base", "v6.17")]
	if !ok {
		return "", fmt.Errorf("base=%q: v6.17 or v3.8", a.kv["base"])
	}
	p := Policy{Base: base}
	if v := a.str("sis", ""); v != "" {
		if p.SIS, ok = scriptSIS[v]; !ok {
			return "", fmt.Errorf("sis=%q: unknown", v)
		}
	}
	if v := a.str("load_metric", ""); v != "" {
		if p.LoadMetric, ok = scriptLoadMetrics[v]; !ok {
			return "", fmt.Errorf("load_metric=%q: unknown", v)
		}
	}
	if v := a.str("features", ""); v != "" {
		for _, f := range strings.Split(v, ",") {
			ft, ok := FeatureByName(f[1:])
			if !ok || (f[0] != '+' && f[0] != '-') {
				return "", fmt.Errorf("features: %q is not +NAME or -NAME", f)
			}
			if f[0] == '+' {
				p.FeatSet |= 1 << ft
			} else {
				p.FeatClear |= 1 << ft
			}
		}
	}
	m := Machine{HZ: 1000, Costs: DefaultCosts()}
	var err error
	for _, f := range []struct {
		k   string
		p   *int
		def int
	}{{"nodes", &m.Nodes, 1}, {"sockets", &m.SocketsPerNode, 1}, {"llcs", &m.LLCsPerSocket, 1},
		{"clusters", &m.ClustersPerLLC, 1}, {"cores", &m.CoresPerCluster, 4}, {"threads", &m.ThreadsPerCore, 1}} {
		if *f.p, err = a.int(f.k, f.def); err != nil {
			return "", err
		}
	}
	switch a.str("numbering", "linear") {
	case "linear":
	case "x86":
		m.Numbering = NumberX86
	default:
		return "", fmt.Errorf("numbering=%q: linear or x86", a.kv["numbering"])
	}
	n, err := a.int("tasks", 6)
	if err != nil {
		return "", err
	}
	cfg := &Config{Seed: 1, Duration: 1e9, Machine: m, Policy: p,
		Tasks: []TaskGroup{{Name: "t", Count: n, Program: []Step{{Op: OpRun, Dur: 1e6}}}}}
	s, err := New(cfg)
	if err != nil {
		return "", err
	}
	s.SetRecording(true)
	r.s = s
	var b strings.Builder
	fmt.Fprintf(&b, "%d cpus, %s, sis %s, load %s\n", s.topo.NCPU, s.era.name, strings.TrimSuffix(strings.TrimPrefix(s.sisVariant.path, "select_idle_sibling("), ")"), loadMetricName(s.lm))
	b.WriteString("cpu0:")
	for _, sd := range s.cpus[0].domains {
		fmt.Fprintf(&b, " %s{%s}", sd.Level, sd.Span)
	}
	return b.String(), nil
}

func loadMetricName(lm LoadMetric) string {
	for k, v := range scriptLoadMetrics {
		if v == lm {
			return k
		}
	}
	return "?"
}

// busy cpus=LIST / idle cpus=LIST: mark CPUs as running something or as
// idle again, without tasks (a synthetic state for placement decisions:
// idle_cpu() and the groups' nr_busy_cpus change, nothing else).
func (r *scriptRunner) setBusy(a *args, busy bool) (string, error) {
	cs, err := r.cpus(a, "cpus")
	if err != nil {
		return "", err
	}
	s := r.s
	for _, c := range cs {
		rq := s.cpus[c]
		if rq.idle != busy {
			continue
		}
		rq.idle = !busy
		s.updIdleMask(rq)
		if busy {
			s.busyMask.Set(c)
		} else {
			s.busyMask.Clear(c)
		}
	}
	return "", nil
}

// place cpu=N tasks=ID,ID,...: the first task runs on cpu N, the others
// wait in its queue in that order (the last one queued most recently).
// Every task counts as long-running: cache-cold, PELT load at its full
// weight, util shared among the tasks, cpu_load[] at the rq's weight.
func (r *scriptRunner) place(a *args) (string, error) {
	c, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	s := r.s
	var ids []int
	for _, f := range strings.Split(a.str("tasks", ""), ",") {
		id, err := strconv.Atoi(f)
		if err != nil || id < 0 || id >= len(s.tasks) {
			return "", fmt.Errorf("tasks: %q is not a task", f)
		}
		ids = append(ids, id)
	}
	rq := s.cpus[c]
	if rq.idle {
		rq.idle = false
		s.updIdleMask(rq)
		s.m.nIdle--
	}
	for i, id := range ids {
		p := s.tasks[id]
		p.cpu, p.onRq, p.state = c, true, TaskRunnable
		p.avg.LoadAvg, p.avg.UtilAvg = p.weight, 1024/uint64(len(ids))
		p.avg38.LoadAvgContrib = p.weight
		p.execStart = coldExecStart
		s.enqSeq++
		p.enqSeq, p.listPos = s.enqSeq, s.enqSeq
		rq.nrRunning++
		rq.loadWeight += p.weight
		if i == 0 {
			p.state = TaskRunning
			rq.curr = p
			rq.busySince = 0
		} else {
			s.era.class.queueAdd(rq, p)
		}
	}
	if rq.nrRunning >= 2 {
		s.rdOverloaded = true // add_nr_running() -> set_rd_overloaded()
	}
	n := uint64(len(ids))
	rq.cfsAvg.LoadAvg, rq.cfsAvg.UtilAvg, rq.cfsAvg.RunnableAvg = 1024*n, 1024, 1024*n
	for i := range rq.cpuLoad {
		rq.cpuLoad[i] = rq.loadWeight
	}
	return "", nil
}

// rq cpu=N [load_weight=W] [nr_running=N] [load_avg=L] [avg_idle=D]
// [has_idle_cores=false] [nr_idle_scan=N]: set runqueue fields directly (a
// synthetic load for wake_affine() and fork balancing, the newidle gate's
// average idle time, the LLC's select_idle_sibling() state; nothing else
// changes).
func (r *scriptRunner) rq(a *args) (string, error) {
	c, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	rq := r.s.cpus[c]
	if a.has("load_weight") {
		w, err := a.int("load_weight", 0)
		if err != nil {
			return "", err
		}
		rq.loadWeight = uint64(w)
	}
	if a.has("nr_running") {
		if rq.nrRunning, err = a.int("nr_running", 0); err != nil {
			return "", err
		}
	}
	if a.has("load_avg") {
		l, err := a.int("load_avg", 0)
		if err != nil {
			return "", err
		}
		rq.cfsAvg.LoadAvg = uint64(l)
	}
	if a.has("avg_idle") {
		if rq.avgIdle, err = a.dur("avg_idle"); err != nil {
			return "", err
		}
	}
	if a.has("nr_idle_scan") {
		if rq.llc.nrIdleScan, err = a.int("nr_idle_scan", 0); err != nil {
			return "", err
		}
	}
	if a.has("has_idle_cores") {
		rq.llc.hasIdleCores = a.str("has_idle_cores", "") == "true"
	}
	return "", nil
}

// task id=N [cpu=C] [load_avg=L] [wakee_flips=F] [allowed=LIST] [ran=D]
// [cold] [vruntime=D]: set a task's fields. ran=D: it last ran D ago
// (exec_start = now - D); vruntime re-sorts it into its queue's EEVDF sums.
func (r *scriptRunner) setTask(a *args) (string, error) {
	p, err := r.task(a, "id")
	if err != nil {
		return "", err
	}
	s := r.s
	if a.has("cpu") {
		if p.cpu, err = r.cpu(a, "cpu"); err != nil {
			return "", err
		}
	}
	if a.has("load_avg") {
		l, err := a.int("load_avg", 0)
		if err != nil {
			return "", err
		}
		p.avg.LoadAvg = uint64(l)
	}
	if a.has("wakee_flips") {
		if p.wakeeFlips, err = a.int("wakee_flips", 0); err != nil {
			return "", err
		}
	}
	if a.has("allowed") {
		m, err := ParseCPUList(a.str("allowed", ""), s.topo.NCPU)
		if err != nil {
			return "", fmt.Errorf("allowed: %v", err)
		}
		p.allowed, p.nrAllow = m, m.Weight()
	}
	if a.has("ran") {
		d, err := a.dur("ran")
		if err != nil {
			return "", err
		}
		p.execStart = s.now - d
	}
	if a.flag("cold") {
		p.execStart = coldExecStart
	}
	if a.has("vruntime") {
		v, err := a.dur("vruntime")
		if err != nil {
			return "", err
		}
		rq := s.cpus[p.cpu]
		queued := p.onRq && rq.curr != p
		if queued {
			s.era.class.queueRemove(rq, p)
		}
		p.vruntime = v
		if queued {
			s.era.class.queueAdd(rq, p)
		}
	}
	return "", nil
}

// domain cpu=N level=L [nr_balance_failed=F] [newidle_cost=D]
// [set=FLAG,FLAG]: set a domain's balancing state (max_newidle_lb_cost for
// newidle_cost) or flags (every CPU's domain at that level when cpu=all).
func (r *scriptRunner) setDomain(a *args) (string, error) {
	var cpus []int
	if a.str("cpu", "") == "all" {
		for c := range r.s.cpus {
			cpus = append(cpus, c)
		}
	} else {
		c, err := r.cpu(a, "cpu")
		if err != nil {
			return "", err
		}
		cpus = []int{c}
	}
	for _, c := range cpus {
		sd, err := r.domain(a, c)
		if err != nil {
			return "", err
		}
		if a.has("nr_balance_failed") {
			if sd.NrBalanceFailed, err = a.int("nr_balance_failed", 0); err != nil {
				return "", err
			}
		}
		if a.has("newidle_cost") {
			if sd.MaxNewidleLBCost, err = a.dur("newidle_cost"); err != nil {
				return "", err
			}
		}
		if v := a.str("set", ""); v != "" {
			for _, n := range strings.Split(v, ",") {
				f, ok := SDFlagByName(n)
				if !ok {
					return "", fmt.Errorf("set: %q is not a flag", n)
				}
				sd.Flags |= f
			}
		}
	}
	return "", nil
}

// explain prints a decision: path and reason, the CPU chosen and where,
// what was examined at what cost, and the numbers compared, one per line.
func (r *scriptRunner) explain(d *Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", d.Path, d.Reason)
	if d.Chosen >= 0 {
		fmt.Fprintf(&b, "chosen cpu%d", d.Chosen)
		if d.Level >= 0 {
			fmt.Fprintf(&b, " in %s", Level(d.Level))
		}
		b.WriteString("\n")
	} else if d.Level >= 0 {
		fmt.Fprintf(&b, "level %s\n", Level(d.Level))
	}
	if d.Target >= 0 {
		fmt.Fprintf(&b, "target cpu%d\n", d.Target)
	}
	fmt.Fprintf(&b, "examined {%s}: %d cpus, %d groups, %d domains, cost %dns\n", d.Examined, d.NCPUs, d.NGroups, d.NDomains, d.Cost)
	for i := 0; i < d.NNums; i++ {
		fmt.Fprintf(&b, "%s = %s\n", d.Nums[i].K, d.Nums[i].Value())
	}
	return b.String()
}

// sis task=ID this=C prev=C target=C: select_idle_sibling() of the
// machine's variant for the task whose previous CPU is prev, woken from
// this, after wake_affine() chose target.
func (r *scriptRunner) sis(a *args) (string, error) {
	p, err := r.task(a, "task")
	if err != nil {
		return "", err
	}
	this, err := r.cpu(a, "this")
	if err != nil {
		return "", err
	}
	prev, err := r.cpu(a, "prev")
	if err != nil {
		return "", err
	}
	target, err := r.cpu(a, "target")
	if err != nil {
		return "", err
	}
	p.cpu = prev
	d := r.s.newDecision("sis", p, this)
	r.s.selectIdleSibling(p, prev, target, d)
	r.noteDecision(d)
	return r.explain(d), nil
}

// select task=ID cpu=C prev=C [sync] [waker=ID] [fork|exec]: the era's
// select_task_rq_fair() for a wake-up issued on cpu (or a fork or an exec
// there: SD_BALANCE_FORK, SD_BALANCE_EXEC).
func (r *scriptRunner) selectRQ(a *args) (string, error) {
	p, err := r.task(a, "task")
	if err != nil {
		return "", err
	}
	cpu, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	prev, err := r.cpu(a, "prev")
	if err != nil {
		return "", err
	}
	var waker *Task
	if a.has("waker") {
		if waker, err = r.task(a, "waker"); err != nil {
			return "", err
		}
	}
	p.cpu = prev
	flag := SDBalanceWake
	if a.flag("fork") {
		flag = SDBalanceFork
	} else if a.flag("exec") {
		flag = SDBalanceExec
	}
	_, d := r.s.selectTaskRQ(p, cpu, prev, a.flag("sync"), waker, flag)
	r.noteDecision(d)
	return r.explain(d), nil
}

// wake_affine task=ID this=C prev=C [sync] [waker=ID]: the era's
// wake_affine() in the lowest SD_WAKE_AFFINE domain of this spanning prev.
func (r *scriptRunner) wakeAffine(a *args) (string, error) {
	p, err := r.task(a, "task")
	if err != nil {
		return "", err
	}
	this, err := r.cpu(a, "this")
	if err != nil {
		return "", err
	}
	prev, err := r.cpu(a, "prev")
	if err != nil {
		return "", err
	}
	var waker *Task
	if a.has("waker") {
		if waker, err = r.task(a, "waker"); err != nil {
			return "", err
		}
	}
	s := r.s
	var sd *SchedDomain
	for _, t := range s.cpus[this].domains {
		if t.Flags&SDWakeAffine != 0 && t.Span.Has(prev) {
			sd = t
			break
		}
	}
	if sd == nil {
		return "", fmt.Errorf("no SD_WAKE_AFFINE domain of cpu%d spans cpu%d", this, prev)
	}
	sync := a.flag("sync")
	d := s.newDecision("wake_affine("+s.era.name+")", p, this)
	d.Prev, d.Level = int16(prev), int8(sd.Level)
	var target int
	if s.era.base == BaseV38 {
		target = prev
		if s.wakeAffine38(sd, p, this, prev, sync, waker, d) {
			target = this
		}
	} else {
		target = s.wakeAffine617(sd, p, this, prev, sync, waker, d)
	}
	d.Chosen = int16(target)
	d.Reason = "prev"
	if target == this {
		d.Reason = "affine: the waking CPU"
	}
	r.noteDecision(d)
	return r.explain(d), nil
}

// record_wakee waker=ID wakee=ID [n=1]: record_wakee() n times.
func (r *scriptRunner) recordWakee(a *args) (string, error) {
	w, err := r.task(a, "waker")
	if err != nil {
		return "", err
	}
	p, err := r.task(a, "wakee")
	if err != nil {
		return "", err
	}
	n, err := a.int("n", 1)
	if err != nil {
		return "", err
	}
	for i := 0; i < n; i++ {
		r.s.recordWakee(w, p)
	}
	r.facts = map[string]string{"flips": strconv.Itoa(w.wakeeFlips)}
	return fmt.Sprintf("waker wakee_flips = %d", w.wakeeFlips), nil
}

// wake_wide waker=ID wakee=ID cpu=C: wake_wide() on cpu's LLC.
func (r *scriptRunner) wakeWide(a *args) (string, error) {
	w, err := r.task(a, "waker")
	if err != nil {
		return "", err
	}
	p, err := r.task(a, "wakee")
	if err != nil {
		return "", err
	}
	c, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	r.facts = map[string]string{"wide": strconv.FormatBool(r.s.wakeWide(w, p, c))}
	return fmt.Sprintf("wide = %v (flips %d and %d, llc size %d)", r.s.wakeWide(w, p, c), w.wakeeFlips, p.wakeeFlips, r.s.cpus[c].sdLLC.Weight), nil
}

// balance cpu=C level=L idle=idle|busy|newidle: one balancing pass of the
// era (sched_balance_rq() or 3.8 load_balance()) of cpu's domain at level.
// Prints the decision, the tasks that moved, and every CPU after it.
func (r *scriptRunner) balance(a *args) (string, error) {
	c, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	sd, err := r.domain(a, c)
	if err != nil {
		return "", err
	}
	it, ok := scriptIdleTypes[a.str("idle", "")]
	if !ok {
		return "", fmt.Errorf("idle=%q: idle, busy or newidle", a.kv["idle"])
	}
	s := r.s
	before := make([]int, len(s.tasks))
	for i, p := range s.tasks {
		before[i] = p.cpu
	}
	seq := s.decSeq
	cont := true
	moved := s.loadBalance(s.cpus[c], sd, it, &cont)
	var b strings.Builder
	r.facts = map[string]string{}
	if d, ok := s.Decision(s.decSeq); ok && s.decSeq > seq {
		b.WriteString(r.explain(d))
		r.noteDecision(d)
	}
	r.facts["moved"] = strconv.Itoa(moved)
	fmt.Fprintf(&b, "moved %d, continue %v\n", moved, cont)
	for i, p := range s.tasks {
		if p.cpu != before[i] {
			fmt.Fprintf(&b, "%s: cpu%d -> cpu%d\n", p.info.Name, before[i], p.cpu)
		}
	}
	b.WriteString(r.cpuState())
	return b.String(), nil
}

// newidle cpu=C: the CPU, about to go idle, runs the era's newidle
// balancing (sched_balance_newidle(), 3.8 idle_balance()): its gate, then
// the domains bottom-up until a task is pulled. Prints whether it pulled,
// each balancing pass it made, and every CPU after it.
func (r *scriptRunner) newidle(a *args) (string, error) {
	c, err := r.cpu(a, "cpu")
	if err != nil {
		return "", err
	}
	s := r.s
	rq := s.cpus[c]
	if rq.curr != nil || len(rq.queue) > 0 {
		return "", fmt.Errorf("cpu%d is not about to go idle", c)
	}
	seq := s.decSeq
	pulled := s.newidleBalance(rq)
	var b strings.Builder
	r.facts = map[string]string{"pulled": strconv.FormatBool(pulled)}
	fmt.Fprintf(&b, "pulled %v\n", pulled)
	for q := seq + 1; q <= s.decSeq; q++ {
		if d, ok := s.Decision(q); ok {
			b.WriteString(r.explain(d))
		}
	}
	b.WriteString(r.cpuState())
	return b.String(), nil
}

// can_migrate task=ID dst=C level=L idle=idle|busy|newidle: can_migrate_task()
// for moving the task from its CPU to dst, balancing dst's domain at level.
func (r *scriptRunner) canMigrate(a *args) (string, error) {
	p, err := r.task(a, "task")
	if err != nil {
		return "", err
	}
	dst, err := r.cpu(a, "dst")
	if err != nil {
		return "", err
	}
	sd, err := r.domain(a, dst)
	if err != nil {
		return "", err
	}
	it, ok := scriptIdleTypes[a.str("idle", "")]
	if !ok {
		return "", fmt.Errorf("idle=%q: idle, busy or newidle", a.kv["idle"])
	}
	s := r.s
	env := &lbEnv{sd: sd, dstCPU: dst, dstRQ: s.cpus[dst], srcCPU: p.cpu, srcRQ: s.cpus[p.cpu], idle: it, cpus: sd.Span}
	ok, hot := s.canMigrateTask(p, env)
	var fl []string
	for _, f := range []struct {
		f int
		n string
	}{{lbfAllPinned, "ALL_PINNED"}, {lbfDstPinned, "DST_PINNED"}, {lbfSomePinned, "SOME_PINNED"}} {
		if env.flags&f.f != 0 {
			fl = append(fl, f.n)
		}
	}
	r.facts = map[string]string{"ok": strconv.FormatBool(ok), "hot": strconv.FormatBool(hot)}
	out := fmt.Sprintf("ok = %v, hot = %v", ok, hot)
	if len(fl) > 0 {
		out += fmt.Sprintf(", flags %s, new_dst_cpu %d", strings.Join(fl, "|"), env.newDstCPU)
	}
	return out, nil
}

// cpus: every CPU's state: idle or its running and queued tasks.
func (r *scriptRunner) cpuState() string {
	var b strings.Builder
	for _, rq := range r.s.cpus {
		fmt.Fprintf(&b, "cpu%d:", rq.cpu)
		switch {
		case rq.curr != nil:
			fmt.Fprintf(&b, " %s", rq.curr.info.Name)
		case rq.idle:
			b.WriteString(" idle")
		case rq.exiting:
			b.WriteString(" leaving idle, queued:")
		default:
			b.WriteString(" busy")
		}
		for _, p := range r.s.pickOrder(rq) {
			fmt.Fprintf(&b, " %s", p.info.Name)
		}
		for _, p := range r.s.tasks {
			if p.state == TaskWaking && p.cpu == rq.cpu {
				fmt.Fprintf(&b, " (%s arriving)", p.info.Name)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
