// Package minplus holds what every backend of the (min,+) matrix products
// of the 2-domination paper (002) shares: the int16 matrices (Dense, CSR),
// the product's left operand (Operand), the saturating infinity Inf, the
// reference product (Reference), the statistics of a power (Stats, which
// the GPU computes in place and the CPU on the host), and the Impl and
// Session types through which impls/cpu/minplus and impls/cuda/minplus
// offer their products and powers.
//
// # Infinity
//
// Inf (9999, as the paper) stands for ∞. Every entry is kept in [0, Inf]:
// an entry at or above Inf means ∞. A sum of two entries is at most
// 2·Inf = 19998, which fits in int16, and every product clamps its result
// to Inf, so ∞ + x = ∞ holds and no sum ever overflows (saturating
// infinity). Finite entries must stay below Inf, which the caller checks
// (CheckFinite); in the domination powers they are at most n·m, a few
// hundred.
package minplus
