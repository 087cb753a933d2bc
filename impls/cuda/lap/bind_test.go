package cudalap

import (
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// TestPlansBind binds every plan the solvers allocate, at a few shapes and
// options, to the struct the solver reads, without a GPU: a mistyped buffer
// name fails here rather than as a null pointer on the device.
func TestPlansBind(t *testing.T) {
	for _, s := range []struct{ r, c int }{{1, 1}, {3, 5}, {100, 100}, {1000, 4000}} {
		r, c := s.r, s.c
		// lap_n3's plans; only the augmenting strategy's has the rows to add.
		for _, n3 := range []struct {
			plan  cuda.Plan
			order bool
		}{
			{N3Plan(r, c), false},
			{floatN3Plan("cuda/hungarian-n3", r, c, 4), false},
			{floatN3Plan("cuda/hungarian-n3", r, c, 8), false},
			{fastAugmentPlan(r, c), true},
		} {
			var b n3Buffers
			var next driver.DevicePtr
			err := cuda.BindWith(n3.plan, &b, func(cuda.Buffer) (driver.DevicePtr, error) { next += 256; return next, nil })
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if (b.Order != 0) != n3.order {
				t.Errorf("%s: rows to add bound to %#x, want them bound: %v", n3.plan.What, b.Order, n3.order)
			}
		}
		if err := cuda.Bind(FastPlan(r, c), &fastBuffers{}); err != nil {
			t.Errorf("%v", err)
		}
		for _, sms := range []int{1, 132} {
			if err := cuda.Bind(PaperPlan(r, c, sms), &paperBuffers{}); err != nil {
				t.Errorf("%v", err)
			}
		}
		if err := cuda.Bind(ForestPlan(c), &forestBuffers{}); err != nil {
			t.Errorf("%v", err)
		}
		for _, k := range []int{1, 10_000} {
			for _, elem := range []int{4, 8} {
				if err := cuda.Bind(BatchPlan(k, r, c, elem), &batchBuffers{}); err != nil {
					t.Errorf("%v", err)
				}
			}
		}
	}
	// The structs are not interchangeable.
	if err := cuda.Bind(FastPlan(4, 4), &n3Buffers{}); err == nil {
		t.Error("cuda/fast's auction plan bound to lap_n3's buffers")
	}
}
