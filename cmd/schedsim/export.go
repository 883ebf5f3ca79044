package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"schedplay/interop"
)

// cmdExport runs a scenario to its end and writes it in another tool's
// format (package interop does the writing); -format rtapp writes the
// workload without running it, and lists what rt-app cannot express on
// stderr.
func cmdExport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	format := fs.String("format", "", strings.Join(interop.FormatNames(), " | "))
	out := fs.String("o", "", "the file to write; - for stdout")
	interval := fs.Duration("interval", time.Millisecond, "sampling period in simulated time (counters, CSV rows, schedstat snapshots)")
	maxSize := fs.Int64("max-size", DefaultMaxExportBytes, "largest output in bytes; a bigger export stops and writes nothing")
	var sets setFlags
	fs.Var(&sets, "set", "path=value override (repeatable)")
	var lim limits
	lim.register(fs)
	pos, err := parse(fs, args, 1, "one FILE or PRESET")
	if err != nil {
		return err
	}
	if err := lim.check(); err != nil {
		return err
	}
	if *maxSize <= 0 {
		return badInputf("schedsim export: -max-size %d: want a positive number of bytes", *maxSize)
	}
	intervalSet := false
	fs.Visit(func(f *flag.Flag) { intervalSet = intervalSet || f.Name == "interval" })
	if *format == "" {
		return badInputf("schedsim export: -format %s is required", strings.Join(interop.FormatNames(), "|"))
	}
	ft, err := interop.LookupFormat(*format)
	if err != nil {
		return badInputf("schedsim export: -format %q: want one of %s", *format, strings.Join(interop.FormatNames(), ", "))
	}
	if *out == "" {
		return badInputf("schedsim export: -o OUT is required (- for stdout)")
	}
	if *interval < time.Microsecond {
		return badInputf("schedsim export: -interval %v: want at least 1us", *interval)
	}
	s, err := load(pos[0], sets)
	if err != nil {
		return err
	}
	cfg, err := s.Config()
	if err != nil {
		return badInput(err)
	}
	src := interop.Source{Scenario: s}
	if !ft.Runs {
		// The workload itself, nothing is run: written in memory first, so
		// that what cannot be exported is bad input before a file exists.
		var buf bytes.Buffer
		probs, err := interop.Export(&buf, src, *format, interop.Options{})
		if err != nil {
			return badInput(err)
		}
		for _, p := range probs {
			fmt.Fprintln(stderr, terminalSafe(p.String()))
		}
		if *out == "-" {
			if _, err := stdout.Write(buf.Bytes()); err != nil {
				return internal(err)
			}
			return nil
		}
		n, err := writeOutput(*out, nil, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %d bytes, %d tasks, %d problems\n", *out, *format, n, len(s.Tasks), len(probs))
		return nil
	}
	lim.apply(cfg)
	sm, err := newSim(cfg)
	if err != nil {
		return internal(fmt.Errorf("internal error: the simulator refused a valid scenario: %v", err))
	}
	src.Sim = sm
	// An interrupt (Ctrl-C, SIGTERM) or the wall-clock limit ends the run
	// where it is; an interrupt then writes nothing.
	ctx, stopSignals := exportContext()
	defer stopSignals()
	deadline := lim.deadline()
	lim.stop = func() bool { return ctx.Err() != nil }
	size := &sizeCap{max: *maxSize}
	var stopErr error
	opt := interop.Options{Interval: int64(*interval), Stop: func() bool {
		switch {
		case size.hit:
			return true // the writer reports errTooBig
		case ctx.Err() != nil:
			stopErr = errInterrupted
		case !deadline.IsZero() && time.Now().After(deadline):
			stopErr = lim.wallError(sm)
		}
		return stopErr != nil
	}}
	write := func(w io.Writer) error {
		var err error
		if *format == "schedstat" && !intervalSet {
			// One snapshot at the end: the run first, within the limits.
			if stopErr = lim.runTo(sm, 0, deadline); stopErr != nil {
				var le *limitError
				if !errors.As(stopErr, &le) {
					return stopErr
				}
			}
			err = interop.WriteSchedstat(w, sm)
		} else {
			var probs []interop.Problem
			probs, err = interop.Export(w, src, *format, opt)
			for _, p := range probs {
				fmt.Fprintln(stderr, terminalSafe(p.String()))
			}
		}
		if err == nil && stopErr == errInterrupted {
			err = errInterrupted
		}
		return err
	}
	limited := func() error {
		if stopErr != nil {
			return stopErr
		}
		return lim.simError(sm)
	}
	if *out == "-" {
		cw := &countingWriter{w: stdout, cap: size}
		if err := write(cw); err != nil {
			if errors.Is(err, errTooBig) {
				return &limitError{fmt.Sprintf("limit: the export reached -max-size %d bytes at %.3f ms of simulated time; what was written to stdout is cut there. %s", *maxSize, float64(sm.Now())/1e6, raiseSize(*maxSize))}
			}
			return internal(err)
		}
		return limited()
	}
	n, err := writeOutput(*out, size, write)
	if err != nil {
		if errors.Is(err, errTooBig) {
			return &limitError{fmt.Sprintf("limit: the export reached -max-size %d bytes at %.3f ms of simulated time; nothing was written to %s. %s", *maxSize, float64(sm.Now())/1e6, *out, raiseSize(*maxSize))}
		}
		if errors.Is(err, errInterrupted) {
			return &exitError{exitInterrupted, fmt.Errorf("schedsim export: interrupted at %.3f ms of simulated time; nothing was written to %s", float64(sm.Now())/1e6, *out)}
		}
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %d bytes, %.0f ms simulated\n", *out, *format, n, float64(sm.Now())/1e6)
	return limited()
}

// DefaultMaxExportBytes is the default -max-size of an export: 512 MiB, more
// than Perfetto's UI or a spreadsheet opens comfortably (docs/interop.md:
// one second of tbench-pairs with one pair is 3.4 MB of Perfetto JSON, with
// 40 pairs 48 MB per 100 ms, so a second of 40 pairs still fits); a bigger
// file is nearly always a too-short -interval or too long a run.
const DefaultMaxExportBytes = 512 << 20

func raiseSize(max int64) string {
	return fmt.Sprintf("Raise it with -max-size %d, or use a longer -interval, or shorten the duration (-set duration=...)", 4*max)
}

// exitInterrupted is the status of an export ended by an interrupt (128 +
// SIGINT, as shells report it).
const exitInterrupted = 130

var (
	errTooBig      = errors.New("output size limit reached")
	errInterrupted = errors.New("interrupted")
)

// exportContext is cancelled by an interrupt or SIGTERM; a test replaces it.
var exportContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// writeOutput fills a temporary file next to path with write and renames it
// to path only when write succeeded, so path is either untouched or
// complete: a failed, oversized or interrupted export leaves no partial
// file. A path whose directory cannot be written is bad input; a write that
// fails half way is an internal error; errTooBig and errInterrupted are
// returned as they are.
func writeOutput(path string, size *sizeCap, write func(io.Writer) error) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// Named by the path given, not by the temporary file's.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return 0, badInputf("%s: cannot write there: %v", path, err)
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(f, 256<<10)
	cw := &countingWriter{w: bw, cap: size}
	err = write(cw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		if errors.Is(err, errTooBig) || errors.Is(err, errInterrupted) {
			return 0, err
		}
		return 0, internal(fmt.Errorf("writing %s: %v", path, err))
	}
	return cw.n, nil
}

// sizeCap is an output size limit shared by a writer and the run feeding
// it: hit is set when the writer refused to go past max, so that the run
// stops too instead of simulating for nothing.
type sizeCap struct {
	max int64 // 0: no limit
	hit bool
}

// countingWriter counts bytes and refuses to go past its cap (nil: none).
type countingWriter struct {
	w   io.Writer
	n   int64
	cap *sizeCap
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.cap != nil && c.cap.max > 0 && c.n+int64(len(p)) > c.cap.max {
		c.cap.hit = true
		return 0, errTooBig
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
