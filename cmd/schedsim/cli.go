package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"schedplay/scenarios"
)

// Exit statuses (the CLI contract in design.md).
const (
	exitOK       = 0
	exitInternal = 1
	exitBadInput = 2
)

const usage = `usage:
  schedsim run [-json] [-set path=value]... FILE|PRESET
      run a scenario and print its metrics (a table, or JSON with -json)
  schedsim sweep -vary path=v1,v2,... [-compare path=a,b,...] [-set path=value]... [-json] FILE|PRESET
      run one simulation per cell: a row per -vary value, a column per
      -compare value, ops/s in the cells (where every task exits, as
      kernbench's do, the elapsed ms: when the last one exited); cells
      run in parallel.
      A path may be several paths joined by '+', set to the same value:
      -vary tasks.client.count+tasks.server.count=1,5,10
  schedsim validate FILE|PRESET
      check a scenario: prints "ok: TITLE", or the problems and exits 2
  schedsim fields [-json]
      list every scenario field: the paths -set takes, kinds, defaults, ranges
  schedsim link [-base URL] [-set path=value]... FILE|PRESET
      print the share-link fragment (#s=..., and &v=... with the scenario's
      view: a preset's chapters), or the whole URL with -base
  schedsim export -format perfetto|schedstat|csv|perfetto-proto|rtapp -o OUT [-interval 1ms] [-set path=value]... FILE|PRESET
      run a scenario and write it for other tools (-o - writes to stdout):
      perfetto   a trace-event JSON file for ui.perfetto.dev or chrome://tracing
      perfetto-proto
                 a binary Perfetto trace (ftrace sched events per CPU, process
                 tree, the simulator's decisions and counters as track events)
      rtapp      the workload as an rt-app JSON file (nothing is run); what
                 rt-app cannot express is listed on stderr as "path: problem"
      schedstat  /proc/schedstat (version 15 for base v3.8, 17 for v6.17) at
                 the end, or every -interval when -interval is given
      csv        a long-form time series, time_ms,kind,id,signal,value,
                 sampled every -interval
  schedsim import -from rtapp|lscpu|sysfs|ftrace [-o OUT] [-machine FILE|PRESET] [-comm REGEXP] FILE
      convert an rt-app workload (JSON), lscpu -p output, a sysfs tree (FILE
      is the directory holding devices/system/cpu: /sys for this machine,
      with the NUMA distance table) or a sched trace (tracefs trace text or
      trace-cmd report; -comm keeps matching tasks) into a scenario,
      printed as JSON (or written to -o); what could not be mapped is listed
      on stderr as "path: problem". -machine runs an rt-app workload on that
      scenario's machine (for example one imported from lscpu)

  schedsim real [-json] [-isolate] [-untraced] [-trace OUT] [-ftrace OUT] [-compare [-costs FILE]] [-set path=value]... FILE|PRESET
      run the scenario on this machine's kernel, one thread per task
      instance, and print what the kernel did (from its sched events,
      read through tracefs: needs root), with -json in the run's keys;
      -trace writes it as Perfetto JSON, -ftrace the raw trace text;
      -isolate runs the threads at nice -20 (relative nice kept) so other
      work on the machine hardly competes; -untraced runs it once more
      first without the trace and prints that rate too (what tracing
      costs the scenario);
      -compare also runs the simulator on this machine and prints both
      (docs/real-kernel.md)
  schedsim calibrate [-o FILE]
      measure this machine's context switch, wake-up and idle-exit costs
      and write them as machine.costs (for real -compare -costs FILE)

FILE|PRESET is a scenario file or a preset name. -set paths are dotted
(machine.cores_per_cluster=10, tasks.client.count=40,
policy.sd_flags.MC.SD_BALANCE_WAKE=true); see scenarios/FORMAT.md.

Limits (run, sweep, export): -max-work N is the deterministic work budget
of a simulation (default 1000000000 work units: events, tasks woken, CPUs
scanned; the same stop natively and in the page), -timeout D its
wall-clock limit (default 1m; 0: none). export also takes -max-size BYTES
(default 512 MiB) and writes OUT only when complete.

Exit status: 0 ok, 2 bad input, 1 internal error, 3 a limit stopped the
run (the metrics of what was simulated are printed; stderr says which
limit and how to raise it), 130 an interrupted export.
`

// exitError carries an exit status with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func badInput(err error) error { return &exitError{exitBadInput, err} }
func internal(err error) error { return &exitError{exitInternal, err} }
func badInputf(format string, args ...any) error {
	return badInput(fmt.Errorf(format, args...))
}

// run is the whole command: it parses args, writes results to stdout and
// problems to stderr, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadInput
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		err = cmdRun(rest, stdout)
	case "sweep":
		err = cmdSweep(rest, stdout)
	case "validate":
		err = cmdValidate(rest, stdout)
	case "fields":
		err = cmdFields(rest, stdout)
	case "link":
		err = cmdLink(rest, stdout)
	case "export":
		err = cmdExport(rest, stdout, stderr)
	case "import":
		err = cmdImport(rest, stdout, stderr)
	case "real":
		err = cmdReal(rest, stdout, stderr)
	case "calibrate":
		err = cmdCalibrate(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		fmt.Fprintln(stdout, "\npresets:")
		for _, p := range scenarios.Presets() {
			fmt.Fprintf(stdout, "  %-16s %s\n", p.Name, p.Title)
		}
		return exitOK
	default:
		fmt.Fprintf(stderr, "schedsim: unknown command %q\n\n%s", cmd, usage)
		return exitBadInput
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintln(stderr, terminalSafe(err.Error()))
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var le *limitError
	if errors.As(err, &le) {
		return exitLimit
	}
	return exitInternal
}

// terminalSafe escapes what a message should not send to a terminal raw:
// control characters other than newline and tab (an escape sequence in a
// -set value or a file name would act on the terminal) and bidirectional
// controls (which reorder what is shown).
func terminalSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r) || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == utf8.RuneError:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// setFlags collects repeated -set path=value flags.
type setFlags []string

func (s *setFlags) String() string { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error {
	if _, _, ok := strings.Cut(v, "="); !ok {
		return fmt.Errorf("%q: want path=value", v)
	}
	*s = append(*s, v)
	return nil
}

// parse parses flags that may come before or after the positional
// arguments ("run tbench-pairs -json" works), and wants exactly npos
// positional arguments.
func parse(fs *flag.FlagSet, args []string, npos int, what string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, badInputf("schedsim %s: %v (schedsim help for usage)", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if len(pos) != npos {
		return nil, badInputf("schedsim %s: want %s, got %d arguments\n\n%s", fs.Name(), what, len(pos), usage)
	}
	return pos, nil
}

// load reads a scenario and applies -set overrides in order.
func load(nameOrPath string, sets setFlags) (*scenarios.Scenario, error) {
	s, err := scenarios.Load(nameOrPath)
	if err != nil {
		return nil, badInput(err)
	}
	for _, kv := range sets {
		path, value, _ := strings.Cut(kv, "=")
		if err := s.Set(path, value); err != nil {
			return nil, badInputf("-set %v", err)
		}
	}
	return s, nil
}

func cmdValidate(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	s, err := load(pos[0], nil)
	if err != nil {
		return err
	}
	title := s.Title
	if title == "" {
		title = pos[0]
	}
	fmt.Fprintf(stdout, "ok: %s\n", title)
	return nil
}

func cmdLink(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("link", flag.ContinueOnError)
	base := fs.String("base", "", "page URL to put before the fragment")
	var sets setFlags
	fs.Var(&sets, "set", "path=value override (repeatable)")
	pos, err := parse(fs, args, 1, "one FILE or PRESET")
	if err != nil {
		return err
	}
	s, err := load(pos[0], sets)
	if err != nil {
		return err
	}
	// The scenario's view (a preset's chapters and speed, a file's view
	// block) travels as the link's "v=" part, as the page's Copy link
	// makes it; a scenario without one gives "#s=..." alone.
	u, _, _ := strings.Cut(*base, "#")
	link := u + "#" + scenarios.EncodeLinkView(s, s.View)
	if len(link) > scenarios.MaxLinkBytes {
		return badInputf("the link would be %d bytes; links are limited to %d (the page would refuse it)", len(link), scenarios.MaxLinkBytes)
	}
	fmt.Fprintln(stdout, link)
	return nil
}
