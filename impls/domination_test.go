package impls

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/domination"
)

// TestDominationNames holds the registry to the names experiments expect,
// in display order, and refuses an unknown name.
func TestDominationNames(t *testing.T) {
	want := []string{"cpu/paper", "cpu/fast", "cpu/sparse", "cpu/whole-seq", "cpu/whole-par", "cpu/v1-seq", "cpu/v2-par",
		"cuda/paper", "cuda/fast", "cuda/sparse", "cuda/v3-gpu", "cuda/v4-gpu+cpu-par"}
	if got := Domination.Names(); !slices.Equal(got, want) {
		t.Errorf("Domination.Names() = %v, want %v", got, want)
	}
	if _, err := Domination.Lookup("cpu/nope"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("unknown implementation: %v", err)
	}
}

// TestWindows measures domination.Analyze with each domination.Window and checks which phases
// fall inside total: Algorithm 1 never, Algorithm 2 in both windows,
// Algorithms 3 to 5 only in domination.WindowAlgorithms2to5, their span a summary in
// each; with no window total is the whole call. The GPU implementations take the same path when a device
// is present.
func TestWindows(t *testing.T) {
	names := []string{"cpu/sparse"}
	if n, err := cuda.DeviceCount(); err == nil && n > 0 {
		for _, im := range Domination.Backend("cuda/") {
			if im.Search == domination.SearchFingerprints {
				names = append(names, im.Name)
			}
		}
	}
	for _, impl := range names {
		im, err := Domination.Lookup(impl)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			w      domination.Window
			inside map[string]bool
		}{
			{domination.NoWindow, map[string]bool{"algorithm1": true, "algorithm2": true, "algorithm3": true, "algorithm4": true, "algorithm5": true}},
			{domination.WindowAlgorithm2, map[string]bool{"algorithm2": true}},
			{domination.WindowAlgorithms2to5, map[string]bool{"algorithm2": true, "algorithm3": true, "algorithm4": true, "algorithm5": true}},
		} {
			ph, err := bench.Measure(t.Context(), bench.Protocol{Warmup: 0, Reps: 2, Statistic: bench.StatMedian},
				func(ctx context.Context, rec *bench.Recorder) error {
					_, err := domination.Analyze(ctx, 4, domination.Options{Impl: im, Rec: rec, Window: c.w, NoRecheck: strings.HasPrefix(impl, "cuda/")})
					return err
				})
			if err != nil {
				t.Fatalf("%s window %d: %v", impl, c.w, err)
			}
			ms := map[string]float64{}
			for _, p := range ph {
				ms[p.Name] = p.MedianMS
				if !strings.HasPrefix(p.Name, "algorithm") {
					continue
				}
				want := bench.ScopeEndToEnd
				switch {
				case p.Name == domination.PhaseAlgorithms2to5:
					want = bench.ScopeSummary
				case c.inside[p.Name]:
					want = bench.ScopeTotal
				}
				if p.Scope != want {
					t.Errorf("%s window %d: phase %s has scope %q, want %q", impl, c.w, p.Name, p.Scope, want)
				}
			}
			if ms[domination.PhaseAlgorithms2to5] < ms["algorithm2"] {
				t.Errorf("%s window %d: Algorithms 2-5 %.3f ms below Algorithm 2 %.3f ms", impl, c.w, ms[domination.PhaseAlgorithms2to5], ms["algorithm2"])
			}
			for a := range c.inside {
				if _, ok := ms[a]; !ok {
					t.Errorf("%s window %d: no phase %s", impl, c.w, a)
				}
			}
			if c.w == domination.NoWindow && ms[bench.TotalPhase] != ms[bench.EndToEndPhase] {
				t.Errorf("%s: without a window total %.3f ms differs from end_to_end %.3f ms", impl, ms[bench.TotalPhase], ms[bench.EndToEndPhase])
			}
			if ms[bench.TotalPhase] < ms["algorithm2"] || ms[bench.TotalPhase] > ms[bench.EndToEndPhase] {
				t.Errorf("%s window %d: total %.3f ms outside [algorithm2 %.3f, end_to_end %.3f]", impl, c.w, ms[bench.TotalPhase], ms["algorithm2"], ms[bench.EndToEndPhase])
			}
		}
	}
	if _, err := domination.Powers(t.Context(), 4, domination.Options{Window: domination.WindowAlgorithms2to5}); err == nil {
		t.Error("domination.Powers accepted the window of Algorithms 2 to 5")
	}
}
