package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/problems/domination"
)

func TestGenDomination(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d3.mtx")
	if code, _, stderr := capture(t, "gen", "domination", "--m", "3", "--out", out); code != 0 {
		t.Fatalf("gen domination: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var size string
	entries := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		switch {
		case strings.HasPrefix(line, "%"):
		case size == "":
			size = line
		default:
			entries++
		}
	}
	// Table 1: 15 correct 3-words.
	if !strings.HasPrefix(size, "15 15 ") || size != "15 15 "+strconv.Itoa(entries) {
		t.Errorf("size line %q with %d entries, want 15 x 15 and the entry count", size, entries)
	}
}

func TestSolveDomination(t *testing.T) {
	// γ2(P_3 □ C_n) = ⌈4n/3⌉ (Table 3: a = 6, b = 8; no α = 1 in Table 6).
	for _, n := range []int{3, 7, 12} {
		code, stdout, stderr := capture(t, "solve", "domination", "--m", "3", "--n", strconv.Itoa(n), "--witness")
		if code != 0 {
			t.Fatalf("solve domination n=%d: exit %d: %s", n, code, stderr)
		}
		var sol domination.Solution
		if err := json.Unmarshal([]byte(stdout), &sol); err != nil {
			t.Fatalf("n=%d: output %q: %v", n, stdout, err)
		}
		if want := (4*n + 2) / 3; sol.M != 3 || sol.N != n || sol.Gamma2 != want {
			t.Errorf("n=%d: %+v, want gamma2 %d", n, sol, want)
		}
		if len(sol.Witness) != sol.Gamma2 {
			t.Errorf("n=%d: witness of %d vertices, gamma2 %d", n, len(sol.Witness), sol.Gamma2)
		}
		if err := domination.Check2Dominating(3, n, sol.Witness); err != nil {
			t.Errorf("n=%d: witness: %v", n, err)
		}
	}
	code, stdout, _ := capture(t, "solve", "domination", "--m", "4", "--n", "9")
	if code != 0 || strings.Contains(stdout, "witness") || !strings.Contains(stdout, `"gamma2":`) {
		t.Errorf("solve without --witness: exit %d, %q", code, stdout)
	}
}

func TestDominationErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"gen", "domination", "--m", "1", "--out", "x.mtx"}, 2, "--m"},
		{[]string{"gen", "domination", "--m", "3"}, 2, "--out is required"},
		{[]string{"gen", "domination", "--m", "3", "--out", filepath.Join(t.TempDir(), "no", "such", "dir.mtx")}, 1, "dir.mtx"},
		{[]string{"solve", "domination", "--m", "1", "--n", "5"}, 2, "--m must be in 2..16"},
		{[]string{"solve", "domination", "--m", "3", "--n", "2"}, 2, "--n must be in 3..3074457345618258602 with --m 3"},
		{[]string{"solve", "domination", "--m", "3", "--n", "5", "--impl", "gpu/fast"}, 2, "cuda/sparse"},
		{[]string{"solve", "domination", "--m", "16", "--n", "5"}, 1, "bytes"},
		{[]string{"solve", "domination", "--m", "3", "--n", "5", "extra"}, 2, "unexpected arguments"},
		{[]string{"solve", "domination", "--help"}, 0, ""},
		{[]string{"gen", "domination", "--help"}, 0, ""},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("semibench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if code, stdout, _ := capture(t, "solve", "--help"); code != 0 || !strings.Contains(stdout, "domination") {
		t.Errorf("solve --help does not list domination: %q", stdout)
	}
}

// TestSolveDominationCheckpoint: --time-limit with --checkpoint stops after
// writing the checkpoint (exit status 3, the message says how to resume);
// runs again resume from it, one power further each time, and the last
// gives the same γ2 and witness as a run without a checkpoint. The flags'
// misuse is refused.
func TestSolveDominationCheckpoint(t *testing.T) {
	args := []string{"solve", "domination", "--m", "4", "--n", "13", "--witness"}
	code, want, stderr := capture(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "ck")
	for k := 1; k <= 3; k++ {
		code, _, stderr := capture(t, append(args, "--checkpoint", path, "--time-limit", "1ns")...)
		if code != exitCheckpointed || !strings.Contains(stderr, "A^"+strconv.Itoa(k)+" written to "+path) || !strings.Contains(stderr, "resume") {
			t.Fatalf("run %d with --time-limit 1ns: exit %d: %s", k, code, stderr)
		}
	}
	code, got, stderr := capture(t, append(args, "--checkpoint", path, "--checkpoint-every", "4")...)
	if code != 0 || got != want {
		t.Errorf("resumed: exit %d, %q (%s); without a checkpoint %q", code, got, stderr, want)
	}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--gpus", "0"}, "--gpus must be in 1..1024, got 0"},
		{[]string{"--time-limit", "1m"}, "need --checkpoint FILE"},
		{[]string{"--checkpoint", path, "--checkpoint-every", "-1"}, "must not be negative"},
	} {
		if code, _, stderr := capture(t, append(args, c.extra...)...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.extra, code, stderr, c.want)
		}
	}
}
