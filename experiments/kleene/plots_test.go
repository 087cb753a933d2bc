package kleene

import (
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments/experimentstest"
)

// TestKleenePlotsSplitCPUAndGPU: table2's plots hold the CPU
// implementations, table3's the CUDA ones, each beside its paper machine.
func TestKleenePlotsSplitCPUAndGPU(t *testing.T) {
	run := []bench.Record{
		experimentstest.KleeneRecord("kleene/table2", "cpu/fast", "1000", map[string]float64{"update_w": 10, "total": 12, "end_to_end": 12}),
		experimentstest.KleeneRecord("kleene/table3", "cpu/fast", "1000", map[string]float64{"update_w": 10, "total": 12, "end_to_end": 12}),
		experimentstest.KleeneRecord("kleene/table3", "cuda/fast", "1000", map[string]float64{"update_w": 1, "total": 2, "end_to_end": 4}),
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
	gpuless := kleenePlots(experimentstest.GPULess(run), "kleene/table3")
	if len(gpuless) != 2 || !experimentstest.HasNote(gpuless[1], "cuda/fast") || !experimentstest.HasNote(gpuless[1], "no GPU") {
		t.Errorf("GPU-less table3 plots %+v", gpuless)
	}
}
