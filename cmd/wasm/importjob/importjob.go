// Package importjob is the page's import as the simulator's worker runs it
// (cmd/wasm/pageio.go): it recognises and decodes the data a user pasted
// or dropped against the scenario being played, and checks the result as
// a load would, so the page only applies a scenario that loads. It does
// not import syscall/js: it is tested natively.
package importjob

import (
	"bytes"
	"fmt"

	"schedplay/cmd/wasm/pagemodel"
	"schedplay/interop"
	"schedplay/scenarios"
	"schedplay/sim"
)

// Limits: a text trace may be large; a scenario, an rt-app file or lscpu
// output is refused over MaxText (scenarios are refused over 256 KiB
// anyway).
const (
	MaxBytes = 32 << 20
	MaxText  = 1 << 20
)

// KindFtrace is a sched trace (tracefs or trace-cmd report text).
const KindFtrace = "ftrace"

// SniffFtrace reports whether text looks like a tracefs or trace-cmd text
// trace (pagemodel.Sniff would take its '#' header for lscpu).
func SniffFtrace(text []byte) bool {
	head := text[:min(len(text), 64<<10)]
	return bytes.HasPrefix(bytes.TrimSpace(head), []byte("# tracer:")) ||
		bytes.Contains(head, []byte(" sched_switch: ")) || bytes.Contains(head, []byte(" sched_wakeup: ")) ||
		bytes.Contains(head, []byte(" sched_waking: "))
}

// Result is an import's outcome: the kind recognised, the scenario's
// canonical JSON (nil on error), what the importer could not map as
// written ("path: what happened"; also on error), and the error.
type Result struct {
	Kind     string
	Scenario []byte
	// Model is the editor's model of Scenario (pagemodel.Describe, as
	// JSON), made where the import runs, off the page's main thread: the
	// editor reads it right after the import (issue 19: describing a
	// 64-group import took 26-45 ms of the main thread).
	Model []byte
	Notes []string
	Err   error
}

// Run decodes data (a file named name) as kind ("" recognises it) against
// cur, the canonical JSON of the scenario being played. progress(frac) is
// called on the way: frac in [0, 1] where the importer can say how far it
// is (a trace), -1 otherwise.
func Run(data []byte, name, kind string, cur []byte, progress func(frac float64)) Result {
	if progress == nil {
		progress = func(float64) {}
	}
	if kind == "" && SniffFtrace(data) {
		kind = KindFtrace
	}
	out := Result{Kind: kind}
	if len(data) > MaxBytes || kind != KindFtrace && len(data) > MaxText {
		out.Err = fmt.Errorf("%d bytes is too large to import (the limit is %d; only a sched trace may be up to %d)", len(data), MaxText, MaxBytes)
		return out
	}
	c, err := scenarios.Decode(cur)
	if err != nil {
		out.Err = err
		return out
	}
	var im pagemodel.Imported
	if kind == KindFtrace {
		im, err = importFtrace(c, data, name, progress)
	} else {
		progress(-1)
		im, err = pagemodel.Import(c, string(data), name, kind)
	}
	out.Kind = im.Kind
	for _, p := range im.Notes {
		out.Notes = append(out.Notes, p.String())
	}
	if err == nil {
		// What the page's load would refuse (sim.New's checks), refused
		// here, before the page replaces anything.
		var cfg *sim.Config
		if cfg, err = im.Scenario.Config(); err == nil {
			_, err = sim.New(cfg)
		}
	}
	if err != nil {
		out.Err = err
		return out
	}
	out.Scenario = im.Scenario.Canonical()
	out.Model, out.Err = pagemodel.DescribeJSON(out.Scenario)
	if out.Err != nil {
		out.Scenario = nil
	}
	return out
}

// importFtrace imports a sched trace: its tasks on the machine the trace
// shows (the importer's notes say what it assumed), the scheduler policy
// of the scenario being played (a trace gives none).
func importFtrace(cur *scenarios.Scenario, data []byte, name string, progress func(float64)) (pagemodel.Imported, error) {
	out := pagemodel.Imported{Kind: KindFtrace}
	sc, notes, err := interop.ImportFtraceWith(data, interop.FtraceOptions{Progress: progress})
	out.Notes = notes
	if err != nil {
		return out, fmt.Errorf("ftrace: %w", err)
	}
	out.Scenario, out.Notes = pagemodel.Adopt(sc, cur, "trace", name, out.Notes)
	return out, nil
}
