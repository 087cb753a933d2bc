package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// noGPU is an availability test without a GPU: every cuda/ implementation
// is unavailable, the others available.
func noGPU(impl string) error {
	if strings.HasPrefix(impl, "cuda/") {
		return fmt.Errorf("%w: %s: no CUDA device (test)", experiments.ErrUnavailable, impl)
	}
	return nil
}

// trace records what toy experiments did, in order.
type trace struct {
	setups map[string]int // by "experiment n=..."
	ran    []string       // "experiment impl n=..." of every cell that ran
	block  map[string]bool
}

func newTrace() *trace { return &trace{setups: map[string]int{}, block: map[string]bool{}} }

// toy is an experiment with one case per work value (params n = work) and
// the given implementations, whose prior is prior[impl] ns per work unit.
// Every implementation returns n at once and passes its check, except one
// named in tr.block, which waits for its context to end.
func toy(tr *trace, name string, impls []string, prior map[string]float64, works ...float64) *experiments.Experiment {
	return &experiments.Experiment{
		// A paper of its own: estimates learnt from one toy's cells never
		// reorder another's (the order tests would depend on timing noise).
		Name: name, Paper: name, Impls: impls, NsPerWork: prior,
		Cases: func(experiments.Scale, experiments.Options) []experiments.Case {
			var cs []experiments.Case
			for _, w := range works {
				p := bench.Params{{Name: "n", Value: fmt.Sprint(w)}}
				cs = append(cs, experiments.Case{Params: p, Work: w,
					Setup: func(context.Context) (*experiments.Instance, error) {
						tr.setups[name+" "+p.String()]++
						return &experiments.Instance{
							Run: func(ctx context.Context, impl string, rec *bench.Recorder) (any, error) {
								tr.ran = append(tr.ran, name+" "+impl+" "+p.String())
								if tr.block[impl] {
									<-ctx.Done()
									return nil, ctx.Err()
								}
								return w, nil
							},
							Check: func(_ string, out any) bench.Check { return bench.Check{OK: out == w, Method: "equal to n"} },
						}, nil
					}})
			}
			return cs
		},
	}
}

// runToys runs the experiments into a fresh file and returns its records.
func runToys(t *testing.T, cfg Config, exps ...*experiments.Experiment) []bench.Record {
	t.Helper()
	return runToysFile(t, cfg, exps...).Records
}

// runToysFile is runToys returning the whole file read back.
func runToysFile(t *testing.T, cfg Config, exps ...*experiments.Experiment) *bench.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.json")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Available == nil {
		cfg.Available = noGPU
	}
	if cfg.Reps == 0 {
		cfg.Reps = 1
	}
	if err := Run(context.Background(), cfg, exps, app); err != nil {
		t.Fatal(err)
	}
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func find(t *testing.T, recs []bench.Record, exp, impl, n string) bench.Record {
	t.Helper()
	for _, r := range recs {
		if r.Experiment == exp && r.Impl == impl && r.Params.String() == "n="+n {
			return r
		}
	}
	t.Fatalf("no record %s %s n=%s", exp, impl, n)
	return bench.Record{}
}

// TestEstimatesSaturate: priors whose estimates overflow float64 or
// time.Duration (the 400 repetitions of a cell estimated at years) are
// skipped at once under a budget, never set up, and their records keep a
// finite positive estimate; without a budget nothing is skipped.
func TestEstimatesSaturate(t *testing.T) {
	for _, c := range []struct {
		name  string
		prior float64
		work  float64
		reps  int
	}{
		{"years", 1e9, 1e9, 400},            // 1e18 ms: beyond time.Duration
		{"overflow", 1e300, 1e300, 1 << 30}, // +Inf in float64
		{"huge-reps", 1e3, 1e3, math.MaxInt32},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTrace()
			e := toy(tr, "toy/a", []string{"cpu/slow"}, map[string]float64{"cpu/slow": c.prior}, c.work)
			recs := runToys(t, Config{Reps: c.reps, Budget: time.Minute}, e)
			r := recs[0]
			if r.Status != bench.StatusSkipped || len(tr.setups) != 0 {
				t.Fatalf("status %s (%s), %d setups: want skipped without setup", r.Status, r.Error, len(tr.setups))
			}
			if !(r.EstimateMS > 0) || math.IsInf(r.EstimateMS, 0) || strings.Contains(r.Error, "-") {
				t.Errorf("estimate %v ms, error %q: want positive and finite", r.EstimateMS, r.Error)
			}
		})
	}
	if d := duration(math.Inf(1)); d != time.Duration(math.MaxInt64) {
		t.Errorf("duration(+Inf) = %d", d)
	}
	if d := duration(math.NaN()); d != time.Duration(math.MaxInt64) {
		t.Errorf("duration(NaN) = %d", d)
	}
	if d := duration(1e300); d <= 0 {
		t.Errorf("duration(1e300 ms) = %d, want saturated positive", d)
	}
	if d := duration(-5); d != 0 {
		t.Errorf("duration(-5 ms) = %d, want 0", d)
	}
}

// TestHeadlinesFirst: every experiment's headline cells (here cpu/fast)
// run before any other cell, each phase cheapest first across
// experiments, and a case is set up at most once per phase.
func TestHeadlinesFirst(t *testing.T) {
	tr := newTrace()
	prior := map[string]float64{"cpu/fast": 1, "cpu/paper": 10}
	a := toy(tr, "toy/a", []string{"cpu/paper", "cpu/fast"}, prior, 4, 1)
	b := toy(tr, "toy/b", []string{"cpu/paper", "cpu/fast"}, prior, 2)
	c := toy(tr, "toy/c", []string{"cpu/paper"}, prior, 3) // no headline implementation
	c.Headline = []string{"cpu/none"}
	runToys(t, Config{}, a, b, c)
	want := []string{
		"toy/a cpu/fast n=1", "toy/b cpu/fast n=2", "toy/a cpu/fast n=4",
		"toy/a cpu/paper n=1", "toy/b cpu/paper n=2", "toy/c cpu/paper n=3", "toy/a cpu/paper n=4",
	}
	if got := strings.Join(tr.ran, ", "); got != strings.Join(want, ", ") {
		t.Errorf("order:\n got %s\nwant %s", got, strings.Join(want, ", "))
	}
	for k, n := range tr.setups {
		if n > 2 {
			t.Errorf("%s set up %d times", k, n)
		}
	}
	if tr.setups["toy/c n=3"] != 1 {
		t.Errorf("toy/c n=3 (cells of one phase only) set up %d times, want 1", tr.setups["toy/c n=3"])
	}
	// The cells of a case within a phase share one Setup.
	tr = newTrace()
	d := toy(tr, "toy/d", []string{"cpu/fast", "cpu/paper", "cpu/other"}, prior, 1, 2)
	d.Headline = []string{"cpu/*"}
	runToys(t, Config{}, d)
	if tr.setups["toy/d n=1"] != 1 || tr.setups["toy/d n=2"] != 1 || len(tr.ran) != 6 {
		t.Errorf("setups %v, %d cells ran: want one setup per case and 6 cells", tr.setups, len(tr.ran))
	}
}

// TestGPUHeadlinesFirst: on a machine with a GPU its headline cells run
// before the CPU's headline cells, however much cheaper those are, so that
// the CPU's cannot spend the budget the GPU's headline needs.
func TestGPUHeadlinesFirst(t *testing.T) {
	tr := newTrace()
	prior := map[string]float64{"cuda/fast": 1e6, "cpu/fast": 1, "cpu/paper": 10}
	e := toy(tr, "toy/gpu", []string{"cpu/paper", "cpu/fast", "cuda/fast"}, prior, 2, 1)
	all := func(string) error { return nil }
	runToys(t, Config{Available: all}, e)
	want := []string{
		"toy/gpu cuda/fast n=1", "toy/gpu cuda/fast n=2", "toy/gpu cpu/fast n=1", "toy/gpu cpu/fast n=2",
		"toy/gpu cpu/paper n=1", "toy/gpu cpu/paper n=2",
	}
	if got := strings.Join(tr.ran, ", "); got != strings.Join(want, ", ") {
		t.Errorf("order:\n got %s\nwant %s", got, strings.Join(want, ", "))
	}
	for k, n := range tr.setups {
		if n > tierRest+1 {
			t.Errorf("%s set up %d times, want at most once per tier", k, n)
		}
	}
}

// TestUnusedTimeFlows: the budget is one pool. An experiment listed first
// whose one cell is estimated at 60% of the budget runs (an even share per
// experiment would have given it 50%), while a cell estimated beyond the
// whole budget is skipped with its estimate.
func TestUnusedTimeFlows(t *testing.T) {
	tr := newTrace()
	budget := 10 * time.Second
	big := toy(tr, "toy/big", []string{"cpu/fast"}, map[string]float64{"cpu/fast": 6e9}, 1) // 6 s prior, runs at once
	small := toy(tr, "toy/small", []string{"cpu/fast", "cpu/huge"}, map[string]float64{"cpu/fast": 1, "cpu/huge": 20e9}, 1)
	recs := runToys(t, Config{Budget: budget, Warmup: -1}, big, small)
	if r := find(t, recs, "toy/big", "cpu/fast", "1"); r.Status != bench.StatusOK {
		t.Errorf("toy/big: %s %q, want ok", r.Status, r.Error)
	}
	r := find(t, recs, "toy/small", "cpu/huge", "1")
	if r.Status != bench.StatusSkipped || r.EstimateMS != 20e3 || !strings.Contains(r.Error, "left of the 10s budget") {
		t.Errorf("toy/small cpu/huge: %s, estimate %v ms, %q; want skipped, 20000 ms", r.Status, r.EstimateMS, r.Error)
	}
}

// TestUnavailableBeforeBudget: a cell that cannot run here is recorded
// unavailable however large its estimate, never skipped, never set up.
func TestUnavailableBeforeBudget(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/gpu", []string{"cuda/fast", "cpu/fast"}, map[string]float64{"cuda/fast": 1e12, "cpu/fast": 1e12}, 5)
	recs := runToys(t, Config{Budget: time.Second}, e)
	if r := find(t, recs, "toy/gpu", "cuda/fast", "5"); r.Status != bench.StatusUnavailable || !strings.Contains(r.Error, "no CUDA device") {
		t.Errorf("cuda/fast: %s %q, want unavailable", r.Status, r.Error)
	}
	if r := find(t, recs, "toy/gpu", "cpu/fast", "5"); r.Status != bench.StatusSkipped {
		t.Errorf("cpu/fast: %s, want skipped", r.Status)
	}
	if len(tr.setups) != 0 {
		t.Errorf("setups %v, want none", tr.setups)
	}
}

// TestETACountsTheBudget: with a budget, no progress line shows an ETA
// beyond it, however large the estimates of the cells left.
func TestETACountsTheBudget(t *testing.T) {
	tr := newTrace()
	e := toy(tr, "toy/eta", []string{"cpu/fast", "cpu/slow"}, map[string]float64{"cpu/slow": 1e18}, 1, 2, 3)
	var progress strings.Builder
	runToys(t, Config{Budget: time.Minute, Progress: &progress, Terminal: true}, e)
	etas := regexp.MustCompile(`ETA (\S+)`).FindAllStringSubmatch(progress.String(), -1)
	if len(etas) == 0 {
		t.Fatalf("no ETA in %q", progress.String())
	}
	for _, m := range etas {
		d, err := time.ParseDuration(m[1])
		if err != nil || d > time.Minute {
			t.Errorf("ETA %s (%v): want at most the 1m budget", m[1], err)
		}
	}
	// The meter alone: an estimate of centuries shows the budget left.
	now := time.Now()
	m := &meter{start: now.Add(-20 * time.Second), budget: time.Minute, since: now, left: duration(1e15)}
	if eta := m.eta(now); eta != 40*time.Second {
		t.Errorf("meter ETA %s, want the 40s of budget left", eta)
	}
	m.budget = 0
	if eta := m.eta(now); eta != duration(1e15) {
		t.Errorf("meter ETA without budget %s, want the estimate", eta)
	}
}

// TestBudgetStopsARunningCell: a cell still running when the budget ends
// is stopped and recorded skipped; the cells after it are skipped, and the
// run ends without error.
func TestBudgetStopsARunningCell(t *testing.T) {
	tr := newTrace()
	tr.block["cpu/fast"] = true
	e := toy(tr, "toy/stop", []string{"cpu/fast", "cpu/paper"}, nil, 1)
	f := runToysFile(t, Config{Budget: 100 * time.Millisecond}, e)
	recs := f.Records
	// The stopped measurement is noted as lost, not left to the harness.
	if lost := experiments.LostOf(f.Notes); lost <= 0 || !slices.ContainsFunc(f.Notes, func(n string) bool { return strings.Contains(n, "toy/stop cpu/fast n=1") }) {
		t.Errorf("notes %q: want the stopped cpu/fast's measurement noted as lost", f.Notes)
	}
	if r := find(t, recs, "toy/stop", "cpu/fast", "1"); r.Status != bench.StatusSkipped || !strings.Contains(r.Error, "stopped at the end of the 100ms budget") {
		t.Errorf("cpu/fast: %s %q, want skipped at the budget's end", r.Status, r.Error)
	}
	if r := find(t, recs, "toy/stop", "cpu/paper", "1"); r.Status != bench.StatusSkipped || !strings.Contains(r.Error, "budget is spent") {
		t.Errorf("cpu/paper: %s %q, want skipped, budget spent", r.Status, r.Error)
	} else if r.Basis == "" {
		t.Errorf("cpu/paper skipped for time with no basis for its estimate of %g ms: want one, so that its claim can say it", r.EstimateMS)
	}
}

// TestInterruptIsAnError: cancelling Run's context while a cell runs
// returns the cancellation (not a budget skip) and keeps the records
// finished before it.
func TestInterruptIsAnError(t *testing.T) {
	tr := newTrace()
	tr.block["cpu/paper"] = true
	e := toy(tr, "toy/int", []string{"cpu/fast", "cpu/paper"}, map[string]float64{"cpu/paper": 10}, 1)
	path := filepath.Join(t.TempDir(), "run.json")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.Build{Version: "test"}, Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: "quick", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err = Run(ctx, Config{Reps: 1, Budget: time.Hour, Available: noGPU}, []*experiments.Experiment{e}, app)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
	if recs := app.File().Records; len(recs) != 1 || recs[0].Impl != "cpu/fast" {
		t.Errorf("records %+v, want the finished cpu/fast cell only", recs)
	}
}

// TestLongCellRunsOnce: a cell whose one run is estimated beyond LongRun is
// run once without warm-up and says so; a short one keeps the protocol; a
// negative LongRun never shortens.
func TestLongCellRunsOnce(t *testing.T) {
	prior := map[string]float64{"cpu/slow": 1e9, "cpu/fast": 1} // 1 s and 1 ns per work unit
	for _, c := range []struct {
		long     time.Duration
		wantSlow int
	}{{500 * time.Millisecond, 1}, {-1, 3}} {
		e := toy(newTrace(), "toy/long", []string{"cpu/slow", "cpu/fast"}, prior, 1)
		recs := runToys(t, Config{Reps: 3, Warmup: 1, LongRun: c.long}, e)
		slow, fast := find(t, recs, "toy/long", "cpu/slow", "1"), find(t, recs, "toy/long", "cpu/fast", "1")
		if got := len(slow.Phase(bench.TotalPhase).SamplesMS); got != c.wantSlow {
			t.Errorf("LongRun %v: slow cell has %d samples, want %d", c.long, got, c.wantSlow)
		}
		if (c.wantSlow == 1) != strings.Contains(slow.Note, "one run without warm-up") {
			t.Errorf("LongRun %v: slow cell's note %q", c.long, slow.Note)
		}
		if got := len(fast.Phase(bench.TotalPhase).SamplesMS); got != 3 || fast.Note != "" {
			t.Errorf("LongRun %v: fast cell has %d samples and note %q, want 3 and none", c.long, got, fast.Note)
		}
	}
}

// TestMeasuredByIsNotMeasuredTwice: an experiment rendered from another's
// cells measures nothing when that one is in the run, and measures its own
// cells when run alone.
func TestMeasuredByIsNotMeasuredTwice(t *testing.T) {
	a := toy(newTrace(), "toy/a", []string{"cpu/fast"}, nil, 1, 2)
	b := toy(newTrace(), "toy/b", []string{"cpu/fast"}, nil, 1, 2)
	b.MeasuredBy = "toy/a"
	for _, r := range runToys(t, Config{}, a, b) {
		if r.Experiment == "toy/b" {
			t.Fatalf("toy/b measured beside toy/a: %s", r.Key())
		}
	}
	if recs := runToys(t, Config{}, b); len(recs) != 2 {
		t.Fatalf("toy/b alone: %d records, want 2", len(recs))
	}
}

// TestWhere: only the cases whose parameters match are set up and run, and
// only they are recorded.
func TestWhere(t *testing.T) {
	tr := newTrace()
	exp := toy(tr, "w", []string{"cpu/a"}, map[string]float64{"cpu/a": 1}, 1, 2, 3)
	w, err := ParseWhere("n=1|3")
	if err != nil {
		t.Fatal(err)
	}
	recs := runToys(t, Config{Where: w}, exp)
	var got []string
	for _, r := range recs {
		got = append(got, r.Params.Get("n"))
	}
	if len(got) != 2 || !slices.Contains(got, "1") || !slices.Contains(got, "3") {
		t.Fatalf("records of n = %v, want 1 and 3", got)
	}
	if tr.setups["w n=2"] != 0 || len(tr.ran) != 2 { // one timed run each, no warm-up
		t.Fatalf("set up %v, ran %v", tr.setups, tr.ran)
	}
}
