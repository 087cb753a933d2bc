package experiments

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/internal/suggest"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls"
)

// Scale selects the sizes an experiment runs at.
type Scale string

// The three scales: quick for tests and smoke runs, paper for the papers' own
// sizes, large for beyond them.
const (
	Quick Scale = "quick" // seconds: tests, CI, smoke runs
	Paper Scale = "paper" // the papers' own sizes
	Large Scale = "large" // beyond the papers
)

// Scales lists the valid scales in increasing size.
var Scales = []Scale{Quick, Paper, Large}

// ParseScale validates a scale name.
func ParseScale(s string) (Scale, error) {
	for _, sc := range Scales {
		if string(sc) == s {
			return sc, nil
		}
	}
	return "", fmt.Errorf("unknown scale %q (valid: quick, paper, large)", s)
}

// ErrUnavailable marks an implementation whose backend is absent on this
// machine (no CUDA driver or GPU); the runner records it as unavailable.
var ErrUnavailable = errors.New("unavailable on this machine")

// unavailableError marks a backend's own "no driver or no device" error as
// ErrUnavailable without adding ErrUnavailable's words to its message: the
// backend's message already says CUDA is unavailable and why, and a message
// that says it twice ("unavailable on this machine: cuda/fast: CUDA
// unavailable: ...") is what this type avoids.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string   { return e.err.Error() }
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// MarkUnavailable turns a GPU backend's "no driver or no device" error
// (impls.ErrUnavailable) into one that also matches ErrUnavailable, its
// message unchanged; other errors pass unchanged.
func MarkUnavailable(err error) error {
	if err != nil && errors.Is(err, impls.ErrUnavailable) && !errors.Is(err, ErrUnavailable) {
		return &unavailableError{err}
	}
	return err
}

// Available reports whether impl can run on this machine (impls.Available:
// a CUDA implementation needs a driver and a device), its error then
// matching ErrUnavailable too. The runner asks before any budget decision
// and before it sets a case up, so that a machine without a GPU spends
// nothing on cells that cannot run and records them unavailable, never
// skipped.
//
// The message says each thing once: the implementation, then the driver's
// reason ("cuda/fast: CUDA unavailable: cannot load the CUDA driver library:
// libcuda.so.1: cannot open shared object file: ...").
func Available(impl string) error { return MarkUnavailable(impls.Available(impl)) }

// UnavailableNote is the line a table shows for an implementation recorded
// unavailable with message msg, saying each thing once: "cuda/fast: CUDA
// unavailable: cannot load the CUDA driver library: libcuda.so.1: ...".
// Messages in older result files ("unavailable on this machine:
// cuda/fast: CUDA unavailable: ...") lose their repeated prefixes.
func UnavailableNote(impl, msg string) string {
	reason := strings.TrimSpace(msg)
	for {
		before := reason
		reason = strings.TrimPrefix(reason, ErrUnavailable.Error()+": ")
		if impl != "" {
			reason = strings.TrimPrefix(reason, impl+": ")
		}
		if reason == before {
			break
		}
	}
	if reason == "" {
		return impl + " unavailable"
	}
	if mentionsUnavailable(reason) {
		return impl + ": " + reason
	}
	return impl + " unavailable: " + reason
}

func mentionsUnavailable(s string) bool {
	return strings.Contains(strings.ToLower(s), "unavailable")
}

// Options are the run-wide settings passed to every case.
type Options struct {
	Threads int // CPU threads for parallel implementations; 0 means all
	GPUs    int // GPUs for implementations that split work; 0 means 1
	Seed    uint64
	// Shared is the run's store of work several cells need (shared.go):
	// the runner makes one per run. Nil shares nothing, so every case
	// computes its own.
	Shared *Shared
}

// Experiment is one paper table or figure.
type Experiment struct {
	Name        string // "kleene/table2"
	Paper       string // the paper's file in shared/papers
	Description string
	// Statistic is the paper's own summary of repetitions (bench.StatMid3
	// for "the mean of the middle three of five"), or bench.StatMedian.
	Statistic string
	// Impls lists the implementation names compared, in display order.
	Impls []string
	// NsPerWork is a conservative prior, per implementation, of the
	// nanoseconds one unit of a case's Work takes, used to estimate a cell
	// before any cell of that implementation has run.
	NsPerWork map[string]float64
	// FixedMS is the prior's fixed cost of one run, per implementation
	// (launches, allocations, copies of a small case), in milliseconds,
	// added to NsPerWork's part; none when absent.
	FixedMS map[string]float64
	// MeasuredBy names the experiment whose cells this one's tables and
	// plots are rendered from when both are in one run (hungarian/table2
	// from hungarian/table1's cells): the runner then measures nothing for
	// this one, so no cell is measured twice.
	MeasuredBy string
	// Cases lists the cases at a scale.
	Cases func(Scale, Options) []Case
	// Tables renders the records of a run (all experiments of the file, so
	// one table may draw on another's cells) beside the paper's numbers.
	Tables func(run []bench.Record) []report.Table
	// Claims gives the paper's claims this experiment covers, each with
	// its verdict computed from the records of a run (all experiments of the
	// file); nil when it covers none.
	Claims func(run []bench.Record) []Claim
	// SameAs lists cells of this experiment that are another's: the same
	// cases, the same implementation code and statistic. When both
	// experiments are in a run the runner measures such a cell once, under
	// the other, and records it here too with ReusedFrom naming the cell.
	SameAs []SameAs
	// Needs declares, per claim of Claims (by Claim.ID), the cells that
	// decide it at a scale: a budgeted run measures them before any other.
	Needs func(Scale, Options) []Need
	// Plots renders figures from the records of a run.
	Plots func(run []bench.Record) []report.Plot
	// Headline lists the implementations (path.Match patterns) whose cells
	// are the experiment's headline: the runner runs every experiment's
	// headline cells before any other. Nil means the fast implementation
	// of each backend ("*/fast").
	Headline []string
	// Work declares the least work one run of a cell does (bench.Work),
	// from the cell's record: its implementation and parameters, the
	// instance's metrics where the parameters do not fix a size (a random
	// DAG's arcs), and ReusedFrom where a cell times only what it adds to
	// another's work. It takes the record, not the Case, so that a record
	// of any file, written before work was declared too, gets its work
	// (WorkOf). It returns false for a cell it declares nothing for. The
	// registry writes the declaration into each record's metrics (work.go).
	Work func(rec *bench.Record) (bench.Work, bool)
	// Window declares, beside Work, the window of a cell's run that its
	// paper times when that window is a set of the cell's phases and not
	// the whole run (bench.Window: its phases and their least work), from
	// the cell's record as Work does (WindowOf). It returns false for a
	// cell whose paper times the whole run, or whose window's work the
	// sizes do not give. The registry writes it into each record's metrics
	// beside the work (work.window.*). Nil: no cell declares one.
	Window func(rec *bench.Record) (bench.Window, bool)
}

// IsHeadline reports whether impl's cells are among the experiment's
// headline cells (see Headline).
func (e *Experiment) IsHeadline(impl string) bool {
	for _, p := range e.headline() {
		if ok, _ := path.Match(p, impl); ok {
			return true
		}
	}
	return false
}

// headline is the experiment's Headline patterns, with the defaults.
func (e *Experiment) headline() []string {
	if e.Headline != nil {
		return e.Headline
	}
	return []string{"*/fast"}
}

// Prior is the prior's estimate of one run of cs by impl, in
// milliseconds: FixedMS plus NsPerWork times the case's work for impl.
// A GPU implementation without a FixedMS costs at least GPUFixedMS.
func (e *Experiment) Prior(impl string, cs *Case) float64 {
	return e.Fixed(impl) + e.NsPerWork[impl]*cs.WorkOf(impl)/1e6
}

// Fixed is the prior's fixed cost of a run of impl, in milliseconds.
func (e *Experiment) Fixed(impl string) float64 {
	if fixed, ok := e.FixedMS[impl]; ok {
		return fixed
	}
	if strings.HasPrefix(impl, "cuda/") {
		return GPUFixedMS
	}
	return 0
}

// GPUFixedMS is the least a GPU run costs, a launch and a synchronisation
// with its copies (H100: 0.1-1 ms for the smallest cells of the
// committed runs), where an experiment declares no FixedMS.
const GPUFixedMS = 0.05

// SameAs names the implementations whose cells an experiment shares with
// another.
type SameAs struct {
	Experiment string
	Impls      []string
}

// Case is one parameter setting of an experiment: one input, run by each of
// its implementations.
type Case struct {
	Params bench.Params
	// Impls restricts the case to some of the experiment's implementations;
	// nil means all of them.
	Impls []string
	// Work is the case's cost in the experiment's units (e.g. m·n updates),
	// for time estimates.
	Work float64
	// ImplWork, when set, gives the work of the implementations whose cost
	// follows another model (the level-synchronous treefix: its vertices
	// and its levels); 0 for an implementation means Work.
	ImplWork func(impl string) float64
	// HostBytes and DeviceBytes estimate the memory the case needs at its
	// peak (instance, reference and the largest implementation's working
	// set), on the host and on one GPU; 0 when small. The runner skips a
	// cell that would not fit, before setting the case up.
	HostBytes, DeviceBytes uint64
	// Memory, when set, gives the need per implementation instead (the
	// whole-matrix searches of 2-domination keep 50 powers, the sparse
	// ones two).
	Memory func(impl string) (host, device uint64)
	// Setup builds the input (and any reference) once for all the case's
	// implementations.
	Setup func(ctx context.Context) (*Instance, error)
	// ReadsShared, when set, reports whether impl's cell would now read
	// its costly work from the run's store (Options.Shared), computed by
	// another cell, and time only the little it adds: the runner then
	// estimates it at the experiment's fixed cost. May be nil.
	ReadsShared func(impl string) bool
}

// WorkOf is the case's work for impl, in the units of the experiment's
// NsPerWork for impl.
func (c *Case) WorkOf(impl string) float64 {
	if c.ImplWork != nil {
		if w := c.ImplWork(impl); w > 0 {
			return w
		}
	}
	return c.Work
}

// Instance is a prepared input.
type Instance struct {
	Input   *bench.Input
	Metrics map[string]float64
	// Run executes one implementation once, reporting phases to rec.
	Run func(ctx context.Context, impl string, rec *bench.Recorder) (output any, err error)
	// Check verifies an implementation's output.
	Check func(impl string, output any) bench.Check
	// Release frees the instance's memory; may be nil.
	Release func()
	// Finish, when set, is called with a cell's record once its runs are
	// measured and checked, before the record is written: a cell that read
	// work another cell computed (Options.Shared) names it in
	// rec.ReusedFrom and, where its timed window is exactly that work,
	// reports that cell's samples; a cell that computed shared work hands
	// its measured phases to the store. May be nil.
	Finish func(impl string, rec *bench.Record)
}

// ImplsFor returns the implementations of c that match the pattern
// (path.Match syntax, e.g. "cpu/*"; empty matches all).
func (e *Experiment) ImplsFor(c Case, pattern string) []string {
	names := c.Impls
	if names == nil {
		names = e.Impls
	}
	var out []string
	for _, n := range names {
		if pattern == "" || matchImpl(pattern, n) {
			out = append(out, n)
		}
	}
	return out
}

func matchImpl(pattern, name string) bool {
	for _, p := range strings.Split(pattern, ",") {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

var registry = map[string]*Experiment{}

// Register adds an experiment; it panics on a duplicate name, which is a
// programming error caught by every test run. Where the experiment
// declares Work, its cases' instances write the declaration into each
// record's metrics (declareWork).
func Register(e *Experiment) {
	if _, dup := registry[e.Name]; dup {
		panic("experiments: duplicate experiment " + e.Name)
	}
	declareWork(e)
	registry[e.Name] = e
}

// ByName is the registered experiment of that name, or nil.
func ByName(name string) *Experiment { return registry[name] }

// All returns every experiment sorted by name.
func All() []*Experiment {
	out := make([]*Experiment, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup resolves experiment names. A name may be a prefix ending in "/"
// ("kleene/") or a path.Match pattern ("kleene/*"). An unknown name gives an
// error listing the closest names.
func Lookup(names ...string) ([]*Experiment, error) {
	var out []*Experiment
	for _, name := range names {
		var found []*Experiment
		for _, e := range All() {
			if e.Name == name || (strings.HasSuffix(name, "/") && strings.HasPrefix(e.Name, name)) {
				found = append(found, e)
			} else if ok, _ := path.Match(name, e.Name); ok {
				found = append(found, e)
			}
		}
		if len(found) == 0 {
			all := make([]string, 0, len(registry))
			for n := range registry {
				all = append(all, n)
			}
			return nil, fmt.Errorf("unknown experiment %q%s", name, suggest.Closest(name, all))
		}
		for _, e := range found {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// CheckImplPattern returns an error, listing the close names, when the
// pattern matches no implementation of the experiments.
func CheckImplPattern(exps []*Experiment, pattern string) error {
	if pattern == "" {
		return nil
	}
	var all []string
	for _, e := range exps {
		for _, n := range e.Impls {
			if matchImpl(pattern, n) {
				return nil
			}
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	return fmt.Errorf("no implementation matches %q%s", pattern, suggest.Closest(pattern, all))
}
