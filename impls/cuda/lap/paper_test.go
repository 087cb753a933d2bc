package cudalap

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

func paperHasGPU() bool {
	n, err := cuda.DeviceCount()
	return err == nil && n > 0
}

func paperNeedGPU(t *testing.T) {
	t.Helper()
	if !paperHasGPU() {
		t.Skip("no CUDA device")
	}
}

// TestPaperArgumentChecks: bad instances are refused before any device
// work, with or without a GPU, with errors naming the problem.
func TestPaperArgumentChecks(t *testing.T) {
	ctx := context.Background()
	span := int64(math.MaxInt32-1)/5 + 1 // 4 columns: (4+1)·span must stay below 2^31-1
	cases := []struct {
		name string
		m    *lap.Matrix
		is   error
		want string
	}{
		{"nil", nil, nil, "nil matrix"},
		{"more rows", &lap.Matrix{Rows: 3, Cols: 2, C: make([]int64, 6)}, lap.ErrShape, "rows"},
		{"short", &lap.Matrix{Rows: 2, Cols: 2, C: make([]int64, 3)}, lap.ErrShape, "values"},
		{"empty", &lap.Matrix{}, lap.ErrShape, "empty"},
		{"span", &lap.Matrix{Rows: 1, Cols: 4, C: []int64{0, span, 1, 2}}, lap.ErrRange, "span"},
		{"huge", &lap.Matrix{Rows: 1, Cols: 2, C: []int64{math.MaxInt64, 0}}, lap.ErrOverflow, ""},
	}
	for _, c := range cases {
		_, err := Paper(ctx, c.m, Options{})
		if err == nil || errors.Is(err, driver.ErrUnavailable) {
			t.Errorf("%s: %v; want a refusal before the device", c.name, err)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v; want %v", c.name, err, c.is)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q does not mention %q", c.name, err, c.want)
		}
	}
	// A span just inside the limit passes the check (and its negative
	// offset does not matter).
	ok := &lap.Matrix{Rows: 1, Cols: 4, C: []int64{-1 << 40, -1<<40 + span - 1, 0 - 1<<40, 5 - 1<<40}}
	if _, err := checkPaper(ok); err != nil {
		t.Errorf("span %d on 4 columns: %v", span-1, err)
	}
}

// TestPaperUnavailable: without a GPU the error matches
// driver.ErrUnavailable (the experiments mark the cell unavailable).
func TestPaperUnavailable(t *testing.T) {
	if paperHasGPU() {
		t.Skip("a CUDA device is present")
	}
	m := &lap.Matrix{Rows: 2, Cols: 2, C: []int64{1, 2, 3, 4}}
	if _, err := Paper(context.Background(), m, Options{}); !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("%v; want ErrUnavailable", err)
	}
}

// TestPaperLayout: step 4's blocks cover every column once, and the plan
// holds the zeros of every block's segment.
func TestPaperLayout(t *testing.T) {
	for _, sms := range []int{1, 7, 132} {
		for _, cols := range []int{1, 2, 31, 512, 1000, 1056, 1057, 4096, 8192, 46340} {
			l := newPaperLayout(cols/2+1, cols, sms)
			if l.n != cols || l.a < 1 || l.nb < 1 {
				t.Fatalf("sms=%d cols=%d: %+v", sms, cols, l)
			}
			if l.nb*l.a < cols || (l.nb-1)*l.a >= cols {
				t.Errorf("sms=%d cols=%d: %d blocks of %d columns do not cover %d columns exactly", sms, cols, l.nb, l.a, cols)
			}
			if l.nb > max(1, sms*paperBlocksPerSM) {
				t.Errorf("sms=%d cols=%d: %d blocks, more than %d", sms, cols, l.nb, sms*paperBlocksPerSM)
			}
			p := PaperPlan(cols/2+1, cols, sms)
			var zeros uint64
			for _, b := range p.Buffers {
				if b.Name == "lap.paper.zeros0" {
					zeros = b.Bytes
				}
			}
			n := uint64(cols)
			if zeros < 4*n*n || zeros != 4*uint64(l.nb*l.a)*n {
				t.Errorf("sms=%d cols=%d: zeros buffer %d bytes for %d segments of %d columns", sms, cols, zeros, l.nb, l.a)
			}
		}
	}
	// n = 8192 needs about 768 MiB (slack and two copies of the zeros) and
	// fits an 80 GB device but not 256 MiB free.
	p := PaperPlan(8192, 8192, 132)
	if tot := p.Total(); tot < 768<<20 || tot > 776<<20 {
		t.Errorf("plan for 8192: %d bytes", tot)
	}
	if err := cuda.Fits(p, 80<<30, nil); err != nil {
		t.Error(err)
	}
	if err := cuda.Fits(p, 256<<20, nil); err == nil || !strings.Contains(err.Error(), "cuda/paper 8192x8192") {
		t.Errorf("256 MiB free: %v", err)
	}
}

// TestPaperResult: paperResult turns the kernels' stars and duals back into
// a certified result of the instance, for the paper's layout (the kernels'
// rows are the rows, padded) and the transposed one (the kernels' columns
// are the rows, padded with zero columns), square and rectangular, the
// costs shifted by their least. The kernels' answer is cpu/jv's on the
// padded instance each layout stages.
func TestPaperResult(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	for _, transposed := range []bool{false, true} {
		for _, shape := range [][2]int{{1, 1}, {5, 5}, {3, 7}, {1, 4}, {6, 9}} {
			rows, n := shape[0], shape[1]
			m := &lap.Matrix{Rows: rows, Cols: n, C: make([]int64, rows*n)}
			for i := range m.C {
				m.C[i] = 5 + rng.Int64N(40)
			}
			shift := slices.Min(m.C)
			k := &lap.Matrix{Rows: n, Cols: n, C: make([]int64, n*n)} // the kernels' instance
			for i := range rows {
				for j := range n {
					if transposed {
						k.C[j*n+i] = m.C[i*n+j] - shift
					} else {
						k.C[i*n+j] = m.C[i*n+j] - shift
					}
				}
			}
			ks, err := lap.SolveJV(ctx, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			star := make([]int32, n)
			for kr, kc := range ks.Assignment {
				if transposed {
					star[kc] = int32(kr) // rowOfStarAtCol
				} else {
					star[kr] = int32(kc) // colOfStarAtRow
				}
			}
			res := paperResult(paperLayout{rows: rows, cols: n, n: n}, star, slices.Concat(ks.U, ks.V), shift, transposed)
			res.Cost = m.CostOf(res.Assignment)
			if err := lap.Certify(m, res); err != nil {
				t.Errorf("transposed=%v %dx%d: %v", transposed, rows, n, err)
			}
		}
	}
}

// paperCheck solves m with cuda/paper and checks it against cpu/jv:
// certified by its duals, and the same cost.
func paperCheck(t *testing.T, name string, m *lap.Matrix, ref *lap.Result) (*lap.Result, PaperCounts) {
	t.Helper()
	ctx := context.Background()
	if ref == nil {
		var err error
		if ref, err = lap.SolveJV(ctx, m, nil); err != nil {
			t.Fatalf("%s: cpu/jv: %v", name, err)
		}
	}
	res, cnt, err := PaperWithCounts(ctx, m, Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := lap.Certify(m, res); err != nil {
		t.Errorf("%s: not certified: %v", name, err)
	}
	if res.Cost != ref.Cost {
		t.Errorf("%s: cost %d, cpu/jv %d", name, res.Cost, ref.Cost)
	}
	return res, cnt
}

// TestPaperGPU: random instances of the paper's ranges, rectangular ones,
// and adversarial ones, each certified and equal in cost to cpu/jv.
func TestPaperGPU(t *testing.T) {
	paperNeedGPU(t)
	rng := rand.New(rand.NewPCG(4, 1))
	sizes := []int{1, 2, 3, 5, 17, 64, 100, 255, 512}
	if !testing.Short() {
		sizes = append(sizes, 1000, 2048)
	}
	for _, n := range sizes {
		for _, label := range lapcost.PaperRanges {
			c, err := lapcost.Square(n, label, uint64(n))
			if err != nil {
				t.Fatal(err)
			}
			paperCheck(t, fmt.Sprintf("n=%d range %s", n, label), &lap.Matrix{Rows: n, Cols: n, C: c}, nil)
		}
	}
	for _, sh := range [][2]int{{1, 5}, {3, 7}, {50, 64}, {100, 300}, {511, 512}} {
		r, c := sh[0], sh[1]
		m := &lap.Matrix{Rows: r, Cols: c, C: make([]int64, r*c)}
		for k := range m.C {
			m.C[k] = rng.Int64N(int64(c)) - int64(c)/3
		}
		paperCheck(t, fmt.Sprintf("rectangular %dx%d", r, c), m, nil)
	}
	adversarial := map[string]func(i, j, n int) int64{
		"all equal":      func(i, j, n int) int64 { return 7 },
		"identical rows": func(i, j, n int) int64 { return int64((j * 37) % n) },
		"i*j":            func(i, j, n int) int64 { return int64(i * j) },
		"anti-diagonal":  func(i, j, n int) int64 { return int64((i + j) % n) },
		"large offset":   func(i, j, n int) int64 { return 1e12 + int64((i*131+j*71)%n) },
		"negative":       func(i, j, n int) int64 { return -int64((i*7 + j*13) % (3 * n)) },
	}
	for name, f := range adversarial {
		for _, n := range []int{6, 129, 300} {
			m := &lap.Matrix{Rows: n, Cols: n, C: make([]int64, n*n)}
			for i := range n {
				for j := range n {
					m.C[i*n+j] = f(i, j, n)
				}
			}
			paperCheck(t, fmt.Sprintf("%s n=%d", name, n), m, nil)
		}
	}
}

// TestPaperPhases: a run reports exactly PaperSteps, and repeated runs on
// one device give the same optimum.
func TestPaperPhases(t *testing.T) {
	paperNeedGPU(t)
	c, err := lapcost.Square(256, "n", 9)
	if err != nil {
		t.Fatal(err)
	}
	m := &lap.Matrix{Rows: 256, Cols: 256, C: c}
	var cost int64
	for rep := range 3 {
		var rec bench.Recorder
		res, err := Paper(context.Background(), m, Options{Rec: &rec})
		if err != nil {
			t.Fatal(err)
		}
		names, durs := rec.Durations()
		got := slices.Clone(names)
		slices.Sort(got)
		want := slices.Clone(PaperSteps)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("phases %v, want %v", names, PaperSteps)
		}
		for i, d := range durs {
			if d < 0 {
				t.Errorf("phase %s: %v", names[i], d)
			}
		}
		if rep > 0 && res.Cost != cost {
			t.Errorf("run %d: cost %d, first run %d", rep, res.Cost, cost)
		}
		cost = res.Cost
	}
	// lap.PaperSteps (cpu/paper) are ours without the transfers.
	var inner []string
	for _, s := range PaperSteps {
		if s != "h2d" && s != "d2h" {
			inner = append(inner, s)
		}
	}
	if !slices.Equal(inner, lap.PaperSteps) {
		t.Errorf("steps %v, cpu/paper's %v", inner, lap.PaperSteps)
	}
}

// paperLinger, when set, is how long (ns) quiet step-4 blocks linger in
// cuda/fast's tuned design during BenchmarkPaper (go test -bench Paper
// ./impls/cuda/lap -args -lap.linger=N); -1 keeps the design's own.
var paperLinger = flag.Int("lap.linger", -1, "BenchmarkPaper: ns quiet step-4 blocks linger in the tuned design (-1: the design's own)")

// paperInstance is one of the paper's instances (lapcost, seed 1) with its
// cpu/jv reference, solved in the background once a sub-benchmark first
// needs it, while the GPU runs.
type paperInstance struct {
	n     int
	label string
	once  sync.Once
	done  chan struct{}
	m     *lap.Matrix
	ref   *lap.Result
	refT  time.Duration
	err   error
}

// start generates the instance and starts its reference.
func (in *paperInstance) start() (*lap.Matrix, error) {
	in.once.Do(func() {
		c, err := lapcost.Square(in.n, in.label, 1)
		if err != nil {
			in.err = err
			close(in.done)
			return
		}
		in.m = &lap.Matrix{Rows: in.n, Cols: in.n, C: c}
		go func() {
			defer close(in.done)
			t0 := time.Now()
			in.ref, in.err = lap.SolveJV(context.Background(), in.m, nil)
			in.refT = time.Since(t0)
		}()
	})
	if in.m == nil {
		<-in.done
		return nil, in.err
	}
	return in.m, nil
}

// reference waits for the instance's cpu/jv optimum.
func (in *paperInstance) reference() (*lap.Result, error) {
	<-in.done
	return in.ref, in.err
}

// BenchmarkPaper times cuda/paper's design (as published) and cuda/fast's
// tuned one on the paper's instances, n = 512 .. 8192 with the three
// ranges (select with -bench, e.g. -bench 'Paper/cuda/paper/n=4096'; the
// op count with -benchtime, e.g. 5x). One op is one solve after a warm-up;
// it reports the mean of each phase of PaperSteps and of their sum without
// the transfers (steps-ms/op) per op, and the last run's counts. Each
// result must be certified by its duals and cost what cpu/jv's does (the
// reference is solved on the CPU meanwhile).
func BenchmarkPaper(b *testing.B) {
	if !paperHasGPU() {
		b.Skip("no CUDA device")
	}
	if *paperLinger >= 0 {
		defer func(old int) { paperTuned.linger = old }(paperTuned.linger)
		paperTuned.linger = *paperLinger
		b.Logf("step-4 blocks linger %d ns", *paperLinger)
	}
	for _, n := range []int{512, 1024, 2048, 4096, 8192} {
		for _, label := range lapcost.PaperRanges {
			in := &paperInstance{n: n, label: label, done: make(chan struct{})}
			for _, d := range []paperDesign{paperAsPublished, paperTuned} {
				b.Run(fmt.Sprintf("%s/n=%d/range=%s", d.impl, n, label), func(b *testing.B) {
					m, err := in.start()
					if err != nil {
						b.Fatal(err)
					}
					benchPaper(b, in, m, d)
				})
			}
		}
	}
}

// benchPaper is one sub-benchmark of BenchmarkPaper.
func benchPaper(b *testing.B, in *paperInstance, m *lap.Matrix, d paperDesign) {
	ctx := context.Background()
	if _, _, err := solvePaper(ctx, m, Options{}, d); err != nil {
		b.Fatalf("warm-up: %v", err)
	}
	sum := map[string]time.Duration{}
	var steps time.Duration
	var res *lap.Result
	var cnt PaperCounts
	ops := 0
	for b.Loop() {
		var rec bench.Recorder
		var err error
		res, cnt, err = solvePaper(ctx, m, Options{Rec: &rec}, d)
		if err != nil {
			b.Fatal(err)
		}
		names, durs := rec.Durations()
		for i, nm := range names {
			sum[nm] += durs[i]
			if nm != PhaseH2D && nm != PhaseD2H {
				steps += durs[i]
			}
		}
		ops++
	}
	ref, err := in.reference()
	if err != nil {
		b.Fatalf("cpu/jv: %v", err)
	}
	if err := lap.Certify(m, res); err != nil {
		b.Errorf("not certified: %v", err)
	}
	if res.Cost != ref.Cost {
		b.Errorf("cost %d, cpu/jv %d", res.Cost, ref.Cost)
	}
	perOp := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(ops) }
	b.ReportMetric(perOp(steps), "steps-ms/op")
	for _, st := range PaperSteps {
		b.ReportMetric(perOp(sum[st]), st+"-ms/op")
	}
	for name, v := range map[string]int{"step3-calls": cnt.Step3Calls, "step4-calls": cnt.Step4Calls,
		"step4-launches": cnt.Step4Launches, "step4-runs": cnt.Step4Runs, "step5-calls": cnt.Step5Calls,
		"step6-calls": cnt.Step6Calls, "max-zeros": cnt.MaxZeros, "blocks": cnt.Blocks, "cols-per-block": cnt.ColsPerBlock} {
		b.ReportMetric(float64(v), name)
	}
	b.Logf("%s; cost %d, cpu/jv %.0f ms", cnt.KernelPath, res.Cost, float64(in.refT)/1e6)
}

// TestGPUUpload: the costs reach the device exactly, in the int32 and the
// 16-bit forms (int16 and uint16, widened on the device), through several
// chunks of the page-locked ring and beyond it (more chunks than slots).
func TestGPUUpload(t *testing.T) {
	needGPU(t)
	n := stageSlots*stageBytes/2 + 12345 // 16-bit chunks: more than the ring's slots
	src := make([]int64, n)
	rnd := rand.New(rand.NewPCG(8, 8))
	for k := range src {
		src[k] = 1e9 + rnd.Int64N(65536) - 32768
	}
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w     hostcost.Width
		shift int64
	}{{hostcost.Int32, 1e9}, {hostcost.Int16, 1e9}, {hostcost.Uint16, 1e9 - 32768}} {
		got := make([]int32, n)
		err = dev.Run(context.Background(), func(th *driver.Thread) error {
			dst, err := dev.Buffer(th, "lap.test.upload", uint64(4*n))
			if err != nil {
				return err
			}
			if err := uploadCosts(th, dev, dst, &lap.Matrix{C: src}, c.shift, c.w); err != nil {
				return err
			}
			return cuda.Download(th, dev, got, dst)
		})
		if err != nil {
			t.Fatal(err)
		}
		for k, x := range got {
			if int64(x) != src[k]-c.shift {
				t.Fatalf("%v: cost %d on the device is %d, want %d", c.w, k, x, src[k]-c.shift)
			}
		}
	}
}

// TestStep1FusedKernel: step 1's fused pass holds a column in registers up
// to order 8192 (256 threads, 8, 16 or 32 slacks each), with a kernel that
// writes its slacks later, and loops beyond, where it has none.
func TestStep1FusedKernel(t *testing.T) {
	for _, c := range []struct {
		n            int
		narrow       bool
		fused, write string
	}{
		{2, false, "lap_paper_step1_fused_r8", "lap_paper_step1_write_r8"},
		{2048, true, "lap_paper_step1_fused16_r8", "lap_paper_step1_write16_r8"},
		{2049, false, "lap_paper_step1_fused_r16", "lap_paper_step1_write_r16"},
		{4096, false, "lap_paper_step1_fused_r16", "lap_paper_step1_write_r16"},
		{8192, true, "lap_paper_step1_fused16_r32", "lap_paper_step1_write16_r32"},
		{8193, false, "lap_paper_step1_fused", ""},
		{46340, true, "lap_paper_step1_fused16", ""},
	} {
		if fused, write := step1FusedKernel(c.n, c.narrow); fused != c.fused || write != c.write {
			t.Errorf("step1FusedKernel(%d, %v) = %s, %s; want %s, %s", c.n, c.narrow, fused, write, c.fused, c.write)
		}
	}
}
