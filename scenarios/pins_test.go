package scenarios

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"schedplay/sim"
)

// pinVariants lists the one-field changes TestPinnedHashes runs on every
// preset under each base: every enum value, every feature both ways, and the
// wake-up flags at each level. Together with 200 random scenarios they pin the
// behaviour refactorings must keep (go test ./scenarios -run PinnedHashes
// -update-hashes rewrites the file when a model change is intended).
func pinVariants() []string {
	v := []string{""}
	for _, m := range []string{"load_weight", "runnable_load_avg", "runnable_plus_blocked", "load_avg"} {
		v = append(v, "policy.load_metric="+m)
	}
	for _, s := range []string{"v3.6", "v3.8", "cpu_buddies", "bottom_up", "sis_util", "off"} {
		v = append(v, "policy.select_idle_sibling="+s)
	}
	for _, n := range []string{"zero", "full"} {
		v = append(v, "policy.new_task_load="+n)
	}
	for f := sim.Feature(0); f < sim.NumFeatures; f++ {
		v = append(v, "policy.features."+f.String()+"=true", "policy.features."+f.String()+"=false")
	}
	for _, l := range []string{"SMT", "MC", "PKG", "NUMA"} {
		for _, fl := range []string{"SD_BALANCE_WAKE", "SD_WAKE_AFFINE", "SD_BALANCE_NEWIDLE"} {
			v = append(v, "policy.sd_flags."+l+"."+fl+"=true", "policy.sd_flags."+l+"."+fl+"=false")
		}
	}
	return v
}

func pinLine(b *strings.Builder, label string, s *Scenario) {
	cfg, err := s.Config()
	if err != nil {
		fmt.Fprintf(b, "%s invalid: %v\n", label, strings.ReplaceAll(err.Error(), "\n", "; "))
		return
	}
	x, err := sim.New(cfg)
	if err != nil {
		fmt.Fprintf(b, "%s invalid: %v\n", label, strings.ReplaceAll(err.Error(), "\n", "; "))
		return
	}
	x.Run()
	m := x.Metrics()
	fmt.Fprintf(b, "%s %s events=%d ops=%d\n", label, m.TraceHash, m.Events, m.Ops)
}

// TestPinnedHashes pins the trace hash of every preset under each base and
// each one-field policy variant (60 ms runs), and of 200 random scenarios, in
// testdata/pinned_hashes.txt. It runs natively and as wasm (make test-wasm).
func TestPinnedHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("pinned hashes: not in -short")
	}
	var b strings.Builder
	for _, p := range Presets() {
		for _, base := range []string{"v3.8", "v6.17"} {
			for _, v := range pinVariants() {
				s, err := Preset(p.Name)
				if err != nil {
					t.Fatal(err)
				}
				label := p.Name + " base=" + base
				if err := s.Set("duration", "60ms"); err != nil {
					t.Fatal(err)
				}
				if err := s.Set("policy.base", base); err != nil {
					fmt.Fprintf(&b, "%s invalid: %v\n", label, err)
					continue
				}
				if v != "" {
					label += " " + v
					path, val, _ := strings.Cut(v, "=")
					if err := s.Set(path, val); err != nil {
						fmt.Fprintf(&b, "%s invalid: %v\n", label, strings.ReplaceAll(err.Error(), "\n", "; "))
						continue
					}
				}
				pinLine(&b, label, s)
			}
		}
	}
	for seed := uint64(1001); seed <= 1200; seed++ {
		pinLine(&b, fmt.Sprintf("random-%d", seed), randomScenario(t, seed))
	}
	pin268(t, &b)
	path := "testdata/pinned_hashes.txt"
	if *updateHashes {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./scenarios -run PinnedHashes -update-hashes)", err)
	}
	if got := b.String(); string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		n := 0
		for i := 0; i < len(wl) || i < len(gl); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Errorf("line %d:\nwant %s\ngot  %s", i+1, w, g)
				if n++; n == 10 {
					break
				}
			}
		}
		t.Fatalf("pinned hashes differ from %s (intended model change? -update-hashes, and say why in the commit)", path)
	}
}

// pin268 pins every preset on base v2.6.8 (the switches that base lacks
// cleared) with its own variants, and random v2.6.8 scenarios.
func pin268(t *testing.T, b *strings.Builder) {
	variants := []string{"", "policy.cpu_scheduler=staircase", "policy.cpu_scheduler=o1",
		"policy.cpu_scheduler=staircase+policy.staircase_mode=compute",
		"policy.cpu_scheduler=staircase+policy.staircase_mode=noninteractive",
		"policy.exec_balance_threshold=2", "policy.features.NEWIDLE_BALANCE=false", "policy.features.WAKEUP_PREEMPTION=false"}
	for _, l := range []string{"SMT", "MC", "NUMA"} {
		for _, fl := range []string{"SD_WAKE_BALANCE", "SD_WAKE_AFFINE", "SD_BALANCE_NEWIDLE", "SD_WAKE_IDLE"} {
			variants = append(variants, "policy.sd_flags."+l+"."+fl+"=true", "policy.sd_flags."+l+"."+fl+"=false")
		}
	}
	for _, p := range Presets() {
		for _, v := range variants {
			s, err := Preset(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			label := p.Name + " base=v2.6.8"
			for _, path := range []string{"duration=60ms", "policy.load_metric=", "policy.select_idle_sibling=", "policy.new_task_load=",
				"policy.features=", "policy.sd_flags=", "policy.migration_cost=", "policy.base_slice=", "policy.base=v2.6.8"} {
				k, val, _ := strings.Cut(path, "=")
				if err := s.Set(k, val); err != nil {
					t.Fatalf("%s: %s: %v", label, path, err)
				}
			}
			if v != "" {
				label += " " + v
				for _, kv := range strings.Split(v, "+") {
					k, val, _ := strings.Cut(kv, "=")
					if err := s.Set(k, val); err != nil {
						fmt.Fprintf(b, "%s invalid: %v\n", label, strings.ReplaceAll(err.Error(), "\n", "; "))
						continue
					}
				}
			}
			pinLine(b, label, s)
		}
	}
	for seed := uint64(1001); seed <= 1200; seed++ {
		if s := randomScenarioEras(t, seed, true); s.Policy.Base == "v2.6.8" {
			pinLine(b, fmt.Sprintf("random268-%d", seed), s)
		}
	}
}
