package treefix

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestSolveOverflow: a sum that leaves its type is refused naming the
// vertex and its line, by every implementation, and nothing is written;
// sums that fit are exact even when the cheap bound fails.
func TestSolveOverflow(t *testing.T) {
	const max = "9223372036854775807"
	for _, tc := range []struct {
		input, op string
		f32       bool
		want      string // error text; empty: success with out
		out       string
		alt       string // another accepted error text, when the implementations differ
	}{
		{"-1 " + max + "\n0 1\n", "rootfix", false, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum 9.22337e+18 leaves int64", "", ""},
		{"-1 1\n0 " + max + "\n", "leaffix", false, "in.txt:1: bad treefix input: sum overflows: vertex 0: its leaffix sum", "", ""},
		// the deepest vertex whose subtree sum overflows, not the root
		{"# c\n-1 0\n0 4611686018427387904\n1 4611686018427387904\n", "leaffix", false, "in.txt:3: bad treefix input: sum overflows: vertex 1: its leaffix sum", "", ""},
		{"-1 -" + max + "\n0 -2\n", "rootfix", false, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum -9.22337e+18 leaves int64", "", ""},
		{"-1 " + max + "\n0 -" + max + "\n", "rootfix", false, "", max + "\n0\n", ""},
		{"-1 " + max + "\n0 -" + max + "\n", "leaffix", false, "", "0\n-" + max + "\n", ""},
		{"-1 -9223372036854775808\n", "leaffix", false, "", "-9223372036854775808\n", ""},
		{"-1 1e308\n0 1e308\n0 1\n", "rootfix", false, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum in ", "", ""},
		// the sequential sums overflow at the root; the Euler-tour scan of
		// the vectorial ones already at vertex 1 (Inf - Inf)
		{"-1 1e308\n0 1e308\n", "leaffix", false, "in.txt:1: bad treefix input: sum overflows: vertex 0: its leaffix sum in ", "", "in.txt:2: bad treefix input: sum overflows: vertex 1: its leaffix sum in "},
		{"-1 3e38\n0 3e38\n", "rootfix", true, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum in ", "", ""},
	} {
		for _, impl := range Impls {
			var out bytes.Buffer
			err := Solve(context.Background(), strings.NewReader(tc.input), "in.txt", tc.op, impl, tc.f32, &out)
			if tc.want == "" {
				if err != nil || out.String() != tc.out {
					t.Errorf("%s %s %q: %v, output %q; want %q", tc.op, impl, tc.input, err, out.String(), tc.out)
				}
				continue
			}
			if !errors.Is(err, ErrOverflow) || !errors.Is(err, ErrInput) || !strings.HasPrefix(err.Error(), tc.want) && (tc.alt == "" || !strings.HasPrefix(err.Error(), tc.alt)) {
				t.Errorf("%s %s %q: error %v, want prefix %q", tc.op, impl, tc.input, err, tc.want)
			}
			if typ := map[bool]string{false: "float64", true: "float32"}[tc.f32]; strings.Contains(tc.input, "e3") && !strings.Contains(err.Error(), "leaves "+typ) {
				t.Errorf("%s %s: error %v does not name %s", tc.op, impl, err, typ)
			}
			if out.Len() > 0 {
				t.Errorf("%s %s: wrote %q before failing", tc.op, impl, out.String())
			}
		}
	}
}

func TestInt64Safe(t *testing.T) {
	for _, tc := range []struct {
		w    []int64
		safe bool
	}{
		{[]int64{math.MaxInt64}, true},
		{[]int64{math.MaxInt64, 1}, false},
		{[]int64{math.MinInt64}, false}, // |MinInt64| = 2^63
		{[]int64{math.MinInt64 + 1, 0, 0}, true},
		{[]int64{-1 << 62, 1 << 62}, false},
		{[]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64}, false}, // wraps uint64
	} {
		if got := int64Safe(tc.w); got != tc.safe {
			t.Errorf("int64Safe(%v) = %v, want %v", tc.w, got, tc.safe)
		}
	}
}
