package scenarios

// Walking the members of an object and the elements of an array by slicing
// the bytes. Every raw value the decoder walks is part of the one value
// single() checked with encoding/json, so it is valid JSON and only needs
// its bounds found, not a second parse: a json.Decoder per object and array
// (each re-scanning its value and copying every member out) was three
// quarters of Decode's allocations (issue 19). The functions still return
// -1 on bytes that are not valid JSON rather than trust it.

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the index just past the string that starts at b[i]
// (a '"'), or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index just past the value that starts at b[i], or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = stringEnd(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	// A number, true, false or null: up to the next delimiter.
	for j := i; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return len(b)
}

// members calls f with each member of the object at the start of b (after
// whitespace): its key still quoted and its value, in order. It returns
// false if b is not an object of that form.
func members(b []byte, f func(key, val []byte)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		ke := stringEnd(b, i)
		if ke < 0 {
			return false
		}
		colon := skipSpace(b, ke)
		if colon >= len(b) || b[colon] != ':' {
			return false
		}
		vs := skipSpace(b, colon+1)
		ve := valueEnd(b, vs)
		if ve < 0 {
			return false
		}
		f(b[i:ke], b[vs:ve])
		switch i = skipSpace(b, ve); {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return true
		default:
			return false
		}
	}
	return false
}

// elements calls f with each element of the array at the start of b, in
// order, until f returns false. It returns false if b is not an array.
func elements(b []byte, f func(i int, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
		return true
	}
	for n := 0; ; n++ {
		ve := valueEnd(b, i)
		if ve < 0 {
			return false
		}
		if !f(n, b[i:ve]) {
			return true
		}
		switch i = skipSpace(b, ve); {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return true
		default:
			return false
		}
	}
}

// plainString returns the text of the JSON string q (quotes included) when
// it has no escapes and only printable ASCII, which it is in nearly every
// scenario file, and false otherwise (encoding/json decodes the rest).
func plainString(q []byte) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	for _, c := range q[1 : len(q)-1] {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return "", false
		}
	}
	return string(q[1 : len(q)-1]), true
}
