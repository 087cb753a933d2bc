package lap_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	cpulap "github.com/semibench/semibench/impls/cpu/lap"
	"github.com/semibench/semibench/problems/lap"
)

// names lists the CPU implementations' names.
func names() []string {
	var out []string
	for _, im := range cpulap.Impls() {
		out = append(out, im.Name)
	}
	return out
}

// impl returns the named CPU implementation.
func impl(t *testing.T, name string) lap.Impl {
	t.Helper()
	i := slices.IndexFunc(cpulap.Impls(), func(im lap.Impl) bool { return im.Name == name })
	if i < 0 {
		t.Fatalf("no CPU implementation %q in %v", name, names())
	}
	return cpulap.Impls()[i]
}

// TestSolve: `semibench solve lap`'s path (read, solve, check) with every
// CPU implementation, integer and float costs, minimising and maximising.
func TestSolve(t *testing.T) {
	ctx := context.Background()
	in := "4,1,3\n2,0,5\n3,2,2\n"
	c, err := lap.ReadCosts(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	// Every implementation, and the default one again.
	for _, name := range append(names(), lap.DefaultImpl) {
		s, err := lap.Solve(ctx, c, impl(t, name), false)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s.Cost != "5" || !slices.Equal(s.Assignment, []int{1, 0, 2}) {
			t.Errorf("%q: %+v", name, s)
		}
		mx, err := lap.Solve(ctx, c, impl(t, name), true)
		if err != nil {
			t.Fatal(err)
		}
		if mx.Cost != "11" { // 4 + 5 + 2
			t.Errorf("%q maximize: %+v", name, mx)
		}
	}
	out, _ := json.Marshal(&lap.Solution{Cost: "5", Assignment: []int{1, 0, 2}, Impl: "cpu/jv", MS: 0.5})
	if string(out) != `{"cost":5,"assignment":[1,0,2],"impl":"cpu/jv","ms":0.5}` {
		t.Errorf("json %s", out)
	}
	f, err := lap.ReadCosts(strings.NewReader("0.5,1.5\n2.25,0.25\n3,3\n"), "y.csv")
	if err == nil {
		t.Fatalf("3x2 accepted: %+v", f)
	}
	f, err = lap.ReadCosts(strings.NewReader("0.5,1.5,9\n2.25,0.25,9\n"), "y.csv")
	if err != nil {
		t.Fatal(err)
	}
	s, err := lap.Solve(ctx, f, impl(t, "cpu/jv"), false)
	if err != nil || s.Cost != "0.75" {
		t.Errorf("float: %+v %v", s, err)
	}
	s, err = lap.Solve(ctx, f, impl(t, "cpu/jv"), true)
	if err != nil || s.Cost != "11.25" || !slices.Equal(s.Assignment, []int{2, 0}) {
		t.Errorf("float maximize: %+v %v", s, err)
	}
	if _, err := lap.Solve(ctx, f, impl(t, "cpu/auction"), false); !errors.Is(err, lap.ErrNeedsIntegers) {
		t.Errorf("auction on floats: %v", err)
	}
}

// FuzzReadCosts: the reader never panics, and what it accepts is a valid
// matrix that every CPU implementation solves to the same certified cost.
func FuzzReadCosts(f *testing.F) {
	for _, s := range []string{
		"1,2\n3,4\n", "1.5,2\n", "%%MatrixMarket matrix array real general\n1 2\n1\n2\n",
		"%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n", "1,2,3\n4,5\n", "nan", "-0,+1,1e3\n",
		"9223372036854775807,1\n", "%%MatrixMarket matrix array real general\n%\n\n2 3\n1 2 3 4 5 6\n",
		"1,inf\n2,3\n", "inf,inf\n1,2\n", "-inf,1\n", "0.5,+Infinity,2\n", "1e307,1\n",
		"%%MatrixMarket matrix array real general\n2 2\ninf\n1\n2\ninf\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := lap.ReadCosts(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			var pe *lap.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if c.Rows < 1 || c.Rows > c.Cols || (c.IsInt() && len(c.Int) != c.Rows*c.Cols) || (!c.IsInt() && len(c.Float) != c.Rows*c.Cols) {
			t.Fatalf("bad matrix %dx%d (%d ints, %d floats)", c.Rows, c.Cols, len(c.Int), len(c.Float))
		}
		if c.Rows*c.Cols > 64 {
			return
		}
		var want string
		for _, im := range cpulap.Impls() {
			name := im.Name
			s, err := lap.Solve(context.Background(), c, im, false)
			if errors.Is(err, lap.ErrNeedsIntegers) {
				continue
			}
			// A reason of the input (an infeasible problem, a -inf cost,
			// a forbidden cell's stand-in beyond the bound) is every
			// implementation's verdict alike.
			if verdict := inputVerdict(err); verdict != "" {
				if want == "" {
					want = verdict
				} else if verdict != want {
					t.Fatalf("%s: %v, others %s", name, err, want)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if c.IsInt() {
				if want == "" {
					want = string(s.Cost)
				} else if string(s.Cost) != want {
					t.Fatalf("%s: cost %s, others %s", name, s.Cost, want)
				}
			}
		}
	})
}

// inputVerdict names the error when it is a reason of the input rather
// than of the implementation, or returns "".
func inputVerdict(err error) string {
	for _, e := range []error{lap.ErrInfeasible, lap.ErrNotFinite, lap.ErrOverflow} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return ""
}
