package apsp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	cpuapsp "github.com/semibench/semibench/impls/cpu/apsp"
	"github.com/semibench/semibench/problems"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
)

// cpu is a registry of the CPU implementations alone: cuda/fast is unknown
// to it.
var cpu = problems.NewRegistry(name, cpuapsp.Impls())

func name(im apsp.Impl) string { return im.Name }

func TestSolve(t *testing.T) {
	ctx := context.Background()
	// 1 -> 2 (3), 2 -> 3 (-1), 3 -> 2 (-1): the cycle 2 -> 3 -> 2 is negative.
	neg := "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 3\n2 3 -1\n3 2 -1\n"
	chain := "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 5\n"
	for _, tc := range []struct {
		name, in, sr, impl string
		inverse            bool
		want               string // the lines after the comment
		err                string
	}{
		{"min-plus chain", chain, "min-plus", "", false, "3 3 6\n1 1 0\n1 2 4\n1 3 9\n2 2 0\n2 3 5\n3 3 0\n", ""},
		{"min-plus chain sgje", chain, "min-plus", "cpu/sgje", false, "3 3 6\n1 1 0\n1 2 4\n1 3 9\n2 2 0\n2 3 5\n3 3 0\n", ""},
		{"negative cycle", neg, "min-plus", "", false, "3 3 7\n1 1 0\n1 2 -inf\n1 3 -inf\n2 2 -inf\n2 3 -inf\n3 2 -inf\n3 3 -inf\n", ""},
		{"max-plus chain", chain, "max-plus", "", false, "3 3 6\n1 1 0\n1 2 4\n1 3 9\n2 2 0\n2 3 5\n3 3 0\n", ""},
		{"boolean", chain, "boolean", "", false, "3 3 6\n1 1 1\n1 2 1\n1 3 1\n2 2 1\n2 3 1\n3 3 1\n", ""},
		{"real (I-A)^-1", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n", "real", "", false, "1 1 1\n1 1 2\n", ""},
		{"inverse", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2\n2 2 4\n", "real", "", true, "2 2 2\n1 1 0.5\n2 2 0.25\n", ""},
		{"star of 1", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", "real", "cpu/sgje", false, "", "pivot (1,1)"},
		{"singular", "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n1 2 2\n2 1 0.5\n2 2 1\n", "real", "", true, "", "row 2, column 2"},
		{"not square", "%%MatrixMarket matrix coordinate real general\n2 3 0\n", "min-plus", "", false, "", "not square"},
		{"bad semiring", chain, "tropical", "", false, "", "unknown semiring"},
		{"bad impl", chain, "min-plus", "cuda/fast", false, "", "unknown implementation"},
		{"inverse needs real", chain, "min-plus", "", true, "", "needs the real semiring"},
	} {
		var out bytes.Buffer
		err := apsp.Solve(ctx, strings.NewReader(tc.in), "in.mtx", tc.sr, tc.impl, tc.inverse, &out, cpu)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		lines := strings.SplitN(out.String(), "\n", 3)
		if len(lines) < 3 || lines[2] != tc.want {
			t.Errorf("%s: got\n%s\nwant body\n%s", tc.name, out.String(), tc.want)
		}
	}
	var out bytes.Buffer
	err := apsp.Solve(ctx, strings.NewReader("%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n1 2 2\n2 1 0.5\n2 2 1\n"), "x", "real", "", true, &out, cpu)
	if !errors.Is(err, apsp.ErrSingular) {
		t.Errorf("singular error does not wrap ErrSingular: %v", err)
	}
}

func TestSolveTooLarge(t *testing.T) {
	err := apsp.Solve(context.Background(), strings.NewReader("%%MatrixMarket matrix coordinate real general\n10000000 10000000 0\n"), "big.mtx", "min-plus", "", false, &bytes.Buffer{}, cpu)
	if err == nil || !strings.Contains(err.Error(), "order 10000000") {
		t.Errorf("huge order: %v", err)
	}
}

// FuzzSolve: no input makes Solve panic; every success writes a file whose
// size line matches its entries.
func FuzzSolve(f *testing.F) {
	f.Add("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 3\n2 3 -1\n3 2 -1\n", uint8(0))
	f.Add("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4\n", uint8(1))
	f.Add("%%MatrixMarket matrix array real general\n2 2\n0.5\n0\n0\n0.25\n", uint8(3))
	semirings := []string{"min-plus", "max-plus", "boolean", "real"}
	f.Fuzz(func(t *testing.T, in string, which uint8) {
		if len(in) > 4096 {
			return
		}
		sr := semirings[int(which)%len(semirings)]
		var out bytes.Buffer
		if strings.Contains(in, "\n") {
			// Keep orders small: the fuzzer would otherwise spend its time
			// allocating large dense matrices.
			var rows int
			for _, line := range strings.Split(in, "\n") {
				if line != "" && line[0] != '%' {
					fmt.Sscan(line, &rows)
					break
				}
			}
			if rows > 64 {
				return
			}
		}
		err := apsp.Solve(context.Background(), strings.NewReader(in), "fuzz.mtx", sr, "", which >= 128 && sr == "real", &out, cpu)
		if err != nil {
			return
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		var r, c, nnz int
		if len(lines) < 3 {
			t.Fatalf("short output %q", out.String())
		}
		if _, err := fmt.Sscan(lines[2], &r, &c, &nnz); err != nil || nnz != len(lines)-3 {
			t.Fatalf("size line %q with %d entries", lines[2], len(lines)-3)
		}
	})
}

func TestSolveStarOfOneFast(t *testing.T) {
	// c_22 = 0.5 + 0.5·1 = 1 after pivot 1: the star of 1 at pivot (2,2).
	in := "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n2 1 0.5\n2 2 0.5\n"
	err := apsp.Solve(context.Background(), strings.NewReader(in), "one.mtx", "real", "cpu/fast", false, &bytes.Buffer{}, cpu)
	if !errors.Is(err, apsp.ErrStar) || !strings.Contains(err.Error(), "pivot (2,2)") || !strings.Contains(err.Error(), "one.mtx") {
		t.Errorf("star of 1 by cpu/fast: %v", err)
	}
}

// TestSolveOther runs an implementation the CPU package does not hold
// (here the CPU closure under another name), and refuses what an
// implementation does not implement.
func TestSolveOther(t *testing.T) {
	ctx := context.Background()
	chain := "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 5\n"
	calls := 0
	be := apsp.Impl{Name: "test/backend", Note: "by a test",
		Float: func(ctx context.Context, sr string, a *apsp.Matrix[float64], _ apsp.Options) (apsp.Counts, error) {
			calls++
			if sr != "min-plus" {
				return apsp.Counts{}, fmt.Errorf("semiring %s", sr)
			}
			return apsp.Counts{}, cpuapsp.Fast(ctx, semiring.MinPlus[float64]{}, a, cpuapsp.FastOptions{})
		},
		Inverse: func(ctx context.Context, a *apsp.Matrix[float64], _ apsp.Options) (apsp.Counts, error) {
			calls++
			return cpuapsp.Inverse(ctx, a)
		},
	}
	reg := problems.NewRegistry(name, cpuapsp.Impls(), []apsp.Impl{be})
	var out bytes.Buffer
	if err := apsp.Solve(ctx, strings.NewReader(chain), "in.mtx", "min-plus", "test/backend", false, &out, reg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "by test/backend (by a test)") || !strings.HasSuffix(out.String(), "3 3 6\n1 1 0\n1 2 4\n1 3 9\n2 2 0\n2 3 5\n3 3 0\n") {
		t.Errorf("output:\n%s", out.String())
	}
	out.Reset()
	inv := "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2\n2 2 4\n"
	if err := apsp.Solve(ctx, strings.NewReader(inv), "in.mtx", "real", "test/backend", true, &out, reg); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "2 2 2\n1 1 0.5\n2 2 0.25\n") || calls != 2 {
		t.Errorf("inverse (%d calls):\n%s", calls, out.String())
	}
	err := apsp.Solve(ctx, strings.NewReader(chain), "in.mtx", "boolean", "test/backend", false, &out, reg)
	if err == nil || !strings.Contains(err.Error(), "does not implement boolean") {
		t.Errorf("boolean without Bool: %v", err)
	}
	err = apsp.Solve(ctx, strings.NewReader(chain), "in.mtx", "min-plus", "other", false, &out, reg)
	if err == nil || !strings.Contains(err.Error(), "test/backend") {
		t.Errorf("unknown implementation: %v", err)
	}
}
