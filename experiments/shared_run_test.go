package experiments_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/runner"
)

// noGPU marks the CUDA implementations unavailable, so that the test runs
// the same on every machine.
func noGPU(impl string) error {
	if strings.HasPrefix(impl, "cuda/") {
		return fmt.Errorf("%w: %s (test)", experiments.ErrUnavailable, impl)
	}
	return nil
}

// TestSharedDominationRun runs four domination experiments at m = 5
// through the runner, in two orders, and counts the computations of the
// powers of A(D_5) on cpu/sparse: only the repetitions of the cell that
// computes them first; every other cell reads them and says from where.
// In the first order Tables 3 and the formula read what Tables 2 and 5
// measured and time only what they add; in the second Tables 2 and 5, whose
// windows are exactly the powers, report the samples of the Table 3 and
// formula cells that measured them.
func TestSharedDominationRun(t *testing.T) {
	const warmup, reps = 1, 2
	for _, order := range [][]string{
		{"domination/table2", "domination/table3", "domination/table5", "domination/formula"},
		{"domination/table3", "domination/table2", "domination/formula", "domination/table5"},
	} {
		t.Run(strings.Join(order, ","), func(t *testing.T) {
			var exps []*experiments.Experiment
			for _, name := range order {
				e, err := experiments.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				exps = append(exps, e...)
			}
			where, _ := experiments.ParseWhere("m=5")
			path := filepath.Join(t.TempDir(), "run.json")
			app, err := bench.NewAppender(path, &bench.File{Machine: bench.Machine{Label: "test"}})
			if err != nil {
				t.Fatal(err)
			}
			shared := experiments.NewShared(0)
			cfg := runner.Config{Scale: experiments.Quick, Impl: "cpu/sparse", Where: where, Reps: reps, Warmup: warmup,
				Options: experiments.Options{Threads: 2, Shared: shared}, Available: noGPU}
			if err := runner.Run(context.Background(), cfg, exps, app); err != nil {
				t.Fatal(err)
			}
			f, err := bench.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			counts := shared.Counts()
			for key, c := range counts {
				if strings.HasPrefix(key, "domination powers m=5 impl=cpu/sparse") && c.Computed != warmup+reps {
					t.Errorf("%s: computed %d times, want %d (the runs of the one cell that measures them)", key, c.Computed, warmup+reps)
				}
			}
			if len(counts) != 2 {
				t.Errorf("store keys %v, want the K = 50 powers and those to the first repetition", counts)
			}
			byKey := map[string]*bench.Record{}
			for i := range f.Records {
				r := &f.Records[i]
				if r.Status != bench.StatusOK {
					t.Fatalf("%s: %s %s", r.Key(), r.Status, r.Error)
				}
				byKey[r.Key()] = r
			}
			cell := func(exp string) *bench.Record {
				r := byKey[experiments.CellKey(exp, "cpu/sparse", bench.Params{{Name: "m", Value: "5"}})]
				if r == nil {
					t.Fatalf("no record of %s", exp)
				}
				return r
			}
			// The first of each pair in the order computes; the second reads.
			for _, pair := range [][2]string{{order[0], order[1]}, {order[2], order[3]}} {
				first, second := cell(pair[0]), cell(pair[1])
				if first.ReusedFrom != "" {
					t.Errorf("%s: ReusedFrom %q, want empty (it computed the powers)", first.Key(), first.ReusedFrom)
				}
				if second.ReusedFrom != first.Key() {
					t.Errorf("%s: ReusedFrom %q, want %q", second.Key(), second.ReusedFrom, first.Key())
				}
				if !strings.Contains(second.Check.Detail, "computed once in this run") {
					t.Errorf("%s: check detail %q does not say the powers were read", second.Key(), second.Check.Detail)
				}
				switch second.Experiment {
				case "domination/table3":
					// Algorithms 3-5 only, timed here.
					if second.Phase("algorithm2") != nil || second.Phase("algorithm3") == nil {
						t.Errorf("%s: phases %v, want Algorithms 3-5 and no Algorithm 2", second.Key(), names(second))
					}
				case "domination/formula":
					if second.Phase("algorithm2") != nil || second.Phase("witnesses") == nil {
						t.Errorf("%s: phases %v, want the witnesses alone", second.Key(), names(second))
					}
				case "domination/table2":
					// Algorithm 2's samples, as table3's cell measured them.
					want := first.Phase("algorithm2").SamplesMS
					if got := second.Phase(bench.TotalPhase).SamplesMS; !slices.Equal(got, want) {
						t.Errorf("%s: total samples %v, want %s's algorithm2 samples %v", second.Key(), got, first.Key(), want)
					}
				case "domination/table5":
					want := first.Phase("algorithms2to5").SamplesMS
					if got := second.Phase(bench.TotalPhase).SamplesMS; !slices.Equal(got, want) || second.Phase("witnesses") != nil {
						t.Errorf("%s: total samples %v, want %s's algorithms2to5 samples %v, no witnesses", second.Key(), got, first.Key(), want)
					}
				}
			}
		})
	}
}

func names(r *bench.Record) []string {
	var out []string
	for _, p := range r.Phases {
		out = append(out, p.Name)
	}
	return out
}
