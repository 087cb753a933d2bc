package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
)

// Attach adds to the compared file of extra's machine the records of extra
// (a file measured beside it: the published codes' records of
// results/peers/<machine>/, or our cells measured beside them) whose cells
// that file has no measurement of (no record, or one skipped by its
// budget or unavailable: the added record, later, supersedes it), and
// returns that file's index and the number of records added. It is an
// error when no compared file, or more than one, has extra's machine
// label, or when extra would add records of our implementations built
// from another commit than that file's (their code may differ: compare
// such a file as a file of its own).
func Attach(files []*bench.File, extra *bench.File) (int, int, error) {
	target := -1
	var labels []string
	for i, f := range files {
		labels = append(labels, f.Machine.Label)
		if f.Machine.Label != extra.Machine.Label {
			continue
		}
		if target >= 0 {
			return -1, 0, fmt.Errorf("two compared files are of machine %q: name the one to add to by comparing it alone", extra.Machine.Label)
		}
		target = i
	}
	if target < 0 {
		return -1, 0, fmt.Errorf("machine %q is not one of the compared files' (%s)", extra.Machine.Label, strings.Join(labels, ", "))
	}
	have := map[string]bool{} // the cells the compared file measured
	for _, r := range files[target].Records {
		if r.Status == bench.StatusOK || r.Status == bench.StatusCheckFailed {
			have[r.Key()] = true
		}
	}
	if ca, cb := commitOf(files[target]), commitOf(extra); ca != cb {
		for _, r := range extra.Records {
			if !have[r.Key()] && !peerImpl(r.Impl) {
				return -1, 0, fmt.Errorf("it holds %s's records of %s at commit %s, the compared file's are of %s: compare it as a file of its own",
					r.Experiment, r.Impl, orNone(shortCommit(cb)), orNone(shortCommit(ca)))
			}
		}
	}
	n := 0
	for _, r := range extra.Records {
		if !have[r.Key()] && (r.Status == bench.StatusOK || r.Status == bench.StatusCheckFailed) {
			files[target].Records = append(files[target].Records, r)
			n++
		}
	}
	return target, n, nil
}

// peerReference is the implementation a peer's rows stand beside.
const peerReference = "cuda/fast"

// peersTable is, for each experiment and each published code (peer/*)
// that the first file and file i both measured in the same cells, a row
// of its device and end-to-end ratios over those cells, beside a row of
// cuda/fast's over the same cells: does the other machine help the peer
// as much as ours? It reports false when no peer is in both files.
func (c *comparison) peersTable(exps []string, i int) (Table, bool) {
	a, b := c.names[0], c.names[i]
	t := Table{
		Title:  fmt.Sprintf("Published codes beside %s, %s/%s (above 1: %s is faster)", peerReference, a, b, b),
		Header: []string{"experiment", "impl", "cells", "device", "middle half", "end to end", "middle half"},
	}
	for _, exp := range exps {
		for _, peer := range c.peersOf(exp, i) {
			var params []string // the cells both files measured the peer in
			for _, k := range c.keys[exp] {
				ra, rb := c.index[0][k], c.index[i][k]
				if ra != nil && rb != nil && ra.Impl == peer && ra.Status == bench.StatusOK && rb.Status == bench.StatusOK {
					params = append(params, ra.Params.String())
				}
			}
			for _, impl := range []string{peer, peerReference} {
				t.Rows = append(t.Rows, c.peerRow(exp, impl, params, i))
			}
		}
	}
	t.Notes = []string{fmt.Sprintf("Over the cells both files measured the published code in, each row's ratios of %s's median time to %s's: "+
		"device is the code's own timing of its solve (total), end to end adds the copies and the host's part; %s over the same cells, "+
		"where both files have them. A published code's cells are never left out as changed: its code is not ours.", a, b, peerReference)}
	return t, len(t.Rows) > 0
}

// peersOf lists the peer implementations that both the first file and
// file i have records of in experiment exp.
func (c *comparison) peersOf(exp string, i int) []string {
	var out []string
	for _, k := range c.keys[exp] {
		if ra, rb := c.index[0][k], c.index[i][k]; ra != nil && rb != nil && peerImpl(ra.Impl) && !slices.Contains(out, ra.Impl) {
			out = append(out, ra.Impl)
		}
	}
	return out
}

// peerRow is one implementation's row over the cells of the given
// parameters: its count, and the device (total) and end-to-end ratios'
// geometric means and middle halves.
func (c *comparison) peerRow(exp, impl string, params []string, i int) []string {
	n := 0
	var dev, e2e []float64
	for _, p := range params {
		k := exp + "|" + impl + "|" + p
		ra, rb := c.index[0][k], c.index[i][k]
		if ra == nil || rb == nil || ra.Status != bench.StatusOK || rb.Status != bench.StatusOK ||
			!c.opt.AcrossCommits && (c.isChanged(i, ra) || c.isChanged(i, rb)) {
			continue
		}
		n++
		for _, x := range []struct {
			phase string
			to    *[]float64
		}{{bench.TotalPhase, &dev}, {bench.EndToEndPhase, &e2e}} {
			pa, pb := ra.Phase(x.phase), rb.Phase(x.phase)
			if pa != nil && pb != nil && median(pa) > 0 && median(pb) > 0 {
				*x.to = append(*x.to, median(pa)/median(pb))
			}
		}
	}
	d, e := spreadOf(dev).cells(), spreadOf(e2e).cells()
	return []string{exp, impl, fmt.Sprint(n), d[1], d[2], e[1], e[2]}
}
