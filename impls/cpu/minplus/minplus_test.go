package minplus

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/minplus"
)

// randomDense returns an n x n matrix with entries in [0, maxv) and minplus.Inf with
// probability pInf, from a fixed seed.
func randomDense(n int, pInf float64, maxv int, seed uint64) *minplus.Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	d := minplus.NewDense(n)
	for i := range d.Data {
		if r.Float64() >= pInf {
			d.Data[i] = int16(r.IntN(maxv))
		}
	}
	return d
}

func TestImplsAgree(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		n    int
		pInf float64
		maxv int
	}{
		{"tiny", 1, 0, 10},
		{"small-dense", 7, 0, 100},
		{"odd-sparse", 37, 0.9, 50},
		{"all-inf", 20, 1, 10},
		{"near-inf", 33, 0.5, 9999}, // sums reach 2·minplus.Inf-2 and must clamp
		{"tile-edges", 8*3 + 5, 0.3, 1000},
		{"wide", 300, 0.7, 500}, // more than one column tile
	} {
		for seed := uint64(1); seed <= 2; seed++ {
			a, b := randomDense(tc.n, tc.pInf, tc.maxv, seed), randomDense(tc.n, tc.pInf/2, tc.maxv, seed+100)
			want := minplus.Reference(a, b)
			op := minplus.NewOperand(a)
			parallel := minplus.Impl{Name: "PaperParallel", Mul: func(ctx context.Context, c *minplus.Dense, a *minplus.Operand, b *minplus.Dense, threads int, _ *bench.Recorder) error {
				return PaperParallel(ctx, c, a.Dense, b, threads)
			}}
			for _, im := range append(Impls(), parallel) {
				for _, threads := range []int{1, 3} {
					c := minplus.NewDense(tc.n)
					c.Fill(-5) // every entry must be written
					if err := im.Mul(ctx, c, op, b, threads, nil); err != nil {
						t.Fatalf("%s %s: %v", tc.name, im.Name, err)
					}
					for i := range want.Data {
						if c.Data[i] != want.Data[i] {
							t.Fatalf("%s seed %d %s threads %d: C[%d][%d] = %d, want %d", tc.name, seed, im.Name, threads,
								i/tc.n, i%tc.n, c.Data[i], want.Data[i])
						}
					}
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	a := minplus.NewDense(4)
	if err := Fast(ctx, minplus.NewDense(3), a, a, 1); err == nil {
		t.Error("shape mismatch accepted")
	}
	if err := Paper(ctx, a, a, a); err == nil {
		t.Error("aliased output accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Sparse(cctx, minplus.NewDense(4), minplus.FromDense(a), a.Clone(), 1); err == nil {
		t.Error("cancelled context ignored")
	}
	bad := minplus.NewDense(2)
	bad.Data[3] = -1
	if minplus.CheckFinite(bad) == nil {
		t.Error("negative entry accepted")
	}
}

func BenchmarkMul(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{558, 1386, 3447} {
		a, x := randomDense(n, 0, 20, 1), randomDense(n, 0, 200, 2)
		op := minplus.NewOperand(a)
		c := minplus.NewDense(n)
		for _, im := range Impls() {
			if im.Name == "cpu/paper" && n > 600 {
				continue
			}
			b.Run(im.Name+"/n="+itoa(n), func(b *testing.B) {
				for b.Loop() {
					if err := im.Mul(ctx, c, op, x, 0, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gupd/s")
			})
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
