//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A long task is 50 ms of wall time on the page's main thread, whether the
// thread ran for them or waited for a core. On this 2-core machine it often
// waits: a Chrome trace of aim9-burst loaded with A/B on (5 December) had
// tasks of 48-87 ms in which the thread ran 10-15 ms, and a document
// layout of 32.7 ms wall clock that took 7.0 ms of its time
// (docs/performance.md, round twenty-four). A runSampler says which:
// it reads the scheduler's own account of the renderers' main threads
// (/proc/PID/task/TID/schedstat: time run on a CPU and time waited on a
// runqueue, in ns) every few ms over a window, and splits each long task
// of the window into the two, and what is left (the thread blocked). Reported beside the long tasks, not
// asserted: the targets stay wall-clock, as the issue states them.

// sampleEvery is the sampler's period: a tenth of the long-task threshold.
const sampleEvery = 5 * time.Millisecond

type runSample struct {
	at        time.Time
	run, wait int64 // ns, summed over the renderers' main threads
}

type runSampler struct {
	mu      sync.Mutex
	samples []runSample
	stop    chan struct{}
	done    chan struct{}
}

// mainThreadStats lists the schedstat file of every renderer's main thread
// (browserRole's "page main thread"; the tab's renderer is one of them,
// the others idle).
func mainThreadStats() []string {
	var out []string
	eachBrowserThread(func(role, dir string, _ int64) {
		if role == "page main thread" {
			out = append(out, filepath.Join(dir, "schedstat"))
		}
	})
	return out
}

// readSchedstat reads a schedstat file: time run and time waited to run,
// in ns.
func readSchedstat(path string) (run, wait int64, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0, false
	}
	run, err1 := strconv.ParseInt(f[0], 10, 64)
	wait, err2 := strconv.ParseInt(f[1], 10, 64)
	return run, wait, err1 == nil && err2 == nil
}

// startRunSampler starts sampling; nil where /proc has no schedstat
// (CONFIG_SCHED_INFO off) or no renderer runs.
func startRunSampler() *runSampler {
	files := mainThreadStats()
	if len(files) == 0 {
		return nil
	}
	if _, _, ok := readSchedstat(files[0]); !ok {
		return nil
	}
	s := &runSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(sampleEvery)
		defer tick.Stop()
		for {
			var smp runSample
			for _, f := range files {
				if r, w, ok := readSchedstat(f); ok {
					smp.run += r
					smp.wait += w
				}
			}
			smp.at = time.Now()
			s.mu.Lock()
			s.samples = append(s.samples, smp)
			s.mu.Unlock()
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// finish stops the sampler.
func (s *runSampler) finish() {
	if s == nil {
		return
	}
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// split is the main threads' time run and waited, in ms, between the
// samples nearest to from and to (the sampler's period is their error).
func (s *runSampler) split(from, to time.Time) (run, wait float64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := func(t time.Time) (runSample, bool) {
		best, found := runSample{}, false
		for _, x := range s.samples {
			if !found || absDur(x.at.Sub(t)) < absDur(best.at.Sub(t)) {
				best, found = x, true
			}
		}
		return best, found && absDur(best.at.Sub(t)) <= 2*sampleEvery
	}
	a, ok1 := at(from)
	b, ok2 := at(to)
	if !ok1 || !ok2 || !b.at.After(a.at) {
		return 0, 0, false
	}
	return float64(b.run-a.run) / 1e6, float64(b.wait-a.wait) / 1e6, true
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// longTask is a long task of the page's main thread: when it started
// (wall clock, from performance.timeOrigin) and how long it took.
type longTask struct {
	start time.Time
	ms    float64
}

// longTasksAt returns the long tasks that started since longTasks, with
// their start times (the same filter as longTasksSince).
func (tb *tab) longTasksAt() []longTask {
	tb.t.Helper()
	raw := eval[[][2]float64](tb, `window.__lt.list.filter((e) => e.start >= window.__lt.from &&
		!(window.__lt.skip || []).some(([a, b]) => e.start < b && e.start + e.ms > a)).map((e) => [performance.timeOrigin + e.start, e.ms])`)
	out := make([]longTask, len(raw))
	for i, r := range raw {
		out[i] = longTask{start: time.UnixMicro(int64(r[0] * 1000)), ms: r[1]}
	}
	return out
}

// anatomy says, for the window what, how much of each long task the main
// thread ran and how much it waited for a core (logged, not asserted).
func (tb *tab) anatomy(t *testing.T, what string, s *runSampler, lt []longTask) {
	t.Helper()
	s.finish()
	if len(lt) == 0 {
		return
	}
	if s == nil {
		t.Logf("%s: the main thread's run and wait times are not readable here (/proc/PID/task/TID/schedstat)", what)
		return
	}
	parts := make([]string, len(lt))
	for i, l := range lt {
		run, wait, ok := s.split(l.start, l.start.Add(time.Duration(l.ms*float64(time.Millisecond))))
		if !ok {
			parts[i] = fmt.Sprintf("%.0f ms (not sampled)", l.ms)
			continue
		}
		parts[i] = fmt.Sprintf("%.0f ms: ran %.0f, waited for a core %.0f", l.ms, run, wait)
		// The rest the thread was off the runqueue: blocked on a
		// synchronous call (the GPU process, the browser's).
		if off := l.ms - run - wait; off > float64(2*sampleEvery/time.Millisecond) {
			parts[i] += fmt.Sprintf(", blocked %.0f", off)
		}
	}
	t.Logf("%s: the long tasks' main thread (schedstat, ±%v): %s", what, 2*sampleEvery, strings.Join(parts, "; "))
}
