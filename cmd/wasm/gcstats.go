//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"
)

// The page's collector runs less often than Go's default. It marks on the
// main thread (WebAssembly has one; one mark of the page's 7-8 MB of live
// heap took 4-44 ms in a profile, docs/performance.md round nineteen), and
// while aim9-burst plays the frames the worker posts make 1.7-2.4 MB of
// garbage a second. GOGC 400 lets the heap grow to five times what is live
// before the next cycle instead of twice, each cycle marking the same live
// heap: 4 collections instead of 14 in nine windows of 5.6 s of aim9-burst
// playing (round twenty-two), for a heap of 16-30 MB instead of 7-13. The
// memory limit brings the cycles back as the heap nears it: a scenario whose
// live heap is over a fifth of it is collected at the limit, not at five
// times its live heap. The worker's Go (a separate instance on its own
// thread) keeps the defaults.
const (
	pageGCPercent   = 400
	pageMemoryLimit = 256 << 20
)

// pageGC sets the page's collector (main.go, at the start of the page's
// main).
func pageGC() {
	debug.SetGCPercent(pageGCPercent)
	debug.SetMemoryLimit(pageMemoryLimit)
}

// gcStats is the page's Go collector, as stats() reports it: in
// WebAssembly it runs on the page's main thread (one thread, no
// preemption), so its marking is main-thread time the frames and the
// page's handlers do not get. It returns the collections so far, the heap
// in use and the bytes allocated so far (MB). No time: the runtime's
// estimate (GCCPUFraction) leaves out the marking done while the page's
// goroutines are idle, which in WebAssembly holds the main thread too.
// runtime.ReadMemStats rather than runtime/metrics: 18 kB less wasm.
func gcStats() (cycles, heapMB, allocMB float64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.NumGC), float64(m.HeapAlloc) / 1e6, float64(m.TotalAlloc) / 1e6
}
