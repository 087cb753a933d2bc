package domination

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/mtx"
)

// table1Rows are the row counts of the paper's Table 1, m = 2..13.
var table1Rows = []int{6, 15, 36, 90, 225, 558, 1386, 3447, 8568, 21294, 52929, 131562}

func TestWordCountsTable1(t *testing.T) {
	for i, want := range table1Rows {
		m := i + 2
		got, err := Rows(m)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("m=%d: %d correct words, Table 1 says %d", m, got, want)
		}
		words, err := Words(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(words) != want {
			t.Errorf("m=%d: Words lists %d, Table 1 says %d", m, len(words), want)
		}
	}
}

// TestWordsBruteForce holds Words to a scan of all 3^m words with Correct.
func TestWordsBruteForce(t *testing.T) {
	for m := 2; m <= 7; m++ {
		words, _ := Words(m)
		var all []string
		w := make(Word, m)
		for c := 0; c < pow3(m); c++ {
			x := c
			for i := m - 1; i >= 0; i-- {
				w[i] = uint8(x % 3)
				x /= 3
			}
			if Correct(w) {
				all = append(all, w.String())
			}
		}
		if len(all) != len(words) {
			t.Fatalf("m=%d: %d words, brute force %d", m, len(words), len(all))
		}
		for i := range all {
			if words[i].String() != all[i] {
				t.Fatalf("m=%d: word %d = %s, brute force %s", m, i, words[i], all[i])
			}
		}
	}
}

func TestCorrectAndFollow(t *testing.T) {
	word := func(s string) Word {
		w := make(Word, len(s))
		for i := range s {
			w[i] = s[i] - '0'
		}
		return w
	}
	for _, tc := range []struct {
		w    string
		want bool
	}{
		{"00", true}, {"11", false}, {"12", false}, {"21", false}, {"22", true},
		{"020", false}, {"0110", true}, {"0101", true}, {"2112", false}, {"1012", true}, {"0111", false}, {"2120", false}, {"0021", false},
	} {
		if got := Correct(word(tc.w)); got != tc.want {
			t.Errorf("Correct(%s) = %v, want %v", tc.w, got, tc.want)
		}
	}
	// Checked by hand: p = 20 after q = 10: p_1 = 2 has p_2 = 0 and q_1 = 1: one zero: ok.
	if !CanFollow(word("20"), word("10")) {
		t.Error("20 should follow 10")
	}
	// p = 20 after q = 00: p_1 = 2 has p_2 = 0 and q_1 = 0: two zeros: not ok.
	if CanFollow(word("20"), word("00")) {
		t.Error("20 should not follow 00")
	}
	// p = 10 after q = 00: p_1 = 1 has two zeros: ok.
	if !CanFollow(word("10"), word("00")) {
		t.Error("10 should follow 00")
	}
	// q = 22 forces p = 00.
	if CanFollow(word("02"), word("22")) || !CanFollow(word("00"), word("22")) {
		t.Error("22 must be followed by 00 only")
	}
}

// TestBuildAgainstPairs holds Build's letter-by-letter arcs to CanFollow on
// every pair of words.
func TestBuildAgainstPairs(t *testing.T) {
	for m := 2; m <= 6; m++ {
		d, err := Build(m)
		if err != nil {
			t.Fatal(err)
		}
		a := d.Dense()
		for qi, q := range d.Words {
			for pi, p := range d.Words {
				want := int16(9999)
				if CanFollow(p, q) {
					want = int16(p.Zeros())
				}
				if got := a.At(qi, pi); got != want {
					t.Fatalf("m=%d: A[%s][%s] = %d, want %d", m, q, p, got, want)
				}
			}
		}
		for i, w := range d.Words {
			if d.Index(w) != i {
				t.Fatalf("m=%d: Index(%s) = %d, want %d", m, w, d.Index(w), i)
			}
		}
	}
}

// TestBuildThreads checks that the bands of BuildThreads join into Build's
// CSR, whatever the number of threads (more threads than rows at m = 2).
func TestBuildThreads(t *testing.T) {
	for m := 2; m <= 8; m++ {
		want, err := Build(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{0, 2, 3, 64} {
			got, err := BuildThreads(m, threads)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.A.RowPtr, want.A.RowPtr) || !slices.Equal(got.A.Col, want.A.Col) || !slices.Equal(got.A.Val, want.A.Val) {
				t.Fatalf("m=%d, %d threads: CSR differs from Build's (%d vs %d arcs)", m, threads, got.A.NNZ(), want.A.NNZ())
			}
		}
	}
}

func TestBadM(t *testing.T) {
	for _, m := range []int{-1, 0, 1, MaxM + 1} {
		if _, err := Build(m); err == nil {
			t.Errorf("Build(%d): no error", m)
		}
	}
}

func TestWriteMatrixMarket(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, 4); err != nil {
		t.Fatal(err)
	}
	got, err := mtx.Read(strings.NewReader(buf.String()), "A4.mtx")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Build(4)
	if got.Rows != 36 || len(got.Entries) != d.A.NNZ() {
		t.Fatalf("read back %d rows, %d entries; want 36, %d", got.Rows, len(got.Entries), d.A.NNZ())
	}
	a := d.Dense()
	for _, e := range got.Entries {
		if float64(a.At(e.I, e.J)) != e.V {
			t.Fatalf("entry (%d,%d) = %v, want %d", e.I, e.J, e.V, a.At(e.I, e.J))
		}
	}
}
