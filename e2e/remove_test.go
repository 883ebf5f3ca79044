//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// cardViewports: the editor's dialogs and errors on a desktop and on a
// phone (where the editor is a drawer).
var cardViewports = []viewport{
	{"desktop", 1600, 1000, 1, false},
	{"phone-portrait", 390, 844, 3, true},
}

// shot writes a screenshot of the page to e2e/out/<name>-<viewport>.png.
func (tb *tab) shot(name string, v viewport) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := os.MkdirAll("out", 0o755); err != nil {
		tb.t.Fatal(err)
	}
	file := filepath.Join("out", name+"-"+v.name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("wrote e2e/%s", file)
}

// editorTab opens the editor's tab (on a phone, the editor's drawer first).
func (tb *tab) editorTab(id string) {
	tb.t.Helper()
	tb.reach(id)
	tb.click(id)
}

// showPanes shows each of the editor's panes in turn and comes back to
// the scenario's: the editor builds a pane for a scenario's structure when
// the pane is first shown (web/editor.js, PANES). Call it once the editor
// has the scenario (its preset marked, or the field looked for changed).
func (tb *tab) showPanes() {
	tb.t.Helper()
	for _, id := range []string{"#tab-machine", "#tab-tasks", "#tab-policy", "#tab-scenario"} {
		tb.click(id)
	}
	tb.poll(`["scenario-fields", "machine-fields", "task-fields", "policy-fields"].every((id) => document.getElementById(id).childElementCount > 0)`, 10*time.Second)
}

// confirmItems is the list the confirmation dialog shows, nil when no
// dialog is open.
func (tb *tab) confirmItems() []string {
	tb.t.Helper()
	return eval[[]string](tb, `(() => { const d = document.querySelector("dialog#confirm[open]"); return d ? [...d.querySelectorAll("li")].map((li) => li.textContent) : null; })()`)
}

// TestRemoveGroupAsks (issue 20, problem 5: groups that reference each
// other cannot be removed): removing the client of tbench-pairs, which the
// server wakes and takes its count from, opens a dialog that lists both
// places by the server's card; Cancel changes nothing; "Remove the
// references too" removes it all, and one undo brings back the scenario as
// it was. A fork inside a repeat's body (kernbench-numaq's cc) is a
// reference too. The old page removed the client without asking and
// refused cc with "tasks[0].program[0].program[1].fork: ...".
func TestRemoveGroupAsks(t *testing.T) {
	for _, v := range cardViewports {
		t.Run(v.name, func(t *testing.T) { removeGroupAsks(t, v) })
	}
}

func removeGroupAsks(t *testing.T, v viewport) {
	tb := newTab(t, true)
	tb.emulate(v)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	before := eval[string](tb, `window.schedplay.scenario()`)
	tb.editorTab("#tab-tasks")
	client := `#task-fields section.task[data-task="0"] .task-head button`
	tb.click(client)
	tb.poll(`document.querySelector("dialog#confirm[open]") !== null`, 5*time.Second)
	items := tb.confirmItems()
	title := eval[string](tb, `document.getElementById("confirm-title").textContent`)
	t.Logf("dialog %q: %q", title, items)
	want := []string{
		`group "server": takes its count from "client" (keeps 1 as its own)`,
		`group "server", step 3: wakes "client" (the step goes)`,
	}
	if strings.Join(items, "\n") != strings.Join(want, "\n") || title != `Remove group "client"?` {
		t.Errorf("the dialog says %q %q, want %q", title, items, want)
	}
	if b := eval[string](tb, `document.getElementById("confirm-ok").textContent + "|" + document.getElementById("confirm-cancel").textContent`); b != "Remove the references too|Cancel" {
		t.Errorf("the dialog's buttons: %q", b)
	}
	tb.shot("remove-dialog", v)
	// Keys are the dialog's: T does not switch talk mode on behind it.
	tb.press("t")
	if eval[bool](tb, `window.schedplay.talk()`) {
		t.Errorf("T behind the open dialog switched talk mode on")
	}
	tb.click("#confirm-cancel")
	tb.poll(`document.querySelector("dialog#confirm") === null`, 5*time.Second)
	if got := eval[string](tb, `window.schedplay.scenario()`); got != before {
		t.Errorf("Cancel changed the scenario")
	}

	tb.click(client)
	tb.click("#confirm-ok")
	sc := tb.scenario()
	if len(sc.Tasks) != 1 || sc.Tasks[0].Name != "server" || sc.Tasks[0].CountOf != "" || sc.Tasks[0].Count != 1 || strings.Contains(string(sc.Canonical()), `"client"`) {
		t.Fatalf("after removing the client: %s", sc.Canonical())
	}
	if e := eval[string](tb, `window.schedplay.error()`); e != "" {
		t.Errorf("error() = %q", e)
	}
	// One undo: everything back, the title's "(edited)" too. (On a phone
	// the undo button is in the header, under the editor's drawer.)
	tb.closeDrawers()
	tb.poll(`!document.getElementById("undo").disabled`, 10*time.Second)
	tb.click("#undo")
	tb.poll(`window.schedplay.scenario() === `+jsString(before), 10*time.Second)
	// The client's card is back when the tasks pane is shown again (on a
	// phone the editor's drawer is closed, and its panes wait for it).
	tb.editorTab("#tab-tasks")
	tb.poll(`document.querySelectorAll("#task-fields section.task").length === 2`, 5*time.Second)

	// A fork in a repeat's body.
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("kernbench-numaq")`); !r.OK {
		t.Fatal(r.Error)
	}
	// The editor follows the new scenario (it refreshes on the page's event).
	tb.poll(`document.querySelector(`+jsString(path("tasks[1].name"))+`).value === "cc"`, 10*time.Second)
	tb.editorTab("#tab-tasks")
	tb.click(`#task-fields section.task[data-task="1"] .task-head button`) // cc
	tb.poll(`document.querySelector("dialog#confirm[open]") !== null`, 5*time.Second)
	if items := tb.confirmItems(); len(items) != 1 || items[0] != `group "make", step 2 › step 3: forks "cc" (the step goes)` {
		t.Errorf("removing cc: the dialog lists %q", items)
	}
	tb.click("#confirm-ok")
	sc = tb.scenario()
	if len(sc.Tasks) != 1 || sc.Tasks[0].Name != "make" || len(sc.Tasks[0].Program[1].Program) != 2 {
		t.Errorf("after removing cc: %s", sc.Canonical())
	}
	if e := eval[string](tb, `window.schedplay.error()`); e != "" {
		t.Errorf("error() = %q", e)
	}
}

// TestErrorNamesCard (issue 20, problem 5: the error names the wrong card
// in JSON-path text): a machine change that leaves a group's affinity
// beyond the last CPU is refused, and the message next to the machine
// field names the group's card and field ('group "client", cpus: CPU 79
// does not exist ...'), not "tasks[0].cpus"; the same problem shows on the
// client's card, at its cpus field. The old page wrote "tasks[0].cpus: ...".
func TestErrorNamesCard(t *testing.T) {
	for _, v := range cardViewports {
		t.Run(v.name, func(t *testing.T) { errorNamesCard(t, v) })
	}
}

func errorNamesCard(t *testing.T, v viewport) {
	tb := newTab(t, true)
	tb.emulate(v)
	tb.open(serverURL)
	if r := eval[apiResult](tb, `window.schedplay.loadPreset("tbench-pairs")`); !r.OK {
		t.Fatal(r.Error)
	}
	tb.editorTab("#tab-tasks")
	tb.typeInto(path("tasks[0].cpus"), "40-79")
	if c := tb.scenario().Tasks[0].CPUs; c != "40-79" {
		t.Fatalf("cpus = %q", c)
	}
	tb.click("#tab-machine")
	nodes := path("machine.nodes")
	tb.typeInto(nodes, "1")
	e := tb.fieldError(nodes)
	t.Logf("next to nodes: %q", e)
	if !strings.HasPrefix(e, `group "client", cpus: CPU 79 does not exist`) || strings.Contains(e, "tasks[") {
		t.Errorf("next to the nodes field: %q, want it to name the client's card", e)
	}
	if e := tb.fieldError(path("tasks[0].cpus")); !strings.Contains(e, "CPU 79 does not exist") {
		t.Errorf("on the client's cpus field: %q", e)
	}
	tb.shot("card-error-machine", v)
	tb.click("#tab-tasks")
	if !eval[bool](tb, `document.querySelector(`+jsString(path("tasks[0].cpus"))+`).closest(".field").classList.contains("has-error")`) {
		t.Errorf("the client's cpus field is not marked")
	}
	eval[chromedp.Void](tb, `document.querySelector(`+jsString(path("tasks[0].cpus"))+`).scrollIntoView({block: "center"})`)
	tb.shot("card-error-tasks", v)
}
