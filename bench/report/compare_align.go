package report

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
)

// alignNotes says, for each file that lacks some of an experiment's cells,
// how many and why: a paper's table reports no such cell; a measured file
// gets the scale of the cells it lacks and the run that would measure them.
func alignNotes(exp string, keys []string, rep map[string]held, index []map[string]*bench.Record, files []*bench.File, names []string,
	scaleOf func(string, bench.Params) string, known func(experiment, impl string) bool) []string {
	if len(files) < 2 {
		return nil
	}
	var notes []string
	for i, f := range files {
		var scales []string // first-seen order
		missing := map[string][]*bench.Record{}
		n := 0
		for _, k := range keys {
			if index[i][k] != nil {
				continue
			}
			r := rep[k]
			sc := files[r.file].Scale
			if scaleOf != nil {
				sc = scaleOf(exp, r.r.Params)
			}
			scales = appendNew(scales, sc)
			missing[sc] = append(missing[sc], r.r)
			n++
		}
		if n == 0 {
			continue
		}
		ran := ""
		if f.Scale != "" && f.Source == "" {
			ran = ", run at scale " + f.Scale + ","
		}
		lead := fmt.Sprintf("%s%s has no record of %d cell(s) (marked %q)", names[i], ran, n, NoRecord)
		if f.Source != "" {
			notes = append(notes, lead+": the paper reports no such cell.")
			continue
		}
		var parts []string
		for _, sc := range scales {
			rs := missing[sc]
			switch {
			case sc == "" && scaleOf != nil:
				parts = append(parts, fmt.Sprintf("%d at parameters no scale of this semibench runs", len(rs)))
			case sc == "":
				parts = append(parts, fmt.Sprintf("%d of unknown scale", len(rs)))
			default:
				parts = append(parts, runAdvice(exp, sc, rs, known))
			}
		}
		notes = append(notes, lead+": "+strings.Join(parts, "; ")+".")
	}
	return notes
}

// runAdvice says how the cells rs of experiment exp at scale sc are
// measured: the `semibench run` that measures them, naming only
// implementations this semibench has (known; nil: all); cells of others
// (a published code's, one this build lacks) are named as such.
func runAdvice(exp, sc string, rs []*bench.Record, known func(experiment, impl string) bool) string {
	var impls, unknown []string
	n := 0
	for _, r := range rs {
		if known == nil || known(exp, r.Impl) {
			impls = appendNew(impls, r.Impl)
			n++
		} else {
			unknown = appendNew(unknown, r.Impl)
		}
	}
	var parts []string
	if n > 0 {
		run := "semibench run " + exp + " --scale " + sc
		if len(impls) <= 4 {
			run += " --impl " + strings.Join(impls, ",")
		}
		parts = append(parts, fmt.Sprintf("%d of scale %s (`%s` measures them)", n, sc, run))
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("%d of scale %s of implementations no `semibench run` of this build has (%s)",
			len(rs)-n, sc, strings.Join(unknown, ", ")))
	}
	return strings.Join(parts, "; ")
}
