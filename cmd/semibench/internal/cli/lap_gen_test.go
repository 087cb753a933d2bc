package cli

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// TestAppendFloat32RoundTrip: every cost gen lap --dist uniform01 can
// write, k·2^-24 for k in [0, 2^24), is written in a form that reads back
// as the same float32 both ways a reader may take: parsed as a float32,
// and parsed as a float64 then rounded to float32 (Python's float, then
// torch.float32). -short tries every 61st k and the ends; the full run
// takes every k.
func TestAppendFloat32RoundTrip(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 61
	}
	const n = 1 << lapcost.Uniform01Bits
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := 0
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			check := func(k int) {
				x := float32(math.Ldexp(float64(k), -lapcost.Uniform01Bits))
				buf = AppendFloat32(buf[:0], x)
				v32, err32 := strconv.ParseFloat(string(buf), 32)
				v64, err64 := strconv.ParseFloat(string(buf), 64)
				if err32 != nil || err64 != nil || float32(v32) != x || float32(v64) != x {
					mu.Lock()
					if bad++; bad <= 5 {
						t.Errorf("k = %d: %v written %q reads back as %v (float32) and %v (via float64)", k, x, buf, float32(v32), float32(v64))
					}
					mu.Unlock()
				}
			}
			for k := w * step; k < n; k += workers * step {
				check(k)
			}
			if w == 0 {
				check(1)
				check(n - 1)
			}
		}()
	}
	wg.Wait()
}

// TestUniform01BatchRoundTrip: the batch file gen lap writes reads back
// (lap.ReadBatch, then float32) as the generator's float32 costs, bit for
// bit, and the digests agree.
func TestUniform01BatchRoundTrip(t *testing.T) {
	ctx := context.Background()
	const count, rows, cols = 5, 7, 11
	c, err := lapcost.GenerateUniform01Batch(ctx, count, rows, cols, 9)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := writeLAPCosts(w, rows, cols, count, c, AppendFloat32); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	b, err := lap.ReadBatch(&buf, "batch")
	if err != nil {
		t.Fatal(err)
	}
	if b.IsInt() || b.Count != count || b.Rows != rows || b.Cols != cols {
		t.Fatalf("read %d problems of %dx%d (integers: %v)", b.Count, b.Rows, b.Cols, b.IsInt())
	}
	got := make([]float32, len(b.Float))
	for i, x := range b.Float {
		got[i] = float32(x)
		if got[i] != c[i] {
			t.Fatalf("cost %d: %v read back as %v", i, c[i], got[i])
		}
	}
	if lapcost.HashFloat32(got) != lapcost.HashFloat32(c) {
		t.Error("equal costs, different digests")
	}
}
