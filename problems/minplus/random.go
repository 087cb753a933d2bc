package minplus

import "math/rand/v2"

// Random returns an n x n row-major matrix for tests of every backend:
// entries uniform in [0, 40], and a fraction inf of them infinite, as Inf
// or as values above it (12000, 32767) that every product must treat as ∞.
func Random(r *rand.Rand, n int, inf float64) []int16 {
	m := make([]int16, n*n)
	for i := range m {
		switch f := r.Float64(); {
		case f < inf*0.8:
			m[i] = Inf
		case f < inf*0.9:
			m[i] = 12000
		case f < inf:
			m[i] = 32767
		default:
			m[i] = int16(r.IntN(41))
		}
	}
	return m
}
