package history

import (
	"cmp"
	"context"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// Query selects cells and runs.
type Query struct {
	// Experiments are the experiments asked (names); none asks every one.
	Experiments []string
	// Params keeps the cells whose parameters it accepts (--where); nil
	// keeps all.
	Params func(bench.Params) bool
	// Impls are path.Match patterns of implementations (--impl); none
	// keeps all.
	Impls []string
	// Machine keeps the runs of machines of this label; "" keeps all.
	Machine string
	// Phase is the phase whose statistic a timeline follows (default
	// total, the headline).
	Phase string
	// Scale keeps the runs of this scale; "" keeps all.
	Scale string
}

// wantsExperiment reports whether q asks for experiment e.
func (q Query) wantsExperiment(e string) bool {
	return len(q.Experiments) == 0 || slices.Contains(q.Experiments, e)
}

// wantsImpl reports whether q asks for implementation impl.
func (q Query) wantsImpl(impl string) bool {
	if len(q.Impls) == 0 {
		return true
	}
	for _, p := range q.Impls {
		if ok, _ := path.Match(p, impl); ok || p == impl {
			return true
		}
	}
	return false
}

// wantsRun reports whether q asks for a run (its machine).
func (q Query) wantsRun(r *Run) bool {
	return (q.Machine == "" || r.Kind.Label == q.Machine) && (q.Scale == "" || r.Scale() == q.Scale)
}

// Point is one run's value of a cell.
type Point struct {
	Run   *Run
	Value float64 // the phase's statistic, in milliseconds
}

// Group is a commit's runs of a cell on one machine kind: replicates.
type Group struct {
	Commit string // full hash
	Order  int
	Points []Point
}

// Median is the median of the group's values.
func (g Group) Median() float64 { return median(values(g.Points)) }

func values(ps []Point) []float64 {
	v := make([]float64, len(ps))
	for i, p := range ps {
		v[i] = p.Value
	}
	return v
}

// Timeline is a cell's values on one machine kind over the repository's
// commits, with its steps.
type Timeline struct {
	Kind                     Kind
	Experiment, Impl, Params string
	Phase                    string
	// Groups are the commits that measured the cell, in the repository's
	// order; Apart the runs apart (by date), which make no step.
	Groups []Group
	Apart  []Point
	Steps  []TimelineStep
	Noise  Noise
	// Protocols lists the timing protocols of the runs, where more than
	// one (a step across a protocol change may be the protocol's).
	Protocols []int
}

// Key is the timeline's cell as bench.Record.Key writes it.
func (t *Timeline) Key() string { return t.Experiment + "|" + t.Impl + "|" + t.Params }

// Runs counts the runs on the timeline (not apart).
func (t *Timeline) Runs() int {
	n := 0
	for _, g := range t.Groups {
		n += len(g.Points)
	}
	return n
}

// TimelineStep is a step of a timeline: the commits on each side and the
// ratio of the stretches' medians with its interval.
type TimelineStep struct {
	Step
	// Before is the last commit measured before the step, After the first
	// measured after it (full hashes).
	Before, After string
	// Protocol says when the stretches were timed under different
	// protocols (part of the step may then be the protocol's); "" when
	// one protocol times both.
	Protocol string
}

// runsWhere is the runs, those apart included, that want keeps.
func (h *History) runsWhere(want func(*Run) bool) []*Run {
	var out []*Run
	for _, r := range slices.Concat(h.Runs, h.Apart) {
		if want(r) {
			out = append(out, r)
		}
	}
	return out
}

// Timelines builds the timeline of every cell q asks for, one per
// machine kind, with its steps, ordered by kind, experiment,
// implementation and parameters. It reads the records of the runs q asks
// for (Fill), telling progress to progress.
func (h *History) Timelines(ctx context.Context, q Query, progress io.Writer) ([]*Timeline, error) {
	runs := h.runsWhere(q.wantsRun)
	if err := h.Fill(ctx, runs, progress); err != nil {
		return nil, err
	}
	return h.timelinesOf(runs, q), nil
}

// timelinesOf is Timelines over runs (their records read), those apart
// kept off the timelines.
func (h *History) timelinesOf(runs []*Run, q Query) []*Timeline {
	type key struct {
		kind Kind
		cell string
	}
	byKey := map[key]*Timeline{}
	var order []key
	add := func(r *Run, apart bool) {
		if !q.wantsRun(r) {
			return
		}
		last := map[string]int{} // a cell measured twice in one run: its last record
		for i := range r.Records {
			last[r.Records[i].Key()] = i
		}
		for i := range r.Records {
			rec := &r.Records[i]
			if last[rec.Key()] != i || !q.wantsExperiment(rec.Experiment) || !q.wantsImpl(rec.Impl) || (q.Params != nil && !q.Params(rec.Params)) {
				continue
			}
			if rec.ReusedFrom != "" {
				continue // another cell's work read: its phases are not this cell's own time
			}
			v, ok := Headline(rec, q.Phase)
			if !ok {
				continue
			}
			k := key{r.Kind, rec.Key()}
			t := byKey[k]
			if t == nil {
				t = &Timeline{Kind: r.Kind, Experiment: rec.Experiment, Impl: rec.Impl, Params: rec.Params.String(), Phase: cmp.Or(q.Phase, "total")}
				byKey[k] = t
				order = append(order, k)
			}
			p := Point{Run: r, Value: v}
			if apart {
				t.Apart = append(t.Apart, p)
				continue
			}
			if n := len(t.Groups); n > 0 && t.Groups[n-1].Commit == r.Commit {
				t.Groups[n-1].Points = append(t.Groups[n-1].Points, p)
			} else {
				t.Groups = append(t.Groups, Group{Commit: r.Commit, Order: r.Order, Points: []Point{p}})
			}
		}
	}
	for _, r := range runs { // h.Runs's order: a commit's runs are adjacent
		if r.Apart == "" {
			add(r, false)
		}
	}
	for _, r := range runs {
		if r.Apart != "" {
			add(r, true)
		}
	}
	out := make([]*Timeline, 0, len(order))
	for _, k := range order {
		t := byKey[k]
		t.detect()
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b *Timeline) int {
		return cmp.Or(strings.Compare(a.Kind.String(), b.Kind.String()), strings.Compare(a.Experiment, b.Experiment),
			strings.Compare(a.Impl, b.Impl), compareParams(a.Params, b.Params))
	})
	return out
}

// compareParams orders parameter strings with numbers by value
// ("n=1024" before "n=8192").
func compareParams(a, b string) int {
	as, bs := strings.Split(a, ","), strings.Split(b, ",")
	for i := 0; i < len(as) && i < len(bs); i++ {
		_, av, _ := strings.Cut(as[i], "=")
		_, bv, _ := strings.Cut(bs[i], "=")
		if av == bv {
			continue
		}
		an, aerr := parseNumber(av)
		bn, berr := parseNumber(bv)
		if aerr == nil && berr == nil && an != bn {
			return cmp.Compare(an, bn)
		}
		return strings.Compare(av, bv)
	}
	return cmp.Compare(len(as), len(bs))
}

// detect finds the timeline's steps and names their commits.
func (t *Timeline) detect() {
	groups := make([][]float64, len(t.Groups))
	protocols := map[int]bool{}
	for i, g := range t.Groups {
		groups[i] = values(g.Points)
		for _, p := range g.Points {
			protocols[p.Run.Header.TimingProtocol()] = true
		}
	}
	if len(protocols) > 1 {
		for p := range protocols {
			t.Protocols = append(t.Protocols, p)
		}
		slices.Sort(t.Protocols)
	}
	steps, noise := DetectSteps(groups, 0)
	t.Noise = noise
	for k, s := range steps {
		ts := TimelineStep{Step: s, Before: t.Groups[s.Index-1].Commit, After: t.Groups[s.Index].Commit}
		from, to := 0, len(t.Groups)
		if k > 0 {
			from = steps[k-1].Index
		}
		if k+1 < len(steps) {
			to = steps[k+1].Index
		}
		before, after := t.protocols(from, s.Index), t.protocols(s.Index, to)
		if !slices.Equal(before, after) {
			ts.Protocol = "timed under protocol " + joinInts(before) + " before and " + joinInts(after) + " after"
		}
		t.Steps = append(t.Steps, ts)
	}
}

// protocols lists the timing protocols of groups[i:j]'s runs.
func (t *Timeline) protocols(i, j int) []int {
	var out []int
	for _, g := range t.Groups[i:j] {
		for _, p := range g.Points {
			if v := p.Run.Header.TimingProtocol(); !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Levels are the timeline's fitted levels: for each stretch between
// steps, its first and last group and its median.
func (t *Timeline) Levels() []Level {
	var out []Level
	start := 0
	for k := 0; k <= len(t.Steps); k++ {
		end := len(t.Groups)
		if k < len(t.Steps) {
			end = t.Steps[k].Index
		}
		var v []float64
		for _, g := range t.Groups[start:end] {
			v = append(v, values(g.Points)...)
		}
		if len(v) > 0 {
			out = append(out, Level{First: start, Last: end - 1, Median: median(v), Runs: len(v)})
		}
		start = end
	}
	return out
}

// Level is one stretch of a timeline between steps.
type Level struct {
	First, Last int // its groups
	Median      float64
	Runs        int
}

// Band is the noise band around a level: the values one run would take
// within two noises of it.
func (t *Timeline) Band(l Level) (lo, hi float64) {
	return l.Median * math.Exp(-2*t.Noise.Sigma), l.Median * math.Exp(2*t.Noise.Sigma)
}

func parseNumber(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
