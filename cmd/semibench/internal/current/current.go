// Package current reads results/CURRENT, the list of each machine's
// current run that REPRODUCE.md's verdicts come from, and renders the part
// of REPRODUCE.md on the runs beyond the papers' sizes that it also names.
package current

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
)

// Run is one line of results/CURRENT: a machine's label and the result
// files of its current run (several when the run was split).
type Run struct {
	Label string
	Paths []string
}

// Read reads a CURRENT file: per line a label, then the paths of
// that machine's current run relative to the file's folder; blank lines
// and lines starting with # are skipped. A line that starts with the word
// "beyond" names a run beyond the papers' sizes instead (its label and
// files follow): it is not judged, and comes back in beyond.
func Read(path string) (runs, beyond []Run, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Dir(path)
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, to := strings.Fields(line), &runs
		if f[0] == "beyond" {
			f, to = f[1:], &beyond
		}
		if len(f) < 2 {
			return nil, nil, fmt.Errorf("%s:%d: want a label and at least one result file, got %q", path, i+1, line)
		}
		r := Run{Label: f[0]}
		for _, p := range f[1:] {
			r.Paths = append(r.Paths, filepath.Join(dir, p))
		}
		*to = append(*to, r)
	}
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("%s: no run listed", path)
	}
	return runs, beyond, nil
}

// RelPaths gives paths relative to the folder of base.
func RelPaths(base string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if r, err := filepath.Rel(filepath.Dir(base), p); err == nil {
			out[i] = filepath.ToSlash(r)
		} else {
			out[i] = p
		}
	}
	return out
}

// BeyondSection writes, in Markdown, the results of the runs beyond the
// papers' sizes (Beyond), then the tables of their experiments over every
// such run's records, the paper's rows beside them, and which run gave
// which rows; base is the CURRENT file, which the paths are named against.
func BeyondSection(b *strings.Builder, base string, runs []Run) error {
	b.WriteString("## Results beyond the papers\n\n")
	r, err := Beyond(base, runs)
	if err != nil {
		return err
	}
	if err := r.Table.Render(b, report.FormatMarkdown); err != nil {
		return err
	}
	fmt.Fprintf(b, "\nTheir experiments' tables over these runs, the paper's rows beside them; the rows come from %s.\n", strings.Join(r.From, "; "))
	for _, name := range r.Experiments {
		if e := experiments.ByName(name); e != nil && e.Tables != nil {
			for _, tb := range e.Tables(r.Records) {
				b.WriteString("\n")
				if err := tb.Render(b, report.FormatMarkdown); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// BeyondResults is what Beyond reads from runs.
type BeyondResults struct {
	// Table has a row per run and parameters whose records' checks say
	// "beyond the paper": the run's commit and wall time, and how it was
	// checked (the longest such check's detail).
	Table       report.Table
	Records     []bench.Record // every record of the runs
	Experiments []string       // their experiments, in order
	From        []string       // per run, its files (named against base) and the parameters it gave
}

// Beyond reads the result files of runs (see BeyondResults).
func Beyond(base string, runs []Run) (BeyondResults, error) {
	files := make([][]*bench.File, len(runs))
	for i, r := range runs {
		for _, path := range r.Paths {
			f, err := bench.ReadFile(path)
			if err != nil {
				return BeyondResults{}, err
			}
			files[i] = append(files[i], f)
		}
	}
	return BeyondOf(base, runs, files), nil
}

// BeyondOf is Beyond on files already read: files[i] are the files of
// runs[i], in the order of its paths.
func BeyondOf(base string, runs []Run, files [][]*bench.File) BeyondResults {
	out := BeyondResults{Table: report.Table{Header: []string{"paper", "parameters", "experiments", "run", "how it was checked"}}}
	t := &out.Table
	for i, r := range runs {
		var params []string
		for _, f := range files[i] {
			wall := time.Duration(0)
			for _, rec := range f.Records {
				wall = max(wall, rec.Finished.Sub(f.Started))
			}
			for _, rec := range f.Records {
				out.Records = append(out.Records, rec)
				if !slices.Contains(out.Experiments, rec.Experiment) {
					out.Experiments = append(out.Experiments, rec.Experiment)
				}
				if ps := rec.Params.String(); !slices.Contains(params, ps) {
					params = append(params, ps)
				}
				e := experiments.ByName(rec.Experiment)
				if e == nil || rec.Check == nil || !rec.Check.OK || !strings.HasPrefix(rec.Check.Method, "beyond the paper") {
					continue
				}
				ps, paper := rec.Params.String(), experiments.PaperName(e.Paper)
				_, name, _ := strings.Cut(rec.Experiment, "/")
				row := slices.IndexFunc(t.Rows, func(x []string) bool {
					return x[0] == paper && x[1] == ps && strings.HasPrefix(x[3], "**"+r.Label+"**")
				})
				if row < 0 {
					run := fmt.Sprintf("**%s**, commit %.7s, %s from the run's start to its last record", r.Label, f.Semibench.Commit, wall.Round(time.Second))
					t.Rows, row = append(t.Rows, []string{paper, ps, "", run, ""}), len(t.Rows)
				}
				t.Rows[row][2] = strings.TrimPrefix(t.Rows[row][2]+", "+name, ", ")
				if len(rec.Check.Detail) > len(t.Rows[row][4]) {
					t.Rows[row][4] = rec.Check.Detail
				}
			}
		}
		out.From = append(out.From, fmt.Sprintf("**%s** (%s): %s", r.Label, strings.Join(RelPaths(base, r.Paths), ", "), strings.Join(params, "; ")))
	}
	return out
}
