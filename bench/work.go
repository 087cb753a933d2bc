package bench

import "math"

// Work is the least work one run of a cell does, by kind. Every count is a
// minimal count derived from the problem's sizes (and, where its algorithm
// decides the work, the algorithm the cell runs), never a measured count:
// a cache that holds more than the algorithm's tile, a data-dependent
// shortcut or a repeated pass the sizes do not imply make the real work
// differ. Each experiment's declaration (experiments.Experiment.Work) says
// what it counts and what it leaves out.
//
// One run is what the cell's end_to_end covers: the solve (Updates, Flops,
// IntOps, DRAMBytes) and, for a GPU cell, the copies across the host link
// (LinkBytes), wherever its window of total puts them.
type Work struct {
	// Updates are semiring multiply-add pairs: a (min,+), (max,+), (+,×)
	// or (∧,∨) update, one ⊗ and one ⊕.
	Updates float64
	// Flops are the other floating-point operations.
	Flops float64
	// IntOps are the other integer operations.
	IntOps float64
	// DRAMBytes are the least bytes read from and written to device memory
	// (main memory for a CPU cell).
	DRAMBytes float64
	// LinkBytes are the bytes across the host link (PCIe, NVLink-C2C): the
	// copies of end_to_end, both ways; 0 for a CPU cell.
	LinkBytes float64
}

// The record metrics that carry a Work (Record.Metrics), each omitted when
// zero.
const (
	MetricWorkUpdates   = "work.updates"
	MetricWorkFlops     = "work.flops"
	MetricWorkIntOps    = "work.intops"
	MetricWorkDRAMBytes = "work.dram_bytes"
	MetricWorkLinkBytes = "work.link_bytes"
)

// fields pairs each metric key with its field of w.
func (w *Work) fields() [5]struct {
	key string
	v   *float64
} {
	return [5]struct {
		key string
		v   *float64
	}{
		{MetricWorkUpdates, &w.Updates}, {MetricWorkFlops, &w.Flops}, {MetricWorkIntOps, &w.IntOps},
		{MetricWorkDRAMBytes, &w.DRAMBytes}, {MetricWorkLinkBytes, &w.LinkBytes},
	}
}

// SetMetrics writes w's non-zero counts into m under the work.* keys and
// deletes the keys of its zero counts, so that m carries w and nothing
// older.
func (w Work) SetMetrics(m map[string]float64) {
	for _, f := range w.fields() {
		if *f.v != 0 {
			m[f.key] = *f.v
		} else {
			delete(m, f.key)
		}
	}
}

// WorkFromMetrics reads a Work from a record's metrics; ok is false when
// none of the work.* keys is present (a record written before work was
// declared, or one of a cell that declares none).
func WorkFromMetrics(m map[string]float64) (w Work, ok bool) {
	for _, f := range w.fields() {
		if v, has := m[f.key]; has {
			*f.v, ok = v, true
		}
	}
	return w, ok
}

// IsZero reports whether w declares nothing.
func (w Work) IsZero() bool { return w == Work{} }

// Ops are the operations of w: an update counts two (its ⊗ and its ⊕, as
// a fused multiply-add counts two flops), every other operation one.
func (w Work) Ops() float64 { return 2*w.Updates + w.Flops + w.IntOps }

// Intensity is w's arithmetic intensity, Ops per DRAM byte, the roofline
// model's abscissa: 0 without operations, +Inf with operations and no DRAM
// byte declared.
func (w Work) Intensity() float64 {
	ops := w.Ops()
	switch {
	case ops == 0:
		return 0
	case w.DRAMBytes == 0:
		return math.Inf(1)
	}
	return ops / w.DRAMBytes
}

// The resources a Work's least time is bound by (Work.Dominant).
const (
	BoundCompute = "compute" // the operations at the peak operation rate
	BoundMemory  = "memory"  // the DRAM bytes at the peak memory bandwidth
	BoundLink    = "link"    // the host link's bytes at its bandwidth
)

// Dominant names the resource whose least time for w is the longest on a
// machine of the given peaks: opsPerS operations per second (Ops),
// dramBytesPerS bytes per second of memory bandwidth and linkBytesPerS of
// the host link. A peak of 0 or less leaves its resource out; "" when no
// resource has both work and a peak. Without the link this is the
// roofline's verdict: compute where the intensity is at or above the
// ridge point opsPerS/dramBytesPerS, memory below it.
func (w Work) Dominant(opsPerS, dramBytesPerS, linkBytesPerS float64) string {
	best, bound := 0.0, ""
	for _, r := range []struct {
		name        string
		amount, per float64
	}{{BoundCompute, w.Ops(), opsPerS}, {BoundMemory, w.DRAMBytes, dramBytesPerS}, {BoundLink, w.LinkBytes, linkBytesPerS}} {
		if r.amount <= 0 || r.per <= 0 {
			continue
		}
		if t := r.amount / r.per; t >= best {
			best, bound = t, r.name
		}
	}
	return bound
}

// Add is w plus v, kind by kind: the work of two runs, or of two parts of
// one.
func (w Work) Add(v Work) Work {
	return Work{Updates: w.Updates + v.Updates, Flops: w.Flops + v.Flops, IntOps: w.IntOps + v.IntOps,
		DRAMBytes: w.DRAMBytes + v.DRAMBytes, LinkBytes: w.LinkBytes + v.LinkBytes}
}

// Scale is w with every count multiplied by k: k runs of the same work.
func (w Work) Scale(k float64) Work {
	return Work{Updates: k * w.Updates, Flops: k * w.Flops, IntOps: k * w.IntOps,
		DRAMBytes: k * w.DRAMBytes, LinkBytes: k * w.LinkBytes}
}
