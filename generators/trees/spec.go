package trees

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/problems/treefix"
)

// Shape names a generated tree's topology.
type Shape string

// The shapes of `semibench gen tree`: the paper's two extremes of Fig. 8
// and a random tree of a chosen number of levels.
const (
	ShapeStar        Shape = "star"        // Star: the root and n-1 leaves
	ShapeCaterpillar Shape = "caterpillar" // Caterpillar: a chain of n vertices
	ShapeRandom      Shape = "random"      // Random: random parents level by level
)

// WeightKind names how a generated tree's weights are drawn.
type WeightKind string

// The weight kinds of Spec.
const (
	IntWeightKind    WeightKind = "int"    // IntWeights, magnitude at most Spec.MaxWeight
	FloatWeightKind  WeightKind = "float"  // FloatWeights
	GenSumWeightKind WeightKind = "gensum" // GenSum of condition number Spec.Cond
)

// MaxIntWeight bounds Spec.MaxWeight: with n <= treefix.MaxN vertices every
// rootfix or leaffix sum stays below 2^61 in magnitude, within int64.
const MaxIntWeight = 1 << 31

// ParseProfile validates a profile name: "uniform" or "bell".
func ParseProfile(s string) (Profile, error) {
	switch s {
	case "uniform":
		return Uniform, nil
	case "bell":
		return Bell, nil
	}
	return 0, fmt.Errorf("unknown profile %q (valid: uniform, bell)", s)
}

func (p Profile) String() string {
	if p == Bell {
		return "bell"
	}
	return "uniform"
}

// Spec is a generated tree: its shape, numbering and weights, all drawn
// from Seed (the streams StreamShape, StreamNumber and StreamWeights or
// StreamGenSum, so each part is independent of the others).
type Spec struct {
	Shape     Shape
	N         int
	Levels    int     // ShapeRandom: levels, 1..N; 0 means round(sqrt(N))
	Profile   Profile // ShapeRandom: vertices per level
	Numbering Numbering
	Weights   WeightKind
	MaxWeight int64   // IntWeightKind: weights uniform in [-MaxWeight, MaxWeight]
	Cond      float64 // GenSumWeightKind: the sum's condition number
	Seed      uint64
}

// SpecError is a Spec field out of range; Option is the field's flag name
// in `semibench gen tree` ("shape", "n", "levels", "weights", ...).
type SpecError struct {
	Option, Msg string
}

func (e *SpecError) Error() string { return e.Option + ": " + e.Msg }

func specErr(option, format string, a ...any) error {
	return &SpecError{Option: option, Msg: fmt.Sprintf(format, a...)}
}

// levels returns the number of levels of a random tree, the default
// applied.
func (s Spec) levels() int {
	if s.Levels == 0 {
		return max(1, int(math.Round(math.Sqrt(float64(s.N)))))
	}
	return s.Levels
}

// Check validates the spec before any work; the error is a *SpecError.
func (s Spec) Check() error {
	switch s.Shape {
	case ShapeStar, ShapeCaterpillar, ShapeRandom:
	default:
		return specErr("shape", "unknown shape %q (valid: star, caterpillar, random)", s.Shape)
	}
	if s.N < 1 || s.N > treefix.MaxN {
		return specErr("n", "must be in 1..%d, got %d", treefix.MaxN, s.N)
	}
	if s.Shape == ShapeRandom && (s.levels() < 1 || s.levels() > s.N) {
		return specErr("levels", "must be in 1..%d (--n), got %d", s.N, s.Levels)
	}
	if _, err := ParseNumbering(string(s.Numbering)); err != nil {
		return specErr("numbering", "%v", err)
	}
	switch s.Weights {
	case IntWeightKind:
		if s.MaxWeight < 0 || s.MaxWeight > MaxIntWeight {
			return specErr("max-weight", "must be in 0..%d, got %d", MaxIntWeight, s.MaxWeight)
		}
	case FloatWeightKind:
	case GenSumWeightKind:
		if s.N < 4 || s.N > 1<<24 {
			return specErr("n", "must be in 4..%d with --weights gensum, got %d", 1<<24, s.N)
		}
		if !(s.Cond >= 10 && s.Cond <= 1e30) {
			return specErr("cond", "must be in [10, 1e30], got %g", s.Cond)
		}
	default:
		return specErr("weights", "unknown weights %q (valid: int, float, gensum)", s.Weights)
	}
	return nil
}

// Build generates the tree: the shape (vertices numbered breadth-first as
// generated), the numbering, then the weights. int and float weights are
// drawn in the final numbering's vertex order, as the timed experiments do;
// a gensum series runs along the generated order (root to leaf on a
// caterpillar) and its weights move with their vertices when renumbered,
// as in the paper's accuracy study, whose "random trees" are caterpillars
// numbered at random. info describes what the spec left implicit (the
// levels of a random tree, the achieved condition number) for a header.
func (s Spec) Build() (t *Tree, info string, err error) {
	return s.BuildContext(context.Background())
}

// BuildContext is Build, stopping with ctx's error (wrapped) between its
// steps (shape, weights, numbering) once ctx is done.
func (s Spec) BuildContext(ctx context.Context) (t *Tree, info string, err error) {
	if err := s.Check(); err != nil {
		return nil, "", err
	}
	stopped := func() error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("trees: %w", err)
		}
		return nil
	}
	switch s.Shape {
	case ShapeStar:
		t, err = Star(s.N)
	case ShapeCaterpillar:
		t, err = Caterpillar(s.N)
	default:
		t, err = Random(s.N, s.levels(), s.Profile, s.Seed)
		info = fmt.Sprintf(" --levels %d --profile %s", s.levels(), s.Profile)
	}
	if err == nil {
		err = stopped()
	}
	if err != nil {
		return nil, "", err
	}
	if s.Weights == GenSumWeightKind {
		x, c, err := GenSum(s.N, s.Cond, s.Seed)
		if err != nil {
			return nil, "", err
		}
		for v := range x {
			t.Weight[v] = float64(x[v])
		}
		info += fmt.Sprintf(" --cond %g (achieved condition number %.4g)", s.Cond, c)
	}
	if err := stopped(); err != nil {
		return nil, "", err
	}
	if t, err = Renumber(t, s.Numbering, s.Seed); err != nil {
		return nil, "", err
	}
	if err := stopped(); err != nil {
		return nil, "", err
	}
	switch s.Weights {
	case IntWeightKind:
		IntWeights(t, int(s.MaxWeight), s.Seed)
		info += fmt.Sprintf(" --max-weight %d", s.MaxWeight)
	case FloatWeightKind:
		FloatWeights(t, s.Seed)
	}
	return t, info, nil
}
