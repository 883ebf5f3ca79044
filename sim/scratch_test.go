package sim

import (
	"reflect"
	"testing"
)

// TestScratchDecisionReset: newDecision resets the scratch record (used
// when not recording) field by field; every field but Nums (read only up
// to NNums) must come out as a whole-record reset would leave it.
func TestScratchDecisionReset(t *testing.T) {
	s, err := New(benchConfig("duty-2cpu"))
	if err != nil {
		t.Fatal(err)
	}
	// Dirty every field of the scratch record.
	v := reflect.ValueOf(&s.scratch).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("stale")
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(7)
		case reflect.Array, reflect.Struct:
			b := f.Addr().Interface()
			switch b := b.(type) {
			case *CPUMask:
				b.Set(3)
			case *[8]KV:
				b[0] = KV{"stale", 7}
			default:
				t.Fatalf("field %s: %s: teach this test how to dirty it", v.Type().Field(i).Name, f.Type())
			}
		default:
			t.Fatalf("field %s: %s: teach this test how to dirty it", v.Type().Field(i).Name, f.Type())
		}
	}
	p := s.tasks[0]
	got := *s.newDecision("path", p, 1)
	// What a whole-record reset followed by newDecision's settings gives.
	want := Decision{Seq: -1, T: s.now, Path: "path", Task: p.id, This: 1, Prev: -1, Target: -1, Chosen: -1, Level: -1}
	got.Nums = want.Nums
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scratch after newDecision:\n got %+v\nwant %+v", got, want)
	}
}
