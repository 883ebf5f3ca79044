package app

import (
	"time"

	"schedplay/frame"
)

// meterWindow is how long a measurement window lasts.
const meterWindow = time.Second

// Meter measures frames over windows of meterWindow.
type Meter struct {
	start  time.Time
	frames int
	simNS  int64
	wallNS time.Duration // wall time covered by the frames (sum of dt)
	work   time.Duration
	stats  frame.Stats
}

// frame.Frame records one frame at now that covered dt of wall time, advanced
// simulated time by simNS and spent work in the simulator.
func (m *Meter) Frame(now time.Time, dt time.Duration, simNS int64, work time.Duration) {
	if m.start.IsZero() {
		m.start = now
	}
	m.frames++
	m.simNS += simNS
	m.wallNS += dt
	m.work += work
	if el := now.Sub(m.start); el >= meterWindow {
		m.stats = frame.Stats{
			FPS:     float64(m.frames) / el.Seconds(),
			FrameMS: float64(m.work) / float64(time.Millisecond) / float64(m.frames),
		}
		if m.wallNS > 0 {
			m.stats.SimRTF = float64(m.simNS) / float64(m.wallNS)
		}
		*m = Meter{start: now, stats: m.stats}
	}
}

// Draw adds drawing time to the current window.
func (m *Meter) Draw(d time.Duration) { m.work += d }

// frame.Stats are the numbers of the last complete window.
func (m *Meter) Stats() frame.Stats { return m.stats }
