package digest

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// reference computes the digest serially from its definition.
func reference(b []byte) string {
	var sums []byte
	for off := 0; off < len(b); off += chunk {
		sums = binary.LittleEndian.AppendUint64(sums, xxhash.Sum64(b[off:min(len(b), off+chunk)]))
	}
	sums = binary.LittleEndian.AppendUint64(sums, uint64(len(b)))
	return fmt.Sprintf("%s%016x", Prefix, xxhash.Sum64(sums))
}

func TestSumMatchesDefinition(t *testing.T) {
	for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 3*chunk + 17} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + i>>9)
		}
		want := reference(b)
		if got := Sum(b); got != want {
			t.Errorf("n=%d: Sum = %s, want %s", n, got, want)
		}
		// Split anywhere: the same stream, the same digest.
		for _, cut := range []int{0, n / 3, n} {
			if got := Sum(b[:cut], b[cut:]); got != want {
				t.Errorf("n=%d cut %d: Sum = %s, want %s", n, cut, got, want)
			}
		}
	}
}

func TestSumIndependentOfCores(t *testing.T) {
	b := make([]byte, 5*chunk+3)
	for i := range b {
		b[i] = byte(i)
	}
	prev := runtime.GOMAXPROCS(1)
	one := Sum(b)
	runtime.GOMAXPROCS(prev)
	if many := Sum(b); many != one {
		t.Fatalf("1 core %s, %d cores %s", one, prev, many)
	}
}

func TestOfDistinguishes(t *testing.T) {
	a := []int64{1, 2, 3}
	if Of(a) == Of([]int64{1, 2, 4}) || Of(a) == Of([]int64{1, 2}) {
		t.Fatal("different slices share a digest")
	}
	// The bytes are little-endian: int64 1 is 01 00 ... 00.
	if got, want := Of([]int64{1}), Sum([]byte{1, 0, 0, 0, 0, 0, 0, 0}); got != want {
		t.Fatalf("Of([1]) = %s, want %s", got, want)
	}
}

func BenchmarkOf(b *testing.B) {
	c := make([]int64, 8192*8192/8)
	b.SetBytes(int64(8 * len(c)))
	for b.Loop() {
		Of(c)
	}
}
