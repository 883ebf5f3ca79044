package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Decode parses a scenario file strictly and validates it. Input larger than
// MaxScenarioBytes is rejected before it is parsed; syntax errors, trailing
// data, unknown or duplicate fields and values of the wrong JSON type are
// reported with their path, then Validate runs. Absent fields get their
// defaults (doc.go lists them), so the result is explicit.
func Decode(data []byte) (*Scenario, error) {
	if len(data) > MaxScenarioBytes {
		return nil, &Error{Problem: fmt.Sprintf("scenario is %d bytes; the limit is %d (256 KiB)", len(data), MaxScenarioBytes)}
	}
	// A byte-order mark, as some editors write, is not JSON; skip it.
	raw, err := single(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")))
	if err != nil {
		return nil, err
	}
	d := &decoder{}
	s := &Scenario{}
	root := schema().root
	fill(root, s, keys{})
	d.node(root, raw, "", s, keys{})
	if !d.ok() {
		return nil, d.err()
	}
	s.normalize()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// single checks that data is exactly one JSON value and returns it.
func single(data []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, syntaxError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := position(data, off)
		return nil, &Error{Problem: fmt.Sprintf("unexpected data after the scenario at line %d, column %d", line, col)}
	}
	return raw, nil
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case err == io.EOF:
		return &Error{Problem: "empty input: a scenario is a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Problem: "invalid JSON: unexpected end of input"}
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return &Error{Problem: fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())}
	}
	return &Error{Problem: "invalid JSON: " + err.Error()}
}

// position turns a byte offset into 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}

// decoder walks json.RawMessage values by hand, so that every problem gets
// the exact path where it is, and keeps going after a problem to report as
// many as it can (up to maxReported).
type decoder struct{ problems }

// kindOf returns the JSON type of a raw value: '{', '[', '"', 't' (true or
// false), 'n' (null) or '0' (a number).
func kindOf(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; c {
	case '{', '[', '"', 'n':
		return c
	case 't', 'f':
		return 't'
	}
	return '0'
}

var kindNames = map[byte]string{'{': "an object", '[': "an array", '"': "a string", 't': "a boolean", 'n': "null", '0': "a number"}

func (d *decoder) want(path string, raw json.RawMessage, want byte) bool {
	got := kindOf(raw)
	if got == want {
		return true
	}
	d.add(path, "must be "+kindNames[want]+", not "+kindNames[got])
	return false
}

// object calls field for each member of the object raw, in order. Duplicate
// keys are reported (encoding/json would silently keep the last one).
func (d *decoder) object(raw json.RawMessage, path string, field func(key string, val json.RawMessage, path string)) {
	if !d.want(path, raw, '{') {
		return
	}
	// The keys seen so far: a few in a slice (a scenario's objects have
	// up to about 30), a map past that (a hostile file's thousands).
	var few [32]string
	seen := few[:0]
	var many map[string]bool
	dup := func(key string) bool {
		if many != nil {
			if many[key] {
				return true
			}
			many[key] = true
			return false
		}
		for _, k := range seen {
			if k == key {
				return true
			}
		}
		if len(seen) < len(few) {
			seen = append(seen, key)
			return false
		}
		many = make(map[string]bool, 2*len(seen))
		for _, k := range seen {
			many[k] = true
		}
		many[key] = true
		return false
	}
	ok := members(raw, func(q, val []byte) {
		key, plain := plainString(q)
		if !plain && json.Unmarshal(q, &key) != nil {
			d.add(path, "invalid JSON object")
			return
		}
		p := join(path, key)
		if dup(key) {
			d.add(p, "duplicate field")
			return
		}
		field(key, val, p)
	})
	if !ok {
		d.add(path, "invalid JSON object")
	}
}

// array calls elem for each element of the array raw, and stops with a
// problem at the (max+1)th element, before anything is allocated for it.
func (d *decoder) array(raw json.RawMessage, path string, max int, what string, elem func(i int, val json.RawMessage, path string)) bool {
	if !d.want(path, raw, '[') {
		return false
	}
	complete := true
	ok := elements(raw, func(i int, val []byte) bool {
		if i == max {
			d.add(path, fmt.Sprintf("more than %d %s", max, what))
			complete = false
			return false
		}
		elem(i, val, index(path, i))
		return true
	})
	if !ok {
		d.add(path, "invalid JSON array")
		return false
	}
	return complete
}

func (d *decoder) unknown(path string) { d.add(path, "unknown field") }

func (d *decoder) str(raw json.RawMessage, path string, dst *string) {
	if !d.want(path, raw, '"') {
		return
	}
	if v, ok := plainString(bytes.TrimSpace(raw)); ok {
		*dst = v
		return
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		d.add(path, "invalid string")
	}
}

func (d *decoder) boolean(raw json.RawMessage, path string, dst *bool) {
	if !d.want(path, raw, 't') {
		return
	}
	*dst = bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("true"))
}

// integer decodes a JSON number that is written as an integer ("8", not
// "8.0" or "8e0") and fits an int.
func (d *decoder) integer(raw json.RawMessage, path string, dst *int) bool {
	if !d.want(path, raw, '0') {
		return false
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseInt(text, 10, 64)
	switch {
	case err == nil && v >= math.MinInt && v <= math.MaxInt:
		*dst = int(v)
		return true
	case errors.Is(err, strconv.ErrRange), err == nil:
		d.add(path, text+" is out of range")
	default:
		d.add(path, text+" is not an integer")
	}
	return false
}

func (d *decoder) intPtr(raw json.RawMessage, path string, dst **int) {
	var v int
	if d.integer(raw, path, &v) {
		*dst = &v
	}
}

func (d *decoder) uinteger(raw json.RawMessage, path string, dst *uint64) {
	if !d.want(path, raw, '0') {
		return
	}
	text := string(bytes.TrimSpace(raw))
	v, err := strconv.ParseUint(text, 10, 64)
	switch {
	case err == nil:
		*dst = v
	case errors.Is(err, strconv.ErrRange):
		d.add(path, text+" is out of range")
	default:
		d.add(path, text+" is not a non-negative integer")
	}
}

// defaultMachine is the machine of a file that gives none: the schema's
// defaults.
func defaultMachine() Machine {
	var s Scenario
	fill(schema().root.kids["machine"], &s, keys{})
	return s.Machine
}
