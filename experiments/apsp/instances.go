package apsp

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/internal/digest"
	"github.com/semibench/semibench/problems/apsp"
	"github.com/semibench/semibench/problems/apsp/semiring"
	"github.com/semibench/semibench/problems/apsp/systolic"
)

// apspGraph is a random min-plus weight matrix: arc i -> j with
// probability p, integer weight in [1, maxW], negated with probability neg
// (so negative cycles occur), +inf where there is no arc.
func apspGraph[T semiring.Float](seed uint64, n int, p float64, maxW int, neg float64) *apsp.Matrix[T] {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	m := apsp.NewMatrix(n, T(math.Inf(1)))
	for i := range m.Data {
		if r.Float64() < p {
			w := T(1 + r.IntN(maxW))
			if r.Float64() < neg {
				w = -w
			}
			m.Data[i] = w
		}
	}
	return m
}

// hashMatrix is a content hash of a matrix for the result file.
func hashMatrix[T any](m *apsp.Matrix[T]) string {
	n := binary.LittleEndian.AppendUint64(nil, uint64(m.N))
	switch d := any(m.Data).(type) {
	case []float32:
		return digest.Sum(n, digest.Bytes(d))
	case []float64:
		return digest.Sum(n, digest.Bytes(d))
	case []bool:
		b := make([]byte, len(d))
		for i, x := range d {
			if x {
				b[i] = 1
			}
		}
		return digest.Sum(n, b)
	}
	var b strings.Builder
	for _, v := range m.Data {
		fmt.Fprint(&b, v, " ")
	}
	return digest.Sum(n, []byte(b.String()))
}

// ---- apsp/semirings --------------------------------------------------------

func apspSemiringSizes(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{16, 64}
	case experiments.Large:
		return []int{512}
	}
	return []int{128, 256}
}

// apspSemiringNames are the cases of apsp/semirings: the paper's three
// examples (the real one twice: the closure (I-A)⁻¹ and the direct
// inverse A⁻¹) and max-plus.
var apspSemiringNames = []string{"min-plus", "boolean", "real", "real-inverse", "max-plus"}

type apspOut struct {
	mat    any
	counts apsp.Counts
	sgje   bool
}

func apspSemiringCase(name string, n int, o experiments.Options) experiments.Case {
	seed := apspSeed(o)
	caseImpls := []string{"cpu/sgje", "cpu/fast", "cuda/fast"}
	if name == "real-inverse" {
		caseImpls = []string{"cpu/sgje", "cuda/fast"}
	}
	return experiments.Case{
		Params: bench.Params{{Name: "semiring", Value: name}, {Name: "n", Value: strconv.Itoa(n)}},
		Impls:  caseImpls,
		Work:   float64(n) * float64(n) * float64(n),
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			metrics := map[string]float64{}
			inst := &experiments.Instance{Metrics: metrics}
			var run func(ctx context.Context, im apsp.Impl, rec *bench.Recorder) (apspOut, error)
			var check func(out apspOut) bench.Check
			switch name {
			case "min-plus", "max-plus":
				// Sparse integer weights with a few negative (min-plus) or
				// positive (max-plus) cycles: every method is exact.
				a := apspGraph[float64](seed, n, 3/float64(n), 20, 0.04)
				var ref *apsp.Matrix[float64]
				if name == "max-plus" {
					neg := a.Clone()
					for i, v := range neg.Data {
						neg.Data[i] = -v
					}
					a = neg // weights -w: arcs of weight +inf become -inf (no arc)
					ref = apsp.BellmanFord(negate(a))
					for i, v := range ref.Data {
						ref.Data[i] = -v
					}
				} else {
					ref = apsp.BellmanFord(a)
				}
				inst.Input = &bench.Input{Generator: "apsp-random-graph", Seed: seed, Hash: hashMatrix(a),
					Description: fmt.Sprintf("%s: n=%d, about 3 arcs per vertex, integer weights in [1,20], 4%% negated", name, n)}
				run = func(ctx context.Context, im apsp.Impl, rec *bench.Recorder) (apspOut, error) {
					c := a.Clone()
					cnt, err := im.Float(ctx, name, c, apsp.Options{Rec: rec})
					return apspOut{mat: c, counts: cnt, sgje: im.Counted}, err
				}
				check = func(out apspOut) bench.Check {
					return exactCheck("equal to Bellman-Ford from every source (-inf where a negative cycle reaches)", out.mat.(*apsp.Matrix[float64]), ref)
				}
			case "boolean":
				r := rand.New(rand.NewPCG(seed, uint64(n)))
				a := apsp.NewMatrix(n, false)
				for i := range a.Data {
					a.Data[i] = r.Float64() < 1.2/float64(n)
				}
				ref := apsp.BFSClosure(a)
				inst.Input = &bench.Input{Generator: "apsp-random-relation", Seed: seed, Hash: hashMatrix(a),
					Description: fmt.Sprintf("boolean: n=%d, about 1.2 arcs per vertex", n)}
				run = func(ctx context.Context, im apsp.Impl, rec *bench.Recorder) (apspOut, error) {
					c := a.Clone()
					cnt, err := im.Bool(ctx, c, apsp.Options{Rec: rec})
					return apspOut{mat: c, counts: cnt, sgje: im.Counted}, err
				}
				check = func(out apspOut) bench.Check {
					return exactCheck("equal to breadth-first search from every vertex", out.mat.(*apsp.Matrix[bool]), ref)
				}
			case "real", "real-inverse":
				r := rand.New(rand.NewPCG(seed, uint64(n)))
				a := apsp.NewMatrix(n, 0.0)
				for i := range a.Data {
					a.Data[i] = (2*r.Float64() - 1) / math.Sqrt(float64(n))
				}
				// The reference for both: (I - A)⁻¹ by partial pivoting. The
				// closure runs on A, the direct inverse on I - A (spectral
				// radius of A about 0.58: well conditioned, pivots near 1).
				target := apsp.NewMatrix(n, 0.0)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						target.Set(i, j, -a.At(i, j))
					}
					target.Set(i, i, 1-a.At(i, i))
				}
				input := a
				if name == "real-inverse" {
					input = target // A⁻¹ of I - A: the same reference
				}
				ref, err := apsp.InvertPivot(target)
				if err != nil {
					return nil, err
				}
				inst.Input = &bench.Input{Generator: "apsp-random-real", Seed: seed, Hash: hashMatrix(input),
					Description: fmt.Sprintf("%s: n=%d, entries uniform in ±1/√n", name, n)}
				run = func(ctx context.Context, im apsp.Impl, rec *bench.Recorder) (apspOut, error) {
					c := input.Clone()
					var cnt apsp.Counts
					var err error
					if name == "real-inverse" {
						cnt, err = im.Inverse(ctx, c, apsp.Options{Rec: rec})
					} else {
						cnt, err = im.Float(ctx, "real", c, apsp.Options{Rec: rec})
					}
					return apspOut{mat: c, counts: cnt, sgje: im.Counted}, err
				}
				check = func(out apspOut) bench.Check {
					return relCheck("within 1e-9 (relative, at least 1 in the denominator) of Gauss-Jordan with partial pivoting", out.mat.(*apsp.Matrix[float64]), ref, 1e-9)
				}
			default:
				return nil, fmt.Errorf("unknown semiring case %q", name)
			}
			inst.Run = func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
				im, err := impls.APSP.Lookup(impl)
				if err != nil || !slices.Contains(caseImpls, impl) {
					return nil, fmt.Errorf("%w: implementation %s is not built into this binary", experiments.ErrUnavailable, impl)
				}
				// cuda/fast marks its own window and phases (the matrix in
				// device memory); the CPU implementations' closure is the
				// whole call.
				stop := func() {}
				if !im.MarksWindow {
					stop = rec.Start(apsp.PhaseClosure)
				}
				out, err := run(ctx, im, rec)
				err = experiments.MarkUnavailable(err)
				stop()
				if err == nil && out.sgje {
					metrics["stars"] = float64(out.counts.Stars)
					metrics["mults"] = float64(out.counts.Mults)
					metrics["adds"] = float64(out.counts.Adds)
				}
				return out, err
			}
			inst.Check = func(impl string, o any) bench.Check {
				out, ok := o.(apspOut)
				if !ok {
					return bench.Check{Method: "output", Detail: "no output"}
				}
				chk := check(out)
				if out.sgje {
					want := apsp.FormulaCounts(n)
					chk.Method += "; operation counts = n stars, n³-n multiplications, n(n-1)² additions"
					if out.counts != want {
						chk.OK = false
						chk.Detail = fmt.Sprintf("counts %+v, the paper's formulas %+v; %s", out.counts, want, chk.Detail)
					}
				}
				return chk
			}
			return inst, nil
		},
	}
}

func negate(a *apsp.Matrix[float64]) *apsp.Matrix[float64] {
	b := a.Clone()
	for i, v := range b.Data {
		b.Data[i] = -v
	}
	return b
}

func exactCheck[T comparable](method string, got, want *apsp.Matrix[T]) bench.Check {
	chk := bench.Check{Method: method}
	for i, v := range want.Data {
		if got.Data[i] != v {
			chk.Detail = fmt.Sprintf("(%d,%d) = %v, reference %v", i/want.N+1, i%want.N+1, got.Data[i], v)
			return chk
		}
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("all %d entries equal", len(want.Data))
	return chk
}

func relCheck(method string, got, want *apsp.Matrix[float64], bound float64) bench.Check {
	chk := bench.Check{Method: method, Bound: bound}
	worst, at := 0.0, 0
	for i, v := range want.Data {
		e := math.Abs(got.Data[i]-v) / math.Max(1, math.Abs(v))
		if !(e <= worst) {
			worst, at = e, i
		}
	}
	chk.MaxErr = worst
	chk.OK = worst <= bound
	chk.Detail = fmt.Sprintf("largest relative error %.3g at (%d,%d)", worst, at/want.N+1, at%want.N+1)
	return chk
}

func apspSystolicSizes(s experiments.Scale) []int {
	switch s {
	case experiments.Quick:
		return []int{4, 8, 16}
	case experiments.Large:
		return []int{128, 256}
	}
	return []int{4, 8, 16, 32, 64}
}

func apspSystolicCase(n int, o experiments.Options) experiments.Case {
	seed := apspSeed(o)
	per0, win0 := systolic.SteadyState(n, systolic.GJE0)
	per1, win1 := systolic.SteadyState(n, systolic.GJE1)
	return experiments.Case{
		Params: bench.Params{{Name: "n", Value: strconv.Itoa(n)}},
		// Processor-steps of the five simulations (single matrix in three
		// semirings, GJE0 and GJE1 streams).
		Work: float64((n+1)*(n+1)) * float64(3*7*n+per0*3*6*n+per1*3*3*n),
		Setup: func(ctx context.Context) (*experiments.Instance, error) {
			mp := apspGraph[float64](seed, n, 0.3, 20, 0.03)
			r := rand.New(rand.NewPCG(seed, uint64(n)+1000))
			bm := make([]bool, n*n)
			re := make([]float64, n*n)
			for i := range bm {
				bm[i] = r.Float64() < 1.5/float64(n)
				re[i] = (2*r.Float64() - 1) / float64(n)
			}
			stream := func(count int) [][]float64 {
				var ms [][]float64
				for m := 0; m < count; m++ {
					ms = append(ms, apspGraph[float64](seed+uint64(m)+1, n, 0.3, 20, 0.03).Data)
				}
				return ms
			}
			s0, s1 := stream(3*per0), stream(3*per1)
			metrics := map[string]float64{}
			// simulate runs GJE0 (one matrix in each semiring, a stream on
			// three tracks) and, on the CPU, GJE1's stream; cuda/systolic
			// simulates GJE0 only.
			simulate := func(ctx context.Context, impl string, rec *bench.Recorder) (simOut, error) {
				gpu := impl == "cuda/systolic"
				var out simOut
				var err error
				stop := rec.Start("gje0_single")
				if out.single, err = apspSim(ctx, gpu, "min-plus", n, [][]float64{mp.Data}, systolic.Config{Tracks: 1}, nil); err != nil {
					return out, err
				}
				if out.boolRun, err = apspSim(ctx, gpu, "boolean", n, [][]bool{bm}, systolic.Config{Tracks: 1}, nil); err != nil {
					return out, err
				}
				if out.realRun, err = apspSim(ctx, gpu, "real", n, [][]float64{re}, systolic.Config{Tracks: 1}, nil); err != nil {
					return out, err
				}
				stop()
				if gpu {
					// cuda/systolic's total is the GJE0 stream with its
					// data on the device (phases h2d and d2h outside it,
					// steps inside); the single matrices above are outside.
					out.g0, err = apspSim(ctx, gpu, "min-plus", n, s0, systolic.Config{Design: systolic.GJE0, Tracks: 3, Window: win0}, rec)
					return out, err
				}
				stop = rec.Start("gje0_stream")
				if out.g0, err = apspSim(ctx, gpu, "min-plus", n, s0, systolic.Config{Design: systolic.GJE0, Tracks: 3, Window: win0}, nil); err != nil {
					return out, err
				}
				stop()
				stop = rec.Start("gje1_stream")
				out.g1, err = apspSim(ctx, false, "min-plus", n, s1, systolic.Config{Design: systolic.GJE1, Tracks: 3, Window: win1}, nil)
				stop()
				return out, err
			}
			// cpuRef is the CPU simulator's GJE0 runs, against which
			// cuda/systolic is held: cpu/systolic's own when it ran, else
			// simulated for the check.
			var cpuRef *simOut
			return &experiments.Instance{
				Input: &bench.Input{Generator: "apsp-random-graph", Seed: seed, Hash: hashMatrix(mp),
					Description: fmt.Sprintf("n=%d: one min-plus, one Boolean and one real matrix; streams of %d (GJE0) and %d (GJE1) min-plus matrices on three tracks", n, 3*per0, 3*per1)},
				Metrics: metrics,
				Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
					if impl != "cpu/systolic" && impl != "cuda/systolic" {
						return nil, fmt.Errorf("%w: implementation %s is not built into this binary", experiments.ErrUnavailable, impl)
					}
					out, err := simulate(ctx, impl, rec)
					if err != nil {
						return nil, err
					}
					if impl == "cuda/systolic" {
						metrics["gpu_steps_per_s"] = out.g0.StepsPerSecond()
						return out, nil
					}
					cpuRef = &out
					sr := out.single
					metrics["processors"] = float64(sr.Processors)
					metrics["c11_step"] = float64(sr.C11Out(0))
					metrics["cnn_step"] = float64(sr.CnnOut(0))
					metrics["steps"] = float64(sr.Steps)
					metrics["max_active"] = float64(sr.MaxActive())
					metrics["max_active_fraction"] = float64(sr.MaxActive()) / float64(sr.Processors)
					metrics["tracks"] = 3
					metrics["utilization_gje0"] = out.g0.Utilization()
					metrics["utilization_gje1"] = out.g1.Utilization()
					metrics["steps_per_s"] = out.g0.StepsPerSecond()
					metrics["processor_steps_per_s"] = out.g0.StepsPerSecond() * float64(sr.Processors)
					metrics["conflicts"] = float64(sr.Conflicts + out.boolRun.Conflicts + out.realRun.Conflicts + out.g0.Conflicts + out.g1.Conflicts)
					return out, nil
				},
				Check: func(impl string, o any) bench.Check {
					out, ok := o.(simOut)
					chk := bench.Check{Method: "results = sGJE exactly (min-plus, Boolean, real; every matrix of both streams); (n+1)² processors, c11 out at 4n+1, cnn out at 7n-2, active ≤ 1/3, utilization 1/2 (GJE0, 3 tracks) and 1 (GJE1), no conflicts"}
					if impl == "cuda/systolic" {
						chk.Method = "equal to the CPU simulator (outputs, output steps, active processors per step, operations; one matrix in three semirings, the GJE0 stream on three tracks); results = sGJE exactly; the paper's formulas as for cpu/systolic (GJE0 only)"
					}
					if !ok {
						chk.Detail = "no output"
						return chk
					}
					var bad []string
					if impl == "cuda/systolic" {
						if cpuRef == nil {
							ref, err := simulate(context.Background(), "cpu/systolic", nil)
							if err != nil {
								chk.Detail = "CPU simulator: " + err.Error()
								return chk
							}
							cpuRef = &ref
						}
						for _, d := range []struct{ what, diff string }{
							{"min-plus", systolic.Diff(out.single, cpuRef.single)},
							{"boolean", systolic.Diff(out.boolRun, cpuRef.boolRun)},
							{"real", systolic.Diff(out.realRun, cpuRef.realRun)},
							{"GJE0 stream", systolic.Diff(out.g0, cpuRef.g0)},
						} {
							if d.diff != "" {
								bad = append(bad, d.what+" differs from the CPU simulator: "+d.diff)
							}
						}
					}
					if d := sysCompare("min-plus", n, [][]float64{mp.Data}, out.single); d != "" {
						bad = append(bad, "min-plus: "+d)
					}
					if d := sysCompare("boolean", n, [][]bool{bm}, out.boolRun); d != "" {
						bad = append(bad, "boolean: "+d)
					}
					if d := sysCompare("real", n, [][]float64{re}, out.realRun); d != "" {
						bad = append(bad, "real: "+d)
					}
					if d := sysCompare("min-plus", n, s0, out.g0); d != "" {
						bad = append(bad, "GJE0 stream: "+d)
					}
					if out.g1 != nil {
						if d := sysCompare("min-plus", n, s1, out.g1); d != "" {
							bad = append(bad, "GJE1 stream: "+d)
						}
						if out.g1.Utilization() != 1 {
							bad = append(bad, fmt.Sprintf("utilization %v (GJE1)", out.g1.Utilization()))
						}
					}
					sr := out.single
					if sr.Processors != (n+1)*(n+1) {
						bad = append(bad, fmt.Sprintf("%d processors", sr.Processors))
					}
					if sr.C11Out(0) != 4*n+1 || sr.CnnOut(0) != 7*n-2 {
						bad = append(bad, fmt.Sprintf("c11 at %d, cnn at %d", sr.C11Out(0), sr.CnnOut(0)))
					}
					if 3*sr.MaxActive() > sr.Processors {
						bad = append(bad, fmt.Sprintf("%d of %d processors active at once", sr.MaxActive(), sr.Processors))
					}
					if out.g0.Utilization() != 0.5 {
						bad = append(bad, fmt.Sprintf("utilization %v (GJE0)", out.g0.Utilization()))
					}
					if len(bad) > 0 {
						chk.Detail = fmt.Sprint(bad)
						return chk
					}
					chk.OK = true
					chk.Detail = "every formula holds and every result equals sGJE"
					if impl == "cuda/systolic" {
						chk.Detail = "every run equals the CPU simulator's, every formula holds and every result equals sGJE"
					}
					return chk
				},
			}, nil
		},
	}
}

// simOut holds the runs of one apsp/systolic case: GJE0 on one matrix in
// each semiring, the GJE0 stream and (CPU only) the GJE1 stream.
type simOut struct {
	single  *systolic.Run[float64]
	boolRun *systolic.Run[bool]
	realRun *systolic.Run[float64]
	g0, g1  *systolic.Run[float64]
}

// sysCompare returns "" when every matrix of the run equals sGJE's closure
// and the run had no conflicts, or the first difference.
func sysCompare[T comparable](sr string, n int, mats [][]T, run *systolic.Run[T]) string {
	if run.Conflicts != 0 {
		return fmt.Sprintf("%d conflicts, first: %s", run.Conflicts, run.FirstConflict)
	}
	for m, x := range mats {
		c := &apsp.Matrix[T]{N: n, Data: append([]T(nil), x...)}
		if err := apspSGJE(context.Background(), sr, c); err != nil {
			return "sGJE: " + err.Error()
		}
		for e, v := range c.Data {
			if run.Result[m][e] != v {
				return fmt.Sprintf("matrix %d (%d,%d) = %v, sGJE %v", m, e/n+1, e%n+1, run.Result[m][e], v)
			}
		}
	}
	return ""
}

// apspBlockedSizes are the orders per scale, each with the implementations
// that run it: the sequential cpu/sgje up to 2000, cpu/fast up to 4096
// (8192 at large scale), cuda/fast up to 16384 (32768).
func apspBlockedSizes(s experiments.Scale) []experiments.Case {
	all := []string{"cpu/sgje", "cpu/fast", "cuda/fast"}
	fast := []string{"cpu/fast", "cuda/fast"}
	gpu := []string{"cuda/fast"}
	type size struct {
		n     int
		impls []string
	}
	var sizes []size
	switch s {
	case experiments.Quick:
		sizes = []size{{128, all}, {256, all}}
	case experiments.Large:
		sizes = []size{{4096, fast}, {8192, fast}, {16384, gpu}, {32768, gpu}}
	default:
		sizes = []size{{500, all}, {1000, all}, {2000, all}, {4096, fast}, {8192, gpu}, {16384, gpu}}
	}
	cs := make([]experiments.Case, len(sizes))
	for i, z := range sizes {
		cs[i] = experiments.Case{Params: apspBlockedParams(z.n), Impls: z.impls}
	}
	return cs
}

// apspCPUCertificateMax is the largest order whose closure is certified on
// the CPU (n³ operations); larger ones are certified by a product on the
// GPU when there is one.
const apspCPUCertificateMax = 4096

func apspBlockedCase(c experiments.Case, o experiments.Options) experiments.Case {
	seed := apspSeed(o)
	n, _ := strconv.Atoi(c.Params.Get("n"))
	c.Work = float64(n) * float64(n) * float64(n)
	c.HostBytes, c.DeviceBytes = uint64(n)*uint64(n)*4*3, uint64(n)*uint64(n)*4*2
	c.Setup = func(ctx context.Context) (*experiments.Instance, error) {
		need := uint64(n) * uint64(n) * 4 * 3
		if avail := bench.AvailableMemory(); avail > 0 && need > avail {
			return nil, fmt.Errorf("n=%d needs about %.1f GiB, only %.1f GiB available", n, experiments.GiB(need), experiments.GiB(avail))
		}
		// Dense, positive integer weights: every sum is exact in float32
		// (paths below 2²⁴) and every cycle positive, so the closure is
		// the unique solution of X = I ⊕ A X.
		a := apspGraph[float32](seed, n, 0.5, 1000, 0)
		threads := o.Threads
		metrics := map[string]float64{"updates": float64(n) * float64(n) * float64(n)}
		if slices.Contains(c.Impls, "cpu/fast") {
			// The in-cache limit of the update on this machine, measured
			// beside every case (the machine may be shared).
			fast, err := apspImpl("cpu/fast")
			if err != nil {
				return nil, err
			}
			limit, err := fast.Limit(ctx, apsp.Options{Threads: threads})
			if err != nil {
				return nil, err
			}
			metrics["limit_gups"] = limit / 1e9
		}
		return &experiments.Instance{
			Input: &bench.Input{Generator: "apsp-random-graph", Seed: seed, Hash: hashMatrix(a),
				Description: fmt.Sprintf("n=%d, arcs with probability 1/2, integer weights in [1,1000], float32", n)},
			Metrics: metrics,
			Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
				// The copy of the instance the in-place solvers overwrite is
				// the harness's, not the solve's: it stays out of the times.
				var c *apsp.Matrix[float32]
				rec.Untimed(func() { c = a.Clone() })
				im, err := apspImpl(impl)
				if err != nil {
					return nil, err
				}
				// cuda/fast marks its phases h2d (outside total), closure
				// (CUDA events) and d2h (outside); the device's limit is
				// measured in Check, outside every repetition.
				stop := func() {}
				if !im.MarksWindow {
					stop = rec.Start(apsp.PhaseClosure)
				}
				_, err = im.MinPlus32(ctx, c, apsp.Options{Threads: threads, Rec: rec})
				stop()
				err = experiments.MarkUnavailable(err)
				return c, err
			},
			Check: func(impl string, o any) bench.Check {
				d, _ := o.(*apsp.Matrix[float32])
				if d == nil {
					return bench.Check{Method: "closure equation", Detail: "no output"}
				}
				if impl == "cuda/fast" && metrics["gpu_limit_tups"] == 0 {
					if pair, nonNeg, err := apspGPUPeaks(context.Background()); err == nil {
						metrics["gpu_limit_tups"] = pair / 1e12
						if nonNeg > 0 {
							// the path this instance (positive weights) takes here
							metrics["gpu_limit_nonneg_tups"] = nonNeg / 1e12
						}
					} else {
						slog.Warn("apsp/blocked: measuring the GPU's limit failed", "n", n, "err", err)
					}
				}
				if n > apspCPUCertificateMax {
					chk, err := apspGPUCertificate(a, d)
					if err == nil {
						return chk
					}
					slog.Warn("apsp/blocked: certificate on the GPU failed, certifying on the CPU", "n", n, "err", err)
				}
				return closureCertificate(a, d, threads)
			},
		}, nil
	}
	return c
}

// closureCertificate checks D = I ⊕ A ⊗ D exactly in min-plus: with every
// cycle positive this equation has the closure as its only solution, and
// with integer weights every sum is exact.
func closureCertificate(a, d *apsp.Matrix[float32], threads int) bench.Check {
	chk := bench.Check{Method: "certificate: D = I ⊕ A ⊗ D exactly (unique solution: every cycle positive, integer weights)"}
	n := a.N
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	inf := float32(math.Inf(1))
	bad := make([]int, threads)
	for i := range bad {
		bad[i] = -1
	}
	done := make(chan struct{}, threads)
	for t := 0; t < threads; t++ {
		go func(t int) {
			defer func() { done <- struct{}{} }()
			row := make([]float32, n)
			for i := t * n / threads; i < (t+1)*n/threads; i++ {
				for j := range row {
					row[j] = inf
				}
				row[i] = 0
				for k, w := range a.Row(i) {
					if w == inf {
						continue
					}
					for j, x := range d.Row(k) {
						if s := w + x; s < row[j] {
							row[j] = s
						}
					}
				}
				for j, v := range row {
					if v != d.At(i, j) {
						bad[t] = i*n + j
						return
					}
				}
			}
		}(t)
	}
	for range threads {
		<-done
	}
	for _, b := range bad {
		if b >= 0 {
			chk.Detail = fmt.Sprintf("(%d,%d): D = %v, (I ⊕ A D) = different", b/n+1, b%n+1, d.Data[b])
			return chk
		}
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("all %d entries satisfy the closure equation", n*n)
	return chk
}
