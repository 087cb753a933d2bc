package runner

// Long one-core cells side by side. The papers' sequential programs (the
// CPU Hungarian at n = 8192, the Kleene CPU program at n = 4000,
// 2-domination's sequential versions at m = 7) run for half a minute each
// on one core while the machine's other cores wait: on the H100's host
// six of them took 157 s of a 7-minute run, one after another. A budgeted
// run on a machine of many cores measures them at once instead, each on a
// core of its own: in the claims' first pass such a cell waits, its
// estimate held back from the budget as if it ran alone, until the slots
// are full, a claim needs the time held, or the pass ends; then the
// waiting cells run together. A cell counts as one-core when the longest
// cell of its implementation and parameters this run measured (for
// 100 ms or more) kept at most oneCoreMax cores busy: the process's CPU
// time over the measurement's wall time. Nothing is declared, and a
// parallel implementation never joins. The cells share the machine's
// memory and caches while they run; each record's note says so and names
// the cells beside it, and a cell whose phases a claim reads runs alone
// (experiments.Need.Phases: the Kleene CPU program's convert CCS and
// topological sort, 238 and 15 ms alone, took 254-269 and 19-24 ms
// beside others). On the H100's host (the lease of 73f9bbd) the
// Kleene CPU program at n = 4000 took 35.6 s beside two others and
// 34.4 s alone, the CPU Hungarian at n = 8192, range 10n, 43.57 s and
// 43.42 s.

import (
	"fmt"
	"log/slog"
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
// ones are the runtime's start-up and collector more than the
// implementation's (2-domination's sequential program at m = 2 and 3
// kept 1.3 cores busy, at m = 5 to 7 1.01).
const oneCoreMinMS = 100

// coreUse is, per kind of cell (coreKey), the cores its longest
// measurement of this run kept busy, and that measurement's wall time.
type coreUse map[string][2]float64

// coreKey is the kind of cell whose cores are alike: an implementation
// of a paper's problem (cpu/paper is a program of each paper) on cases
// of the same parameters (Rote's sweep over n = 1..128 is parallel where
// the cells of one n are not).
func coreKey(c *cell) string {
	k := c.exp.Paper + "|" + c.impl
	for _, p := range c.cs.Params {
		k += "|" + p.Name
	}
	return k
}

// observe adds a cell that used cpuMS of CPU time in wallMS.
func (u coreUse) observe(c *cell, cpuMS, wallMS float64) {
	if cpuMS <= 0 || wallMS < oneCoreMinMS {
		return
	}
	if k := coreKey(c); wallMS >= u[k][1] {
		u[k] = [2]float64{cpuMS / wallMS, wallMS}
	}
}

// oneCore reports whether the longest cell of c's kind measured so far
// kept one core busy.
func (u coreUse) oneCore(c *cell) bool {
	k, ok := u[coreKey(c)]
	return ok && k[0] > 0 && k[0] <= oneCoreMax
}

// sideBatch is the long one-core cells waiting to run side by side (their
// estimates held back from the budget meanwhile: budget.heldMS), and the
// cores each kind of cell kept busy.
type sideBatch struct {
	cells []*cell
	cores coreUse
}

// waiting reports whether cells wait.
func (s *sideBatch) waiting() bool { return len(s.cells) > 0 }

// sideSlots is how many one-core cells run at once: half the machine's
// cores, so that the memory bandwidth each sees stays near what it has
// alone; below 2 none run side by side. (A variable for the tests.)
var sideSlots = func() int { return runtime.NumCPU() / 2 }

// deferSide takes c out of its claim's turn when it is a long cell of a
// one-core CPU implementation and this machine has slots for several:
// it waits with the others for runSide, its estimate held back from the
// budget meanwhile (as if it ran alone), and true is returned. A full
// set of slots runs at once.
func (r *run) deferSide(c *cell) (bool, error) {
	if slices.Contains(r.side.cells, c) {
		return true, nil // held already, for another claim
	}
	slots := sideSlots()
	// A cell whose phases a claim reads runs alone.
	if !r.budget.on() || slots < 2 || c.unavailable != nil || strings.HasPrefix(c.impl, "cuda/") ||
		c.cs.ReadsShared != nil && c.cs.ReadsShared(c.impl) || !r.price.long(c) || !r.side.cores.oneCore(c) || r.plan.phasesRead(c) {
		return false, nil
	}
	est := r.price.cell(c)
	if est > r.budget.left() {
		return false, nil // its own turn records why it is skipped
	}
	r.side.cells = append(r.side.cells, c)
	r.budget.heldMS += est
	if len(r.side.cells) >= slots {
		return true, r.runSide()
	}
	return true, nil
}

// makespan is the estimated wall time of cells (the longest first) run
// slots at a time, each starting when a slot frees.
func makespan(price *pricer, cells []*cell, slots int) float64 {
	ends := make([]float64, slots)
	for _, c := range cells {
		i := slices.Index(ends, slices.Min(ends))
		ends[i] += price.cell(c)
	}
	return slices.Max(ends)
}

// runSide measures the cells deferSide held back: those that fit in
// half the free memory together at once (measureSide), the others, or a
// cell left alone, one at a time.
func (r *run) runSide() error {
	cells := r.side.cells
	r.side.cells, r.budget.heldMS = nil, 0
	slices.SortStableFunc(cells, func(a, b *cell) int { return cmpFloat(r.price.cell(b), r.price.cell(a)) })
	free := sysmem.Free()
	var host uint64
	var together, alone []*cell
	for _, c := range cells {
		if c.done {
			continue
		}
		need := c.cs.HostBytes
		if c.cs.Memory != nil {
			need, _ = c.cs.Memory(c.impl)
		}
		if free > 0 && host+need > free/2 {
			alone = append(alone, c)
			continue
		}
		host += need
		together = append(together, c)
	}
	if len(together) >= 2 {
		if err := r.measureSide(together); err != nil {
			return err
		}
	} else {
		alone = append(together, alone...)
	}
	for _, c := range alone {
		if c.done {
			continue
		}
		if err := r.runCell(c, nil, passClaims); err != nil {
			return err
		}
	}
	return nil
}

// measureSide measures cells at once, one run each, sideSlots at a time:
// their cases set up first, one after another, then every run started,
// then each output checked, again one after another, and the records
// appended in the order of the cells. A case whose setup fails is
// recorded failed, as measure does.
func (r *run) measureSide(cells []*cell) error {
	slots := sideSlots()
	r.hand.release()
	var sides []*side
	defer func() {
		for _, s := range sides {
			if s.inst != nil && s.inst.Release != nil {
				s.inst.Release()
			}
		}
	}()
	r.meter.cell(passName(passSide, true), cells[0], 0, 1, r.eta(makespan(r.price, cells, slots), nil), r.plan.atPaper())
	for _, c := range cells {
		s := &side{c: c, est: r.price.cell(c), rec: c.record(), wall: &bench.CellWall{}}
		s.rec.EstimateRunMS, s.rec.Basis = r.price.explain(c)
		s.rec.EstimateMS, s.rec.EstimateWallMS = s.est, s.est
		t0 := time.Now()
		inst, err := c.cs.Setup(r.ctx)
		s.wall.SetupMS = msSince(t0)
		r.coldSetup[c] = !r.price.wall.inputs[inputKey(c)]
		r.price.wall.inputs[inputKey(c)] = true
		if err != nil {
			if r.ctx.Err() != nil {
				return r.interrupted() // nil at the budget's end: the run's stop records what is left skipped
			}
			slog.Error("case setup failed", "experiment", c.exp.Name, "params", c.cs.Params.String(), "err", err)
			s.rec.Status, s.rec.Error = bench.StatusFailed, "setup: "+err.Error()
			c.done = true
			if err := r.finish(c, s.rec); err != nil {
				return err
			}
			continue
		}
		s.inst = inst
		s.rec.Input, s.rec.Metrics = inst.Input, inst.Metrics
		sides = append(sides, s)
	}
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
		s.rec.Stop = "one long run, " + experiments.SideBySideStop
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
