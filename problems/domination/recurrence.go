package domination

import (
	"fmt"
	"sort"
	"strings"
)

// same reports whether A^i - A^j is constant, from the fingerprints.
func (an *Analysis) same(i, j int) bool {
	return an.Powers[i].Hash == an.Powers[j].Hash
}

// Algorithm3 is the paper's Algorithm 3 on the fingerprints: for i from the
// last power down, and j from i-1 down, the first pair with A^i - A^j
// constant gives a = i - j, b the constant, r0 = j.
func (an *Analysis) Algorithm3() error {
	for i := an.Computed; i >= 1; i-- {
		for j := i - 1; j >= 1; j-- {
			if an.same(i, j) {
				an.A, an.B, an.R0 = i-j, int(an.Powers[i].Min)-int(an.Powers[j].Min), j
				return nil
			}
		}
	}
	return fmt.Errorf("domination: m = %d: algorithm 3: %w (%d powers)", an.M, ErrNoRecurrence, an.Computed)
}

// Algorithm4 is the paper's Algorithm 4: from i = r0 + a down, the smallest
// n0 with A^(n0+a) = b ⊗ A^n0. It also checks that n0 + a is where the
// powers first repeated while Algorithm 2 ran.
func (an *Analysis) Algorithm4() error {
	if an.A == 0 {
		return fmt.Errorf("domination: m = %d: algorithm 4 before algorithm 3", an.M)
	}
	an.N0 = an.R0
	for i := an.R0 + an.A; i-an.A >= 1; i-- {
		if !an.same(i, i-an.A) || int(an.Powers[i].Min)-int(an.Powers[i-an.A].Min) != an.B {
			break
		}
		an.N0 = i - an.A
	}
	if an.RepeatAt != an.N0+an.A {
		return fmt.Errorf("domination: m = %d: algorithm 4 gives n0 + a = %d but the powers first repeat at %d (fingerprint collision?)",
			an.M, an.N0+an.A, an.RepeatAt)
	}
	return nil
}

// Algorithm5 reads γ2(P_m □ C_n) off the diagonals for 3 <= n < n0 + a
// (Theorem 2) and derives the formula's α_k and its exceptions; it needs
// Algorithm4.
func (an *Analysis) Algorithm5() {
	last := an.N0 + an.A - 1
	an.Gamma = make([]int, last+1)
	for n := 3; n <= last; n++ {
		an.Gamma[n] = int(an.Powers[n].DiagMin)
	}
	an.deriveFormula()
}

// deriveFormula derives α_k and the exceptions from Gamma (Algorithm 5).
func (an *Analysis) deriveFormula() {
	last := an.N0 + an.A - 1
	an.Alpha = make([]int, an.A)
	for n := an.N0; n <= last; n++ {
		an.Alpha[n%an.A] = an.Gamma[n] - ceilDiv(an.B*n, an.A)
	}
	an.Exceptions = nil
	for n := 3; n < an.N0; n++ {
		if f := an.formula(n); f != an.Gamma[n] {
			an.Exceptions = append(an.Exceptions, Exception{N: n, Gamma2: an.Gamma[n], Formula: f})
		}
	}
}

func (an *Analysis) formula(n int) int { return ceilDiv(an.B*n, an.A) + an.Alpha[n%an.A] }

func ceilDiv(x, y int) int { return (x + y - 1) / y }

// Gamma2 returns γ2(P_m □ C_n) for any n >= 3: read off the diagonals below
// n0 + a, from the recurrence above.
func (an *Analysis) Gamma2(n int) (int, error) {
	if n < 3 {
		return 0, fmt.Errorf("domination: n = %d: the cycle C_n needs n >= 3", n)
	}
	if err := CheckN(an.M, n); err != nil {
		return 0, err // beyond it, b·(n - r)/a could wrap
	}
	if n < len(an.Gamma) {
		return an.Gamma[n], nil
	}
	r := an.N0 + (n-an.N0)%an.A
	return an.Gamma[r] + an.B*((n-r)/an.A), nil
}

// AlphaSet lists the k (0 <= k < a) with α_k = v.
func (an *Analysis) AlphaSet(v int) []int {
	var ks []int
	for k, a := range an.Alpha {
		if a == v {
			ks = append(ks, k)
		}
	}
	return ks
}

// Formula renders the closed formula with its α and exceptions, e.g.
// "γ2(P_8 □ C_n) = ⌈10n/3⌉ + α_k, k = n mod 3, n >= 3; α_k = 0 for all k;
// except n = 5 (γ2 = 18, formula 17)".
func (an *Analysis) Formula() string {
	var b strings.Builder
	fmt.Fprintf(&b, "γ2(P_%d □ C_n) = ⌈%dn/%d⌉ + α_k, k = n mod %d, n >= 3", an.M, an.B, an.A, an.A)
	vals := map[int]bool{}
	for _, a := range an.Alpha {
		vals[a] = true
	}
	keys := make([]int, 0, len(vals))
	for v := range vals {
		keys = append(keys, v)
	}
	sort.Ints(keys)
	for _, v := range keys {
		ks := an.AlphaSet(v)
		if len(ks) == an.A {
			fmt.Fprintf(&b, "; α_k = %d for all k", v)
		} else {
			fmt.Fprintf(&b, "; α_k = %d for k ∈ %s", v, intsText(ks))
		}
	}
	if len(an.Exceptions) > 0 {
		parts := make([]string, len(an.Exceptions))
		for i, e := range an.Exceptions {
			parts[i] = fmt.Sprintf("n = %d (γ2 = %d, formula %d)", e.N, e.Gamma2, e.Formula)
		}
		fmt.Fprintf(&b, "; except %s", strings.Join(parts, ", "))
	}
	return b.String()
}

// FormulaFrom is the smallest n' such that the formula holds for every
// n >= n' (at most N0: the exceptions all lie below N0).
func (an *Analysis) FormulaFrom() int {
	from := 3
	for _, e := range an.Exceptions {
		from = max(from, e.N+1)
	}
	return from
}

func intsText(ks []int) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprint(k)
	}
	return "{" + strings.Join(parts, ",") + "}"
}
