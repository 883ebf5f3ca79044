package interop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedplay/internal/stats"
	"schedplay/sim"
)

// rtapp-cover.json covers rt-app's features: timed phases a thread (300,
// 100 and 100 iterations), timers, a mutex, a condition variable (wait and
// signal) and barriers. Its timed phases' duty cycles by construction
// (runtime / 10 ms period; the consumer's served phase follows the
// producer's signals):
var coverPhases = []struct {
	task  string
	iters []int     // iterations of each timed phase
	duty  []float64 // each timed phase's run time / period
}{
	{"producer", []int{300, 100, 100}, []float64{0.10, 0.40, 0.30}},
	{"consumer", []int{300, 100, 100}, []float64{0.05, 0.20, 0.10}},
}

// coverReadyAfter is the timed phase that the untimed "ready" phase (one
// iteration, one line in rt-app's log) follows. In it the consumer takes
// the mutex and both threads meet at a barrier, so the consumer holds the
// mutex from before the producer's first lock until its condition wait
// releases it: a signal always finds the consumer waiting. (Before, a
// consumer whose last light-phase timer woke 3 ms late, seen here on a
// SCHED_FIFO thread of a 2-vCPU guest, missed the first signal, as
// pthreads lose a signal with no waiter, and both threads hung at the
// end; one run in eight.)
const coverReadyAfter = 0

// simulatedPhaseDuty imports rtapp-cover.json, simulates it and returns
// each task's CPU time over each phase's window (the phases are timer
// paced: 3 s, then 1 s, then 1 s) divided by the window.
func simulatedPhaseDuty(t *testing.T) map[string][]float64 {
	t.Helper()
	s, probs, err := ImportRTApp(readTestdata(t, "rtapp-cover.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		if strings.Contains(p.Message, "unrolled") || strings.Contains(p.Message, "not modelled; dropped") {
			t.Errorf("import: %s", p)
		}
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	edges := []int64{0, 3e9, 4e9, 5e9}
	prev := map[string]float64{}
	out := map[string][]float64{}
	for _, e := range edges[1:] {
		start := edges[len(out["producer"])]
		sm.RunUntil(e)
		for _, tm := range sm.Metrics().Tasks {
			name := strings.TrimSuffix(tm.Name, "/0")
			out[name] = append(out[name], (tm.CPUMS-prev[name])/(float64(e-start)/1e6))
			prev[name] = tm.CPUMS
		}
	}
	return out
}

// TestRTAppCoverSimulated: the imported workload keeps its shape (no
// truncation: a 300-iteration phase before a heavier one) and the
// simulator gives each phase the duty cycle the file describes, within 5 %.
func TestRTAppCoverSimulated(t *testing.T) {
	got := simulatedPhaseDuty(t)
	for _, c := range coverPhases {
		for i, want := range c.duty {
			if g := got[c.task][i]; math.Abs(g-want) > 0.05*want {
				t.Errorf("%s phase %d: simulated duty %.4f, want %.4f within 5%%", c.task, i+1, g, want)
			}
		}
	}
}

// TestRTAppCoverAgainstRTApp runs rtapp-cover.json with rt-app on this
// machine (as SCHED_FIFO, so that the other work on a loaded machine does
// not stretch its runs: the file's tasks are its own) and compares each
// phase's duty cycle from rt-app's logs (its median iteration's run over
// period, rtappPhaseDuty) with the simulated one: within 5 %. rt-app runs
// until its lowest measurement of every phase agrees, at least three
// times and at most maxRuns, and the test fails if that never happens.
//
// The lowest, because noise only ever lengthens a phase. A "runtime" event
// spins until its first clock read past its duration (rt-app.c,
// rtapp_runtime), so it can end late but never early, and a guest's vCPU
// can be held off by the host without the guest seeing it. Traced on this
// project's 2-vCPU guest (7 December, sched_switch and the local timer's
// interrupts in tracefs, twenty runs): an iteration of the producer's
// second phase logged 10.6 ms of run for its 4 ms, and in the trace the
// producer never left its CPU from its wake-up to its next sleep while
// that CPU's next timer interrupt came 6.6 ms after its last event and its
// handler took 2.0 ms: the vCPU did not run. Iterations more than 0.1 ms
// long came in every phase (0.1-1.5 % of each phase's iterations in 31
// runs), and the median iteration ignores them. But a whole phase can
// stretch, its median iteration by about a fifth, in most runs for a
// minute or two and then not again: CI of a02d7c3
// measured the producer's second phase at 0.4349 (simulated 0.4011),
// CI of f675f6c at 0.4825 and 0.4823 in two runs of three and 0.4005 in
// the third, CI of 32b6c29 at 0.4849, 0.4846, 0.4844 and 0.4607 in four
// of seven, CI of a2eb7a2 at 0.4831, 0.4815 and 0.4828 in three of three,
// each time right after the browser tests, and a minute later 0.4004-0.4005
// on the same machine; it was never reproduced here by hand, not after
// the browser tests either. CI of 0686966 caught one in the third of
// three runs, 0.4830, and longPhases' rate said whose it was: the phase
// spun 41.9 loops a microsecond of its run where the run's other two
// phases spun 89.2 and 89.5: the producer's vCPU did about half its
// usual work there, held off or slowed by the host, while the consumer,
// spinning on the other vCPU then, ran its phase at 0.2004 (0.2002 quiet). A median of runs takes such a stretch
// for the answer whenever it holds most runs; the lowest run does not,
// and a wrong import is wrong in every run, the quiet ones too.
// (rt-app's consumer sometimes waits for good on one of the producer's
// signals: the run ends at the file's duration with its logs a phase
// short, 8 runs in 32 here on 5 December. Both threads stop at about
// 4.0 s, the consumer in its 100th wait: a consumer woken by a signal must
// take the mutex back before the producer's next lock, 14 ms later, and a
// vCPU held off that long lets the producer lock and signal with nobody
// waiting, and the signal is lost. That is rt-app's run, not the import
// this test checks, so a short log is set aside and rt-app run again.)
func TestRTAppCoverAgainstRTApp(t *testing.T) {
	needRealRun(t)
	bin, err := exec.LookPath("rt-app")
	if err != nil {
		t.Skip("rt-app is not installed")
	}
	sim := simulatedPhaseDuty(t)
	const want, maxRuns = 3, 21
	var runs []map[string][]float64
	for run := 1; run <= maxRuns; run++ {
		m, rate, err := runCover(t, bin)
		switch {
		case err == nil:
			runs = append(runs, m)
			if long := longPhases(m, rate, sim, 0.05); long != "" {
				t.Logf("rt-app run %d: %s", run, long)
			}
		case !errors.Is(err, errShortLog):
			t.Fatal(err)
		default:
			t.Logf("rt-app run %d: %v; running it again", run, err)
			continue
		}
		if len(runs) >= want && !lowestAbove(runs, sim, 0.05) {
			break
		}
	}
	if len(runs) == 0 {
		t.Fatalf("rt-app hung in all %d runs", maxRuns)
	}
	measured := lowestPhases(runs)
	for _, c := range coverPhases {
		for i := range c.iters {
			m, s := measured[c.task][i], sim[c.task][i]
			t.Logf("%s phase %d: rt-app %.4f (lowest of %s), simulated %.4f", c.task, i+1, m, runsOf(runs, c.task, i), s)
			if math.Abs(s-m) > 0.05*m {
				t.Errorf("%s phase %d: rt-app measured duty %.4f, simulated %.4f: more than 5%% apart", c.task, i+1, m, s)
			}
		}
	}
}

// lowestPhases returns, per task and phase, the lowest of the runs' duty
// cycles.
func lowestPhases(runs []map[string][]float64) map[string][]float64 {
	out := map[string][]float64{}
	for _, c := range coverPhases {
		for i := range c.iters {
			lo := math.Inf(1)
			for _, r := range runs {
				lo = min(lo, r[c.task][i])
			}
			out[c.task] = append(out[c.task], lo)
		}
	}
	return out
}

// lowestAbove reports whether some phase's lowest duty cycle over the runs
// is still more than frac above the simulated one: every run so far may
// have been stretched there, and another may not be. (Below it by as much
// no further run can mend.)
func lowestAbove(runs []map[string][]float64, sim map[string][]float64, frac float64) bool {
	lo := lowestPhases(runs)
	for _, c := range coverPhases {
		for i := range c.iters {
			if lo[c.task][i]-sim[c.task][i] > frac*lo[c.task][i] {
				return true
			}
		}
	}
	return false
}

// runsOf lists one phase's duty cycle in each run, for the log.
func runsOf(runs []map[string][]float64, task string, phase int) string {
	var v []float64
	for _, r := range runs {
		v = append(v, r[task][phase])
	}
	return joinf("%.4f", v)
}

// joinf formats each of v and joins them with spaces, for the log.
func joinf(format string, v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(s, " ")
}

// longPhases describes the phases of one run that came out more than frac
// above the simulated duty cycle ("" if none), each with its spin rate
// (rt-app's loops per microsecond of run) beside the run's other phases'.
// A spin held off by the host runs fewer loops in its run than the same
// run's other phases; one that ran and still came out long would not.
func longPhases(duty, rate, sim map[string][]float64, frac float64) string {
	var out []string
	for _, c := range coverPhases {
		for i := range c.iters {
			if d := duty[c.task][i]; d-sim[c.task][i] > frac*d {
				out = append(out, fmt.Sprintf("%s phase %d at %.4f (simulated %.4f), %.1f loops a µs of run against %s in its phases", c.task, i+1, d, sim[c.task][i], rate[c.task][i], joinf("%.1f", rate[c.task])))
			}
		}
	}
	return strings.Join(out, "; ")
}

// runCover runs rtapp-cover.json with rt-app and returns each task's
// measured duty cycle per phase (the ready phase left out) and its spin
// rate there (the median iteration's loops per microsecond of run).
func runCover(t *testing.T, bin string) (duty, rate map[string][]float64, err error) {
	dir := t.TempDir()
	js := bytes.ReplaceAll(readTestdata(t, "rtapp-cover.json"), []byte("LOGDIR"), []byte(dir))
	file := filepath.Join(dir, "cover.json")
	if err := os.WriteFile(file, js, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, file).CombinedOutput()
	if err != nil {
		t.Skipf("rt-app could not run it here (SCHED_FIFO needs privileges): %v\n%s", err, out)
	}
	duty, rate = map[string][]float64{}, map[string][]float64{}
	for i, c := range coverPhases {
		logf := filepath.Join(dir, fmt.Sprintf("cover-%s-%d.log", c.task, i))
		d, r, err := rtappPhaseDuty(logf, slices.Insert(slices.Clone(c.iters), coverReadyAfter+1, 1))
		if err != nil {
			return nil, nil, err
		}
		duty[c.task] = slices.Delete(d, coverReadyAfter+1, coverReadyAfter+2)
		rate[c.task] = slices.Delete(r, coverReadyAfter+1, coverReadyAfter+2)
	}
	return duty, rate, nil
}

// errShortLog: an rt-app log with fewer iterations than its phases have.
var errShortLog = errors.New("the log is short of the file's iterations")

// rtappPhaseDuty reads an rt-app thread log (one line per iteration: idx
// perf run period ...) and returns each phase's median iteration duty cycle
// (run/period of its lines) and median spin rate (perf/run: the loops its
// run and runtime events made, per microsecond of their run). Not
// sum(run)/sum(period): a few iterations whose run rt-app measured long
// carry the sum, and they come and go from run to run. On a quiet guest (6
// December, 00:58) three runs gave the producer's last phase 0.3214 and
// 0.3162 by the sums where its iterations' medians were 0.3011 and 0.3005
// (the file's 0.30; every other phase within 1 % either way), and in CI
// after the browser tests the sums of three good runs were 0.3376, 0.3207
// and 0.3015 (c8382ec's CI failed on their median). The simulator's duty
// cycle is the same in every iteration, so its mean is its median.
func rtappPhaseDuty(path string, iters []int) (duty, rate []float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var loops, runs, periods []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.Fields(sc.Text())
		if len(l) < 4 || strings.HasPrefix(l[0], "#") {
			continue
		}
		n, err0 := strconv.ParseFloat(l[1], 64)
		r, err1 := strconv.ParseFloat(l[2], 64)
		p, err2 := strconv.ParseFloat(l[3], 64)
		if err0 != nil || err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("%s: %q", path, sc.Text())
		}
		loops, runs, periods = append(loops, n), append(runs, r), append(periods, p)
	}
	at := 0
	for _, n := range iters {
		if at+n > len(runs) {
			return nil, nil, fmt.Errorf("%s: %d iterations, want %d: %w", path, len(runs), at+n, errShortLog)
		}
		var d, v []float64
		for i := at; i < at+n; i++ {
			if periods[i] > 0 {
				d = append(d, runs[i]/periods[i])
			}
			if runs[i] > 0 {
				v = append(v, loops[i]/runs[i])
			}
		}
		duty, rate = append(duty, stats.Median(d)), append(rate, stats.Median(v))
		at += n
	}
	return duty, rate, nil
}

// needRealRun skips a test that runs a real workload (rt-app) on this
// machine's CPUs unless make test-real asked for it (SCHEDPLAY_REAL=1): such
// runs need the CPUs to themselves (SCHED_FIFO spinning beside the parallel
// unit tests would stretch both), so make test runs them last, serially.
func needRealRun(t *testing.T) {
	t.Helper()
	if os.Getenv("SCHEDPLAY_REAL") != "1" {
		t.Skip("runs rt-app on the real CPUs: only from make test-real (SCHEDPLAY_REAL=1)")
	}
}

// TestLowestPhases: CI's runs of f675f6c (the producer's second phase
// stretched in two of three) and of a2eb7a2 (in all three) against the
// simulated 0.4011: the lowest of the first three agrees, so rt-app stops
// there; the second three ask for more runs, and one quiet run ends it.
// A phase rt-app ran shorter than the simulator asks for none. A long
// phase is logged with its spin rate beside the run's other phases'.
func TestLowestPhases(t *testing.T) {
	run := func(p2 float64) map[string][]float64 {
		return map[string][]float64{"producer": {0.1002, p2, 0.3003}, "consumer": {0.0502, 0.2002, 0.1002}}
	}
	sim := run(0.4011)
	twoOfThree := []map[string][]float64{run(0.4825), run(0.4823), run(0.4005)}
	if got := lowestPhases(twoOfThree)["producer"][1]; got != 0.4005 {
		t.Errorf("lowest of 0.4825 0.4823 0.4005: %.4f", got)
	}
	if lowestAbove(twoOfThree, sim, 0.05) {
		t.Errorf("0.4825 0.4823 0.4005 against 0.4011: more runs asked for")
	}
	allThree := []map[string][]float64{run(0.4831), run(0.4815), run(0.4828)}
	if !lowestAbove(allThree, sim, 0.05) {
		t.Errorf("0.4831 0.4815 0.4828 against 0.4011: no more runs asked for")
	}
	if lowestAbove(append(allThree, run(0.4004)), sim, 0.05) {
		t.Errorf("a quiet fourth run (0.4004) against 0.4011: still more runs asked for")
	}
	if lowestAbove([]map[string][]float64{run(0.30), run(0.30), run(0.30)}, sim, 0.05) {
		t.Errorf("rt-app's 0.30 against 0.4011: more runs asked for, though no run can lengthen to it")
	}
	rate := map[string][]float64{"producer": {93, 77, 94}, "consumer": {95, 96, 96}}
	if got := longPhases(run(0.4005), rate, sim, 0.05); got != "" {
		t.Errorf("a quiet run described as long: %q", got)
	}
	want := "producer phase 2 at 0.4831 (simulated 0.4011), 77.0 loops a µs of run against 93.0 77.0 94.0 in its phases"
	if got := longPhases(run(0.4831), rate, sim, 0.05); got != want {
		t.Errorf("a stretched run described as %q, want %q", got, want)
	}
}
