package pagemodel

import (
	"slices"
	"strings"
	"testing"
)

func TestBreakPieces(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"A: policy.sd_flags.MC.SD_BALANCE_EXEC=true\nB: policy.x=1, policy.y=2",
			[]string{"A: policy.", "sd_flags.", "MC.", "SD_BALANCE_EXEC=", "true", "\n", "B: policy.", "x=", "1,", " policy.", "y=", "2"}},
		{"", nil},
		{"\n\n", []string{"\n", "\n"}},
		{"plain", []string{"plain"}},
	} {
		got := BreakPieces(c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
		if strings.Join(got, "") != c.in {
			t.Errorf("%q: the pieces do not make the text", c.in)
		}
	}
}
