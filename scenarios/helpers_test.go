package scenarios

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// minimal is the smallest valid scenario; tests patch it.
const minimal = `{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"1ms"},{"sleep":"1ms"}]}]}`

// kitchenSink sets every field of the format at least once.
const kitchenSink = `{
  "version": 1,
  "title": "every field",
  "description": "line one\nline two <b>&</b>",
  "seed": 42,
  "duration": "250ms",
  "machine": {
    "nodes": 2, "sockets_per_node": 1, "llcs_per_socket": 2,
    "clusters_per_llc": 2, "cores_per_cluster": 2, "threads_per_core": 2,
    "hz": 250, "numbering": "x86",
    "costs": {
      "context_switch": "3us", "wakeup_ipi": "0s",
      "idle_states": [{"name": "C1", "after": "0s", "exit_latency": "2us"},
                      {"name": "C6", "after": "600us", "exit_latency": "100us"}],
      "cache_cold": {"smt": "0s", "cluster": "1us", "llc": "4us", "package": "15us", "numa": "30us"},
      "comm": {"same": "0s", "smt": "100ns", "cluster": "300ns", "llc": "1us", "package": "2us", "numa": "4us"},
      "search_cpu": "50ns", "search_group": "25ns", "search_domain": "0s", "balance_cpu": "60ns",
      "jitter_pct": 0
    }
  },
  "policy": {
    "base": "v3.8",
    "load_metric": "runnable_plus_blocked",
    "select_idle_sibling": "cpu_buddies",
    "new_task_load": "zero",
    "sd_flags": {"MC": {"SD_BALANCE_WAKE": true, "SD_WAKE_AFFINE": false}, "DIE": {"SD_PREFER_SIBLING": false}},
    "tunables": {"MC": {"imbalance_pct": 125, "busy_factor": 64, "min_interval": "1ms", "max_interval": "4ms", "cache_nice_tries": 0},
                 "NUMA": {"busy_factor": 32}},
    "migration_cost": "250us",
    "base_slice": "3ms",
    "features": {"WAKE_AFFINE": false, "SCHED_BALANCE_MAP": true}
  },
  "tasks": [
    {"name": "client", "count": 4, "nice": -5, "cpus": "0-3,8", "start": "1ms", "loop": 100,
     "program": [{"run": "20us"}, {"wake": "server", "sync": true}, {"wait": true}]},
    {"name": "server", "count": 4,
     "program": [{"wait": true}, {"run": "20us"}, {"wake": "client", "sync": true, "fanout": "waker"}]},
    {"name": "tick.er-1", "program": [{"timer": "10ms"}, {"run": "1ms"}, {"wake": "client", "fanout": "all"}, {"wake": "server", "fanout": "one"}]}
  ]
}`

// patch returns base with the JSON value at a dotted path (with [i] for
// array elements) replaced by raw, or deleted when raw is "DELETE".
func patch(t testing.TB, base, path, raw string) string {
	t.Helper()
	// UseNumber keeps numbers exactly as written (no float64 rounding).
	unmarshal := func(data string, v any) error {
		dec := json.NewDecoder(strings.NewReader(data))
		dec.UseNumber()
		return dec.Decode(v)
	}
	var root any
	if err := unmarshal(base, &root); err != nil {
		t.Fatal(err)
	}
	var val any
	if raw != "DELETE" {
		if err := unmarshal(raw, &val); err != nil {
			t.Fatalf("patch value %s: %v", raw, err)
		}
	}
	var keys []any
	for _, seg := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name != "" {
			keys = append(keys, name)
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if err != nil {
				t.Fatalf("bad patch path %q", path)
			}
			keys = append(keys, i)
			rest = strings.TrimPrefix(after, "[")
		}
	}
	var set func(node any, keys []any) any
	set = func(node any, keys []any) any {
		if len(keys) == 0 {
			return val
		}
		switch k := keys[0].(type) {
		case string:
			m, _ := node.(map[string]any)
			if m == nil {
				m = map[string]any{}
			}
			if len(keys) == 1 && raw == "DELETE" {
				delete(m, k)
			} else {
				m[k] = set(m[k], keys[1:])
			}
			return m
		case int:
			a := node.([]any)
			a[k] = set(a[k], keys[1:])
			return a
		}
		panic("unreachable")
	}
	root = set(root, keys)
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustDecode(t testing.TB, data string) *Scenario {
	t.Helper()
	s, err := Decode([]byte(data))
	if err != nil {
		t.Fatalf("Decode: %v\ninput: %s", err, data)
	}
	return s
}
