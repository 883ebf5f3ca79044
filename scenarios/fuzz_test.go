package scenarios

import (
	"bytes"
	"reflect"
	"testing"

	"schedplay/internal/bounded"
)

func addPresetSeeds(f *testing.F, add func(data []byte)) {
	for _, p := range Presets() {
		data, err := presetFS.ReadFile(p.Name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		add(data)
	}
	add([]byte(minimal))
	add([]byte(kitchenSink))
}

// FuzzDecode: Decode never panics, and whatever it accepts round-trips
// through Canonical stably.
func FuzzDecode(f *testing.F) {
	addPresetSeeds(f, func(data []byte) { f.Add(data) })
	f.Add([]byte(`{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"wait":true},{"run":"1ms"},{"wake":"a","fanout":"waker"}]}]}`))
	f.Add([]byte(`{"version":1,"machine":{"costs":{"idle_states":[]}},"policy":{"sd_flags":{"DIE":{}}},"duration":"1s","tasks":[]}`))
	f.Add([]byte(`[1, "x", null, {"a": {"b": [true]}}]`))
	// Version 2: the structured steps, nested repeats, a count-0 group.
	f.Add([]byte(`{"version":2,"duration":"1s","tasks":[{"name":"sh","program":[{"repeat":3,"program":[{"run":"1ms"},{"fork":"cmd","count":2},{"repeat":2,"program":[{"sleep":"1ms"},{"exec":true}]}]},{"wait_children":true}]},{"name":"cmd","count":0,"program":[{"exec":true},{"run":"2ms"},{"exit":true}]}]}`))
	f.Add([]byte(`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[{"repeat":1,"program":[{"repeat":1,"program":[{"repeat":1,"program":[{"repeat":1,"program":[{"repeat":1,"program":[{"run":"1ms"}]}]}]}]}]}]}]}`))
	f.Add([]byte(`{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"1ms"},{"exec":true}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s *Scenario
		var err error
		bounded.Check(t, "Decode", len(data), func() { s, err = Decode(data) })
		if err != nil {
			if len(Problems(err)) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			return
		}
		c1 := s.Canonical()
		s2, err := Decode(c1)
		if err != nil {
			t.Fatalf("Canonical output does not decode: %v\n%s", err, c1)
		}
		if !reflect.DeepEqual(withoutView(s), s2) {
			t.Fatalf("Decode(Canonical(s)) != s\n%s", c1)
		}
		if c2 := s2.Canonical(); !bytes.Equal(c1, c2) {
			t.Fatalf("Canonical not stable:\n%s\n%s", c1, c2)
		}
		if _, err := s.Config(); err != nil {
			t.Fatalf("decoded scenario has no Config: %v", err)
		}
	})
}

// FuzzDecodeLink: DecodeLink never panics and accepted links re-encode to
// the same scenario.
func FuzzDecodeLink(f *testing.F) {
	addPresetSeeds(f, func(data []byte) {
		s, err := Decode(data)
		if err != nil {
			f.Fatal(err)
		}
		f.Add("#" + EncodeLink(s))
	})
	f.Add("#s=")
	f.Add("https://example.org/#s=AAAA&t=1")
	f.Add("s=_____")
	f.Fuzz(func(t *testing.T, link string) {
		var s *Scenario
		var err error
		bounded.Check(t, "DecodeLink", len(link), func() { s, err = DecodeLink(link) })
		if err != nil {
			return
		}
		s2, err := DecodeLink(EncodeLink(s))
		if err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("EncodeLink/DecodeLink round trip: %v", err)
		}
	})
}

// FuzzSet: Set never panics; it either fails and leaves the scenario
// alone, or leaves a valid scenario that round-trips.
func FuzzSet(f *testing.F) {
	for _, kv := range [][2]string{
		{"seed", "7"}, {"duration", "2s"}, {"machine.cores_per_cluster", "10"},
		{"machine.costs.cache_cold.llc", "20us"}, {"policy.select_idle_sibling", "cpu_buddies"},
		{"policy.sd_flags.MC.SD_BALANCE_WAKE", "true"}, {"policy.features.WAKE_AFFINE", "false"},
		{"policy.tunables.MC.imbalance_pct", "125"}, {"tasks.client.count", "40"},
		{"tasks.server.program[2].fanout", "index"}, {"tasks.client.program[3]", `{"sleep":"1ms"}`},
		{"machine.costs.idle_states", `[{"name":"C1","after":"0s","exit_latency":"1us"}]`},
		{"tasks[1].program", `[{"wait":true},{"run":"1us"}]`}, {"tasks.client.program[0].wait", "true"},
	} {
		f.Add(kv[0], kv[1])
	}
	base := func(t *testing.T) *Scenario {
		s, err := Preset("tbench-pairs")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	f.Fuzz(func(t *testing.T, path, value string) {
		s := base(t)
		before := s.Canonical()
		var err error
		bounded.Check(t, "Set", len(path)+len(value), func() { err = s.Set(path, value) })
		if err != nil {
			if !bytes.Equal(before, s.Canonical()) {
				t.Fatalf("failed Set(%q, %q) changed the scenario", path, value)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Set(%q, %q) left an invalid scenario: %v", path, value, err)
		}
		s2, err := Decode(s.Canonical())
		if err != nil || !reflect.DeepEqual(withoutView(s), s2) {
			t.Fatalf("after Set(%q, %q): round trip failed: %v", path, value, err)
		}
	})
}

// withoutView is s without what the canonical JSON leaves out (the summary
// and the view block).
func withoutView(s *Scenario) *Scenario {
	c := s.Clone()
	c.Summary, c.View = "", View{}
	return c
}

// FuzzDecodeView: a link's view part ("v=...") decodes within the time and
// memory bounds of every decoder, never panics, and what it accepts
// re-encodes to the same view.
func FuzzDecodeView(f *testing.F) {
	f.Add(EncodeView(View{Speed: 0.01, Talk: true}))
	f.Add("")
	f.Add("AAAA")
	f.Add("_____")
	f.Fuzz(func(t *testing.T, text string) {
		var v View
		var err error
		bounded.Check(t, "DecodeView", len(text), func() { v, err = DecodeView(text) })
		if err != nil {
			return
		}
		v2, err := DecodeView(EncodeView(v))
		if err != nil && !v.IsZero() || !reflect.DeepEqual(v, v2) && !v.IsZero() {
			t.Fatalf("EncodeView/DecodeView round trip: %v %+v %+v", err, v, v2)
		}
	})
}
