package cudaminplus

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

func gpuCount() int {
	n, err := cuda.DeviceCount()
	if err != nil {
		return 0
	}
	return n
}

// implByName returns the named implementation of Impls.
func implByName(name string) minplus.Impl {
	for _, im := range Impls() {
		if im.Name == name {
			return im
		}
	}
	panic("no implementation " + name)
}

// names lists the names of Impls.
func names() []string {
	var out []string
	for _, im := range Impls() {
		out = append(out, im.Name)
	}
	return out
}

// product runs the named dense implementation's Mul on n x n row-major
// matrices and returns C.
func product(ctx context.Context, name string, n int, a, b []int16, rec *bench.Recorder) ([]int16, error) {
	c := make([]int16, max(n, 0)*max(n, 0))
	op := &minplus.Operand{Dense: &minplus.Dense{N: n, Data: a}}
	err := implByName(name).Mul(ctx, &minplus.Dense{N: n, Data: c}, op, &minplus.Dense{N: n, Data: b}, 0, rec)
	return c, err
}

// productCSR runs cuda/sparse's Mul with A in CSR and returns C.
func productCSR(ctx context.Context, a *minplus.CSR, b []int16, rec *bench.Recorder) ([]int16, error) {
	n := max(a.N, 0)
	c := make([]int16, n*n)
	err := implByName(NameSparse).Mul(ctx, &minplus.Dense{N: a.N, Data: c}, &minplus.Operand{CSR: a}, &minplus.Dense{N: a.N, Data: b}, 0, rec)
	return c, err
}

// refProduct is the test's reference: C = A ⊗ B by the definition, int16
// entries with the package's saturation (entries at or above Inf are ∞,
// results clamp to Inf).
func refProduct(n int, a, b []int16) []int16 {
	c := make([]int16, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m := int32(Inf)
			for k := 0; k < n; k++ {
				s := int32(min(a[i*n+k], Inf)) + int32(min(b[k*n+j], Inf))
				if s < m {
					m = s
				}
			}
			c[i*n+j] = int16(m)
		}
	}
	return c
}

// refSparse is the reference CSR x dense product, by its entries.
func refSparse(a *minplus.CSR, b []int16) []int16 {
	n := a.N
	c := make([]int16, n*n)
	for i := range c {
		c[i] = Inf
	}
	for i := 0; i < n; i++ {
		ci := c[i*n : (i+1)*n]
		for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
			v := int32(min(a.Val[p], Inf))
			bk := b[int(a.Col[p])*n : int(a.Col[p]+1)*n]
			for j, x := range bk {
				if s := v + int32(min(x, Inf)); s < int32(ci[j]) {
					ci[j] = int16(s)
				}
			}
		}
	}
	return c
}

// randomCSR returns an n x n sparse matrix with about deg entries per row
// (some rows empty, some columns repeated), values in [0, 9].
func randomCSR(r *rand.Rand, n, deg int) *minplus.CSR {
	a := &minplus.CSR{N: n, RowPtr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		if r.IntN(10) > 0 {
			for d := r.IntN(2*deg + 1); d > 0; d-- {
				a.Col = append(a.Col, int32(r.IntN(n)))
				a.Val = append(a.Val, int16(r.IntN(10)))
			}
		}
		a.RowPtr[i+1] = int32(len(a.Col))
	}
	return a
}

// toDense expands a CSR matrix (duplicates keep their minimum).
func toDense(a *minplus.CSR) []int16 {
	n := a.N
	d := make([]int16, n*n)
	for i := range d {
		d[i] = Inf
	}
	for i := 0; i < n; i++ {
		for p := a.RowPtr[i]; p < a.RowPtr[i+1]; p++ {
			q := &d[i*n+int(a.Col[p])]
			*q = min(*q, a.Val[p], Inf)
		}
	}
	return d
}

func TestReferenceAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 37} {
		a := randomCSR(r, n, 3)
		b := minplus.Random(r, n, 0.3)
		want := refProduct(n, toDense(a), b)
		got := refSparse(a, b)
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("n=%d: dense and sparse references differ at %d: %d, %d", n, i, want[i], got[i])
			}
			if got[i] < 0 || got[i] > Inf {
				t.Fatalf("n=%d: result %d outside [0, Inf]", n, got[i])
			}
		}
	}
}

func TestLeadingDim(t *testing.T) {
	for _, c := range [][2]int{{0, 0}, {1, 8}, {8, 8}, {9, 16}, {8568, 8568}, {21294, 21296}, {131562, 131568}} {
		if got := LeadingDim(c[0]); got != c[1] {
			t.Errorf("LeadingDim(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}

func TestCSR(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	d := minplus.Random(r, 30, 0.5)
	d[7] = 3
	a, err := CSRFromDense(30, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	back := toDense(a)
	for i := range d {
		if min(d[i], Inf) != back[i] {
			t.Fatalf("entry %d: %d, back %d", i, d[i], back[i])
		}
	}
	bad := []*minplus.CSR{
		nil,
		{N: -1},
		{N: 2, RowPtr: []int32{0, 1}},
		{N: 2, RowPtr: []int32{0, 1, 1}, Col: []int32{0}},
		{N: 2, RowPtr: []int32{0, 1, 2}, Col: []int32{0}, Val: []int16{1}},
		{N: 2, RowPtr: []int32{0, 2, 1}, Col: []int32{0}, Val: []int16{1}},
		{N: 2, RowPtr: []int32{0, 1, 1}, Col: []int32{2}, Val: []int16{1}},
		{N: 2, RowPtr: []int32{0, 1, 1}, Col: []int32{1}, Val: []int16{-1}},
	}
	for i, a := range bad {
		if err := a.Check(); err == nil {
			t.Errorf("bad CSR %d accepted", i)
		}
	}
	d[4] = -2
	if _, err := CSRFromDense(30, d); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative entry: %v", err)
	}
}

// TestUnavailable checks that without a GPU every entry point returns an
// error matching driver.ErrUnavailable and never panics.
func TestUnavailable(t *testing.T) {
	if gpuCount() > 0 {
		t.Skip("a CUDA device is present")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	a := minplus.Random(r, 10, 0.2)
	csr, _ := CSRFromDense(10, a)
	if _, err := product(ctx, NamePaper, 10, a, a, nil); !errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("Paper: %v", err)
	}
	if _, err := product(ctx, NameFast, 10, a, a, nil); !errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("Fast: %v", err)
	}
	if _, err := productCSR(ctx, csr, a, nil); !errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("Sparse: %v", err)
	}
	for _, name := range names() {
		if s, err := NewSession(ctx, name, csr, minplus.SessionOptions{}); s != nil || !errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("NewSession(%s): %v", name, err)
		}
	}
}

// TestArgumentChecks: malformed arguments are refused before any device
// work, with errors that are not ErrUnavailable.
func TestArgumentChecks(t *testing.T) {
	ctx := context.Background()
	ok := make([]int16, 9)
	notUnavailable := func(what string, err error) {
		t.Helper()
		if err == nil || errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err := product(ctx, NamePaper, 3, ok, make([]int16, 8), nil)
	notUnavailable("Paper with a short B", err)
	_, err = product(ctx, NameFast, 3, make([]int16, 10), ok, nil)
	notUnavailable("Fast with a long A", err)
	_, err = product(ctx, NameFast, -1, nil, nil, nil)
	notUnavailable("Fast n=-1", err)
	_, err = productCSR(ctx, &minplus.CSR{N: 3, RowPtr: []int32{0, 0, 0, 0}}, make([]int16, 8), nil)
	notUnavailable("Sparse with a short B", err)
	_, err = productCSR(ctx, &minplus.CSR{N: 3}, ok, nil)
	notUnavailable("Sparse with a malformed CSR", err)
	_, err = NewSession(ctx, "cuda/other", &minplus.CSR{N: 3, RowPtr: []int32{0, 0, 0, 0}}, minplus.SessionOptions{})
	notUnavailable("NewSession of an unknown implementation", err)
	_, err = NewSession(ctx, NameFast, &minplus.CSR{N: 0, RowPtr: []int32{0}}, minplus.SessionOptions{})
	notUnavailable("NewSession of an empty matrix", err)
}

func TestPlans(t *testing.T) {
	const gib = 1 << 30
	for _, name := range []string{NamePaper, NameFast} {
		p, err := Plan(name, 8568, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.Total(), 3*denseBytes(8568)+flagBytes; got != want {
			t.Errorf("%s plan %d bytes, want %d", name, got, want)
		}
	}
	p, err := Plan(NameSparse, 1000, 5000)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Total(), 2*denseBytes(1000)+4*1001+6*5000+flagBytes; got != want {
		t.Errorf("sparse plan %d bytes, want %d", got, want)
	}
	if _, err := Plan("cuda/other", 10, 0); err == nil {
		t.Error("unknown implementation planned")
	}
	// m = 13: n = 131,562. Two dense powers are 2 x 34.6 GB: the sparse
	// session fits an 80 GB H100 (about 79 GiB free), the dense ones do not.
	const n13, nnz13 = 131562, 131562 * 12
	sp, err := SessionPlan(NameSparse, n13, nnz13)
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.Fits(sp, 79*gib, nil); err != nil {
		t.Errorf("m=13 sparse session must fit 79 GiB: %v", err)
	}
	dp, err := SessionPlan(NameFast, n13, nnz13)
	if err != nil {
		t.Fatal(err)
	}
	err = cuda.Fits(dp, 79*gib, nil)
	if err == nil {
		t.Fatal("m=13 dense session must not fit 79 GiB")
	}
	for _, want := range []string{"does not fit", "needs 103", "are free", "session.a"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}
	if _, err := SessionPlan("cpu/paper", 10, 0); err == nil {
		t.Error("unknown implementation planned")
	}
}

// TestSessionMemoryLimit: a session whose plan exceeds the caller's memory
// limit is refused, with the bytes needed and the limit, before any device
// work (so also without a GPU).
func TestSessionMemoryLimit(t *testing.T) {
	a := randomCSR(rand.New(rand.NewPCG(9, 9)), 100, 3)
	plan, err := SessionPlan(NameSparse, a.N, a.NNZ())
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewSession(context.Background(), NameSparse, a, minplus.SessionOptions{MemoryLimit: plan.Total() - 1})
	if err == nil || errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("session over the memory limit: %v", err)
	}
}
