package history

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
)

// PageMachine is one machine of the history page: a label for the
// headings (CURRENT's, "H100") and its kind.
type PageMachine struct {
	Label string
	Kind  Kind
}

// Page is the history page (results/HISTORY.md): for each machine, the
// timelines of each paper's headline cells with their steps, a plot per
// paper, and each claim's figures and classes over the machine's runs.
type Page struct {
	Machines []PageMachine
	// Timelines and Claims per machine, in Machines' order.
	Timelines [][]*Timeline
	Claims    [][]*ClaimHistory
	// Plots are the plot files per machine, relative to the page.
	Plots [][]string
	// Head is the commit the page was written at; Runs and Apart count
	// the runs read.
	Head        string
	Runs, Apart int
}

// headlineCommits is how many commits a headline cell's timeline should
// span: the largest cell measured at so many is preferred to smaller
// ones measured more often.
const headlineCommits = 3

// HeadlineCells picks each experiment's headline cells from ts (one
// machine kind): for each implementation the experiment calls headline
// (Experiment.IsHeadline), its largest cell (the last in parameter
// order) measured at headlineCommits commits or more, else the cell
// measured at the most commits, so that each headline implementation has
// a timeline of its largest instance with history behind it.
func HeadlineCells(ts []*Timeline) []*Timeline {
	type key struct{ exp, impl string }
	best := map[key]*Timeline{}
	var order []key
	for _, t := range ts {
		es, err := experiments.Lookup(t.Experiment)
		if err != nil || len(es) != 1 || !es[0].IsHeadline(t.Impl) || len(t.Groups) == 0 {
			continue
		}
		k := key{t.Experiment, t.Impl}
		b, ok := best[k]
		if !ok {
			order = append(order, k)
		}
		if !ok || betterHeadline(t, b) {
			best[k] = t
		}
	}
	out := make([]*Timeline, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}

// betterHeadline reports whether timeline t is a better headline cell than b:
// of those spanning headlineCommits commits, the larger; else the one at
// more commits (then more runs).
func betterHeadline(t, b *Timeline) bool {
	tl, bl := len(t.Groups) >= headlineCommits, len(b.Groups) >= headlineCommits
	switch {
	case tl != bl:
		return tl
	case tl:
		return compareParams(t.Params, b.Params) > 0
	}
	return cmp.Or(cmp.Compare(len(t.Groups), len(b.Groups)), cmp.Compare(t.Runs(), b.Runs()), compareParams(t.Params, b.Params)) > 0
}

// BuildPage gathers the page of machines: each one's headline cells'
// timelines, its claims at the papers' scale, and a timeline plot per
// paper written into plotDir (PNG), named in the page relative to
// pageDir.
func (h *History) BuildPage(ctx context.Context, machines []PageMachine, pageDir, plotDir string, progress io.Writer) (*Page, error) {
	p := &Page{Machines: machines, Runs: len(h.Runs), Apart: len(h.Apart)}
	if n := len(h.commits); n > 0 {
		p.Head = h.commits[n-1]
	}
	for _, m := range machines {
		var runs []*Run
		for _, r := range slices.Concat(h.Runs, h.Apart) {
			if r.Kind == m.Kind {
				runs = append(runs, r)
			}
		}
		if err := h.Fill(ctx, runs, progress); err != nil {
			return nil, err
		}
		ts := HeadlineCells(h.timelinesOf(runs, Query{Scale: string(experiments.Paper)}))
		p.Timelines = append(p.Timelines, ts)
		cs, err := h.claimsOf(ctx, runs, ClaimQuery{Scale: string(experiments.Paper)}, progress)
		if err != nil {
			return nil, err
		}
		p.Claims = append(p.Claims, cs)
		var files []string
		for _, pl := range paperPlots(m, ts) {
			pl.PNGOnly = true
			written, err := pl.Save(plotDir)
			if err != nil {
				return nil, err
			}
			for _, w := range written {
				rel, err := filepath.Rel(pageDir, w)
				if err != nil {
					rel = w
				}
				files = append(files, filepath.ToSlash(rel))
			}
		}
		p.Plots = append(p.Plots, files)
	}
	return p, nil
}

// paperPlots draws a plot per paper of a machine's headline timelines.
func paperPlots(m PageMachine, ts []*Timeline) []report.TimelinePlot {
	byPaper := map[string][]*Timeline{}
	var papers []string
	for _, t := range ts {
		paper, _, _ := strings.Cut(t.Experiment, "/")
		if byPaper[paper] == nil {
			papers = append(papers, paper)
		}
		byPaper[paper] = append(byPaper[paper], t)
	}
	var out []report.TimelinePlot
	for _, paper := range papers {
		lines := byPaper[paper]
		var notes []string
		if len(lines) > plotLines {
			slices.SortStableFunc(lines, func(a, b *Timeline) int { return cmp.Compare(len(b.Groups), len(a.Groups)) })
			notes = append(notes, fmt.Sprintf("%d of the paper's %d headline cells drawn, those measured at the most commits; the page's table has all", plotLines, len(lines)))
			lines = lines[:plotLines]
		}
		pl := timelinePlot(paper, m.Kind, lines, notes)
		pl.Name = paper + "_" + m.Kind.Label
		pl.Title = fmt.Sprintf("%s's headline cells on the %s: each run over the commits, with the steps\n%s", paper, m.Label, m.Kind)
		for i := range pl.Lines {
			pl.Lines[i].Name = lines[i].Experiment + " " + pl.Lines[i].Name
		}
		out = append(out, pl)
	}
	return out
}

// Write writes the page in Markdown.
func (p *Page) Write(w io.Writer) error {
	fmt.Fprintln(w, "# History of the runs")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Generated by `make history` (`semibench history --page`) at commit %s from %d runs in results/ and its git history (%d more apart: builds with uncommitted changes or of commits not in the history, which make no step). ",
		short(p.Head), p.Runs, p.Apart)
	fmt.Fprintln(w, "For each machine of results/CURRENT: each paper's headline cells (per experiment and headline implementation, the cell measured at the most commits), "+
		"their medians over the repository's commits with the steps beyond the noise between runs (`semibench history EXPERIMENT --where ... --impl ... --machine LABEL` prints a cell run by run), "+
		"a plot per paper, and each claim's figures and classes over the machine's runs at the papers' scale (each run judged alone).")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A step is where asv's penalised piecewise-constant fit of the log times puts one and the stretches' medians differ beyond their 99%% interval from the noise between runs (replicates: runs of one commit); ratio = after / before, with that interval. The noise band drawn is two noises around each level.\n\n")
	for i, m := range p.Machines {
		fmt.Fprintf(w, "## %s: %s\n\n", m.Label, m.Kind)
		var steps []string
		for _, t := range p.Timelines[i] {
			for _, s := range t.Steps {
				steps = append(steps, fmt.Sprintf("- %s: %s", cellName(t), stepText(s)))
			}
		}
		fmt.Fprintf(w, "%d headline cells, %d steps found", len(p.Timelines[i]), len(steps))
		if len(steps) > 0 {
			fmt.Fprintln(w, ":")
			fmt.Fprintln(w)
			fmt.Fprintln(w, strings.Join(steps, "\n"))
		} else {
			fmt.Fprintln(w, ".")
		}
		fmt.Fprintln(w)
		if len(p.Timelines[i]) > 0 {
			tb := TimelinesTable(m.Label+": the headline cells over the commits", p.Timelines[i])
			if err := tb.Render(w, report.FormatMarkdown); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		for _, pl := range p.Plots[i] {
			fmt.Fprintf(w, "![%s](%s)\n\n", strings.TrimSuffix(filepath.Base(pl), filepath.Ext(pl)), pl)
		}
		if len(p.Claims[i]) > 0 {
			tb := ClaimsTable(m.Label+": the claims over the runs at the papers' scale", p.Claims[i])
			if err := tb.Render(w, report.FormatMarkdown); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}
