package runner

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/experiments/papers"
)

// filePast is a Past over result files, the newest first.
type filePast map[string][]bench.Record

func newFilePast(files []*bench.File) filePast {
	p := filePast{}
	slices.SortFunc(files, func(a, b *bench.File) int { return b.Started.Compare(a.Started) })
	for _, f := range files {
		for _, r := range f.Records {
			p[r.Key()] = append(p[r.Key()], r)
		}
	}
	return p
}

func (p filePast) Records(key string) []bench.Record   { return p[key] }
func (p filePast) Between(string) *experiments.Between { return nil }

// wallAccuracy is how a run's records compare with their estimates:
// those whose wall is 50 ms or more, how many lie within 3x, the worst.
type wallAccuracy struct {
	over, within int
	worst        float64
	worstCell    string
	beyond10     int
	outliers     []string // the measurements beyond 3x
}

func (a *wallAccuracy) add(key string, est, wall float64) {
	if wall < 50 {
		return
	}
	a.over++
	f := math.Max(est/wall, wall/est)
	if est <= 0 {
		f = math.Inf(1)
	}
	if f <= 3 {
		a.within++
	} else {
		a.outliers = append(a.outliers, fmt.Sprintf("%.1fx %s: %.0f ms estimated, %.0f ms taken", f, key, est, wall))
	}
	if f > 10 {
		a.beyond10++
	}
	if f > a.worst {
		a.worst, a.worstCell = f, fmt.Sprintf("%s: %.0f ms estimated, %.0f ms taken", key, est, wall)
	}
}

func (a wallAccuracy) String() string {
	return fmt.Sprintf("%d of %d within 3x (%.0f%%), worst %.1fx (%s)", a.within, a.over, 100*float64(a.within)/float64(max(1, a.over)), a.worst, a.worstCell)
}

// replayWall estimates, in order, every measurement of the run f as the
// runner's wall model would before it ran, from past (the other runs of
// its machine kind) and from the models fitted to f's measurements before
// it; each measurement's runs and whether it set its case up are read
// from the record (the plan's order decides those), its estimate is
// compared with its wall (a topped-up record's: its earlier estimate plus
// the top-up's, against their sum).
func replayWall(f *bench.File, cases map[string]*experiments.Case, past Past) wallAccuracy {
	return replayWallAs(f, cases, past, replay{})
}

// replay says what a replay models beyond replayWall's.
type replay struct {
	// noLooks compares each estimate with the wall less the settle
	// rule's looks (LooksMS), which the replay does not price (the runner
	// prices a look by the claims it judges: lookMS).
	noLooks bool
	// kernels replays the run as one that loaded its kernels before the
	// first cell (Config.Kernels): no cell's estimate counts a load, and
	// the first cell of each CUDA implementation of each paper (loadKey)
	// is compared less its first run's excess over its other runs, the
	// load (and, on a fresh machine, the compile) it paid.
	kernels bool
	// preloaded: the run did load its kernels first (its file's note
	// says so), so that its walls hold no load to take out.
	preloaded bool
}

// replayWallAs is replayWall as rp says.
func replayWallAs(f *bench.File, cases map[string]*experiments.Case, past Past, rp replay) wallAccuracy {
	est := newEstimator()
	w := newWallModel(past, func(e *experiments.Experiment, impl string, cs *experiments.Case) (float64, string) {
		return est.explain(e, impl, cs)
	})
	w.kernels = rp.kernels
	loaded := map[string]bool{}
	cells := map[string]*cell{}
	byInput, byImpl := map[string][]*cell{}, map[string][]*cell{}
	cellOf := func(r *bench.Record) *cell {
		if c := cells[r.Key()]; c != nil {
			return c
		}
		e := experiments.ByName(r.Experiment)
		if e == nil {
			paper, _, _ := strings.Cut(r.Experiment, "/")
			e = &experiments.Experiment{Name: r.Experiment, Paper: paper}
		}
		cs := cases[r.Experiment+"|"+r.Params.String()]
		if cs == nil {
			cs = &experiments.Case{Params: r.Params}
		}
		c := &cell{exp: e, cs: cs, impl: r.Impl, key: r.Key()}
		cells[r.Key()] = c
		byInput[inputKey(c)] = append(byInput[inputKey(c)], c)
		byImpl[loadKey(c)] = append(byImpl[loadKey(c)], c)
		return c
	}
	for i := range f.Records {
		cellOf(&f.Records[i])
	}
	w.byImpl = byImpl
	var acc wallAccuracy
	prev := map[string]*bench.Record{}
	estimated := map[string]float64{}
	for i := range f.Records {
		r := &f.Records[i]
		c := cellOf(r)
		if r.ReusedFrom != "" && r.Wall.MeasureMS == 0 {
			continue // an alias's copy
		}
		// This measurement's own wall: a topped-up record's less its
		// earlier record's.
		own := *r.Wall
		warmups := len(r.WarmupMS)
		samples := len(experiments.SamplesOf(r, bench.TotalPhase))
		if p := prev[r.Key()]; p != nil && p.Wall != nil {
			own.SetupMS -= p.Wall.SetupMS
			own.MeasureMS -= p.Wall.MeasureMS
			own.CheckMS -= p.Wall.CheckMS
			warmups -= len(p.WarmupMS)
			samples -= len(experiments.SamplesOf(p, bench.TotalPhase))
		}
		if p := prev[r.Key()]; p != nil && p.Wall != nil {
			own.LooksMS -= p.Wall.LooksMS
		}
		own.Runs = warmups + samples
		pl := wallPlan{runs: own.Runs, setup: own.SetupMS > 0, check: true, siblngs: byInput[inputKey(c)], implCells: byImpl[loadKey(c)],
			load: w.willLoad(c)}
		c.cs.ReadsShared = func(string) bool { return r.ReusedFrom != "" } // what the case would say before the run
		ms, _ := w.estimate(c, pl)
		total := ms + estimated[r.Key()]
		estimated[r.Key()] = total
		took := r.Wall.SetupMS + r.Wall.MeasureMS + r.Wall.CheckMS
		if rp.noLooks {
			took -= r.Wall.LooksMS
		}
		if rp.kernels && !rp.preloaded && strings.HasPrefix(c.impl, "cuda/") && !loaded[loadKey(c)] {
			loaded[loadKey(c)] = true
			if p, ok := partsOf(r); ok {
				took -= p.first
			}
		}
		acc.add(r.Key(), total, took)
		cold := !w.inputs[inputKey(c)]
		if own.SetupMS > 0 {
			w.inputs[inputKey(c)] = true
		}
		timed := 0.0
		switch s := experiments.SamplesOf(r, bench.TotalPhase); {
		case len(s) == 0:
		case r.ReusedFrom == "":
			timed = bench.Median(s)
			est.observe(c.exp, c.impl, c.cs, timed)
		default:
			est.observeReads(c.exp, c.impl, c.cs, bench.Median(s))
		}
		if own.MeasureMS > 0 && own.Runs > 0 {
			w.observe(c, &own, warmups, timed, cold, byInput[inputKey(c)])
		}
		prev[r.Key()] = r
	}
	return acc
}

// TestWallReplay replays the committed reproduces (testdata/wall, trimmed
// copies: testdata/README.md) through the wall model: each run estimated
// from the other runs of its machine kind as Past, from the runs before
// it, and without history. From the other runs, at least 90% of each
// run's measurements of 50 ms or more must lie within 3x of their
// estimate (the log gives each share and the worst).
func TestWallReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 20 runs")
	}
	papers.Register()
	paths, err := filepath.Glob(filepath.Join("testdata", "wall", "*.jsonl.gz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	kinds := map[string][]string{}
	for _, p := range paths {
		kind, _, _ := strings.Cut(filepath.Base(p), "-")
		kinds[kind] = append(kinds[kind], p)
	}
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, kind := range names {
		files := map[string]*bench.File{}
		cases := map[string]map[string]*experiments.Case{}
		for _, p := range kinds[kind] {
			files[p], cases[p] = experimentstest.FileCases(t, p)
		}
		for _, p := range kinds[kind] {
			var others, earlier []*bench.File
			for q, f := range files {
				if q != p {
					others = append(others, f)
				}
				if f.Started.Before(files[p].Started) {
					earlier = append(earlier, f)
				}
			}
			with := replayWall(files[p], cases[p], newFilePast(others))
			var before wallAccuracy
			if len(earlier) > 0 {
				before = replayWall(files[p], cases[p], newFilePast(earlier))
			}
			alone := replayWall(files[p], cases[p], nil)
			t.Logf("%s\n  the other runs as history: %s\n  the earlier runs (%d): %s\n  alone: %s", filepath.Base(p), with, len(earlier), before, alone)
			if with.within*10 < with.over*9 {
				t.Errorf("%s, the other runs as history: %s; want 90%% within 3x", filepath.Base(p), with)
			}
		}
	}
}

// readPast reads a history fixture: a result file whose records are the
// earlier runs' records of each cell, a cell's newest run first (as
// Past.Records gives them).
func readPast(t *testing.T, path string) filePast {
	t.Helper()
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := filePast{}
	for _, r := range f.Records {
		p[r.Key()] = append(p[r.Key()], r)
	}
	return p
}

// TestWallReplayCurrent replays the runs of 9b86b0f and b3c9c15
// (testdata/wall/9b86b0f and b3c9c15: each commit's 2-core make
// reproduce, and two reproduces of one lease, on the H200 and the H100,
// each trimmed, with the history of its machine kind before it: the
// newest three runs of each cell that measured it) through the wall model,
// each measurement's runs and setup read from its record. At least 90% of
// each run's measurements of 50 ms or more must lie within 3x of their
// estimate, and none beyond 10x. What the replay does not model: the
// number of samples the settle rule takes and the order of the cells
// (both read from the records), the looks (each wall is compared less
// its looks), and the run's store (a cell read shared work where its
// record says so).
func TestWallReplayCurrent(t *testing.T) {
	papers.Register() // 0.3 s: CI runs it
	for _, run := range []struct{ commit, file, past string }{
		{"9b86b0f", "2core.jsonl.gz", "2core-past.jsonl.gz"},
		{"9b86b0f", "h200-r1.jsonl.gz", "h200-past.jsonl.gz"},
		{"9b86b0f", "h200-r2.jsonl.gz", "h200-past.jsonl.gz"},
		{"b3c9c15", "2core.jsonl.gz", "2core-past.jsonl.gz"},
		{"b3c9c15", "h100-r1.jsonl.gz", "h100-past.jsonl.gz"},
		{"b3c9c15", "h100-r2.jsonl.gz", "h100-past.jsonl.gz"},
	} {
		dir := filepath.Join("testdata", "wall", run.commit)
		f, cases := experimentstest.FileCases(t, filepath.Join(dir, run.file))
		// The GPU runs are priced as loading their kernels before the
		// first cell; b3c9c15's did (9b86b0f's paid each load in a cell).
		gpu := !strings.HasPrefix(run.file, "2core")
		acc := replayWallAs(f, cases, readPast(t, filepath.Join(dir, run.past)), replay{noLooks: true, kernels: gpu, preloaded: gpu && run.commit == "b3c9c15"})
		name := run.commit + "/" + run.file
		t.Logf("%s with its history: %s; %d beyond 10x", name, acc, acc.beyond10)
		if acc.within*10 < acc.over*9 || acc.beyond10 > 0 {
			t.Errorf("%s: %s, %d beyond 10x; want 90%% within 3x and none beyond 10x", name, acc, acc.beyond10)
		}
		if testing.Verbose() {
			for _, o := range acc.outliers {
				t.Logf("  %s", o)
			}
		}
	}
}

// TestWallPastOfTheSource: a cell whose history only read its work from
// another cell is priced, where it computes the work itself, by that
// cell's history (2-domination's Table 3 at m = 10 on two cores read the
// powers domination/formula's cell computed in 168 s), and where it reads
// again, by its own reads.
func TestWallPastOfTheSource(t *testing.T) {
	papers.Register()
	path := filepath.Join("testdata", "wall", "9b86b0f", "2core.jsonl.gz")
	_, cases := experimentstest.FileCases(t, path)
	w := newWallModel(readPast(t, path), func(*experiments.Experiment, string, *experiments.Case) (float64, string) { return 1, "" })
	cs := *cases["domination/table3|m=10"]
	for _, reads := range []bool{false, true} {
		cs.ReadsShared = func(string) bool { return reads }
		c := &cell{exp: experiments.ByName("domination/table3"), cs: &cs, impl: "cpu/sparse", key: "domination/table3|cpu/sparse|m=10"}
		pc := w.pastOf(c)
		if pc == nil {
			t.Fatalf("reads %v: no history", reads)
		}
		if want := map[bool]string{false: "domination/formula|cpu/sparse|m=10"}[reads]; pc.source != want {
			t.Errorf("reads %v: history of %q, want %q", reads, pc.source, want)
		}
		if reads && pc.perRun > 100 || !reads && pc.perRun < 100e3 {
			t.Errorf("reads %v: a run priced at %.1f ms; want its reads' (under 100 ms) when it reads, the formula cell's (168 s) when it computes", reads, pc.perRun)
		}
	}
	c := &cell{exp: experiments.ByName("domination/table1"), cs: cases["domination/table1|m=10"], impl: "cpu/paper", key: "domination/table1|cpu/paper|m=10"}
	if pc := w.pastOf(c); pc == nil || pc.perRun > 10e3 {
		t.Errorf("a cell with history of its own: %+v, want its own", pc)
	}
}

// toyExp is a toy experiment, for the wall model's unit tests.
func toyExp(impl string) *experiments.Experiment {
	return &experiments.Experiment{Name: "toy/x", Paper: "toy", NsPerWork: map[string]float64{impl: 1}}
}

// toyCell is c's cell at m of the toy experiment e: work 10^m.
func toyCell(e *experiments.Experiment, impl string, m int) *cell {
	cs := &experiments.Case{Params: bench.Params{{Name: "m", Value: fmt.Sprint(m)}}, Work: math.Pow(10, float64(m))}
	c := &cell{exp: e, cs: cs, impl: impl}
	r := bench.Record{Experiment: e.Name, Impl: impl, Params: cs.Params}
	c.key = r.Key()
	return c
}

// toyRecord is a measured record of c: a warm-up and five samples of ms
// each, the first run firstMS.
func toyRecord(c *cell, ms, firstMS float64) bench.Record {
	return bench.Record{Experiment: c.exp.Name, Impl: c.impl, Params: c.cs.Params, Status: bench.StatusOK,
		Phases:   []bench.Phase{{Name: bench.TotalPhase, SamplesMS: []float64{ms, ms, ms, ms, ms}}},
		WarmupMS: []float64{firstMS},
		Wall:     &bench.CellWall{MeasureMS: firstMS + 5*ms, FirstRunMS: firstMS, Runs: 6}}
}

// TestWallPastLoadPreloaded: a CUDA cell whose history's first runs each
// loaded its module (2 s) is not charged the load in a run that loaded
// the kernels first, and still is in one that did not; a first-run
// excess below minLoadMS is charged either way, and a CPU cell's always.
func TestWallPastLoadPreloaded(t *testing.T) {
	for _, tc := range []struct {
		impl          string
		firstMS       float64
		kernels, load bool
	}{
		{"cuda/x", 2010, false, true},
		{"cuda/x", 2010, true, false},
		{"cuda/x", 40, true, true},
		{"cpu/x", 2010, true, true},
	} {
		c := toyCell(toyExp(tc.impl), tc.impl, 3)
		w := newWallModel(filePast{c.key: {toyRecord(c, 10, tc.firstMS), toyRecord(c, 10, tc.firstMS)}}, nil)
		w.kernels = tc.kernels
		ms, own := w.estimate(c, wallPlan{runs: 6})
		excess := tc.firstMS - 10
		if !own || tc.load && math.Abs(ms-(60+excess)) > 1 || !tc.load && math.Abs(ms-60) > 1 {
			t.Errorf("%s, first run %.0f ms, kernels loaded first %v: %.0f ms (own history %v); want 60 ms of runs and the first run's excess %v", tc.impl, tc.firstMS, tc.kernels, ms, own, tc.load)
		}
	}
}

// TestWallKinHistory: a cell without history of its own, while no cell
// of its experiment and implementation has run, is priced from the
// history of the plan's other cells of them, scaled by the work
// (2-domination's formula at m = 5 on the H100, from m = 2-4); once one
// has run, by the estimator.
func TestWallKinHistory(t *testing.T) {
	e := toyExp("cpu/x")
	past := filePast{}
	var cells []*cell
	for m := 2; m <= 5; m++ {
		c := toyCell(e, "cpu/x", m)
		cells = append(cells, c)
		if m < 5 { // 1 ms at m = 2, 10 at m = 3, 100 at m = 4: time ∝ work
			past[c.key] = []bench.Record{toyRecord(c, math.Pow(10, float64(m-2)), 0)}
		}
	}
	w := newWallModel(past, func(*experiments.Experiment, string, *experiments.Case) (float64, string) { return 0.5, "the prior" })
	w.byImpl = map[string][]*cell{loadKey(cells[0]): cells}
	c := cells[3]
	if ms, basis := w.timedOf(c); math.Abs(ms-1000) > 1 || !strings.Contains(basis, "from m=4") || !strings.Contains(basis, "history") {
		t.Errorf("m=5 without history: %.3g ms (%s); want 1000 ms from m=4's history", ms, basis)
	}
	if rw := w.runWall(c); rw < 999 {
		t.Errorf("m=5's run with its wall: %.3g ms; want at least its timed run, 1000 ms", rw)
	}
	w.observe(cells[0], &bench.CellWall{MeasureMS: 12, Runs: 6}, 1, 2, false, nil)
	if ms, basis := w.timedOf(c); ms != 0.5 {
		t.Errorf("m=5 once m=2 has run: %.3g ms (%s); want the estimator's", ms, basis)
	}
}

// TestWallPastWithoutWall: a cell whose earlier runs' records have no
// wall (older files) is priced by their timed medians: on two cores
// 2-domination's Table 2 by cpu/sparse at m = 10 (17.9 s and 93.8 s a
// run, testdata/wall/b3c9c15/2core-past). A run with a wall is the
// history where there is one.
func TestWallPastWithoutWall(t *testing.T) {
	papers.Register()
	dir := filepath.Join("testdata", "wall", "b3c9c15")
	_, cases := experimentstest.FileCases(t, filepath.Join(dir, "2core.jsonl.gz"))
	w := newWallModel(readPast(t, filepath.Join(dir, "2core-past.jsonl.gz")), nil)
	c := &cell{exp: experiments.ByName("domination/table2"), cs: cases["domination/table2|m=10"], impl: "cpu/sparse", key: "domination/table2|cpu/sparse|m=10"}
	if c.cs == nil {
		t.Fatal("no case domination/table2|m=10 in the 2-core run")
	}
	pc := w.pastOf(c)
	if pc == nil || pc.runs != 2 || math.Abs(pc.perRun-55852) > 10 || pc.timed != pc.perRun {
		t.Fatalf("history %+v; want 2 runs, a run of 55.9 s (the median of 17.9 s and 93.8 s)", pc)
	}
	if ms, _ := w.estimate(c, wallPlan{runs: 1}); ms < pc.perRun {
		t.Errorf("one run priced at %.0f ms; want its history's, %.0f ms", ms, pc.perRun)
	}
	toy := toyCell(toyExp("cpu/x"), "cpu/x", 3)
	old := toyRecord(toy, 50, 50)
	old.Wall = nil
	for _, tc := range []struct {
		recs []bench.Record
		want float64
	}{
		{[]bench.Record{old}, 50},
		{[]bench.Record{toyRecord(toy, 10, 10), old}, 10},
	} {
		if pc := digest(tc.recs, false); pc == nil || math.Abs(pc.perRun-tc.want) > 0.01 {
			t.Errorf("%d run(s), the newest with a wall %v: %+v; want a run of %.0f ms", len(tc.recs), tc.recs[0].Wall != nil, pc, tc.want)
		}
	}
}

// TestWallLookGrowsSlowly: a look at a claim of many cells is priced from
// the measured looks by the cost model fitted to them, not by a median
// per cell of the run's looks (which priced the looks after
// treefix/accuracy's last cuda/parallel cell at about 0.3 s each on the
// H100 of b3c9c15; the one it took cost 42 ms).
func TestWallLookGrowsSlowly(t *testing.T) {
	w := newWallModel(nil, nil)
	if got := w.lookMS(10); got != 10*defaultLookPerCellMS {
		t.Errorf("before any look: %.3g ms for 10 cells, want the prior's %.3g", got, 10*defaultLookPerCellMS)
	}
	for _, l := range []struct {
		cells int
		ms    float64
	}{{4, 4}, {10, 6}, {40, 15}} {
		w.lookedAt(l.cells, l.ms)
	}
	got := w.lookMS(870)
	if got < 15 || got > 150 {
		t.Errorf("a look over 870 cells priced at %.3g ms from looks of 4-40 cells (4-15 ms); want 15-150 ms", got)
	}
	if near := w.lookMS(40); math.Abs(near-15) > 1e-9 {
		t.Errorf("a look over 40 cells priced at %.3g ms, want the 15 ms measured", near)
	}
}

// TestExtrapolatedCell: a cell without history of its own whose work
// exceeds every cell of its kind that has history or was measured in
// this run is priced by extrapolation (UnprovenMargin applies); a smaller
// one, one with history of its own, and one whose kind nothing has
// measured (its prior alone) are not.
func TestExtrapolatedCell(t *testing.T) {
	e := toyExp("cpu/paper")
	c8, c9, c10 := toyCell(e, "cpu/paper", 8), toyCell(e, "cpu/paper", 9), toyCell(e, "cpu/paper", 10)
	past := func(cs ...*cell) filePast {
		p := filePast{}
		for _, c := range cs {
			r := toyRecord(c, 1000, 1000)
			r.Finished = time.Unix(1, 0)
			p[c.key] = []bench.Record{r}
		}
		return p
	}
	price := func(p filePast) *pricer {
		pr := newPricer(&Config{Reps: 1, Past: p}, newBudget(time.Minute, 0, time.Now()), newAAPairs(), &hand{})
		pr.setPlan(&plan{cells: []*cell{c8, c9, c10}})
		return pr
	}
	p := price(past(c9))
	if !p.extrapolated(c10) {
		t.Errorf("m = 10 beyond m = 9's history: not extrapolated, want extrapolated")
	}
	if p.extrapolated(c8) || p.extrapolated(c9) {
		t.Errorf("m = 8 below m = 9's history, m = 9 with its own: extrapolated %v, %v; want neither", p.extrapolated(c8), p.extrapolated(c9))
	}
	if price(past(c9, c10)).extrapolated(c10) {
		t.Errorf("m = 10 with history of its own: extrapolated, want not")
	}
	if price(past()).extrapolated(c10) {
		t.Errorf("nothing of its kind measured (its prior alone): extrapolated, want not")
	}
	c9.measured = true
	if !price(past()).extrapolated(c10) {
		t.Errorf("m = 10 beyond m = 9 measured in this run: not extrapolated, want extrapolated")
	}
}
