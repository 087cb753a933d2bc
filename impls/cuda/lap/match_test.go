package cudalap

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

// imperfectZeros is an n x n instance whose span is at most n/4 (so that
// cuda/fast matches its zeros with lap_match) and whose zeros after step 1
// hold no perfect matching, in either orientation (the kernels solve the
// transposed instance): costs uniform in [0, n/4), except rows 0 and 1,
// whose only zero is in column 2, and columns 0 and 1, whose only zero is
// in row 2; their other costs are n/4 - 1.
func imperfectZeros(rnd *rand.Rand, n int) *lap.Matrix {
	span := int64(n / 4)
	m := randomMatrix(rnd, n, n, span)
	for k := range n {
		for _, i := range []int{0, 1} {
			m.C[i*n+k], m.C[k*n+i] = span-1, span-1
		}
	}
	for _, i := range []int{0, 1} {
		m.C[i*n+2], m.C[2*n+i] = 0, 0
	}
	return m
}

// TestImperfectZeros: the instances of TestGPUMatchImperfect, and their
// transposes, hold no perfect matching of their zeros after step 1 (the
// CPU models' step 1 and Kuhn's maximum), so that lap_match leaves columns
// free there.
func TestImperfectZeros(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 1))
	for _, n := range []int{8, 64, 300} {
		m := imperfectZeros(rnd, n)
		tr := make([]int64, n*n)
		for k, x := range m.C {
			tr[(k%n)*n+k/n] = x
		}
		for _, c := range [][]int64{m.C, tr} {
			u, v := step1Model(n, c)
			if size := maxZeroMatching(n, c, u, v); size >= n {
				t.Errorf("n=%d: the zeros hold a matching of %d", n, size)
			}
		}
		if !matchDense(n, n, int64(n/4)) {
			t.Errorf("n=%d: span %d does not take lap_match", n, n/4)
		}
	}
}

// TestGPUMatchImperfect: where lap_match leaves columns free, step 1's
// deferred write of the slacks runs and steps 3 to 6, or the forest, find
// the rest: every strategy of cuda/fast agrees with cpu/jv, at orders that
// take each of step 1's register kernels (8, 16 and 32 slacks a thread),
// and the matching's count of free columns is not zero.
func TestGPUMatchImperfect(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(6, 2))
	for _, n := range []int{64, 300, 1000, 3000, 5000} {
		m := imperfectZeros(rnd, n)
		for _, s := range solvers {
			if s.name != "cuda/fast" && s.name != "cuda/fast hungarian" && s.name != "cuda/fast forest" {
				continue
			}
			res, err := s.solve(ctx, m, Options{})
			if err != nil {
				t.Fatalf("%s n=%d: %v", s.name, n, err)
			}
			check(t, s.name, m, res)
		}
		sc, err := hostcost.ScanMatrix("cuda/fast", m)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []paperDesign{paperTuned, paperForest} {
			_, cnt, err := solvePaperScanned(ctx, m, sc, Options{}, d, func() {})
			if err != nil {
				t.Fatalf("%s n=%d: %v", d.strategy(), n, err)
			}
			if cnt.MatchFree == 0 {
				t.Errorf("%s n=%d: lap_match left no column free (%d rounds)", d.strategy(), n, cnt.MatchRounds)
			}
		}
	}
}
