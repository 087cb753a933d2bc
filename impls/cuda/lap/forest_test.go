package cudalap

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestForestShape: the forest kernel's blocks own a power of two of rows,
// 32 to the block's threads, enough that every row has a block and no
// more blocks than multiprocessors (a cooperative launch needs them all
// resident), and the shape fits the level barrier's counts.
func TestForestShape(t *testing.T) {
	for _, c := range []struct{ n, sms, threads, per, blocks int }{
		{1, 132, 1024, 32, 1},
		{1000, 132, 1024, 32, 32},
		{8192, 132, 1024, 64, 128},
		{8193, 132, 1024, 64, 129},
		{16384, 132, 1024, 128, 128},
		{46340, 132, 1024, 512, 91},
		{46340, 132, 512, 512, 91},
		{67585, 132, 512, 0, 0},
		{67585, 132, 1024, 1024, 67},
		{4096, 1, 1024, 0, 0},
		{200000, 5000, 1024, 64, 3125},
		{500000, 10000, 1024, 0, 0}, // 7,813 blocks: beyond the level barrier's 12 bits
		{1 << 20, 2048, 1024, 0, 0}, // beyond its 20-bit counts
	} {
		per, blocks, err := forestShape(c.n, c.sms, c.threads)
		if c.per == 0 {
			if err == nil {
				t.Errorf("forestShape(%d, %d, %d) = %d, %d; want an error", c.n, c.sms, c.threads, per, blocks)
			}
			continue
		}
		if err != nil || per != c.per || blocks != c.blocks {
			t.Errorf("forestShape(%d, %d, %d) = %d, %d, %v; want %d, %d", c.n, c.sms, c.threads, per, blocks, err, c.per, c.blocks)
		}
		if blocks > c.sms || per*blocks < c.n {
			t.Errorf("forestShape(%d, %d, %d): %d blocks of %d rows", c.n, c.sms, c.threads, blocks, per)
		}
	}
}

// TestKernelErrors: the kernels' error words read as what they mean, an
// unknown code by its number, and 0 as no error.
func TestKernelErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{forestErr(2), "forest search: a round ran more than 4n+4 levels (internal error)"},
		{forestErr(9), "forest search: kernel error 9 (internal error)"},
		{forestErr(4), "forest search: the search reached 2^24 levels, the most its level barrier counts (internal error)"},
		{paperError(1), "step 6 found no uncovered slack (internal error)"},
		{paperError(-1), "kernel error -1 (internal error)"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
	if forestErr(0) != nil || paperError(0) != nil {
		t.Error("code 0 is an error")
	}
}

// TestForestThreads: the forest kernel's block size by order and span,
// the rule NOTES.md's measurements set, and a larger block where the
// smaller could not hold a block's rows (few multiprocessors).
func TestForestThreads(t *testing.T) {
	for _, c := range []struct {
		n, sms int
		span   int64
		want   int
	}{
		{1024, 132, 102, 1024}, {1024, 132, 1024, 512}, {1024, 132, 4095, 512}, {1024, 132, 4096, 256}, {1024, 132, 10240, 256},
		{1000, 132, 10000, 512}, {4096, 132, 409, 1024}, {4096, 132, 2048, 512}, {4096, 132, 40960, 256},
		{4096, 8, 40960, 512}, {4096, 4, 40960, 1024},
		{8192, 132, 819, 1024}, {8192, 132, 8192, 1024}, {8192, 132, 32767, 1024}, {8192, 132, 32768, 512},
		{8192, 132, 81920, 512}, {16384, 16, 163840, 1024}, {8192, 16, 81920, 512},
	} {
		if got := forestThreads(c.n, c.sms, c.span); got != c.want {
			t.Errorf("forestThreads(%d, %d, %d) = %d, want %d", c.n, c.sms, c.span, got, c.want)
		}
	}
}

// TestGPUForestThreads: the forest search certified at every block size
// (1024, 512 and 256 threads, each forced) on random shapes of every
// range, so that each of its kernels runs in the GPU suite whatever
// forestThreads picks for these orders.
func TestGPUForestThreads(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(9, 35))
	solve := forced(StrategyForest)
	defer func() { forestThreadsOverride = 0 }()
	for _, threads := range []int{1024, 512, 256} {
		forestThreadsOverride = threads
		for _, sh := range [][2]int{{17, 17}, {100, 100}, {257, 300}, {1000, 1000}, {2048, 2048}} {
			for _, rf := range []float64{0.1, 1, 10} {
				m := randomMatrix(rnd, sh[0], sh[1], max(1, int64(rf*float64(sh[1]))))
				res, err := solve(ctx, m, Options{})
				if err != nil {
					t.Fatalf("%d threads, %dx%d range %gn: %v", threads, sh[0], sh[1], rf, err)
				}
				check(t, fmt.Sprintf("cuda/fast forest, %d threads", threads), m, res)
			}
		}
	}
}
