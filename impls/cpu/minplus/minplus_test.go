package minplus

import (
	"context"
	"math/rand/v2"
	"testing"
)

// randomDense returns an n x n matrix with entries in [0, maxv) and Inf with
// probability pInf, from a fixed seed.
func randomDense(n int, pInf float64, maxv int, seed uint64) *Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	d := NewDense(n)
	for i := range d.Data {
		if r.Float64() >= pInf {
			d.Data[i] = int16(r.IntN(maxv))
		}
	}
	return d
}

// naive is the definition, in int.
func naive(a, b *Dense) *Dense {
	n := a.N
	c := NewDense(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m := int(Inf)
			for k := 0; k < n; k++ {
				x, y := int(a.At(i, k)), int(b.At(k, j))
				if x >= int(Inf) || y >= int(Inf) {
					continue
				}
				m = min(m, x+y)
			}
			c.Data[i*n+j] = int16(min(m, int(Inf)))
		}
	}
	return c
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
		{"near-inf", 33, 0.5, 9999}, // sums reach 2·Inf-2 and must clamp
		{"tile-edges", 8*3 + 5, 0.3, 1000},
		{"wide", 300, 0.7, 500}, // more than one column tile
	} {
		for seed := uint64(1); seed <= 2; seed++ {
			a, b := randomDense(tc.n, tc.pInf, tc.maxv, seed), randomDense(tc.n, tc.pInf/2, tc.maxv, seed+100)
			want := naive(a, b)
			op := NewOperand(a)
			for _, im := range Impls {
				for _, threads := range []int{1, 3} {
					c := NewDense(tc.n)
					c.Fill(-5) // every entry must be written
					if err := im.Mul(ctx, c, op, b, threads); err != nil {
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
	a := NewDense(4)
	if err := Fast(ctx, NewDense(3), a, a, 1); err == nil {
		t.Error("shape mismatch accepted")
	}
	if err := Paper(ctx, a, a, a); err == nil {
		t.Error("aliased output accepted")
	}
	if _, err := Lookup("cpu/nope"); err == nil {
		t.Error("unknown name accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Sparse(cctx, NewDense(4), FromDense(a), a.Clone(), 1); err == nil {
		t.Error("cancelled context ignored")
	}
	bad := NewDense(2)
	bad.Data[3] = -1
	if CheckFinite(bad) == nil {
		t.Error("negative entry accepted")
	}
}

func BenchmarkMul(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{558, 1386, 3447} {
		a, x := randomDense(n, 0, 20, 1), randomDense(n, 0, 200, 2)
		op := NewOperand(a)
		c := NewDense(n)
		for _, im := range Impls {
			if im.Name == "cpu/paper" && n > 600 {
				continue
			}
			b.Run(im.Name+"/n="+itoa(n), func(b *testing.B) {
				for b.Loop() {
					if err := im.Mul(ctx, c, op, x, 0); err != nil {
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
