package hungarian

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
)

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
		t.Errorf("measured series at range n: %q (all %q)", ours, experimentstest.SeriesNames(plots[0]))
	}
	if !strings.Contains(plots[0].Title, "Table 1") || !strings.Contains(plots[0].YLabel, "ms") {
		t.Errorf("title %q, y label %q", plots[0].Title, plots[0].YLabel)
	}

	if r := plots[0].RepeatedLook(); r != "" {
		t.Error(r)
	}
	// No GPU: CPU series only, and a note says why.
	cpuOnly := hungarianTable1Plots(experimentstest.GPULess(run))[0]
	for _, s := range cpuOnly.Series {
		if strings.HasPrefix(s.Impl, "cuda/") {
			t.Errorf("GPU-less table1 plot draws %q", s.Name)
		}
	}
	if !experimentstest.HasNote(cpuOnly, "cuda/paper, cuda/fast, cuda/hungarian-n3: unavailable on this machine (no GPU)") || strings.Contains(cpuOnly.Title, "GPU") {
		t.Errorf("GPU-less table1 plot: title %q, notes %q", cpuOnly.Title, cpuOnly.Notes)
	}

	fig9 := hungarianSpeedupPlots(hungarianView(experimentstest.GPULess(run), "hungarian/table2"))
	if len(fig9) != 1 {
		t.Fatalf("GPU-less Fig. 9: %d plots", len(fig9))
	}
	if !experimentstest.HasNote(fig9[0], "cuda/paper, cuda/fast: unavailable on this machine (no GPU)") {
		t.Errorf("GPU-less Fig. 9 notes %q", fig9[0].Notes)
	}
	for _, s := range fig9[0].Series {
		if !s.Paper {
			t.Errorf("GPU-less Fig. 9 draws measured series %q", s.Name)
		}
	}
	if withGPU := hungarianSpeedupPlots(hungarianView(run, "hungarian/table2")); len(withGPU) != 1 || experimentstest.HasNote(withGPU[0], "unavailable") {
		t.Errorf("Fig. 9 with CUDA records: %+v", withGPU)
	}
}

// TestEmptyPlotNotWritten: a GPU-less run's Fig. 6 has nothing to draw:
// RenderPlots writes no hungarian-fig6 file, and the report says the
// figure is missing and why.
func TestEmptyPlotNotWritten(t *testing.T) {
	f := &bench.File{Schema: bench.SchemaVersion, Machine: bench.Machine{Label: "test-box", Cores: 2}, Scale: "paper",
		Records: experimentstest.GPULess(hungarianRun())}
	dir := t.TempDir()
	paths, err := experiments.RenderPlots(f, dir)
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
	notDrawn := experiments.PlotsNotDrawn(f)
	if !slices.ContainsFunc(notDrawn, func(s string) bool {
		return strings.HasPrefix(s, "hungarian-fig6: not drawn, nothing measured: ") && strings.Contains(s, "no GPU")
	}) {
		t.Errorf("not drawn: %q", notDrawn)
	}
	md := filepath.Join(t.TempDir(), "run.md")
	if err := experiments.WriteReport(md, f, paths, 0); err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(md)
	if !bytes.Contains(doc, []byte("- hungarian-fig6: not drawn, nothing measured")) {
		t.Errorf("the report does not say Fig. 6 is missing:\n%s", doc)
	}
}
