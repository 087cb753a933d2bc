package runner

// Long one-core cells side by side. The papers' sequential programs (the
// CPU Hungarian at n = 8192, the Kleene CPU program at n = 4000,
// 2-domination's sequential versions at m = 7) run for half a minute each
// on one core while the machine's other cores wait: on the H100's host
// six of them took 157 s of a 7-minute run, one after another. A budgeted
// run on a machine of many cores measures them at once instead, each on a
// core of its own, before the claims at the papers' sizes: one
// implementation counts as one-core when every cell of it this run
// measured for 100 ms or more kept at most oneCoreMax cores busy (the
// process's CPU time over the measurement's wall time), so nothing is
// declared and a parallel implementation never joins. The cells share the
// machine's memory and caches while they run; each record's note says so
// and names how many ran beside it, so that a reader can set it apart.

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/sysmem"
)

// oneCoreMax is the most cores (CPU time over wall time) a cell of a
// one-core implementation keeps busy: one, plus the Go runtime's own
// threads (its garbage collector, timers).
const oneCoreMax = 1.25

// oneCoreMinMS is the shortest measurement whose cores count: shorter
// ones are the runtime's start-up more than the implementation's.
const oneCoreMinMS = 100

// coreUse is, per implementation of a paper's problem, the most cores a
// cell of it kept busy this run (0: none measured long enough).
type coreUse map[[2]string]float64

// observe adds a cell of c's implementation that used cpuMS of CPU time
// in wallMS.
func (u coreUse) observe(c *cell, cpuMS, wallMS float64) {
	if cpuMS <= 0 || wallMS < oneCoreMinMS {
		return
	}
	k := [2]string{c.exp.Paper, c.impl}
	u[k] = max(u[k], cpuMS/wallMS)
}

// oneCore reports whether the cells of c's implementation (its paper's:
// cpu/paper is a program of each paper) measured so far used one core.
func (u coreUse) oneCore(c *cell) bool {
	k, ok := u[[2]string{c.exp.Paper, c.impl}]
	return ok && k > 0 && k <= oneCoreMax
}

// sideSlots is how many one-core cells run at once: half the machine's
// cores, so that the memory bandwidth each sees stays near what it has
// alone; below 2 none run side by side. (A variable for the tests.)
var sideSlots = func() int { return runtime.NumCPU() / 2 }

// sideShare: the cells side by side take at most a sideShare-th of the
// budget left, so that they never crowd out the cheaper claims, which
// would run first one after another.
const sideShare = 4

// sideBySide picks the long cells of one-core CPU implementations among
// the claims' cells at level lv whose claims the budget left can pay for,
// the longest first, as many as half the free memory and a sideShare-th
// of the budget left allow.
func (r *run) sideBySide(lv int, slots int) []*cell {
	if !r.settling || slots < 2 {
		return nil
	}
	var cells []*cell
	for _, cp := range r.plan.claims {
		level := cp.levels[lv]
		if level == nil || r.claimCost(level) > r.left() {
			continue
		}
		for _, c := range level {
			if c.done || c.unavailable != nil || slices.Contains(cells, c) || strings.HasPrefix(c.impl, "cuda/") ||
				c.cs.ReadsShared != nil || !r.long(c) || !r.cores.oneCore(c) {
				continue
			}
			cells = append(cells, c)
		}
	}
	slices.SortStableFunc(cells, func(a, b *cell) int { return cmpFloat(r.estimate(b), r.estimate(a)) })
	free := sysmem.Free()
	var out []*cell
	var host uint64
	for _, c := range cells {
		need := c.cs.HostBytes
		if c.cs.Memory != nil {
			need, _ = c.cs.Memory(c.impl)
		}
		if free > 0 && host+need > free/2 {
			continue
		}
		if makespan(r, append(slices.Clone(out), c), slots) > r.left()/sideShare {
			continue
		}
		out = append(out, c)
		host += need
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// makespan is the estimated wall time of cells (the longest first) run
// slots at a time, each starting when a slot frees.
func makespan(r *run, cells []*cell, slots int) float64 {
	ends := make([]float64, slots)
	for _, c := range cells {
		i := slices.Index(ends, slices.Min(ends))
		ends[i] += r.estimate(c)
	}
	return slices.Max(ends)
}

// runSideBySide measures the cells sideBySide picks at once, one run
// each: their cases set up first, one after another, then every run
// started (a slot at a time when there are more cells than slots), then
// each output checked, again one after another, and the records
// appended in the order of the cells.
func (r *run) runSideBySide(lv int) error {
	slots := sideSlots()
	cells := r.sideBySide(lv, slots)
	if len(cells) == 0 {
		return nil
	}
	r.release()
	var sides []*side
	defer func() {
		for _, s := range sides {
			if s.inst != nil && s.inst.Release != nil {
				s.inst.Release()
			}
		}
	}()
	for _, c := range cells {
		s := &side{c: c, est: r.estimate(c), rec: r.record(c), wall: &bench.CellWall{}}
		s.rec.EstimateRunMS, s.rec.Basis = r.est.explain(c.exp, c.impl, c.cs)
		s.rec.EstimateMS = s.est
		t0 := time.Now()
		inst, err := c.cs.Setup(r.ctx)
		s.wall.SetupMS = msSince(t0)
		if err != nil {
			if ierr := r.interrupted(); ierr != nil {
				return ierr
			}
			continue // left to the claims' own pass, which records why
		}
		s.inst = inst
		s.rec.Input, s.rec.Metrics = inst.Input, inst.Metrics
		sides = append(sides, s)
	}
	if len(sides) < 2 {
		return nil // one cell alone runs in its claim's turn
	}
	r.meter.cell(r.done, r.total, sides[0].c, r.eta(makespan(r, cells, slots), nil), r.decided())
	sem := make(chan struct{}, slots)
	var wg sync.WaitGroup
	for _, s := range sides {
		proto := bench.Protocol{Warmup: 0, Reps: 1, Statistic: statistic(s.c.exp), WarmupMS: &s.rec.WarmupMS}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			runtime.LockOSThread() // a thread, and so a core, of its own
			defer runtime.UnlockOSThread()
			s.t = r.timeRuns(s.c, s.inst, proto, nil)
		}()
	}
	wg.Wait()
	for _, s := range sides {
		s.rec.Note = fmt.Sprintf("%s; measured side by side with %d other one-core cells (at most %d at once, a core each: %s), its case set up before and its output checked after",
			r.longNote(s.c), len(sides)-1, slots, sideNames(sides, s.c))
		s.rec.Stop = "one long run, side by side"
		s.t.cpuMS = 0 // the process's CPU time is every side's together
		rec, err := r.conclude(s.c, s.inst, s.rec, s.est, s.t, s.wall)
		if err != nil {
			return err
		}
		if s.inst.Release != nil {
			s.inst.Release()
		}
		s.inst = nil
		s.c.done = true
		s.c.measured = rec.Status == bench.StatusOK || rec.Status == bench.StatusCheckFailed
		if err := r.finish(s.c, rec); err != nil {
			return err
		}
	}
	return nil
}

// side is one cell measured side by side: its case set up, its record
// and what its run measured.
type side struct {
	c    *cell
	est  float64
	rec  bench.Record
	inst *experiments.Instance
	wall *bench.CellWall
	t    timing
}

// sideNames names the cells beside c.
func sideNames(sides []*side, c *cell) string {
	var names []string
	for _, s := range sides {
		if s.c != c {
			names = append(names, s.c.exp.Name+" "+s.c.impl+" "+s.c.cs.Params.String())
		}
	}
	return strings.Join(names, "; ")
}
