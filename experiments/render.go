package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/semibench/semibench/bench"
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

// RenderTables returns the tables of every experiment in f (or only the
// named one): each experiment's own layout beside the paper's numbers, or
// the generic record table for experiments this binary does not know.
func RenderTables(f *bench.File, only string) ([]bench.Table, error) {
	var out []bench.Table
	found := false
	for _, name := range experimentsIn(f.Records) {
		if only != "" && name != only {
			continue
		}
		found = true
		e := registry[name]
		if e == nil || e.Tables == nil {
			out = append(out, bench.RecordsTable(f, name)...)
			continue
		}
		out = append(out, e.Tables(f.Records)...)
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

// WriteReport writes a Markdown report of f's tables to path, atomically.
func WriteReport(path string, f *bench.File, plots []string) error {
	tables, err := RenderTables(f, "")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".report*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes 0600; a report is for reading
		tmp.Close()
		return err
	}
	fmt.Fprintf(tmp, "# semibench report: %s\n\n", f.Machine.Label)
	fmt.Fprintf(tmp, "Machine: %s, %d cores", f.Machine.CPU, f.Machine.Cores)
	for _, g := range f.Machine.GPUs {
		fmt.Fprintf(tmp, "; GPU %d: %s (sm_%s)", g.Index, g.Name, g.ComputeCapability)
	}
	fmt.Fprintf(tmp, ". Scale %s, semibench %s %s, started %s.\n\n", f.Scale, f.Semibench.Version, f.Semibench.Commit, f.Started.Format("2006-01-02 15:04 MST"))
	for i := range tables {
		if err := tables[i].Render(tmp, "markdown"); err != nil {
			tmp.Close()
			return err
		}
		fmt.Fprintln(tmp)
	}
	if len(plots) > 0 {
		fmt.Fprintln(tmp, "## Plots")
		fmt.Fprintln(tmp)
		for _, p := range plots {
			if filepath.Ext(p) != ".png" {
				continue
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				rel = p
			}
			fmt.Fprintf(tmp, "![%s](%s)\n\n", filepath.Base(p), filepath.ToSlash(rel))
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
