package systolic

import "fmt"

// Kind is a processor type of the paper's Fig. 2.
type Kind uint8

// The processor types.
const (
	A  Kind = iota // inner product step: c' = c ⊕ a⊗b (interior)
	BI             // input border, bottom-left edge: b' = a⊗b, reflected upward
	BO             // output border, top-left edge: c' = c⊗b, reflected down-right
	C              // top corner: c' = c*, reflected down-left
	DI             // input border, bottom-right edge and bottom corner: delay, reflect upward
	DO             // output border, top-right edge and right corner: delay, reflect down-left
	E              // left corner: delay, down-left turned into down-right
)

var kindNames = [...]string{"A", "BI", "BO", "C", "DI", "DO", "E"}

// String returns the paper's name of the type ("A", "B_I", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Computes reports whether processors of the kind compute (A, B_I, B_O,
// C) rather than only delay data (D_I, D_O, E).
func (k Kind) Computes() bool { return k <= C }

// Array is the (n+1)×(n+1) diamond GJE0 (or GJE1) for n×n matrices.
// Processor P(p, q), 0 ≤ p, q ≤ n, sits at height (p+q)/2 and horizontal
// position (p-q)·√3/2; see the package documentation for the geometry.
type Array struct {
	N     int // matrix order; the array has (N+1)² processors
	kinds []Kind
}

// NewArray returns the array for n×n matrices, n ≥ 1.
func NewArray(n int) (*Array, error) {
	if n < 1 {
		return nil, fmt.Errorf("systolic: matrix order %d, want at least 1", n)
	}
	s := n + 1
	a := &Array{N: n, kinds: make([]Kind, s*s)}
	for p := 0; p <= n; p++ {
		for q := 0; q <= n; q++ {
			a.kinds[p*s+q] = kindAt(n, p, q)
		}
	}
	return a, nil
}

func kindAt(n, p, q int) Kind {
	switch {
	case p == n && q == n:
		return C
	case p == 0 && q == n:
		return E
	case p == n: // top-right edge and the right corner (n, 0)
		return DO
	case q == n:
		return BO
	case q == 0: // bottom-right edge and the bottom corner (0, 0)
		return DI
	case p == 0:
		return BI
	}
	return A
}

// Kind returns the type of processor P(p, q).
func (a *Array) Kind(p, q int) Kind { return a.kinds[p*(a.N+1)+q] }

// Processors returns the number of processors, (n+1)².
func (a *Array) Processors() int { return len(a.kinds) }

// KindCounts returns the number of processors of each type.
func (a *Array) KindCounts() map[Kind]int {
	m := map[Kind]int{}
	for _, k := range a.kinds {
		m[k]++
	}
	return m
}

// Computing returns the number of processors that compute (A, B_I, B_O
// and C): n², the paper's count for the utilization.
func (a *Array) Computing() int {
	c := 0
	for _, k := range a.kinds {
		if k.Computes() {
			c++
		}
	}
	return c
}

// EntryStep returns the step, relative to the step at which c_11 is put
// on its input line, at which element c_ij (1-based) is put on the input
// line of its bottom-border processor: i + j + max(i, j) - 3. The entry
// processor handles it one step later. c_nn follows c_11 by 3(n-1) steps.
func EntryStep(i, j int) int { return i + j + max(i, j) - 3 }

// EntryProcessor returns the bottom-border processor (p, q) on whose input
// line c_ij (1-based) enters: the vertical line p - q = j - i.
func EntryProcessor(i, j int) (p, q int) {
	d := j - i
	return max(d, 0), max(-d, 0)
}
