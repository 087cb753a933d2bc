package domination

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/semibench/semibench/mtx"
	"github.com/semibench/semibench/problems/minplus"
)

// MaxM is the largest m Build and Words accept: the word index has 3^m
// entries, and A(D_16) already has about 2 million rows.
const MaxM = 16

// Word is a correct m-word, letters in {0, 1, 2}, Word[0] = p^1.
type Word []uint8

// String renders the word as its letters, "0201".
func (w Word) String() string {
	b := make([]byte, len(w))
	for i, c := range w {
		b[i] = '0' + c
	}
	return string(b)
}

// Zeros is the number of zeros of w: the label of every arc into w.
func (w Word) Zeros() int {
	z := 0
	for _, c := range w {
		if c == 0 {
			z++
		}
	}
	return z
}

// Correct reports whether w is a correct m-word (section 2.2).
func Correct(w Word) bool {
	m := len(w)
	for _, c := range w {
		if c > 2 {
			return false
		}
	}
	if m >= 2 {
		if w[0] == 1 && w[1] != 0 { // 11, 12 at the beginning
			return false
		}
		if w[m-1] == 1 && w[m-2] != 0 { // 11, 21 at the end
			return false
		}
	}
	for i := 0; i+2 < m; i++ {
		a, b, c := w[i], w[i+1], w[i+2]
		if a == 0 && b == 2 && c == 0 { // 020
			return false
		}
		if b == 1 && a != 0 && c != 0 { // 111, 211, 112, 212
			return false
		}
	}
	return true
}

// CanFollow reports whether p can follow q: whether they can be consecutive
// columns, q then p, of a 2-dominating set (the three rules of section 2.2).
func CanFollow(p, q Word) bool {
	m := len(p)
	if len(q) != m {
		return false
	}
	for i := 0; i < m; i++ {
		if q[i] == 2 && p[i] != 0 {
			return false
		}
		if p[i] == 0 {
			continue
		}
		zeros := 0
		if i > 0 && p[i-1] == 0 {
			zeros++
		}
		if i+1 < m && p[i+1] == 0 {
			zeros++
		}
		if q[i] == 0 {
			zeros++
		}
		if p[i] == 2 && zeros != 1 || p[i] == 1 && zeros < 2 {
			return false
		}
	}
	return true
}

// Digraph is D_m: its correct m-words and its arcs as A(D_m) in CSR.
type Digraph struct {
	M     int
	Words []Word
	// index maps a word's base-3 code (p^1 most significant) to its number,
	// or -1 when the word is not correct.
	index []int32
	A     *minplus.CSR
}

// Index returns the number of w, or -1 when w is not a correct m-word.
func (d *Digraph) Index(w Word) int {
	if len(w) != d.M {
		return -1
	}
	code := 0
	for _, c := range w {
		if c > 2 {
			return -1
		}
		code = 3*code + int(c)
	}
	return int(d.index[code])
}

// N is the number of correct m-words: the order of A(D_m).
func (d *Digraph) N() int { return len(d.Words) }

// CheckM validates m.
func CheckM(m int) error {
	if m < 2 || m > MaxM {
		return fmt.Errorf("domination: m = %d out of range (2 <= m <= %d)", m, MaxM)
	}
	return nil
}

// Words lists the correct m-words in lexicographic order.
func Words(m int) ([]Word, error) {
	if err := CheckM(m); err != nil {
		return nil, err
	}
	var out []Word
	w := make(Word, m)
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			if Correct(w) {
				out = append(out, append(Word(nil), w...))
			}
			return
		}
		for c := uint8(0); c <= 2; c++ {
			w[i] = c
			// prune on the beginning and the triples already complete
			if !prefixOK(w[:i+1]) {
				continue
			}
			rec(i + 1)
		}
	}
	rec(0)
	return out, nil
}

// prefixOK reports whether a prefix can still extend to a correct word:
// it checks the beginning and the interior triples, not the end.
func prefixOK(w Word) bool {
	if len(w) >= 2 && w[0] == 1 && w[1] != 0 {
		return false
	}
	for i := 0; i+2 < len(w); i++ {
		a, b, c := w[i], w[i+1], w[i+2]
		if a == 0 && b == 2 && c == 0 || b == 1 && a != 0 && c != 0 {
			return false
		}
	}
	return true
}

// Build constructs D_m: the correct m-words and A(D_m) in CSR, the arcs of
// row q found by generating the words that can follow q letter by letter,
// on one thread as the paper's Algorithm 1 (Table 1 times it).
func Build(m int) (*Digraph, error) { return BuildThreads(m, 1) }

// BuildThreads is Build with the rows split into bands that threads
// goroutines generate (0: every CPU), joined in order: the same digraph,
// sooner (m = 14's 370 M arcs take a minute on one thread).
func BuildThreads(m, threads int) (*Digraph, error) {
	d, err := newDigraph(m)
	if err != nil {
		return nil, err
	}
	n := len(d.Words)
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	// Several bands per thread, as the rows' arc counts vary; one thread
	// makes one band, which becomes A in place.
	nb := 1
	if threads > 1 {
		nb = min(n, 8*threads)
	}
	bands := make([]minplus.CSR, nb) // each band's arcs; RowPtr[i] is where its row i ends
	next := make(chan int, nb)
	for b := range nb {
		next <- b
	}
	close(next)
	var wg sync.WaitGroup
	var total atomic.Int64 // the arcs so far, to stop at the int32 bound
	for range min(threads, nb) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := make(Word, m)
			for b := range next {
				bd := &bands[b]
				for _, q := range d.Words[b*n/nb : (b+1)*n/nb] {
					before := len(bd.Col)
					d.followers(q, p, func(j int32, v int16) { bd.Col, bd.Val = append(bd.Col, j), append(bd.Val, v) })
					bd.RowPtr = append(bd.RowPtr, int32(len(bd.Col)))
					if total.Add(int64(len(bd.Col)-before)) > math.MaxInt32-1 {
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if total.Load() > math.MaxInt32-1 {
		return nil, fmt.Errorf("domination: m = %d has too many arcs for int32 indices", m)
	}
	a := &minplus.CSR{N: n, RowPtr: make([]int32, 1, n+1), Col: bands[0].Col, Val: bands[0].Val}
	if nb > 1 {
		a.Col, a.Val = make([]int32, 0, total.Load()), make([]int16, 0, total.Load())
	}
	for b := range bands {
		at := int32(0)
		if nb > 1 {
			at = int32(len(a.Col))
			a.Col, a.Val = append(a.Col, bands[b].Col...), append(a.Val, bands[b].Val...)
		}
		for _, e := range bands[b].RowPtr {
			a.RowPtr = append(a.RowPtr, at+e)
		}
		bands[b] = minplus.CSR{} // let the band go while the next is copied
	}
	d.A = a
	return d, nil
}

// newDigraph lists the words of D_m and indexes them, without the arcs.
func newDigraph(m int) (*Digraph, error) {
	words, err := Words(m)
	if err != nil {
		return nil, err
	}
	d := &Digraph{M: m, Words: words, index: make([]int32, pow3(m))}
	for i := range d.index {
		d.index[i] = -1
	}
	for i, w := range words {
		d.index[code(w)] = int32(i)
	}
	return d, nil
}

// followers calls fn(j, zeros) for every word j that can follow q, in
// increasing order, generating them letter by letter in p (scratch of
// length m).
func (d *Digraph) followers(q, p Word, fn func(j int32, v int16)) {
	m := d.M
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			if CanFollow(p, q) {
				if j := d.index[code(p)]; j >= 0 {
					fn(j, int16(p.Zeros()))
				}
			}
			return
		}
		for c := uint8(0); c <= 2; c++ {
			if q[i] == 2 && c != 0 {
				continue
			}
			p[i] = c
			// position i-1 is now fully determined: check its rule
			if i >= 1 && !positionOK(p, q, i-1, i+1) {
				continue
			}
			rec(i + 1)
		}
	}
	rec(0)
}

// positionOK checks the rule of position i of p after q, where p is known
// up to (excluding) position known.
func positionOK(p, q Word, i, known int) bool {
	if p[i] == 0 {
		return true
	}
	zeros := 0
	if i > 0 && p[i-1] == 0 {
		zeros++
	}
	if i+1 < known && p[i+1] == 0 {
		zeros++
	}
	if q[i] == 0 {
		zeros++
	}
	return !(p[i] == 2 && zeros != 1 || p[i] == 1 && zeros < 2)
}

func code(w Word) int {
	c := 0
	for _, x := range w {
		c = 3*c + int(x)
	}
	return c
}

func pow3(m int) int {
	p := 1
	for i := 0; i < m; i++ {
		p *= 3
	}
	return p
}

// Dense returns A(D_m) as a dense N x N int16 matrix, minplus.Inf where
// there is no arc.
func (d *Digraph) Dense() *minplus.Dense { return d.A.ToDense() }

// Rows returns the number of correct m-words without listing them, by
// counting over the last two letters, for any m >= 2 (it overflows int64
// only far beyond any m whose matrix could be stored).
func Rows(m int) (int, error) {
	if m < 2 {
		return 0, fmt.Errorf("domination: m = %d out of range (m >= 2)", m)
	}
	var cnt [3][3]int // cnt[a][b]: correct prefixes ending in the letters a, b
	for a := uint8(0); a < 3; a++ {
		for b := uint8(0); b < 3; b++ {
			if prefixOK(Word{a, b}) {
				cnt[a][b] = 1
			}
		}
	}
	for i := 2; i < m; i++ {
		var next [3][3]int
		for a := uint8(0); a < 3; a++ {
			for b := uint8(0); b < 3; b++ {
				for c := uint8(0); c < 3; c++ {
					if cnt[a][b] > 0 && tripleOK(a, b, c) {
						next[b][c] += cnt[a][b]
					}
				}
			}
		}
		cnt = next
	}
	total := 0
	for a := uint8(0); a < 3; a++ {
		for b := uint8(0); b < 3; b++ {
			if !(b == 1 && a != 0) { // 11, 21 at the end
				total += cnt[a][b]
			}
		}
	}
	return total, nil
}

// tripleOK reports whether the letters a, b, c may stand consecutively.
func tripleOK(a, b, c uint8) bool {
	return !(a == 0 && b == 2 && c == 0 || b == 1 && a != 0 && c != 0)
}

// WriteMatrixMarket writes A(D_m) to w as a coordinate Matrix Market file
// (integer values in the real field): one entry per arc (q, p), 1-based,
// valued with the number of zeros of p (0 is a real arc label); absent
// entries are ∞. Rows and columns are the correct words in lexicographic
// order. The arcs are generated twice, once to count them for the size
// line and once to write them, so memory stays at the word index (3^m
// int32) whatever the number of arcs.
func WriteMatrixMarket(w io.Writer, m int) error {
	return WriteMatrixMarketContext(context.Background(), w, m)
}

// WriteMatrixMarketContext is WriteMatrixMarket, stopping with ctx's error
// (wrapped) within a row of the counting pass once ctx is done (w's own
// errors stop the writing pass).
func WriteMatrixMarketContext(ctx context.Context, w io.Writer, m int) error {
	d, err := newDigraph(m)
	if err != nil {
		return err
	}
	p := make(Word, m)
	nnz := 0
	for _, q := range d.Words {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("domination: writing A(D_%d): %w", m, err)
		}
		d.followers(q, p, func(int32, int16) { nnz++ })
	}
	n := len(d.Words)
	mw, err := mtx.NewWriter(w, n, n, nnz,
		fmt.Sprintf("A(D_%d) of the 2-domination paper (002, section 2.2): %d correct %d-words, %d arcs", m, n, m, nnz),
		"entry (q, p) = number of zeros of p when p can follow q; absent entries are infinity",
		"rows and columns are the correct words in lexicographic order (0 < 1 < 2)")
	if err != nil {
		return fmt.Errorf("domination: writing A(D_%d): %w", m, err)
	}
	for qi, q := range d.Words {
		d.followers(q, p, func(j int32, v int16) {
			if err == nil {
				err = mw.Write(qi, int(j), float64(v))
			}
		})
		if err != nil {
			return fmt.Errorf("domination: writing A(D_%d): %w", m, err)
		}
	}
	if err := mw.Close(); err != nil {
		return fmt.Errorf("domination: writing A(D_%d): %w", m, err)
	}
	return nil
}
