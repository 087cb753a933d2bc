package report

import (
	"strings"

	"github.com/semibench/semibench/bench"
)

// collapsed returns t as one line when nothing of ours in it was measured
// because its implementations are unavailable here (a GPU table on a
// machine without one): the title, then which implementations and why,
// from the notes. It returns nil for any other table.
//
// Ours are the columns after the leading key columns (the parameters: those
// before the first column that is the paper's, by a header starting with
// "paper", or holds an unavailable cell; at most maxKeys of them, or the
// leading columns are measurements too), less the paper's columns. The
// table collapses when at least one of their cells is unavailable and every
// other one is empty, dashes, or "not run" (a published code's cell with no
// result file).
func (t *Table) collapsed() *Table {
	const maxKeys = 3 // n, range and count: the most parameters a table row has
	header, rows := t.grid()
	isPaper := func(c int) bool { return strings.HasPrefix(strings.ToLower(header[c]), "paper") }
	hasUnavailable := func(c int) bool {
		for _, r := range rows {
			if r[c] == bench.StatusUnavailable {
				return true
			}
		}
		return false
	}
	keys := 0
	for keys < len(header) && !isPaper(keys) && !hasUnavailable(keys) {
		keys++
	}
	unavailable := false
	for c := keys; c < len(header); c++ {
		if isPaper(c) {
			continue
		}
		for _, r := range rows {
			switch cell := strings.TrimSpace(r[c]); {
			case cell == bench.StatusUnavailable:
				unavailable = true
			case strings.Trim(cell, "—-· ") == "", strings.HasPrefix(cell, "not run"):
			default:
				return nil
			}
		}
	}
	if !unavailable || keys > maxKeys {
		return nil
	}
	return &Table{Title: t.Title, Notes: []string{"Not measured: " + unavailableWhy(t.Notes) + "."}}
}

// unavailableWhy groups the notes "IMPL: ... unavailable ..." by their
// reason: "cuda/paper, cuda/fast: CUDA unavailable: no driver"; or says
// only that the implementations are unavailable here.
func unavailableWhy(notes []string) string {
	var reasons []string
	impls := map[string][]string{}
	for _, n := range notes {
		impl, why, ok := strings.Cut(n, ": ")
		if !ok || !strings.Contains(impl, "/") || strings.ContainsAny(impl, " ") || !strings.Contains(why, "unavailable") {
			continue
		}
		why = strings.TrimSuffix(why, ".")
		if _, seen := impls[why]; !seen {
			reasons = append(reasons, why)
		}
		impls[why] = append(impls[why], impl)
	}
	if len(reasons) == 0 {
		return "its implementations are unavailable on this machine"
	}
	parts := make([]string, len(reasons))
	for i, why := range reasons {
		parts[i] = strings.Join(impls[why], ", ") + ": " + why
	}
	return "its implementations are unavailable on this machine (" + strings.Join(parts, "; ") + ")"
}
