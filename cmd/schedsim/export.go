package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
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
	var sets setFlags
	fs.Var(&sets, "set", "path=value override (repeatable)")
	pos, err := parse(fs, args, 1, "one FILE or PRESET")
	if err != nil {
		return err
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
			fmt.Fprintln(stderr, p)
		}
		if *out == "-" {
			if _, err := stdout.Write(buf.Bytes()); err != nil {
				return internal(err)
			}
			return nil
		}
		n, err := writeOutput(*out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err })
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %d bytes, %d tasks, %d problems\n", *out, *format, n, len(s.Tasks), len(probs))
		return nil
	}
	sm, err := newSim(cfg)
	if err != nil {
		return internal(fmt.Errorf("internal error: the simulator refused a valid scenario: %v", err))
	}
	src.Sim = sm
	opt := interop.Options{Interval: int64(*interval)}
	if *format == "schedstat" && !intervalSet {
		opt.Interval = 0 // one snapshot at the end
	}
	write := func(w io.Writer) error {
		probs, err := interop.Export(w, src, *format, opt)
		for _, p := range probs {
			fmt.Fprintln(stderr, p)
		}
		return err
	}
	if *out == "-" {
		if err := write(stdout); err != nil {
			return internal(err)
		}
		return nil
	}
	n, err := writeOutput(*out, write)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %d bytes, %.0f ms simulated\n", *out, *format, n, float64(sm.Now())/1e6)
	return nil
}

// writeOutput creates path and fills it with write; on failure the partial
// file is removed. A path that cannot be created is bad input; a write that
// fails half way is an internal error.
func writeOutput(path string, write func(io.Writer) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, badInput(err)
	}
	cw := &countingWriter{w: bufio.NewWriterSize(f, 256<<10)}
	err = write(cw)
	if err == nil {
		err = cw.w.(*bufio.Writer).Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return 0, internal(fmt.Errorf("writing %s: %v", path, err))
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
