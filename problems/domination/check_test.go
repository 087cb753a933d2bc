package domination

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestCheckWitness: Solve's witness passes; one vertex too few, a vertex
// moved off the cylinder, or a set that leaves a vertex under-dominated
// fails, saying which.
func TestCheckWitness(t *testing.T) {
	sol, err := Solve(context.Background(), 3, 5, true, Options{Impl: sparse})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckWitness(sol); err != nil {
		t.Fatalf("Solve's witness fails: %v", err)
	}
	if err := CheckWitness(&Solution{M: 3, N: 5, Gamma2: 7}); err != nil {
		t.Errorf("no witness asked: %v", err)
	}
	short := *sol
	short.Witness = sol.Witness[1:]
	outside := *sol
	outside.Witness = append([][2]int{{3, 0}}, sol.Witness[1:]...)
	thin := *sol
	thin.Gamma2 = 1
	thin.Witness = [][2]int{{0, 0}}
	for _, c := range []struct {
		name string
		sol  *Solution
		want string
	}{
		{"one too few", &short, "witness of 6 vertices for γ2 = 7"},
		{"off the cylinder", &outside, "outside P_3 □ C_5"},
		{"not 2-dominating", &thin, "needs 2"},
	} {
		if err := CheckWitness(c.sol); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCheckPeerRecurrence: the recurrence of Analyze, with r0 one above
// as the 2domination code prints it, passes; any field off fails, naming
// it with both values.
func TestCheckPeerRecurrence(t *testing.T) {
	ctx := context.Background()
	an, err := Analyze(ctx, 4, Options{Impl: sparse})
	if err != nil {
		t.Fatal(err)
	}
	good := Recurrence{R0: an.R0 + 1, N0: an.N0, A: an.A, B: an.B}
	chk, err := CheckPeerRecurrence(ctx, 4, sparse, good)
	if err != nil || !chk.OK {
		t.Fatalf("the right recurrence: %+v, %v", chk, err)
	}
	bad := good
	bad.B++
	chk, err = CheckPeerRecurrence(ctx, 4, sparse, bad)
	if err != nil || chk.OK || chk.Detail != fmt.Sprintf("b: peer %d, semibench %d", an.B+1, an.B) {
		t.Errorf("b off by one: %+v, %v", chk, err)
	}
	asPaper := good
	asPaper.R0-- // the paper's r0, not the code's r0m
	if chk, _ := CheckPeerRecurrence(ctx, 4, sparse, asPaper); chk == nil || chk.OK || !strings.HasPrefix(chk.Detail, "r0:") {
		t.Errorf("r0 as the paper prints it: %+v", chk)
	}
}
