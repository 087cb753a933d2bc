package domination

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/minplus"
)

// whole is the whole-matrix search s on cpu/sparse.
func whole(s Search) Impl { return Impl{Name: "whole", Product: sparse.Product, Search: s} }

// TestWholeSearchAgrees runs Algorithms 3-5 on the whole matrices,
// sequentially and in parallel, and compares every value with the
// fingerprint search and with the paper's Tables 3 and 4 (m <= 6; m = 7
// unless -short).
func TestWholeSearchAgrees(t *testing.T) {
	for _, row := range paperTables {
		if row.m > 7 || row.m == 7 && testing.Short() {
			continue
		}
		fp, err := Analyze(context.Background(), row.m, Options{Impl: sparse})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Search{SearchWholeSequential, SearchWholeParallel} {
			rec := &bench.Recorder{}
			an, err := Analyze(context.Background(), row.m, Options{Impl: whole(s), Threads: 3, Rec: rec})
			if err != nil {
				t.Fatalf("m=%d, %v: %v", row.m, s, err)
			}
			if got, want := [4]int{an.R0, an.A, an.B, an.N0}, [4]int{row.r0, row.a, row.b, row.n0}; got != want {
				t.Errorf("m=%d, %v: (r0, a, b, n0) = %v, paper %v", row.m, s, got, want)
			}
			if !reflect.DeepEqual(an.Gamma, fp.Gamma) || !reflect.DeepEqual(an.Alpha, fp.Alpha) || !reflect.DeepEqual(an.Exceptions, fp.Exceptions) {
				t.Errorf("m=%d, %v: γ2, α or exceptions differ from the fingerprint search's", row.m, s)
			}
			if !strings.Contains(an.Verified, "whole matrices") {
				t.Errorf("m=%d, %v: Verified = %q", row.m, s, an.Verified)
			}
			if an.kept != nil || an.scratch != nil {
				t.Errorf("m=%d, %v: the kept powers were not released", row.m, s)
			}
			names, _ := rec.Durations()
			for _, ph := range []string{"algorithm2", "algorithm3", "algorithm4", "algorithm5"} {
				if !slices.Contains(names, ph) {
					t.Errorf("m=%d, %v: phase %s not recorded", row.m, s, ph)
				}
			}
		}
	}
}

// TestDifferenceConstant checks the difference matrix and its scan:
// infinite pairs skipped, one infinite entry or one entry off the
// constant found wherever it is, on one and on several threads.
func TestDifferenceConstant(t *testing.T) {
	const n = 70
	x, y := &minplus.Dense{N: n, Data: make([]int16, n*n)}, &minplus.Dense{N: n, Data: make([]int16, n*n)}
	for i := range x.Data {
		y.Data[i] = int16(i % 50)
		x.Data[i] = y.Data[i] + 7
	}
	x.Data[5], y.Data[5] = minplus.Inf, minplus.Inf+3 // both infinite: skipped
	d := make([]int16, n*n)
	for _, threads := range []int{1, 4} {
		difference(d, x, y, threads)
		if c, ok := constant(d); !ok || c != 7 {
			t.Errorf("threads=%d: constant = %d, %v; want 7, true", threads, c, ok)
		}
		for _, at := range []int{0, n*n/2 + 3, n*n - 1} {
			old := x.Data[at]
			x.Data[at] = old + 1
			difference(d, x, y, threads)
			if _, ok := constant(d); ok {
				t.Errorf("threads=%d: entry %d off the constant not found", threads, at)
			}
			x.Data[at] = minplus.Inf
			difference(d, x, y, threads)
			if _, ok := constant(d); ok {
				t.Errorf("threads=%d: entry %d infinite on one side only not found", threads, at)
			}
			x.Data[at] = old
		}
	}
	for i := range x.Data {
		x.Data[i], y.Data[i] = minplus.Inf, minplus.Inf
	}
	difference(d, x, y, 2)
	if _, ok := constant(d); ok {
		t.Error("two infinite matrices: no finite entry, yet a constant")
	}
}

// TestWholeSearchRefusals: the whole search needs every power kept, all K
// of them, and the memory for them.
func TestWholeSearchRefusals(t *testing.T) {
	ctx := context.Background()
	an, err := Analyze(ctx, 4, Options{Impl: sparse})
	if err != nil {
		t.Fatal(err)
	}
	if err := an.Algorithm3Whole(1); err == nil || !strings.Contains(err.Error(), "every power kept") {
		t.Errorf("Algorithm3Whole on a fingerprint analysis: %v", err)
	}
	if err := an.Algorithm5Whole(); err == nil {
		t.Error("Algorithm5Whole on a fingerprint analysis: no error")
	}
	if _, err := Analyze(ctx, 4, Options{Impl: whole(SearchWholeParallel), StopAtRepetition: true}); err == nil {
		t.Error("whole search with StopAtRepetition: no error")
	}
	need, _, err := MemoryNeededWhole(6, DefaultK, sparse.Product)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, 6, Options{Impl: whole(SearchWholeSequential), MemoryLimit: need - 1}); err == nil || !strings.Contains(err.Error(), "available") {
		t.Errorf("whole search beyond the memory limit: %v", err)
	}
	if _, err := Analyze(ctx, 6, Options{Impl: whole(SearchWholeSequential), MemoryLimit: need}); err != nil {
		t.Errorf("whole search within the memory limit: %v", err)
	}
}
