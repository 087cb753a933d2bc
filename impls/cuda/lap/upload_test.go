package cudalap

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/lap/hostcost"
	"github.com/semibench/semibench/problems/lap"
)

// TestGPUScanUpload: the fused upload puts the costs on the device exactly
// through chunks of every width (int16 chunks, then a chunk that needs
// int32, after which the rest go as int32; uint16 chunks, then int16
// ones), finds their least and largest, and gives up (errUnfused) on a
// cost beyond int32 or a span beyond its bound; lap_shift32 then
// subtracts the least on the device.
func TestGPUScanUpload(t *testing.T) {
	needGPU(t)
	n := stageBytes/2 + 4321 // 16.8M costs: eight chunks and a short one
	per := chunkCosts(n)
	src := make([]int64, n)
	rnd := rand.New(rand.NewPCG(8, 9))
	for k := range src {
		src[k] = rnd.Int64N(60000) - 30000
	}
	src[per+17] = -200000 // the second chunk needs int32
	dev, err := cuda.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	lim := lap.MaxAbsCost(1000)
	run := func(c []int64, maxSpan, shift int64) ([]int32, hostcost.Scan, error) {
		got := make([]int32, len(c))
		var sc hostcost.Scan
		err := dev.Run(context.Background(), func(th *driver.Thread) error {
			dst, err := dev.Buffer(th, "lap.test.upload", uint64(4*len(c)))
			if err != nil {
				return err
			}
			if sc, err = scanUpload(th, dev, dst, c, lim, maxSpan); err != nil {
				return err
			}
			if shift != 0 {
				if err := shiftCosts(th, dev, dst, len(c), shift); err != nil {
					return err
				}
			}
			return cuda.Download(th, dev, got, dst)
		})
		return got, sc, err
	}
	got, sc, err := run(src, math.MaxInt64, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Lo != -200000 || sc.Hi < 29000 {
		t.Errorf("scan %+v", sc)
	}
	for k, x := range got {
		if int64(x) != src[k] {
			t.Fatalf("cost %d on the device is %d, want %d", k, x, src[k])
		}
	}
	if got, _, err = run(src, math.MaxInt64, sc.Lo); err != nil {
		t.Fatal(err)
	}
	for k, x := range got {
		if int64(x) != src[k]-sc.Lo {
			t.Fatalf("shifted cost %d on the device is %d, want %d", k, x, src[k]-sc.Lo)
		}
	}
	if _, _, err = run(src, 100000, 0); !errors.Is(err, errUnfused) {
		t.Errorf("span 229999 against a bound of 100000: %v", err)
	}
	src[2*per+5] = math.MinInt32 - 1
	if _, _, err = run(src, math.MaxInt64, 0); !errors.Is(err, errUnfused) {
		t.Errorf("a cost beyond int32: %v", err)
	}
	// Costs from 0 to 65,535 in the first chunk (uint16), then from -100
	// to 29,899 (int16).
	for k := range src {
		src[k] = rnd.Int64N(65536)
		if k >= per {
			src[k] = rnd.Int64N(30000) - 100
		}
	}
	if got, sc, err = run(src, math.MaxInt64, 0); err != nil {
		t.Fatal(err)
	}
	if sc.Lo < -100 || sc.Hi > 65535 || sc.Hi < 65000 {
		t.Errorf("scan %+v", sc)
	}
	for k, x := range got {
		if int64(x) != src[k] {
			t.Fatalf("uint16 then int16 chunks: cost %d on the device is %d, want %d", k, x, src[k])
		}
	}
}

// TestGPUFastPaths: cuda/fast certified on instances that take each of its
// upload paths: fused with int16 chunks and a later uint16 or int32 chunk,
// fused with costs shifted by a negative least on the device, costs beyond
// int32 (the scan first; refused as before), and a span beyond the
// Hungarian's slacks (the auction).
func TestGPUFastPaths(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(5, 5))
	n := 3000 // 9M costs: two chunks
	mixed := randomMatrix(rnd, n, n, 3000)
	mixed.C[len(mixed.C)-2] = 50000
	wider := randomMatrix(rnd, n, n, 3000)
	wider.C[len(wider.C)-2] = 70000
	far := randomMatrix(rnd, 300, 300, 1000)
	wide := randomMatrix(rnd, 300, 300, 100_000_000)
	for k := range far.C {
		far.C[k] -= 2_000_000_000
	}
	for _, c := range []struct {
		name     string
		m        *lap.Matrix
		strategy string
	}{{"int16 then uint16 chunks", mixed, StrategyForest}, {"int16 then int32 chunks", wider, StrategyForest}, {"shifted", far, StrategyForest}, {"span beyond the slacks", wide, StrategyAuction}} {
		res, st, err := FastWithStats(ctx, c.m, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if st.Strategy != c.strategy {
			t.Errorf("%s: strategy %s, want %s", c.name, st.Strategy, c.strategy)
		}
		check(t, "cuda/fast "+c.name, c.m, res)
	}
	// A cost beyond int32 no longer refuses: cuda/fast solves it exactly
	// with the float64 kernels (see TestIntResult).
	beyond := randomMatrix(rnd, 50, 50, 100)
	beyond.C[77] = math.MaxInt32 + 5
	res, err := Fast(ctx, beyond, Options{})
	if err != nil {
		t.Fatalf("a cost beyond int32: %v", err)
	}
	check(t, "cuda/fast beyond int32", beyond, res)
}

// TestChunkCosts: an upload of up to 2^20 costs is one chunk; above it
// the chunks are an eighth of the costs (so at most nine, the last
// shorter) until they reach the ring's size, and never exceed it.
func TestChunkCosts(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, 1 << 20}, {1 << 20, 1 << 20}, {1<<20 + 1, 1 << 20}, {1 << 22, 1 << 20},
		{1<<23 + 8, 1<<20 + 1}, {1 << 24, 1 << 21}, {1 << 26, stageBytes / 4}, {1 << 28, stageBytes / 4},
	} {
		if got := chunkCosts(c.n); got != c.want {
			t.Errorf("chunkCosts(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	for n := 1; n < 1<<30; n = n*3 + 1 {
		per := chunkCosts(n)
		if chunks := (n + per - 1) / per; per > stageBytes/4 || n > 1<<20 && n <= 1<<26 && chunks > 9 {
			t.Errorf("n = %d: %d chunks of %d", n, chunks, per)
		}
	}
}
