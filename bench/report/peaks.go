package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/semibench/semibench/bench"
)

// smRates is the issue rate of one streaming multiprocessor, in
// operations per clock, of the instruction kinds a declared bench.Work
// runs on, for one compute capability.
type smRates struct {
	// FP32 is the 32-bit floating-point add, multiply and multiply-add.
	FP32 float64
	// Int32 is the 32-bit integer add and subtract.
	Int32 float64
	// MinMax is compare, minimum and maximum.
	MinMax float64
}

// ccRates holds, per compute capability, the rows of NVIDIA's table
// "Throughput of Native Arithmetic Instructions (Number of Results per
// Clock Cycle per Multiprocessor)" that a declared Work needs: the CUDA
// C++ Programming Guide's section "Arithmetic Instructions" up to CUDA
// 12, the CUDA C++ Best Practices Guide's section "Throughput of Native
// Arithmetic Instructions" since (docs.nvidia.com/cuda/
// cuda-c-best-practices-guide/#throughput-of-native-arithmetic-instructions).
// A capability not listed has no compute peak here: compare says so rather
// than guess.
//
// Checked against copies of the table (the search tool's docs and code
// corpora; NVIDIA's own page was not among them), rows "32-bit
// floating-point add, multiply, multiply-add", "32-bit integer add,
// extended-precision add, subtract" and "compare, minimum, maximum":
//   - 6.0, 6.1, 7.x: all three rows confirmed (the Programming Guide's
//     table of CUDA 10, columns 3.0 to 7.x: 64/64/32, 128/128/64,
//     64/64/64; its 32-bit floating-point row also as NVIDIA's forum
//     quotes the guide).
//   - 8.0, 8.6: floating point (64, 128) and integer add (64, 64)
//     confirmed (a transcription of the guide's table with columns 8.0
//     and 8.6); compare, minimum, maximum not found.
//   - 9.0: floating point 128 confirmed (OpenXLA's core table and a
//     measured H200 note, both citing the Best Practices Guide of CUDA
//     13); 32-bit integer 64 as OpenXLA's Hopper table has it; compare,
//     minimum, maximum not found.
//   - 8.9: no entry found; kept as 8.6's, the same SM design.
//
// No entry disagreed with a source; none was changed. For 9.0 the
// updates' peak, the lower of the two rates, 64, is also the issue
// limit: four schedulers each issue one warp instruction a clock (128
// lanes), and a float32 (min,+) update is two instructions (FADD and
// FMNMX). The H100's and H200's runs measure 89% of it with a probe that
// runs only such pairs (apsp/blocked's gpu_limit_tups); code that updates
// with fewer instructions an update (cuda/fast's non-negative path, two
// updates in three) can pass it.
var ccRates = map[string]smRates{
	"6.0": {FP32: 64, Int32: 64, MinMax: 32},
	"6.1": {FP32: 128, Int32: 128, MinMax: 64},
	"7.0": {FP32: 64, Int32: 64, MinMax: 64},
	"7.5": {FP32: 64, Int32: 64, MinMax: 64},
	"8.0": {FP32: 64, Int32: 64, MinMax: 64},
	"8.6": {FP32: 128, Int32: 64, MinMax: 64},
	"8.9": {FP32: 128, Int32: 64, MinMax: 64},
	"9.0": {FP32: 128, Int32: 64, MinMax: 64},
}

// BoundFraction is the least fraction of a peak at which a cell is called
// bound by that resource: below it on both the memory and the compute
// ceiling, something else holds the cell back (latency, launches,
// synchronisation, the host).
const BoundFraction = 0.5

// The bound classes of a GPU cell (Peaks.Bound).
const (
	BoundMemory  = "memory"  // at or above BoundFraction of the peak bandwidth
	BoundCompute = "compute" // at or above BoundFraction of the peak issue rate
	BoundNeither = "neither" // below both: latency, launches or the host
)

// Peaks are one GPU's ceilings, computed from its header (bench.GPU):
// the peak memory bandwidth, 2 × memory clock × bus bits / 8 (double data
// rate), and the peak issue rates, SMs × clock × the per-SM rate of the
// operation's kind for its compute capability (ccRates).
type Peaks struct {
	GPU string // the GPU's name
	// BytesPerS is the peak memory bandwidth; 0 when the header lacks the
	// memory clock or bus width.
	BytesPerS float64
	// UpdatesPerS, FlopsPerS and IntOpsPerS are the peak rates of the
	// kinds of bench.Work: a semiring update issues one add and one
	// minimum (or maximum) to different pipes, so it runs at the lower of
	// the two rates; a flop at the 32-bit floating-point rate with a
	// multiply-add counting two (the figure NVIDIA publishes); an integer
	// operation at the 32-bit add rate. 0 when the header lacks SMs or
	// clock, or the capability is not in the table.
	UpdatesPerS, FlopsPerS, IntOpsPerS float64
	// Why says what is missing when a peak is 0.
	Why string
}

// PeaksOf computes a GPU's ceilings from its header.
func PeaksOf(g bench.GPU) Peaks {
	p := Peaks{GPU: g.Name}
	var why []string
	if g.MemoryClockMHz > 0 && g.MemoryBusBits > 0 {
		p.BytesPerS = 2 * float64(g.MemoryClockMHz) * 1e6 * float64(g.MemoryBusBits) / 8
	} else {
		why = append(why, "no memory clock or bus width in the header")
	}
	r, known := ccRates[g.ComputeCapability]
	switch {
	case g.SMs <= 0 || g.ClockMHz <= 0:
		why = append(why, "no SM count or clock in the header")
	case !known:
		why = append(why, fmt.Sprintf("compute capability %q not in the rate table", g.ComputeCapability))
	default:
		clocks := float64(g.SMs) * float64(g.ClockMHz) * 1e6
		p.UpdatesPerS = clocks * min(r.FP32, r.MinMax)
		p.FlopsPerS = clocks * r.FP32 * 2
		p.IntOpsPerS = clocks * r.Int32
	}
	p.Why = strings.Join(why, "; ")
	return p
}

// FirstGPU is the peaks of a file's first GPU, false when it has none.
func FirstGPU(f *bench.File) (Peaks, bool) {
	if f == nil || len(f.Machine.GPUs) == 0 {
		return Peaks{}, false
	}
	return PeaksOf(f.Machine.GPUs[0]), true
}

// computeSeconds is the least time w's operations take at these peaks:
// each kind runs on its own pipe, so the slowest kind sets it; 0 when w
// has no operation or the peaks none.
func (p Peaks) computeSeconds(w bench.Work) float64 {
	t := 0.0
	for _, k := range []struct{ n, per float64 }{{w.Updates, p.UpdatesPerS}, {w.Flops, p.FlopsPerS}, {w.IntOps, p.IntOpsPerS}} {
		if k.n > 0 && k.per > 0 {
			t = max(t, k.n/k.per)
		}
	}
	return t
}

// ComputePeak is the peak operation rate (bench.Work.Ops per second) for
// w's mix of kinds: its operations over the least time they take; 0 when
// unknown.
func (p Peaks) ComputePeak(w bench.Work) float64 {
	if t := p.computeSeconds(w); t > 0 {
		return w.Ops() / t
	}
	return 0
}

// Fractions are the fractions of the peak memory bandwidth and of the peak
// issue rate that work w reached in ms milliseconds (NaN where the work
// or the peak is unknown).
func (p Peaks) Fractions(w bench.Work, ms float64) (memory, compute float64) {
	memory, compute = math.NaN(), math.NaN()
	if ms <= 0 {
		return memory, compute
	}
	s := ms / 1e3
	if w.DRAMBytes > 0 && p.BytesPerS > 0 {
		memory = w.DRAMBytes / p.BytesPerS / s
	}
	if t := p.computeSeconds(w); t > 0 {
		compute = t / s
	}
	return memory, compute
}

// Bound classes a cell from its fractions: the resource of the larger
// fraction when it reaches BoundFraction, else BoundNeither; with the
// larger fraction. "" when neither fraction is known.
func Bound(memory, compute float64) (class string, fraction float64) {
	switch {
	case math.IsNaN(memory) && math.IsNaN(compute):
		return "", math.NaN()
	case math.IsNaN(compute) || memory >= compute:
		class, fraction = BoundMemory, memory
	default:
		class, fraction = BoundCompute, compute
	}
	if fraction < BoundFraction {
		class = BoundNeither
	}
	return class, fraction
}

// PredictedRatios are the ratios of time, a's over b's, that the two
// GPUs' peaks predict for a cell bound by memory bandwidth and for one
// bound by its operations of mix w (a zero w: 32-bit floating point);
// NaN where a peak is unknown.
func PredictedRatios(a, b Peaks, w bench.Work) (memory, compute float64) {
	memory, compute = math.NaN(), math.NaN()
	if a.BytesPerS > 0 && b.BytesPerS > 0 {
		memory = b.BytesPerS / a.BytesPerS
	}
	if w.Ops() == 0 {
		w = bench.Work{Flops: 1}
	}
	if ta, tb := a.computeSeconds(w), b.computeSeconds(w); ta > 0 && tb > 0 {
		compute = ta / tb
	}
	return memory, compute
}

// Describe is a one-line account of the peaks: "3.35 TB/s; 16.7 T
// updates/s, 66.9 Tflop/s, 16.7 T int ops/s".
func (p Peaks) Describe() string {
	var parts []string
	if p.BytesPerS > 0 {
		parts = append(parts, fmt.Sprintf("%.3g TB/s", p.BytesPerS/1e12))
	}
	if p.UpdatesPerS > 0 {
		parts = append(parts, fmt.Sprintf("%.3g T updates/s, %.3g Tflop/s, %.3g T int ops/s",
			p.UpdatesPerS/1e12, p.FlopsPerS/1e12, p.IntOpsPerS/1e12))
	}
	if p.Why != "" {
		parts = append(parts, "("+p.Why+")")
	}
	return strings.Join(parts, "; ")
}
