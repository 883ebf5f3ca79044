package scenarios

import (
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
