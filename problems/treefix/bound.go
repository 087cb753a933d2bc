package treefix

import "math"

// Unit roundoffs.
const (
	U32 = 0x1p-24 // float32
	U64 = 0x1p-53 // float64
)

// gamma64 is γ_m = m·u/(1-m·u) for float64.
func gamma64(m int) float64 {
	mu := float64(m) * U64
	return mu / (1 - mu)
}

// Bound is the a-priori error bound of cpu/vectorial-compensated on
// float32 weights, for one vertex (the exact fixed-point path meets the
// stronger |R̂_v - R_v| <= U32·|R_v|; this is the bound of its Sum2
// fallback):
//
//	|R̂_v - R_v| <= U32·|R_v| + (1+U32)·(3·U64·A_v + 2·γ_{2n}²·S)
//
// where n is the number of vertices, S = Σ|w| over the whole tree, R_v the
// exact result and A_v the magnitude of the float64 terms the read step
// combines: |R_v| for Rootfix (it reads one prefix, which equals R_v), and
// |E[v)]| + |E[(V]| + |w_v| <= 2S + |w_v| for Leaffix.
//
// Derivation: every stored prefix is Sum2 of the prefix (Ogita, Rump and
// Oishi 2005, Prop. 4.5: |res - s| <= u|s| + γ_{m}²·Σ|e_i|, m <= 2n terms
// with Σ|e_i| <= 2S, the inverses -w being exact); Rootfix reads one prefix
// (error <= U64|R_v| + 2γ²S), Leaffix combines two prefixes and w_v in two
// float64 operations (each prefix's error, plus 2·U64 relative to the
// operands); the final conversion to float32 adds U32·|result|. So a Rootfix
// result is the exact value correctly rounded up to a relative 2^-29 or so
// for every condition number below about 1e15 (n = 10^4), where the plain
// float32 scan and the level-synchronous sum lose lg(C) bits.
func Bound(op Op, n int, exact, absPrefixes, sumAbs float64) float64 {
	g := gamma64(2 * n)
	a := math.Abs(exact)
	if op == Leaffix {
		a = absPrefixes
	}
	return U32*math.Abs(exact) + (1+U32)*(3*U64*a+2*g*g*sumAbs)
}
