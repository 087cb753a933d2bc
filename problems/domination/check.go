package domination

import (
	"context"
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
)

// CheckWitness checks the witness of sol: γ2 vertices that 2-dominate
// P_m □ C_n (Check2Dominating). A solution without a witness passes.
func CheckWitness(sol *Solution) error {
	if sol.Witness == nil {
		return nil
	}
	if len(sol.Witness) != sol.Gamma2 {
		return fmt.Errorf("witness of %d vertices for γ2 = %d", len(sol.Witness), sol.Gamma2)
	}
	if err := Check2Dominating(sol.M, sol.N, sol.Witness); err != nil {
		return fmt.Errorf("witness: %w", err)
	}
	return nil
}

// Recurrence is what Algorithms 3 and 4 find of the powers of A(D_m): from
// power R0 on, the power N0 + A repeats power N0 shifted by B.
type Recurrence struct{ R0, N0, A, B int }

// CheckPeerRecurrence compares a published code's recurrence for m (the
// 2domination code's printed r0m, n0m, am, bm) with the one Analyze finds
// with im. The code prints r0m one above the paper's Table 3 r0 (which
// semibench's matches), so peer.R0 is compared with r0 + 1. The check
// fails, naming each difference, when they differ; the error is for an
// analysis that could not run.
func CheckPeerRecurrence(ctx context.Context, m int, im Impl, peer Recurrence) (*bench.Check, error) {
	an, err := Analyze(ctx, m, Options{Impl: im})
	if err != nil {
		return nil, fmt.Errorf("semibench's analysis of m=%d: %w", m, err)
	}
	chk := &bench.Check{Method: fmt.Sprintf("the peer's n0, a, b (Algorithms 3-4 over its %d powers) = semibench's on %s, and its printed r0m = semibench's r0 + 1 (the code's r0m is one above the paper's Table 3 r0, which semibench's matches)", an.K, im.Name)}
	var diffs []string
	for _, d := range []struct {
		name       string
		peer, ours int
	}{{"r0", peer.R0, an.R0 + 1}, {"n0", peer.N0, an.N0}, {"a", peer.A, an.A}, {"b", peer.B, an.B}} {
		if d.peer != d.ours {
			diffs = append(diffs, fmt.Sprintf("%s: peer %d, semibench %d", d.name, d.peer, d.ours))
		}
	}
	if len(diffs) > 0 {
		chk.Detail = strings.Join(diffs, "; ")
		return chk, nil
	}
	chk.OK = true
	chk.Detail = fmt.Sprintf("peer r0m=%d, semibench r0=%d; n0=%d a=%d b=%d", peer.R0, an.R0, an.N0, an.A, an.B)
	return chk, nil
}
