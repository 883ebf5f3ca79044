//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/runtime"
)

// The summary is what the tool's last lines claim: the median of an even
// count is the mean of the middle two, and "within 3 s" counts 3000 itself.
func TestSummarize(t *testing.T) {
	got := summarize([]float64{4100, 2900, 3000, 5000})
	want := summary{n: 4, min: 2900, median: 3550, max: 5000, within3s: 2}
	if got != want {
		t.Errorf("summarize = %+v, want %+v", got, want)
	}
	if got := summarize([]float64{3, 1, 2}); got.median != 2 {
		t.Errorf("odd count: median %v, want 2", got.median)
	}
	if got := summarize(nil); got != (summary{}) {
		t.Errorf("no starts: %+v, want zero", got)
	}
}

// longTasks splits the main thread's samples into busy stretches at idle
// samples and names what took each: a 3 ms stretch (main calling decode
// for 2 ms of it) before idle, then a 1 ms one under the 2 ms floor.
func TestLongTasks(t *testing.T) {
	fn := func(id int64, name string, kids ...int64) *profiler.ProfileNode {
		return &profiler.ProfileNode{ID: id, CallFrame: &runtime.CallFrame{FunctionName: name}, Children: kids}
	}
	p := &profiler.Profile{
		Nodes: []*profiler.ProfileNode{
			fn(1, "(root)", 2, 3, 6), fn(2, "(idle)"), fn(3, "wasm_export_run", 4), fn(4, "main.main", 5), fn(5, "decode"), fn(6, "(program)"),
		},
		// Samples 1 ms apart: main, decode, decode, idle, main, idle.
		Samples:    []int64{4, 5, 5, 2, 4, 2},
		TimeDeltas: []int64{0, 1000, 1000, 1000, 1000, 1000},
	}
	got := longTasks(p, 2, 3, 5)
	want := "   task of 3 ms:\n          3 ms  main.main\n          2 ms  decode\n"
	if got != want {
		t.Errorf("longTasks:\n%s\nwant\n%s", got, want)
	}
}
