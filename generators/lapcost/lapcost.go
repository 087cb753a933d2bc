package lapcost

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/semibench/semibench/internal/digest"
)

// Stream is the PCG stream selector (the second seed word): "lapc".
const Stream uint64 = 0x6c617063

// MaxCells bounds rows·cols (a 16 GiB int64 matrix).
const MaxCells = 1 << 31

// PaperRanges are the paper's three range labels, in increasing order.
var PaperRanges = []string{"0.1n", "n", "10n"}

// Range returns the exclusive upper bound of the costs for a range label
// ("0.1n", "n", "10n", or any "Fn") at size n.
func Range(label string, n int) (int64, error) {
	if n < 1 {
		return 0, fmt.Errorf("lapcost: size n must be positive, got %d", n)
	}
	f, err := RangeFactor(label)
	if err != nil {
		return 0, err
	}
	r := math.Floor(f * float64(n))
	if r > math.MaxInt64/2 {
		return 0, fmt.Errorf("lapcost: range %s at n=%d is too large", label, n)
	}
	return max(1, int64(r)), nil
}

// RangeFactor returns F of a label "Fn".
func RangeFactor(label string) (float64, error) {
	s, ok := strings.CutSuffix(label, "n")
	if !ok {
		return 0, fmt.Errorf("lapcost: range label %q does not end in n (want e.g. 0.1n, n, 10n)", label)
	}
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("lapcost: range label %q: want a positive factor before n", label)
	}
	return f, nil
}

// Generate returns a rows x cols row-major matrix of uniform integers in
// [0, rng), drawn in the package's documented order.
func Generate(rows, cols int, rng int64, seed uint64) ([]int64, error) {
	if rows < 1 || cols < 1 || rows > MaxCells/cols {
		return nil, fmt.Errorf("lapcost: size %dx%d not in 1..%d cells", rows, cols, MaxCells)
	}
	if rng < 1 {
		return nil, fmt.Errorf("lapcost: range must be positive, got %d", rng)
	}
	c := make([]int64, rows*cols)
	fill(c, rng, seed)
	return c, nil
}

// fill sets c to the generator's values for rng and seed, in order.
func fill(c []int64, rng int64, seed uint64) {
	fillContext(context.Background(), c, rng, seed)
}

// fillChunk is how many values fillContext draws between looks at its
// context.
const fillChunk = 1 << 20

// fillContext is fill, returning ctx's error once ctx is done (checked
// every fillChunk values; c is then partly filled).
func fillContext(ctx context.Context, c []int64, rng int64, seed uint64) error {
	src := rand.NewPCG(seed, Stream)
	b := uint64(rng)
	thresh := -b % b
	for len(c) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := c[:min(len(c), fillChunk)]
		for k := range chunk {
			hi, lo := bits.Mul64(src.Uint64(), b)
			for lo < thresh {
				hi, lo = bits.Mul64(src.Uint64(), b)
			}
			chunk[k] = int64(hi)
		}
		c = c[len(chunk):]
	}
	return nil
}

// GenerateBatch returns count independent rows x cols matrices, back to
// back: problem k (0-based) is Generate(rows, cols, rng, seed+k), the
// matrix `semibench gen lap --seed S+k` writes. The problems are generated
// in parallel; the bytes do not depend on the machine.
func GenerateBatch(count, rows, cols int, rng int64, seed uint64) ([]int64, error) {
	return GenerateBatchContext(context.Background(), count, rows, cols, rng, seed)
}

// GenerateBatchContext is GenerateBatch, stopping with ctx's error
// (wrapped) within a million values once ctx is done.
func GenerateBatchContext(ctx context.Context, count, rows, cols int, rng int64, seed uint64) ([]int64, error) {
	if count < 1 || rows < 1 || cols < 1 || rows > MaxCells/cols || count > MaxCells/(rows*cols) {
		return nil, fmt.Errorf("lapcost: batch of %d matrices %dx%d not in 1..%d cells", count, rows, cols, MaxCells)
	}
	out := make([]int64, count*rows*cols)
	s := rows * cols
	workers := min(count, runtime.GOMAXPROCS(0))
	if rng < 1 {
		return nil, fmt.Errorf("lapcost: range must be positive, got %d", rng)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < count; k += workers {
				if fillContext(ctx, out[k*s:(k+1)*s], rng, seed+uint64(k)) != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("lapcost: %w", err)
	}
	return out, nil
}

// HashBatch returns the digest of a batch of count matrices stored back to
// back, prefixed by "xxh64-batch:": the 64-bit xxHash of the problems'
// xxHash64 digests (each over the matrix as little-endian int64s), the
// problems digested in parallel. A batch holds gigabytes, and one SHA-256
// stream over 5 GB took minutes on an H100 host without SHA instructions;
// the digest names an instance, it is not a defence against forgery.
func HashBatch(c []int64, count int) (string, error) {
	if count < 1 || len(c)%count != 0 {
		return "", fmt.Errorf("lapcost: %d costs do not split into %d problems", len(c), count)
	}
	s := len(c) / count
	sums := make([]byte, 8*count)
	workers := min(count, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := xxhash.New()
			for k := w; k < count; k += workers {
				h.Reset()
				writeLE(h, c[k*s:(k+1)*s])
				binary.LittleEndian.PutUint64(sums[8*k:], h.Sum64())
			}
		}()
	}
	wg.Wait()
	return fmt.Sprintf("xxh64-batch:%016x", xxhash.Sum64(sums)), nil
}

// Square is Generate for an n x n matrix with a range label.
func Square(n int, label string, seed uint64) ([]int64, error) {
	r, err := Range(label, n)
	if err != nil {
		return nil, err
	}
	return Generate(n, n, r, seed)
}

// Hash returns the content digest of the matrix as little-endian int64s
// (internal/digest: a parallel xxHash64, a few milliseconds for the
// paper's largest matrix), for result files.
func Hash(c []int64) string { return digest.Of(c) }

// writeLE writes c to h as little-endian int64s, through a small buffer.
func writeLE(h io.Writer, c []int64) {
	var buf [8 << 10]byte
	for len(c) > 0 {
		k := min(len(c), len(buf)/8)
		for i := range k {
			binary.LittleEndian.PutUint64(buf[8*i:], uint64(c[i]))
		}
		h.Write(buf[:8*k]) // hashes never fail to write
		c = c[k:]
	}
}
