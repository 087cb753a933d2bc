package bench

import (
	"math"
	"testing"
)

func TestWorkMetricsRoundTrip(t *testing.T) {
	w := Work{Updates: 8e9, Flops: 3, DRAMBytes: 4e6, LinkBytes: 2e6}
	m := map[string]float64{"arcs": 12, MetricWorkIntOps: 99} // a stale key the new work has no count for
	w.SetMetrics(m)
	want := map[string]float64{"arcs": 12, "work.updates": 8e9, "work.flops": 3, "work.dram_bytes": 4e6, "work.link_bytes": 2e6}
	if len(m) != len(want) {
		t.Fatalf("metrics %v, want %v", m, want)
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("metrics[%q] = %v, want %v", k, m[k], v)
		}
	}
	got, ok := WorkFromMetrics(m)
	if !ok || got != w {
		t.Errorf("WorkFromMetrics = %+v, %v; want %+v, true", got, ok, w)
	}
	if _, ok := WorkFromMetrics(map[string]float64{"arcs": 12}); ok {
		t.Error("WorkFromMetrics found work in metrics without a work.* key")
	}
	if _, ok := WorkFromMetrics(nil); ok {
		t.Error("WorkFromMetrics found work in nil metrics")
	}
}

func TestWorkIntensityAndDominant(t *testing.T) {
	w := Work{Updates: 1e12, Flops: 1e11, DRAMBytes: 1e11}
	if got := w.Ops(); got != 2.1e12 {
		t.Errorf("Ops = %g, want 2.1e12", got)
	}
	if got := w.Intensity(); math.Abs(got-21) > 1e-12 {
		t.Errorf("Intensity = %g, want 21", got)
	}
	if got := (Work{Updates: 1}).Intensity(); !math.IsInf(got, 1) {
		t.Errorf("Intensity without DRAM bytes = %g, want +Inf", got)
	}
	if got := (Work{DRAMBytes: 1}).Intensity(); got != 0 {
		t.Errorf("Intensity without operations = %g, want 0", got)
	}
	// Ridge point 67e12 / 3.35e12 = 20 operations per byte: 21 is above it.
	if got := w.Dominant(67e12, 3.35e12, 0); got != BoundCompute {
		t.Errorf("Dominant at ridge 20 = %q, want compute", got)
	}
	if got := w.Dominant(67e12, 2e12, 0); got != BoundMemory {
		t.Errorf("Dominant at ridge 33.5 = %q, want memory", got)
	}
	w.LinkBytes = 1e11 // as many bytes over a link 50 times slower than memory
	if got := w.Dominant(67e12, 3.35e12, 55e9); got != BoundLink {
		t.Errorf("Dominant with the link = %q, want link", got)
	}
	if got := w.Dominant(0, 0, 0); got != "" {
		t.Errorf("Dominant without peaks = %q, want none", got)
	}
}

func TestWorkAddScale(t *testing.T) {
	a := Work{Updates: 1, Flops: 2, IntOps: 3, DRAMBytes: 4, LinkBytes: 5}
	if got, want := a.Add(a.Scale(2)), a.Scale(3); got != want {
		t.Errorf("a + 2a = %+v, want %+v", got, want)
	}
	if !(Work{}).IsZero() || a.IsZero() {
		t.Error("IsZero wrong")
	}
}
