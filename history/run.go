package history

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
)

// Kind is a machine kind: what makes two runs draws from one population.
// Two machines of one kind differ only in what a lease changes (the host,
// the memory free, the clocks of the day).
type Kind struct {
	Label string
	CPU   string
	Cores int
	GPUs  string // the GPU models, " + " between them; "" for none
}

// KindOf is a machine's kind.
func KindOf(m bench.Machine) Kind {
	names := make([]string, len(m.GPUs))
	for i, g := range m.GPUs {
		names[i] = g.Name
	}
	return Kind{Label: m.Label, CPU: m.CPU, Cores: m.Cores, GPUs: strings.Join(names, " + ")}
}

// String names the kind as messages do: label (CPU, cores, GPUs).
func (k Kind) String() string {
	gpus := k.GPUs
	if gpus == "" {
		gpus = "no GPU"
	}
	return fmt.Sprintf("%s (%s, %d cores, %s)", k.Label, k.CPU, k.Cores, gpus)
}

// Run is one run: a result file's run, read from the tree or from git.
type Run struct {
	// Where reads the run: its path in the tree (from the repository's
	// top level), or COMMIT:PATH where git alone keeps its fullest
	// version. Every command that reads result files accepts either.
	Where string
	// Blob is the git blob hash of the version read.
	Blob string
	// Header is the file's header (Records nil).
	Header *bench.File
	// Records are the run's records without their samples (every phase's
	// statistic and median kept), in the file's order; nil until
	// History.Fill reads them (Timelines and the claims do).
	Records []bench.Record
	// Size is how many records the run holds, Experiments which
	// experiments they are of.
	Size        int
	Experiments []string
	Kind        Kind
	// Commit is the full hash of the semibench commit that made the run,
	// where it is in the repository's history; "" otherwise (Apart says
	// why).
	Commit string
	// Order is the commit's place in the repository's history (0: the
	// first commit); -1 for a run apart.
	Order int
	// Apart says why the run is listed apart and never makes a step (its
	// commit is not in this repository's history, a dirty build, no
	// commit); "" for a run on the timeline.
	Apart string
	// Reproduce reports whether the run is a whole reproduce: records of
	// every paper's experiments, neither a shard nor a peers file.
	Reproduce bool
	// Versions counts the distinct versions of the file seen (appended,
	// gzipped; a file in the tree and its committed copy are one).
	Versions int

	// Claims are the run's claims judged alone; nil until History.Judge
	// judges them (Claims does).
	Claims []Judged

	src version // the version read
}

// Date is when the run started.
func (r *Run) Date() time.Time { return r.Header.Started }

// Scale is the run's scale ("quick", "paper", "large").
func (r *Run) Scale() string { return r.Header.Scale }

// Short is the run's commit as messages print it: 7 digits of the full
// hash, or the header's commit as written for a run apart.
func (r *Run) Short() string {
	if r.Commit != "" {
		return r.Commit[:min(7, len(r.Commit))]
	}
	c := r.Header.Semibench.Commit
	if c == "" {
		return "(no commit)"
	}
	if base, dirty := strings.CutSuffix(c, "+dirty"); dirty {
		return base[:min(7, len(base))] + "+dirty"
	}
	return c[:min(7, len(c))]
}

// identity names a run across its versions: start, machine, build and
// shard, which a run keeps in every version of its file.
func identity(h *bench.File) string {
	return strings.Join([]string{h.Started.UTC().Format(time.RFC3339Nano), h.Machine.String(), h.Machine.Hostname,
		h.Semibench.Commit, h.Semibench.Binary, h.Shard, h.Scale}, "|")
}

// isReproduce reports whether a run whose records cover the papers
// covered covers every paper of papers: a whole reproduce rather than a
// run of a few experiments.
func isReproduce(h *bench.File, covered, papers []string) bool {
	if h.Shard != "" || h.IsPeers() || h.Source != "" || len(papers) == 0 {
		return false
	}
	return !slices.ContainsFunc(papers, func(p string) bool { return !slices.Contains(covered, p) })
}

// trim drops what history never reads from records: the samples of
// every phase but the headline ones (total and end_to_end, whose samples
// the planner's pricing counts), the replicates' samples, the GPU state,
// the input and the metrics. The warm-ups stay (the pricing reads the
// first run's excess from them).
func trim(recs []bench.Record) []bench.Record {
	out := make([]bench.Record, len(recs))
	for i, r := range recs {
		r.Phases = trimPhases(r.Phases, true)
		r.GPU, r.Input, r.Metrics = nil, nil, nil
		if len(r.Replicates) > 0 {
			reps := make([]bench.Replicate, len(r.Replicates))
			for k, rep := range r.Replicates {
				rep.Phases = trimPhases(rep.Phases, false)
				reps[k] = rep
			}
			r.Replicates = reps
		}
		out[i] = r
	}
	return out
}

// trimPhases is phases without their samples, the headline phases' kept
// where headline is set.
func trimPhases(phases []bench.Phase, headline bool) []bench.Phase {
	out := slices.Clone(phases)
	for j := range out {
		if !headline || out[j].Scope != "headline" && out[j].Name != "total" && out[j].Name != "end_to_end" {
			out[j].SamplesMS = nil
		}
	}
	return out
}

// Headline is a record's headline time in milliseconds: the statistic of
// its phase named phase ("" for total), and false when it has none (not
// ok, or no such phase).
func Headline(r *bench.Record, phase string) (float64, bool) {
	if r.Status != bench.StatusOK {
		return 0, false
	}
	if phase == "" {
		phase = "total"
	}
	p := r.Phase(phase)
	if p == nil || !(p.StatMS > 0) {
		return 0, false
	}
	return p.StatMS, true
}
