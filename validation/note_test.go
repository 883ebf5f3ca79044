package validation

import (
	"strings"
	"testing"
)

// Every reference in a note names a point of its table; expandNote fills
// each from the table's results, as the report prints the cells.
func TestNoteRefs(t *testing.T) {
	for _, tb := range Tables() {
		if bad := noteRefs(tb); len(bad) > 0 {
			t.Errorf("%s: note references that name no point: %s", tb.ID, strings.Join(bad, ", "))
		}
	}
	tb := &Table{Note: "at 8 clients {sim:8 clients} ({before:8 clients} → {after:8 clients} ops/s, wake p50 {p50b:8 clients} → {p50a:8 clients} us): it {verdict:8 clients}",
		Points: []Point{{Label: "8 clients"}}}
	if bad := noteRefs(tb); len(bad) > 0 {
		t.Fatalf("noteRefs: %v", bad)
	}
	tr := &TableResult{Table: tb, Points: []PointResult{{Point: &tb.Points[0], SimRatio: 1.71,
		Before: Run{OpsPerS: 171851, WakeupP50US: 21.4}, After: Run{OpsPerS: 293867, WakeupP50US: 4.19}, Verdict: Verdict{Holds: false}}}}
	want := "at 8 clients +71.0 % (171851 → 293867 ops/s, wake p50 21.4 → 4.19 us): it misses"
	if got := expandNote(tr); got != want {
		t.Errorf("expandNote:\n got %q\nwant %q", got, want)
	}
	for _, note := range []string{"{sim:9 clients}", "{ops:8 clients}", "a { brace"} {
		if bad := noteRefs(&Table{Note: note, Points: tb.Points}); len(bad) == 0 {
			t.Errorf("noteRefs(%q) found nothing wrong", note)
		}
	}
}
