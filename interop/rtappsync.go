package interop

import (
	"strconv"

	"schedplay/scenarios"
)

// rt-app's synchronisation events and the scenario's sync steps:
//
//	"lock": "m"                          {"lock": "m"}
//	"unlock": "m"                        {"unlock": "m"}
//	"wait": {"ref": "c", "mutex": "m"}   {"cond_wait": "c", "mutex": "m"}
//	"signal": "c"                        {"signal": "c"}
//	"broad": "c"                         {"broadcast": "c"}
//	"sync": {"ref": "c", "mutex": "m"}   {"signal": "c"}, {"cond_wait": "c", "mutex": "m"}
//	"barrier": "b"                       {"barrier": "b"}
//
// rt-app's "sync" signals and then waits (its rtapp_sig_and_wait falls
// through to rtapp_wait), with the mutex already held, like "wait". A
// barrier's parties are the threads whose events name it, as rt-app counts
// them. Resource names become scenario names (characters outside A-Z a-z
// 0-9 _ . - replaced by '_', at most 32, made unique); a name used as two
// kinds of resource is reported and the later uses dropped.

type rtResource struct {
	name string // the scenario's
	kind string // "mutex", "condition variable", "barrier"
}

// resource returns the scenario name of rt-app resource key used as kind,
// or "" (reported) when the key names another kind of resource.
func (im *rtImporter) resource(key, kind, path string) string {
	if im.resources == nil {
		im.resources, im.resNames = map[string]rtResource{}, map[string]bool{}
	}
	if r, ok := im.resources[key]; ok {
		if r.kind != kind {
			im.probs.add(path, "%q is a %s elsewhere in the file; a name is one resource: dropped", key, r.kind)
			return ""
		}
		return r.name
	}
	name := uniqueName(key, "res", im.resNames)
	if name != key {
		im.probs.add(path, "resource %q is named %q in the scenario (names are 1-32 of A-Z a-z 0-9 _ . -)", key, name)
	}
	im.resources[key] = rtResource{name: name, kind: kind}
	return name
}

// uniqueName is key with the characters the format does not allow in a
// name replaced by '_', cut to 32 (empty: fallback), made unique against
// used with a "-2", "-3"... suffix, and marked used: task and resource
// names alike.
func uniqueName(key, fallback string, used map[string]bool) string {
	b := []byte(key)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	base := string(b)
	if base == "" {
		base = fallback
	}
	if len(base) > 32 {
		base = base[:32]
	}
	name := base
	for n := 2; used[name]; n++ {
		suf := "-" + strconv.Itoa(n)
		name = base[:min(len(base), 32-len(suf))] + suf
	}
	used[name] = true
	return name
}

// syncEvent maps one synchronisation event to steps (none when it cannot
// be mapped, reported).
func (im *rtImporter) syncEvent(kind string, v *jval, path string) []rtStep {
	str := func(kind string) (string, bool) {
		if v.kind != 's' || v.str == "" {
			im.probs.add(path, "is %s, not a resource name; dropped", v.describe())
			return "", false
		}
		return v.str, true
	}
	one := func(st scenarios.Step) []rtStep { return []rtStep{{step: st, path: path}} }
	switch kind {
	case "lock", "unlock":
		key, ok := str(kind)
		if !ok {
			return nil
		}
		n := im.resource(key, "mutex", path)
		if n == "" {
			return nil
		}
		if kind == "lock" {
			return one(scenarios.Step{SyncStep: &scenarios.SyncStep{Lock: n}})
		}
		return one(scenarios.Step{SyncStep: &scenarios.SyncStep{Unlock: n}})
	case "signal", "broad":
		key, ok := str(kind)
		if !ok {
			return nil
		}
		n := im.resource(key, "condition variable", path)
		if n == "" {
			return nil
		}
		if kind == "signal" {
			return one(scenarios.Step{SyncStep: &scenarios.SyncStep{Signal: n}})
		}
		return one(scenarios.Step{SyncStep: &scenarios.SyncStep{Broadcast: n}})
	case "barrier":
		key, ok := str(kind)
		if !ok {
			return nil
		}
		n := im.resource(key, "barrier", path)
		if n == "" {
			return nil
		}
		return one(scenarios.Step{SyncStep: &scenarios.SyncStep{Barrier: n}})
	default: // wait, sync
		if v.kind != '{' {
			im.probs.add(path, "is %s, not an object {ref, mutex}; dropped", v.describe())
			return nil
		}
		ref, mtx := v.member("ref"), v.member("mutex")
		if ref == nil || ref.kind != 's' || ref.str == "" || mtx == nil || mtx.kind != 's' || mtx.str == "" {
			im.probs.add(path, "needs ref and mutex names; dropped")
			return nil
		}
		for _, m := range v.obj {
			if m.key != "ref" && m.key != "mutex" {
				im.probs.add(pathJoin(path, m.key), "unknown key; ignored")
			}
		}
		c := im.resource(ref.str, "condition variable", pathJoin(path, "ref"))
		m := im.resource(mtx.str, "mutex", pathJoin(path, "mutex"))
		if c == "" || m == "" {
			return nil
		}
		wait := rtStep{step: scenarios.Step{SyncStep: &scenarios.SyncStep{CondWait: c, Mutex: m}}, path: path}
		if kind == "sync" {
			return []rtStep{{step: scenarios.Step{SyncStep: &scenarios.SyncStep{Signal: c}}, path: path}, wait}
		}
		return []rtStep{wait}
	}
}
