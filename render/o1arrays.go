package render

import (
	"image/color"
	"strconv"

	"schedplay/sim"
)

// ExpiredMark frames a queued task of the O(1) expired array.
var ExpiredMark = color.RGBA{0xd0, 0xd8, 0xe4, 0xff}

// The v2.6.8 runqueue (issue 17). That era has no PELT, so where the later
// eras draw their three bars a CPU's cell shows its priority arrays in the
// bars' band: the O(1) scheduler's active array in the upper half and its expired array in
// the lower half, the staircase's single array across it. Each row is a
// strip over the 40 normal priorities 100 … 139 (best on the left, nice 0
// at 120); every queued task is a block at its dynamic priority in its own
// colour (a number on it when several share one priority), the running
// task a frame at its priority in the top row. In the queue grid, the
// tasks waiting in the expired array are framed: they run only after the
// active array has emptied and the arrays are swapped.

const (
	o1PrioLo = 100 // MAX_RT_PRIO: the first normal priority
	o1PrioN  = 40  // MAX_USER_PRIO: 100 … 139
)

// o1Arrays draws cell c's arrays in place of the PELT bars; nothing when
// the snapshot is not of v2.6.8.
func (p *Painter) o1Arrays(c *Cell, snap *sim.Snapshot, cs *sim.CPUSnap, dst *Scene) {
	if snap.CPUScheduler == "" || len(cs.QueuePrio) != len(cs.Queue) {
		return
	}
	n := len(cs.Queue)
	act := n - cs.Expired
	// The three bar rows' band, as one strip (staircase) or two.
	band := Rect{X: c.Util.X, Y: c.Util.Y, W: c.Util.W, H: c.Load.Bottom() - c.Util.Y}
	if snap.CPUScheduler == "staircase" {
		p.prioStrip(band, "stairs", cs, 0, n, true, dst)
	} else {
		gap := min(2, band.H/8)
		half := (band.H - gap) / 2
		p.prioStrip(Rect{band.X, band.Y, band.W, half}, "active", cs, 0, act, true, dst)
		p.prioStrip(Rect{band.X, band.Y + half + gap, band.W, half}, "expired", cs, act, n, false, dst)
	}
	// Frame the queue grid's expired tasks (the last slot may be "+n").
	l := p.L
	slots := l.QueueCols * l.QueueRows
	for i := act; i < n && i < slots; i++ {
		if i == slots-1 && n > slots {
			break
		}
		dst.Stroke(l.QueueSlot(c, i), 2, ExpiredMark)
	}
}

// prioStrip draws the queued tasks from … to-1 of cs on a priority strip in
// r, and with curr the running task's frame.
func (p *Painter) prioStrip(r Rect, name string, cs *sim.CPUSnap, from, to int, curr bool, dst *Scene) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	dst.Fill(r, UtilBarTrack)
	w := r.W / o1PrioN
	x := func(prio int16) float64 {
		k := min(max(int(prio)-o1PrioLo, 0), o1PrioN-1)
		return r.X + float64(k)*w
	}
	// nice 0's priority, as the bars' half-scale notch.
	dst.Fill(Rect{x(120), r.Y, 1, r.H}, BarTick)
	var count [o1PrioN]int
	for i := from; i < to; i++ {
		prio := cs.QueuePrio[i]
		k := min(max(int(prio)-o1PrioLo, 0), o1PrioN-1)
		count[k]++
		if count[k] > 1 {
			continue // the first of a priority (the next of its list) shows
		}
		col, _ := p.taskColor(cs.Queue[i])
		dst.Fill(Rect{x(prio), r.Y, max(w, 3), r.H}, col)
	}
	f := p.L.BarFont
	if f > 0 {
		for k, c := range count {
			if c > 1 && w >= f*0.6 {
				dst.Label(r.X+float64(k)*w+w/2, r.Y+r.H/2, f, CellLabel, strconv.Itoa(c), AlignCenter)
			}
		}
	}
	if curr && cs.Curr >= 0 && cs.CurrPrio >= 0 {
		dst.Stroke(Rect{x(cs.CurrPrio) - 1, r.Y - 1, max(w, 3) + 2, r.H + 2}, 1, CellLabel)
	}
	if f > 0 {
		dst.Label(r.Right()-3, r.Y+r.H/2, f, Muted, name, AlignRight)
	}
}

// o1Legend replaces the PELT bars' items of a legend by the arrays' (at the
// first bar's place): v2.6.8 has no PELT.
func o1Legend(items []LegendItem) []LegendItem {
	out := make([]LegendItem, 0, len(items)+3)
	done := false
	for _, it := range items {
		if it.Icon != IconBar {
			out = append(out, it)
			continue
		}
		if !done {
			out = append(out,
				LegendItem{Icon: IconBar, C: TaskColor(3), C2: UtilBarTrack, Text: "2.6.8 runqueue: tasks by priority 100 … 139 (notch = 120, nice 0)"},
				LegendItem{Icon: IconBar, C: TaskColor(5), C2: UtilBarTrack, Text: "O(1): active array, then expired; staircase: its one array"},
				LegendItem{Icon: IconOutline, C: ExpiredMark, Text: "queued in the expired array (runs after the swap)"})
			done = true
		}
	}
	return out
}
