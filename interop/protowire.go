package interop

// A minimal protocol-buffers encoder, enough for the Perfetto export
// (perfettoproto.go): varints, length-delimited strings and nested
// messages, in the wire format of
// https://protobuf.dev/programming-guides/encoding/. Fields are written in
// the order the caller writes them; nothing is read back.
//
// Nested messages are written in place: begin writes the tag and remembers
// where the body starts, end measures the body and inserts its length in
// front of it (moving the body by the length's 1-10 bytes). A message is
// thus copied once per enclosing level, which for Perfetto's four levels
// (Trace.packet > TracePacket.ftrace_events > FtraceEventBundle.event >
// FtraceEvent.sched_switch) costs less than building each level apart.

// Wire types.
const (
	wireVarint = 0
	wireBytes  = 2
)

// The writer's methods are marked go:noinline: perfettoproto.go calls
// them from a few hundred places, and inlined there they made the page's
// wasm 25 kB larger over the wire (gzip; issue 19 asks for <= 3.5 MB). A
// call costs nanoseconds per field, next to the simulation that made the
// events.
type pbWriter struct {
	b     []byte
	stack []int // body start of each open message
}

//go:noinline
func (w *pbWriter) varint(v uint64) {
	for v >= 0x80 {
		w.b = append(w.b, byte(v)|0x80)
		v >>= 7
	}
	w.b = append(w.b, byte(v))
}

//go:noinline
func (w *pbWriter) tag(field int, wire int) {
	w.varint(uint64(field)<<3 | uint64(wire))
}

// uint writes a uint32/uint64 field (and enums, which are varints).
//
//go:noinline
func (w *pbWriter) uint(field int, v uint64) {
	w.tag(field, wireVarint)
	w.varint(v)
}

// int writes an int32/int64 field: a negative value is sign-extended to 64
// bits and takes ten bytes, as protobuf specifies for int32 too.
//
//go:noinline
func (w *pbWriter) int(field int, v int64) {
	w.tag(field, wireVarint)
	w.varint(uint64(v))
}

func (w *pbWriter) bool(field int, v bool) {
	var n uint64
	if v {
		n = 1
	}
	w.uint(field, n)
}

//go:noinline
func (w *pbWriter) string(field int, s string) {
	w.tag(field, wireBytes)
	w.varint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// raw appends already encoded fields to the open message.
func (w *pbWriter) raw(b []byte) {
	w.b = append(w.b, b...)
}

// begin opens a nested message field; end closes the last one opened.
//
//go:noinline
func (w *pbWriter) begin(field int) {
	w.tag(field, wireBytes)
	w.stack = append(w.stack, len(w.b))
}

//go:noinline
func (w *pbWriter) end() {
	start := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	n := len(w.b) - start
	var tmp [10]byte
	l := 0
	for v := uint64(n); ; {
		if v < 0x80 {
			tmp[l] = byte(v)
			l++
			break
		}
		tmp[l] = byte(v) | 0x80
		l++
		v >>= 7
	}
	w.b = append(w.b, tmp[:l]...)
	copy(w.b[start+l:], w.b[start:start+n])
	copy(w.b[start:], tmp[:l])
}

func (w *pbWriter) reset() {
	w.b = w.b[:0]
	w.stack = w.stack[:0]
}
