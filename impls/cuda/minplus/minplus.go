package cudaminplus

import (
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// Inf and MaxN are problems/minplus's.
const (
	Inf  = minplus.Inf
	MaxN = minplus.MaxN
)

// Implementation names, as experiments list them.
const (
	NamePaper  = "cuda/paper"
	NameFast   = "cuda/fast"
	NameSparse = "cuda/sparse"
)

// Phases reported to a bench.Recorder by the one-shot products (Impl.Mul);
// total is the window around the product's launch and
// synchronisation.
const (
	PhaseH2D     = "h2d"     // uploads and conversion to the padded layout (outside total)
	PhaseProduct = "product" // the product kernel, timed with CUDA events (inside total)
	PhaseD2H     = "d2h"     // unpadding and the result back to the host (outside total)
)

// module is the kernel source, kernels/minplus.cu.
const module = "minplus"

// Align is the granularity of the padded leading dimension on the device,
// in entries: rows start on 16-byte boundaries.
const Align = 8

// LeadingDim returns the padded leading dimension of an n x n matrix on the
// device: n rounded up to a multiple of Align. The padding columns hold Inf.
func LeadingDim(n int) int { return (n + Align - 1) / Align * Align }

// clampedVal returns a's values with everything at or above Inf set to Inf.
func clampedVal(a *minplus.CSR) []int16 {
	out := make([]int16, len(a.Val))
	for p, v := range a.Val {
		out[p] = min(v, Inf)
	}
	return out
}

// CSRFromDense compresses an n x n row-major matrix, keeping the entries
// below Inf. Negative entries are refused.
func CSRFromDense(n int, d []int16) (*minplus.CSR, error) {
	if err := checkDense(n, d, "A"); err != nil {
		return nil, err
	}
	a := &minplus.CSR{N: n, RowPtr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		for j, v := range d[i*n : (i+1)*n] {
			if v < 0 {
				return nil, fmt.Errorf("minplus: entry (%d, %d) = %d is negative", i, j, v)
			}
			if v < Inf {
				a.Col = append(a.Col, int32(j))
				a.Val = append(a.Val, v)
			}
		}
		a.RowPtr[i+1] = int32(len(a.Col))
	}
	return a, nil
}

// checkDense checks the shape of a dense operand; its values are checked
// on the device.
func checkDense(n int, d []int16, name string) error {
	if n < 0 || n > MaxN {
		return fmt.Errorf("minplus: order n=%d outside [0, %d]", n, MaxN)
	}
	if len(d) != n*n {
		return fmt.Errorf("minplus: %s has %d entries, want n² = %d for n=%d", name, len(d), n*n, n)
	}
	return nil
}

// denseBytes is the size of one padded n x n matrix on the device.
func denseBytes(n int) uint64 { return 2 * uint64(n) * uint64(LeadingDim(n)) }

// csrBuffers are the device buffers of a CSR matrix.
func csrBuffers(prefix string, n, nnz int) []cuda.Buffer {
	return []cuda.Buffer{
		{Name: prefix + ".ptr", Bytes: 4 * uint64(n+1)},
		{Name: prefix + ".idx", Bytes: 4 * uint64(max(nnz, 1))},
		{Name: prefix + ".val", Bytes: 2 * uint64(max(nnz, 1))},
	}
}

// flagBytes holds the negative-entry flag and the statistics.
const flagBytes = 64

// Plan returns the device memory of one product C = A ⊗ B of order n by
// the named implementation (nnz is A's entry count, for cuda/sparse): the
// padded operands and result (the result buffer also receives the raw
// uploads), A in CSR for cuda/sparse, and a flag word.
func Plan(name string, n, nnz int) (cuda.Plan, error) {
	p := cuda.Plan{What: fmt.Sprintf("%s n=%d", name, n)}
	d := denseBytes(n)
	switch name {
	case NamePaper, NameFast:
		p.Buffers = []cuda.Buffer{{Name: "minplus.a", Bytes: d}, {Name: "minplus.b", Bytes: d}, {Name: "minplus.c", Bytes: d}}
	case NameSparse:
		p.What = fmt.Sprintf("%s n=%d nnz=%d", name, n, nnz)
		p.Buffers = append(csrBuffers("minplus.csr", n, nnz), cuda.Buffer{Name: "minplus.b", Bytes: d}, cuda.Buffer{Name: "minplus.c", Bytes: d})
	default:
		return cuda.Plan{}, fmt.Errorf("minplus: unknown implementation %q (want one of %s, %s, %s)", name, NamePaper, NameFast, NameSparse)
	}
	p.Buffers = append(p.Buffers, cuda.Buffer{Name: "minplus.flag", Bytes: flagBytes})
	return p, nil
}

// denseBuffers are the device buffers of a dense product (Plan of
// cuda/paper or cuda/fast).
type denseBuffers struct {
	A    driver.DevicePtr `buf:"minplus.a"`
	B    driver.DevicePtr `buf:"minplus.b"`
	C    driver.DevicePtr `buf:"minplus.c"`
	Flag driver.DevicePtr `buf:"minplus.flag"`
}

// sparseBuffers are the device buffers of a cuda/sparse product (Plan).
type sparseBuffers struct {
	CSRPtr driver.DevicePtr `buf:"minplus.csr.ptr"`
	CSRIdx driver.DevicePtr `buf:"minplus.csr.idx"`
	CSRVal driver.DevicePtr `buf:"minplus.csr.val"`
	B      driver.DevicePtr `buf:"minplus.b"`
	C      driver.DevicePtr `buf:"minplus.c"`
	Flag   driver.DevicePtr `buf:"minplus.flag"`
}

// sessionBuffers are a Session's device buffers (SessionPlan); cuda/sparse
// keeps no dense A.
type sessionBuffers struct {
	CSRPtr driver.DevicePtr `buf:"session.csr.ptr"`
	CSRIdx driver.DevicePtr `buf:"session.csr.idx"`
	CSRVal driver.DevicePtr `buf:"session.csr.val"`
	A      driver.DevicePtr `buf:"session.a,optional"`
	P0     driver.DevicePtr `buf:"session.p0"`
	P1     driver.DevicePtr `buf:"session.p1"`
	Stats  driver.DevicePtr `buf:"session.stats"`
}

// SessionPlan returns the device memory of a Session of the named
// implementation for an n x n matrix A with nnz entries: A in CSR, the two
// powers that alternate (ping-pong), the statistics, and for the dense
// implementations A dense as well. For m = 13 (n = 131,562) cuda/sparse
// needs two powers, 2 x 34.6 GB, where the dense ones need three.
func SessionPlan(name string, n, nnz int) (cuda.Plan, error) {
	d := denseBytes(n)
	p := cuda.Plan{What: fmt.Sprintf("%s session n=%d nnz=%d", name, n, nnz)}
	p.Buffers = csrBuffers("session.csr", n, nnz)
	switch name {
	case NamePaper, NameFast:
		p.Buffers = append(p.Buffers, cuda.Buffer{Name: "session.a", Bytes: d})
	case NameSparse:
	default:
		return cuda.Plan{}, fmt.Errorf("minplus: unknown implementation %q (want one of %s, %s, %s)", name, NamePaper, NameFast, NameSparse)
	}
	p.Buffers = append(p.Buffers, cuda.Buffer{Name: "session.p0", Bytes: d}, cuda.Buffer{Name: "session.p1", Bytes: d},
		cuda.Buffer{Name: "session.stats", Bytes: flagBytes})
	return p, nil
}
