package systolic_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/problems/apsp/systolic"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

func upTo(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestGJE1Smaller feeds, for every n, a GJE1 stream of matrices of every
// order m < n (and one of order n) on three tracks back to back, and
// checks sGJE's results, no conflicts, c_mm out at 4n+3m-2 and m active
// nodes per element.
func TestGJE1Smaller(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	s := semiring.MinPlus[float64]{}
	for n := 1; n <= upTo(24, 40); n++ {
		var sizes []int
		var mats [][]float64
		for m := 1; m <= n; m++ {
			sizes = append(sizes, m)
			mats = append(mats, minPlusMatrix(r, m))
		}
		run, err := systolic.Simulate(context.Background(), n, systolic.SemiringOps(s), mats, systolic.Config{Design: systolic.GJE1, Starts: systolic.MixedStarts(sizes)})
		if err != nil {
			t.Fatal(err)
		}
		if run.Conflicts != 0 {
			t.Fatalf("n=%d: %d conflicts, first %s", n, run.Conflicts, run.FirstConflict)
		}
		for k, m := range sizes {
			want := sgje(t, s, m, mats[k])
			for e := range want {
				if run.Result[k][e] != want[e] {
					t.Fatalf("n=%d m=%d: (%d,%d) = %v, sGJE %v", n, m, e/m+1, e%m+1, run.Result[k][e], want[e])
				}
				if run.ActiveNodes[k][e] != m {
					t.Fatalf("n=%d m=%d: (%d,%d) has %d active nodes, want m", n, m, e/m+1, e%m+1, run.ActiveNodes[k][e])
				}
			}
			if got := run.CnnOut(k); got != 4*n+3*m-2 {
				t.Errorf("n=%d m=%d: c_mm out %d steps after c_11 in, want 4n+3m-2 = %d", n, m, got, 4*n+3*m-2)
			}
		}
	}
}

// TestSearchSchedule: the search finds three tracks and the periods 6n
// (GJE0) and 3n (GJE1) for n ≥ 2; at n = 1 GJE1 has six tracks of
// period 6 (a lone datum leaves room), as the simulation shows. The found
// schedule, simulated in full, has no conflicts and sGJE's results.
func TestSearchSchedule(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2))
	s := semiring.MinPlus[float64]{}
	for n := 1; n <= upTo(32, 64); n++ {
		for _, d := range []systolic.Design{systolic.GJE0, systolic.GJE1} {
			sc, err := systolic.SearchSchedule(context.Background(), n, d)
			if err != nil {
				t.Fatal(err)
			}
			wantT, wantP := 3, d.Period(n)
			if n == 1 && d == systolic.GJE1 {
				wantT, wantP = 6, 6
			}
			if sc.Tracks != wantT || sc.Period != wantP {
				t.Errorf("%v n=%d: %d tracks, period %d; want %d, %d", d, n, sc.Tracks, sc.Period, wantT, wantP)
			}
			if n > 12 && !testing.Short() || n <= 12 {
				var mats [][]float64
				for k := 0; k < 3*sc.Tracks; k++ {
					mats = append(mats, minPlusMatrix(r, n))
				}
				checkRun(t, s, n, mats, systolic.Config{Design: d, Starts: sc.Starts(len(mats))})
			}
			// One step shorter collides somewhere in the stream.
			if sc.Period > sc.Tracks {
				mats := make([][]bool, 3*sc.Tracks)
				for k := range mats {
					mats[k] = make([]bool, n*n)
				}
				short := systolic.Schedule{Tracks: sc.Tracks, Period: sc.Period - 1}
				run, err := systolic.Simulate(context.Background(), n, systolic.SemiringOps(semiring.Boolean{}), mats, systolic.Config{Design: d, Starts: short.Starts(len(mats))})
				if err == nil && run.Conflicts == 0 {
					t.Errorf("%v n=%d: period %d runs without conflicts", d, n, sc.Period-1)
				}
			}
		}
	}
}

func TestCollides(t *testing.T) {
	occ := [][]uint64{{1 << 3}, {0, 1 << 1}} // steps 3; 65
	for d, want := range map[int]bool{0: true, 1: false, 62: false, 64: false, -62: false} {
		if got := systolic.Collides(occ, d); got != want {
			t.Errorf("Collides(%d) = %v, want %v", d, got, want)
		}
	}
	occ = [][]uint64{{1<<3 | 1<<60, 1 << 2}} // steps 3, 60, 66
	for d, want := range map[int]bool{57: true, 63: true, 6: true, -6: true, 5: false} {
		if got := systolic.Collides(occ, d); got != want {
			t.Errorf("Collides(%d) = %v, want %v", d, got, want)
		}
	}
}

// TestWedgeAndUnidirectional: the folded wedge takes 7m-2 steps on
// (m+1)(m+2)/2 processors; the unidirectional array 5n-2 steps, its
// computations spanning 5n-3 (the paper's lower bound), a star place per
// diagonal element (n = 1 is the exception: 2 steps).
func TestWedgeAndUnidirectional(t *testing.T) {
	for n := 1; n <= upTo(32, 64); n++ {
		w, err := systolic.SimulateWedge(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if w.Steps != 7*n-2 || w.Processors != (n+1)*(n+2)/2 || w.MaxLoad < 1 || w.MaxLoad > 2 {
			t.Errorf("wedge m=%d: %+v", n, w)
		}
		u, err := systolic.SimulateUnidirectional(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		wantSteps, wantSpan := 5*n-2, 5*n-3
		if n == 1 { // one computation, the star: 2 steps, not 5n-2 = 3
			wantSteps, wantSpan = 2, 1
		}
		if u.Steps != wantSteps || u.Span != wantSpan || u.StarPlaces != n {
			t.Errorf("unidirectional n=%d: %+v, want %d steps, span %d", n, u, wantSteps, wantSpan)
		}
	}
}
