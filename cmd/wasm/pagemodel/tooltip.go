package pagemodel

import (
	"fmt"
	"strings"

	"schedplay/frame"
	"schedplay/render"
	"schedplay/sim"
)

// Tooltip is the text for the point (x, y) of the canvas (CSS px): over a
// CPU's running task or a queued one, the task (state, CPU, PELT values);
// elsewhere over a CPU, the CPU (what runs, the queue, idle state, PELT
// values of its runqueue); and under either the last decision that moved a
// task to or from it, from the event log. "" when the point is on no CPU.
// layouts are the canvas' layouts of side A and B (nil when absent).
func Tooltip(f *frame.Frame, layouts [2]*render.Layout, log *EventLog, x, y float64) string {
	if f == nil {
		return ""
	}
	pt := render.Rect{X: x, Y: y}
	for k, l := range layouts {
		side := f.A()
		if k == 1 {
			side = f.B()
		}
		if l == nil || side == nil || side.Snap == nil {
			continue
		}
		for cpu := range l.Cells {
			c := &l.Cells[cpu]
			if !c.Rect.Contains(pt) || cpu >= len(side.Snap.CPUs) {
				continue
			}
			cs := side.Snap.CPUs[cpu]
			var b strings.Builder
			prefix := ""
			if f.B() != nil {
				prefix = [2]string{"A: ", "B: "}[k]
			}
			task := -1
			if c.Run.Contains(pt) && cs.Curr >= 0 {
				task = int(cs.Curr)
			} else if !l.Compact && c.Queue.Contains(pt) {
				for i, id := range cs.Queue {
					if i < l.QueueCols*l.QueueRows && l.QueueSlot(c, i).Contains(pt) {
						task = int(id)
					}
				}
			}
			if task >= 0 && task < len(side.Snap.Tasks) {
				ts := side.Snap.Tasks[task]
				fmt.Fprintf(&b, "%s%s: %s on cpu%d", prefix, taskName(side, task), ts.State, ts.CPU)
				if !side.Snap.NoPELT {
					fmt.Fprintf(&b, "\nutil_avg %d · load_avg %d", ts.UtilAvg, ts.LoadAvg)
				}
				fmt.Fprintf(&b, "\n%d ops", ts.Ops)
			} else {
				fmt.Fprintf(&b, "%scpu%d: ", prefix, cpu)
				switch {
				case cs.Curr >= 0:
					b.WriteString("running " + taskName(side, int(cs.Curr)))
				case cs.IdleState >= 0 && cs.IdleState < len(side.IdleStates):
					st := side.IdleStates[cs.IdleState]
					fmt.Fprintf(&b, "idle in %s for %s", st.Name, frame.FormatClock(cs.IdleFor))
					if st.Flushes {
						// sim: coreWakes, switchTo's flush refill.
						fmt.Fprintf(&b, "\n%s flushes the core's L1/L2 once all its threads are in it: the next task to run here refills them", st.Name)
					}
				default:
					b.WriteString("idle")
				}
				if n := len(cs.Queue); n > 0 {
					names := make([]string, 0, min(n, 4))
					for _, id := range cs.Queue[:min(n, 4)] {
						names = append(names, taskName(side, int(id)))
					}
					more := ""
					if n > 4 {
						more = fmt.Sprintf(" and %d more", n-4)
					}
					fmt.Fprintf(&b, "\n%d queued: %s%s", n, strings.Join(names, ", "), more)
				}
				fmt.Fprintf(&b, "\nnr_running %d", cs.NrRunning)
				if !side.Snap.NoPELT {
					fmt.Fprintf(&b, " · util_avg %d · runnable_avg %d · load_avg %d", cs.UtilAvg, cs.RunnableAvg, cs.LoadAvg)
				}
			}
			if k == 0 && log != nil {
				if d := log.LastMove(cpu, task); d != "" {
					b.WriteString("\nlast decision: " + d)
				}
			}
			return b.String()
		}
	}
	return ""
}

func taskName(side *frame.Side, id int) string {
	if id >= 0 && id < len(side.Tasks) {
		return side.Tasks[id].Name
	}
	return fmt.Sprintf("task %d", id)
}

// LastMove is the newest migration kept in the log that moved task (or,
// with task < 0, any task) to or from cpu; "" when none is kept.
func (l *EventLog) LastMove(cpu, task int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.ring) - 1; i >= 0; i-- {
		e := l.ring[i]
		if e.Kind != sim.EvMigrate.String() {
			continue
		}
		if task >= 0 && e.TaskID == task || task < 0 && (e.CPU == cpu || e.From == cpu) {
			return e.Text
		}
	}
	return ""
}
