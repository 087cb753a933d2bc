package treefix

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/trees"
)

// TestTreefixQuick runs every treefix experiment at quick scale once per
// implementation, requires every check to pass, and renders the tables and
// plots.
func TestTreefixQuick(t *testing.T) {
	var run []bench.Record
	names := []string{"treefix/table1", "treefix/fig4", "treefix/fig5", "treefix/fig6", "treefix/fig7", "treefix/accuracy"}
	for _, name := range names {
		exps, err := experiments.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		run = append(run, experimentstest.RunCases(t, name, exps[0].Cases(experiments.Quick, experiments.Options{Threads: 2}))...)
	}
	for _, name := range names {
		exps, _ := experiments.Lookup(name)
		e := exps[0]
		tables := e.Tables(run)
		if len(tables) == 0 || len(tables[0].Rows) == 0 {
			t.Errorf("%s: no table rows", name)
		}
		for _, tb := range tables {
			for _, n := range tb.Notes {
				if strings.Contains(n, "CHECK FAILED") {
					t.Errorf("%s: %s", name, n)
				}
			}
			if testing.Verbose() {
				var sb strings.Builder
				tb.Render(&sb, report.FormatText)
				t.Log("\n" + sb.String())
			}
		}
		if e.Plots != nil {
			for _, p := range e.Plots(run) {
				if p.Empty() && len(p.Notes) == 0 {
					t.Errorf("%s: plot %s draws nothing and has no notes saying why", name, p.Name)
				}
			}
		}
	}
}

// TestTreefixFig6 checks the level profiles at quick scale: every stand-in
// has its Table I depth, the claims are reproduced, a profile that lost a
// vertex fails the check, and the plot has a series per tree.
func TestTreefixFig6(t *testing.T) {
	exps, err := experiments.Lookup("treefix/fig6")
	if err != nil {
		t.Fatal(err)
	}
	cases := exps[0].Cases(experiments.Quick, experiments.Options{})
	if len(cases) != 12 {
		t.Fatalf("%d cases, want the 10 Table I trees, the star and the caterpillar", len(cases))
	}
	run := experimentstest.RunCases(t, "treefix/fig6", cases)
	for _, c := range exps[0].Claims(run) {
		if c.Verdict != experiments.Reproduced {
			t.Errorf("claim %s: %s (%s)", c.Where, c.Verdict, c.Ours)
		}
	}
	inst, err := cases[0].Setup(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Run(context.Background(), cpuLevels, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := out.([]int)
	if chk := inst.Check(cpuLevels, w); !chk.OK {
		t.Fatalf("correct profile fails: %s", chk.Detail)
	}
	w[len(w)/2]--
	if chk := inst.Check(cpuLevels, w); chk.OK {
		t.Error("a profile missing a vertex passes the check")
	}
	plots := exps[0].Plots(run)
	if len(plots) != 2 || len(plots[0].Series) != 10 || len(plots[1].Series) != 2 {
		t.Errorf("plots: %d, want the Table I trees' (10 series) and the shapes' (2)", len(plots))
	}
	if got := profileSummary([]float64{0, 1, 2, 3, 4}, []float64{1, 5, 9, 5, 2}); got != "1 · 5 · 9 · 5 · 2" {
		t.Errorf("profileSummary = %q", got)
	}
}

// TestTreefixAccuracyBound checks the accuracy experiment's error models on
// the quick chains (condition numbers 10 to 1e10): the CPU results pass; a
// result moved by twice its bound fails at every condition number; a
// recursive sum carried in 8-bit precision (2^16 times float32's unit
// roundoff: an error about 650 times the model's, a random walk of 10^4
// steps against the worst case) fails at every condition number; and a zero result fails up to
// a condition number of 10^4, where the old a-priori bound passed it above
// about 280.
func TestTreefixAccuracyBound(t *testing.T) {
	ctx := context.Background()
	opt := experiments.Options{Threads: 2}
	cases := accuracyCases(experiments.Quick, opt)
	for k, cs := range cases {
		inst, err := cs.Setup(ctx)
		if err != nil {
			t.Fatal(err)
		}
		op, cond := cs.Params.Get("op"), inst.Metrics["cond"]
		for _, impl := range []string{cpuSequential, cpuParallel, cpuVectorial, cpuVectorialCompensated} {
			out, err := inst.Run(ctx, impl, nil)
			if err != nil {
				t.Fatal(err)
			}
			chk := inst.Check(impl, out)
			if !chk.OK {
				t.Errorf("%s %s: correct result fails: %s", impl, cs.Params, chk.Detail)
				continue
			}
			// a result twice the bound away from the exact sum
			exact := inst.Metrics["exact_sum"]
			moved := float32(exact + 2*chk.Bound*math.Abs(exact))
			if c2 := inst.Check(impl, moved); c2.OK {
				t.Errorf("%s %s: a result twice the bound away passes (%s)", impl, cs.Params, c2.Detail)
			}
		}
		// the chain's weights, root to leaf, as the case drew them
		x, _, err := trees.GenSum(accuracyN, accuracyCond(k/2, accuracyChains(experiments.Quick)), treefixSeed(opt)+uint64(k/2))
		if err != nil {
			t.Fatal(err)
		}
		if op == "leaffix" {
			slices.Reverse(x)
		}
		var s float32
		for _, v := range x {
			s = round8(s + v)
		}
		if chk := inst.Check(cpuSequential, s); chk.OK {
			t.Errorf("%s: an 8-bit recursive sum passes (%s)", cs.Params, chk.Detail)
		}
		if chk := inst.Check(cpuSequential, float32(0)); chk.OK && cond <= 1e4 {
			t.Errorf("%s: a zero result passes at condition number %.3g", cs.Params, cond)
		}
	}
}

// round8 rounds x to 8 significant bits (to nearest, ties to even): a
// float with unit roundoff 2^-8.
func round8(x float32) float32 {
	b := math.Float32bits(x)
	const drop = 23 - 7
	b += 1<<(drop-1) - 1 + (b>>drop)&1
	return math.Float32frombits(b &^ (1<<drop - 1))
}

// TestTreefixFig6ClaimsNotRun: with no cells every claim is one row, not
// run.
func TestTreefixFig6ClaimsNotRun(t *testing.T) {
	cs := treefixFig6Claims(nil)
	if len(cs) != 3 {
		t.Fatalf("%d claims, want 3", len(cs))
	}
	for _, c := range cs {
		if c.Verdict != experiments.NotRun {
			t.Errorf("%s: %s with no cells", c.Where, c.Verdict)
		}
	}
}
