//go:build !js

package main

import "testing"

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
