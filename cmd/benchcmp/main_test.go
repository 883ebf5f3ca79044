package main

import (
	"bytes"
	"strings"
	"testing"
)

const outOld = `goos: linux
pkg: schedplay/sim
BenchmarkTbench40-2   	       3	 400000000 ns/op	         0.01 allocs/event	   2000000 events/s	       500.0 ns/event	         0.25 rtf	  830648 B/op	    7918 allocs/op
PASS
`

const outNew = `BenchmarkTbench40-2   	       3	 200000000 ns/op	         0.01 allocs/event	   4000000 events/s	       250.0 ns/event	         0.50 rtf	  830648 B/op	    7918 allocs/op
BenchmarkOnlyNew   	       3	 1 ns/op
`

func TestParse(t *testing.T) {
	r := results{}
	r.parse("./sim", []byte(outOld))
	m := r["sim Tbench40"]
	if m == nil {
		t.Fatalf("parsed %v, want key %q", r, "sim Tbench40")
	}
	for u, want := range map[string]float64{"ns/op": 4e8, "events/s": 2e6, "rtf": 0.25, "allocs/op": 7918} {
		if m[u] != want {
			t.Errorf("%s = %v, want %v", u, m[u], want)
		}
	}
}

// TestReport: times and rates both give a speed-up > 1 when the new side is
// faster; the median is over rounds; a benchmark only one side has is left out.
func TestReport(t *testing.T) {
	var rounds [2][]results
	for i := 0; i < 3; i++ {
		o, n := results{}, results{}
		o.parse("./sim", []byte(outOld))
		n.parse("./sim", []byte(outNew))
		rounds[0] = append(rounds[0], o)
		rounds[1] = append(rounds[1], n)
	}
	var b bytes.Buffer
	report(&b, "old", "new", rounds)
	out := b.String()
	for _, unit := range []string{"ns/op", "ns/event", "events/s", "rtf"} {
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[2] == unit {
				line = l
			}
		}
		if !strings.Contains(line, "2.000×") || !strings.Contains(line, "(n=3)") {
			t.Errorf("%s: want a 2.000× speed-up over 3 rounds, got %q", unit, line)
		}
	}
	if strings.Contains(out, "OnlyNew") || strings.Contains(out, "allocs/op") {
		t.Errorf("report lists a one-sided benchmark or allocs/op:\n%s", out)
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median odd = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median even = %v", m)
	}
}
