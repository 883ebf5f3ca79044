// Package stats holds the small statistics the project's measuring
// commands share (cmd/benchcmp, cmd/coldstart).
package stats

import "sort"

// Median is the middle value of v (the mean of the two middle ones when
// len(v) is even); v is not reordered. It is 0 for an empty v.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
