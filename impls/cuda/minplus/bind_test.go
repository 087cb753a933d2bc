package cudaminplus

import (
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// TestPlansBind binds every plan of a product and of a Session, for each
// implementation and a few sizes, to the struct the code reads, without a
// GPU: a mistyped buffer name fails here rather than as a null pointer on
// the device.
func TestPlansBind(t *testing.T) {
	for _, name := range []string{NamePaper, NameFast, NameSparse} {
		for _, c := range []struct{ n, nnz int }{{1, 0}, {1, 1}, {100, 500}, {4096, 1 << 20}} {
			p, err := Plan(name, c.n, c.nnz)
			if err != nil {
				t.Fatal(err)
			}
			if name == NameSparse {
				err = cuda.Bind(p, &sparseBuffers{})
			} else {
				err = cuda.Bind(p, &denseBuffers{})
			}
			if err != nil {
				t.Errorf("%v", err)
			}
			sp, err := SessionPlan(name, c.n, c.nnz)
			if err != nil {
				t.Fatal(err)
			}
			var b sessionBuffers
			var next driver.DevicePtr
			if err := cuda.BindWith(sp, &b, func(cuda.Buffer) (driver.DevicePtr, error) { next += 256; return next, nil }); err != nil {
				t.Errorf("%v", err)
				continue
			}
			if dense := name != NameSparse; (b.A != 0) != dense {
				t.Errorf("%s: dense A bound to %#x; want one exactly for the dense implementations", sp.What, b.A)
			}
		}
	}
	// The structs are not interchangeable.
	p, _ := Plan(NameSparse, 10, 10)
	if err := cuda.Bind(p, &denseBuffers{}); err == nil {
		t.Error("cuda/sparse's plan bound to the dense buffers")
	}
}
