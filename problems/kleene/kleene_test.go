package kleene

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

func TestConvertCCSAndTopoSort(t *testing.T) {
	// Arcs 3 -> 1 (w 7), 3 -> 2 (w 8), 1 -> 2 (w 9), 1-based.
	x := maxplus.New(3)
	x.Set(0, 2, 7)
	x.Set(1, 2, 8)
	x.Set(1, 0, 9)
	c := ConvertCCS(x)
	want := &CCS{N: 3, Val: []float32{9, 7, 8}, Idx: []int32{1, 0, 1}, Ptr: []int32{0, 1, 1, 3}}
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Fatalf("CCS %+v, want %+v", c, want)
	}
	order, err := TopoSort(c)
	if err != nil || fmt.Sprint(order) != "[2 0 1]" {
		t.Fatalf("order %v, %v; want [2 0 1]", order, err)
	}
	// Random DAGs: the order is topological.
	for _, n := range []int{1, 50, 300} {
		x, _ := dag.Generate(n, 4, false)
		order, err := TopoSort(ConvertCCS(x))
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckOrder(x, order); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

func TestMemoryBytes(t *testing.T) {
	if MemoryBytes(0) != 0 || MemoryBytes(-3) != 0 {
		t.Fatal("MemoryBytes of nothing")
	}
	if m := MemoryBytes(4000); m < 3*maxplus.Bytes(4000) || m > 64*maxplus.Bytes(4000) {
		t.Fatalf("MemoryBytes(4000) = %d", m)
	}
}

// TestChecks: CheckShape and CheckWeights refuse what no implementation
// handles, naming the entry 1-based, and accept -Inf (not an arc).
func TestChecks(t *testing.T) {
	nan := maxplus.New(3)
	nan.Set(2, 1, float32(math.NaN()))
	inf := maxplus.New(3)
	inf.Set(0, 2, float32(math.Inf(1)))
	for _, tc := range []struct {
		name string
		x    *maxplus.Matrix
		want string
	}{
		{"nil", nil, "nil matrix"},
		{"short", &maxplus.Matrix{N: 3, Val: make([]float32, 8)}, "holds 8 entries"},
		{"negative", &maxplus.Matrix{N: -1}, "n=-1"},
		{"too large", &maxplus.Matrix{N: MaxN + 1}, fmt.Sprintf("n=%d", MaxN+1)},
		{"NaN", nan, "X[3,2] is NaN"},
		{"+Inf", inf, "X[1,3] is +Inf"},
	} {
		err := CheckShape(tc.x)
		if err == nil {
			err = CheckWeights(tc.x)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	x := maxplus.New(2)
	x.Set(1, 0, float32(math.Inf(-1)))
	if err := CheckShape(x); err != nil {
		t.Error(err)
	}
	if err := CheckWeights(x); err != nil {
		t.Error(err)
	}
}

func TestCheckRange(t *testing.T) {
	// 3 -> 2 -> 1 (0-based), each arc -3e38: the path from 3 to 1 weighs
	// -6e38, below -FLT_MAX.
	x := maxplus.New(3)
	x.Set(1, 2, -3e38)
	x.Set(0, 1, -3e38)
	w, err := Reference(context.Background(), x, 1)
	if err != nil {
		t.Fatal(err)
	}
	closure := maxplus.New(3)
	for k, v := range w {
		closure.Val[k] = float32(v) // -6e38 rounds to -Inf: ε
	}
	err = CheckRange(context.Background(), x, closure)
	if !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), "X*[1,3]") || !strings.Contains(err.Error(), "below -FLT_MAX") {
		t.Fatalf("err = %v, want X*[1,3] below -FLT_MAX", err)
	}
	closure.Val[0*3+2] = float32(math.Inf(1))
	if err := CheckRange(context.Background(), x, closure); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), "above FLT_MAX") {
		t.Fatalf("err = %v, want +Inf refused", err)
	}
	small := maxplus.New(3)
	small.Set(1, 2, -1)
	small.Set(0, 1, -1)
	ok := maxplus.Identity(3)
	ok.Set(1, 2, -1)
	ok.Set(0, 1, -1)
	ok.Set(0, 2, -2)
	if err := CheckRange(context.Background(), small, ok); err != nil {
		t.Fatal(err)
	}
}
