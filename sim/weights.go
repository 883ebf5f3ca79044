package sim

import "math/bits"

// schedPrioToWeight mirrors sched_prio_to_weight[] (nice -20..19): each nice
// level is ~10% of CPU time, a factor ~1.25 in weight.
var schedPrioToWeight = [40]uint64{
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
}

// schedPrioToWmult mirrors sched_prio_to_wmult[]: 2^32/weight.
var schedPrioToWmult = [40]uint32{
	48388, 59856, 76040, 92818, 118348,
	147320, 184698, 229616, 287308, 360437,
	449829, 563644, 704093, 875809, 1099582,
	1376151, 1717300, 2157191, 2708050, 3363326,
	4194304, 5237765, 6557202, 8165337, 10153587,
	12820798, 15790321, 19976592, 24970740, 31350126,
	39045157, 49367440, 61356676, 76695844, 95443717,
	119304647, 148102320, 186737708, 238609294, 286331153,
}

// NiceWeight returns the load weight of a nice level.
func NiceWeight(nice int) uint64 { return schedPrioToWeight[nice+20] }

const wmultConst = 0xffffffff

// calcDeltaFair mirrors calc_delta_fair(): delta * NICE_0_LOAD / weight, via
// the inverse-weight table as __calc_delta() (v6.17) computes it. For nice 0
// it is the identity, as in the kernel.
func calcDeltaFair(delta int64, weight uint64, invWeight uint32) int64 {
	if weight == nice0Load || delta <= 0 {
		return delta
	}
	fact := uint64(nice0Load) * uint64(invWeight)
	shift := uint(32)
	if hi := fact >> 32; hi != 0 {
		fs := uint(64 - leadingZeros64(hi))
		shift -= fs
		fact >>= fs
	}
	return int64(mulU64U32Shr(uint64(delta), uint32(fact), shift))
}

func leadingZeros64(x uint64) int { return bits.LeadingZeros64(x) }

// mulU64U32Shr is mul_u64_u32_shr(a, mul, shift) without overflow.
func mulU64U32Shr(a uint64, mul uint32, shift uint) uint64 {
	hi, lo := a>>32, a&0xffffffff
	rl := lo * uint64(mul)
	rh := hi * uint64(mul)
	// (rh<<32 + rl) >> shift, with shift <= 32
	return (rh << (32 - shift)) + (rl >> shift)
}

// scaleByWeight returns delta * weight / total (the 3.8 calc_delta_mine()
// with the 2^32 inverse of total and its rounding).
func scaleByWeight(delta int64, weight, total uint64) int64 {
	if total == 0 || delta <= 0 {
		return 0
	}
	inv := uint64(wmultConst / total)
	if total >= wmultConst {
		inv = 1
	}
	tmp := uint64(delta) * weight
	if tmp > wmultConst {
		tmp = srr(srr(tmp, 16)*inv, 16)
	} else {
		tmp = srr(tmp*inv, 32)
	}
	if tmp > 1<<62 {
		tmp = 1 << 62
	}
	return int64(tmp)
}

func srr(x uint64, y uint) uint64 { return (x + (1 << (y - 1))) >> y }

// ilog2 of a positive int.
func ilog2(n int) int {
	r := 0
	for n > 1 {
		n >>= 1
		r++
	}
	return r
}
