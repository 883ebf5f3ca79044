//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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

// TestFieldsApplyAlike (issue 20, Smaller: "count applies on blur while
// machine fields apply as you type"): a group's count and a machine field
// behave the same: typing alone changes nothing that plays, Enter applies
// (as does leaving the field: typeInto's Tab, in the other tests).
func TestFieldsApplyAlike(t *testing.T) {
	tb := newTab(t, true)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	for _, f := range []struct{ tab, path, typed, key string }{
		{"#tab-tasks", "tasks[0].count", "3", `"count":3`},
		{"#tab-machine", "machine.cores_per_cluster", "3", `"cores_per_cluster":3`},
	} {
		tb.click(f.tab)
		sel := path(f.path)
		before := eval[string](tb, `window.schedplay.scenario()`)
		eval[chromedp.Void](tb, `(() => { const e = document.querySelector(`+jsString(sel)+`); e.focus(); e.select(); })()`)
		if err := chromedp.Do(tb.ctx, chromedp.SendKeys(chromedp.CSS(sel), f.typed)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond)
		if got := eval[string](tb, `window.schedplay.scenario()`); got != before {
			t.Errorf("%s: typing %q applied it before Enter", f.path, f.typed)
		}
		if err := chromedp.Do(tb.ctx, chromedp.SendKeys(chromedp.CSS(sel), kb.Enter)); err != nil {
			t.Fatal(err)
		}
		tb.poll(`window.schedplay.scenario().includes(`+jsString(f.key)+`)`, 5*time.Second)
	}
}
