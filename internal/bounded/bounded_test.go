package bounded

import (
	"fmt"
	"testing"
	"time"
)

// recorder is a testing.TB that records Fatalf instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
}

var sink []byte

func TestCheckCatchesMemoryAndTime(t *testing.T) {
	r := &recorder{TB: t}
	Check(r, "hungry", 10, func() { sink = make([]byte, 100<<20) })
	if r.failed == "" {
		t.Fatal("100 MiB allocated for 10 bytes of input passed")
	}
	sink = nil
	r = &recorder{TB: t}
	wall, _ := Limits(0)
	Check(r, "slow", 0, func() { spin(wall + 50*time.Millisecond) })
	if r.failed == "" {
		t.Fatal("a call slower than the bound passed")
	}
	r = &recorder{TB: t}
	Check(r, "fine", 1<<20, func() { sink = make([]byte, 1<<20) })
	if r.failed != "" {
		t.Fatal(r.failed)
	}
}

// spin burns d of the time Measure counts (CPU time where it can read it,
// else wall time): a slow decoder, not a sleeping one.
func spin(d time.Duration) {
	start, ok := processTime()
	begin := time.Now()
	for {
		for i := 0; i < 1e5; i++ {
			sink = append(sink[:0], byte(i))
		}
		if now, ok2 := processTime(); ok && ok2 {
			if now-start > d {
				return
			}
		} else if time.Since(begin) > d {
			return
		}
	}
}

// TestSleepIsNotWork: where CPU time is readable, a call that waits (as a
// loaded machine makes a call wait for a CPU) is not charged for it.
func TestSleepIsNotWork(t *testing.T) {
	if _, ok := processTime(); !ok {
		t.Skip("no process CPU time here: Measure uses wall time")
	}
	el, _ := Measure(func() { time.Sleep(300 * time.Millisecond) })
	if el > 100*time.Millisecond {
		t.Fatalf("a 300 ms sleep measured %v", el)
	}
}
