package scenarios

import (
	"strings"
	"testing"
)

// TestCountOf: a group with count_of follows its partner's count through
// Config, Set and Canonical; bad references are errors with paths.
func TestCountOf(t *testing.T) {
	s, err := Preset("tbench-pairs")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("tasks.client.count", "40"); err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tasks[0].Count != 40 || cfg.Tasks[1].Count != 40 {
		t.Fatalf("counts %d/%d, want 40/40", cfg.Tasks[0].Count, cfg.Tasks[1].Count)
	}
	again, err := Decode(s.Canonical())
	if err != nil || string(again.Canonical()) != string(s.Canonical()) {
		t.Fatalf("canonical round trip: %v", err)
	}
	if !strings.Contains(string(s.Canonical()), `"name":"server","count":40,"count_of":"client"`) {
		t.Fatalf("canonical form writes the followed count: %s", s.Canonical())
	}
	if err := s.Set("tasks.server.count", "3"); err == nil || !strings.Contains(err.Error(), "count_of") {
		t.Fatalf("setting a following count: %v", err)
	}
	for _, c := range []struct{ countOf, want string }{
		{"nobody", `tasks[1].count_of: "nobody" is not a task name`},
		{"server", "tasks[1].count_of: a task cannot take its count from itself"},
	} {
		b := s.Clone()
		b.Tasks[1].CountOf = c.countOf
		if err := b.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("count_of %q: %v, want %q", c.countOf, err, c.want)
		}
	}
	chain := s.Clone()
	chain.Tasks[0].CountOf = "server"
	if err := chain.Validate(); err == nil || !strings.Contains(err.Error(), "does not chain") {
		t.Errorf("chained count_of: %v", err)
	}
}

// TestMigrationCostZero: "0s" is the kernel's "never cache-hot", which the
// simulator spells -1 (its 0 means the default).
func TestMigrationCostZero(t *testing.T) {
	s, _ := Preset("pelt-pingpong")
	if err := s.Set("policy.migration_cost", "0s"); err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil || cfg.Policy.MigrationCost != -1 {
		t.Fatalf("migration_cost 0s -> %d, %v", cfg.Policy.MigrationCost, err)
	}
}

// TestCacheSizeLabels: llc_size and l2_size are display labels, validated
// and carried through Canonical and Set.
func TestCacheSizeLabels(t *testing.T) {
	s, _ := Preset("tbench-pairs")
	if s.Machine.LLCSize != "30MB" {
		t.Fatalf("tbench-pairs llc_size %q", s.Machine.LLCSize)
	}
	if err := s.Set("machine.l2_size", "1.25MiB"); err != nil {
		t.Fatal(err)
	}
	again, err := Decode(s.Canonical())
	if err != nil || again.Machine.L2Size != "1.25MiB" {
		t.Fatalf("round trip: %v %q", err, again.Machine.L2Size)
	}
	if err := s.Set("machine.llc_size", "lots"); err == nil || !strings.Contains(err.Error(), `machine.llc_size: "lots" is not a cache size`) {
		t.Fatalf("bad size: %v", err)
	}
}
