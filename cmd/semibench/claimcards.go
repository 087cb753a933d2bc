package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
)

// writeClaimCards writes the claims as text, a block per claim fitted to
// width: the paper and where it says it, the claim, then the paper's
// figure, ours and the verdict with its reason, and the command that
// re-runs its cells; with several machines a line per machine. A table of
// seven columns does not fit a terminal without cutting its cells, a
// block does without cutting a word.
func writeClaimCards(w io.Writer, judged [][]experiments.Claim, labels []string, width int) error {
	var b strings.Builder
	line := func(indent, s string) {
		b.WriteString(indent + report.Wrap(s, width-len(indent), indent+"  ") + "\n")
	}
	for _, c := range judged[0] {
		line("", c.Paper+" · "+c.Where+" · "+c.ID)
		line("  ", c.Short())
		line("  ", "paper: "+c.PaperFigure)
		for i, claims := range judged {
			x := experiments.Claim{Verdict: experiments.NotRun, Ours: "—"}
			if j := slices.IndexFunc(claims, func(y experiments.Claim) bool { return y.ID == c.ID }); j >= 0 {
				x = claims[j]
			}
			who := "ours"
			if len(judged) > 1 {
				who = "on " + labels[i]
			}
			line("  ", fmt.Sprintf("%s: %s → %s", who, x.Ours, x.VerdictText()))
			if len(judged) == 1 && x.Rerun != "" {
				line("  ", "re-run: "+x.Rerun)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
