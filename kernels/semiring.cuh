// semiring.cuh: the semiring operator structs of semibench's kernels,
// defined once (namespace sr), as cuASR and CUTLASS define the operators
// their GEMMs are templated over. Included by kernels/*.cu; NVRTC is handed
// every kernels/*.cuh as a header (see package kernels).
//
// A semiring S is a struct with a value type S::T and static device
// functions:
//   zero()        the identity of ⊕ (no path)
//   plus(a, b)    a ⊕ b
//   times(a, b)   a ⊗ b, a lone product (with the zero's conventions)
//   mac(c, a, b)  c ⊕ (a ⊗ b), the inner step of a product
// and, where a kernel needs them, one() (the identity of ⊗), mac_exact
// (mac rounded as the CPU rounds it), star(c, &bad) (c*, bad when
// undefined), is_zero and is_valid; mac2(c, a0, b0, a1, b1), two products
// at once, where HasMac2<S> says so.
#ifndef SEMIBENCH_SEMIRING_CUH
#define SEMIBENCH_SEMIRING_CUH

// SR_DPX is 1 where the Hopper DPX intrinsics (__viaddmax_s32,
// __viaddmin_s16x2, ...) exist: device code for sm_90 and later compiled by
// CUDA 12 or later; 0 elsewhere (the fallback PTX for compute_70 included).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
#define SR_DPX 1
#else
#define SR_DPX 0
#endif

namespace sr {

typedef long long i64;

// Num holds what the semirings need of a value type (float or double): its
// infinity, its lowest finite value, the minimum and maximum that drop NaN
// (fminf/fmaxf), addition rounded to nearest without contraction, and the
// fused "max(c, a + b)" and "min(c, a + b)".
template <class V>
struct Num;

template <>
struct Num<float> {
  static __device__ __forceinline__ float inf() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float lowest() { return __int_as_float(0xff7fffff); }  // -FLT_MAX
  static __device__ __forceinline__ float max_finite() { return __int_as_float(0x7f7fffff); }
  static __device__ __forceinline__ float min(float a, float b) { return fminf(a, b); }
  static __device__ __forceinline__ float max(float a, float b) { return fmaxf(a, b); }
  static __device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
  static __device__ __forceinline__ float addmin(float a, float b, float c) { return fminf(c, a + b); }
  static __device__ __forceinline__ float addmax(float a, float b, float c) { return fmaxf(c, a + b); }
  // valid is false for NaN and +Inf.
  static __device__ __forceinline__ bool valid(float a) { return a <= max_finite(); }
};

template <>
struct Num<double> {
  static __device__ __forceinline__ double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
  static __device__ __forceinline__ double lowest() { return __longlong_as_double((long long)0xffefffffffffffffULL); }  // -DBL_MAX
  static __device__ __forceinline__ double max_finite() { return __longlong_as_double(0x7fefffffffffffffLL); }
  static __device__ __forceinline__ double min(double a, double b) { return fmin(a, b); }
  static __device__ __forceinline__ double max(double a, double b) { return fmax(a, b); }
  static __device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
  static __device__ __forceinline__ double addmin(double a, double b, double c) { return fmin(c, a + b); }
  static __device__ __forceinline__ double addmax(double a, double b, double c) { return fmax(c, a + b); }
  static __device__ __forceinline__ bool valid(double a) { return a <= max_finite(); }
};

// addmin_s16x2 returns, per 16-bit half, min(a + b, c): one DPX instruction
// (VIADDMNMX) on Hopper with CUDA 12+; elsewhere a 32-bit add and a
// per-half unsigned minimum, which is the same when the halves are in
// [0, 16383] (their sums stay below 2^15 and never carry into each other).
__device__ __forceinline__ unsigned addmin_s16x2(unsigned a, unsigned b, unsigned c) {
#if SR_DPX
  return __viaddmin_s16x2(a, b, c);
#else
  return __vminu2(a + b, c);
#endif
}

// MinPlus<V> (V = float or double): ⊕ = min, ⊗ = +, zero +Inf, unity 0,
// with the conventions of Rote's algebraic path problem: +Inf absorbs in
// ⊗, so (-Inf) ⊗ (+Inf) = +Inf. In a sum of products (mac) the IEEE sum
// -Inf + Inf = NaN is what fminf drops, which is exactly the convention; a
// lone product (times) tests for +Inf. The star is 0 for c >= 0 and -Inf
// for c < 0 (a negative cycle).
template <class V>
struct MinPlus {
  typedef V T;
  static __device__ __forceinline__ T zero() { return Num<V>::inf(); }
  static __device__ __forceinline__ T one() { return V(0); }
  static __device__ __forceinline__ T plus(T a, T b) { return b < a ? b : a; }
  static __device__ __forceinline__ T times(T a, T b) {
    return (a == zero() || b == zero()) ? zero() : Num<V>::add_rn(a, b);
  }
  static __device__ __forceinline__ T mac(T c, T a, T b) { return Num<V>::addmin(a, b, c); }
  static __device__ __forceinline__ T mac_exact(T c, T a, T b) { return mac(c, a, b); }
  static __device__ __forceinline__ T star(T c, bool* bad) {
    *bad = false;
    return c >= V(0) ? V(0) : -zero();
  }
};

// MinPlusNonNeg is MinPlus<float> on values that are all +0, positive or
// +Inf (no sign bit set, no NaN): there the order of the floats is the
// order of their bits as signed integers, and every sum of two such values
// is such a value. mac2 folds two products into c with one 3-way integer
// minimum, c ⊕ (a0 ⊗ b0) ⊕ (a1 ⊗ b1): on Hopper (SR_DPX) two FADDs and one
// VIMNMX3, three instructions for two updates where mac takes four; the
// sums are the same FADDs, so the result is MinPlus<float>'s bit for bit.
// The caller guarantees the values (cuda/fast tests its input's sign bits
// on the device first).
struct MinPlusNonNeg : MinPlus<float> {
  static __device__ __forceinline__ float mac2(float c, float a0, float b0, float a1, float b1) {
#if SR_DPX
    return __int_as_float(__vimin3_s32(__float_as_int(c), __float_as_int(a0 + b0), __float_as_int(a1 + b1)));
#else
    return fminf(c, fminf(a0 + b0, a1 + b1));
#endif
  }
};

// HasMac2<S>::value says whether S has mac2, two products folded at once,
// which gemm_tile's inner loop then takes two steps of k at a time.
template <class S>
struct HasMac2 {
  static constexpr bool value = false;
};
template <>
struct HasMac2<MinPlusNonNeg> {
  static constexpr bool value = true;
};

// MaxPlus<V> (V = float or int) is the max-plus (tropical) semiring with ε
// = Num<V>::lowest() (-FLT_MAX for float32, as in the Kleene-star paper;
// -2^30 for int32) and e = 0. ⊗ is addition, rounded once; ⊕ is an exact
// maximum, so any evaluation order of a max-plus product gives each
// candidate path sum rounded identically, and plus is commutative (fmaxf
// drops NaN and orders -0 below +0 whichever operand comes first).
template <class V>
struct MaxPlus {
  typedef V T;
  static __device__ __forceinline__ T zero() { return Num<V>::lowest(); }
  static __device__ __forceinline__ T one() { return V(0); }
  static __device__ __forceinline__ T plus(T a, T b) { return Num<V>::max(a, b); }
  static __device__ __forceinline__ T times(T a, T b) { return a + b; }
  // mac returns c ⊕ (a ⊗ b).
  static __device__ __forceinline__ T mac(T c, T a, T b) { return Num<V>::addmax(a, b, c); }
  // is_zero is true for ε and anything below it (-Inf): not an arc.
  static __device__ __forceinline__ bool is_zero(T a) { return a <= zero(); }
  // is_valid is false for NaN and +Inf, which no implementation accepts.
  static __device__ __forceinline__ bool is_valid(T a) { return Num<V>::valid(a); }
};

// Bool32: the Boolean semiring on 32-bit words holding 0 or 1.
struct Bool32 {
  typedef unsigned T;
  static __device__ __forceinline__ T zero() { return 0u; }
  static __device__ __forceinline__ T one() { return 1u; }
  static __device__ __forceinline__ T plus(T a, T b) { return a | b; }
  static __device__ __forceinline__ T times(T a, T b) { return a & b; }
  static __device__ __forceinline__ T mac(T c, T a, T b) { return c | (a & b); }
  static __device__ __forceinline__ T mac_exact(T c, T a, T b) { return mac(c, a, b); }
  static __device__ __forceinline__ T star(T, bool* bad) {
    *bad = false;
    return 1u;
  }
};

// RealF64: (+, x) in float64; the star of c is 1/(1-c), undefined for c = 1.
// Products are rounded on their own (no fused multiply-add), as the CPU
// implementations round them, except in mac, the bulk of a product, which
// fuses (one rounding fewer).
struct RealF64 {
  typedef double T;
  static __device__ __forceinline__ T zero() { return 0.0; }
  static __device__ __forceinline__ T one() { return 1.0; }
  static __device__ __forceinline__ T plus(T a, T b) { return __dadd_rn(a, b); }
  static __device__ __forceinline__ T times(T a, T b) { return __dmul_rn(a, b); }
  static __device__ __forceinline__ T mac(T c, T a, T b) { return __fma_rn(a, b, c); }
  // mac_exact rounds the product on its own, as the CPU does.
  static __device__ __forceinline__ T mac_exact(T c, T a, T b) { return __dadd_rn(c, __dmul_rn(a, b)); }
  static __device__ __forceinline__ T star(T c, bool* bad) {
    *bad = (c == 1.0);
    return 1.0 / __dadd_rn(1.0, -c);
  }
};

}  // namespace sr

#endif  // SEMIBENCH_SEMIRING_CUH
