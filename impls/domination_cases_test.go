package impls

import (
	"fmt"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/domination"
)

// dominationCases are paths P_m with the recurrence Algorithm 3 finds in
// K = 50 powers (the 2-domination paper's Table 3: A^(r0+a) = b ⊗ A^r0)
// and the 2-domination numbers γ2(P_m □ C_n) of small cycles (by brute
// force over every vertex subset), or the error an m out of range gives.
var dominationCases = []struct {
	m        int
	a, b, r0 int
	gamma2   map[int]int // n -> γ2(P_m □ C_n)
	err      string
}{
	{m: 1, err: "needs m >= 2"},
	{m: 2, a: 2, b: 2, r0: 48, gamma2: map[int]int{3: 3, 4: 4, 5: 5, 6: 6, 7: 7}},
	{m: 3, a: 6, b: 8, r0: 44, gamma2: map[int]int{3: 4, 4: 6, 5: 7}},
	{m: 4, a: 8, b: 14, r0: 42, gamma2: map[int]int{3: 6, 4: 8}},
	{m: 5, a: 7, b: 15, r0: 43, gamma2: map[int]int{3: 7}},
}

// TestDominationCases runs dominationCases against every implementation in
// impls.Domination: Algorithms 1 to 5 over the 50 powers, the recurrence
// of Algorithm 3, and γ2 with a witness (2-dominating, of that size) for
// each n.
func TestDominationCases(t *testing.T) {
	for _, im := range Domination.All() {
		t.Run(im.Name, func(t *testing.T) {
			skipWithoutDevice(t, im.Name)
			for _, tc := range dominationCases {
				an, err := domination.Analyze(t.Context(), tc.m, domination.Options{Impl: im})
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Errorf("m=%d: got %v, want an error with %q", tc.m, err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Errorf("m=%d: %v", tc.m, err)
					continue
				}
				if an.A != tc.a || an.B != tc.b || an.R0 != tc.r0 {
					t.Errorf("m=%d: (a, b, r0) = (%d, %d, %d), want (%d, %d, %d)", tc.m, an.A, an.B, an.R0, tc.a, tc.b, tc.r0)
				}
				for n, want := range tc.gamma2 {
					g, err := an.Gamma2(n)
					if err != nil || g != want {
						t.Errorf("γ2(P_%d □ C_%d) = %d (%v), want %d", tc.m, n, g, err, want)
						continue
					}
					w, err := an.Witness(t.Context(), n, 1<<30)
					if err == nil && len(w) != want {
						err = fmt.Errorf("%d vertices", len(w))
					}
					if err == nil {
						err = domination.Check2Dominating(tc.m, n, w)
					}
					if err != nil {
						t.Errorf("m=%d n=%d: witness: %v", tc.m, n, err)
					}
				}
			}
		})
	}
}
