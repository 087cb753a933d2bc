package cudaminplus

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/domination"
	"github.com/semibench/semibench/problems/minplus"
)

// TestDiffPlanBinds binds DiffPlan to the struct NewDiffer reads, without
// a GPU, and refuses an order out of range.
func TestDiffPlanBinds(t *testing.T) {
	for _, n := range []int{1, 7, 4096} {
		p, err := DiffPlan(n)
		if err != nil {
			t.Fatal(err)
		}
		var b diffBuffers
		var next driver.DevicePtr
		if err := cuda.BindWith(p, &b, func(cuda.Buffer) (driver.DevicePtr, error) { next += 256; return next, nil }); err != nil {
			t.Errorf("%v", err)
		}
		if b.X == 0 || b.Y == 0 || b.D == 0 || b.Summary == 0 {
			t.Errorf("%s: a buffer is unbound: %+v", p.What, b)
		}
		if want := 3*minplus.Bytes(n) + diffSummaryBytes; p.Total() != want {
			t.Errorf("%s: %d bytes, want %d", p.What, p.Total(), want)
		}
	}
	for _, n := range []int{0, MaxN + 1} {
		if _, err := DiffPlan(n); err == nil {
			t.Errorf("DiffPlan(%d): no error", n)
		}
	}
	if _, err := NewDiffer(context.Background(), 100, minplus.SessionOptions{MemoryLimit: 1000}); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("NewDiffer beyond the memory limit: %v", err)
	}
}

// TestDecodeDiffSummary reads a summary buffer as minplus_diff_summary
// leaves it: seeded values where no entry was finite, negative minima.
func TestDecodeDiffSummary(t *testing.T) {
	enc := func(finite uint64, mn, mx int32, one uint32) [20]byte {
		var b [20]byte
		le := binary.LittleEndian
		le.PutUint64(b[0:], finite)
		le.PutUint32(b[8:], uint32(mn))
		le.PutUint32(b[12:], uint32(mx))
		le.PutUint32(b[16:], one)
		return b
	}
	empty := minplus.SummarizeDiff(nil)
	for _, c := range []struct {
		raw  [20]byte
		want minplus.DiffSummary
	}{
		{enc(0, 0x7fffffff, -0x80000000, 0), empty},
		{enc(0, 0x7fffffff, -0x80000000, 1), minplus.DiffSummary{OneInf: true, Min: empty.Min, Max: empty.Max}},
		{enc(12, -3, 5, 0), minplus.DiffSummary{Finite: 12, Min: -3, Max: 5}},
		{enc(1<<40, 7, 7, 1), minplus.DiffSummary{OneInf: true, Finite: 1 << 40, Min: 7, Max: 7}},
	} {
		if got := decodeDiffSummary(c.raw); got != c.want {
			t.Errorf("decode %v = %+v, want %+v", c.raw, got, c.want)
		}
	}
}

// TestDifferWithoutDevice: without a driver or GPU, NewDiffer fails with
// driver.ErrUnavailable (the runner's "unavailable").
func TestDifferWithoutDevice(t *testing.T) {
	if gpuCount() > 0 {
		t.Skip("a CUDA device is present")
	}
	if _, err := NewDiffer(context.Background(), 10, minplus.SessionOptions{}); !errors.Is(err, driver.ErrUnavailable) {
		t.Errorf("NewDiffer without a device: %v, want driver.ErrUnavailable", err)
	}
}

// hostSummary is the host's difference matrix of x - y and its summary,
// and the host scan's verdict (problems/domination's constDiff).
func hostSummary(x, y *minplus.Dense) (minplus.DiffSummary, int, bool) {
	d := make([]int16, x.N*x.N)
	minplus.Difference(d, x, y, 1)
	c, ok := minplus.Constant(d)
	return minplus.SummarizeDiff(d), c, ok
}

// checkDiffer compares the device's summary and ConstDiff of x - y with
// the host's.
func checkDiffer(t *testing.T, d *Differ, what string, x, y *minplus.Dense) bool {
	t.Helper()
	ctx := context.Background()
	want, wc, wok := hostSummary(x, y)
	got, err := d.Summary(ctx, x, y)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got != want {
		t.Errorf("%s: device summary %+v, host %+v", what, got, want)
	}
	c, ok, err := d.ConstDiff(ctx, x, y)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if c != wc || ok != wok {
		t.Errorf("%s: device ConstDiff %d, %v; host constDiff %d, %v", what, c, ok, wc, wok)
	}
	return ok
}

// TestGPUDiffer holds the device's difference and summary against the
// host's on random matrices with infinite entries (Inf and the values
// above it), shifted copies (constant) and copies with one entry changed,
// and on every pair of the first powers of A(D_m) for small m, whose
// recurrences make some pairs constant.
func TestGPUDiffer(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(23, 5))
	for _, n := range []int{1, 2, 33, 257, 1000} {
		d, err := NewDiffer(ctx, n, minplus.SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for trial, inf := range []float64{0, 0.3, 0.97, 1, 0.3, 0.3} {
			y := &minplus.Dense{N: n, Data: minplus.Random(r, n, inf)}
			x := &minplus.Dense{N: n, Data: minplus.Random(r, n, inf)}
			if trial >= 4 { // y shifted by a constant, then one entry changed
				x = y.Clone()
				for i, v := range x.Data {
					if v < Inf {
						x.Data[i] = v + 3
					}
				}
				if trial == 5 {
					x.Data[r.IntN(n*n)] = Inf
				}
			}
			checkDiffer(t, d, fmt.Sprintf("random n=%d inf=%g trial %d", n, inf, trial), x, y)
		}
		if d.Pairs() != 12 {
			t.Errorf("n=%d: %d pairs counted, want 12", n, d.Pairs())
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := d.ConstDiff(ctx, minplus.NewDense(n), minplus.NewDense(n)); err == nil {
			t.Error("a closed Differ computed a difference")
		}
	}
	// K covers n0 + a (the paper's Table 4): the last powers repeat.
	for _, c := range []struct{ m, k int }{{2, 12}, {3, 16}, {4, 20}, {6, 31}} {
		m := c.m
		g, err := domination.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		a := g.Dense()
		pw := []*minplus.Dense{nil, a}
		for k := 2; k <= c.k; k++ {
			pw = append(pw, minplus.Reference(a, pw[k-1]))
		}
		d, err := NewDiffer(ctx, a.N, minplus.SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		constants := 0
		for i := 2; i < len(pw); i++ {
			for j := 1; j < i; j++ {
				if checkDiffer(t, d, fmt.Sprintf("m=%d: A^%d - A^%d", m, i, j), pw[i], pw[j]) {
					constants++
				}
			}
		}
		if constants == 0 {
			t.Errorf("m=%d: no pair of powers differs by a constant: only one verdict checked", m)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
