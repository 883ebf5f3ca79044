//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFieldTruth: every field shows the value being played or its own
// error (issue 20, 4: Cores = 0, Nodes = -2, SMT = "abc", then SMT fixed:
// all errors vanished while Cores still showed 0 and another machine
// played).
func TestFieldTruth(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	tb.showEditor(true)
	tb.click("#tab-machine")
	cores, nodes, smt := path("machine.cores_per_cluster"), path("machine.nodes"), path("machine.threads_per_core")
	sc := tb.scenario()
	tb.typeInto(cores, "0")
	tb.typeInto(nodes, "-2")
	tb.typeInto(smt, "abc")
	tb.typeInto(smt, fmt.Sprint(sc.Machine.ThreadsPerCore))
	time.Sleep(300 * time.Millisecond)
	played := tb.scenario().Machine
	check := func(sel, name string, want int) {
		v := eval[string](tb, `document.querySelector(`+jsString(sel)+`).value`)
		e := tb.fieldError(sel)
		if v != fmt.Sprint(want) && e == "" {
			t.Errorf("%s shows %q with no error while %d plays", name, v, want)
		}
	}
	check(cores, "Cores", played.CoresPerCluster)
	check(nodes, "Nodes", played.Nodes)
	check(smt, "SMT", played.ThreadsPerCore)
	if e := tb.fieldError(smt); e != "" {
		t.Errorf("the fixed SMT field still shows %q", e)
	}
	// The summary is the machine that plays.
	sum := eval[string](tb, `document.querySelector("#machine-fields .summary").textContent`)
	if !strings.Contains(sum, fmt.Sprintf("= %d CPUs", eval[int](tb, `window.schedplay.describe().ncpu`))) {
		t.Errorf("summary %q", sum)
	}
	// Fixing Cores clears its error, Nodes keeps its own.
	tb.typeInto(cores, fmt.Sprint(played.CoresPerCluster))
	if e := tb.fieldError(cores); e != "" {
		t.Errorf("the fixed Cores field still shows %q", e)
	}
	check(nodes, "Nodes", played.Nodes)
}
