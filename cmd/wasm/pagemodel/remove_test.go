package pagemodel

import (
	"reflect"
	"testing"

	"schedplay/scenarios"
)

// Client and server wake each other (and the server takes the client's
// count): removing either lists the other's wake step (and count_of), and
// RemoveGroup takes them out in one edit.
func TestRemoveGroupClientServer(t *testing.T) {
	sc, err := scenarios.Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	rs := Removals(sc)
	want := []Removal{
		{Groups: []int{0}, Refs: []Ref{{Path: "tasks[1].count_of", Field: "count_of", Name: "client", Text: `group "server": takes its count from "client" (keeps 1 as its own)`}, {Path: "tasks[1].program[2].wake", Field: "wake", Name: "client", Text: `group "server", step 3: wakes "client" (the step goes)`}}},
		{Groups: []int{1}, Refs: []Ref{{Path: "tasks[0].program[1].wake", Field: "wake", Name: "server", Text: `group "client", step 2: wakes "server" (the step goes)`}}},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("Removals = %+v\nwant %+v", rs, want)
	}
	c := sc.Clone()
	if err := RemoveGroup(c, 0); err != nil {
		t.Fatalf("RemoveGroup(client): %v", err)
	}
	if len(c.Tasks) != 1 || c.Tasks[0].Name != "server" || c.Tasks[0].CountOf != "" || c.Tasks[0].Count != 1 || len(c.Tasks[0].Program) != 2 {
		t.Errorf("after removing the client: %+v", c.Tasks)
	}
	// The session's edit is the same thing.
	num, str := args("removeTask", 1.0)
	edit, err := EditOp("removeTask", num, str)
	if err != nil {
		t.Fatal(err)
	}
	c = sc.Clone()
	if err := edit(c); err != nil {
		t.Fatalf("removeTask(server): %v", err)
	}
	if len(c.Tasks) != 1 || c.Tasks[0].Name != "client" || len(c.Tasks[0].Program) != 2 {
		t.Errorf("after removing the server: %+v", c.Tasks)
	}
	if len(sc.Tasks) != 2 {
		t.Errorf("the preset itself changed")
	}
}

// A fork inside a repeat's body names a group too; a group that only the
// removed group starts goes with it. (scenarios.RemoveTask left the fork in
// make's repeat body: "tasks[0].program[0].program[1].fork: "cc" is not the
// name of a task".)
func TestRemoveGroupForks(t *testing.T) {
	sc, err := scenarios.Preset("kernbench-numaq")
	if err != nil {
		t.Fatal(err)
	}
	rs := Removals(sc)
	if want := (Removal{Groups: []int{1}, Refs: []Ref{{Path: "tasks[0].program[1].program[2].fork", Field: "fork", Name: "cc", Text: `group "make", step 2 › step 3: forks "cc" (the step goes)`}}}); !reflect.DeepEqual(rs[1], want) {
		t.Errorf("removing cc: %+v, want %+v", rs[1], want)
	}
	if want := []int{0, 1}; !reflect.DeepEqual(rs[0].Groups, want) {
		t.Errorf("removing make takes %v, want %v (cc is only started by make)", rs[0].Groups, want)
	}
	c := sc.Clone()
	if err := RemoveGroup(c, 1); err != nil {
		t.Fatalf("RemoveGroup(cc): %v", err)
	}
	if len(c.Tasks) != 1 || len(c.Tasks[0].Program[1].Program) != 2 {
		t.Errorf("after removing cc: %+v", c.Tasks)
	}
}

// A rejected removal names the places as the page shows them: the paths
// of the result map back to the paths before the removal.
func TestRemoveGroupErrorPaths(t *testing.T) {
	sc, err := scenarios.Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	_, where := without(sc, 0) // the client: the server is tasks[0] after
	for from, want := range map[string]string{
		"tasks[0].program[1].run": "tasks[1].program[1].run",
		"tasks[0].count":          "tasks[1].count",
		"tasks[0].program":        "tasks[1].program",
		"tasks[7].name":           "tasks",
		"machine.nodes":           "machine.nodes",
	} {
		if got := mapPath(from, where); got != want {
			t.Errorf("mapPath(%q) = %q, want %q", from, got, want)
		}
	}
	k, _ := scenarios.Preset("kernbench-numaq")
	// make's job loop (wait, run, fork cc) with a step after the fork:
	// removing cc takes the fork (step 2), and the step after it was 3.
	body := k.Clone()
	body.Tasks[0].Program[1].Program = append(body.Tasks[0].Program[1].Program, scenarios.Step{Run: "1us"})
	_, where = without(body, 1)
	if got, want := mapPath("tasks[0].program[1].program[2].run", where), "tasks[0].program[1].program[3].run"; got != want {
		t.Errorf("mapPath in a repeat body = %q, want %q", got, want)
	}
	// Removing make takes cc (only make starts it): nothing is left.
	before := string(k.Canonical())
	err = RemoveGroup(k, 0)
	if err == nil {
		t.Fatal("removing every group: no error")
	}
	if string(k.Canonical()) != before {
		t.Errorf("a rejected removal changed the scenario")
	}
	if err := RemoveGroup(k, 2); err == nil {
		t.Errorf("RemoveGroup(2) of 2 groups: no error")
	}
}

// Where names a place by its card, as the editor shows it; paths outside
// the groups keep their words.
func TestWhere(t *testing.T) {
	sc, err := scenarios.Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"tasks":                          "task groups",
		"tasks[0].cpus":                  `group "client", cpus`,
		"tasks[1].count_of":              `group "server", count of`,
		"tasks[1].program[2].wake":       `group "server", step 3`,
		"tasks[0].program[0].program[1]": `group "client", step 1 › step 2`,
		"tasks[7].cpus":                  "group 8, cpus",
		"machine.cores_per_cluster":      "machine.cores_per_cluster",
	} {
		if got := Where(sc, path); got != want {
			t.Errorf("Where(%q) = %q, want %q", path, got, want)
		}
	}
	if got := Where(nil, "tasks[0].cpus"); got != "group 1, cpus" {
		t.Errorf("Where(nil) = %q", got)
	}
}
