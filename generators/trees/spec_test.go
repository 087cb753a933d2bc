package trees

import (
	"errors"
	"testing"

	"github.com/semibench/semibench/problems/treefix"
)

// TestSpecBuild: Build is deterministic and its shapes and weights are the
// ones asked for; a gensum series keeps its order along a caterpillar in a
// random numbering (walking from the root meets GenSum's numbers in order).
func TestSpecBuild(t *testing.T) {
	for _, s := range []Spec{
		{Shape: ShapeStar, N: 30, Numbering: RandomOrder, Weights: IntWeightKind, MaxWeight: 4, Seed: 2},
		{Shape: ShapeCaterpillar, N: 30, Numbering: DepthFirst, Weights: FloatWeightKind, Seed: 2},
		{Shape: ShapeRandom, N: 100, Profile: Bell, Numbering: BreadthFirst, Weights: IntWeightKind, MaxWeight: 1, Seed: 2},
		{Shape: ShapeCaterpillar, N: 64, Numbering: RandomOrder, Weights: GenSumWeightKind, Cond: 1e4, Seed: 2},
	} {
		a, _, err := s.Build()
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		b, _, _ := s.Build()
		if a.Hash() != b.Hash() {
			t.Errorf("%+v: two builds differ", s)
		}
		st, err := ShapeStats(a.Parent)
		if err != nil {
			t.Fatal(err)
		}
		want := map[Shape]int{ShapeStar: 2, ShapeCaterpillar: s.N, ShapeRandom: 10}[s.Shape] // round(sqrt(100))
		if st.Depth != want {
			t.Errorf("%+v: depth %d, want %d", s, st.Depth, want)
		}
		for _, w := range a.Weight {
			if s.Weights == IntWeightKind && (w != float64(int64(w)) || w < -float64(s.MaxWeight) || w > float64(s.MaxWeight)) {
				t.Fatalf("%+v: weight %v", s, w)
			}
		}
		if s.Weights == GenSumWeightKind {
			x, _, _ := GenSum(s.N, s.Cond, s.Seed)
			child := make([]int, s.N)
			for v, p := range a.Parent {
				if p >= 0 {
					child[p] = v
				}
			}
			v := int(a.Root())
			for k := range x {
				if a.Weight[v] != float64(x[k]) {
					t.Fatalf("gensum: vertex %d at depth %d has %v, want GenSum's %v", v, k, a.Weight[v], x[k])
				}
				v = child[v]
			}
		}
	}
}

func TestSpecCheck(t *testing.T) {
	ok := Spec{Shape: ShapeRandom, N: 10, Numbering: BreadthFirst, Weights: IntWeightKind, MaxWeight: 1}
	for _, c := range []struct {
		edit   func(*Spec)
		option string
	}{
		{func(s *Spec) { s.Shape = "binary" }, "shape"},
		{func(s *Spec) { s.N = 0 }, "n"},
		{func(s *Spec) { s.N = treefix.MaxN + 1 }, "n"},
		{func(s *Spec) { s.Levels = 11 }, "levels"},
		{func(s *Spec) { s.Levels = -1 }, "levels"},
		{func(s *Spec) { s.Numbering = "lex" }, "numbering"},
		{func(s *Spec) { s.Weights = "gauss" }, "weights"},
		{func(s *Spec) { s.MaxWeight = MaxIntWeight + 1 }, "max-weight"},
		{func(s *Spec) { s.Weights, s.Cond = GenSumWeightKind, 5 }, "cond"},
		{func(s *Spec) { s.Weights, s.Cond, s.N, s.Levels = GenSumWeightKind, 100, 3, 2 }, "n"},
	} {
		s := ok
		c.edit(&s)
		_, _, err := s.Build()
		var se *SpecError
		if !errors.As(err, &se) || se.Option != c.option {
			t.Errorf("%+v: error %v, want one naming %s", s, err, c.option)
		}
	}
}
