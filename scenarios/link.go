package scenarios

import (
	"fmt"
	"strings"
)

// EncodeLink returns the share-link fragment of a scenario, without the '#':
// "s=" + base64url (no padding) of the raw DEFLATE (RFC 1951) of Canonical().
// A page URL plus "#" plus this loads the scenario exactly.
func EncodeLink(s *Scenario) string {
	return "s=" + pack(s.Canonical())
}

// DecodeLink decodes a share link: a full URL ("https://host/path/#s=..."),
// a fragment ("#s=...") or its value ("s=..."). In the fragment, parameters
// are separated by '&' and only s is read. It is bounded before it does any
// work: a link longer than MaxLinkBytes is refused, the data is inflated with
// a hard cap of MaxScenarioBytes (a "zip bomb" stops there), and only then is
// the scenario decoded, as strictly as a file. It never panics; every error is
// an *Error with Path "link" or a scenario path.
func DecodeLink(link string) (*Scenario, error) {
	linkErr := func(format string, args ...any) error {
		return &Error{Path: "link", Problem: fmt.Sprintf(format, args...)}
	}
	if len(link) > MaxLinkBytes {
		return nil, linkErr("%d bytes; the limit is %d (64 KiB)", len(link), MaxLinkBytes)
	}
	link = strings.TrimSpace(link)
	if i := strings.IndexByte(link, '#'); i >= 0 {
		link = link[i+1:]
	}
	var data string
	found := false
	for _, param := range strings.Split(link, "&") {
		if v, ok := strings.CutPrefix(param, "s="); ok {
			data, found = v, true
			break
		}
	}
	if !found {
		return nil, linkErr(`has no scenario (no "s=" in the fragment)`)
	}
	raw, err := unpack(data, "scenario")
	if err != nil {
		return nil, err
	}
	s, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	return s, nil
}
