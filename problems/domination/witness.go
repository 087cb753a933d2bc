package domination

import (
	"context"
	"fmt"
	"math"
)

// Solution is the answer of `semibench solve domination`.
type Solution struct {
	M      int `json:"m"`
	N      int `json:"n"`
	Gamma2 int `json:"gamma2"`
	// Witness is an optimal 2-dominating set as [row, column] pairs, 0-based
	// (row < m, column < n), when asked for.
	Witness [][2]int `json:"witness,omitempty"`
}

// Gamma2 returns γ2(P_m □ C_n) for m >= 2 and n >= 3, running Algorithms 1
// to 5 with im and otherwise the default options (the powers stop at the
// first repetition).
func Gamma2(m, n int, im Impl) (int, error) {
	s, err := Solve(context.Background(), m, n, false, Options{Impl: im})
	if err != nil {
		return 0, err
	}
	return s.Gamma2, nil
}

// Solve computes γ2(P_m □ C_n) and, with witness, an optimal 2-dominating
// set, checked to be 2-dominating and of size γ2. Algorithm 2 stops at the
// first repetition of the normalised powers (set opt.K to cap it).
func Solve(ctx context.Context, m, n int, witness bool, opt Options) (*Solution, error) {
	if m < 2 {
		return nil, fmt.Errorf("domination: m = %d: the path P_m needs m >= 2", m)
	}
	if n < 3 {
		return nil, fmt.Errorf("domination: n = %d: the cycle C_n needs n >= 3", n)
	}
	if err := CheckN(m, n); err != nil {
		return nil, err
	}
	if witness {
		need, err := WitnessBytes(m, n)
		if err != nil {
			return nil, err
		}
		if limit := opt.memoryLimit(); need > limit {
			return nil, fmt.Errorf("domination: witness for m = %d, n = %d needs %s for its %d vectors, only %s available",
				m, n, byteText(need), n+1, byteText(limit))
		}
	}
	opt.StopAtRepetition = true
	an, err := Analyze(ctx, m, opt)
	if err != nil {
		return nil, err
	}
	g, err := an.Gamma2(n)
	if err != nil {
		return nil, err
	}
	s := &Solution{M: m, N: n, Gamma2: g}
	if witness {
		if s.Witness, err = an.Witness(ctx, n, opt.memoryLimit()); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// MaxN is the largest n accepted with m: the cylinder's m·n vertices,
// which bound γ2 and the witness's columns, fit in an int.
func MaxN(m int) int { return math.MaxInt / max(m, 1) }

// CheckN refuses an n beyond MaxN(m), naming that bound.
func CheckN(m, n int) error {
	if n > MaxN(m) {
		return fmt.Errorf("domination: n = %d: P_%d □ C_n has m·n vertices, which must fit in an int: n <= %d", n, m, MaxN(m))
	}
	return nil
}

// WitnessBytes is the memory Witness needs for m and n: n + 1 vectors of
// int32 with a row of A(D_m) each. It is an error (never a wrapped product)
// when that exceeds what a uint64 counts.
func WitnessBytes(m, n int) (uint64, error) {
	rows, err := Rows(m)
	if err != nil {
		return 0, fmt.Errorf("domination: %w", err)
	}
	if n < 0 {
		return 0, fmt.Errorf("domination: n = %d: the cycle C_n needs n >= 3", n)
	}
	per := 4 * uint64(rows)
	if uint64(n)+1 > math.MaxUint64/per {
		return 0, fmt.Errorf("domination: witness for m = %d, n = %d: %d vectors of %d bytes overflow a byte count (n <= %d)", m, n, uint64(n)+1, per, math.MaxUint64/per-1)
	}
	return (uint64(n) + 1) * per, nil
}

// Witness returns an optimal 2-dominating set of P_m □ C_n: a minimum
// closed walk of length n in D_m through the word where the diagonal of A^n
// is least, found by (min,+) matrix-vector products v_t = A ⊗ v_(t-1) from
// v_0 = e_s and backtracked; the zeros of its words are the set. It is
// checked to be 2-dominating and of size γ2. The n vectors must fit in
// limit bytes.
func (an *Analysis) Witness(ctx context.Context, n int, limit uint64) ([][2]int, error) {
	g, err := an.Gamma2(n)
	if err != nil {
		return nil, err
	}
	r := n
	if n >= len(an.Gamma) {
		r = an.N0 + (n-an.N0)%an.A // A^n = c ⊗ A^r: same argmin
	}
	s := int(an.Powers[r].DiagArg)
	N := an.N
	if need, err := WitnessBytes(an.M, n); err != nil || need > limit {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("domination: witness for m = %d, n = %d needs %s for its %d vectors, only %s available",
			an.M, n, byteText(need), n+1, byteText(limit))
	}
	const inf = int32(1 << 30)
	a := an.digraph.A
	v := make([][]int32, n+1)
	v[0] = make([]int32, N)
	for i := range v[0] {
		v[0][i] = inf
	}
	v[0][s] = 0
	for t := 1; t <= n; t++ {
		if t&15 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("domination: witness stopped: %w", err)
			}
		}
		prev, cur := v[t-1], make([]int32, N)
		for q := 0; q < N; q++ {
			best := inf
			for p := a.RowPtr[q]; p < a.RowPtr[q+1]; p++ {
				if x := prev[a.Col[p]]; x < inf {
					best = min(best, x+int32(a.Val[p]))
				}
			}
			cur[q] = best
		}
		v[t] = cur
	}
	if int(v[n][s]) != g {
		return nil, fmt.Errorf("domination: m = %d, n = %d: the closed walk through word %d weighs %d, γ2 = %d", an.M, n, s, v[n][s], g)
	}
	var set [][2]int
	cur := s
	for t := n; t >= 1; t-- {
		next := -1
		for p := a.RowPtr[cur]; p < a.RowPtr[cur+1]; p++ {
			if x := v[t-1][a.Col[p]]; x < inf && x+int32(a.Val[p]) == v[t][cur] {
				next = int(a.Col[p])
				break
			}
		}
		if next < 0 {
			return nil, fmt.Errorf("domination: m = %d, n = %d: backtracking lost the walk at step %d", an.M, n, n-t)
		}
		col := n - t // the word entered by this arc is column col
		for row, c := range an.digraph.Words[next] {
			if c == 0 {
				set = append(set, [2]int{row, col})
			}
		}
		cur = next
	}
	if cur != s {
		return nil, fmt.Errorf("domination: m = %d, n = %d: the walk does not close", an.M, n)
	}
	if len(set) != g {
		return nil, fmt.Errorf("domination: m = %d, n = %d: witness has %d vertices, γ2 = %d", an.M, n, len(set), g)
	}
	if err := Check2Dominating(an.M, n, set); err != nil {
		return nil, fmt.Errorf("domination: m = %d, n = %d: witness: %w", an.M, n, err)
	}
	return set, nil
}

// Check2Dominating reports an error unless set, [row, column] pairs, is a
// 2-dominating set of P_m □ C_n: every vertex not in it has at least two
// neighbours in it (rows form the path, columns the cycle).
func Check2Dominating(m, n int, set [][2]int) error {
	if m < 1 || n < 3 {
		return fmt.Errorf("cylinder P_%d □ C_%d out of range", m, n)
	}
	in := make([]bool, m*n)
	for _, v := range set {
		if v[0] < 0 || v[0] >= m || v[1] < 0 || v[1] >= n {
			return fmt.Errorf("vertex [%d, %d] outside P_%d □ C_%d", v[0], v[1], m, n)
		}
		if in[v[0]*n+v[1]] {
			return fmt.Errorf("vertex [%d, %d] listed twice", v[0], v[1])
		}
		in[v[0]*n+v[1]] = true
	}
	for r := 0; r < m; r++ {
		for c := 0; c < n; c++ {
			if in[r*n+c] {
				continue
			}
			k := 0
			if in[r*n+(c+1)%n] {
				k++
			}
			if in[r*n+(c+n-1)%n] {
				k++
			}
			if r > 0 && in[(r-1)*n+c] {
				k++
			}
			if r+1 < m && in[(r+1)*n+c] {
				k++
			}
			if k < 2 {
				return fmt.Errorf("vertex [%d, %d] has %d neighbours in the set, needs 2", r, c, k)
			}
		}
	}
	return nil
}

// Words returns the correct m-words of the analysis, in the order of the
// rows of A(D_m).
func (an *Analysis) Words() []Word { return an.digraph.Words }

// Summary renders what two analyses of the same m must agree on exactly:
// the powers' summaries, the recurrence, γ2 and its formula, and the
// witnesses for the cylinder lengths ns. Split, resumed and straight runs
// are compared through it.
func (an *Analysis) Summary(ctx context.Context, ns []int) (string, error) {
	var ws []string
	for _, n := range ns {
		w, err := an.Witness(ctx, n, 1<<30)
		if err != nil {
			return "", err
		}
		ws = append(ws, fmt.Sprint(w))
	}
	return fmt.Sprintf("powers %v\nr0 %d a %d b %d n0 %d repeat %d computed %d\nγ2 %v α %v exceptions %v\nwitnesses %v",
		an.Powers, an.R0, an.A, an.B, an.N0, an.RepeatAt, an.Computed, an.Gamma, an.Alpha, an.Exceptions, ws), nil
}
