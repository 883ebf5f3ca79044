package sim

import (
	"math/bits"
	"strconv"
	"strings"
)

// MaxCPUs is the largest machine the simulator builds (a documented limit:
// the scenarios package rejects bigger machines before allocating anything).
const MaxCPUs = 256

const maskWords = MaxCPUs / 64

// CPUMask is a fixed-size bitset of CPU ids, the simulator's cpumask_t.
// It is a value type: copying it copies the set.
type CPUMask [maskWords]uint64

func (m *CPUMask) Set(cpu int)           { m[cpu>>6] |= 1 << (uint(cpu) & 63) }
func (m *CPUMask) Clear(cpu int)         { m[cpu>>6] &^= 1 << (uint(cpu) & 63) }
func (m *CPUMask) Has(cpu int) bool      { return m[cpu>>6]&(1<<(uint(cpu)&63)) != 0 }
func (m *CPUMask) Empty() bool           { return m[0]|m[1]|m[2]|m[3] == 0 }
func (m *CPUMask) Equal(o *CPUMask) bool { return *m == *o }

// word returns CPUs lo..lo+n-1 of the mask (n <= 64) as the low n bits
// of a word, CPU lo in bit 0.
func (m *CPUMask) word(lo, n int) uint64 {
	w, off := lo>>6, uint(lo&63)
	x := m[w&(maskWords-1)] >> off
	if off != 0 && w+1 < maskWords {
		x |= m[w+1] << (64 - off)
	}
	if n < 64 {
		x &= 1<<uint(n) - 1
	}
	return x
}

// Weight is the number of CPUs in the mask (cpumask_weight).
func (m *CPUMask) Weight() int {
	return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) + bits.OnesCount64(m[2]) + bits.OnesCount64(m[3])
}

// And returns m ∩ o.
func (m CPUMask) And(o *CPUMask) CPUMask {
	for i := range m {
		m[i] &= o[i]
	}
	return m
}

// Or returns m ∪ o.
func (m CPUMask) Or(o *CPUMask) CPUMask {
	for i := range m {
		m[i] |= o[i]
	}
	return m
}

// AndNot returns m \ o.
func (m CPUMask) AndNot(o *CPUMask) CPUMask {
	for i := range m {
		m[i] &^= o[i]
	}
	return m
}

// Intersects reports whether m ∩ o is not empty (cpumask_intersects).
func (m *CPUMask) Intersects(o *CPUMask) bool {
	return m[0]&o[0]|m[1]&o[1]|m[2]&o[2]|m[3]&o[3] != 0
}

// SubsetOf reports whether m ⊆ o.
func (m *CPUMask) SubsetOf(o *CPUMask) bool {
	return m[0]&^o[0]|m[1]&^o[1]|m[2]&^o[2]|m[3]&^o[3] == 0
}

// First returns the lowest CPU in the mask, or -1 (cpumask_first).
func (m *CPUMask) First() int { return m.Next(-1) }

// Next returns the lowest CPU > cpu in the mask, or -1 (cpumask_next).
func (m *CPUMask) Next(cpu int) int {
	cpu++
	if cpu >= MaxCPUs {
		return -1
	}
	w := cpu >> 6
	word := m[w] >> (uint(cpu) & 63)
	if word != 0 {
		return cpu + bits.TrailingZeros64(word)
	}
	for w++; w < maskWords; w++ {
		if m[w] != 0 {
			return w<<6 + bits.TrailingZeros64(m[w])
		}
	}
	return -1
}

// NextWrap returns the next CPU after cpu, wrapping around to the start,
// as for_each_cpu_wrap() iterates; -1 when the mask is empty.
func (m *CPUMask) NextWrap(cpu int) int {
	if n := m.Next(cpu); n >= 0 {
		return n
	}
	return m.First()
}

// MaskOf returns the mask holding exactly the given CPUs.
func MaskOf(cpus ...int) CPUMask {
	var m CPUMask
	for _, c := range cpus {
		m.Set(c)
	}
	return m
}

// MaskRange returns the mask of CPUs lo..hi-1.
func MaskRange(lo, hi int) CPUMask {
	var m CPUMask
	for c := lo; c < hi; c++ {
		m.Set(c)
	}
	return m
}

// String prints the mask in the kernel's cpulist format ("0-3,8").
func (m CPUMask) String() string {
	var b strings.Builder
	for c := m.First(); c >= 0; {
		end := c
		for end+1 < MaxCPUs && m.Has(end+1) { // bound first: Has(MaxCPUs) is out of range
			end++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c))
		if end > c {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(end))
		}
		c = m.Next(end)
	}
	return b.String()
}

// HexString prints the mask as /proc/schedstat does for a machine of ncpu
// CPUs (lib/vsprintf.c bitmap_string(): 32-bit chunks, most significant
// first, comma separated, zero-padded; the first chunk is as wide as the
// bits it holds).
func (m CPUMask) HexString(ncpu int) string {
	var b strings.Builder
	chunk := ncpu % 32
	if chunk == 0 {
		chunk = 32
	}
	for i := (ncpu+31)/32*32 - 32; i >= 0; i -= 32 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		v := uint32(m[i/64] >> (uint(i % 64)))
		s := strconv.FormatUint(uint64(v), 16)
		width := (chunk + 3) / 4
		if len(s) < width {
			b.WriteString(strings.Repeat("0", width-len(s)))
		}
		b.WriteString(s)
		chunk = 32
	}
	return b.String()
}

// ParseCPUList parses the kernel's cpulist format ("0-3,8"). ncpu bounds the ids.
func ParseCPUList(s string, ncpu int) (CPUMask, error) {
	var m CPUMask
	s = strings.TrimSpace(s)
	if s == "" {
		return m, errorf("empty CPU list")
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i >= 0 {
			lo, hi = part[:i], part[i+1:]
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return m, errorf("%q is not a CPU range", part)
		}
		if b >= ncpu {
			return m, errorf("CPU %d does not exist (the machine has %d CPUs)", b, ncpu)
		}
		for c := a; c <= b; c++ {
			m.Set(c)
		}
	}
	return m, nil
}
