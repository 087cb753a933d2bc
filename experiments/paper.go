package experiments

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

// PaperInfo is one of the papers semibench reproduces. Each paper's
// package declares one and registers it with its experiments
// (RegisterPaper); the report, the claims and `semibench list` learn
// the papers from what is registered.
type PaperInfo struct {
	// File is the paper's file in shared/papers ("000_c78fb6cc642483eb.txt");
	// Experiment.Paper names it.
	File string
	// Name is the paper's short name ("Kleene") and Number its file
	// number ("000").
	Name, Number string
	// Source is where the paper's figures come from, the second line of
	// every plot title that reproduces one ("Rote 1985, systolic algebraic
	// path").
	Source string
	// Data is the paper's own data, embedded beside its experiments: its
	// claims catalogue and its transcribed tables (Catalogue,
	// PaperRecords). A paper without it (internal/example's toy) has
	// neither.
	Data PaperData
}

// PaperData is a paper's own files, embedded in its package from the
// folder paper/ beside its experiments (CATALOGUE.md): paper/claims.json,
// the catalogue of the paper's claims, and paper/*.jsonl, the paper's
// tables transcribed as result files, the machine labelled by the paper.
type PaperData struct {
	// Dir is the package's folder in the module ("experiments/kleene"),
	// for errors naming a file.
	Dir string
	// FS holds paper/claims.json and paper/*.jsonl.
	FS fs.FS
}

// Short is the name with the number, as tables and claims show the paper:
// "Kleene (000)".
func (p PaperInfo) Short() string { return p.Name + " (" + p.Number + ")" }

// papers holds the registered papers in registration order.
var papers []PaperInfo

// RegisterPaper adds a paper; its experiments name it by file
// (Experiment.Paper). It panics on a paper registered twice, a programming
// error caught by every test run.
func RegisterPaper(p PaperInfo) {
	if slices.ContainsFunc(papers, func(q PaperInfo) bool { return q.File == p.File }) {
		panic("experiments: duplicate paper " + p.File)
	}
	papers = append(papers, p)
	loaded.Lock()
	loaded.done = false
	loaded.Unlock()
}

// Papers returns the registered papers, by file (000 first).
func Papers() []PaperInfo {
	out := slices.Clone(papers)
	slices.SortFunc(out, func(a, b PaperInfo) int { return strings.Compare(a.File, b.File) })
	return out
}

// PaperName is the short name of the registered paper in file ("Kleene
// (000)"), or the file's name when no registered paper has it.
func PaperName(file string) string {
	for _, p := range papers {
		if p.File == file {
			return p.Short()
		}
	}
	return file
}

// loaded is the registered papers' data, decoded at the first use after
// a paper is registered.
var loaded struct {
	sync.Mutex
	done   bool
	claims []CatalogueClaim
	tables []*bench.File
	err    error
}

// paperData returns the registered papers' catalogue and tables
// (readPapers).
func paperData() ([]CatalogueClaim, []*bench.File, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if !loaded.done {
		loaded.claims, loaded.tables, loaded.err = readPapers(Papers())
		loaded.done = true
	}
	return loaded.claims, loaded.tables, loaded.err
}

// Catalogue returns every claim of the registered papers: the papers by
// file (000 first), each paper's claims in its catalogue's order, the
// order of the claim rows in reports and REPRODUCE.md.
func Catalogue() ([]CatalogueClaim, error) {
	cs, _, err := paperData()
	return slices.Clone(cs), err
}

// ClaimByID returns the catalogue's claim of that ID.
func ClaimByID(id string) (CatalogueClaim, bool) {
	cs, _, _ := paperData() // the embedded data is tested; it never fails in a built binary
	for _, c := range cs {
		if c.ID == id {
			return c, true
		}
	}
	return CatalogueClaim{}, false
}

// PaperValue is the number the paper gives for a claim (its figure's
// value), or NaN when the catalogue has none, so that no rule gives a
// verdict without it.
func PaperValue(id string) float64 {
	c, ok := ClaimByID(id)
	if !ok || c.Figure.Value == nil {
		return math.NaN()
	}
	return *c.Figure.Value
}

// PaperTables returns the registered papers' transcribed tables, the
// papers by file, each paper's tables by file name.
func PaperTables() ([]*bench.File, error) {
	_, ts, err := paperData()
	return slices.Clone(ts), err
}

// PaperRecords returns the papers' transcribed records of one experiment,
// with the table each came from.
func PaperRecords(experiment string) ([]bench.Record, []*bench.File) {
	_, ts, _ := paperData() // the embedded data is tested; it never fails in a built binary
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

// readPapers reads the data of papers (in their order): each paper's
// catalogue, paper/claims.json, whose claims must all be of that paper,
// and its tables, paper/*.jsonl in name order. An ID in the catalogues of
// two papers is refused, naming both files.
func readPapers(papers []PaperInfo) ([]CatalogueClaim, []*bench.File, error) {
	var claims []CatalogueClaim
	var tables []*bench.File
	fileOf := map[string]string{} // claim ID -> the file that holds it
	for _, p := range papers {
		if p.Data.FS == nil {
			continue
		}
		name := path.Join(p.Data.Dir, "paper/claims.json")
		data, err := fs.ReadFile(p.Data.FS, "paper/claims.json")
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
				if c.Paper != p.File {
					return nil, nil, fmt.Errorf("%s: claim %s is of paper %s, not of %s, whose catalogue this is", name, c.ID, c.Paper, p.File)
				}
				if prev, ok := fileOf[c.ID]; ok {
					return nil, nil, fmt.Errorf("%s and %s: both hold claim %s", prev, name, c.ID)
				}
				fileOf[c.ID] = name
			}
			claims = append(claims, cs...)
		}
		names, err := fs.Glob(p.Data.FS, "paper/*.jsonl")
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(names)
		for _, n := range names {
			data, err := fs.ReadFile(p.Data.FS, n)
			if err == nil {
				var f *bench.File
				if f, err = bench.Decode(data); err == nil {
					tables = append(tables, f)
					continue
				}
			}
			return nil, nil, fmt.Errorf("%s: %w", path.Join(p.Data.Dir, n), err)
		}
	}
	return claims, tables, nil
}
