// Package wasmbench is what cmd/benchcmp's own test runs in Chromium as a
// js/wasm test binary: a benchmark that prints one line, and a test that
// fails (run with -test.run TestFails) for the exit status.
package wasmbench

import "testing"

func BenchmarkSum(b *testing.B) {
	s := 0
	for i := 0; i < b.N; i++ {
		s += i
	}
	b.ReportMetric(float64(b.N), "iterations")
	_ = s
}

func TestFails(t *testing.T) { t.Fatal("this test fails on purpose") }
