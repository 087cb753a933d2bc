package lapcost

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/semibench/semibench/internal/digest"
)

// TestGolden pins the draw order. The expected values were computed
// independently of this package, by a Python transcription of Go's PCG-DXSM
// and Lemire's bounded draw.
func TestGolden(t *testing.T) {
	cases := []struct {
		rows, cols int
		rng        int64
		seed       uint64
		want       []int64
	}{
		{3, 4, 10, 42, []int64{8, 3, 1, 5, 2, 3, 9, 3, 8, 7, 3, 1}},
		{2, 5, 1000, 5, []int64{788, 856, 500, 743, 462, 455, 215, 489, 454, 923}},
		{1, 3, 1, 1, []int64{0, 0, 0}},
	}
	for _, tc := range cases {
		got, err := Generate(tc.rows, tc.cols, tc.rng, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Generate(%d, %d, %d, %d) = %v, want %v", tc.rows, tc.cols, tc.rng, tc.seed, got, tc.want)
		}
	}
	c, err := Square(512, "10n", 7)
	if err != nil {
		t.Fatal(err)
	}
	if h, want := "sha256:"+sha256Hex(digest.Bytes(c)), "sha256:c473f0f346fc3276ae5f1560892df7d7a950210734187f380db7f0812c0123a5"; h != want {
		t.Errorf("hash of Square(512, 10n, 7) = %s, want %s", h, want)
	}
}

func TestRange(t *testing.T) {
	cases := []struct {
		label string
		n     int
		want  int64
		bad   bool
	}{
		{"0.1n", 512, 51, false},
		{"n", 512, 512, false},
		{"10n", 512, 5120, false},
		{"0.1n", 5, 1, false},
		{"100n", 2048, 204800, false},
		{"10", 5, 0, true},
		{"-1n", 5, 0, true},
		{"xn", 5, 0, true},
		{"n", 0, 0, true},
	}
	for _, tc := range cases {
		got, err := Range(tc.label, tc.n)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("Range(%q, %d) = %d, %v; want %d (error %v)", tc.label, tc.n, got, err, tc.want, tc.bad)
		}
	}
}

func TestBoundsAndDeterminism(t *testing.T) {
	for _, label := range PaperRanges {
		a, err := Square(100, label, 3)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Square(100, label, 3)
		c, _ := Square(100, label, 4)
		r, _ := Range(label, 100)
		if !slices.Equal(a, b) || slices.Equal(a, c) {
			t.Errorf("%s: not deterministic per seed", label)
		}
		lo, hi := slices.Min(a), slices.Max(a)
		if lo < 0 || hi >= r || (r > 1 && lo == hi) {
			t.Errorf("%s: values in [%d, %d], want within [0, %d)", label, lo, hi, r)
		}
	}
	if _, err := Generate(0, 3, 5, 1); err == nil {
		t.Error("0 rows accepted")
	}
	if _, err := Generate(2, 3, 0, 1); err == nil {
		t.Error("range 0 accepted")
	}
}

// TestGenerateBatch: problem k of a batch is the matrix of seed+k, and bad
// sizes are refused.
func TestGenerateBatch(t *testing.T) {
	const count, r, c = 7, 3, 5
	b, err := GenerateBatch(count, r, c, 10, 42)
	if err != nil {
		t.Fatal(err)
	}
	for k := range count {
		want, err := Generate(r, c, 10, 42+uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b[k*r*c:(k+1)*r*c], want) {
			t.Fatalf("problem %d differs from Generate with seed %d", k, 42+k)
		}
	}
	if _, err := GenerateBatch(0, r, c, 10, 1); err == nil {
		t.Error("a batch of 0 problems was accepted")
	}
	if _, err := GenerateBatch(2, r, c, 0, 1); err == nil {
		t.Error("range 0 was accepted")
	}
}

// TestHashBatch: the batch digest is the xxHash64 of the problems'
// digests, it changes with any cost, and a batch that does not split is
// refused.
func TestHashBatch(t *testing.T) {
	c, err := GenerateBatch(5, 4, 4, 16, 3)
	if err != nil {
		t.Fatal(err)
	}
	h1, err := HashBatch(c, 5)
	if err != nil {
		t.Fatal(err)
	}
	var sums []byte
	for k := range 5 {
		var b []byte
		for _, x := range c[k*16 : (k+1)*16] {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		sums = binary.LittleEndian.AppendUint64(sums, xxhash.Sum64(b))
	}
	if want := fmt.Sprintf("xxh64-batch:%016x", xxhash.Sum64(sums)); h1 != want {
		t.Errorf("HashBatch = %s, want %s", h1, want)
	}
	c[37]++
	if h2, _ := HashBatch(c, 5); h2 == h1 {
		t.Error("a changed cost left the digest unchanged")
	}
	if _, err := HashBatch(c, 3); err == nil {
		t.Error("80 costs split into 3 problems")
	}
}

// sha256Hex pins the generator's bytes (the result files' digest is
// another function of the same bytes, tested in internal/digest).
func sha256Hex(b []byte) string {
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:])
}
