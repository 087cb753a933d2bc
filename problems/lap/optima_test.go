package lap

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestGridBits: the least e with x·2^e an integer.
func TestGridBits(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want int
	}{
		{0, 0}, {1, 0}, {-3, 0}, {1 << 60, 0}, {0.5, 1}, {-0.75, 2}, {3.125, 3},
		{0x1p-24, 24}, {0x1.fffffep-1, 24}, {0.1, 55}, {math.SmallestNonzeroFloat64, 1074},
	} {
		if got := gridBits(tc.x); got != tc.want {
			t.Errorf("gridBits(%v) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

// grid01 is a batch of float costs k·2^-24 in [0, 1), as lapcost's
// Uniform01 draws them.
func grid01(count, rows, cols int, seed uint64) *Batch {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := &Batch{Name: "grid", Count: count, Rows: rows, Cols: cols, Float: make([]float64, count*rows*cols)}
	for i := range b.Float {
		b.Float[i] = math.Ldexp(float64(rng.IntN(1<<24)), -24)
	}
	return b
}

// TestOnGrid: an integer batch is itself; float costs become the integers
// of their finest grid; infinite costs and costs too fine for int64 are
// refused, naming the cell.
func TestOnGrid(t *testing.T) {
	ib := &Batch{Name: "ints", Count: 1, Rows: 1, Cols: 2, Int: []int64{3, 4}}
	if g, e, err := ib.OnGrid(); err != nil || g != ib || e != 0 {
		t.Errorf("an integer batch: %v %d %v", g, e, err)
	}
	fb := &Batch{Name: "f", Count: 2, Rows: 1, Cols: 2, Float: []float64{0.5, 2, 0.25, -1}}
	g, e, err := fb.OnGrid()
	if err != nil || e != 2 || !slices.Equal(g.Int, []int64{2, 8, 1, -4}) {
		t.Errorf("quarters: %v %d %v", g, e, err)
	}
	fine := &Batch{Name: "f", Count: 1, Rows: 1, Cols: 2, Float: []float64{0.1, 1000}}
	if _, _, err := fine.OnGrid(); !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "row 1, column 2") {
		t.Errorf("1000 on 0.1's grid of 2^-55: %v", err)
	}
	inf := &Batch{Name: "f", Count: 2, Rows: 1, Cols: 2, Float: []float64{1, 0.5, 0, 2}, Inf: []InfCell{{K: 2}}}
	if _, _, err := inf.OnGrid(); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "problem 2, row 1, column 1") {
		t.Errorf("an infinite cost: %v", err)
	}
}

// TestCertifyOptima: on float costs of the 2^-24 grid the certified optima
// are float JV's costs exactly (its float64 sums are exact there), and the
// Check of JV's own answers passes.
func TestCertifyOptima(t *testing.T) {
	ctx := context.Background()
	for _, shape := range [][2]int{{5, 5}, {4, 9}, {1, 3}} {
		b := grid01(6, shape[0], shape[1], uint64(shape[1]))
		o, err := CertifyOptima(ctx, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if o.Bits > 24 || o.Bits < 20 {
			t.Errorf("%v: %d grid bits", shape, o.Bits)
		}
		out, err := JV.SolveBatch(ctx, b, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range b.Count {
			if out.Float[k].Cost != o.Optimum(k) {
				t.Errorf("%v problem %d: float JV %v, certified %v", shape, k+1, out.Float[k].Cost, o.Optimum(k))
			}
		}
		if chk := o.Check(out, 0); !chk.OK || chk.MaxErr != 0 {
			t.Errorf("%v: JV's answers: %+v", shape, chk)
		}
	}
}

// TestOptimaCheck: every way an answer can be wrong fails, naming the
// problem; a float32 sum within its rounding bound passes, one beyond
// fails; an integer batch takes objectives alone.
func TestOptimaCheck(t *testing.T) {
	ctx := context.Background()
	b := grid01(3, 12, 16, 7)
	o, err := CertifyOptima(ctx, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	answers := func() *BatchOutput {
		out := &BatchOutput{}
		for k, r := range o.Best {
			out.Float = append(out.Float, &FloatResult{Assignment: slices.Clone(r.Assignment), Cost: o.Optimum(k)})
		}
		return out
	}
	f32sum := func(k int, a []int) float64 {
		var s float32
		for i, j := range a {
			s += float32(b.Float[k*b.Size()+i*b.Cols+j])
		}
		return float64(s)
	}
	cases := []struct {
		name   string
		change func(*BatchOutput)
		unit   float64
		detail string // "" when the answers pass
	}{
		{"optimal", func(*BatchOutput) {}, 0, ""},
		{"float32 sums", func(out *BatchOutput) {
			for k, r := range out.Float {
				r.Cost = f32sum(k, r.Assignment)
			}
		}, Float32Unit, ""},
		{"one ulp off, exact sums expected", func(out *BatchOutput) { out.Float[1].Cost = math.Nextafter(out.Float[1].Cost, 9) }, 0, "problem 2: reported cost"},
		{"beyond the float32 bound", func(out *BatchOutput) { out.Float[2].Cost += 1e-4 }, Float32Unit, "problem 3: reported cost"},
		{"a worse assignment", func(out *BatchOutput) {
			a := out.Float[0].Assignment
			for j := range b.Cols {
				if !slices.Contains(a, j) {
					a[0] = j
					break
				}
			}
			out.Float[0].Cost = b.FloatMatrix(0).CostOf(a)
		}, 0, "problem 1: the assignment costs"},
		{"a column twice", func(out *BatchOutput) { out.Float[1].Assignment[0] = out.Float[1].Assignment[1] }, 0, "problem 2: assignment: column"},
		{"no assignment", func(out *BatchOutput) { out.Float[2].Assignment = nil }, 0, "problem 3: no assignment"},
		{"too few answers", func(out *BatchOutput) { out.Float = out.Float[:2] }, 0, "2 answers for 3 problems"},
		{"integer answers", func(out *BatchOutput) { out.Int, out.Float = make([]*Result, 3), nil }, 0, "integer answers for float costs"},
	}
	for _, tc := range cases {
		out := answers()
		tc.change(out)
		chk := o.Check(out, tc.unit)
		if tc.detail == "" {
			if !chk.OK {
				t.Errorf("%s: %+v", tc.name, chk)
			}
			continue
		}
		if chk.OK || !strings.Contains(chk.Detail, tc.detail) {
			t.Errorf("%s: %+v, want a failure naming %q", tc.name, chk, tc.detail)
		}
	}
	// The float32 sums of this batch are not all exact: the bound is used.
	inexact := false
	for k, r := range o.Best {
		inexact = inexact || f32sum(k, r.Assignment) != o.Optimum(k)
	}
	if !inexact {
		t.Error("every float32 sum exact: the bound went untested on this batch")
	}

	ib := &Batch{Name: "ints", Count: 2, Rows: 2, Cols: 2, Int: []int64{1, 5, 4, 1, 2, 2, 3, 9}}
	io, err := CertifyOptima(ctx, ib, 0)
	if err != nil {
		t.Fatal(err)
	}
	objectives := &BatchOutput{Int: []*Result{{Cost: 2}, {Cost: 5}}}
	if chk := io.Check(objectives, 0); !chk.OK {
		t.Errorf("integer objectives: %+v", chk)
	}
	objectives.Int[1].Cost = 6
	if chk := io.Check(objectives, 0); chk.OK || chk.MaxErr != 1 || !strings.Contains(chk.Detail, "problem 2: cost 6, certified optimum 5") {
		t.Errorf("an integer objective 1 off: %+v", chk)
	}
}

// TestSumBound: (r-1)u/(1-(r-1)u) times the sum of |x|; a single term has
// no error.
func TestSumBound(t *testing.T) {
	if got := SumBound(1, 5, Float32Unit); got != 0 {
		t.Errorf("one term: %g", got)
	}
	u := Float32Unit
	if got, want := SumBound(300, 2, u), 299*u/(1-299*u)*2; got != want {
		t.Errorf("SumBound(300, 2, 2^-24) = %g, want %g", got, want)
	}
}
