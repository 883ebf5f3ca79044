//go:build js && wasm

package main

import "runtime"

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
