package scenarios

import (
	"strings"
	"testing"
)

// TestBidiControlsRefused: issue 18, item 7. A U+202E in a title was
// accepted and could reorder what the page (and a terminal) shows.
func TestBidiControlsRefused(t *testing.T) {
	for _, tc := range []struct{ field, value string }{
		{"title", "invoice\u202efdp.exe"},
		{"title", "a\u2066b\u2069"},
		{"description", "line one\nline \u202btwo"},
	} {
		s, err := Preset("tbench-pairs")
		if err != nil {
			t.Fatal(err)
		}
		err = s.Set(tc.field, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.field+": contains the bidirectional control character U+20") {
			t.Errorf("%s=%q: %v", tc.field, tc.value, err)
			continue
		}
		if strings.ContainsAny(err.Error(), "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") {
			t.Errorf("the error shows the raw control: %q", err.Error())
		}
	}
	// Right-to-left text itself, and its marks, stay allowed.
	s, _ := Preset("tbench-pairs")
	if err := s.Set("title", "זוג tbench \u200f(1)"); err != nil {
		t.Errorf("Hebrew with a RLM mark: %v", err)
	}
}
