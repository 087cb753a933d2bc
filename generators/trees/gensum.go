package trees

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
)

// StreamGenSum is the PCG stream selector of GenSum.
const StreamGenSum uint64 = 0x67656e73756d // "gensum"

// exactPrec is the big.Float precision of GenSum's running sum and of
// ExactSum: float32 values of exponents within ±150 summed 2^30 times need
// under 340 bits, so every sum is exact (checked through big.Exact).
const exactPrec = 512

// GenSum returns n float32 numbers whose sum has a condition number
// C = Σ|x_i| / |Σ x_i| near cond (10 <= cond <= 1e30), after the method of
// Ogita, Rump and Oishi ("Accurate sum and dot product", SIAM J. Sci.
// Comput. 26(6), 2005, section 6), written here from its description:
//
//   - b = log2(cond). The first half are (2r-1)·2^e with r uniform in
//     [0, 1) and e a uniform integer in [0, b/2], the first with e = b/2 and
//     the last with e = 0;
//   - the second half drive the running sum down: with target exponents e
//     falling linearly from b/2 to a final exponent f, x_i = fl(t_i - S_i),
//     t_i = (1+r)·2^e and S_i the exact sum of x_0..x_{i-1}, so the running
//     sum follows the targets down to about 2^f, up to one rounding per
//     step, while Σ|x| stays near its first half's;
//   - f starts at log2(Σ|x| / cond) and is corrected (up to 12 times) by the
//     log2 of the achieved over the wanted C;
//   - finally the numbers are shuffled (a random chain).
//
// It returns the numbers and the exact condition number C of their sum,
// which is within a factor 2 of cond when the calibration converges (the
// experiments report the achieved C, never the wanted one).
func GenSum(n int, cond float64, seed uint64) ([]float32, float64, error) {
	if n < 4 || n > 1<<24 {
		return nil, 0, fmt.Errorf("%w: GenSum needs 4 <= n <= 2^24, got %d", ErrSize, n)
	}
	if !(cond >= 10 && cond <= 1e30) {
		return nil, 0, fmt.Errorf("%w: GenSum condition number %g outside [10, 1e30]", ErrSize, cond)
	}
	half := math.Round(math.Log2(cond) / 2)
	f := half + math.Log2(float64(n)/4) - math.Log2(cond) // Σ|x| ≈ n/2 · 2^half / (half+1) · ..., a first guess
	var x []float32
	var c float64
	best, bestErr := []float32(nil), math.Inf(1)
	var bestC float64
	for try := 0; try < 12; try++ {
		x = genSum(n, half, f, seed)
		c = CondSum(x)
		r := math.Log2(c / cond)
		if math.IsInf(c, 0) {
			r = 4
		}
		if math.Abs(r) < bestErr {
			best, bestErr, bestC = x, math.Abs(r), c
		}
		if math.Abs(r) < 1 {
			break
		}
		f += r
	}
	return best, bestC, nil
}

func genSum(n int, half, f float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, StreamGenSum))
	x := make([]float32, n)
	n2 := n / 2
	for i := 0; i < n2; i++ {
		e := math.Round(rng.Float64() * half)
		switch i {
		case 0:
			e = half
		case n2 - 1:
			e = 0
		}
		x[i] = float32((2*rng.Float64() - 1) * math.Exp2(e))
	}
	s := new(big.Float).SetPrec(exactPrec)
	for i := 0; i < n2; i++ {
		s.Add(s, big.NewFloat(float64(x[i])))
	}
	t := new(big.Float).SetPrec(exactPrec)
	for i := n2; i < n; i++ {
		e := f + (half-f)*float64(n-1-i)/float64(n-1-n2)
		mag := (1 + rng.Float64()) * math.Exp2(e)
		t.SetFloat64(mag)
		t.Sub(t, s)
		v, _ := t.Float32()
		x[i] = v
		s.Add(s, big.NewFloat(float64(v)))
	}
	rng.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

// ExactSum returns the exact sum of x as a big.Float (no rounding happens:
// the precision covers every float32 sum of up to 2^30 terms).
func ExactSum[T float32 | float64](x []T) *big.Float {
	s := new(big.Float).SetPrec(2200) // float64 exponents span about 2100 bits
	var t big.Float
	for _, v := range x {
		t.SetFloat64(float64(v))
		s.Add(s, &t)
	}
	return s
}

// CondSum returns the condition number Σ|x_i| / |Σ x_i| of the sum of x,
// computed exactly and rounded once (+Inf for a zero sum).
func CondSum[T float32 | float64](x []T) float64 {
	abs := make([]float64, len(x))
	for i, v := range x {
		abs[i] = math.Abs(float64(v))
	}
	num, _ := ExactSum(abs).Float64()
	den, _ := ExactSum(x).Float64()
	if den == 0 {
		return math.Inf(1)
	}
	return num / math.Abs(den)
}
