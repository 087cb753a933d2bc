// Package placement says which records of a result file this semibench's
// experiments place in a table: a record of an unknown experiment,
// implementation or parameter value (a newer semibench's file, or a
// damaged one) is never dropped in silence. The commands that read result
// files name each on standard error, by file and line, with why, and set
// it aside where the report counts it (bench.File.LeftOut).
package placement

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/domination"
	"github.com/semibench/semibench/experiments/hungarian"
)

// Peers are the published codes (peer/NAME) whose records a table reads,
// by the experiment they are recorded under (semibench peers record): a
// record of any other peer would be left out of every table.
var Peers = map[string][]string{
	"hungarian/table1":      {hungarian.PeerHungarianGPU, hungarian.PeerHungarianGPUPlain, hungarian.PeerHyLAC},
	"hungarian/batch":       {hungarian.PeerHyLACStream},
	"hungarian/batch-float": {hungarian.PeerTorchLinearAssignment},
	"domination/table2":     {domination.PeerTwoDomination},
}

// catalogue is, per experiment, the parameter values its cases take at
// any scale (with 1 to maxGPUs GPUs and the seeds of a run's default),
// by parameter name.
var catalogue = sync.OnceValue(func() map[string]map[string]map[string]bool {
	out := map[string]map[string]map[string]bool{}
	for _, e := range experiments.All() {
		values := map[string]map[string]bool{}
		for _, sc := range experiments.Scales {
			for gpus := 1; gpus <= 8; gpus *= 2 {
				for _, c := range e.Cases(sc, experiments.Options{GPUs: gpus, Seed: 1}) {
					for _, p := range c.Params {
						if values[p.Name] == nil {
							values[p.Name] = map[string]bool{}
						}
						values[p.Name][p.Value] = true
					}
				}
			}
		}
		out[e.Name] = values
	}
	return out
})

// Misplaced says why no table of this semibench places r, or "" when one
// does: an unknown experiment, an implementation the experiment does not
// have (a published code measured beside it is placed where a table reads
// it: Peers), a parameter it does not take, or a value none of its cases
// has.
func Misplaced(r *bench.Record) string {
	es, err := experiments.Lookup(r.Experiment)
	if err != nil || len(es) != 1 || es[0].Name != r.Experiment {
		return fmt.Sprintf("experiment %q is not one of this semibench's (semibench list)", r.Experiment)
	}
	e := es[0]
	if peer := strings.HasPrefix(r.Impl, "peer/"); peer && !slices.Contains(Peers[e.Name], r.Impl) {
		if len(Peers[e.Name]) == 0 {
			return fmt.Sprintf("no table of %s reads a published code (peer/...), and this record is %q's", e.Name, r.Impl)
		}
		return fmt.Sprintf("no table of %s reads a published code %q (it reads %s)", e.Name, r.Impl, strings.Join(Peers[e.Name], ", "))
	} else if !peer && !slices.Contains(e.Impls, r.Impl) {
		return fmt.Sprintf("%s has no implementation %q (it has %s)", e.Name, r.Impl, strings.Join(e.Impls, ", "))
	}
	values := catalogue()[e.Name]
	for _, p := range r.Params {
		vs, ok := values[p.Name]
		switch {
		case !ok:
			return fmt.Sprintf("%s takes no parameter %q", e.Name, p.Name)
		case !vs[p.Value] && !strings.HasPrefix(r.Impl, "peer/"):
			return fmt.Sprintf("%s has no case with %s=%s", e.Name, p.Name, p.Value)
		}
	}
	return ""
}

// LeaveOut names on w each record of f (read from path) that no table
// places, and sets them aside: out of f.Records, into f.LeftOut, which the
// report counts. It returns how many. A paper's transcription is exempt:
// it holds the paper's rows, which the tables read by their own parameters.
func LeaveOut(w io.Writer, path string, f *bench.File) int {
	if f.Source != "" {
		return 0
	}
	kept := f.Records[:0:0]
	for i := range f.Records {
		why := Misplaced(&f.Records[i])
		if why == "" {
			kept = append(kept, f.Records[i])
			continue
		}
		at := fmt.Sprintf("%s: %s", path, f.RecordPlace(i))
		fmt.Fprintf(w, "semibench: %s: left out of the tables and verdicts: %s\n", at, why)
		f.LeftOut = append(f.LeftOut, at+": "+why)
	}
	n := len(f.Records) - len(kept)
	f.Records = kept
	return n
}

// NameUnplaced names on w each record of f (read from path) that no table
// places, saying that it is exported as it is, and returns how many.
func NameUnplaced(w io.Writer, path string, f *bench.File) int {
	if f.Source != "" {
		return 0
	}
	n := 0
	for i := range f.Records {
		if why := Misplaced(&f.Records[i]); why != "" {
			n++
			fmt.Fprintf(w, "semibench: %s: %s: exported as it is, though no table of this semibench places it: %s\n", path, f.RecordPlace(i), why)
		}
	}
	return n
}
