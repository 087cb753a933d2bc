// Package results embeds the papers' own tables (results/paper/*.jsonl), in
// the result-file schema, so every experiment can print its table beside the
// paper's numbers and `compare` can treat a paper as a machine, and the
// catalogue of the papers' claims (results/paper/claims, a file per paper;
// Claims). Measured runs live beside them in one folder per machine.
package results

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"

	"github.com/semibench/semibench/bench"
)

//go:embed paper/*.jsonl
var paperFS embed.FS

// Paper returns every embedded paper table, sorted by file name.
func Paper() ([]*bench.File, error) {
	names, err := fs.Glob(paperFS, "paper/*.jsonl")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]*bench.File, 0, len(names))
	for _, name := range names {
		data, err := paperFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := bench.Decode(data)
		if err != nil {
			return nil, fmt.Errorf("results/%s: %w", name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// PaperRecords returns the paper records of one experiment, with the file
// each came from.
func PaperRecords(experiment string) ([]bench.Record, []*bench.File) {
	files, err := Paper()
	if err != nil {
		return nil, nil // the embedded files are tested; never fails in a built binary
	}
	var recs []bench.Record
	var from []*bench.File
	for _, f := range files {
		for _, r := range f.Records {
			if r.Experiment == experiment {
				recs = append(recs, r)
				from = append(from, f)
			}
		}
	}
	return recs, from
}
