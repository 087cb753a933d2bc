package cudakleene

import (
	"fmt"
	"math/bits"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/kleene"
)

// Block is the side of the diagonal blocks closed first, and the alignment
// of every block boundary of the fast schedule: the padded size np, the
// column slabs and the row blocks are multiples of it.
const Block = 64

// RowBlock is the height of the row blocks of the triangular solves that a
// column slab needs below its diagonal block (multi-GPU).
const RowBlock = 256

// Buffers a schedule refers to.
const (
	bufP = iota // the np x np matrix in topological order, closed in place
	bufT        // scratch for the products T = C ⊗ A*
	bufZ        // the right-hand sides of a slab's triangular solves
)

// GEMM flags, as in kernels/kleene.cu.
const (
	flagTriA       = 1 // A lower triangular: A[i,k] = ε for k > i
	flagTriB       = 2 // B lower triangular: B[k,j] = ε for k < j
	flagAccumulate = 4 // C ⊕= A ⊗ B
)

// operand is a matrix inside one of the buffers: element offset and leading
// dimension.
type operand struct {
	Buf int
	Off int64
	LD  int64
}

// gemmOp is C = A ⊗ B (or C ⊕= A ⊗ B) over M x N with inner size K.
type gemmOp struct {
	A, B, C operand
	M, N, K int
	Flags   int32
}

// step is one kernel launch of a schedule: either the closure of the
// DiagCount diagonal blocks of P starting at row DiagFirst, or a batch of
// independent products.
type step struct {
	DiagFirst, DiagCount int
	Gemms                []gemmOp
}

// schedule is the fast closure of one column slab [Lo, Hi) of P (np x np,
// topological order, lower triangular): afterwards P[Lo:np, Lo:Hi] holds
// X*'s slab. The single-GPU case is the slab [0, np).
type schedule struct {
	NP        int
	Lo, Hi    int
	Steps     []step
	TempElems int64 // size of bufT
	ZElems    int64 // size of bufZ
}

// padded returns the padded size np >= n, a multiple of Block (at least one
// block).
func padded(n int) int { return max(1, (n+Block-1)/Block) * Block }

func pOp(np, row, col int) operand {
	return operand{Buf: bufP, Off: int64(row)*int64(np) + int64(col), LD: int64(np)}
}

// closureLevels returns, level by level (block sizes Block, 2 Block, 4 Block,
// ...), the products that join neighbouring closed blocks inside each
// range, every range starting on a multiple of Block, its diagonal blocks
// of size Block already closed. A range [lo, hi) is split at lo + s, lo +
// 3s, ... at level s: the left block [lo', lo'+s) is closed (A*), the right
// [lo'+s, min(lo'+2s, hi)) too (D*), and the joint block below the diagonal
// becomes D* ⊗ C ⊗ A*. Each level is two steps: T = C ⊗ A* into scratch,
// then D* ⊗ T into place. It returns the steps and the scratch size.
func closureLevels(np int, ranges []cuda.Range) ([]step, int64) {
	var steps []step
	var temp int64
	for s := Block; ; s *= 2 {
		var first, second []gemmOp
		var off int64
		for _, r := range ranges {
			for lo := r.Lo; lo+s < r.Hi; lo += 2 * s {
				mid, hi := lo+s, min(lo+2*s, r.Hi)
				m, w := hi-mid, s
				t := operand{Buf: bufT, Off: off, LD: int64(w)}
				off += int64(m) * int64(w)
				first = append(first, gemmOp{A: pOp(np, mid, lo), B: pOp(np, lo, lo), C: t, M: m, N: w, K: w, Flags: flagTriB})
				second = append(second, gemmOp{A: pOp(np, mid, mid), B: t, C: pOp(np, mid, lo), M: m, N: w, K: m, Flags: flagTriA})
			}
		}
		if len(first) == 0 {
			break
		}
		temp = max(temp, off)
		steps = append(steps, step{Gemms: first}, step{Gemms: second})
	}
	return steps, temp
}

// slabSchedule plans the closure of the column slab [lo, hi) of P (np x
// np): the diagonal blocks of [lo, np), the slab's diagonal block by
// closureLevels, and, below it, the rows [hi, np) by a blocked triangular
// solve: Z = X[hi:np, lo:hi] ⊗ Y[lo:hi, lo:hi]; then for each row block K,
// Y[K, slab] = X_KK* ⊗ Z[K] and Z[below K] ⊕= X[below K, K] ⊗ Y[K, slab].
func slabSchedule(np, lo, hi int) (schedule, error) {
	if np <= 0 || np%Block != 0 || lo < 0 || lo%Block != 0 || hi <= lo || hi > np || (hi%Block != 0 && hi != np) {
		return schedule{}, fmt.Errorf("slab [%d, %d) of np=%d: bounds must be multiples of %d inside [0, np)", lo, hi, np, Block)
	}
	sc := schedule{NP: np, Lo: lo, Hi: hi}
	sc.Steps = append(sc.Steps, step{DiagFirst: lo, DiagCount: (np - lo) / Block})
	ranges := []cuda.Range{{Lo: lo, Hi: hi}}
	var rows []cuda.Range
	for k := hi; k < np; k += RowBlock {
		r := cuda.Range{Lo: k, Hi: min(k+RowBlock, np)}
		rows = append(rows, r)
		ranges = append(ranges, r)
	}
	levels, temp := closureLevels(np, ranges)
	sc.Steps = append(sc.Steps, levels...)
	sc.TempElems = temp
	if len(rows) == 0 {
		return sc, nil
	}
	w := hi - lo
	z := func(row int) operand { return operand{Buf: bufZ, Off: int64(row-hi) * int64(w), LD: int64(w)} }
	sc.ZElems = int64(np-hi) * int64(w)
	sc.Steps = append(sc.Steps, step{Gemms: []gemmOp{{A: pOp(np, hi, lo), B: pOp(np, lo, lo), C: z(hi), M: np - hi, N: w, K: w, Flags: flagTriB}}})
	for _, r := range rows {
		sc.Steps = append(sc.Steps, step{Gemms: []gemmOp{{A: pOp(np, r.Lo, r.Lo), B: z(r.Lo), C: pOp(np, r.Lo, lo), M: r.Len(), N: w, K: r.Len(), Flags: flagTriA}}})
		if r.Hi < np {
			sc.Steps = append(sc.Steps, step{Gemms: []gemmOp{{A: pOp(np, r.Hi, r.Lo), B: pOp(np, r.Lo, lo), C: z(r.Hi), M: np - r.Hi, N: w, K: r.Len(), Flags: flagAccumulate}}})
		}
	}
	return sc, nil
}

// topoFromPred returns a topological order of the n nodes (every arc from
// an earlier to a later node) from their predecessor bit sets: bit l of row
// i (words uint64 per row) is set when the arc l -> i exists. It runs a
// depth-first search over predecessors, emitting a node once all its
// predecessors are out, and scans each row word by word (O(n²/64) besides
// the n pushes). With checkCycles, a cycle (a self-loop included) gives a
// *kleene.CycleError; without, the search is faster and a cyclic graph gets
// some order in which an arc goes backwards (cuda/fast's permutation on the
// device detects that, and then searches again with checkCycles).
func topoFromPred(n, words int, pred []uint64, checkCycles bool) ([]int32, error) {
	if len(pred) < n*words || words*64 < n {
		return nil, fmt.Errorf("predecessor sets: %d words for n=%d with %d words per row", len(pred), n, words)
	}
	visited := make([]uint64, words)
	grey := make([]uint64, words)
	order := make([]int32, 0, n)
	type frame struct{ v, w int32 }
	stack := make([]frame, 0, 64)
	for r := 0; r < n; r++ {
		if visited[r>>6]&(1<<(r&63)) != 0 {
			continue
		}
		// The node on top of the search is (v, w): scanning word w of its
		// predecessors; the frames below it are on stack.
		v, w := r, 0
		visited[v>>6] |= 1 << (v & 63)
		grey[v>>6] |= 1 << (v & 63)
		for {
			row := pred[v*words : v*words+words]
			next := -1
			if checkCycles {
				for ; w < len(row) && w < len(grey) && w < len(visited); w++ {
					p := row[w]
					if c := p & grey[w]; c != 0 {
						return nil, &kleene.CycleError{Node: w*64 + bits.TrailingZeros64(c)}
					}
					if u := p &^ visited[w]; u != 0 {
						next = w*64 + bits.TrailingZeros64(u)
						break
					}
				}
			} else {
				for ; w < len(row) && w < len(visited); w++ {
					if u := row[w] &^ visited[w]; u != 0 {
						next = w*64 + bits.TrailingZeros64(u)
						break
					}
				}
			}
			if next >= 0 {
				stack = append(stack, frame{int32(v), int32(w)})
				v, w = next, 0
				visited[v>>6] |= 1 << (v & 63)
				grey[v>>6] |= 1 << (v & 63)
				continue
			}
			grey[v>>6] &^= 1 << (v & 63)
			order = append(order, int32(v))
			if len(stack) == 0 {
				break
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			v, w = int(f.v), int(f.w)
		}
	}
	return order, nil
}

// inverse returns pos with pos[perm[a]] = a.
func inverse(perm []int32) []int32 {
	pos := make([]int32, len(perm))
	for a, v := range perm {
		pos[v] = int32(a)
	}
	return pos
}
