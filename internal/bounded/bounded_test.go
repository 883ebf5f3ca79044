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
	Check(r, "slow", 0, func() { time.Sleep(wall + 50*time.Millisecond) })
	if r.failed == "" {
		t.Fatal("a call slower than the bound passed")
	}
	r = &recorder{TB: t}
	Check(r, "fine", 1<<20, func() { sink = make([]byte, 1<<20) })
	if r.failed != "" {
		t.Fatal(r.failed)
	}
}
