package cudalap

import (
	"context"
	"fmt"
	"math"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/lap"
)

// FloatTolerance is the relative tolerance of the float certificate
// (CertifyFloat): lap.FloatTolerance, the CPU side's.
const FloatTolerance = lap.FloatTolerance

// floatCost is the cost type of the float kernels (lap_n3_f32, lap_n3_f64
// and their batch twins); their duals are float64 either way.
type floatCost interface{ float32 | float64 }

// floatKernel names the single-problem n3 kernel of cost type C.
func floatKernel[C floatCost]() string {
	var z C
	if _, ok := any(z).(float32); ok {
		return "lap_n3_f32"
	}
	return "lap_n3_f64"
}

// elemBytes is the size of one cost of type C.
func elemBytes[C int32 | floatCost]() int {
	var z C
	switch any(z).(type) {
	case int32, float32:
		return 4
	}
	return 8
}

// CertifyFloat certifies a float result of m within a tolerance scaled to
// the costs: with tol = FloatTolerance x max(1, max |c_ij|), every pair is
// dual feasible within tol (u_i + v_j <= c_ij + tol), the assignment's
// pairs are tight within tol (|u_i + v_j - c_ij| <= tol, complementary
// slackness), no free column (r < c) is priced more than tol below an
// assigned one, and the reported cost is the assignment's within r x tol.
// The CPU side's lap.CertifyFloat does the checks; the error states the
// tolerance.
func CertifyFloat(m *lap.FloatMatrix, res *lap.FloatResult) error {
	if err := lap.CertifyFloat(m, res, FloatTolerance); err != nil {
		scale := 1.0
		for _, x := range m.C {
			scale = max(scale, math.Abs(x))
		}
		return fmt.Errorf("float certificate, tolerance %g x max(1, max |c_ij|) = %g: %w", FloatTolerance, FloatTolerance*scale, err)
	}
	return nil
}

// SolveFloat solves a float64 instance (r x c, r <= c) on the GPU with the
// O(n^3) Hungarian of cuda/hungarian-n3 in double precision (lap_n3_f64:
// double costs and duals), and certifies the answer (CertifyFloat) before
// returning it. It is the float path of cuda/fast and cuda/hungarian-n3
// (their lap.Impl's SolveFloat); maximise by negating the costs, as
// lap.SolveWith does. Phases: h2d, augment, d2h.
func SolveFloat(ctx context.Context, m *lap.FloatMatrix, opt Options) (*lap.FloatResult, error) {
	const impl = "cuda/fast (float64)"
	if m == nil {
		return nil, fmt.Errorf("%s: nil matrix", impl)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	res, err := n3Float(ctx, impl, m.Rows, m.Cols, m.C, opt)
	if err != nil {
		return nil, err
	}
	if err := CertifyFloat(m, res); err != nil {
		return nil, fmt.Errorf("%s %dx%d: %w", impl, m.Rows, m.Cols, err)
	}
	return res, nil
}

// SolveFloat32 is SolveFloat on float32 costs (rows x cols, row-major):
// they go to the device as they are (half the bytes of float64) and are
// widened exactly to double in the kernel (lap_n3_f32), so the answer is
// certified against the costs widened to float64.
func SolveFloat32(ctx context.Context, rows, cols int, c []float32, opt Options) (*lap.FloatResult, error) {
	const impl = "cuda/fast (float32)"
	m := &lap.FloatMatrix{Rows: rows, Cols: cols, C: make([]float64, len(c))}
	for k, x := range c {
		m.C[k] = float64(x)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	res, err := n3Float(ctx, impl, rows, cols, c, opt)
	if err != nil {
		return nil, err
	}
	if err := CertifyFloat(m, res); err != nil {
		return nil, fmt.Errorf("%s %dx%d: %w", impl, rows, cols, err)
	}
	return res, nil
}

// floatN3Plan is the device memory of n3Float for impl on an r x c
// instance of costs of elem bytes: N3Plan with lap.c of that element size
// (the duals are 8 bytes either way).
func floatN3Plan(impl string, r, c, elem int) cuda.Plan {
	plan := N3Plan(r, c)
	plan.What = fmt.Sprintf("%s %dx%d", impl, r, c)
	plan.Buffers[0].Bytes = uint64(elem) * uint64(r) * uint64(c) // lap.c
	return plan
}

// n3Float runs the float n3 kernel of cost type C on one r x c problem
// whose costs have been validated (finite, r <= c), as HungarianN3 runs
// lap_n3: upload (h2d), rows added in launches of n3Chunk (augment),
// columns and duals back (d2h). The result is not certified here.
func n3Float[C floatCost](ctx context.Context, impl string, r, c int, costs []C, opt Options) (*lap.FloatResult, error) {
	stop := opt.Rec.Start(PhaseH2D)
	dev, err := cuda.Open(opt.Device)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", impl, err)
	}
	res := &lap.FloatResult{Assignment: make([]int, r)}
	u, v := make([]float64, r+1), make([]float64, c+1)
	err = dev.Run(ctx, func(t *driver.Thread) error {
		plan := floatN3Plan(impl, r, c, elemBytes[C]())
		if err := dev.Check(t, plan); err != nil {
			return err
		}
		dst, err := dev.Buffer(t, plan.Buffers[0].Name, plan.Buffers[0].Bytes)
		if err != nil {
			return err
		}
		if err := cuda.Upload(t, dev, dst, costs); err != nil {
			return err
		}
		stop()
		opt.Rec.BeginTotal()
		var b n3Buffers
		if err := n3Solve(ctx, t, dev, floatKernel[C](), plan, &b, r, c, opt); err != nil {
			return err
		}
		defer opt.Rec.Start(PhaseD2H)()
		p := make([]int32, c+1)
		if err := cuda.Download(t, dev, p, b.P); err != nil {
			return err
		}
		if err := cuda.Download(t, dev, u, b.U); err != nil {
			return err
		}
		if err := cuda.Download(t, dev, v, b.V); err != nil {
			return err
		}
		return assignFromColumns(p, res.Assignment)
	})
	if err != nil {
		return nil, fmt.Errorf("%s %dx%d: %w", impl, r, c, err)
	}
	res.U, res.V = u[1:], v[1:]
	for i, j := range res.Assignment {
		res.Cost += float64(costs[i*c+j])
	}
	return res, nil
}
