package apspgraph

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/mtx"
	"github.com/semibench/semibench/problems/apsp"
)

func write(t *testing.T, o Options) []byte {
	t.Helper()
	g, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := g.WriteMatrixMarket(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGolden pins the bytes of two small graphs: a change of the model or
// the draw order (or of a Go release's PCG) must show here.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{N: 12, Arcs: 40, Min: -10, Max: 10, Seed: 7}, "afd20a43b1ccd8e1edbc0f1cd819134974062579cc2df08b0c381f5de9a81fbd"},
		{Options{N: 12, Arcs: 100, Min: -5, Max: 20, Seed: 7, NegativeCycle: true}, "43e30b2369890211d13e359ddcdc3bf273462c8c00bbf7a15439c8deca0adf43"},
	} {
		a, b := write(t, c.o), write(t, c.o)
		if !bytes.Equal(a, b) {
			t.Fatalf("%+v: two runs differ", c.o)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(a)); got != c.want {
			t.Errorf("%+v: sha256 %s, want %s\n%s", c.o, got, c.want, a)
		}
		o := c.o
		o.Seed++
		if bytes.Equal(a, write(t, o)) {
			t.Errorf("%+v: seeds %d and %d give the same graph", c.o, c.o.Seed, o.Seed)
		}
	}
}

// TestShape: exactly m distinct arcs, no self-loop, in row-major order,
// weights in range, every non-cycle arc's reduced cost c = w - p(i) + p(j)
// non-negative, the cycle's arcs present with its weights; sparse and dense
// arc sets (both sampling paths).
func TestShape(t *testing.T) {
	negatives := 0
	for _, o := range []Options{
		{N: 1, Arcs: 0, Min: -3, Max: 3},
		{N: 2, Arcs: 2, Min: -3, Max: 3, NegativeCycle: true},
		{N: 3, Arcs: 3, Min: -9, Max: -2, NegativeCycle: true},
		{N: 30, Arcs: 100, Min: -10, Max: 10, Seed: 3},
		{N: 30, Arcs: 800, Min: -10, Max: 10, Seed: 4},
		{N: 30, Arcs: 870, Min: 5, Max: 9, Seed: 5},
		{N: 30, Arcs: 700, Min: -100, Max: 4, Seed: 6, NegativeCycle: true},
		{N: 65, Arcs: 64 * 65, Min: -MaxWeight, Max: MaxWeight, Seed: 8},
	} {
		g, err := Generate(o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		cyc, cw := g.Cycle()
		if o.NegativeCycle != (cyc != nil) || (cyc != nil && (len(cyc) != min(CycleLen, o.N) || cw > -int64(len(cyc)))) {
			t.Errorf("%+v: cycle %v of weight %d", o, cyc, cw)
		}
		onCycle := map[[2]int]bool{}
		for i, v := range cyc {
			onCycle[[2]int{v, cyc[(i+1)%len(cyc)]}] = true
		}
		var count int64
		prev := Arc{From: -1}
		seen := 0
		for a := range g.Arcs() {
			count++
			if a.From == a.To || a.From < 0 || a.To < 0 || a.From >= o.N || a.To >= o.N {
				t.Fatalf("%+v: arc %+v", o, a)
			}
			if a.From < prev.From || (a.From == prev.From && a.To <= prev.To) {
				t.Fatalf("%+v: arc %+v after %+v", o, a, prev)
			}
			prev = a
			if a.Weight < o.Min || a.Weight > o.Max {
				t.Fatalf("%+v: arc %+v outside [min, max]", o, a)
			}
			if a.Weight < 0 {
				negatives++
			}
			if onCycle[[2]int{a.From, a.To}] {
				seen++
				if a.Weight > -1 {
					t.Errorf("%+v: cycle arc %+v not negative", o, a)
				}
			} else if o.Max >= 0 && a.Weight-g.Potential(a.From)+g.Potential(a.To) < 0 {
				t.Errorf("%+v: arc %+v has a negative reduced cost (p = %d, %d)", o, a, g.Potential(a.From), g.Potential(a.To))
			}
		}
		if count != o.Arcs || seen != len(cyc) {
			t.Errorf("%+v: %d arcs (%d of the cycle's %d), want %d", o, count, seen, len(cyc), o.Arcs)
		}
	}
	if negatives == 0 {
		t.Error("no negative arc in any graph")
	}
}

// closureDiagonal solves the written graph with `solve apsp`'s reader and
// the given implementation and returns d_ii for every i.
func closureDiagonal(t *testing.T, data []byte, impl string) []float64 {
	t.Helper()
	var out bytes.Buffer
	if err := apsp.Solve(context.Background(), bytes.NewReader(data), "g.mtx", "min-plus", impl, false, &out, impls.APSP); err != nil {
		t.Fatal(err)
	}
	m, err := mtx.Read(&out, "d.mtx")
	if err != nil {
		t.Fatal(err)
	}
	return m.Diagonal(math.Inf(1))
}

// TestNegativeCycles: without NegativeCycle the min-plus closure has a zero
// diagonal (no vertex on a negative cycle), with it the planted cycle's
// vertices are at -inf; both by cpu/fast and cpu/sgje, from the file.
func TestNegativeCycles(t *testing.T) {
	for seed := range uint64(12) {
		for _, neg := range []bool{false, true} {
			o := Options{N: 8 + int(seed)*5, Min: -20, Max: 20, Seed: seed, NegativeCycle: neg}
			if seed%3 == 2 {
				o.Min, o.Max = -50, 3 // mostly negative arcs
			}
			var err error
			if o.Arcs, err = ArcsForDensity(o.N, []float64{0.1, 0.5, 0.9}[seed%3]); err != nil {
				t.Fatal(err)
			}
			data := write(t, o)
			g, _ := Generate(o)
			cyc, _ := g.Cycle()
			for _, impl := range []string{"cpu/sgje", "cpu/fast"} {
				diag := closureDiagonal(t, data, impl)
				for i, d := range diag {
					if !neg && d != 0 {
						t.Errorf("%+v %s: d_%d,%d = %g, want 0 (no negative cycle)", o, impl, i+1, i+1, d)
					}
				}
				for _, v := range cyc {
					if !math.IsInf(diag[v], -1) {
						t.Errorf("%+v %s: vertex %d of the planted cycle has d_ii = %g, want -inf", o, impl, v+1, diag[v])
					}
				}
			}
		}
	}
}

func TestCheck(t *testing.T) {
	ok := Options{N: 5, Arcs: 10, Min: -2, Max: 2}
	cases := []struct {
		edit   func(*Options)
		option string
		want   string
	}{
		{func(o *Options) { o.N = 0 }, "n", "1..65536"},
		{func(o *Options) { o.N = MaxN + 1 }, "n", "1..65536"},
		{func(o *Options) { o.Arcs = 21 }, "arcs", "0..20"},
		{func(o *Options) { o.Arcs = -1 }, "arcs", "0..20"},
		{func(o *Options) { o.Min = -MaxWeight - 1 }, "min", "-2147483648..2147483648"},
		{func(o *Options) { o.Max = math.MaxInt64 }, "max", "-2147483648..2147483648"},
		{func(o *Options) { o.Min = 3 }, "min", "above --max"},
		{func(o *Options) { o.Min, o.Max = -5, -1 }, "max", "at least 0 without --negative-cycle"},
		{func(o *Options) { o.NegativeCycle, o.Min = true, 0 }, "negative-cycle", "negative --min"},
		{func(o *Options) { o.NegativeCycle, o.N, o.Arcs = true, 1, 0 }, "negative-cycle", "--n of at least 2"},
		{func(o *Options) { o.NegativeCycle, o.Arcs = true, 2 }, "negative-cycle", "at least 3 arcs"},
	}
	for _, c := range cases {
		o := ok
		c.edit(&o)
		_, err := Generate(o)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != c.option || !strings.Contains(oe.Msg, c.want) {
			t.Errorf("%+v: error %v, want option %s and %q", o, err, c.option, c.want)
		}
	}
	if _, err := ArcsForDensity(4, 1.5); err == nil {
		t.Error("density 1.5 accepted")
	}
	if _, err := ArcsForDensity(4, math.NaN()); err == nil {
		t.Error("density NaN accepted")
	}
	if m, err := ArcsForDensity(4, 0.5); m != 6 || err != nil {
		t.Errorf("density 0.5 of n = 4: %d arcs, %v", m, err)
	}
}
