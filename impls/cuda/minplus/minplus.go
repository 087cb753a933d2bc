package cudaminplus

import (
	"errors"
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
)

// Inf is the (min,+) infinity, 9999 as in the paper; entries at or above it
// mean ∞.
const Inf int16 = 9999

// MaxN is the largest matrix order accepted (the CSR arrays and kernel
// arguments are 32-bit; no device holds a dense matrix near it anyway).
const MaxN = 1 << 24

// Implementation names, as experiments list them.
const (
	NamePaper  = "cuda/paper"
	NameFast   = "cuda/fast"
	NameSparse = "cuda/sparse"
)

// Names lists the implementations.
var Names = []string{NamePaper, NameFast, NameSparse}

// Phases reported to a bench.Recorder by the one-shot products (Paper,
// Fast, Sparse); total is the window around the product's launch and
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

// CSR is a sparse n x n (min,+) matrix in compressed sparse rows: row i
// holds the entries (i, Idx[p], Val[p]) for p in [Ptr[i], Ptr[i+1]); absent
// entries are ∞. A column given twice keeps its minimum.
type CSR struct {
	N   int
	Ptr []int32 // N+1 row starts, Ptr[0] = 0, non-decreasing
	Idx []int32 // column of each entry, in [0, N)
	Val []int16 // value of each entry, non-negative; Inf or more is ∞
}

// NNZ returns the number of stored entries.
func (a *CSR) NNZ() int { return len(a.Idx) }

// Check reports the first structural fault of a, or a negative value.
func (a *CSR) Check() error {
	if a == nil {
		return errors.New("minplus: nil CSR matrix")
	}
	if a.N < 0 || a.N > MaxN {
		return fmt.Errorf("minplus: CSR order %d outside [0, %d]", a.N, MaxN)
	}
	if len(a.Ptr) != a.N+1 {
		return fmt.Errorf("minplus: CSR of order %d has %d row pointers, want %d", a.N, len(a.Ptr), a.N+1)
	}
	if len(a.Idx) != len(a.Val) {
		return fmt.Errorf("minplus: CSR has %d column indices but %d values", len(a.Idx), len(a.Val))
	}
	if a.Ptr[0] != 0 || int(a.Ptr[a.N]) != len(a.Idx) {
		return fmt.Errorf("minplus: CSR row pointers run from %d to %d, want 0 to %d", a.Ptr[0], a.Ptr[a.N], len(a.Idx))
	}
	for i := 0; i < a.N; i++ {
		if a.Ptr[i+1] < a.Ptr[i] {
			return fmt.Errorf("minplus: CSR row pointer %d (%d) is below row pointer %d (%d)", i+1, a.Ptr[i+1], i, a.Ptr[i])
		}
	}
	for i := 0; i < a.N; i++ {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			if j := a.Idx[p]; j < 0 || int(j) >= a.N {
				return fmt.Errorf("minplus: CSR entry %d of row %d has column %d outside [0, %d)", p, i, j, a.N)
			}
			if a.Val[p] < 0 {
				return fmt.Errorf("minplus: CSR entry (%d, %d) = %d is negative", i, a.Idx[p], a.Val[p])
			}
		}
	}
	return nil
}

// clampedVal returns a's values with everything at or above Inf set to Inf.
func (a *CSR) clampedVal() []int16 {
	out := make([]int16, len(a.Val))
	for p, v := range a.Val {
		out[p] = min(v, Inf)
	}
	return out
}

// CSRFromDense compresses an n x n row-major matrix, keeping the entries
// below Inf. Negative entries are refused.
func CSRFromDense(n int, d []int16) (*CSR, error) {
	if err := checkDense(n, d, "A"); err != nil {
		return nil, err
	}
	a := &CSR{N: n, Ptr: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		for j, v := range d[i*n : (i+1)*n] {
			if v < 0 {
				return nil, fmt.Errorf("minplus: entry (%d, %d) = %d is negative", i, j, v)
			}
			if v < Inf {
				a.Idx = append(a.Idx, int32(j))
				a.Val = append(a.Val, v)
			}
		}
		a.Ptr[i+1] = int32(len(a.Idx))
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

// DenseUpdates returns the (min,+) updates of one dense product of order n:
// n³.
func DenseUpdates(n int) float64 { return float64(n) * float64(n) * float64(n) }

// SparseUpdates returns the updates of one CSR x dense product: nnz·n.
func SparseUpdates(n, nnz int) float64 { return float64(nnz) * float64(n) }

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
		return cuda.Plan{}, fmt.Errorf("minplus: unknown implementation %q (want one of %v)", name, Names)
	}
	p.Buffers = append(p.Buffers, cuda.Buffer{Name: "minplus.flag", Bytes: flagBytes})
	return p, nil
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
		return cuda.Plan{}, fmt.Errorf("minplus: unknown implementation %q (want one of %v)", name, Names)
	}
	p.Buffers = append(p.Buffers, cuda.Buffer{Name: "session.p0", Bytes: d}, cuda.Buffer{Name: "session.p1", Bytes: d},
		cuda.Buffer{Name: "session.stats", Bytes: flagBytes})
	return p, nil
}
