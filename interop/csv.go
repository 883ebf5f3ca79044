package interop

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"schedplay/sim"
)

// CSVHeader is the first line WriteCSV writes.
const CSVHeader = "time_ms,kind,id,signal,value"

// WriteCSV runs s from its current time to opt's end and writes a time
// series in long ("tidy") form: one row per sample, object and signal,
//
//	time_ms,kind,id,signal,value
//	1,cpu,0,nr_running,1
//	1,task,hog/0,util_avg,23
//
// sampled at the start, at every multiple of opt.Interval (1 ms by default)
// and at the end. time_ms is simulated time in milliseconds (exact, up to
// six decimals). Rows come in time order; within a sample, every CPU (kind
// "cpu", id its number) then every task (kind "task", id its name "group/i")
// in id order, signals in the order below. value is an integer, except for a
// task's state, which is a word.
//
// CPU signals: nr_running; the PELT averages of its cfs_rq, util_avg,
// runnable_avg and load_avg (v6.17 arithmetic, 0..1024 per CPU, load_avg
// includes blocked load); with the v3.8 base also load_weight
// (rq->load.weight), runnable_load_avg, blocked_load_avg and cpu_load0 ...
// cpu_load4 (rq->cpu_load[]).
//
// Task signals: state (unborn, running, runnable, waking, blocked, exited),
// cpu (current or last CPU, -1 before it first ran), util_avg, load_avg
// (its PELT signals) and ops (completed program iterations so far).
//
// Long form suits plotting tools directly (filter on kind and signal, plot
// value against time_ms); a spreadsheet pivot gives the wide form.
func WriteCSV(w io.Writer, s *sim.Sim, opt Options) error {
	c := &csvWriter{bw: bufio.NewWriterSize(w, 64<<10), s: s, v38: s.Base() == sim.BaseV38}
	for _, t := range s.Tasks() {
		c.names = append(c.names, csvField(t.Name))
	}
	c.bw.WriteString(CSVHeader + "\n")
	drive(s, opt, c)
	return c.bw.Flush()
}

type csvWriter struct {
	bw    *bufio.Writer
	s     *sim.Sim
	v38   bool
	names []string
	b     []byte
	time  []byte
}

func (c *csvWriter) event(*sim.Event) {}

func (c *csvWriter) row(kind, id, signal string, v int64) {
	c.b = append(c.b[:0], c.time...)
	c.b = append(c.b, kind...)
	c.b = append(c.b, ',')
	c.b = append(c.b, id...)
	c.b = append(c.b, ',')
	c.b = append(c.b, signal...)
	c.b = append(c.b, ',')
	c.b = strconv.AppendInt(c.b, v, 10)
	c.b = append(c.b, '\n')
	c.bw.Write(c.b)
}

var cpuLoadNames = [5]string{"cpu_load0", "cpu_load1", "cpu_load2", "cpu_load3", "cpu_load4"}

func (c *csvWriter) sample(snap *sim.Snapshot) {
	c.time = appendDecimal(c.time[:0], snap.Now, 6)
	c.time = append(c.time, ',')
	for i := range snap.CPUs {
		cs := &snap.CPUs[i]
		id := strconv.Itoa(c.s.Topology().Label(i)) // the kernel's number
		c.row("cpu", id, "nr_running", int64(cs.NrRunning))
		c.row("cpu", id, "util_avg", cs.UtilAvg)
		c.row("cpu", id, "runnable_avg", cs.RunnableAvg)
		c.row("cpu", id, "load_avg", cs.LoadAvg)
		if c.v38 {
			c.row("cpu", id, "load_weight", cs.LoadWeight)
			c.row("cpu", id, "runnable_load_avg", cs.RunnableLoadAvg)
			c.row("cpu", id, "blocked_load_avg", cs.BlockedLoadAvg)
			for k, v := range cs.CPULoad {
				c.row("cpu", id, cpuLoadNames[k], v)
			}
		}
	}
	// Fork steps add task slots while the simulation runs.
	for _, t := range c.s.Tasks()[len(c.names):] {
		c.names = append(c.names, csvField(t.Name))
	}
	for i := range snap.Tasks {
		ts := &snap.Tasks[i]
		id := c.names[i]
		c.b = append(c.b[:0], c.time...)
		c.b = append(c.b, "task,"...)
		c.b = append(c.b, id...)
		c.b = append(c.b, ",state,"...)
		c.b = append(c.b, ts.State.String()...)
		c.b = append(c.b, '\n')
		c.bw.Write(c.b)
		c.row("task", id, "cpu", int64(c.s.Topology().Label(int(ts.CPU))))
		c.row("task", id, "util_avg", ts.UtilAvg)
		c.row("task", id, "load_avg", ts.LoadAvg)
		c.row("task", id, "ops", ts.Ops)
	}
}

// csvField quotes a field if RFC 4180 needs it (task names from scenarios
// never do; a Config built by hand might).
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
