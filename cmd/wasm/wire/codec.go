package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"
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

// Each type's encoder and decoder are made once, by reflection over the
// type, and kept: a message then costs no type switch and no cache lookup
// per value (the per-struct lookup of exported fields in a sync.Map was a
// third of the page's main-thread time in decoding aim9-burst's frames,
// issue 19). codecs holds them; a type that contains itself finds its own
// (still empty) entry while it is being made, and fills it before use.
//
// The decoder runs on the page's main thread, so it writes through the
// value's address: a struct field is its offset, an element its index
// times the element's size, and only what must be allocated (a slice's
// array, a pointer's value, a map) goes through reflect. Per field,
// reflect.Value's Field and Set calls (flag checks, a closure each) were
// most of the decoding time in wasm.
var (
	codecMu sync.Mutex
	codecs  = map[reflect.Type]*codec{}
)

type codec struct {
	enc func(b []byte, v reflect.Value) ([]byte, error)
	// dec decodes into the zero value of the codec's type at p.
	dec func(r *reader, p unsafe.Pointer)
}

// sliceHeader is the layout of every slice value (the language's, as
// unsafe.Slice and reflect.SliceHeader have it).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// codecOf returns t's codec, made on first use.
func codecOf(t reflect.Type) *codec {
	codecMu.Lock()
	defer codecMu.Unlock()
	return makeCodec(t)
}

// exported lists a struct type's exported field indices.
func exported(t reflect.Type) []int {
	var idx []int
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			idx = append(idx, i)
		}
	}
	return idx
}

// makeCodec makes t's codec (codecMu held).
func makeCodec(t reflect.Type) *codec {
	if c, ok := codecs[t]; ok {
		return c
	}
	c := &codec{}
	codecs[t] = c
	switch t.Kind() {
	case reflect.Bool:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			if v.Bool() {
				return append(b, 1), nil
			}
			return append(b, 0), nil
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			if b := r.bytes(1); b != nil {
				*(*bool)(p) = b[0] != 0
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) { return binary.AppendVarint(b, v.Int()), nil }
		c.dec = intDec(t.Kind())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) { return binary.AppendUvarint(b, v.Uint()), nil }
		c.dec = uintDec(t.Kind())
	case reflect.Float32:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.Float()))), nil
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			if b := r.bytes(4); b != nil {
				*(*float32)(p) = math.Float32frombits(binary.LittleEndian.Uint32(b))
			}
		}
	case reflect.Float64:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float())), nil
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			if b := r.bytes(8); b != nil {
				*(*float64)(p) = math.Float64frombits(binary.LittleEndian.Uint64(b))
			}
		}
	case reflect.String:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			s := v.String()
			b = binary.AppendUvarint(b, uint64(len(s)))
			return append(b, s...), nil
		}
		c.dec = func(r *reader, p unsafe.Pointer) { *(*string)(p) = string(r.bytes(r.uvarint())) }
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
				if v.IsNil() {
					return append(b, 0), nil
				}
				b = binary.AppendUvarint(b, uint64(v.Len())+1)
				return append(b, v.Bytes()...), nil
			}
			c.dec = func(r *reader, p unsafe.Pointer) {
				if n, isNil := r.length(); !isNil && r.err == nil {
					*(*[]byte)(p) = append([]byte(nil), r.bytes(uint64(n))...)
				}
			}
			break
		}
		elem := makeCodec(t.Elem())
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, 0), nil
			}
			n := v.Len()
			b = binary.AppendUvarint(b, uint64(n)+1)
			var err error
			for i := 0; i < n && err == nil; i++ {
				b, err = elem.enc(b, v.Index(i))
			}
			return b, err
		}
		size := t.Elem().Size()
		c.dec = func(r *reader, p unsafe.Pointer) {
			n, isNil := r.length()
			if isNil || r.err != nil {
				return
			}
			base := reflect.MakeSlice(t, n, n).UnsafePointer()
			for i := 0; i < n && r.err == nil; i++ {
				elem.dec(r, unsafe.Add(base, uintptr(i)*size))
			}
			*(*sliceHeader)(p) = sliceHeader{base, n, n}
		}
	case reflect.Array:
		elem := makeCodec(t.Elem())
		n := t.Len()
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			var err error
			for i := 0; i < n && err == nil; i++ {
				b, err = elem.enc(b, v.Index(i))
			}
			return b, err
		}
		size := t.Elem().Size()
		c.dec = func(r *reader, p unsafe.Pointer) {
			for i := 0; i < n && r.err == nil; i++ {
				elem.dec(r, unsafe.Add(p, uintptr(i)*size))
			}
		}
	case reflect.Map:
		key, val := makeCodec(t.Key()), makeCodec(t.Elem())
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, 0), nil
			}
			b = binary.AppendUvarint(b, uint64(v.Len())+1)
			it := v.MapRange()
			var err error
			for it.Next() && err == nil {
				if b, err = key.enc(b, it.Key()); err == nil {
					b, err = val.enc(b, it.Value())
				}
			}
			return b, err
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			n, isNil := r.length()
			if isNil || r.err != nil {
				return
			}
			m := reflect.MakeMapWithSize(t, n)
			for i := 0; i < n && r.err == nil; i++ {
				k, e := reflect.New(t.Key()), reflect.New(t.Elem())
				key.dec(r, k.UnsafePointer())
				val.dec(r, e.UnsafePointer())
				m.SetMapIndex(k.Elem(), e.Elem())
			}
			reflect.NewAt(t, p).Elem().Set(m)
		}
	case reflect.Pointer:
		elem := makeCodec(t.Elem())
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, 0), nil
			}
			return elem.enc(append(b, 1), v.Elem())
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			b := r.bytes(1)
			if b == nil || b[0] == 0 {
				return
			}
			q := reflect.New(t.Elem()).UnsafePointer()
			elem.dec(r, q)
			*(*unsafe.Pointer)(p) = q
		}
	case reflect.Struct:
		idx := exported(t)
		fields := make([]*codec, len(idx))
		offsets := make([]uintptr, len(idx))
		for k, i := range idx {
			fields[k] = makeCodec(t.Field(i).Type)
			offsets[k] = t.Field(i).Offset
		}
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			var err error
			for k, i := range idx {
				if b, err = fields[k].enc(b, v.Field(i)); err != nil {
					return b, err
				}
			}
			return b, nil
		}
		c.dec = func(r *reader, p unsafe.Pointer) {
			for k, f := range fields {
				if r.err != nil {
					return
				}
				f.dec(r, unsafe.Add(p, offsets[k]))
			}
		}
	default:
		c.enc = func(b []byte, v reflect.Value) ([]byte, error) {
			return b, fmt.Errorf("wire: cannot encode a %s", v.Type())
		}
		c.dec = func(r *reader, p unsafe.Pointer) { r.fail(fmt.Errorf("cannot decode a %s", t)) }
	}
	return c
}

// intDec decodes a zig-zag varint into a signed integer of kind k, as
// reflect.Value.SetInt would (truncating to the size).
func intDec(k reflect.Kind) func(r *reader, p unsafe.Pointer) {
	switch k {
	case reflect.Int8:
		return func(r *reader, p unsafe.Pointer) { *(*int8)(p) = int8(r.varint()) }
	case reflect.Int16:
		return func(r *reader, p unsafe.Pointer) { *(*int16)(p) = int16(r.varint()) }
	case reflect.Int32:
		return func(r *reader, p unsafe.Pointer) { *(*int32)(p) = int32(r.varint()) }
	case reflect.Int64:
		return func(r *reader, p unsafe.Pointer) { *(*int64)(p) = r.varint() }
	}
	return func(r *reader, p unsafe.Pointer) { *(*int)(p) = int(r.varint()) }
}

// uintDec decodes a varint into an unsigned integer of kind k, as
// reflect.Value.SetUint would.
func uintDec(k reflect.Kind) func(r *reader, p unsafe.Pointer) {
	switch k {
	case reflect.Uint8:
		return func(r *reader, p unsafe.Pointer) { *(*uint8)(p) = uint8(r.uvarint()) }
	case reflect.Uint16:
		return func(r *reader, p unsafe.Pointer) { *(*uint16)(p) = uint16(r.uvarint()) }
	case reflect.Uint32:
		return func(r *reader, p unsafe.Pointer) { *(*uint32)(p) = uint32(r.uvarint()) }
	case reflect.Uint64:
		return func(r *reader, p unsafe.Pointer) { *(*uint64)(p) = r.uvarint() }
	case reflect.Uintptr:
		return func(r *reader, p unsafe.Pointer) { *(*uintptr)(p) = uintptr(r.uvarint()) }
	}
	return func(r *reader, p unsafe.Pointer) { *(*uint)(p) = uint(r.uvarint()) }
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

// marshal appends the encoding of *p to b.
func marshal(b []byte, p any) ([]byte, error) {
	v := reflect.ValueOf(p).Elem()
	return codecOf(v.Type()).enc(b, v)
}

// unmarshal decodes b into *p (a zero value), which must take all of b.
func unmarshal(b []byte, p any) error {
	r := reader{b: b}
	v := reflect.ValueOf(p)
	codecOf(v.Type().Elem()).dec(&r, v.UnsafePointer())
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%d bytes left after a message", len(r.b))
	}
	return nil
}
