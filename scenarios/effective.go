package scenarios

import (
	"slices"
	"strconv"
	"strings"

	"schedplay/sim"
)

// EffectiveValue gives the value that sm, a simulator built from a
// scenario, runs with at a policy path the scenario leaves to its base
// (Get returns ""): the era's select_idle_sibling() variant, load metric
// and new-task load, a feature's state, and one level's sched-domain flag
// or tunable as every CPU's domain of that level has it. The value is in
// Set's form ("v3.8", "false", "117", "8ms"). ok is false for a path of
// another kind, a name the schema does not know, a level the machine does
// not build, a level whose domains differ between CPUs (no one value a
// file could write), a resolved value that has no name in the file format
// (2.6.8's nr_running load), and a switch the simulator's base does not
// have (select_idle_sibling, the new-task load or a later era's feature on
// v2.6.8), which a file could not set.
func EffectiveValue(sm *sim.Sim, path string) (v string, ok bool) {
	base := sm.Base()
	switch path {
	case "policy.select_idle_sibling", "policy.load_metric", "policy.new_task_load":
		if !onBases(fieldRow(path).Bases, base) {
			return "", false // v2.6.8 has no such switch: nothing a file could say
		}
		switch path {
		case "policy.select_idle_sibling":
			return spelled(SISName(sm.SIS()))
		case "policy.load_metric":
			return spelled(LoadMetricName(sm.LoadMetric()))
		}
		return spelled(NewTaskLoadName(sm.NewTaskLoad()))
	}
	if name, found := strings.CutPrefix(path, "policy.features."); found {
		f, known := sim.FeatureByName(name)
		if !known || !onBases(keyBases("<feature>", name), base) {
			return "", false
		}
		return strconv.FormatBool(sm.Feature(f)), true
	}
	var kind string
	rest, found := strings.CutPrefix(path, "policy.sd_flags.")
	if found {
		kind = "flag"
	} else if rest, found = strings.CutPrefix(path, "policy.tunables."); found {
		kind = "tunable"
	} else {
		return "", false
	}
	lname, field, two := strings.Cut(rest, ".")
	level, lok := sim.LevelByName(lname)
	if !two || !lok {
		return "", false
	}
	// A level's flag or tunable is one switch for every CPU's domain of
	// that level: it has one value to show only where those domains agree.
	// On a machine given per CPU they need not (a cluster or NUMA level's
	// intervals follow its span's weight, which differs by CPU), and
	// writing CPU 0's value would change the others.
	var dst []sim.DomainView
	for cpu := range sm.Topology().NCPU {
		dst = sm.DomainsInto(cpu, dst[:0])
		for _, d := range dst {
			if d.Level != level {
				continue
			}
			w, wok := domainValue(d, kind, field)
			if !wok || ok && w != v {
				return "", false
			}
			v, ok = w, true
		}
	}
	return v, ok
}

// domainValue is domain d's value of a flag (kind "flag") or tunable, as
// a file spells it.
func domainValue(d sim.DomainView, kind, field string) (string, bool) {
	if kind == "flag" {
		f, fok := sim.SDFlagByName(field)
		return strconv.FormatBool(fok && d.Flags&f != 0), fok
	}
	switch field {
	case "imbalance_pct":
		return strconv.Itoa(d.ImbalancePct), true
	case "busy_factor":
		return strconv.Itoa(d.BusyFactor), true
	case "min_interval":
		return strconv.FormatInt(d.MinInterval, 10) + "ms", true
	case "max_interval":
		return strconv.FormatInt(d.MaxInterval, 10) + "ms", true
	case "cache_nice_tries":
		return strconv.Itoa(d.CacheNiceTries), true
	}
	return "", false
}

// onBases is whether a schema row's or key's Bases list (empty: every
// base) has b.
func onBases(list []string, b sim.Base) bool {
	if len(list) == 0 {
		return true
	}
	return slices.Contains(list, nameOf(bases, b))
}

// spelled is a file-format spelling and whether there is one.
func spelled(name string) (string, bool) { return name, name != "" }
