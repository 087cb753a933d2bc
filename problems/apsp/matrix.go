package apsp

import "fmt"

// Matrix is a dense n×n matrix in row-major order: element (i, j), 0-based,
// is Data[i*N+j]. For a graph, (i, j) is the weight of the arc i -> j.
type Matrix[T any] struct {
	N    int
	Data []T
}

// NewMatrix returns an n×n matrix with every element set to fill.
func NewMatrix[T any](n int, fill T) *Matrix[T] {
	d := make([]T, n*n)
	for i := range d {
		d[i] = fill
	}
	return &Matrix[T]{N: n, Data: d}
}

// At returns element (i, j), 0-based.
func (m *Matrix[T]) At(i, j int) T { return m.Data[i*m.N+j] }

// Set sets element (i, j), 0-based.
func (m *Matrix[T]) Set(i, j int, v T) { m.Data[i*m.N+j] = v }

// Row returns row i as a slice of Data.
func (m *Matrix[T]) Row(i int) []T { return m.Data[i*m.N : (i+1)*m.N] }

// Clone returns a deep copy.
func (m *Matrix[T]) Clone() *Matrix[T] {
	return &Matrix[T]{N: m.N, Data: append([]T(nil), m.Data...)}
}

// Check reports a nil matrix or one whose Data does not hold N² elements.
func (m *Matrix[T]) Check() error {
	if m == nil {
		return fmt.Errorf("apsp: nil matrix")
	}
	if m.N < 0 || len(m.Data) != m.N*m.N {
		return fmt.Errorf("apsp: matrix of order %d holds %d elements, want %d", m.N, len(m.Data), m.N*m.N)
	}
	return nil
}
