package interop

import (
	"fmt"
	"io"
	"strings"

	"schedplay/scenarios"
	"schedplay/sim"
)

// Source is what an export reads: the scenario, and for a format that
// writes a run (Format.Runs), a simulator of it (at its current time; the
// export runs it to Options.Until or the end).
type Source struct {
	Scenario *scenarios.Scenario
	Sim      *sim.Sim
}

// Format is one export format: what `schedsim export -format` and the
// page's export(format) write. A new format is a new row of Formats.
type Format struct {
	Name string // the -format value
	Ext  string // file name suffix, dot included
	MIME string // media type of the file
	Doc  string // one line for usage texts
	// Runs says whether the format writes a run of the simulator (Source.Sim
	// is needed) or the workload itself (nothing is run).
	Runs bool
	// Write writes src to w; problems are what the format cannot express
	// ("path: problem"), which do not stop it.
	Write func(w io.Writer, src Source, opt Options) ([]Problem, error)
}

// run adapts a writer of a simulator run to Format.Write.
func run(write func(io.Writer, *sim.Sim, Options) error) func(io.Writer, Source, Options) ([]Problem, error) {
	return func(w io.Writer, src Source, opt Options) ([]Problem, error) {
		return nil, write(w, src.Sim, opt)
	}
}

// Formats are the export formats, in the order usage texts list them.
var Formats = []Format{
	{"perfetto", ".perfetto.json", "application/json", "a trace-event JSON file for ui.perfetto.dev or chrome://tracing", true, run(WritePerfetto)},
	{"schedstat", ".schedstat.txt", "text/plain", "/proc/schedstat (version 15 for base v3.8, 17 for v6.17) at the end, or every Interval when it is given", true, run(writeSchedstat)},
	{"csv", ".csv", "text/csv", "a long-form time series, time_ms,kind,id,signal,value, sampled every Interval", true, run(WriteCSV)},
	{FormatPerfettoProto, ".perfetto-trace", "application/octet-stream", "a binary Perfetto trace (ftrace sched events per CPU, process tree, the simulator's decisions and counters as track events)", true, run(WritePerfettoProto)},
	{FormatRTApp, ".rtapp.json", "application/json", "the workload as an rt-app JSON file (nothing is run); what rt-app cannot express is reported", false, writeRTApp},
}

// writeSchedstat is one snapshot at the end when opt.Interval is 0, else
// one every Interval.
func writeSchedstat(w io.Writer, s *sim.Sim, opt Options) error {
	if opt.Interval > 0 {
		return WriteSchedstatSeries(w, s, opt)
	}
	if opt.Until > 0 {
		s.RunUntil(opt.Until)
	} else {
		s.Run()
	}
	return WriteSchedstat(w, s)
}

func writeRTApp(w io.Writer, src Source, _ Options) ([]Problem, error) {
	data, probs, err := WriteRTApp(src.Scenario)
	if err != nil {
		return probs, err
	}
	_, err = w.Write(data)
	return probs, err
}

// LookupFormat returns the format named name.
func LookupFormat(name string) (Format, error) {
	for _, f := range Formats {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%q: the formats are %s", name, strings.Join(FormatNames(), ", "))
}

// FormatNames lists the formats' names.
func FormatNames() []string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return names
}

// Export writes src in format: the one dispatcher of the CLI and the page.
func Export(w io.Writer, src Source, format string, opt Options) ([]Problem, error) {
	f, err := LookupFormat(format)
	if err != nil {
		return nil, err
	}
	if f.Runs && src.Sim == nil {
		return nil, fmt.Errorf("export %s: no simulator to run", format)
	}
	return f.Write(w, src, opt)
}
