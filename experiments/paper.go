package experiments

import (
	"slices"
	"strings"
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
