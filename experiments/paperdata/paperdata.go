// Package paperdata reads the papers' own data, which each paper's package
// in experiments/ embeds from its folder paper/ and registers (Register):
// the paper's tables transcribed as result files (paper/*.jsonl: Tables,
// PaperRecords), so every table can print the paper's numbers beside ours
// and `compare` can treat a paper as a machine, and the catalogue of the
// paper's claims (paper/claims.json: Claims, ClaimByID, with each claim's
// tolerance). README.md gives the files' fields.
package paperdata

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
)

// Source is one paper's data: the paper's file in shared/papers, the
// folder of its package in the module (for errors naming a file), and the
// files, paper/claims.json and paper/*.jsonl.
type Source struct {
	Paper, Dir string
	FS         fs.FS
}

// registry holds the registered sources and what was read from them,
// read again at the first use after a Register.
var registry struct {
	sync.Mutex
	sources []Source
	read    bool
	claims  []Claim
	tables  []*bench.File
	err     error
}

// Register adds the data of paper (its file in shared/papers) from fsys,
// embedded by the package in folder dir ("experiments/kleene"). A paper's
// package calls it at initialisation; it panics on a paper registered
// twice, a programming error caught by every test run.
func Register(paper, dir string, fsys fs.FS) {
	registry.Lock()
	defer registry.Unlock()
	if slices.ContainsFunc(registry.sources, func(s Source) bool { return s.Paper == paper }) {
		panic("paperdata: duplicate paper " + paper)
	}
	registry.sources = append(registry.sources, Source{paper, dir, fsys})
	registry.read = false
}

// data returns the registered papers' catalogue and tables (Read), the
// papers by file.
func data() ([]Claim, []*bench.File, error) {
	registry.Lock()
	defer registry.Unlock()
	if !registry.read {
		srcs := slices.Clone(registry.sources)
		slices.SortFunc(srcs, func(a, b Source) int { return strings.Compare(a.Paper, b.Paper) })
		registry.claims, registry.tables, registry.err = Read(srcs)
		registry.read = true
	}
	return registry.claims, registry.tables, registry.err
}

// Claims returns every claim of the registered papers: the papers by file
// (000 first), each paper's claims in its catalogue's order, the order of
// the claim rows in reports and REPRODUCE.md.
func Claims() ([]Claim, error) {
	cs, _, err := data()
	return slices.Clone(cs), err
}

// ClaimByID returns the catalogue's claim of that ID.
func ClaimByID(id string) (Claim, bool) {
	cs, _, _ := data() // the embedded data is tested; it never fails in a built binary
	for _, c := range cs {
		if c.ID == id {
			return c, true
		}
	}
	return Claim{}, false
}

// PaperValue is the number the paper gives for a claim (its figure's
// value), or NaN when the catalogue has none: a rule that compares with
// NaN gives no verdict.
func PaperValue(id string) float64 {
	c, ok := ClaimByID(id)
	if !ok || c.Figure.Value == nil {
		return math.NaN()
	}
	return *c.Figure.Value
}

// Tables returns the registered papers' transcribed tables, the papers by
// file, each paper's tables by file name.
func Tables() ([]*bench.File, error) {
	_, ts, err := data()
	return slices.Clone(ts), err
}

// PaperRecords returns the papers' transcribed records of one experiment,
// with the table each came from.
func PaperRecords(experiment string) ([]bench.Record, []*bench.File) {
	_, ts, _ := data() // the embedded data is tested; it never fails in a built binary
	var recs []bench.Record
	var from []*bench.File
	for _, f := range ts {
		for _, r := range f.Records {
			if r.Experiment == experiment {
				recs = append(recs, r)
				from = append(from, f)
			}
		}
	}
	return recs, from
}

// Read reads the data of srcs, in their order: each paper's catalogue,
// paper/claims.json (decodeClaims), whose claims must all be of that
// paper, and its tables, paper/*.jsonl in name order; a paper may lack
// either. An ID in the catalogues of two papers is refused, naming both
// files.
func Read(srcs []Source) ([]Claim, []*bench.File, error) {
	var claims []Claim
	var tables []*bench.File
	fileOf := map[string]string{} // claim ID -> the file that holds it
	for _, s := range srcs {
		name := path.Join(s.Dir, "paper/claims.json")
		data, err := fs.ReadFile(s.FS, "paper/claims.json")
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		default:
			cs, err := decodeClaims(name, data)
			if err != nil {
				return nil, nil, err
			}
			for _, c := range cs {
				if c.Paper != s.Paper {
					return nil, nil, fmt.Errorf("%s: claim %s is of paper %s, not of %s, whose catalogue this is", name, c.ID, c.Paper, s.Paper)
				}
				if prev, ok := fileOf[c.ID]; ok {
					return nil, nil, fmt.Errorf("%s and %s: both hold claim %s", prev, name, c.ID)
				}
				fileOf[c.ID] = name
			}
			claims = append(claims, cs...)
		}
		names, err := fs.Glob(s.FS, "paper/*.jsonl")
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(names)
		for _, n := range names {
			data, err := fs.ReadFile(s.FS, n)
			if err == nil {
				var f *bench.File
				if f, err = bench.Decode(data); err == nil {
					tables = append(tables, f)
					continue
				}
			}
			return nil, nil, fmt.Errorf("%s: %w", path.Join(s.Dir, n), err)
		}
	}
	return claims, tables, nil
}
