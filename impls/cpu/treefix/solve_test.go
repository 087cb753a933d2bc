package cputreefix

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/treefix"
)

// solve is `semibench solve treefix` with the CPU implementations: impl
// resolved as the CLI resolves it.
func solve(in, name, op, impl string, f32 bool, out *bytes.Buffer) error {
	im, err := treefix.ResolveImpl(registry(), impl)
	if err != nil {
		return err
	}
	return treefix.Solve(context.Background(), strings.NewReader(in), name, op, im, f32, out)
}

func TestSolve(t *testing.T) {
	const in = "# the paper's Fig. 2 tree\n-1 1\n0 2\n1 4\n\n1 5\n1 6\n0 3\n"
	for _, tc := range []struct {
		op, impl string
		f32      bool
		input    string
		want     string
	}{
		{"rootfix", "", false, in, "1\n3\n7\n8\n9\n4\n"},
		{"leaffix", "vectorial", false, in, "21\n17\n4\n5\n6\n3\n"},
		{"leaffix", "cpu/parallel", true, in, "21\n17\n4\n5\n6\n3\n"},
		{"rootfix", "vectorial-compensated", false, "1 0.5\n-1 0.25\n", "0.75\n0.25\n"},
		{"rootfix", "sequential", true, "-1 0.1\n0 0.2\n", "0.1\n0.3\n"},
	} {
		var out bytes.Buffer
		if err := solve(tc.input, "in.txt", tc.op, tc.impl, tc.f32, &out); err != nil {
			t.Fatalf("%s %s: %v", tc.op, tc.impl, err)
		}
		if out.String() != tc.want {
			t.Errorf("%s %s f32=%v: got %q, want %q", tc.op, tc.impl, tc.f32, out.String(), tc.want)
		}
	}
}

func TestSolveErrors(t *testing.T) {
	for _, tc := range []struct {
		input, want string
	}{
		{"-1 1\n0 1\n-1 2\n", "in.txt:3: bad treefix input: vertex 2 is a second root (vertex 0 on line 1 is the first)"},
		{"-1 1\n5 1\n", "in.txt:2: bad treefix input: vertex 1: parent 5 out of range"},
		{"-1 1\n-2 1\n", "in.txt:2: bad treefix input: vertex 1: parent -2 out of range"},
		{"-1 1\n2 1\n1 1\n", "in.txt:2: bad treefix input: vertex 1 is on a cycle"},
		{"-1 1\n0 1\n3 1\n3 1\n", "in.txt:4: bad treefix input: vertex 3 is on a cycle"},
		{"1 1\n0 1\n", "in.txt: bad treefix input: no root"},
		{"-1 1\n0\n", "in.txt:2: bad treefix input: want 'parent weight', got 1 fields"},
		{"-1 1\nx 1\n", "in.txt:2: bad treefix input: parent \"x\" is not an integer"},
		{"-1 1\n0 nan\n", "in.txt:2: bad treefix input: weight \"nan\" is not a finite number"},
		{"-1 1\n0 1e400\n", "in.txt:2: bad treefix input: weight 1e400 is beyond the float64 range"},
		{"", "in.txt: bad treefix input: no vertices"},
		{"# header\r\n-1 1\r\n\r\n-1 2\r\n", "in.txt:4: bad treefix input: vertex 1 is a second root (vertex 0 on line 2 is the first)"},
		{"-1 1\n0 1 2\n", "in.txt:2: bad treefix input: want 'parent weight', got 3 fields"},
	} {
		err := solve(tc.input, "in.txt", "rootfix", "", false, &bytes.Buffer{})
		if !errors.Is(err, treefix.ErrInput) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %q", tc.input, err, tc.want)
		}
	}
	if err := solve("-1 1\n", "in.txt", "sideways", "", false, &bytes.Buffer{}); err == nil {
		t.Error("bad op accepted")
	}
	if err := solve("-1 1\n", "in.txt", "rootfix", "gpu", false, &bytes.Buffer{}); err == nil {
		t.Error("bad impl accepted")
	}
}

// FuzzSolve: no input makes Solve panic; an accepted input gives one line
// per vertex, and on integer weights every implementation prints the same.
func FuzzSolve(f *testing.F) {
	f.Add("-1 1\n0 2\n1 4\n1 5\n1 6\n0 3\n", false)
	f.Add("-1 0.5\n0 -1e30\n1 7\n", true)
	f.Add("0 1\n-1 2\n", false)
	f.Add("1 1\n2 1\n0 1\n", false)
	f.Fuzz(func(t *testing.T, in string, f32 bool) {
		var first string
		for i, impl := range names {
			var out bytes.Buffer
			err := solve(in, "fuzz", "leaffix", impl, f32, &out)
			if err != nil {
				if !errors.Is(err, treefix.ErrInput) {
					t.Fatalf("error not wrapping ErrInput: %v", err)
				}
				return
			}
			parsed, _ := treefix.ReadInput(strings.NewReader(in), "fuzz", f32)
			if got := strings.Count(out.String(), "\n"); got != len(parsed.Parent) {
				t.Fatalf("%d lines for %d vertices", got, len(parsed.Parent))
			}
			if i == 0 {
				first = out.String()
			} else if parsed.Int && out.String() != first {
				t.Fatalf("%s differs from %s on integer weights", impl, names[0])
			}
		}
	})
}

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
		{"-1 1e308\n0 1e308\n0 1\n", "rootfix", false, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum, about 2e+308, leaves float64", "", ""},
		// the vertex whose own sum overflows is named, whichever
		// implementation's sums left float64 first (the vectorial ones'
		// Euler-tour scan did at vertex 1: Inf - Inf)
		{"-1 1e308\n0 1e308\n", "leaffix", false, "in.txt:1: bad treefix input: sum overflows: vertex 0: its leaffix sum, about 2e+308, leaves float64", "", ""},
		{"-1 3e38\n0 3e38\n", "rootfix", true, "in.txt:2: bad treefix input: sum overflows: vertex 1: its rootfix sum, about 6e+38, leaves float32", "", ""},
	} {
		for _, impl := range names {
			var out bytes.Buffer
			err := solve(tc.input, "in.txt", tc.op, impl, tc.f32, &out)
			if tc.want == "" {
				if err != nil || out.String() != tc.out {
					t.Errorf("%s %s %q: %v, output %q; want %q", tc.op, impl, tc.input, err, out.String(), tc.out)
				}
				continue
			}
			if !errors.Is(err, treefix.ErrOverflow) || !errors.Is(err, treefix.ErrInput) || !strings.HasPrefix(err.Error(), tc.want) && (tc.alt == "" || !strings.HasPrefix(err.Error(), tc.alt)) {
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

// TestSolveIntermediateOverflow (issue 56, item 19): on a sound tree whose
// sums an order of additions can overflow (children 1e308, 1e308 and
// -1.5e308, either way round), every implementation answers or says that
// its own intermediate sums overflowed (ErrIntermediate), never blaming
// the input; and some implementation answers each.
func TestSolveIntermediateOverflow(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-1 0\n0 1e308\n0 1e308\n0 -1.5e308\n", "5e+307\n1e+308\n1e+308\n-1.5e+308\n"},
		{"-1 0\n0 -1.5e308\n0 1e308\n0 1e308\n", "5e+307\n-1.5e+308\n1e+308\n1e+308\n"},
	} {
		answered := 0
		for _, impl := range registry().Names() {
			var out bytes.Buffer
			err := solve(tc.in, "in.txt", "leaffix", impl, false, &out)
			switch {
			case err == nil && out.String() == tc.want:
				answered++
			case errors.Is(err, treefix.ErrIntermediate) && !errors.Is(err, treefix.ErrInput) && out.Len() == 0:
			default:
				t.Errorf("%s on %q: %v, output %q; want %q or ErrIntermediate", impl, tc.in, err, out.String(), tc.want)
			}
		}
		if answered == 0 {
			t.Errorf("no implementation answers %q", tc.in)
		}
	}
}
