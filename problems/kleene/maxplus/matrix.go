package maxplus

import (
	"math"

	"github.com/semibench/semibench/internal/digest"
)

// Epsilon is the max-plus zero ε: -FLT_MAX, as in the paper's C code. Every
// value at or below it means "no path".
const Epsilon = -math.MaxFloat32

// Matrix is a dense n x n max-plus matrix, row-major: Val[i*N+j] = [X]_ij,
// the weight of the arc j -> i.
type Matrix struct {
	N   int
	Val []float32
}

// New returns the n x n matrix with every entry ε. It panics if n < 0, as
// make does.
func New(n int) *Matrix {
	m := &Matrix{N: n, Val: make([]float32, n*n)}
	for i := range m.Val {
		m.Val[i] = Epsilon
	}
	return m
}

// Identity returns the max-plus unit matrix e: 0 on the diagonal, ε
// elsewhere.
func Identity(n int) *Matrix {
	m := New(n)
	for i := 0; i < n; i++ {
		m.Val[i*n+i] = 0
	}
	return m
}

// Clone returns a deep copy of m.
func (m *Matrix) Clone() *Matrix {
	return &Matrix{N: m.N, Val: append([]float32(nil), m.Val...)}
}

// At returns [X]_ij, the weight of the arc j -> i (0-based).
func (m *Matrix) At(i, j int) float32 { return m.Val[i*m.N+j] }

// Set sets [X]_ij, the weight of the arc j -> i (0-based).
func (m *Matrix) Set(i, j int, v float32) { m.Val[i*m.N+j] = v }

// Arcs counts the off-diagonal entries above ε: the arcs of the graph,
// self-loops excluded.
func (m *Matrix) Arcs() int {
	n, arcs := m.N, 0
	for i := 0; i < n; i++ {
		row := m.Val[i*n : i*n+n]
		for j, v := range row {
			if v > Epsilon && j != i {
				arcs++
			}
		}
	}
	return arcs
}

// Hash returns the content digest of the entries' IEEE 754 bits,
// little-endian, row-major (internal/digest), for result files.
func (m *Matrix) Hash() string { return digest.Of(m.Val) }

// Bytes returns the memory of one dense n x n matrix: 4 n² bytes.
func Bytes(n int) uint64 {
	if n <= 0 {
		return 0
	}
	return 4 * uint64(n) * uint64(n)
}
