package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// rt-app reads its files with json-c, which is more forgiving than
// encoding/json: C comments (/* */ and //) and trailing commas are accepted,
// and keys repeat ("run" twice in one phase is two run events, in order;
// rt-app's workgen renames them run, run1 but rt-app itself takes both).
// A bare key, `"suspend",`, is what workgen accepts and completes; it reads
// as the key with the value null.
// This file reads that dialect into an ordered tree: comments and trailing
// commas are blanked out first (byte offsets stay put, so error lines are
// the file's), then encoding/json's token stream builds the tree, keeping
// every key in file order.

// jval is one JSON value of the tree.
type jval struct {
	kind byte // 'n' null, 'b' bool, '0' number, 's' string, '{' object, '[' array
	b    bool
	num  json.Number
	str  string
	obj  []jmember
	arr  []*jval
	off  int64 // byte offset of the value in the input
}

type jmember struct {
	key string
	val *jval
}

// maxJSONDepth bounds nesting (rt-app files are four or five levels deep).
const maxJSONDepth = 32

// relax returns a copy of data with comments and trailing commas replaced
// by spaces (newlines inside comments are kept) and bare keys given a null
// value (see bareKeys).
func relax(data []byte) []byte {
	return bareKeys(blank(data))
}

// bareKeys gives every bare key of an object (a string where a key is due,
// followed by ',' or '}' instead of ':') the value null: `"suspend",`
// becomes `"suspend":null,`. rt-app's own files have them (video-long.json:
// `"suspend",`): its front end workgen, which Debian installs beside
// rt-app, fills in the name of the thread before rt-app's json-c parser,
// which refuses them, reads the file. A suspend's value is the thread's own
// name in any case here. The inserted bytes stay on their line, so error
// lines are still the file's.
func bareKeys(in []byte) []byte {
	var out []byte // nil until the first bare key
	var stack []byte
	expectKey := false
	last := 0 // in[:last] is copied to out
	for i := 0; i < len(in); i++ {
		switch c := in[i]; c {
		case '{':
			stack = append(stack, c)
			expectKey = true
		case '[':
			stack = append(stack, c)
			expectKey = false
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectKey = false
		case ':':
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
		case '"':
			j := i + 1
			for ; j < len(in) && in[j] != '"'; j++ {
				if in[j] == '\\' {
					j++
				}
			}
			if j >= len(in) {
				return append(out, in[last:]...) // unterminated: the decoder says where
			}
			if expectKey {
				k := j + 1
				for k < len(in) && (in[k] == ' ' || in[k] == '\t' || in[k] == '\n' || in[k] == '\r') {
					k++
				}
				if k < len(in) && (in[k] == ',' || in[k] == '}') {
					if out == nil {
						out = make([]byte, 0, len(in)+16)
					}
					out = append(out, in[last:j+1]...)
					out = append(out, ":null"...)
					last = j + 1
				}
			}
			expectKey = false
			i = j
		}
	}
	if out == nil {
		return in
	}
	return append(out, in[last:]...)
}

// blank returns a copy of data with comments and trailing commas replaced
// by spaces (newlines inside comments are kept).
func blank(data []byte) []byte {
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					break
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		}
	}
	// Trailing commas, now that comments are gone.
	inStr = false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		if c != ',' {
			continue
		}
		j := i + 1
		for j < len(out) && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
			j++
		}
		if j < len(out) && (out[j] == '}' || out[j] == ']') {
			out[i] = ' '
		}
	}
	return out
}

// lineOf is the 1-based line of byte offset off.
func lineOf(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// parseRelaxed reads one value (and nothing after it but space).
func parseRelaxed(data []byte) (*jval, error) {
	text := relax(data)
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = fmt.Errorf("line %d: data after the top-level value", lineOf(text, dec.InputOffset()))
		}
	}
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("line %d: %v", lineOf(text, se.Offset), se)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("line %d: unexpected end of input", lineOf(text, int64(len(text))))
		}
		return nil, err
	}
	return v, nil
}

func readValue(dec *json.Decoder, depth int) (*jval, error) {
	off := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return valueFrom(dec, tok, off, depth)
}

func valueFrom(dec *json.Decoder, tok json.Token, off int64, depth int) (*jval, error) {
	v := &jval{off: off}
	switch t := tok.(type) {
	case nil:
		v.kind = 'n'
	case bool:
		v.kind, v.b = 'b', t
	case json.Number:
		v.kind, v.num = '0', t
	case string:
		v.kind, v.str = 's', t
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, fmt.Errorf("nested deeper than %d levels", maxJSONDepth)
		}
		switch t {
		case '{':
			v.kind = '{'
			for dec.More() {
				koff := dec.InputOffset()
				ktok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := ktok.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string (offset %d)", koff)
				}
				val, err := readValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.obj = append(v.obj, jmember{key, val})
			}
		case '[':
			v.kind = '['
			for dec.More() {
				el, err := readValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, el)
			}
		default:
			return nil, fmt.Errorf("unexpected %q", rune(t))
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return v, nil
}

// describe names a value's JSON type for messages.
func (v *jval) describe() string {
	switch v.kind {
	case 'n':
		return "null"
	case 'b':
		return "a boolean"
	case '0':
		return "the number " + v.num.String()
	case 's':
		return "the string " + strconv.Quote(v.str)
	case '{':
		return "an object"
	}
	return "an array"
}

// integer returns the value as an int64 if it is an integer number.
func (v *jval) integer() (int64, bool) {
	if v.kind != '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(v.num.String(), 10, 64)
	return n, err == nil
}

// member returns the last value of key in an object (json-c keeps the last
// of duplicate keys for the properties rt-app looks up by name).
func (v *jval) member(key string) *jval {
	var out *jval
	for _, m := range v.obj {
		if m.key == key {
			out = m.val
		}
	}
	return out
}

// pathJoin extends a problem path with an object key, quoting keys that are
// not plain identifiers, as package scenarios writes its paths:
// tasks["mp3.decoder"].run.
func pathJoin(path, key string) string {
	plain := key != "" && len(key) <= 64
	for i := 0; plain && i < len(key); i++ {
		c := key[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if !plain {
		if len(key) > 64 {
			key = strings.ToValidUTF8(key[:64], "") + "..."
		}
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
