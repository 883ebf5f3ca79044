//go:build !js

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

const cpuOld = `cputime tbench-40 141.0 ns/event
cputime mixed-256 143.0 ns/event (trace 0eebaa6a682e6d18, 288888 events)
PASS
`

const cpuNew = `cputime tbench-40 120.0 ns/event (trace a18dbc7169c8eb22, 492567 events)
cputime mixed-256 110.0 ns/event (trace 0eebaa6a682e6d19, 288888 events)
`

// TestCPUTime: TestCPUTimePerEvent's lines, with or without the trace hash,
// become the unit cpu-ns/event (lower is better), and unequal hashes are
// called out.
func TestCPUTime(t *testing.T) {
	var rounds [2][]results
	h := [2]map[string]string{{}, {}}
	for i := 0; i < 2; i++ {
		o, n := results{}, results{}
		o.parseCPUTime("./sim", []byte(cpuOld), h[0])
		n.parseCPUTime("./sim", []byte(cpuNew), h[1])
		rounds[0] = append(rounds[0], o)
		rounds[1] = append(rounds[1], n)
	}
	if v := rounds[1][0]["sim tbench-40"]["cpu-ns/event"]; v != 120 {
		t.Fatalf("tbench-40 cpu-ns/event = %v, want 120", v)
	}
	var b bytes.Buffer
	report(&b, "old", "new", rounds)
	if !strings.Contains(b.String(), "1.175×") {
		t.Errorf("want tbench-40's 141/120 = 1.175× speed-up:\n%s", b.String())
	}
	s := compareHashes(h)
	if !strings.Contains(s, "DIFFER for sim mixed-256 (0eebaa6a682e6d18 vs 0eebaa6a682e6d19)") ||
		!strings.Contains(s, "printed by one side only: sim tbench-40") {
		t.Errorf("compareHashes = %q", s)
	}
	if s := compareHashes([2]map[string]string{{}, {"sim x": "1"}}); !strings.Contains(s, "not compared: printed by one side only (sim x)") {
		t.Errorf("compareHashes (one side) = %q", s)
	}
	h[1]["sim mixed-256"] = "0eebaa6a682e6d18"
	if s := compareHashes(h); !strings.HasPrefix(s, "trace hashes: equal for sim mixed-256") {
		t.Errorf("compareHashes (equal) = %q", s)
	}
}
