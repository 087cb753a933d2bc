package cudaapsp

import (
	"testing"

	"github.com/semibench/semibench/impls/cuda"
)

// TestPlansBind binds cuda/systolic's plan, at a few sizes and element
// types, to the struct runSystolic reads, without a GPU: a mistyped buffer
// name fails here rather than as a null pointer on the device.
func TestPlansBind(t *testing.T) {
	for _, c := range []struct{ n, m, elem, steps int }{{1, 1, 4, 10}, {2, 3, 8, 100}, {16, 40, 4, 2000}, {0, 0, 8, 0}} {
		p := SystolicPlan(c.n, c.m, c.elem, c.steps)
		if err := cuda.Bind(p, &systolicBuffers{}); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
