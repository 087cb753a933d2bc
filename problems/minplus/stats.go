package minplus

// Stats summarises one n x n matrix M (a power A^k of a Session) without
// moving it: its minimum, the minimum of its diagonal (Algorithm 5's
// boundary value), and position-weighted sums from which Fingerprint
// identifies M - min(M). With w(p) and u(p) two pseudo-random 64-bit
// weights of the row-major position p = i·n + j (SplitMix64 of 2p and
// 2p+1), the sums run modulo 2^64.
type Stats struct {
	Power   int   // k, for a Session's A^k; 0 otherwise
	Min     int16 // smallest entry; Inf when every entry is ∞
	DiagMin int16 // smallest diagonal entry; Inf when all are ∞
	DiagArg int32 // first row i with M[i][i] = DiagMin; -1 when all are ∞
	Finite  int64 // number of finite entries (below Inf)
	// WeightedSum is Σ w(p)·M[p] over the finite entries, WeightSum Σ w(p)
	// over them, and InfHash Σ u(p) over the infinite ones.
	WeightedSum, WeightSum, InfHash uint64
}

// Fingerprint identifies M - min(M), infinite entries staying infinite:
// matrices that differ by a constant on their finite entries and have the
// same infinite ones have equal fingerprints. Since the weighted sum is
// linear, it is WeightedSum - Min·WeightSum. Different matrices collide
// with probability about 2^-64; confirm a match found this way exactly.
func (s Stats) Fingerprint() [2]uint64 {
	m := uint64(0)
	if s.Min < Inf {
		m = uint64(s.Min)
	}
	return [2]uint64{s.WeightedSum - m*s.WeightSum, s.InfHash ^ uint64(s.Finite)*0x9e3779b97f4a7c15}
}

// mix is SplitMix64's finalizer, as in kernels/minplus.cu.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// StatsOf computes on the host the Stats that the device computes for an
// n x n row-major matrix (entries at or above Inf count as ∞), for checks
// and for matrices computed elsewhere. It assumes len(m) = n².
func StatsOf(n int, m []int16) Stats { return StatsRows(n, m, 0, n) }

// StatsRows computes the Stats of rows [lo, hi) of an n x n row-major
// matrix m, positions counted in the whole matrix, so that the Stats of
// bands of rows computed apart (in parallel) Add up to StatsOf.
func StatsRows(n int, m []int16, lo, hi int) Stats { return statsBlock(n, m, lo, hi, 0, n) }

// statsBlock computes the Stats of rows [r0, r1) x columns [c0, c1) of an
// n x n row-major matrix m, positions and the diagonal counted in the
// whole matrix.
func statsBlock(n int, m []int16, r0, r1, c0, c1 int) Stats {
	s := Stats{Min: Inf, DiagMin: Inf, DiagArg: -1}
	for i := r0; i < r1; i++ {
		p := uint64(i)*uint64(n) + uint64(c0)
		for k, v := range m[i*n+c0 : i*n+c1] {
			j := c0 + k
			v = min(v, Inf)
			if v < Inf {
				w := mix(2 * p)
				s.WeightedSum += w * uint64(v)
				s.WeightSum += w
				s.Finite++
			} else {
				s.InfHash += mix(2*p + 1)
			}
			s.Min = min(s.Min, v)
			if i == j && v < s.DiagMin {
				s.DiagMin, s.DiagArg = v, int32(i)
			}
			p++
		}
	}
	return s
}

// Add combines the Stats of two disjoint sets of rows of one matrix.
func (s Stats) Add(o Stats) Stats {
	r := Stats{Power: s.Power, Min: min(s.Min, o.Min), DiagMin: min(s.DiagMin, o.DiagMin), DiagArg: -1,
		Finite: s.Finite + o.Finite, WeightedSum: s.WeightedSum + o.WeightedSum,
		WeightSum: s.WeightSum + o.WeightSum, InfHash: s.InfHash + o.InfHash}
	for _, x := range []Stats{s, o} {
		if x.DiagArg >= 0 && x.DiagMin == r.DiagMin && (r.DiagArg < 0 || x.DiagArg < r.DiagArg) {
			r.DiagArg = x.DiagArg
		}
	}
	return r
}

// StatsCols computes the Stats of the columns [lo, hi) of an n x n
// row-major matrix m, positions and the diagonal counted in the whole
// matrix, as the device computes them for one column slab of a power: the
// Stats of slabs that partition the columns Add up to StatsOf, in any
// order.
func StatsCols(n int, m []int16, lo, hi int) Stats { return statsBlock(n, m, 0, n, lo, hi) }
