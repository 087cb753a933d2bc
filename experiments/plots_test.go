package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench/report"

	"github.com/semibench/semibench/bench"
)

// gpuLess turns a run's CUDA records into what a machine without a GPU
// records: unavailable, no phases.
func gpuLess(run []bench.Record) []bench.Record {
	out := slices.Clone(run)
	for i := range out {
		if strings.HasPrefix(out[i].Impl, "cuda/") {
			out[i].Status, out[i].Phases, out[i].Check = bench.StatusUnavailable, nil, nil
			out[i].Error = "no CUDA device"
		}
	}
	return out
}

func seriesNames(p report.Plot) []string {
	var out []string
	for _, s := range p.Series {
		out = append(out, s.Name+"|"+s.Impl+"|"+s.Group)
	}
	return out
}

func hasNote(p report.Plot, want string) bool {
	for _, n := range p.Notes {
		if strings.Contains(n, want) {
			return true
		}
	}
	return false
}

// TestHungarianPlotsByImplementation: Table 1's plot has one series per
// implementation and range, each with its implementation (colour) and
// range (style), the paper's values marked as such; a GPU-less run's
// Fig. 9 says that CUDA was unavailable.
func TestHungarianPlotsByImplementation(t *testing.T) {
	run := hungarianRun()
	plots := hungarianTable1Plots(run)
	if len(plots) == 0 || plots[0].Name != "hungarian-table1" {
		t.Fatalf("plots %v", plots)
	}
	var ours []string
	for _, s := range plots[0].Series {
		if s.Group != "cost range "+strings.TrimPrefix(s.Group, "cost range ") || s.Group == "" {
			t.Errorf("series %q has group %q", s.Name, s.Group)
		}
		if s.Paper != strings.HasPrefix(s.Name, "paper") {
			t.Errorf("series %q: Paper %v", s.Name, s.Paper)
		}
		if s.Paper && s.Impl != "cpu/paper" {
			t.Errorf("paper series %q of implementation %q", s.Name, s.Impl)
		}
		if !s.Paper && s.Group == "cost range n" {
			ours = append(ours, s.Impl)
		}
	}
	// A GPU ran: its implementations' totals beside the CPU's.
	if strings.Join(ours, ",") != "cpu/paper,cpu/jv,cuda/paper,cuda/fast,cuda/hungarian-n3" {
		t.Errorf("measured series at range n: %q (all %q)", ours, seriesNames(plots[0]))
	}
	if !strings.Contains(plots[0].Title, "Table 1") || !strings.Contains(plots[0].YLabel, "ms") {
		t.Errorf("title %q, y label %q", plots[0].Title, plots[0].YLabel)
	}

	if r := plots[0].RepeatedLook(); r != "" {
		t.Error(r)
	}
	// No GPU: CPU series only, and a note says why.
	cpuOnly := hungarianTable1Plots(gpuLess(run))[0]
	for _, s := range cpuOnly.Series {
		if strings.HasPrefix(s.Impl, "cuda/") {
			t.Errorf("GPU-less table1 plot draws %q", s.Name)
		}
	}
	if !hasNote(cpuOnly, "cuda/paper, cuda/fast, cuda/hungarian-n3: unavailable on this machine (no GPU)") || strings.Contains(cpuOnly.Title, "GPU") {
		t.Errorf("GPU-less table1 plot: title %q, notes %q", cpuOnly.Title, cpuOnly.Notes)
	}

	fig9 := hungarianSpeedupPlots(hungarianView(gpuLess(run), "hungarian/table2"))
	if len(fig9) != 1 {
		t.Fatalf("GPU-less Fig. 9: %d plots", len(fig9))
	}
	if !hasNote(fig9[0], "cuda/paper, cuda/fast: unavailable on this machine (no GPU)") {
		t.Errorf("GPU-less Fig. 9 notes %q", fig9[0].Notes)
	}
	for _, s := range fig9[0].Series {
		if !s.Paper {
			t.Errorf("GPU-less Fig. 9 draws measured series %q", s.Name)
		}
	}
	if withGPU := hungarianSpeedupPlots(hungarianView(run, "hungarian/table2")); len(withGPU) != 1 || hasNote(withGPU[0], "unavailable") {
		t.Errorf("Fig. 9 with CUDA records: %+v", withGPU)
	}
}

// TestKleenePlotsSplitCPUAndGPU: table2's plots hold the CPU
// implementations, table3's the CUDA ones, each beside its paper machine.
func TestKleenePlotsSplitCPUAndGPU(t *testing.T) {
	run := []bench.Record{
		rec("kleene/table2", "cpu/fast", "1000", map[string]float64{"update_w": 10, "total": 12, "end_to_end": 12}),
		rec("kleene/table3", "cpu/fast", "1000", map[string]float64{"update_w": 10, "total": 12, "end_to_end": 12}),
		rec("kleene/table3", "cuda/fast", "1000", map[string]float64{"update_w": 1, "total": 2, "end_to_end": 4}),
	}
	for exp, prefix := range map[string]string{"kleene/table2": "cpu/", "kleene/table3": "cuda/"} {
		for _, p := range kleenePlots(run, exp) {
			for _, s := range p.Series {
				if !strings.HasPrefix(s.Impl, prefix) {
					t.Errorf("%s: series %q of %q", p.Name, s.Name, s.Impl)
				}
			}
		}
	}
	gpuless := kleenePlots(gpuLess(run), "kleene/table3")
	if len(gpuless) != 2 || !hasNote(gpuless[1], "cuda/fast") || !hasNote(gpuless[1], "no GPU") {
		t.Errorf("GPU-less table3 plots %+v", gpuless)
	}
}

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
	if !hasNote(p, "cuda/vectorial: unavailable on this machine (no GPU)") {
		t.Errorf("notes %q", p.Notes)
	}
	if _, err := p.Save(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyPlotNotWritten: a GPU-less run's Fig. 6 has nothing to draw:
// RenderPlots writes no hungarian-fig6 file, and the report says the
// figure is missing and why.
func TestEmptyPlotNotWritten(t *testing.T) {
	f := &bench.File{Schema: bench.SchemaVersion, Machine: bench.Machine{Label: "test-box", Cores: 2}, Scale: "paper",
		Records: gpuLess(hungarianRun())}
	dir := t.TempDir()
	paths, err := RenderPlots(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no plot drawn at all")
	}
	for _, p := range paths {
		if strings.Contains(p, "hungarian-fig6") {
			t.Errorf("the empty Fig. 6 was written: %s", p)
		}
	}
	notDrawn := PlotsNotDrawn(f)
	if !slices.ContainsFunc(notDrawn, func(s string) bool {
		return strings.HasPrefix(s, "hungarian-fig6: not drawn, nothing measured: ") && strings.Contains(s, "no GPU")
	}) {
		t.Errorf("not drawn: %q", notDrawn)
	}
	md := filepath.Join(t.TempDir(), "run.md")
	if err := WriteReport(md, f, paths, 0); err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(md)
	if !bytes.Contains(doc, []byte("- hungarian-fig6: not drawn, nothing measured")) {
		t.Errorf("the report does not say Fig. 6 is missing:\n%s", doc)
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
	if !hasNote(p, cpuSequential+", "+cpuParallel+", "+cpuVectorial+": the same error at every chain") {
		t.Errorf("no note on the coinciding series: %q", p.Notes)
	}
	if !hasNote(p, "drawn flat at 10") {
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

// TestDominationPlots: Tables 2 and 5 against m, log y, the paper's times
// (hollow) beside ours, each of our versions in its paper version's colour.
func TestDominationPlots(t *testing.T) {
	run := []bench.Record{
		domRec("domination/table2", "cpu/sparse", 8, bench.TotalPhase, 900),
		domRec("domination/table2", "cpu/sparse", 7, bench.TotalPhase, 300),
		domRec("domination/table5", domV1, 7, bench.TotalPhase, 16000),
		domRec("domination/table5", domV2, 7, bench.TotalPhase, 700),
	}
	t2, t5 := dominationTable2Plots(run), dominationTable5Plots(run)
	if len(t2) != 1 || len(t5) != 1 {
		t.Fatalf("plots: %d and %d", len(t2), len(t5))
	}
	for _, p := range []report.Plot{t2[0], t5[0]} {
		if !p.LogY || p.LogX || !strings.Contains(p.XLabel, "m") {
			t.Errorf("%s: axes log y %v log x %v, x label %q", p.Name, p.LogY, p.LogX, p.XLabel)
		}
		var paper, ours int
		for _, s := range p.Series {
			if s.Paper {
				paper++
			} else {
				ours++
			}
			if !slices.IsSorted(s.X) {
				t.Errorf("%s: series %q x %v not in order", p.Name, s.Name, s.X)
			}
		}
		if paper < 3 || ours < 1 {
			t.Errorf("%s: %d paper series, %d of ours: %q", p.Name, paper, ours, seriesNames(p))
		}
		if r := p.RepeatedLook(); r != "" {
			t.Errorf("%s: %s", p.Name, r)
		}
		if _, err := p.Save(t.TempDir()); err != nil {
			t.Error(err)
		}
	}
	looks := t5[0].Looks()
	color := map[string]report.Look{}
	for i, s := range t5[0].Series {
		color[s.Name] = looks[i]
	}
	if color["paper V1 sequential"].Color != color[domV1+" (V1)"].Color {
		t.Errorf("our V1 and the paper's differ in colour: %q", seriesNames(t5[0]))
	}
}
