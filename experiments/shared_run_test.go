package experiments_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
// The first of Tables 2 and 3 and the formula computes the K powers;
// Table 3 and the formula, reading them, time only what they add, and
// Table 2, whose window is exactly the powers, reports the samples of the
// cell that measured them. The formula on the reference's product works on
// the K powers (never on those to the first repetition, which Table 5's
// cell computes and measures in every order).
func TestSharedDominationRun(t *testing.T) {
	const warmup, reps = 1, 2
	for _, order := range [][]string{
		{"domination/table2", "domination/table3", "domination/table5", "domination/formula"},
		{"domination/table3", "domination/table2", "domination/formula", "domination/table5"},
		{"domination/formula", "domination/table2", "domination/table3", "domination/table5"},
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
			where, _ := runner.ParseWhere("m=5")
			path := filepath.Join(t.TempDir(), "run.json")
			app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
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
			// The first of the order computes the K powers, Table 5 those to
			// the first repetition; the second and the formula read the K.
			if r := cell("domination/table5"); r.ReusedFrom != "" {
				t.Errorf("%s: ReusedFrom %q, want empty (it computed the powers to the first repetition)", r.Key(), r.ReusedFrom)
			}
			for _, exp := range []string{"domination/table2", "domination/table3", "domination/formula"} {
				if exp == order[0] {
					continue
				}
				first, second := cell(order[0]), cell(exp)
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

// TestSharedInstancesRun runs experiments that read the same generated
// inputs through the runner: each instance is generated and digested once
// (the store's counts), and the records of every experiment carry its one
// digest.
func TestSharedInstancesRun(t *testing.T) {
	for _, tc := range []struct {
		exps  []string
		where string
		impl  string
		keys  []string // store keys computed once and read again
	}{
		// fig4's cpu/jv is table1's cell (SameAs: not run again); its
		// cpu/auction reads table1's instance.
		{[]string{"hungarian/table1", "hungarian/fig4"}, "n=64,range=n", "cpu/jv,cpu/auction", []string{"lapcost n=64 range=n seed=1"}},
		{[]string{"treefix/table1", "treefix/fig4", "treefix/fig6"}, "tree=nlpkkt120", "cpu/build,cpu/vectorial,cpu/levels",
			[]string{"tree stand-in nlpkkt120 n=13837 div=256 seed=7", "treefix instance stand-in nlpkkt120 n=13837 div=256 seed=7 numbering=bfs seed=1"}},
	} {
		t.Run(strings.Join(tc.exps, ","), func(t *testing.T) {
			exps, err := experiments.Lookup(tc.exps...)
			if err != nil {
				t.Fatal(err)
			}
			where, err := runner.ParseWhere(tc.where)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "run.json")
			app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
			if err != nil {
				t.Fatal(err)
			}
			shared := experiments.NewShared(0)
			cfg := runner.Config{Scale: experiments.Quick, Impl: tc.impl, Where: where, Reps: 1,
				Options: experiments.Options{Threads: 2, Shared: shared}, Available: noGPU}
			if err := runner.Run(context.Background(), cfg, exps, app); err != nil {
				t.Fatal(err)
			}
			counts := shared.Counts()
			for _, k := range tc.keys {
				if c := counts[k]; c.Computed != 1 || c.Reused < 1 {
					t.Errorf("%s: %+v, want computed once and read again (store: %v)", k, c, counts)
				}
			}
			f, err := bench.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			hashes := map[string]string{} // params -> digest
			seen := map[string]bool{}
			for _, r := range f.Records {
				if r.Status != bench.StatusOK || r.Input == nil {
					t.Fatalf("%s: %s %s", r.Key(), r.Status, r.Error)
				}
				seen[r.Experiment] = true
				p := r.Params.String()
				if r.Experiment == "treefix/fig6" {
					continue // the tree as built, not renumbered: its own digest
				}
				if h, ok := hashes[p]; ok && h != r.Input.Hash {
					t.Errorf("%s: digest %s, another experiment's %s", r.Key(), r.Input.Hash, h)
				}
				hashes[p] = r.Input.Hash
			}
			if len(seen) != len(tc.exps) {
				t.Errorf("records of %v, want every one of %v", seen, tc.exps)
			}
		})
	}
}

// TestSharedSweepRun: Rote's sweep is computed once per run, in its cell's
// first run (the warm-up), its repetitions read it, and its record holds
// the one computation's time.
func TestSharedSweepRun(t *testing.T) {
	exps, err := experiments.Lookup("apsp/systolic")
	if err != nil {
		t.Fatal(err)
	}
	where, _ := runner.ParseWhere("sweep=n=1..12")
	path := filepath.Join(t.TempDir(), "run.json")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	shared := experiments.NewShared(0)
	cfg := runner.Config{Scale: experiments.Quick, Where: where, Reps: 3, Warmup: 1, Options: experiments.Options{Shared: shared}, Available: noGPU}
	if err := runner.Run(context.Background(), cfg, exps, app); err != nil {
		t.Fatal(err)
	}
	if c := shared.Counts()["rote sweep seed=1 n=1..12"]; c.Computed != 1 || c.Reused != 3 {
		t.Errorf("sweep %+v, want computed once and read by the 3 repetitions", c)
	}
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 1 {
		t.Fatalf("%d records, want the sweep's", len(f.Records))
	}
	r := f.Records[0]
	if p := r.Phase(bench.TotalPhase); r.Status != bench.StatusOK || p == nil || len(p.SamplesMS) != 1 || p.SamplesMS[0] <= 0 ||
		!strings.Contains(r.Note, "computed once per run") || r.ReusedFrom != "" || r.Metrics["sweep_max_n"] != 12 {
		t.Errorf("record %s %+v note %q reused %q metrics %v", r.Status, r.Phases, r.Note, r.ReusedFrom, r.Metrics["sweep_max_n"])
	}
}
