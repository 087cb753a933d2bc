package cudatreefix

import (
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/treefix"
)

// TestPlansBind binds every plan the runs allocate (InputPlan before the
// window, then the whole Plan) to the struct its run reads, for every
// implementation, operation and element size, without a GPU: a mistyped
// buffer name fails here rather than as a null pointer on the device.
func TestPlansBind(t *testing.T) {
	for _, impl := range names {
		for _, op := range []treefix.Op{treefix.Rootfix, treefix.Leaffix} {
			for _, elem := range []int{4, 8} {
				for _, n := range []int{1, 2, 1000, 100_000} {
					p := Plan(impl, op, n, elem)
					if err := cuda.Bind(InputPlan(p), &inputBuffers{}); err != nil {
						t.Errorf("input of %s: %v", p.What, err)
					}
					if impl == Parallel {
						if err := cuda.Bind(p, &parallelBuffers{}); err != nil {
							t.Errorf("%v", err)
						}
						continue
					}
					var b vectorialBuffers
					var next driver.DevicePtr
					err := cuda.BindWith(p, &b, func(cuda.Buffer) (driver.DevicePtr, error) { next += 256; return next, nil })
					if err != nil {
						t.Errorf("%v", err)
						continue
					}
					// vectorial's wide scan (compensated leaffix of floats)
					// reads Ein and E2.
					wide := impl == VectorialCompensated && op == treefix.Leaffix
					if (b.Ein != 0) != wide || (b.E2 != 0) != wide {
						t.Errorf("%s elem %d: Ein %#x, E2 %#x bound; want them exactly for the compensated leaffix", p.What, elem, b.Ein, b.E2)
					}
				}
			}
		}
	}
	// The run that builds the tour alone (BuildVector).
	if err := cuda.Bind(Plan(Vectorial, treefix.Rootfix, 10, 4), &vectorialBuffers{}); err != nil {
		t.Error(err)
	}
	// The structs are not interchangeable.
	if err := cuda.Bind(Plan(Parallel, treefix.Rootfix, 10, 4), &vectorialBuffers{}); err == nil {
		t.Error("cuda/parallel's plan bound to the vectorial buffers")
	}
}
