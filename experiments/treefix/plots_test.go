package treefix

import (
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// TestTreefixTreePlotsAreBars: the per-tree figures are grouped bars over
// the trees (categories), one plot per numbering.
func TestTreefixTreePlotsAreBars(t *testing.T) {
	mk := func(tree, numbering, impl string, n, ms float64) bench.Record {
		return bench.Record{Experiment: "treefix/fig5", Impl: impl, Status: bench.StatusOK,
			Params:  bench.Params{{Name: "tree", Value: tree}, {Name: "numbering", Value: numbering}},
			Metrics: map[string]float64{"n": n},
			Phases:  []bench.Phase{{Name: "total", MedianMS: ms, StatMS: ms}}}
	}
	var run []bench.Record
	for _, nb := range []string{"bfs", "random"} {
		run = append(run,
			mk("big", nb, cpuSequential, 2e6, 40), mk("big", nb, cpuVectorial, 2e6, 10),
			mk("small", nb, cpuSequential, 5e5, 8), mk("small", nb, cpuVectorial, 5e5, 4),
			bench.Record{Experiment: "treefix/fig5", Impl: "cuda/vectorial", Status: bench.StatusUnavailable,
				Params: bench.Params{{Name: "tree", Value: "big"}, {Name: "numbering", Value: nb}}})
	}
	plots := treefixTreePlots(run, "treefix/fig5", true)
	if len(plots) != 2 || plots[0].Name != "treefix-fig5" || plots[1].Name != "treefix-fig5-random" {
		t.Fatalf("plots %v", plots)
	}
	p := plots[0]
	if strings.Join(p.Categories, ",") != "small,big" || p.LogX {
		t.Errorf("categories %q (want by size), LogX %v", p.Categories, p.LogX)
	}
	if len(p.Series) != 1 || p.Series[0].Impl != cpuVectorial || p.Series[0].Y[0] != 2 || p.Series[0].Y[1] != 4 {
		t.Errorf("series %+v", p.Series)
	}
	if !experimentstest.HasNote(p, "cuda/vectorial: unavailable on this machine (no GPU)") {
		t.Errorf("notes %q", p.Notes)
	}
	if _, err := p.Save(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestTreefixTreePlotsOrderBySkippedN: a tree whose cells were all
// skipped (no metrics) still takes its place by the n of its case.
func TestTreefixTreePlotsOrderBySkippedN(t *testing.T) {
	mk := func(tree string, n int, impl string, status string, ms float64) bench.Record {
		r := bench.Record{Experiment: "treefix/fig4", Impl: impl, Status: status,
			Params: bench.Params{{Name: "tree", Value: tree}, {Name: "source", Value: "s"}, {Name: "n", Value: strconv.Itoa(n)}, {Name: "numbering", Value: "bfs"}}}
		if status == bench.StatusOK {
			r.Metrics = map[string]float64{"n": float64(n)}
			r.Phases = []bench.Phase{{Name: "total", MedianMS: ms, StatMS: ms}}
		}
		return r
	}
	run := []bench.Record{
		mk("huge", 9e6, cpuSequential, bench.StatusSkipped, 0),
		mk("mid", 2e6, cpuSequential, bench.StatusOK, 30),
		mk("small", 5e5, cpuSequential, bench.StatusOK, 8),
	}
	for _, p := range treefixFig4Plots(run) {
		if got := strings.Join(p.Categories, ","); got != "small,mid,huge" {
			t.Errorf("%s: categories %q, want small,mid,huge", p.Name, got)
		}
	}
}

// TestAccuracyPlotCoincidingSeries: series with the same error at every
// chain are named in a note and drawn with distinct markers, and the
// rule of thumb's flat part is explained.
func TestAccuracyPlotCoincidingSeries(t *testing.T) {
	mk := func(chain int, cond float64, impl string, err float64) bench.Record {
		return bench.Record{Experiment: "treefix/accuracy", Impl: impl, Status: bench.StatusOK,
			Params:  bench.Params{{Name: "chain", Value: strconv.Itoa(chain)}, {Name: "cond", Value: "x"}, {Name: "op", Value: "rootfix"}},
			Metrics: map[string]float64{"cond": cond}, Check: &bench.Check{OK: true, MaxErr: err}}
	}
	var run []bench.Record
	for i, c := range []float64{10, 1e4, 1e9} {
		e := c * 1e-8
		run = append(run, mk(i, c, cpuSequential, e), mk(i, c, cpuParallel, e), mk(i, c, cpuVectorial, e),
			mk(i, c, cpuVectorialCompensated, 1e-8))
	}
	plots := treefixAccuracyPlots(run)
	if len(plots) != 1 {
		t.Fatalf("%d plots", len(plots))
	}
	p := plots[0]
	if !experimentstest.HasNote(p, cpuSequential+", "+cpuParallel+", "+cpuVectorial+": the same error at every chain") {
		t.Errorf("no note on the coinciding series: %q", p.Notes)
	}
	if !experimentstest.HasNote(p, "drawn flat at 10") {
		t.Errorf("the rule of thumb's flat part is not explained: %q", p.Notes)
	}
	if r := p.RepeatedLook(); r != "" {
		t.Error(r)
	}
	markers := map[int]bool{}
	for i, l := range p.Looks() {
		if p.Series[i].Points {
			markers[l.Marker] = true
		}
	}
	if len(markers) != 4 {
		t.Errorf("%d distinct markers for 4 point series", len(markers))
	}
}
