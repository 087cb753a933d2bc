package lapcost

import (
	"context"

	"github.com/semibench/semibench/internal/digest"
)

// Uniform01 names the float32 costs uniform in [0, 1) (`semibench gen lap
// --dist uniform01`, hungarian/batch-float).
const Uniform01 = "uniform01"

// Uniform01Bits is the bits of a Uniform01 cost: every cost is k·2^-24 for
// an integer k in [0, 2^24), as torch.rand draws float32 values, so every
// one is exact in float32 and the problem times 2^24 is an integer one.
const Uniform01Bits = 24

// GenerateUniform01Batch returns count independent rows x cols matrices of
// float32 costs uniform in [0, 1), back to back: problem k (0-based) holds
// k_ij·2^-24 where k_ij are the integers GenerateBatch draws in
// [0, 2^24) from seed+k (for a range of 2^24 its bounded draw is the top
// 24 bits of each PCG output, never redrawn). The bytes do not depend on
// the machine; ctx stops it as it stops GenerateBatchContext.
func GenerateUniform01Batch(ctx context.Context, count, rows, cols int, seed uint64) ([]float32, error) {
	k, err := GenerateBatchContext(ctx, count, rows, cols, 1<<Uniform01Bits, seed)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(k))
	const scale = 1.0 / (1 << Uniform01Bits)
	for i, x := range k {
		out[i] = float32(x) * scale // exact: x < 2^24, a power-of-two scale
	}
	return out, nil
}

// HashFloat32 returns the content digest of float32 costs as little-endian
// float32s (internal/digest), the Input.Hash of a Uniform01 batch.
func HashFloat32(c []float32) string { return digest.Of(c) }
