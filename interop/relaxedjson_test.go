package interop

import (
	"strings"
	"testing"
)

func TestBareKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{`{"suspend", "run": 5}`, `{"suspend":null, "run": 5}`},
		{`{"run": 5, "suspend"}`, `{"run": 5, "suspend":null}`},
		{`{"k": "v", "x" ,"y": ["a", "b"], "z"` + "\n}", `{"k": "v", "x":null ,"y": ["a", "b"], "z":null` + "\n}"},
		{`["a", "b"]`, `["a", "b"]`},                                  // array elements are values
		{`{"o": {"in"}, "q\",": 1}`, `{"o": {"in":null}, "q\",": 1}`}, // escapes inside keys
		{`{"open`, `{"open`},                                          // unterminated: left to the decoder
	} {
		if got := string(bareKeys([]byte(c.in))); got != c.want {
			t.Errorf("bareKeys(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A bare "suspend" (as in rt-app's examples/video-long.json, which rt-app's
// workgen completes with the thread's name) imports as a wait, in the
// thread object and in a phase; errors after it keep the file's lines.
func TestRTAppBareSuspend(t *testing.T) {
	file := `{
	"tasks" : {
		"waiter" : {
			"loop" : -1,
			"suspend",
			"run" : 1500
		},
		"phased" : {
			"loop" : -1,
			"phases" : {
				"p1" : { "suspend", "run" : 35, "resume" : "waiter" },
				"p2" : { "run" : 100, "timer" : { "ref" : "unique", "period" : 1000 }, "resume" : "phased" }
			}
		}
	},
	"global" : { "duration" : 2 }
}`
	s, probs, err := ImportRTApp([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks) != 2 || !s.Tasks[0].Program[0].Wait || s.Tasks[0].Program[1].Run != "1500us" {
		t.Fatalf("waiter: %+v", s.Tasks)
	}
	p := s.Tasks[1].Program
	if len(p) != 6 || !p[0].Wait || p[1].Run != "35us" || p[2].Wake != "waiter" || p[3].Run != "100us" || p[4].Timer != "1ms" || p[5].Wake != "phased" {
		t.Fatalf("phased: %+v", p)
	}
	for _, pr := range probs {
		if strings.Contains(pr.Path, "suspend") {
			t.Errorf("the bare suspend was reported: %s", pr)
		}
	}
	_, _, err = ImportRTApp([]byte("{\n\"tasks\": {\n\"t\": {\"suspend\",\n\"run\": 5 5}}}"))
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("a syntax error on line 4 after a bare key: %v", err)
	}
}
