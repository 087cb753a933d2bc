package minplus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
)

// Inf is the (min,+) infinity, 9999 as in the paper; entries at or above
// it are infinite.
const Inf int16 = 9999

// MaxN is the largest matrix order a CSR may have (its arrays and the GPU
// kernels' arguments are 32-bit; no device holds a dense matrix near it
// anyway).
const MaxN = 1 << 24

// Dense is a square N x N matrix stored row-major.
type Dense struct {
	N    int
	Data []int16
}

// NewDense returns an N x N matrix filled with Inf.
func NewDense(n int) *Dense {
	d := &Dense{N: n, Data: make([]int16, n*n)}
	d.Fill(Inf)
	return d
}

// Fill sets every entry to v.
func (d *Dense) Fill(v int16) {
	for i := range d.Data {
		d.Data[i] = v
	}
}

// Row returns row i as a slice of length N.
func (d *Dense) Row(i int) []int16 { return d.Data[i*d.N : (i+1)*d.N] }

// At returns entry (i, j).
func (d *Dense) At(i, j int) int16 { return d.Data[i*d.N+j] }

// Clone returns a copy.
func (d *Dense) Clone() *Dense {
	return &Dense{N: d.N, Data: append([]int16(nil), d.Data...)}
}

// Bytes is the memory of an N x N int16 matrix.
func Bytes(n int) uint64 { return 2 * uint64(n) * uint64(n) }

// CSR is a square N x N matrix in compressed sparse rows: the entries of
// row i are Col[RowPtr[i]:RowPtr[i+1]] with values Val[...]; absent entries
// are Inf, and a column given twice keeps its minimum. FromDense gives
// increasing columns within a row.
type CSR struct {
	N      int
	RowPtr []int32 // N+1 row starts, RowPtr[0] = 0, non-decreasing
	Col    []int32 // column of each entry, in [0, N)
	Val    []int16 // value of each entry, non-negative; Inf or more is ∞

	derived sync.Map // key -> *derivedValue, see Derived; do not copy a used CSR
}

// derivedValue is one value of Derived, built once.
type derivedValue struct {
	once sync.Once
	v    any
}

// Derived returns what build computes from s, computed on the first call
// with key and kept with s for later calls (cpu/sparse's index of the arcs
// by band). s must not change once a value is derived from it.
func (s *CSR) Derived(key any, build func(*CSR) any) any {
	e, _ := s.derived.LoadOrStore(key, &derivedValue{})
	dv := e.(*derivedValue)
	dv.once.Do(func() { dv.v = build(s) })
	return dv.v
}

// NNZ is the number of stored entries.
func (s *CSR) NNZ() int { return len(s.Col) }

// ToDense expands s.
func (s *CSR) ToDense() *Dense {
	d := NewDense(s.N)
	for i := 0; i < s.N; i++ {
		row := d.Row(i)
		for p := s.RowPtr[i]; p < s.RowPtr[i+1]; p++ {
			row[s.Col[p]] = s.Val[p]
		}
	}
	return d
}

// FromDense compresses d, keeping the entries below Inf.
func FromDense(d *Dense) *CSR {
	s := &CSR{N: d.N, RowPtr: make([]int32, d.N+1)}
	for i := 0; i < d.N; i++ {
		for j, v := range d.Row(i) {
			if v < Inf {
				s.Col = append(s.Col, int32(j))
				s.Val = append(s.Val, v)
			}
		}
		s.RowPtr[i+1] = int32(len(s.Col))
	}
	return s
}

// Check reports the first structural fault of a, or a negative value.
func (s *CSR) Check() error {
	if s == nil {
		return errors.New("minplus: nil CSR matrix")
	}
	if s.N < 0 || s.N > MaxN {
		return fmt.Errorf("minplus: CSR order %d outside [0, %d]", s.N, MaxN)
	}
	if len(s.RowPtr) != s.N+1 {
		return fmt.Errorf("minplus: CSR of order %d has %d row pointers, want %d", s.N, len(s.RowPtr), s.N+1)
	}
	if len(s.Col) != len(s.Val) {
		return fmt.Errorf("minplus: CSR has %d column indices but %d values", len(s.Col), len(s.Val))
	}
	if s.RowPtr[0] != 0 || int(s.RowPtr[s.N]) != len(s.Col) {
		return fmt.Errorf("minplus: CSR row pointers run from %d to %d, want 0 to %d", s.RowPtr[0], s.RowPtr[s.N], len(s.Col))
	}
	for i := 0; i < s.N; i++ {
		if s.RowPtr[i+1] < s.RowPtr[i] {
			return fmt.Errorf("minplus: CSR row pointer %d (%d) is below row pointer %d (%d)", i+1, s.RowPtr[i+1], i, s.RowPtr[i])
		}
	}
	for i := 0; i < s.N; i++ {
		for p := s.RowPtr[i]; p < s.RowPtr[i+1]; p++ {
			if j := s.Col[p]; j < 0 || int(j) >= s.N {
				return fmt.Errorf("minplus: CSR entry %d of row %d has column %d outside [0, %d)", p, i, j, s.N)
			}
			if s.Val[p] < 0 {
				return fmt.Errorf("minplus: CSR entry (%d, %d) = %d is negative", i, s.Col[p], s.Val[p])
			}
		}
	}
	return nil
}

// CheckFinite reports an error when an entry lies outside [0, Inf], the
// range within which the products cannot overflow.
func CheckFinite(d *Dense) error {
	for i, v := range d.Data {
		if v < 0 || v > Inf {
			return fmt.Errorf("minplus: entry (%d, %d) = %d outside [0, %d]", i/d.N, i%d.N, v, Inf)
		}
	}
	return nil
}

// Reference sets c = a ⊗ b by the definition, in int: entries at or above
// Inf are ∞ and results clamp to Inf. It is the products' test reference.
func Reference(a, b *Dense) *Dense {
	n := a.N
	c := NewDense(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m := int(Inf)
			for k := 0; k < n; k++ {
				x, y := int(a.At(i, k)), int(b.At(k, j))
				if x >= int(Inf) || y >= int(Inf) {
					continue
				}
				m = min(m, x+y)
			}
			c.Data[i*n+j] = int16(min(m, int(Inf)))
		}
	}
	return c
}

// DenseUpdates returns the (min,+) updates of one dense product of order n:
// n³.
func DenseUpdates(n int) float64 { return float64(n) * float64(n) * float64(n) }

// SparseUpdates returns the updates of one CSR x dense product: nnz·n.
func SparseUpdates(n, nnz int) float64 { return float64(nnz) * float64(n) }

// Operand is the left factor A of a product, in the forms the
// implementations read: dense for the dense products (cpu/paper, cpu/fast,
// cuda/paper, cuda/fast), CSR for the sparse ones (cpu/sparse,
// cuda/sparse). Either may be nil when the implementation does not read it.
type Operand struct {
	Dense *Dense
	CSR   *CSR
}

// NewOperand holds a in both forms.
func NewOperand(a *Dense) *Operand { return &Operand{Dense: a, CSR: FromDense(a)} }

// Impl is one named (min,+) product implementation ("cpu/fast",
// "cuda/sparse", ...).
type Impl struct {
	Name string
	// Sparse says the product reads A in CSR (nnz(A)·N updates) rather than
	// dense (N³ updates).
	Sparse bool
	// Mul sets c = a ⊗ b, using up to threads goroutines on the CPU (0: all
	// CPUs). A CPU product refuses a c that aliases b. A GPU product runs on
	// the first device, its phases (see its package) into rec (nil: none).
	Mul func(ctx context.Context, c *Dense, a *Operand, b *Dense, threads int, rec *bench.Recorder) error
	// NewSession opens a Session of the powers of a on a device, for the
	// products that keep their powers there (nil for the CPU products,
	// whose powers Algorithm 2 keeps in host memory and multiplies by Mul).
	NewSession func(ctx context.Context, a *CSR, opt SessionOptions) (Session, error)
}

// Updates returns the (min,+) updates of one product by im of order n with
// nnz entries in A.
func (im Impl) Updates(n, nnz int) float64 {
	if im.Sparse {
		return SparseUpdates(n, nnz)
	}
	return DenseUpdates(n)
}

// SessionOptions configure a Session.
type SessionOptions struct {
	Device int // CUDA device ordinal (of the only slab, with GPUs <= 1)
	// GPUs splits the powers into that many column slabs, slab d on
	// device d of this host, each driven from its own goroutine (0 or 1:
	// one slab on Device). More than the devices present is refused.
	GPUs int
	// OneDevice places every slab on Device instead of one per GPU, to test
	// the slab logic on a machine with a single GPU.
	OneDevice bool
	// MemoryLimit caps the device memory the session may use (0: the
	// device's free memory); a session whose plan exceeds it is refused
	// before the device is touched.
	MemoryLimit uint64
}

// Session computes successive (min,+) powers A^k = A ⊗ A^(k-1) of one
// matrix A where it keeps them (a device): Algorithm 2's loop without
// moving the powers. Stats reduces the current power in place; Download
// fetches it whole only when asked. A Session is not safe for concurrent
// use.
type Session interface {
	// N returns the order of A.
	N() int
	// Power returns k, the exponent of the current power A^k.
	Power() int
	// Updates returns the (min,+) updates of one Step.
	Updates() float64
	// LastStep returns the time of the last Step.
	LastStep() time.Duration
	// Step computes the next power, A^(k+1) = A ⊗ A^k.
	Step(ctx context.Context) error
	// Stats reduces the current power A^k (see Stats).
	Stats(ctx context.Context) (Stats, error)
	// Download copies the current power A^k, n x n row-major, into dst.
	Download(ctx context.Context, dst []int16) error
	// Restart makes A^1 = A the current power again.
	Restart(ctx context.Context) error
	// SetPower makes src (n x n row-major, entries in [0, Inf]) the current
	// power, as A^k (k >= 1): a checkpointed power resumed. Later Steps
	// multiply it by A; Restart still returns to A^1.
	SetPower(ctx context.Context, k int, src []int16) error
	// Powers calls each with the Stats of the current power, then steps
	// and calls it again after every power until A^K; an error from each
	// stops the loop and is returned.
	Powers(ctx context.Context, K int, each func(Stats) error) error
	// Close frees the session; a closed session refuses every call.
	Close() error
}
