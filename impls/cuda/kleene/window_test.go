package cudakleene

import (
	"context"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

// TestGPUWindow checks, on a device, where both implementations put their
// phases under the timing protocol (the paper's window: X in host memory to
// W in device memory, the download of W outside), that total never exceeds
// end_to_end, and that recycled results are reused and stay correct: each
// repetition gives the previous result back, so later solves write into its
// memory, and the last result must still equal the reference.
func TestGPUWindow(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	x, err := dag.Generate(300, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := kleene.Reference(ctx, x, 0)
	if err != nil {
		t.Fatal(err)
	}
	inTotal := map[string][]string{
		"cuda/paper": {kleene.PhaseConvertCCS, kleene.PhaseTopoSort, kleene.PhaseInitW, PhaseH2D, kleene.PhaseUpdateW},
		"cuda/fast":  {PhaseH2D, kleene.PhaseTopoSort, kleene.PhaseInitW, kleene.PhaseUpdateW},
	}
	for _, im := range Impls() {
		var w *maxplus.Matrix
		seen := map[*float32]bool{}
		phases, err := bench.Measure(ctx, bench.Protocol{Warmup: 1, Reps: 4, Statistic: bench.StatMedian},
			func(ctx context.Context, rec *bench.Recorder) error {
				if w != nil && !Recycle(w) {
					t.Errorf("%s: Recycle refused a result of the implementation", im.Name)
				}
				out, err := im.Run(ctx, x, kleene.Options{}, rec)
				if err == nil {
					seen[&out.Val[0]] = true
				}
				w = out
				return err
			})
		if err != nil {
			t.Fatalf("%s: %v", im.Name, err)
		}
		if ck := kleene.Verify(x, w, ref, true); !ck.OK {
			t.Errorf("%s after recycling: %s", im.Name, ck.Detail)
		}
		if len(seen) > 2 {
			t.Errorf("%s: %d different output buffers in 5 solves, each given back before the next: want at most 2", im.Name, len(seen))
		}
		first := Recycle(w)
		if second := Recycle(w); first && second {
			t.Errorf("%s: Recycle took the same result twice", im.Name)
		}
		scope := map[string]string{}
		var total, e2e []float64
		for _, p := range phases {
			scope[p.Name] = p.Scope
			switch p.Name {
			case bench.TotalPhase:
				total = p.SamplesMS
			case bench.EndToEndPhase:
				e2e = p.SamplesMS
			}
		}
		for _, name := range inTotal[im.Name] {
			if scope[name] != bench.ScopeTotal {
				t.Errorf("%s: phase %s has scope %q, want %q", im.Name, name, scope[name], bench.ScopeTotal)
			}
		}
		if scope[PhaseD2H] != bench.ScopeEndToEnd {
			t.Errorf("%s: phase d2h has scope %q, want %q", im.Name, scope[PhaseD2H], bench.ScopeEndToEnd)
		}
		for i := range total {
			if total[i] > e2e[i] {
				t.Errorf("%s: sample %d: total %.3f ms > end_to_end %.3f ms", im.Name, i, total[i], e2e[i])
			}
		}
	}
}
