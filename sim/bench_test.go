package sim

import (
	"runtime"
	"testing"
)

// Reference scenarios from the presets, built here so the benchmarks do not
// depend on the scenarios package.
func benchConfig(name string) *Config {
	switch name {
	case "duty-2cpu":
		return &Config{Seed: 1, Duration: 2e9, Machine: machine(1, 1, 1, 2, 1, NumberLinear), Policy: Policy{Base: BaseV38}, Tasks: dutyCycle()}
	case "tbench-1":
		return &Config{Seed: 1, Duration: 1e9, Machine: machine(4, 1, 1, 10, 2, NumberX86), Policy: Policy{Base: BaseV38, SIS: SISV36}, Tasks: pairs(1, 20000)}
	case "tbench-40":
		return &Config{Seed: 1, Duration: 100e6, Machine: machine(4, 1, 1, 10, 2, NumberX86), Policy: Policy{Base: BaseV38, SIS: SISV36}, Tasks: pairs(40, 20000)}
	case "mixed-256":
		m := machine(4, 2, 1, 16, 2, NumberX86) // 256 CPUs
		tasks := append(pairs(64, 30000), mixed()...)
		return &Config{Seed: 1, Duration: 50e6, Machine: m, Policy: Policy{Base: BaseV617}, Tasks: tasks}
	}
	panic(name)
}

// benchRun reports ns/event, events/s, allocations per event and the
// real-time factor (simulated ns per wall ns) of running the scenario. Only
// the run is timed; building the machine (New) is not, and the allocs/op and
// B/op that -benchmem prints count it, whereas allocs/event counts only
// what the run allocates (the steady state: it should be ~0).
func benchRun(b *testing.B, name string) {
	cfg := benchConfig(name)
	var events int64
	var mallocs uint64
	var ms runtime.MemStats
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		// Finish the collection New may have started: in WebAssembly (one
		// thread, no preemption) its marking, and so the write barrier on
		// every pointer store, would otherwise last the whole timed run,
		// where the page's worker yields every workerBudget and the
		// collector's goroutine finishes it there (docs/performance.md).
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		b.StartTimer()
		s.Run()
		b.StopTimer()
		runtime.ReadMemStats(&ms)
		mallocs += ms.Mallocs - before
		events += s.Events()
		b.StartTimer()
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(sec*1e9/float64(events), "ns/event")
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(mallocs)/float64(events), "allocs/event")
	b.ReportMetric(float64(cfg.Duration)*float64(b.N)/(sec*1e9), "rtf")
}

func BenchmarkDuty2CPU(b *testing.B) { benchRun(b, "duty-2cpu") }
func BenchmarkTbench1(b *testing.B)  { benchRun(b, "tbench-1") }
func BenchmarkTbench40(b *testing.B) { benchRun(b, "tbench-40") }
func BenchmarkMixed256(b *testing.B) { benchRun(b, "mixed-256") }
