package impls

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// kleeneArc is the arc from → to of weight w, 1-based as the paper's
// nodes: X[to, from] = w.
type kleeneArc struct {
	from, to int
	w        float32
}

// eps is the max-plus zero ε: no path.
const eps = maxplus.Epsilon

// kleeneCases are DAGs with their Kleene star W = X* (W[i,j] the heaviest
// path from j to i, 0 on the diagonal, ε where there is none), row-major,
// or the error Run must give.
var kleeneCases = []struct {
	name string
	n    int
	arcs []kleeneArc
	want []float32
	// cycle: Run must fail with a *kleene.CycleError; err: with an error
	// containing it.
	cycle bool
	err   string
}{
	{name: "empty", n: 0, want: []float32{}},
	{name: "1x1 no arc", n: 1, want: []float32{0}},
	{name: "two nodes no arc", n: 2, want: []float32{0, eps, eps, 0}},
	{name: "one arc", n: 2, arcs: []kleeneArc{{1, 2, 3}}, want: []float32{0, eps, 3, 0}},
	{name: "one arc, backwards", n: 2, arcs: []kleeneArc{{2, 1, -3}}, want: []float32{0, -3, eps, 0}},
	// 1 -> 2 (1), 2 -> 3 (2), 1 -> 3 (5), 3 -> 4 (-1): the direct arc
	// beats the detour into 3.
	{name: "known star", n: 4, arcs: []kleeneArc{{1, 2, 1}, {2, 3, 2}, {1, 3, 5}, {3, 4, -1}}, want: []float32{
		0, eps, eps, eps,
		1, 0, eps, eps,
		5, 2, 0, eps,
		4, 1, -1, 0,
	}},
	// The detour 1 -> 2 -> 3 (3 + 4) beats the arc 1 -> 3 (2).
	{name: "detour heavier", n: 3, arcs: []kleeneArc{{1, 2, 3}, {2, 3, 4}, {1, 3, 2}}, want: []float32{
		0, eps, eps,
		3, 0, eps,
		7, 4, 0,
	}},
	// Two paths 1 -> 4 of weight 2: a tie.
	{name: "ties", n: 4, arcs: []kleeneArc{{1, 2, 1}, {2, 4, 1}, {1, 3, 0}, {3, 4, 2}}, want: []float32{
		0, eps, eps, eps,
		1, 0, eps, eps,
		0, eps, 0, eps,
		2, 1, 2, 0,
	}},
	// All negative: the heaviest path is the shortest one.
	{name: "negative weights", n: 3, arcs: []kleeneArc{{3, 2, -1}, {2, 1, -1}, {3, 1, -5}}, want: []float32{
		0, -1, -2,
		eps, 0, -1,
		eps, eps, 0,
	}},
	// A -Inf entry is no arc.
	{name: "-Inf is no arc", n: 2, arcs: []kleeneArc{{1, 2, float32(math.Inf(-1))}}, want: []float32{0, eps, eps, 0}},
	{name: "cycle", n: 3, arcs: []kleeneArc{{1, 2, 1}, {2, 3, 1}, {3, 1, 1}}, cycle: true},
	{name: "self-loop", n: 2, arcs: []kleeneArc{{1, 2, 1}, {2, 2, -2}}, cycle: true},
	{name: "NaN", n: 3, arcs: []kleeneArc{{2, 3, float32(math.NaN())}}, err: "X[3,2] is NaN"},
	{name: "+Inf", n: 3, arcs: []kleeneArc{{3, 1, float32(math.Inf(1))}}, err: "X[1,3] is +Inf"},
}

// TestKleeneCases runs kleeneCases against every implementation in
// impls.Kleene.
func TestKleeneCases(t *testing.T) {
	for _, im := range Kleene.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range kleeneCases {
				x := maxplus.New(tc.n)
				for _, a := range tc.arcs {
					x.Set(a.to-1, a.from-1, a.w)
				}
				w, err := im.Run(t.Context(), x, kleene.Options{}, &bench.Recorder{})
				var ce *kleene.CycleError
				switch {
				case tc.cycle:
					if !errors.As(err, &ce) {
						t.Errorf("%s: got %v, want a *kleene.CycleError", tc.name, err)
					}
				case tc.err != "":
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.err)
					}
				case err != nil:
					t.Errorf("%s: %v", tc.name, err)
				case w.N != tc.n || !slices.Equal(w.Val, tc.want):
					t.Errorf("%s: W = %v, want %v", tc.name, w.Val, tc.want)
				}
			}
		})
	}
}
