package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"schedplay/scenarios"
)

// cmdFields prints the scenario schema: every path -set takes, with its
// kind, default, range and the format version it appeared in; -json prints
// the same table as the page receives it.
func cmdFields(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("fields", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the schema as JSON")
	if err := fs.Parse(args); err != nil {
		return badInputf("fields: %v", err)
	}
	if fs.NArg() != 0 {
		return badInputf("fields: takes no arguments")
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(scenarios.Schema())
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tKIND\tDEFAULT\tRANGE\tSINCE\tMEANING")
	for _, f := range scenarios.Fields() {
		def := f.Default
		if def == "" {
			def = "-"
		}
		rng := f.Range()
		if rng == "" {
			rng = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", f.Path, f.Kind, def, rng, f.Since, f.Doc)
	}
	if err := tw.Flush(); err != nil {
		return internal(err)
	}
	fmt.Fprintln(stdout, "\n[i] is a list index; a task is also tasks.NAME. An empty value restores the default.")
	ph := scenarios.Placeholders()
	for _, k := range []string{"<level>", "<flag>", "<feature>"} {
		fmt.Fprintf(stdout, "%s: %v\n", k, ph[k])
	}
	return nil
}
