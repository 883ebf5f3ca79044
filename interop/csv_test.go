package interop

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"
)

func TestCSVLongForm(t *testing.T) {
	for _, tc := range []struct {
		base       string
		cpuSignals int
	}{{"v3.8", 4 + 3 + 5}, {"v6.17", 4}} {
		t.Run(tc.base, func(t *testing.T) {
			s := newSim(t, "testdata/export-small.json", "policy.base="+tc.base)
			var b bytes.Buffer
			if err := WriteCSV(&b, s, Options{Interval: 2_000_000}); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if got := rows[0]; len(got) != 5 || got[0] != "time_ms" || got[4] != "value" {
				t.Fatalf("header %q", got)
			}
			ncpu, ntask := s.Topology().NCPU, len(s.Tasks())
			perSample := ncpu*tc.cpuSignals + ntask*5
			samples := 40/2 + 1 // 0, 2, ..., 40 ms
			if len(rows)-1 != samples*perSample {
				t.Fatalf("%d rows, want %d samples x %d", len(rows)-1, samples, perSample)
			}
			prev := -1.0
			busy := map[string]int{}
			for i, r := range rows[1:] {
				tm, err := strconv.ParseFloat(r[0], 64)
				if err != nil || tm < prev {
					t.Fatalf("row %d: time %q after %v", i+1, r[0], prev)
				}
				prev = tm
				if r[3] == "state" {
					if r[1] != "task" {
						t.Fatalf("row %d: %q", i+1, r)
					}
					if r[4] == "running" {
						busy[r[2]]++
					}
					continue
				}
				if _, err := strconv.ParseInt(r[4], 10, 64); err != nil {
					t.Fatalf("row %d: value %q is not an integer", i+1, r[4])
				}
			}
			if prev != 40 {
				t.Errorf("last sample at %v ms, want 40", prev)
			}
			// The 80% hogs are seen running in most samples.
			if busy["hog/0"] < samples/2 {
				t.Errorf("hog/0 running in %d of %d samples", busy["hog/0"], samples)
			}
		})
	}
}

func TestCSVGoldenAndDeterminism(t *testing.T) {
	out := func() []byte {
		var b bytes.Buffer
		WriteCSV(&b, newSim(t, "testdata/export-small.json", "duration=10ms"), Options{Interval: 5_000_000})
		return b.Bytes()
	}
	a := out()
	if !bytes.Equal(a, out()) {
		t.Fatal("two CSV exports of one scenario differ")
	}
	golden(t, "export-small.csv", a)
}
