package scenarios

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strings"
	"testing"
)

func deflate(t testing.TB, data []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(data)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestLinkRoundTrip(t *testing.T) {
	for _, name := range []string{"kitchen sink", "pelt-pingpong", "tbench-pairs"} {
		var s *Scenario
		if name == "kitchen sink" {
			s = mustDecode(t, kitchenSink)
		} else {
			s, _ = Preset(name)
		}
		link := EncodeLink(s)
		if !strings.HasPrefix(link, "s=") || strings.ContainsAny(link, "#+/?&") || strings.Count(link, "=") != 1 {
			t.Fatalf("%s: link %q is not s=<base64url without padding>", name, link)
		}
		for _, form := range []string{link, "#" + link, "https://example.org/schedplay/#" + link, "https://h/#v=2&" + link + "&x=1", " #" + link + "\n"} {
			got, err := DecodeLink(form)
			if err != nil {
				t.Fatalf("%s: DecodeLink(%.40q...): %v", name, form, err)
			}
			if !bytes.Equal(got.Canonical(), s.Canonical()) {
				t.Fatalf("%s: link round trip changed the scenario", name)
			}
		}
		// The payload is exactly the deflated canonical JSON.
		if want := "s=" + deflate(t, s.Canonical()); link != want {
			t.Errorf("%s: link is not deflate(Canonical())", name)
		}
		if len(link) > MaxLinkBytes {
			t.Errorf("%s: link is %d bytes", name, len(link))
		}
	}
	// Equal scenarios make equal links, however they were written.
	a := mustDecode(t, minimal)
	b := mustDecode(t, `{"tasks":[{"program":[{"run":"1ms"},{"sleep":"1ms"}],"name":"a","count":1}], "version":1, "seed":1, "duration":"1s"}`)
	if EncodeLink(a) != EncodeLink(b) {
		t.Errorf("the same scenario written two ways gives two links")
	}
	// Padding added by a careless tool is tolerated.
	padded := EncodeLink(a) + "=="
	if _, err := DecodeLink(padded); err != nil {
		t.Errorf("padded link: %v", err)
	}
}

func TestLinkErrors(t *testing.T) {
	good := EncodeLink(mustDecode(t, minimal))
	payload := strings.TrimPrefix(good, "s=")
	var bomb bytes.Buffer
	w, _ := flate.NewWriter(&bomb, flate.BestCompression)
	w.Write(bytes.Repeat([]byte(" "), 4*MaxScenarioBytes))
	w.Close()
	bombLink := "s=" + base64.RawURLEncoding.EncodeToString(bomb.Bytes())
	var trailing bytes.Buffer
	w, _ = flate.NewWriter(&trailing, flate.BestCompression)
	w.Write([]byte(minimal))
	w.Close()
	trailing.WriteString("extra")

	cases := []struct {
		name, link, want string
	}{
		{"empty", "", `link: has no scenario (no "s=" in the fragment)`},
		{"no s", "https://example.org/#t=1", `link: has no scenario`},
		{"empty s", "#s=", "link: the scenario data is empty"},
		{"bad base64", "#s=abc$def", "link: not base64url"},
		{"std base64", "#s=" + strings.ReplaceAll(strings.ReplaceAll(payload, "-", "+"), "_", "/") + "+/", "link: not base64url"},
		{"truncated", "#" + good[:len(good)/2], "link: the compressed data is"},
		{"not deflate", "#s=" + base64.RawURLEncoding.EncodeToString([]byte("this is not deflate data at all")), "link: the compressed data is"},
		{"bomb", bombLink, "link: inflates to more than 262144 bytes"},
		{"trailing", "s=" + base64.RawURLEncoding.EncodeToString(trailing.Bytes()), "link: 5 bytes of unexpected data after the compressed scenario"},
		{"not json", "s=" + deflate(t, []byte("<script>alert(1)</script>")), "invalid JSON at line 1, column 1"},
		{"invalid scenario", "s=" + deflate(t, []byte(patch(t, minimal, "duration", `"8 ms"`))), `duration: "8 ms" is not a duration`},
		{"oversized", "#s=" + strings.Repeat("A", MaxLinkBytes), "link: 65539 bytes; the limit is 65536"},
	}
	if len(bombLink) > 4096 {
		t.Fatalf("the bomb is not small: %d bytes", len(bombLink))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := DecodeLink(tc.link)
			if err == nil {
				t.Fatalf("DecodeLink succeeded: %s", s.Canonical())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q lacks %q", err, tc.want)
			}
			if len(Problems(err)) == 0 {
				t.Fatalf("no *Error in %v", err)
			}
		})
	}
	// An oversized link is refused before any work.
	huge := "#s=" + strings.Repeat("A", 10*MaxLinkBytes)
	if allocs := testing.AllocsPerRun(10, func() { DecodeLink(huge) }); allocs > 5 {
		t.Errorf("refusing an oversized link took %v allocations", allocs)
	}
	// The bomb is stopped at the cap: memory stays near MaxScenarioBytes.
	if allocs := testing.AllocsPerRun(3, func() { DecodeLink(bombLink) }); allocs > 200 {
		t.Errorf("the bomb took %v allocations", allocs)
	}
}
