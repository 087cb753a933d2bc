package experiments_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/experiments/treefix"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
)

// syntheticPhases are the phases every synthetic record carries: every
// phase some experiment's plot reads.
var syntheticPhases = []string{"total", "end_to_end", "other", "h2d", "d2h", "init", "step1", "step2", "step3", "step4", "step5", "step6",
	"augment", "auction", "update_w", "init_w", "topo_sort", "closure", "compute", "euler_tour", "scan", "read", "write", "steps",
	"convert_ccs", "algorithm1", "algorithm2", "algorithm3", "algorithm4", "algorithm5", "algorithms2to5"}

// syntheticRun builds a small run of every experiment from its quick
// cases, every implementation ok (a GPU ran) with times growing with the
// case, except the first implementation of each experiment's last case,
// skipped by the budget (no metrics, no phases): the records a plot must
// still order by their parameters.
func syntheticRun() []bench.Record {
	var run []bench.Record
	for _, e := range experiments.All() {
		cases := e.Cases(experiments.Quick, experiments.Options{})
		for ci, c := range cases {
			for ii, im := range e.ImplsFor(c, "") {
				r := bench.Record{Experiment: e.Name, Impl: im, Params: c.Params, Status: bench.StatusOK, Statistic: e.Statistic}
				if ci == len(cases)-1 && ii == 0 {
					r.Status, r.Error, r.EstimateMS = bench.StatusSkipped, "the budget is spent", 1e6
					run = append(run, r)
					continue
				}
				scale := float64(ci+1) * float64(ii+2)
				for k, ph := range syntheticPhases {
					v := scale * float64(k+1)
					r.Phases = append(r.Phases, bench.Phase{Name: ph, MedianMS: v, StatMS: v})
				}
				r.Metrics = map[string]float64{"cond": float64(10 * (ci + 1)), "levels": 3, "speedup": 2}
				for l := range 3 {
					r.Metrics[treefix.ProfileKey(l)] = float64((l + 1) * (ci + 1))
				}
				if n, err := strconv.ParseFloat(c.Params.Get("n"), 64); err == nil {
					r.Metrics["n"] = n
				}
				r.Check = &bench.Check{OK: true, MaxErr: 1e-7 * float64(ii+1)}
				run = append(run, r)
			}
		}
	}
	return run
}

// checkPlot returns what is wrong with a figure: drawn alike series, x
// values out of order on a line, categories not in the order of their
// cases' n.
func checkPlot(p report.Plot, run []bench.Record) []string {
	var bad []string
	if r := p.RepeatedLook(); r != "" {
		bad = append(bad, r)
	}
	if len(p.Categories) == 0 && !p.Stacked {
		for _, s := range p.Series {
			if !s.Points && !s.Paper && !slices.IsSorted(s.X) {
				bad = append(bad, fmt.Sprintf("series %q: x values %v out of order", s.Name, s.X))
			}
		}
	}
	// A category that names a case (a parameter's value) orders by the
	// case's n.
	sizeOf := map[string]float64{}
	for _, r := range run {
		n, err := strconv.ParseFloat(r.Params.Get("n"), 64)
		if err != nil {
			continue
		}
		for _, prm := range r.Params {
			if prm.Name != "n" {
				sizeOf[prm.Value] = n
			}
		}
	}
	last := -1.0
	for _, c := range p.Categories {
		n, ok := sizeOf[c]
		if !ok {
			continue
		}
		if n < last {
			bad = append(bad, fmt.Sprintf("categories %q not in the order of their cases' n", p.Categories))
			break
		}
		last = n
	}
	return bad
}

// TestEveryPlot renders every experiment's plots from a small synthetic
// run (built here, not read from results/) and fails on a figure written
// with nothing drawn, two series of one figure drawn alike, or categories
// or x values out of order. The same run without a GPU must write no empty
// figure either, and the report must name each figure not drawn.
func TestEveryPlot(t *testing.T) {
	full := syntheticRun()
	for _, tc := range []struct {
		name string
		run  []bench.Record
	}{{"with a GPU", full}, {"without a GPU", experimentstest.GPULess(full)}} {
		f := &bench.File{Schema: bench.SchemaVersion, Machine: bench.Machine{Label: "synthetic", Cores: 2}, Scale: "quick", Records: tc.run}
		dir := t.TempDir()
		paths, err := experiments.RenderPlots(f, dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		written := map[string]bool{}
		for _, p := range paths {
			written[strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))] = true
		}
		notDrawn := strings.Join(experiments.PlotsNotDrawn(f), "\n")
		drawnBy := map[string]bool{}
		for _, name := range experiments.ExperimentsIn(f.Records) {
			e := experiments.ByName(name)
			if e == nil || e.Plots == nil {
				continue
			}
			for _, p := range e.Plots(f.Records) {
				if p.Empty() {
					if written[p.Name] {
						t.Errorf("%s: %s: the empty figure %s was written", tc.name, name, p.Name)
					}
					if !strings.Contains(notDrawn, p.Name+": not drawn") {
						t.Errorf("%s: %s: the empty figure %s is not named in the report", tc.name, name, p.Name)
					}
					continue
				}
				drawnBy[name] = true
				if !written[p.Name] {
					t.Errorf("%s: %s: figure %s not written", tc.name, name, p.Name)
				}
				for _, b := range checkPlot(p, f.Records) {
					t.Errorf("%s: %s: figure %s: %s", tc.name, name, p.Name, b)
				}
			}
		}
		if tc.name == "with a GPU" {
			for _, e := range experiments.All() {
				if e.Plots != nil && e.MeasuredBy == "" && !drawnBy[e.Name] {
					t.Errorf("%s: %s draws no figure from the synthetic run", tc.name, e.Name)
				}
			}
		}
		for _, p := range paths {
			if st, err := os.Stat(p); err != nil || st.Size() == 0 {
				t.Errorf("%s: %s: %v", tc.name, p, err)
			}
		}
	}
}
