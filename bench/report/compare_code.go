package report

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
)

// CodeChanges is what differs in the measured code between the commits
// two files were built from: the packages under impls/ and kernels/ that
// changed, grouped by the implementations whose code they hold. The
// caller computes it (package report reads no repository):
// CompareOptions.Code.
type CodeChanges struct {
	// Unknown says why the difference is not known ("not inside a git
	// repository", "commit 46bc881 is not in this repository"); every
	// implementation then counts as possibly changed. "" when known.
	Unknown string
	// Groups are the changed packages (a kernel source counts as one),
	// by the implementations they hold.
	Groups []ChangedCode
	// Changed reports whether the code of an implementation, as an
	// experiment runs it, is in one of Groups' packages; nil: none is.
	Changed func(experiment, impl string) bool
}

// ChangedCode is a set of implementations ("lap: cuda/paper, cuda/fast",
// "every cuda/*") and the changed packages that hold their code.
type ChangedCode struct {
	Impls string
	Paths []string
}

// changes is one later file's code against the first file's.
type changes struct {
	// same: both files name one commit, or one of them is a paper's
	// table (no code of ours); nothing is changed.
	same bool
	// all: every implementation possibly changed (unknown difference,
	// a build with uncommitted changes).
	all  bool
	why  string
	code CodeChanges
}

// commitOf is a file's commit, "" when it records none.
func commitOf(f *bench.File) string { return f.Semibench.Commit }

// shortCommit is a commit's first 7 characters, its "+dirty" mark kept.
func shortCommit(c string) string {
	base, dirty := strings.CutSuffix(c, "+dirty")
	if len(base) > 7 {
		base = base[:7]
	}
	if dirty {
		return base + "+dirty"
	}
	return base
}

// codeChanges finds what changed between the first file's commit and file
// i's: nothing for one commit (or a paper's table on either side), every
// implementation when a commit is missing or dirty, or when the
// difference is unknown (opt.Code nil or saying so).
func (c *comparison) codeChanges(i int) changes {
	a, b := c.files[0], c.files[i]
	if a.Source != "" || b.Source != "" {
		return changes{same: true}
	}
	ca, cb := commitOf(a), commitOf(b)
	switch {
	case ca == "" || cb == "":
		var no []string
		for j, cm := range []string{ca, cb} {
			if cm == "" {
				no = append(no, c.names[[]int{0, i}[j]])
			}
		}
		return changes{all: true, why: strings.Join(no, " and ") + " record(s) no commit"}
	case ca == cb && !strings.HasSuffix(ca, "+dirty"):
		return changes{same: true}
	case strings.HasSuffix(ca, "+dirty") || strings.HasSuffix(cb, "+dirty"):
		return changes{all: true, why: "a build with uncommitted changes (+dirty) ran"}
	case c.opt.Code == nil:
		return changes{all: true, why: "the code between the commits was not compared"}
	}
	code := c.opt.Code(ca, cb)
	if code.Unknown != "" {
		return changes{all: true, why: code.Unknown, code: code}
	}
	return changes{code: code}
}

// isChanged reports whether record r's implementation may have changed
// between the first file's commit and file i's, so that its cells are
// marked, and stand apart from the ratios unless
// CompareOptions.AcrossCommits.
func (c *comparison) isChanged(i int, r *bench.Record) bool {
	if r == nil {
		return false
	}
	ch := c.change[i]
	switch {
	case ch.same:
		return false
	case ch.all:
		return !peerImpl(r.Impl)
	}
	return ch.code.Changed != nil && ch.code.Changed(r.Experiment, r.Impl)
}

// commitLines are the preface's lines on the files' commits: one commit,
// or both named with the implementations whose code differs.
func (c *comparison) commitLines() []string {
	var out []string
	for i := 1; i < len(c.files); i++ {
		ch := c.change[i]
		a, b := c.names[0], c.names[i]
		ca, cb := shortCommit(commitOf(c.files[0])), shortCommit(commitOf(c.files[i]))
		switch {
		case ch.same && c.files[0].Source == "" && c.files[i].Source == "":
			out = append(out, fmt.Sprintf("One commit: %s and %s both ran %s.", a, b, ca))
		case ch.same:
		case ch.all:
			line := fmt.Sprintf("Different commits, or unknown ones: %s ran %s, %s ran %s; %s, so every implementation may have changed",
				a, orNone(ca), b, orNone(cb), ch.why)
			out = append(out, line+c.leftOutClause()+".")
		case len(ch.code.Groups) == 0:
			out = append(out, fmt.Sprintf("Different commits: %s ran %s, %s ran %s; no package under impls/ or kernels/ changed between them.", a, ca, b, cb))
		default:
			var pk []string
			for _, g := range ch.code.Groups {
				pk = append(pk, g.Impls+" ("+strings.Join(g.Paths, ", ")+")")
			}
			out = append(out, fmt.Sprintf("Different commits: %s ran %s, %s ran %s. Changed between them: %s. Rows of these implementations are marked *%s.",
				a, ca, b, cb, strings.Join(pk, "; "), c.leftOutClause()))
		}
	}
	return out
}

// leftOutClause says what becomes of the changed implementations' cells.
func (c *comparison) leftOutClause() string {
	if c.opt.AcrossCommits {
		return "; --across-commits keeps their cells in the ratios, so a ratio mixes the change of code with the change of machine"
	}
	return "; their cells are left out of the summary's ratios (--across-commits puts them in)"
}
