// Command realdoc regenerates docs/real-kernel.md (make real-kernel): it
// calibrates this machine, runs each reference scenario of
// realkernel/testdata several times on the real kernel and once in the
// simulator on this machine's topology, and writes the tables between the
// hand-written text of realkernel/testdata/report-intro.md and
// report-analysis.md. Needs root and GODEBUG=asyncpreemptoff=1 (the make
// target sets it).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"schedplay/realkernel"
)

func main() {
	out := flag.String("o", "docs/real-kernel.md", "output file")
	runs := flag.Int("runs", 5, "real runs per scenario")
	short := flag.Bool("short", false, "1 s runs (a quick look, not the reference table)")
	isolate := flag.Bool("isolate", true, "run the scenario's threads at nice -20 (relative nice kept) so other work hardly competes")
	flag.Parse()
	if err := realkernel.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "realdoc:", err)
		os.Exit(2)
	}
	dir := "realkernel/testdata/"
	intro, err1 := os.ReadFile(dir + "report-intro.md")
	outro, err2 := os.ReadFile(dir + "report-analysis.md")
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "realdoc: run from the repository root:", err1, err2)
		os.Exit(2)
	}
	// The what-ifs: the switches whose effect on these scenarios the
	// analysis discusses.
	whatIf := []string{"policy.features.NEWIDLE_BALANCE=false", "policy.features.WAKE_AFFINE=false",
		"policy.select_idle_sibling=off", "policy.migration_cost=5ms",
		// v6.17's own newidle rules, where the host kernel has the later
		// ones (realkernel.ReleaseFeatures), and no timer spread.
		"policy.features.NI_RANDOM=false policy.features.NEWIDLE_BUMP=true", "machine.costs.timer_irq_spread=0s",
		// A sleeper left sched_delayed is what a waker's wake-up finds
		// and preempts for (sim.TestSyncPairPreemption).
		"policy.features.DELAY_DEQUEUE=false",
		// v6.17's own wake-up check, where the host kernel's dequeues a
		// delayed pick (ac8e69e69363; sim.TestWakeupDequeueDelayedChain).
		"policy.features.WAKEUP_DEQUEUE_DELAYED=false",
		// The idle loop of the host's kernel (measured: it stops an idle
		// CPU's tick only after the tick has woken it) and an interrupt's
		// wake-ups all at once (calibrated timer_wakeup 0).
		"policy.features.NOHZ_AFTER_TICK=true", "machine.costs.timer_wakeup=0s",
		// A timer's wakee runs when its CPU's interrupt has woken it
		// (calibrated idle_return 0: the idle loop's way out free).
		"machine.costs.idle_return=0s"}
	cases := []realkernel.ReportCase{
		{File: dir + "pair-20us.json", Variants: whatIf},
		{File: dir + "trio-80-40-40.json", Variants: whatIf},
		{File: dir + "four-30.json", Variants: whatIf},
		{File: dir + "three-20.json", Variants: whatIf},
		{File: dir + "server-1to4.json", Variants: whatIf},
		{File: dir + "pair-one-cpu.json", Variants: whatIf},
		{File: dir + "three-hogs-nice.json", Variants: whatIf},
		{File: dir + "wake-chain-one-cpu.json", Variants: whatIf},
	}
	if *short {
		for i := range cases {
			cases[i].Duration = "1s"
		}
	}
	var b bytes.Buffer
	err := realkernel.WriteReport(&b, realkernel.ReportOptions{Cases: cases, Runs: *runs, Log: os.Stderr, Load: loadavg, Isolate: *isolate},
		string(intro), string(outro))
	if err != nil {
		fmt.Fprintln(os.Stderr, "realdoc:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "realdoc:", err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "wrote", *out)
}

// loadavg is the 1-minute load average (/proc/loadavg).
func loadavg() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}
