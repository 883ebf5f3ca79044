package scenarios

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestMembersAgreeWithEncodingJSON: the slicing walk finds, for valid JSON,
// the same members and elements encoding/json's Decoder does (keys with
// escapes, strings holding braces and quotes, nesting, whitespace), and
// says false rather than guess on bytes that are not an object or array.
func TestMembersAgreeWithEncodingJSON(t *testing.T) {
	objects := []string{
		`{}`, ` { } `, `{"a":1}`, "{\n\t\"a\" :\t[1, {\"b\": \"}\"}] ,\r\n \"c\": null }",
		`{"k\"ey":"va\\\"l}ue","x":{"y":{"z":[[],[{}]]}},"t":true,"f":false,"n":-1.5e3}`,
		`{"\u00e9":"caf\u00e9","s":"a,b]c}d"}`,
	}
	for _, src := range objects {
		var want [][2]string
		dec := json.NewDecoder(bytes.NewReader([]byte(src)))
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			want = append(want, [2]string{k.(string), string(v)})
		}
		var got [][2]string
		ok := members([]byte(src), func(q, val []byte) {
			var k string
			if err := json.Unmarshal(q, &k); err != nil {
				t.Fatalf("%s: key %s: %v", src, q, err)
			}
			if p, plain := plainString(q); plain && p != k {
				t.Errorf("%s: plainString(%s) = %q, encoding/json %q", src, q, p, k)
			}
			got = append(got, [2]string{k, string(val)})
		})
		if !ok || len(got) != len(want) {
			t.Fatalf("%s: members ok=%v %q, want %q", src, ok, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: member %d is %q, want %q", src, i, got[i], want[i])
			}
		}
	}
	var elems []string
	if !elements([]byte(` [1, "a]\"", {"b":[2]} ,[ ], true] `), func(i int, v []byte) bool { elems = append(elems, string(v)); return true }) ||
		len(elems) != 5 || elems[1] != `"a]\""` || elems[2] != `{"b":[2]}` || elems[3] != `[ ]` {
		t.Errorf("elements: %q", elems)
	}
	for _, bad := range []string{``, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":"x`, `[1 2]`, `[1,]`, `"s"`, `{a:1}`} {
		if members([]byte(bad), func(_, _ []byte) {}) && bad != `` {
			t.Errorf("members(%q) = true", bad)
		}
		if bad[:min(1, len(bad))] == "[" && elements([]byte(bad), func(int, []byte) bool { return true }) {
			t.Errorf("elements(%q) = true", bad)
		}
	}
	for _, q := range []string{`"a\nb"`, `"é"`, `"tab	"`, `"x\"`} {
		if _, plain := plainString([]byte(q)); plain {
			t.Errorf("plainString(%s) takes a string encoding/json must decode", q)
		}
	}
}

// BenchmarkDecode: the page decodes every scenario it takes from the worker
// on its main thread (an import, a link): aim9-burst's canonical file.
func BenchmarkDecode(b *testing.B) {
	p, err := Preset("aim9-burst")
	if err != nil {
		b.Fatal(err)
	}
	data := p.Canonical()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
