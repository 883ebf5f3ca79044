package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestBaseSwitches: a switch its base lacks is an error at its path; the
// v2.6.8 switches are accepted on v2.6.8.
func TestBaseSwitches(t *testing.T) {
	const head = `{"version":1,"duration":"10ms","tasks":[{"name":"a","program":[{"run":"1ms"},{"sleep":"1ms"}]}],"policy":`
	for _, c := range []struct{ policy, want string }{
		{`{"base":"v2.6.8","load_metric":"load_avg"}`, `policy.load_metric: base "v2.6.8" has no such switch`},
		{`{"base":"v2.6.8","select_idle_sibling":"v3.6"}`, `policy.select_idle_sibling: base "v2.6.8" has no such switch`},
		{`{"base":"v2.6.8","base_slice":"3ms"}`, `policy.base_slice: base "v2.6.8" has no such switch`},
		{`{"base":"v2.6.8","features":{"PLACE_LAG":true}}`, `policy.features.PLACE_LAG: not a switch of base "v2.6.8"`},
		{`{"base":"v2.6.8","sd_flags":{"MC":{"SD_BALANCE_WAKE":true}}}`, `policy.sd_flags.MC.SD_BALANCE_WAKE: not a flag of base "v2.6.8"`},
		{`{"base":"v3.8","cpu_scheduler":"staircase"}`, `policy.cpu_scheduler: exists only on base "v2.6.8"`},
		{`{"base":"v6.17","exec_balance_threshold":2}`, `policy.exec_balance_threshold: exists only on base "v2.6.8"`},
		{`{"base":"v6.17","sd_flags":{"NUMA":{"SD_WAKE_BALANCE":true}}}`, `policy.sd_flags.NUMA.SD_WAKE_BALANCE: exists only on base "v2.6.8"`},
		{`{"base":"v6.17","sd_flags":{"NUMA":{"SD_WAKE_BALANCE":false}}}`, ``},
		{`{"base":"v2.6.8","sd_flags":{"MC":{"SD_BALANCE_FORK":false}}}`, ``},
		{`{"base":"v2.6.8","cpu_scheduler":"o1","staircase_mode":"compute"}`, `policy.staircase_mode: applies to cpu_scheduler "staircase" only`},
		{`{"base":"v2.6.8","cpu_scheduler":"bfs"}`, `policy.cpu_scheduler: "bfs" is not one of o1, staircase`},
		{`{"base":"v2.6.8","exec_balance_threshold":65}`, `policy.exec_balance_threshold`},
		{`{"base":"v2.6.8","cpu_scheduler":"staircase","staircase_mode":"compute","exec_balance_threshold":2,"sd_flags":{"NUMA":{"SD_WAKE_BALANCE":false}},"features":{"NEWIDLE_BALANCE":false}}`, ``},
	} {
		s, err := Decode([]byte(head + c.policy + "}"))
		if err == nil {
			_, err = s.Config()
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.policy, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.policy, err, c.want)
		}
	}
}

// TestKeyBasesAgree: the bases the schema gives each flag and feature name
// (what the editor offers) are exactly those on which setting it is not
// refused, and every policy row with Bases is refused elsewhere.
func TestKeyBasesAgree(t *testing.T) {
	const head = `{"version":2,"duration":"10ms","tasks":[{"name":"a","program":[{"run":"1ms"},{"sleep":"1ms"}]}],"policy":`
	doc := Schema()
	if doc.BasePath != "policy.base" {
		t.Fatalf("base_path %q", doc.BasePath)
	}
	for ph, tmpl := range map[string]string{
		"<flag>":    `{"base":%q,"sd_flags":{"MC":{%q:true}}}`,
		"<feature>": `{"base":%q,"features":{%q:true}}`,
	} {
		for _, k := range doc.Keys[ph] {
			if ph == "<flag>" && !k.Edit && !slices.Contains(flags268, k.Name) {
				continue // topology flags: the machine sets them
			}
			for _, b := range bases {
				s, err := Decode([]byte(head + fmt.Sprintf(tmpl, b.name, k.Name) + "}"))
				if err == nil {
					_, err = s.Config()
				}
				offered := len(k.Bases) == 0 || slices.Contains(k.Bases, b.name)
				refused := err != nil && strings.Contains(err.Error(), k.Name)
				if offered == refused {
					t.Errorf("%s %s on %s: offered %v, error %v", ph, k.Name, b.name, offered, err)
				}
			}
		}
	}
	for _, f := range doc.Fields {
		if len(f.Bases) == 0 || f.Example == "" {
			continue
		}
		for _, b := range bases {
			s, err := Decode([]byte(head + `{"base":"` + b.name + `"}}`))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Set(f.Path, f.Example)
			if err == nil {
				_, err = s.Config()
			}
			want := !slices.Contains(f.Bases, b.name)
			// Refused for its base (a staircase_mode under o1 is refused
			// for another reason).
			if got := err != nil && strings.Contains(err.Error(), f.Path) && strings.Contains(err.Error(), "base \""); got != want {
				t.Errorf("%s=%s on %s: refused %v (%v), want %v", f.Path, f.Example, b.name, got, err, want)
			}
		}
	}
}
