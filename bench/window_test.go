package bench

import (
	"maps"
	"slices"
	"testing"
)

// TestWindowMetricsRoundTrip: a window goes into the metrics under its
// label's keys, replacing an older window and leaving the cell's work and
// other metrics alone, and comes back whole.
func TestWindowMetricsRoundTrip(t *testing.T) {
	w := Window{Phases: []string{"write", "scan", "read"}, Work: Work{Flops: 3 << 24, DRAMBytes: 48 << 24}}
	m := map[string]float64{"n": 1 << 24, MetricWorkDRAMBytes: 84 << 24, "work.window.update_w.updates": 7}
	w.SetMetrics(m)
	want := map[string]float64{"n": 1 << 24, MetricWorkDRAMBytes: 84 << 24,
		"work.window.write+scan+read.flops": 3 << 24, "work.window.write+scan+read.dram_bytes": 48 << 24}
	if !maps.Equal(m, want) {
		t.Fatalf("metrics %v, want %v", m, want)
	}
	got, ok := WindowFromMetrics(m)
	if !ok || !slices.Equal(got.Phases, w.Phases) || got.Work != w.Work || got.Label() != "write+scan+read" {
		t.Errorf("WindowFromMetrics = %+v, %v; want %+v, true", got, ok, w)
	}
	// The cell's own work reads the same as before: the window's keys are
	// not work.* counts.
	if cell, ok := WorkFromMetrics(m); !ok || cell != (Work{DRAMBytes: 84 << 24}) {
		t.Errorf("WorkFromMetrics = %+v, %v beside a window", cell, ok)
	}
}

// TestWindowFromMetricsRefuses: no window keys, two windows' keys, a count
// of no known name, and a window a name of which cannot be a key give no
// window; SetMetrics of such a window only removes the older one.
func TestWindowFromMetricsRefuses(t *testing.T) {
	for _, m := range []map[string]float64{
		nil,
		{"work.dram_bytes": 4},
		{"work.window.write.dram_bytes": 4, "work.window.scan.dram_bytes": 4},
		{"work.window.write.bytes": 4},
		{"work.window.dram_bytes": 4},
	} {
		if w, ok := WindowFromMetrics(m); ok {
			t.Errorf("WindowFromMetrics(%v) = %+v, true; want none", m, w)
		}
	}
	m := map[string]float64{"work.window.write.flops": 1}
	Window{Phases: []string{"a.b"}, Work: Work{Flops: 1}}.SetMetrics(m)
	Window{Phases: []string{"write"}}.SetMetrics(m)
	if len(m) != 0 {
		t.Errorf("metrics %v after setting windows that cannot be written; want none", m)
	}
}

// TestWindowMS: the window's time is the sum of its phases' medians (the
// statistic where a paper's record has no median), and none when a phase
// is missing.
func TestWindowMS(t *testing.T) {
	r := &Record{Phases: []Phase{{Name: "euler_tour", MedianMS: 4.5}, {Name: "write", MedianMS: 0.125},
		{Name: "scan", MedianMS: 0.0995}, {Name: "read", StatMS: 0.0935}}}
	w := Window{Phases: []string{"write", "scan", "read"}, Work: Work{DRAMBytes: 1}}
	if ms, ok := w.WindowMS(r); !ok || ms != 0.125+0.0995+0.0935 {
		t.Errorf("WindowMS = %v, %v; want %v", ms, ok, 0.125+0.0995+0.0935)
	}
	w.Phases = append(w.Phases, "d2h")
	if ms, ok := w.WindowMS(r); ok {
		t.Errorf("WindowMS = %v without the phase d2h; want none", ms)
	}
}
