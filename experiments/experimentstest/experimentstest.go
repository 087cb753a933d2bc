// Package experimentstest holds what the tests of the paper packages
// share: running an experiment's cases as the runner does, synthetic
// records, and the check that holds every claim rule of a paper to
// records where its claim holds and records where it fails.
package experimentstest

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
)

// RunCases runs the cases of experiment name once per implementation, as
// the runner does (input and metrics from the instance, the check beside
// the phases), and returns the records. A CUDA implementation without a
// GPU is recorded unavailable; any other error stops the test, and a
// failed check fails it.
func RunCases(t testing.TB, name string, cases []experiments.Case) []bench.Record {
	t.Helper()
	ctx := context.Background()
	exps, err := experiments.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	e := exps[0]
	var run []bench.Record
	for _, c := range cases {
		inst, err := c.Setup(ctx)
		if err != nil {
			t.Fatalf("%s %s: setup: %v", name, c.Params, err)
		}
		for _, impl := range e.ImplsFor(c, "") {
			var chk bench.Check
			phases, err := bench.Measure(ctx, bench.Protocol{Reps: 1, Statistic: bench.StatMedian},
				func(ctx context.Context, rec *bench.Recorder) error {
					out, err := inst.Run(ctx, impl, rec)
					if err == nil {
						chk = inst.Check(impl, out)
					}
					return err
				})
			if errors.Is(err, experiments.ErrUnavailable) && strings.HasPrefix(impl, "cuda/") {
				run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusUnavailable, Error: err.Error()})
				continue
			}
			if err != nil {
				t.Fatalf("%s %s %s: %v", name, impl, c.Params, err)
			}
			if !chk.OK {
				t.Errorf("%s %s %s: check failed: %s (%s)", name, impl, c.Params, chk.Detail, chk.Method)
			}
			run = append(run, bench.Record{Experiment: name, Impl: impl, Params: c.Params, Status: bench.StatusOK,
				Statistic: bench.StatMedian, Phases: phases, Input: inst.Input, Metrics: maps.Clone(inst.Metrics), Check: &chk})
		}
		if inst.Release != nil {
			inst.Release()
		}
	}
	return run
}

// Mk is an ok record with its check passed.
func Mk(exp, impl string, p bench.Params, phases, metrics map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: p, Status: bench.StatusOK, Check: &bench.Check{OK: true}, Metrics: metrics}
	for _, name := range slices.Sorted(maps.Keys(phases)) {
		v := phases[name]
		r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
	}
	return r
}

// Failed is r failing its check.
func Failed(r bench.Record) bench.Record {
	r.Status, r.Check = bench.StatusCheckFailed, &bench.Check{OK: false, Detail: "differs"}
	return r
}

// Timed gives r's phase six samples around v (1% apart), enough for the
// Mann-Whitney test.
func Timed(r bench.Record, phase string, v float64) bench.Record {
	for i := range r.Phases {
		if r.Phases[i].Name == phase {
			r.Phases[i].SamplesMS = []float64{v, 1.01 * v, 0.99 * v, 1.005 * v, 0.995 * v, 1.002 * v}
			r.Phases[i].MedianMS, r.Phases[i].StatMS = v, v
			return r
		}
	}
	r.Phases = append(r.Phases, bench.Phase{Name: phase, MedianMS: v, StatMS: v})
	return Timed(r, phase, v)
}

// Phases builds a phase map from name, value pairs (values int or
// float64).
func Phases(kv ...any) map[string]float64 {
	m := map[string]float64{}
	for i := 0; i+1 < len(kv); i += 2 {
		switch x := kv[i+1].(type) {
		case int:
			m[kv[i].(string)] = float64(x)
		case float64:
			m[kv[i].(string)] = x
		default:
			panic("Phases: a number")
		}
	}
	return m
}

// With is a copy of f with k set to v.
func With(f map[string]float64, k string, v float64) map[string]float64 {
	g := maps.Clone(f)
	g[k] = v
	return g
}

// Without is a copy of f without k.
func Without(f map[string]float64, k string) map[string]float64 {
	g := maps.Clone(f)
	delete(g, k)
	return g
}

// RuleOf is the rule of a catalogued claim: its experiment's Claims, the
// row of that ID ("no rule" when the experiment is not registered or has
// no such row).
func RuleOf(id string) func([]bench.Record) experiments.Claim {
	cc, _ := paperdata.ClaimByID(id)
	return func(run []bench.Record) experiments.Claim {
		if e := experiments.ByName(cc.Experiment); e != nil && e.Claims != nil {
			for _, c := range e.Claims(run) {
				if c.ID == id {
					return c
				}
			}
		}
		return experiments.Claim{ID: id, Verdict: "no rule"}
	}
}

// RuleCase is a claim's records: Hold, on which the rule gives Want
// (reproduced unless set), and Fail, on which it gives not reproduced.
type RuleCase struct {
	Hold, Fail []bench.Record
	Want       experiments.Verdict
}

// CheckRules holds the rules of the paper in file (shared/papers) to
// cases, keyed by claim ID (the paper's experiments registered):
//   - every rule gives its case's verdict where the claim holds, not
//     reproduced where it fails, not run on no records, and reads the
//     claim's tolerance when the catalogue gives it a number;
//   - given its records without their metrics, or without the phases
//     beyond the total, a rule gives the same verdict or none (not run),
//     never one read from a missing value taken as 0;
//   - every testable claim of the paper in the catalogue has a case with
//     records of both kinds, and every case is a testable claim's.
func CheckRules(t *testing.T, file string, cases map[string]RuleCase) {
	t.Helper()
	defer func() { experiments.ToleranceRead = nil }()
	for id, c := range cases {
		rule := RuleOf(id)
		read := map[string]bool{}
		experiments.ToleranceRead = func(id string) { read[id] = true }
		want := c.Want
		if want == "" {
			want = experiments.Reproduced
		}
		if got := rule(c.Hold); got.Verdict != want {
			t.Errorf("%s: on records where it holds: %s (%s; %s)", id, got.Verdict, got.Ours, got.Reason)
		}
		if got := rule(c.Fail); got.Verdict != experiments.NotReproduced {
			t.Errorf("%s: on records where it fails: %s (%s; %s)", id, got.Verdict, got.Ours, got.Reason)
		}
		if got := rule(nil); got.Verdict != experiments.NotRun {
			t.Errorf("%s: on no records: %s (%s)", id, got.Verdict, got.Ours)
		}
		cc, _ := paperdata.ClaimByID(id)
		if tol := cc.Tolerance; tol != nil && (tol.Factor != nil || tol.Low != nil || tol.High != nil) && !read[id] {
			t.Errorf("%s: the rule does not read the claim's tolerance (%s)", id, tol.Text)
		}
	}
	experiments.ToleranceRead = nil
	strip := func(recs []bench.Record, f func(*bench.Record)) []bench.Record {
		out := slices.Clone(recs)
		for i := range out {
			f(&out[i])
		}
		return out
	}
	for id, c := range cases {
		rule := RuleOf(id)
		for what, f := range map[string]func(*bench.Record){
			"metrics": func(r *bench.Record) { r.Metrics = nil },
			"phases but the total": func(r *bench.Record) {
				r.Phases = slices.DeleteFunc(slices.Clone(r.Phases), func(p bench.Phase) bool { return p.Name != bench.TotalPhase })
			},
		} {
			for _, recs := range [][]bench.Record{c.Hold, c.Fail} {
				with, got := rule(recs), rule(strip(recs, f))
				if got.Verdict != with.Verdict && got.Verdict != experiments.NotRun {
					t.Errorf("%s without its records' %s: %s (%s; %s), want %s or not run", id, what, got.Verdict, got.Ours, got.Reason, with.Verdict)
				}
				if strings.Contains(got.Ours, "NaN") {
					t.Errorf("%s without its records' %s: a figure of NaN: %s", id, what, got.Ours)
				}
			}
		}
	}
	cat, err := paperdata.Claims()
	if err != nil {
		t.Fatal(err)
	}
	left := maps.Clone(cases)
	for _, cc := range cat {
		if cc.Paper != file {
			continue
		}
		c, ok := left[cc.ID]
		switch {
		case cc.Untestable != "":
			if ok {
				t.Errorf("%s: a case for a claim that is not testable", cc.ID)
			}
		case !ok:
			t.Errorf("%s: no case (a record set where it holds and one where it fails)", cc.ID)
		case len(c.Hold) == 0 || len(c.Fail) == 0:
			t.Errorf("%s: a case without records where it holds or where it fails", cc.ID)
		}
		delete(left, cc.ID)
	}
	for id := range left {
		t.Errorf("%s: a case for no claim of the paper in the catalogue", id)
	}
}

// N is the parameters of a cell at n alone.
func N(n int) bench.Params { return bench.Params{{Name: "n", Value: strconv.Itoa(n)}} }

// KleeneRecord is an ok Kleene record (N(0,1) weights, 4,001,234 arcs) of
// exp and impl at n with the given phase times.
func KleeneRecord(exp, impl, n string, phases map[string]float64) bench.Record {
	r := bench.Record{Experiment: exp, Impl: impl, Params: bench.Params{{Name: "n", Value: n}, {Name: "weights", Value: "normal"}},
		Status: bench.StatusOK, Metrics: map[string]float64{"arcs": 4001234}, Check: &bench.Check{OK: true}}
	for name, v := range phases {
		r.Phases = append(r.Phases, bench.Phase{Name: name, MedianMS: v, StatMS: v})
	}
	return r
}

// GPULess turns a run's CUDA records into what a machine without a GPU
// records: unavailable, no phases.
func GPULess(run []bench.Record) []bench.Record {
	out := slices.Clone(run)
	for i := range out {
		if strings.HasPrefix(out[i].Impl, "cuda/") {
			out[i].Status, out[i].Phases, out[i].Check = bench.StatusUnavailable, nil, nil
			out[i].Error = "no CUDA device"
		}
	}
	return out
}

// SeriesNames are a plot's series as "name|impl|group".
func SeriesNames(p report.Plot) []string {
	var out []string
	for _, s := range p.Series {
		out = append(out, s.Name+"|"+s.Impl+"|"+s.Group)
	}
	return out
}

// HasNote reports whether one of a plot's notes contains want.
func HasNote(p report.Plot, want string) bool {
	for _, n := range p.Notes {
		if strings.Contains(n, want) {
			return true
		}
	}
	return false
}

// FileCases reads a result file and the cases of every registered
// experiment at its scale, by experiment and parameters
// ("kleene/table2|n=500,weights=normal"): what a test needs to set a
// committed run's records beside the cases that made them.
func FileCases(t *testing.T, path string) (*bench.File, map[string]*experiments.Case) {
	t.Helper()
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := experiments.ParseScale(f.Scale)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]*experiments.Case{}
	for _, e := range experiments.All() {
		cs := e.Cases(sc, experiments.Options{})
		for i := range cs {
			cases[e.Name+"|"+cs[i].Params.String()] = &cs[i]
		}
	}
	return f, cases
}
