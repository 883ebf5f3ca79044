package validation

import (
	"fmt"
	"regexp"
	"strings"
)

// A table's note explains its cells in words, and the simulator's numbers
// it quotes change with the model. A number the note takes from the
// table's own cells is written as a reference, filled in when the report is
// written, so that a note cannot quote a run the model no longer gives:
//
//	{sim:LABEL}     the point's sim change, as the table prints it ("+71.0 %", "×8.24")
//	{before:LABEL}  the sim's before, ops/s (or the time's metric)
//	{after:LABEL}   the sim's after
//	{p50b:LABEL}    wake-up latency p50 before, us (the why column's)
//	{p50a:LABEL}    wake-up latency p50 after, us
//	{searchb:LABEL} the scheduler's search, % of CPU time before ("0.11")
//	{searcha:LABEL} the same after
//	{migb:LABEL}    migrations a simulated second before
//	{miga:LABEL}    the same after
//	{verdict:LABEL} "holds" or "misses"
//
// LABEL is the point's label ("8 clients", "22 MB, 24 clients"). Numbers
// from other runs (one seed alone, a variant tried and dropped, the model
// before a change) stay written out, with what they are said beside them.

var noteRef = regexp.MustCompile(`\{(sim|before|after|p50b|p50a|searchb|searcha|migb|miga|verdict):([^{}]+)\}`)

// noteRefs lists a note's references that name no point of t or no known
// field: each is a mistake in the note.
func noteRefs(t *Table) []string {
	labels := map[string]bool{}
	for i := range t.Points {
		labels[t.Points[i].Label] = true
	}
	var bad []string
	for _, m := range noteRef.FindAllStringSubmatch(t.Note, -1) {
		if !labels[m[2]] {
			bad = append(bad, m[0])
		}
	}
	// A brace that is not a reference is a typo in one.
	if n, refs := strings.Count(t.Note, "{"), len(noteRef.FindAllString(t.Note, -1)); n != refs {
		bad = append(bad, fmt.Sprintf("%d braces for %d references", n, refs))
	}
	return bad
}

// expandNote fills in the note's references from the table's results.
func expandNote(tr *TableResult) string {
	byLabel := map[string]*PointResult{}
	for i := range tr.Points {
		byLabel[tr.Points[i].Point.Label] = &tr.Points[i]
	}
	return noteRef.ReplaceAllStringFunc(tr.Table.Note, func(ref string) string {
		m := noteRef.FindStringSubmatch(ref)
		pr := byLabel[m[2]]
		if pr == nil {
			return ref // noteRefs' test names it
		}
		switch m[1] {
		case "sim":
			return ratio(pr.SimRatio)
		case "before":
			return num(pr.Before.OpsPerS)
		case "after":
			return num(pr.After.OpsPerS)
		case "p50b":
			return num(pr.Before.WakeupP50US)
		case "p50a":
			return num(pr.After.WakeupP50US)
		case "searchb":
			return fmt.Sprintf("%.2f", pr.Before.SearchPct)
		case "searcha":
			return fmt.Sprintf("%.2f", pr.After.SearchPct)
		case "migb":
			return num(pr.Before.Migrations)
		case "miga":
			return num(pr.After.Migrations)
		default: // verdict
			if pr.Verdict.Holds {
				return "holds"
			}
			return "misses"
		}
	})
}
