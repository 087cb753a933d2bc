package experiments

import (
	"strings"
	"testing"
)

func TestRatioVerdict(t *testing.T) {
	cases := []struct {
		paper, ours, tol float64
		better           int
		want             Verdict
	}{
		{30, 29, 2, HigherBetter, Reproduced},
		{30, 15, 2, HigherBetter, Reproduced},
		{30, 14, 2, HigherBetter, NotReproduced},
		{30, 61, 2, HigherBetter, Exceeded},
		{100, 40, 2, LowerBetter, Exceeded},
		{100, 250, 2, LowerBetter, NotReproduced},
		{8, 20, 1.5, Neither, NotReproduced},
		{8, 2, 1.5, Neither, NotReproduced},
		{8, 9, 1.5, Neither, Reproduced},
		{30, -1, 2, HigherBetter, NotRun},
	}
	for _, c := range cases {
		if got := ratioVerdict(c.paper, c.ours, c.tol, c.better); got != c.want {
			t.Errorf("ratioVerdict(%g, %g, %g, %d) = %s, want %s", c.paper, c.ours, c.tol, c.better, got, c.want)
		}
	}
}

func TestSlugs(t *testing.T) {
	s := slugger{}
	if got, want := s.slug("kleene/table3 — speedup of the total (paper's 'Effect': CPU total / GPU total)"), "kleenetable3--speedup-of-the-total-papers-effect-cpu-total--gpu-total"; got != want {
		t.Errorf("slug = %q, want %q", got, want)
	}
	if got := s.slug("A α_k"); got != "a-α_k" {
		t.Errorf("slug keeps letters and '_': %q", got)
	}
	if got := s.slug("kleene/table3 — speedup of the total (paper's 'Effect': CPU total / GPU total)"); !strings.HasSuffix(got, "-gpu-total-1") {
		t.Errorf("a repeated heading's slug = %q, want the suffix -1", got)
	}
}
