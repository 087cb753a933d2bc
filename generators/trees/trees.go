package trees

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/semibench/semibench/internal/digest"
	"github.com/semibench/semibench/problems/treefix"
)

// Stream selectors (the second PCG seed word) of the package's draws, so
// that the shape, the numbering and the weights of a tree are independent.
const (
	StreamShape   uint64 = 0x7368617065 // "shape"
	StreamNumber  uint64 = 0x6e756d62   // "numb"
	StreamWeights uint64 = 0x77676874   // "wght"
)

// ErrSize reports a size or shape parameter out of range.
var ErrSize = errors.New("tree size out of range")

// Tree is a rooted tree: Parent[v] is the parent of v, -1 for the root, and
// Weight[v] its weight.
type Tree struct {
	Parent []int32
	Weight []float64
}

// N returns the number of vertices.
func (t *Tree) N() int { return len(t.Parent) }

// Root returns the root's id, or -1 when there is none.
func (t *Tree) Root() int32 {
	for v, p := range t.Parent {
		if p < 0 {
			return int32(v)
		}
	}
	return -1
}

// Hash is the content digest of the parent array (little-endian int32s)
// followed by the weights (little-endian float64 bits): see
// internal/digest.
func (t *Tree) Hash() string { return digest.Sum(digest.Bytes(t.Parent), digest.Bytes(t.Weight)) }

func checkN(n int) error {
	if n < 1 || n > treefix.MaxN {
		return fmt.Errorf("%w: n=%d (want 1..%d)", ErrSize, n, treefix.MaxN)
	}
	return nil
}

// Star returns the star of n vertices: vertex 0 is the root and the parent
// of every other vertex (average branching factor n). Weights are zero;
// set them with IntWeights or FloatWeights.
func Star(n int) (*Tree, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	t := &Tree{Parent: make([]int32, n), Weight: make([]float64, n)}
	t.Parent[0] = -1
	return t, nil
}

// Caterpillar returns the linked list of n vertices (the paper's
// caterpillar): vertex v's parent is v-1, vertex 0 is the root.
func Caterpillar(n int) (*Tree, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	t := &Tree{Parent: make([]int32, n), Weight: make([]float64, n)}
	for v := range t.Parent {
		t.Parent[v] = int32(v) - 1
	}
	return t, nil
}

// Profile is how Random spreads the vertices over the levels.
type Profile int

const (
	// Uniform gives every level below the root about the same number of
	// vertices.
	Uniform Profile = iota
	// Bell gives the middle levels the most vertices and the first and last
	// few levels few, the shape of breadth-first spanning trees of meshes
	// (the paper's Fig. 6).
	Bell
)

// Random returns a random tree of n vertices on exactly levels levels
// (1 <= levels <= n): vertex 0 is the root, level sizes follow the profile
// (each level at least one vertex), and every vertex below the root picks
// its parent uniformly among the vertices of the level above. Vertices are
// numbered level by level (breadth-first); renumber with Renumber. The
// average branching factor is n / levels.
func Random(n, levels int, profile Profile, seed uint64) (*Tree, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	if levels < 1 || levels > n {
		return nil, fmt.Errorf("%w: %d levels for %d vertices", ErrSize, levels, n)
	}
	sizes := levelSizes(n, levels, profile)
	rng := rand.New(rand.NewPCG(seed, StreamShape))
	t := &Tree{Parent: make([]int32, n), Weight: make([]float64, n)}
	t.Parent[0] = -1
	prevStart, prevSize, next := 0, 1, 1
	for _, s := range sizes[1:] {
		for v := next; v < next+s; v++ {
			t.Parent[v] = int32(prevStart + rng.IntN(prevSize))
		}
		prevStart, prevSize = next, s
		next += s
	}
	return t, nil
}

// levelSizes splits n vertices over levels levels: level 0 holds the root,
// each other level at least one vertex, the rest by the profile's weights.
func levelSizes(n, levels int, profile Profile) []int {
	sizes := make([]int, levels)
	sizes[0] = 1
	if levels == 1 {
		return sizes
	}
	rest := n - levels // vertices beyond one per level
	wts := make([]float64, levels-1)
	var total float64
	for i := range wts {
		w := 1.0
		if profile == Bell {
			w = math.Sin(math.Pi * (float64(i) + 0.5) / float64(len(wts)))
		}
		wts[i] = w
		total += w
	}
	given := 0
	for i, w := range wts {
		k := int(float64(rest) * w / total)
		sizes[i+1] = 1 + k
		given += k
	}
	for i := 0; given < rest; i = (i + 1) % len(wts) {
		sizes[1+(i+len(wts)/2)%len(wts)]++
		given++
	}
	return sizes
}

// Stats are the shape numbers of the paper's Table I.
type Stats struct {
	N         int
	Depth     int     // number of levels (a lone root has depth 1)
	Branching float64 // average branching factor N / Depth, as Table I
	MaxWidth  int     // vertices on the widest level
}

// Levels returns the level (0 for the root) of every vertex, or an error
// when the parent array is not a tree (see treefix.Validate).
func Levels(parent []int32) ([]int32, error) {
	order, err := treefix.BFSOrder(parent)
	if err != nil {
		return nil, err
	}
	lv := make([]int32, len(parent))
	for _, v := range order {
		if p := parent[v]; p >= 0 {
			lv[v] = lv[p] + 1
		}
	}
	return lv, nil
}

// ShapeStats computes n, depth, average branching factor and widest level.
func ShapeStats(parent []int32) (Stats, error) {
	lv, err := Levels(parent)
	if err != nil {
		return Stats{}, err
	}
	var width []int
	for _, l := range lv {
		for int(l) >= len(width) {
			width = append(width, 0)
		}
		width[l]++
	}
	s := Stats{N: len(parent), Depth: len(width)}
	for _, w := range width {
		s.MaxWidth = max(s.MaxWidth, w)
	}
	if s.Depth > 0 {
		s.Branching = float64(s.N) / float64(s.Depth)
	}
	return s, nil
}

// IntWeights sets every weight to an integer uniform in [-max, max].
func IntWeights(t *Tree, maxAbs int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, StreamWeights))
	for v := range t.Weight {
		t.Weight[v] = float64(rng.IntN(2*maxAbs+1) - maxAbs)
	}
}

// FloatWeights sets every weight to a float32-representable value uniform
// in [0, 1), so float32 and float64 runs start from the same numbers.
func FloatWeights(t *Tree, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, StreamWeights))
	for v := range t.Weight {
		t.Weight[v] = float64(float32(rng.Float64()))
	}
}
