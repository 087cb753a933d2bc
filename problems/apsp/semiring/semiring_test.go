package semiring

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// axioms checks the semiring axioms (A1)-(A4) and the star equation
// c* = 1 ⊕ c ⊗ c* on every triple of samples; eq compares elements.
func axioms[T any, S Semiring[T]](t *testing.T, s S, samples []T, eq func(a, b T) bool, starEq func(c T) bool) {
	t.Helper()
	zero, one := s.Zero(), s.One()
	fails := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if fails < 10 {
			t.Errorf(format, args...)
		}
		fails++
	}
	for _, a := range samples {
		if !eq(s.Plus(a, zero), a) || !eq(s.Plus(zero, a), a) {
			fail("%s: %v ⊕ 0 != %v", s.Name(), a, a)
		}
		if !eq(s.Times(a, one), a) || !eq(s.Times(one, a), a) {
			fail("%s: %v ⊗ 1 != %v", s.Name(), a, a)
		}
		if !eq(s.Times(a, zero), zero) || !eq(s.Times(zero, a), zero) {
			fail("%s: %v ⊗ 0 != 0", s.Name(), a)
		}
		if starEq != nil && !starEq(a) {
			fail("%s: star equation fails at %v", s.Name(), a)
		}
		for _, b := range samples {
			if !eq(s.Plus(a, b), s.Plus(b, a)) {
				fail("%s: ⊕ not commutative at %v, %v", s.Name(), a, b)
			}
			for _, c := range samples {
				if !eq(s.Plus(s.Plus(a, b), c), s.Plus(a, s.Plus(b, c))) {
					fail("%s: ⊕ not associative at %v, %v, %v", s.Name(), a, b, c)
				}
				if !eq(s.Times(s.Times(a, b), c), s.Times(a, s.Times(b, c))) {
					fail("%s: ⊗ not associative at %v, %v, %v", s.Name(), a, b, c)
				}
				if !eq(s.Times(a, s.Plus(b, c)), s.Plus(s.Times(a, b), s.Times(a, c))) {
					fail("%s: left distributivity fails at %v, %v, %v", s.Name(), a, b, c)
				}
				if !eq(s.Times(s.Plus(a, b), c), s.Plus(s.Times(a, c), s.Times(b, c))) {
					fail("%s: right distributivity fails at %v, %v, %v", s.Name(), a, b, c)
				}
			}
		}
	}
}

// intFloats draws small integers (exact in float32 under + and ×) plus the
// given special values.
func intFloats[T Float](r *rand.Rand, n int, lo, hi int, special ...T) []T {
	out := append([]T{}, special...)
	for len(out) < n {
		out = append(out, T(lo+r.IntN(hi-lo+1)))
	}
	return out
}

func TestAxioms(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	inf, ninf := math.Inf(1), math.Inf(-1)
	t.Run("real", func(t *testing.T) {
		s := Real[float64]{}
		axioms(t, s, intFloats[float64](r, 24, -20, 20, 0, 1, -1),
			func(a, b float64) bool { return a == b },
			func(c float64) bool {
				st, err := s.Star(c)
				if c == 1 {
					return errors.Is(err, ErrNoStar)
				}
				return err == nil && math.Abs(st-(1+c*st)) <= 1e-12*math.Max(1, math.Abs(st))
			})
	})
	for _, tc := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"min-plus/float32", func(t *testing.T) {
			s := MinPlus[float32]{}
			axioms(t, s, intFloats[float32](r, 24, -50, 50, float32(inf), float32(ninf), 0),
				func(a, b float32) bool { return a == b },
				func(c float32) bool {
					st, err := s.Star(c)
					return err == nil && st == s.Plus(s.One(), s.Times(c, st))
				})
		}},
		{"min-plus/float64", func(t *testing.T) {
			s := MinPlus[float64]{}
			axioms(t, s, intFloats[float64](r, 24, -50, 50, inf, ninf, 0),
				func(a, b float64) bool { return a == b },
				func(c float64) bool {
					st, err := s.Star(c)
					return err == nil && st == s.Plus(s.One(), s.Times(c, st))
				})
		}},
		{"max-plus/float32", func(t *testing.T) {
			s := MaxPlus[float32]{}
			axioms(t, s, intFloats[float32](r, 24, -50, 50, float32(inf), float32(ninf), 0),
				func(a, b float32) bool { return a == b },
				func(c float32) bool {
					st, err := s.Star(c)
					return err == nil && st == s.Plus(s.One(), s.Times(c, st))
				})
		}},
		{"min-plus-int", func(t *testing.T) {
			s := MinPlusInt{}
			var samples []int64
			for _, v := range intFloats[float64](r, 24, -1000, 1000) {
				samples = append(samples, int64(v))
			}
			samples = append(samples, IntInf, IntNegInf, 0)
			axioms(t, s, samples, func(a, b int64) bool { return a == b },
				func(c int64) bool {
					st, err := s.Star(c)
					return err == nil && st == s.Plus(s.One(), s.Times(c, st))
				})
		}},
		{"boolean", func(t *testing.T) {
			s := Boolean{}
			axioms(t, s, []bool{false, true}, func(a, b bool) bool { return a == b },
				func(c bool) bool {
					st, err := s.Star(c)
					return err == nil && st == s.Plus(s.One(), s.Times(c, st))
				})
		}},
	} {
		t.Run(tc.name, tc.run)
	}
}

func TestStarTable(t *testing.T) {
	inf, ninf := math.Inf(1), math.Inf(-1)
	mp, xp, re := MinPlus[float64]{}, MaxPlus[float64]{}, Real[float64]{}
	for _, tc := range []struct {
		name    string
		star    func(float64) (float64, error)
		c, want float64
		err     bool
	}{
		{"min-plus c>0", mp.Star, 3, 0, false},
		{"min-plus c=0", mp.Star, 0, 0, false},
		{"min-plus c<0", mp.Star, -0.5, ninf, false},
		{"min-plus +inf", mp.Star, inf, 0, false},
		{"min-plus -inf", mp.Star, ninf, ninf, false},
		{"max-plus c<0", xp.Star, -2, 0, false},
		{"max-plus c>0", xp.Star, 2, inf, false},
		{"max-plus -inf", xp.Star, ninf, 0, false},
		{"real 0.5", re.Star, 0.5, 2, false},
		{"real 3", re.Star, 3, -0.5, false},
		{"real 1", re.Star, 1, 0, true},
	} {
		got, err := tc.star(tc.c)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("%s: star(%v) = %v, %v; want %v (error %v)", tc.name, tc.c, got, err, tc.want, tc.err)
		}
	}
	if got := mp.Times(ninf, inf); got != inf {
		t.Errorf("min-plus: -inf ⊗ inf = %v, want inf (the paper's convention)", got)
	}
	if got := xp.Times(inf, ninf); got != ninf {
		t.Errorf("max-plus: inf ⊗ -inf = %v, want -inf", got)
	}
	if got := (MinPlusInt{}).Times(IntInf-5, 100); got != IntInf-1 {
		t.Errorf("min-plus-int: saturation gave %d", got)
	}
}
