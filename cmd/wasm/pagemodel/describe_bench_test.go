package pagemodel

import (
	"encoding/json"
	"os"
	"sync"
	"testing"

	"schedplay/scenarios"
)

var many struct {
	once sync.Once
	sc   *scenarios.Scenario
	err  error
}

// manyTasks is the 927 KB rt-app file of the page's import test
// (e2e TestMainThreadFree), imported onto tbench-pairs: 64 task groups.
func manyTasks(tb testing.TB) *scenarios.Scenario {
	tb.Helper()
	many.once.Do(func() {
		text, err := os.ReadFile("../../../testdata/hostile/rtapp-many-tasks.json")
		if err != nil {
			many.err = err
			return
		}
		cur, _ := scenarios.Preset("tbench-pairs")
		imp, err := Import(cur, string(text), "many-tasks.json", "")
		many.sc, many.err = imp.Scenario, err
	})
	if many.err != nil {
		tb.Fatal(many.err)
	}
	return many.sc
}

// BenchmarkDescribe is the editor's model of a 64-group scenario, as the
// page computes it after an import (describe()).
func BenchmarkDescribe(b *testing.B) {
	sc := manyTasks(b)
	if len(sc.Tasks) < 64 {
		b.Fatalf("%d task groups; want 64", len(sc.Tasks))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Describe(sc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDescribePreset is the same for a small preset.
func BenchmarkDescribePreset(b *testing.B) {
	sc, _ := scenarios.Preset("aim9-burst")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Describe(sc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDescribeJSON is describe() as the page calls it: the model of
// the 64-group scenario, marshalled.
func BenchmarkDescribeJSON(b *testing.B) {
	sc := manyTasks(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Describe(sc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}
