package impls

import (
	"context"
	"slices"
	"testing"

	"github.com/semibench/semibench/problems/treefix"
)

// treefixCases are trees (parent arrays, -1 at the root) with integer
// weights and their +Rootfix (the sum over the path from the root to v)
// and +Leaffix (the sum over v's subtree).
var treefixCases = []struct {
	name             string
	parent           []int32
	w                []int64
	rootfix, leaffix []int64
}{
	{name: "one vertex", parent: []int32{-1}, w: []int64{5}, rootfix: []int64{5}, leaffix: []int64{5}},
	// The paper's Fig. 2: a(b(c, d, e), f).
	{name: "fig. 2", parent: []int32{-1, 0, 1, 1, 1, 0}, w: []int64{1, 2, 4, 5, 6, 3},
		rootfix: []int64{1, 3, 7, 8, 9, 4}, leaffix: []int64{21, 17, 4, 5, 6, 3}},
	// Unit weights: the depth (root 1) and the subtree size.
	{name: "unit weights", parent: []int32{-1, 0, 0, 1, 1, 2}, w: []int64{1, 1, 1, 1, 1, 1},
		rootfix: []int64{1, 2, 2, 3, 3, 3}, leaffix: []int64{6, 3, 2, 1, 1, 1}},
	{name: "star", parent: []int32{-1, 0, 0, 0}, w: []int64{10, 1, 2, 3},
		rootfix: []int64{10, 11, 12, 13}, leaffix: []int64{16, 1, 2, 3}},
	{name: "chain, negative weights", parent: []int32{-1, 0, 1, 2}, w: []int64{1, -2, 3, -4},
		rootfix: []int64{1, -1, 2, -2}, leaffix: []int64{-2, -3, -1, -4}},
	{name: "root in the middle", parent: []int32{1, -1, 1}, w: []int64{2, 3, -4},
		rootfix: []int64{5, 3, -1}, leaffix: []int64{2, 1, -4}},
	{name: "children before parents", parent: []int32{2, 2, -1}, w: []int64{1, 1, 1},
		rootfix: []int64{2, 2, 1}, leaffix: []int64{1, 1, 3}},
	{name: "zero weights", parent: []int32{-1, 0, 1}, w: []int64{0, 0, 0},
		rootfix: []int64{0, 0, 0}, leaffix: []int64{0, 0, 0}},
}

// TestTreefixCases runs treefixCases against every implementation in
// impls.Treefix, in int64, float64 and float32 (the weights are small
// integers, so every result is exact), at one and several threads.
func TestTreefixCases(t *testing.T) {
	for _, im := range Treefix.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range treefixCases {
				tr, err := treefix.NewTree(tc.parent)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				for _, threads := range []int{1, 3} {
					for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
						want := tc.rootfix
						if op == treefix.Leaffix {
							want = tc.leaffix
						}
						what := tc.name + " " + op.String()
						checkTreefix(t, what, threads, im.Int64(tr, threads), op, tc.w, want)
						checkTreefix(t, what, threads, im.Float64(tr, threads), op, convert[float64](tc.w), convert[float64](want))
						checkTreefix(t, what, threads, im.Float32(tr, threads), op, convert[float32](tc.w), convert[float32](want))
					}
				}
			}
		})
	}
}

// checkTreefix runs op on w and holds the output to want.
func checkTreefix[T treefix.Number](t *testing.T, what string, threads int, run treefix.Run[T], op treefix.Op, w, want []T) {
	t.Helper()
	out := make([]T, len(w))
	if err := run(context.Background(), op, w, out, nil); err != nil {
		t.Errorf("%s %T threads %d: %v", what, out, threads, err)
	} else if !slices.Equal(out, want) {
		t.Errorf("%s %T threads %d: %v, want %v", what, out, threads, out, want)
	}
}

// convert converts integers to T.
func convert[T treefix.Number](x []int64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}
