package cudaminplus

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/problems/minplus"
)

// TestCheckGPUs: --gpus must be positive and at most the devices present;
// the refusal names --gpus and the count found.
func TestCheckGPUs(t *testing.T) {
	for _, c := range []struct{ gpus, count int }{{1, 1}, {4, 4}, {2, 8}} {
		if err := CheckGPUs(c.gpus, c.count); err != nil {
			t.Errorf("CheckGPUs(%d, %d): %v", c.gpus, c.count, err)
		}
	}
	for _, c := range []struct {
		gpus, count int
		want        string
	}{{0, 1, "--gpus 0"}, {-1, 4, "--gpus -1"}, {5, 4, "the 4 this machine has"}, {1, 0, "the 0 this machine has"}} {
		err := CheckGPUs(c.gpus, c.count)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--gpus") {
			t.Errorf("CheckGPUs(%d, %d): %v, want an error naming --gpus and %q", c.gpus, c.count, err, c.want)
		}
	}
}

// TestSlabPlan: a slab's two powers hold its columns only (n rows of
// LeadingDim(w)), A stays whole; the whole slab is SessionPlan; cuda/paper
// does not split.
func TestSlabPlan(t *testing.T) {
	const n, nnz, w = 1000, 5000, 250
	whole, err := SessionPlan(NameFast, n, nnz)
	if err != nil {
		t.Fatal(err)
	}
	same, err := SlabPlan(NameFast, n, nnz, n)
	if err != nil || same.Total() != whole.Total() {
		t.Errorf("SlabPlan of the whole matrix: %d bytes, %v; want SessionPlan's %d", same.Total(), err, whole.Total())
	}
	for _, name := range []string{NameFast, NameSparse} {
		whole, _ := SessionPlan(name, n, nnz)
		p, err := SlabPlan(name, n, nnz, w)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.Total(), whole.Total()-2*denseBytes(n)+2*2*n*uint64(LeadingDim(w)); got != want {
			t.Errorf("%s slab of %d columns: %d bytes, want %d", name, w, got, want)
		}
	}
	if _, err := SlabPlan(NamePaper, n, nnz, w); err == nil {
		t.Error("cuda/paper slab planned")
	}
}

// TestSessionSlabArguments: the slab options are checked before any device
// is touched (so also without a GPU): a negative --gpus, more slabs than 8-column chunks, and slabs whose sum on one device
// exceeds the memory limit are refused with clear errors.
func TestSessionSlabArguments(t *testing.T) {
	ctx := context.Background()
	a := randomCSR(rand.New(rand.NewPCG(3, 4)), 20, 3)
	one, err := SlabPlan(NameSparse, a.N, a.NNZ(), 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		impl string
		opt  minplus.SessionOptions
		want string
	}{
		{NameSparse, minplus.SessionOptions{GPUs: -1}, "--gpus -1"},
		{NameSparse, minplus.SessionOptions{GPUs: 4, OneDevice: true}, "at most 3 parts"},
		{NameSparse, minplus.SessionOptions{GPUs: 3, OneDevice: true, MemoryLimit: 2 * one.Total()}, "over the limit"},
	} {
		_, err := NewSession(ctx, c.impl, a, c.opt)
		if err == nil || errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewSession(%s, %+v): %v, want an error containing %q", c.impl, c.opt, err, c.want)
		}
	}
}

// TestGPUSlabs: a session split into 2, 3 and 4 column slabs on one device
// (OneDevice; and over the GPUs when there are several) gives exactly the
// single-slab session's statistics at every power, the same whole powers
// on Download, continues identically from a power set with SetPower, and
// restarts; for cuda/sparse and both cuda/fast kernels.
func TestGPUSlabs(t *testing.T) {
	if gpuCount() == 0 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(15, 16))
	const K = 7
	for _, n := range []int{17, 90, 301, 520} {
		a := randomCSR(r, n, 3)
		ref, err := NewSession(ctx, NameSparse, a, minplus.SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var want []minplus.Stats
		pow := map[int][]int16{}
		err = ref.Powers(ctx, K, func(st minplus.Stats) error {
			want = append(want, st)
			d := make([]int16, n*n)
			pow[st.Power] = d
			return ref.Download(ctx, d)
		})
		ref.Close()
		if err != nil {
			t.Fatal(err)
		}
		run := func(label, impl string, opt minplus.SessionOptions) {
			s, err := NewSession(ctx, impl, a, opt)
			if err != nil {
				t.Fatalf("%s n=%d: %v", label, n, err)
			}
			defer s.Close()
			if len(s.Slabs()) != opt.GPUs {
				t.Fatalf("%s n=%d: %d slabs", label, n, len(s.Slabs()))
			}
			err = s.Powers(ctx, K, func(st minplus.Stats) error {
				if st != want[st.Power-1] {
					return fmt.Errorf("A^%d stats %+v, single slab %+v", st.Power, st, want[st.Power-1])
				}
				if st.Power%2 == 1 {
					got := make([]int16, n*n)
					if err := s.Download(ctx, got); err != nil {
						return err
					}
					if d := firstDiff(n, got, pow[st.Power]); d != "" {
						return fmt.Errorf("A^%d downloaded: %s", st.Power, d)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s n=%d: %v", label, n, err)
			}
			// SetPower: resume at A^3 and step to A^K again.
			if err := s.SetPower(ctx, 3, pow[3]); err != nil {
				t.Fatalf("%s n=%d: set power: %v", label, n, err)
			}
			for k := 3; k <= K; k++ {
				st, err := s.Stats(ctx)
				if err != nil || st != want[k-1] {
					t.Fatalf("%s n=%d: A^%d after SetPower: %+v, %v; want %+v", label, n, k, st, err, want[k-1])
				}
				if k < K {
					if err := s.Step(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := s.Restart(ctx); err != nil {
				t.Fatal(err)
			}
			if st, err := s.Stats(ctx); err != nil || st != want[0] {
				t.Errorf("%s n=%d: A^1 after restart: %+v, %v; want %+v", label, n, st, err, want[0])
			}
		}
		for gpus := 1; gpus <= 4 && gpus <= (n+Align-1)/Align; gpus++ {
			opts := []minplus.SessionOptions{{GPUs: gpus, OneDevice: true}}
			if gpus > 1 && gpus <= gpuCount() {
				opts = append(opts, minplus.SessionOptions{GPUs: gpus})
			}
			for _, opt := range opts {
				where := fmt.Sprintf("%d slabs (one device: %v)", gpus, opt.OneDevice)
				run("cuda/sparse "+where, NameSparse, opt)
				withFast(t, func(v string) { run("cuda/fast "+v+" "+where, NameFast, opt) })
			}
		}
	}
}
