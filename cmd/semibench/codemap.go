package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/internal/gitrepo"
)

// problemImpls names each problem's implementations, from its registry
// (package impls): the problem is the name of its packages under
// impls/cpu/ and impls/cuda/.
var problemImpls = map[string]func() []string{
	"apsp":       impls.APSP.Names,
	"domination": impls.Domination.Names,
	"kleene":     impls.Kleene.Names,
	"lap":        impls.LAP.Names,
	"minplus":    impls.Minplus.Names,
	"treefix":    impls.Treefix.Names,
}

// paperProblems are the problems whose registries each paper's
// experiments take their implementations from (an experiment's name
// starts with its paper's).
var paperProblems = map[string][]string{
	"apsp":       {"apsp"},
	"domination": {"domination", "minplus"},
	"hungarian":  {"lap"},
	"kleene":     {"kleene"},
	"treefix":    {"treefix"},
}

// problemUses are the problems whose packages a problem's implementation
// packages import, backend for backend (impls/cuda/domination imports
// impls/cuda/minplus): a change there changes them too.
var problemUses = map[string][]string{
	"domination": {"minplus"},
}

// backends are the implementation backends, the folders under impls/.
var backends = []string{"cpu", "cuda"}

// codeUnit is what a changed file under impls/ or kernels/ belongs to:
// its package (a kernel source is a unit of its own), the problems whose
// implementations run its code and on which backends; ok is false for a
// file that runs in no implementation (a test, its data, a document).
func codeUnit(file string) (unit string, problems, on []string, ok bool) {
	dir, base := path.Split(file)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, ".md") || slices.Contains(strings.Split(dir, "/"), "testdata"):
		return "", nil, nil, false
	case dir == "kernels" || strings.HasPrefix(dir, "kernels/"):
		if p := kernelProblem(base); p != "" {
			return file, []string{p}, []string{"cuda"}, true
		}
		return file, allProblems(), []string{"cuda"}, true
	case dir == "impls":
		if base == "doc.go" {
			return "", nil, nil, false
		}
		if p := strings.TrimSuffix(base, ".go"); problemImpls[p] != nil {
			return file, []string{p}, backends, true
		}
		return file, allProblems(), backends, true
	}
	parts := strings.Split(dir, "/") // impls/<backend>/<problem>/...
	if len(parts) >= 3 && parts[0] == "impls" && slices.Contains(backends, parts[1]) && problemImpls[parts[2]] != nil {
		return strings.Join(parts[:3], "/"), []string{parts[2]}, []string{parts[1]}, true
	}
	if len(parts) >= 2 && parts[0] == "impls" && parts[1] == "cuda" { // the device layer: every GPU implementation
		return dir, allProblems(), []string{"cuda"}, true
	}
	return dir, allProblems(), backends, true
}

// kernelProblem is the problem a kernel source serves, by its name
// (lap_forest.cu, ptx/treefix.ptx), "" for a shared one (semiring.cuh,
// kernels.go).
func kernelProblem(base string) string {
	for p := range problemImpls {
		if strings.HasPrefix(base, p) && (strings.HasSuffix(base, ".cu") || strings.HasSuffix(base, ".ptx")) {
			return p
		}
	}
	return ""
}

// allProblems lists every problem, sorted.
func allProblems() []string {
	var out []string
	for p := range problemImpls {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// changedImpls maps changed files to the implementations whose code
// they hold, keyed "problem backend/name", and groups the changed
// packages by those implementations for the reader: "every cuda/*" for
// the packages every GPU implementation runs (the device layer, the
// shared kernel headers) and those whose implementations it covers, then
// a group per other set of implementations.
func changedImpls(files []string) ([]report.ChangedCode, map[string]bool) {
	units := map[string]map[string]bool{} // unit -> "problem impl"
	changed := map[string]bool{}
	for _, f := range files {
		unit, problems, on, ok := codeUnit(f)
		if !ok {
			continue
		}
		if strings.HasPrefix(unit, "kernels/ptx/") {
			unit = "kernels/ptx" // the stamped fallback of the sources beside it
		}
		if units[unit] == nil {
			units[unit] = map[string]bool{}
		}
		for _, p := range withUsers(problems) {
			for _, name := range problemImpls[p]() {
				if slices.Contains(on, strings.Split(name, "/")[0]) {
					units[unit][p+" "+name] = true
					changed[p+" "+name] = true
				}
			}
		}
	}
	every := map[string]bool{} // backends every implementation of which changed in one unit
	for _, set := range units {
		for _, b := range backends {
			if coversBackend(set, b) {
				every[b] = true
			}
		}
	}
	paths := map[string][]string{}
	for unit, set := range units {
		rest := map[string]bool{}
		for k := range set {
			if _, name, _ := strings.Cut(k, " "); !every[strings.Split(name, "/")[0]] {
				rest[k] = true
			}
		}
		keys := describeImpls(rest) // a group per problem the unit changes
		if len(rest) == 0 {
			for _, b := range backends {
				if every[b] && setOn(set, b) {
					keys = []string{"every " + b + "/*"}
					break
				}
			}
		}
		for _, key := range keys {
			paths[key] = append(paths[key], unit)
		}
	}
	var groups []report.ChangedCode
	for key, ps := range paths {
		sort.Strings(ps)
		groups = append(groups, report.ChangedCode{Impls: key, Paths: ps})
	}
	slices.SortFunc(groups, func(a, b report.ChangedCode) int {
		ea, eb := strings.HasPrefix(a.Impls, "every "), strings.HasPrefix(b.Impls, "every ")
		if ea != eb {
			if ea {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Impls, b.Impls)
	})
	return groups, changed
}

// coversBackend reports whether set holds every implementation of every
// problem on backend b.
func coversBackend(set map[string]bool, b string) bool {
	for p, names := range problemImpls {
		for _, n := range names() {
			if strings.HasPrefix(n, b+"/") && !set[p+" "+n] {
				return false
			}
		}
	}
	return true
}

// setOn reports whether set holds an implementation of backend b.
func setOn(set map[string]bool, b string) bool {
	for k := range set {
		if _, name, _ := strings.Cut(k, " "); strings.HasPrefix(name, b+"/") {
			return true
		}
	}
	return false
}

// withUsers is problems and every problem whose packages import theirs
// (problemUses).
func withUsers(problems []string) []string {
	out := slices.Clone(problems)
	for user, uses := range problemUses {
		for _, u := range uses {
			if slices.Contains(problems, u) && !slices.Contains(out, user) {
				out = append(out, user)
			}
		}
	}
	sort.Strings(out)
	return out
}

// describeImpls groups a set of "problem impl" by problem: "lap:
// cuda/paper, cuda/fast".
func describeImpls(set map[string]bool) []string {
	by := map[string][]string{}
	for k := range set {
		p, n, _ := strings.Cut(k, " ")
		by[p] = append(by[p], n)
	}
	var out []string
	for _, p := range allProblems() {
		if names := by[p]; len(names) > 0 {
			order := problemImpls[p]()
			slices.SortFunc(names, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
			out = append(out, p+": "+strings.Join(names, ", "))
		}
	}
	return out
}

// codeChanges is compare's CompareOptions.Code: the packages under impls/
// and kernels/ that differ between two commits in the repository of the
// current folder, each mapped to its implementations. Outside a
// repository, without git, or with a commit the repository lacks, it
// says so (every implementation then counts as possibly changed).
func codeChanges(ctx context.Context) func(from, to string) report.CodeChanges {
	return func(from, to string) report.CodeChanges {
		repo, err := gitrepo.Open(ctx, ".")
		if err != nil {
			why := err.Error()
			switch {
			case errors.Is(err, gitrepo.ErrNotRepo):
				why = "the current folder is not inside a git repository"
			case errors.Is(err, gitrepo.ErrNoGit):
				why = "git is not installed"
			}
			return report.CodeChanges{Unknown: why}
		}
		files, err := repo.Changed(ctx, from, to, "impls", "kernels")
		if err != nil {
			why := err.Error()
			if errors.Is(err, gitrepo.ErrMissing) {
				why = fmt.Sprintf("%s (a shallow clone, or a commit never fetched here)", err)
			}
			return report.CodeChanges{Unknown: why}
		}
		groups, changed := changedImpls(files)
		return report.CodeChanges{Groups: groups, Changed: func(experiment, impl string) bool {
			paper, _, _ := strings.Cut(experiment, "/")
			for _, p := range paperProblems[paper] {
				if changed[p+" "+impl] {
					return true
				}
			}
			return false
		}}
	}
}
