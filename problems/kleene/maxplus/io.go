package maxplus

import (
	"fmt"
	"io"
	"math"

	"github.com/semibench/semibench/internal/sysmem"
	"github.com/semibench/semibench/mtx"
)

// ReadMatrixMarket reads a square matrix from a Matrix Market file
// (coordinate or array, real or integer, general). name is used in error
// messages. It refuses a size whose matrix and closure (2 Bytes(n)) exceed
// AvailableMemory, before allocating; see ReadMatrixMarketLimit.
func ReadMatrixMarket(r io.Reader, name string) (*Matrix, error) {
	return ReadMatrixMarketLimit(r, name, AvailableMemory())
}

// ReadMatrixMarketLimit is ReadMatrixMarket with an explicit memory limit in
// bytes (0: no limit). The size is refused when two dense matrices of it
// (the input and its closure) would exceed limit.
//
// A coordinate line "i j w" sets X_ij = w, the arc j -> i; entries not
// listed are ε. Values are rounded once to float32; values beyond the
// float32 range are refused, -Inf (and anything at or below -FLT_MAX) reads
// as ε. A cell listed twice is an error naming both lines (mtx.ErrDuplicate).
func ReadMatrixMarketLimit(r io.Reader, name string, limit uint64) (*Matrix, error) {
	s, err := mtx.NewScanner(r, name)
	if err != nil {
		return nil, err
	}
	s.SetBitSize(32)
	h := s.Header()
	if h.Rows != h.Cols {
		return nil, s.Errorf("matrix is %d x %d, a max-plus adjacency matrix must be square", h.Rows, h.Cols)
	}
	n := h.Rows
	need := 2 * Bytes(n)
	if limit > 0 && need > limit {
		return nil, s.Errorf("n=%d: the dense matrix and its closure need %s (2 x 4 x %d² bytes), only %s available",
			n, humanBytes(need), n, humanBytes(limit))
	}
	if need > maxBytes {
		return nil, s.Errorf("n=%d: the dense matrix and its closure need %s, beyond any machine", n, humanBytes(need))
	}
	m := New(n)
	for {
		e, err := s.Next()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
		if math.IsInf(e.V, 1) {
			return nil, s.Errorf("entry (%d, %d) is +Inf: a max-plus weight must be finite", e.I+1, e.J+1)
		}
		v := float32(e.V)
		if v <= Epsilon {
			continue
		}
		if p := &m.Val[e.I*n+e.J]; v > *p {
			*p = v
		}
	}
}

// WriteMatrixMarket writes m as a coordinate real general file: every entry
// above ε (the diagonal's e = 0 included when present), sorted by (i, j),
// 1-based, each value the shortest decimal that reads back as the same
// float32. Entries of -Inf read as ε and are left out too; +Inf and NaN
// entries (an overflowed closure) are refused.
func WriteMatrixMarket(w io.Writer, m *Matrix) error {
	n, nnz := m.N, 0
	for k, v := range m.Val {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 1) {
			return fmt.Errorf("maxplus: entry (%d, %d) is %v: not writable as a max-plus weight", k/n+1, k%n+1, v)
		}
		if v > Epsilon {
			nnz++
		}
	}
	mw, err := mtx.NewWriter(w, n, n, nnz, fmt.Sprintf("max-plus matrix, n=%d: a line \"i j w\" is [X]_ij = w, the arc j -> i; absent entries are ε", n))
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		for j, v := range m.Val[i*n : i*n+n] {
			if v > Epsilon {
				if err := mw.Write32(i, j, v); err != nil {
					return err
				}
			}
		}
	}
	return mw.Close()
}

// AvailableMemory returns the bytes the Linux kernel reports as available to
// new allocations (MemAvailable in /proc/meminfo), or 0 where unknown.
func AvailableMemory() uint64 { return sysmem.Available() }

// maxBytes bounds allocations when the available memory is unknown.
const maxBytes = 1 << 46

func humanBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", b)
}
