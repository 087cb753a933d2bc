package cudakleene

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	cpukleene "github.com/semibench/semibench/impls/cpu/kleene"
	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

func gpuCount() int {
	n, err := cuda.DeviceCount()
	if err != nil {
		return 0
	}
	return n
}

func TestImpls(t *testing.T) {
	if impls := Impls(); len(impls) != 2 || impls[0].Name != "cuda/paper" || impls[1].Name != "cuda/fast" {
		t.Fatalf("Impls() = %v", impls)
	}
	for _, im := range Impls() {
		if im.Run == nil {
			t.Errorf("%s has no Run", im.Name)
		}
		if im.Recycle == nil {
			t.Errorf("%s has no Recycle", im.Name)
		} else if im.Recycle(nil) || im.Recycle(maxplus.New(3)) {
			t.Errorf("%s: Recycle took a matrix it did not hand out", im.Name)
		}
	}
}

// TestUnavailable checks that without a GPU both implementations return an
// error matching driver.ErrUnavailable (the runner records them as
// unavailable), and never panic.
func TestUnavailable(t *testing.T) {
	if gpuCount() > 0 {
		t.Skip("a CUDA device is present")
	}
	x, err := dag.Generate(20, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range Impls() {
		for _, gpus := range []int{0, 1, 2} {
			w, err := im.Run(context.Background(), x, kleene.Options{GPUs: gpus}, &bench.Recorder{})
			if w != nil || !errors.Is(err, driver.ErrUnavailable) {
				t.Errorf("%s --gpus %d: %v, %v; want ErrUnavailable", im.Name, gpus, w, err)
			}
		}
	}
}

func TestArgumentChecks(t *testing.T) {
	bad := []*maxplus.Matrix{nil, {N: 3, Val: make([]float32, 8)}, {N: -1}, {N: kleene.MaxN + 1}}
	for _, im := range Impls() {
		for _, x := range bad {
			if _, err := im.Run(context.Background(), x, kleene.Options{}, nil); err == nil || errors.Is(err, driver.ErrUnavailable) {
				t.Errorf("%s on a malformed matrix: %v", im.Name, err)
			}
		}
	}
	x := maxplus.New(4)
	if _, err := Fast(context.Background(), x, kleene.Options{GPUs: -1}, nil); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("--gpus -1: %v", err)
	}
}

func TestPlans(t *testing.T) {
	p := PaperPlan(4000, 3_998_935)
	if got, want := p.Total(), uint64(4*4000*4000+8*3_998_935); got != want {
		t.Errorf("PaperPlan total %d, want %d", got, want)
	}
	plans, err := FastPlan(4000, 1)
	if err != nil {
		t.Fatal(err)
	}
	// X/W (n²), P (4096²), flags and small arrays, bit sets.
	if tot := plans[0].Total(); tot < 4*(4000*4000+4096*4096) || tot > 4*(4000*4000+4096*4096)+1<<22 {
		t.Errorf("FastPlan(4000, 1) = %d bytes", tot)
	}
	if err := cuda.Fits(plans[0], 16<<30, nil); err != nil {
		t.Errorf("n=4000 must fit 16 GiB: %v", err)
	}
	if err := cuda.Fits(plans[0], 100<<20, nil); err == nil {
		t.Error("n=4000 must not fit 100 MiB")
	}
	plans, err = FastPlan(4000, 3)
	if err != nil || len(plans) != 3 {
		t.Fatalf("FastPlan(4000, 3): %v", err)
	}
	for i, p := range plans {
		if p.Total() == 0 || !strings.Contains(p.What, fmt.Sprintf("GPU %d of 3", i)) {
			t.Errorf("plan %d: %+v", i, p)
		}
	}
	if _, err := FastPlan(10, 0); err == nil {
		t.Error("FastPlan with 0 GPUs must fail")
	}
}

// TestGPUExact runs both implementations on the device, where there is one,
// on integer and N(0,1) DAGs of several sizes, and checks them with
// kleene.Verify (bit for bit on integers) and against cpu/paper.
func TestGPUExact(t *testing.T) {
	ngpu := gpuCount()
	if ngpu == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	sizes := []int{1, 2, 60, 64, 65, 127, 500, 1000}
	if !testing.Short() {
		sizes = append(sizes, 2000)
	}
	for _, n := range sizes {
		for _, intw := range []bool{true, false} {
			x, err := dag.Generate(n, uint64(n)+7, intw)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := kleene.Reference(ctx, x, 0)
			if err != nil {
				t.Fatal(err)
			}
			cpu, err := cpukleene.Paper(ctx, x, kleene.Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range Impls() {
				for gpus := 1; gpus <= min(ngpu, 2); gpus++ {
					if im.Name == "cuda/paper" && gpus > 1 {
						continue
					}
					w, err := im.Run(ctx, x, kleene.Options{GPUs: gpus}, &bench.Recorder{})
					if err != nil {
						t.Fatalf("%s n=%d int=%v gpus=%d: %v", im.Name, n, intw, gpus, err)
					}
					ck := kleene.Verify(x, w, ref, intw)
					if !ck.OK {
						t.Errorf("%s n=%d int=%v gpus=%d: %s: %s", im.Name, n, intw, gpus, ck.Method, ck.Detail)
					}
					same := 0
					for k := range w.Val {
						if w.Val[k] == cpu.Val[k] {
							same++
						}
					}
					if intw && same != n*n {
						t.Errorf("%s n=%d int gpus=%d: %d of %d entries differ from cpu/paper", im.Name, n, gpus, n*n-same, n*n)
					}
					if !intw && im.Name == "cuda/paper" && same != n*n {
						t.Errorf("cuda/paper n=%d normal: %d entries differ from cpu/paper (same sums in the same order)", n, n*n-same)
					}
				}
			}
		}
	}
	x := maxplus.New(8)
	_, err := Fast(ctx, x, kleene.Options{GPUs: ngpu + 1}, nil)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(ngpu+1)) || !strings.Contains(err.Error(), fmt.Sprint(ngpu)) {
		t.Errorf("--gpus %d on %d devices: %v", ngpu+1, ngpu, err)
	}
}

// TestGPUErrors checks cycles and bad weights on the device.
func TestGPUErrors(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	x, _ := dag.Generate(100, 3, true)
	cyc := x.Clone()
	for i := 0; i < 100; i++ { // close a cycle: some arc j -> i, then i -> j
		for j := 0; j < 100; j++ {
			if cyc.At(i, j) > maxplus.Epsilon {
				cyc.Set(j, i, 1)
				i, j = 100, 100
			}
		}
	}
	for _, im := range Impls() {
		var ce *kleene.CycleError
		if _, err := im.Run(ctx, cyc, kleene.Options{}, nil); !errors.As(err, &ce) {
			t.Errorf("%s on a cycle: %v", im.Name, err)
		}
		nan := x.Clone()
		nan.Set(5, 7, float32(0)/float32(zero()))
		if _, err := im.Run(ctx, nan, kleene.Options{}, nil); err == nil || !strings.Contains(err.Error(), "X[6,8]") {
			t.Errorf("%s on NaN: %v", im.Name, err)
		}
	}
}

func zero() float32 { return 0 }
