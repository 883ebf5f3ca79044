package scenarios

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
)

// EncodeLink returns the share-link fragment of a scenario, without the '#':
// "s=" + base64url (no padding) of the raw DEFLATE (RFC 1951) of Canonical().
// A page URL plus "#" plus this loads the scenario exactly.
func EncodeLink(s *Scenario) string {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		panic(err) // only for an invalid level
	}
	w.Write(s.Canonical()) // a bytes.Buffer does not fail
	w.Close()
	return "s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
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
	data = strings.TrimRight(data, "=") // tolerate padding
	if data == "" {
		return nil, linkErr("the scenario data is empty")
	}
	compressed, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		return nil, linkErr("not base64url: %v (was the link cut or changed?)", err)
	}
	br := bytes.NewReader(compressed)
	fr := flate.NewReader(br)
	defer fr.Close()
	raw, err := io.ReadAll(io.LimitReader(fr, MaxScenarioBytes+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, linkErr("the compressed data is truncated (was the link cut?)")
	case err != nil:
		return nil, linkErr("the compressed data is corrupt: %v", err)
	case len(raw) > MaxScenarioBytes:
		return nil, linkErr("inflates to more than %d bytes (256 KiB)", MaxScenarioBytes)
	case br.Len() != 0:
		return nil, linkErr("%d bytes of unexpected data after the compressed scenario", br.Len())
	}
	s, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	return s, nil
}
