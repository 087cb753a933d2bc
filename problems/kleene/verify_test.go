package kleene

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// rounded is the reference rounded to float32, ε where it is -Inf: a correct
// W (exact for integer weights; within the bound otherwise, since a path of
// d >= 1 arcs has bound at least 2^-24 times its Σ|w|, more than the one
// rounding).
func rounded(ref []float64, n int) *maxplus.Matrix {
	w := maxplus.New(n)
	for k, r := range ref {
		if !math.IsInf(r, -1) {
			w.Val[k] = float32(r)
		}
	}
	return w
}

func TestVerifyCatches(t *testing.T) {
	for _, ints := range []bool{true, false} {
		x, _ := dag.Generate(120, 7, ints)
		ref, err := Reference(context.Background(), x, 2)
		if err != nil {
			t.Fatal(err)
		}
		w := rounded(ref, x.N)
		if ck := Verify(x, w, ref, ints); !ck.OK || ck.Method == "" {
			t.Fatalf("correct W rejected: %+v", ck)
		}
		n := x.N
		// Find a finite off-diagonal entry and an ε entry.
		fin, eps := -1, -1
		for k, v := range w.Val {
			if k/n != k%n && v != maxplus.Epsilon && fin < 0 {
				fin = k
			}
			if v == maxplus.Epsilon && eps < 0 {
				eps = k
			}
		}
		plant := func(k int, v float32) *maxplus.Matrix {
			bad := w.Clone()
			bad.Val[k] = v
			return bad
		}
		for _, tc := range []struct {
			name string
			w    *maxplus.Matrix
			want string
		}{
			{"off by one", plant(fin, w.Val[fin]+1), "W["},
			{"off by a few ulps", plant(fin, math.Nextafter32(math.Nextafter32(w.Val[fin], 1e30), 1e30)), "W["},
			{"lost path", plant(fin, maxplus.Epsilon), "= ε, want"},
			{"invented path", plant(eps, 3), "want ε"},
			{"NaN", plant(fin, float32(math.NaN())), "W["},
			{"wrong size", maxplus.New(n - 1), "W is"},
		} {
			if tc.name == "off by a few ulps" && !ints {
				continue // within the float bound, rightly accepted
			}
			ck := Verify(x, tc.w, ref, ints)
			if ck.OK || !strings.Contains(ck.Detail, tc.want) {
				t.Errorf("ints=%v %s: %+v", ints, tc.name, ck)
			}
		}
		// A reference that agrees with a wrong W: only the certificate can
		// tell. Column 1 is always sampled.
		bad := w.Clone()
		badRef := append([]float64(nil), ref...)
		k := -1
		for i := 1; i < n; i++ {
			if w.Val[i*n] != maxplus.Epsilon {
				k = i * n
				break
			}
		}
		bad.Val[k] -= 5
		badRef[k] = float64(bad.Val[k])
		if ck := Verify(x, bad, badRef, ints); ck.OK || !strings.Contains(ck.Detail, "certificate fails in column 1") {
			t.Errorf("ints=%v certificate: %+v", ints, ck)
		}
	}
}

func TestVerifyExactNeedsIntegers(t *testing.T) {
	x, _ := dag.Generate(40, 1, false)
	ref, _ := Reference(context.Background(), x, 1)
	w := rounded(ref, x.N)
	if ck := Verify(x, w, ref, true); ck.OK || !strings.Contains(ck.Detail, "not an integer") {
		t.Fatalf("exact check on float weights: %+v", ck)
	}
	if ck := Verify(x, w, ref, false); !ck.OK || ck.Bound <= 0 || ck.MaxErr > ck.Bound {
		t.Fatalf("float check: %+v", ck)
	}
	if ck := Verify(x, w, ref[:5], false); ck.OK {
		t.Fatal("short reference accepted")
	}
}

// TestReferenceByHand: a diamond with two routes.
func TestReferenceByHand(t *testing.T) {
	// 1 -> 2 (1), 1 -> 3 (4), 2 -> 4 (5), 3 -> 4 (1): best 1 -> 4 is 6 via 2.
	x := maxplus.New(4)
	x.Set(1, 0, 1)
	x.Set(2, 0, 4)
	x.Set(3, 1, 5)
	x.Set(3, 2, 1)
	ref, err := Reference(context.Background(), x, 3)
	if err != nil {
		t.Fatal(err)
	}
	ni := math.Inf(-1)
	want := []float64{0, ni, ni, ni, 1, 0, ni, ni, 4, ni, 0, ni, 6, 5, 1, 0}
	for k := range want {
		if ref[k] != want[k] {
			t.Fatalf("reference %v, want %v", ref, want)
		}
	}
}

// TestCheckOrder: a topological order passes; a reversed one, a short one
// and one with a repeated vertex are rejected.
func TestCheckOrder(t *testing.T) {
	x, _ := dag.Generate(40, 4, false)
	order, err := TopoSort(ConvertCCS(x))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckOrder(x, order); err != nil {
		t.Fatalf("topological order rejected: %v", err)
	}
	rev := slices.Clone(order)
	slices.Reverse(rev)
	if CheckOrder(x, rev) == nil {
		t.Error("a reversed order passed")
	}
	if CheckOrder(x, order[1:]) == nil {
		t.Error("a short order passed")
	}
	rep := slices.Clone(order)
	rep[1] = rep[0]
	if CheckOrder(x, rep) == nil {
		t.Error("an order with a repeated vertex passed")
	}
}
