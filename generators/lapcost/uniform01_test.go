package lapcost

import (
	"context"
	"math"
	"slices"
	"testing"
)

// TestUniform01Batch: the float32 costs are the integer draws of range
// 2^24 times 2^-24 (so each is exact in float32 and in [0, 1)), problem k
// is the batch of one from seed+k, the same seed gives the same bytes and
// another seed others, and the digest of one batch is pinned (computed by
// this package when the generator was written: a change of the draw order
// shows here).
func TestUniform01Batch(t *testing.T) {
	ctx := context.Background()
	const count, rows, cols = 4, 3, 7
	c, err := GenerateUniform01Batch(ctx, count, rows, cols, 5)
	if err != nil {
		t.Fatal(err)
	}
	k, err := GenerateBatch(count, rows, cols, 1<<Uniform01Bits, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range c {
		if !(x >= 0 && x < 1) || float64(x) != math.Ldexp(float64(k[i]), -Uniform01Bits) {
			t.Fatalf("cost %d = %v, want %d·2^-24 in [0, 1)", i, x, k[i])
		}
	}
	for p := range count {
		one, err := GenerateUniform01Batch(ctx, 1, rows, cols, 5+uint64(p))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one, c[p*rows*cols:(p+1)*rows*cols]) {
			t.Errorf("problem %d differs from the batch of one from seed %d", p, 5+p)
		}
	}
	again, _ := GenerateUniform01Batch(ctx, count, rows, cols, 5)
	other, _ := GenerateUniform01Batch(ctx, count, rows, cols, 6)
	if !slices.Equal(again, c) || slices.Equal(other, c) {
		t.Error("not deterministic per seed")
	}
	if h, want := HashFloat32(c), "xxh64c:da2ac56f8d95bfcf"; h != want {
		t.Errorf("HashFloat32 of the batch = %s, want %s", h, want)
	}
	if _, err := GenerateUniform01Batch(ctx, 0, rows, cols, 5); err == nil {
		t.Error("a batch of 0 problems was accepted")
	}
}
