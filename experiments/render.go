package experiments

import (
	"bufio"
	"context"
	"fmt"
	"github.com/semibench/semibench/bench/report"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/outfile"
)

// experimentsIn lists the experiment names of recs in first-seen order.
func experimentsIn(recs []bench.Record) []string {
	var names []string
	for _, r := range recs {
		if !slices.Contains(names, r.Experiment) {
			names = append(names, r.Experiment)
		}
	}
	return names
}

// section is one experiment's tables in a rendering.
type section struct {
	experiment string
	tables     []report.Table
}

// RenderTables returns the tables of every experiment in f (or only the
// named one): each experiment's own layout beside the paper's numbers, or
// the generic record table for experiments this binary does not know. The
// last table of an experiment ends with a note per paper claim it covers.
func RenderTables(f *bench.File, only string) ([]report.Table, error) {
	secs, err := renderSections(f, only)
	var out []report.Table
	for _, s := range secs {
		out = append(out, s.tables...)
	}
	return out, err
}

// renderSections is RenderTables, kept per experiment.
func renderSections(f *bench.File, only string) ([]section, error) {
	var out []section
	found := false
	for _, name := range experimentsIn(f.Records) {
		if only != "" && name != only {
			continue
		}
		found = true
		e := registry[name]
		if e == nil || e.Tables == nil {
			out = append(out, section{name, report.RecordsTable(f, name)})
			continue
		}
		tables := e.Tables(f.Records)
		if claims := claimsOf(name, f.Records); len(claims) > 0 && len(tables) > 0 {
			last := &tables[len(tables)-1]
			last.Notes = slices.Clone(last.Notes)
			for _, c := range claims {
				last.Notes = append(last.Notes, c.note())
			}
		}
		out = append(out, section{name, tables})
	}
	if only != "" && !found {
		return nil, fmt.Errorf("no records of experiment %q in the file%s", only, suggest(only, experimentsIn(f.Records)))
	}
	return out, nil
}

// RenderPlots writes every figure of the experiments in f to dir as PNG and
// SVG and returns the paths written.
func RenderPlots(f *bench.File, dir string) ([]string, error) {
	var paths []string
	for _, name := range experimentsIn(f.Records) {
		e := registry[name]
		if e == nil || e.Plots == nil {
			continue
		}
		for _, p := range e.Plots(f.Records) {
			if len(p.Series) == 0 {
				continue
			}
			written, err := p.Save(dir)
			if err != nil {
				return paths, fmt.Errorf("plot %s: %w", p.Name, err)
			}
			paths = append(paths, written...)
		}
	}
	return paths, nil
}

// WriteReport writes a Markdown report of f's tables to path, atomically
// (internal/outfile: a report that cannot be completed leaves the old one,
// a symlink is written through, a device or folder is refused). It opens
// with the summary (see writeSummary); budget is the run's --budget (0:
// none), which the result file does not keep.
func WriteReport(path string, f *bench.File, plots []string, budget time.Duration) error {
	secs, err := renderSections(f, "")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return outfile.Write(context.Background(), path, func(w *bufio.Writer) error {
		return writeReport(w, f, secs, dir, plots, budget)
	})
}

// writeReport renders the report of WriteReport to w; dir is the report's
// folder, which the plots' links are relative to.
func writeReport(w *bufio.Writer, f *bench.File, secs []section, dir string, plots []string, budget time.Duration) error {
	writeSummary(w, f, budget, secs)
	for _, s := range secs {
		for i := range s.tables {
			if err := s.tables[i].Render(w, "markdown"); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	if len(plots) > 0 {
		fmt.Fprintln(w, "## Plots")
		fmt.Fprintln(w)
		for _, p := range plots {
			if filepath.Ext(p) != ".png" {
				continue
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				rel = p
			}
			fmt.Fprintf(w, "![%s](%s)\n\n", filepath.Base(p), filepath.ToSlash(rel))
		}
	}
	return nil
}

// writeSummary writes the report's opening: the machine, scale, budget and
// duration, the cells by status, and a row per paper claim with its verdict,
// linked to the section of the report that shows it (the anchor of its
// experiment's last table heading, where the claim's note is).
func writeSummary(w io.Writer, f *bench.File, budget time.Duration, secs []section) {
	fmt.Fprintf(w, "# semibench report: %s\n\n", f.Machine.Label)
	slugs := slugger{}
	slugs.slug("semibench report: " + f.Machine.Label)
	fmt.Fprintln(w, "## Summary")
	fmt.Fprintln(w)
	slugs.slug("Summary")
	fmt.Fprintf(w, "- Machine: %s, %d cores", f.Machine.CPU, f.Machine.Cores)
	for _, g := range f.Machine.GPUs {
		fmt.Fprintf(w, "; GPU %d: %s (sm_%s)", g.Index, g.Name, g.ComputeCapability)
	}
	if len(f.Machine.GPUs) == 0 {
		fmt.Fprint(w, "; no GPU")
	}
	fmt.Fprintln(w, ".")
	fmt.Fprintf(w, "- %s.\n", strings.Join(slices.DeleteFunc([]string{"semibench " + f.Semibench.Version, f.Semibench.Commit, f.Machine.GoVersion},
		func(s string) bool { return s == "" }), ", "))
	b := "none"
	if budget > 0 {
		b = budget.String()
	}
	fmt.Fprintf(w, "- Scale %s, budget %s.\n", f.Scale, b)
	fmt.Fprintf(w, "- Started %s", f.Started.Format("2006-01-02 15:04:05 MST"))
	if end := lastFinished(f.Records); !end.IsZero() {
		fmt.Fprintf(w, ", last cell finished %s: %s", end.Format("2006-01-02 15:04:05 MST"), end.Sub(f.Started).Round(time.Second))
	}
	fmt.Fprintln(w, ".")
	n := map[string]int{}
	for _, r := range f.Records {
		n[r.Status]++
	}
	failed := fmt.Sprint(n[bench.StatusFailed]+n[bench.StatusCheckFailed]) + " failed"
	if k := n[bench.StatusCheckFailed]; k > 0 {
		failed += fmt.Sprintf(" (%d of them failed their check)", k)
	}
	fmt.Fprintf(w, "- Cells: %d: %d ok, %s, %d skipped by the budget, %d unavailable.\n\n",
		len(f.Records), n[bench.StatusOK], failed, n[bench.StatusSkipped], n[bench.StatusUnavailable])

	anchors := map[string]string{}
	for _, s := range secs {
		for _, t := range s.tables {
			if t.Title != "" {
				anchors[s.experiment] = slugs.slug(strings.ReplaceAll(t.Title, "\n", " "))
			}
		}
	}
	claims := AllClaims(f.Records)
	if len(claims) == 0 {
		return
	}
	v := map[Verdict]int{}
	for _, c := range claims {
		v[c.Verdict]++
	}
	fmt.Fprintf(w, "The papers' claims: %d reproduced, %d exceeded, %d not reproduced, %d not run. Each links to the table whose notes give it.\n\n",
		v[Reproduced], v[Exceeded], v[NotReproduced], v[NotRun])
	t := report.Table{Header: []string{"paper", "where", "claim", "paper's figure", "ours", "verdict"}}
	for _, c := range claims {
		where := c.Where
		if a, ok := anchors[c.Experiment]; ok {
			where = "[" + c.Where + "](#" + a + ")"
		}
		t.Rows = append(t.Rows, []string{c.Paper, where, c.Text, c.PaperFigure, c.Ours, c.verdictText()})
	}
	_ = t.Render(w, report.FormatMarkdown) // w's errors surface at its Flush
	fmt.Fprintln(w)
}

// lastFinished is the latest finish time of the records, or zero.
func lastFinished(recs []bench.Record) time.Time {
	var end time.Time
	for _, r := range recs {
		if r.Finished.After(end) {
			end = r.Finished
		}
	}
	return end
}
