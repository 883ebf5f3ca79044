package wire

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"schedplay/app"
	"schedplay/frame"
)

// equal is reflect.DeepEqual except that a nil slice or map equals an
// empty one (gob does not tell them apart; no consumer does either).
func equal(a, b reflect.Value, path string) error {
	if a.Kind() != b.Kind() {
		return fmt.Errorf("%s: kind %v vs %v", path, a.Kind(), b.Kind())
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Errorf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return nil
		}
		return equal(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if err := equal(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if err := equal(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if err := equal(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Errorf("%s: nil interface", path)
			}
			return nil
		}
		return equal(a.Elem(), b.Elem(), path)
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Errorf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
		return nil
	}
}

// TestRoundTrip: frames of a session with A/B on and off, forks (the task
// list grows), a speed change (the series' interval) and a reload go
// through the wire and come out equal, with the series shared as the
// session shares it.
func TestRoundTrip(t *testing.T) {
	s := app.NewSession()
	if err := s.LoadPreset("aim9-burst", false); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSpeed(0.05); err != nil {
		t.Fatal(err)
	}
	enc, dec := NewEncoder(), NewDecoder()
	now := time.Unix(0, 0)
	var prevIn, prevOut *frame.Frame
	check := func(step int) {
		now = now.Add(16 * time.Millisecond)
		in := s.Tick(now, 16*time.Millisecond)
		b, err := enc.Encode(Msg{Applied: uint64(step), Frame: in, Step: -1})
		if err != nil {
			t.Fatal(err)
		}
		m, err := dec.Decode(append([]byte(nil), b...))
		if err != nil {
			t.Fatal(err)
		}
		if m.Applied != uint64(step) {
			t.Fatalf("applied %d", m.Applied)
		}
		if err := equal(reflect.ValueOf(in), reflect.ValueOf(m.Frame), "frame"); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for i := range in.Sides {
			if prevIn != nil && i < 1+boolInt(in.AB && prevIn.AB) {
				same := in.Sides[i].Series == prevIn.Sides[i].Series
				if got := m.Frame.Sides[i].Series == prevOut.Sides[i].Series; got != same {
					t.Errorf("step %d side %d: series shared %v, want %v", step, i, got, same)
				}
			}
		}
		prevIn, prevOut = in, m.Frame
	}
	for i := 0; i < 400; i++ {
		switch i {
		case 100:
			if err := s.SetCompare([]string{"policy.sd_flags.MC.SD_BALANCE_FORK=false"}); err != nil {
				t.Fatal(err)
			}
		case 200:
			if err := s.SetSpeed(0.2); err != nil {
				t.Fatal(err)
			}
		case 250:
			if err := s.SetCompare(nil); err != nil {
				t.Fatal(err)
			}
		case 300:
			if err := s.LoadPreset("tbench-pairs", true); err != nil {
				t.Fatal(err)
			}
			s.Play()
		case 350:
			if err := s.SetCompare([]string{"policy.select_idle_sibling=v3.6"}); err != nil {
				t.Fatal(err)
			}
		}
		check(i)
	}
	if prevIn.A().Now == 0 || len(prevIn.A().Series.Samples) == 0 {
		t.Fatalf("the session did not play: now %d", prevIn.A().Now)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// benchFrames plays preset p for a while and returns its frames' messages
// encoded, one per 16 ms tick (A/B on when ab).
func benchFrames(b *testing.B, p string, ab bool) [][]byte {
	s := app.NewSession()
	if err := s.LoadPreset(p, false); err != nil {
		b.Fatal(err)
	}
	if ab {
		if err := s.SetCompare([]string{"policy.sd_flags.MC.SD_BALANCE_FORK=false"}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.SetSpeed(0.01); err != nil {
		b.Fatal(err)
	}
	enc := NewEncoder()
	now := time.Unix(0, 0)
	var out [][]byte
	for i := 0; i < 60; i++ {
		now = now.Add(16 * time.Millisecond)
		m, err := enc.Encode(Msg{Frame: s.Tick(now, 16*time.Millisecond)})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, append([]byte(nil), m...))
	}
	return out
}

// BenchmarkDecode: the main thread's cost per frame (ns/op is per frame).
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		preset string
		ab     bool
	}{{"tbench-pairs", false}, {"aim9-burst", true}, {"sdet-numaq", false}} {
		b.Run(c.preset, func(b *testing.B) {
			msgs := benchFrames(b, c.preset, c.ab)
			total := 0
			for _, m := range msgs {
				total += len(m)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				dec := NewDecoder()
				for _, m := range msgs {
					if _, err := dec.Decode(m); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/frame")
			b.ReportMetric(float64(total)/float64(len(msgs)), "bytes/frame")
		})
	}
}
