package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
)

// The encoding: both ends are the same build of one program (the page and
// its worker run one wasm module), so a value goes without any type
// description, by reflection over its exported fields in declaration
// order (a field added to a frame type travels without a change here):
//
//	bool            one byte
//	intN, uintN     zig-zag / plain varint
//	float32/64      4 / 8 bytes, little endian IEEE 754
//	string, []byte  varint length, the bytes
//	slice, map      0 for nil, else 1 + length, then the elements (keys and values)
//	array           the elements
//	pointer         0 for nil, else 1, then the value
//	struct          its exported fields
//
// Unexported fields are left out (as encoding/gob and encoding/json do);
// interfaces, channels and functions are refused. encoding/gob did this
// job first and cost 120 kB of gzip in main.wasm.

var errShort = errors.New("message ends early")

// fieldsOf caches each struct type's exported field indices.
var fieldsOf sync.Map // reflect.Type -> []int

func exported(t reflect.Type) []int {
	if f, ok := fieldsOf.Load(t); ok {
		return f.([]int)
	}
	var idx []int
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			idx = append(idx, i)
		}
	}
	fieldsOf.Store(t, idx)
	return idx
}

func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint()), nil
	case reflect.Float32:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.Float()))), nil
	case reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float())), nil
	case reflect.String:
		s := v.String()
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		n := v.Len()
		b = binary.AppendUvarint(b, uint64(n)+1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return append(b, v.Bytes()...), nil
		}
		var err error
		for i := 0; i < n && err == nil; i++ {
			b, err = appendValue(b, v.Index(i))
		}
		return b, err
	case reflect.Array:
		var err error
		for i := 0; i < v.Len() && err == nil; i++ {
			b, err = appendValue(b, v.Index(i))
		}
		return b, err
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		it := v.MapRange()
		var err error
		for it.Next() && err == nil {
			if b, err = appendValue(b, it.Key()); err == nil {
				b, err = appendValue(b, it.Value())
			}
		}
		return b, err
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), nil
		}
		return appendValue(append(b, 1), v.Elem())
	case reflect.Struct:
		var err error
		for _, i := range exported(v.Type()) {
			if b, err = appendValue(b, v.Field(i)); err != nil {
				return b, err
			}
		}
		return b, nil
	}
	return b, fmt.Errorf("wire: cannot encode a %s", v.Type())
}

// reader reads what appendValue wrote.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	u, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return u
}

func (r *reader) varint() int64 {
	i, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return i
}

func (r *reader) bytes(n uint64) []byte {
	if uint64(len(r.b)) < n {
		r.fail(errShort)
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

// length reads a slice or map length (0: nil); a length longer than the
// bytes left cannot be right (every element takes at least one byte, or
// none for an empty struct: those are bounded by the message size too).
func (r *reader) length() (n int, isNil bool) {
	u := r.uvarint()
	if u == 0 {
		return 0, true
	}
	if u-1 > uint64(len(r.b)) {
		r.fail(fmt.Errorf("length %d past the message's end", u-1))
		return 0, true
	}
	return int(u - 1), false
}

func (r *reader) value(v reflect.Value) {
	if r.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b := r.bytes(1)
		if b != nil {
			v.SetBool(b[0] != 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(r.varint())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(r.uvarint())
	case reflect.Float32:
		if b := r.bytes(4); b != nil {
			v.SetFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
		}
	case reflect.Float64:
		if b := r.bytes(8); b != nil {
			v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
	case reflect.String:
		v.SetString(string(r.bytes(r.uvarint())))
	case reflect.Slice:
		n, isNil := r.length()
		if isNil || r.err != nil {
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes(append([]byte(nil), r.bytes(uint64(n))...))
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n && r.err == nil; i++ {
			r.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len() && r.err == nil; i++ {
			r.value(v.Index(i))
		}
	case reflect.Map:
		n, isNil := r.length()
		if isNil || r.err != nil {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		kt, vt := v.Type().Key(), v.Type().Elem()
		for i := 0; i < n && r.err == nil; i++ {
			k, e := reflect.New(kt).Elem(), reflect.New(vt).Elem()
			r.value(k)
			r.value(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		b := r.bytes(1)
		if b == nil || b[0] == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		r.value(p.Elem())
		v.Set(p)
	case reflect.Struct:
		for _, i := range exported(v.Type()) {
			r.value(v.Field(i))
		}
	default:
		r.fail(fmt.Errorf("cannot decode a %s", v.Type()))
	}
}

// marshal appends the encoding of *p to b.
func marshal(b []byte, p any) ([]byte, error) {
	return appendValue(b, reflect.ValueOf(p).Elem())
}

// unmarshal decodes b into *p (a zero value), which must take all of b.
func unmarshal(b []byte, p any) error {
	r := reader{b: b}
	r.value(reflect.ValueOf(p).Elem())
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%d bytes left after a message", len(r.b))
	}
	return nil
}
