package sim

import (
	"reflect"
	"testing"
)

// TestErasComplete: every era value fills every hook (a nil function field
// would panic on the first event that needs it), names itself, and is the
// one eraFor returns for its base.
//
// An era that chooses its runqueue class from the policy (classFor, 2.6.8:
// O(1) or staircase) is checked as New fills it, once per class.
func TestErasComplete(t *testing.T) {
	for _, e := range []*era{&eraV617, &eraV38, &eraV268} {
		if eraFor(e.base) != e || e.name == "" {
			t.Errorf("era %q: eraFor(%d) is another value, or the era has no name", e.name, e.base)
		}
		if e.classFor == nil {
			checkFuncs(t, e.name, reflect.ValueOf(*e))
			continue
		}
		for _, cs := range []CPUScheduler{CPUSchedO1, CPUSchedStaircase} {
			cfg := &Config{Seed: 1, Duration: 1e6, Machine: machine(1, 1, 1, 2, 1, NumberX86), Policy: Policy{Base: e.base, CPUScheduler: cs}, Tasks: pairs(1, 30000)}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkFuncs(t, e.name, reflect.ValueOf(s.era))
		}
	}
}

func checkFuncs(t *testing.T, path string, v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), path+"."+v.Type().Field(i).Name
		if v.Type().Field(i).Name == "classFor" {
			continue // optional: only an era with a choice of class has it
		}
		switch f.Kind() {
		case reflect.Func, reflect.Pointer:
			if f.IsNil() {
				t.Errorf("%s is nil", name)
			}
		case reflect.Struct:
			checkFuncs(t, name, f)
		}
	}
}

// TestDomainsAreViews: what Domains returns is a copy; changing it does not
// change the simulator, and a later call sees the simulator's new counters.
func TestDomainsAreViews(t *testing.T) {
	cfg := &Config{Seed: 1, Duration: 20e6, Machine: machine(1, 1, 1, 4, 2, NumberX86), Policy: Policy{Base: BaseV617}, Tasks: pairs(4, 30000)}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Domains(0)
	if len(v) != 2 || v[0].Level != LevelSMT || v[1].Level != LevelMC || len(v[1].Groups) != 4 || v[1].Groups[0].Span != s.topo.SMT[0] {
		t.Fatalf("cpu0's views: %+v", v)
	}
	v[1].ImbalancePct, v[1].Flags = 1, 0
	v[1].Groups[0].Weight = 99
	if sd := s.cpus[0].domains[1]; sd.ImbalancePct == 1 || sd.Flags == 0 || sd.Groups[0].Weight == 99 {
		t.Fatal("changing a view changed the simulator's domain")
	}
	s.Run()
	var viewed, live int64
	for c := range s.cpus {
		for _, d := range s.Domains(c) {
			viewed += d.Stats.TTWUWakeRemote + d.Stats.LB[cpuNewlyIdle].Count
		}
		for _, sd := range s.cpus[c].domains {
			live += sd.Stats.TTWUWakeRemote + sd.Stats.LB[cpuNewlyIdle].Count
		}
	}
	if viewed == 0 || viewed != live {
		t.Fatalf("views after the run count %d remote wake-ups and newidle passes, the domains %d", viewed, live)
	}
}
