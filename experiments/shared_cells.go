package experiments

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/semibench/semibench/bench"
)

// Identical cells of different experiments. Some experiments measure the
// very cell another measures: the same implementation on the same shared
// instance, through the same code and timed window (cpu/jv and cpu/paper
// at range n in hungarian/table1 and fig4, and at n = 2048 in fig5; the
// CPU Kleene star in kleene/table2 and table3). Through the run's store
// such a cell is measured once: the first cell of the run measures it, as
// it would without the store, and keeps its phases and its last output
// (Instance.Finish); a later identical cell runs nothing, reports those
// samples, copied, names the cell in ReusedFrom, and checks the output
// kept. Where the first cell's run failed, the next one measures.

// sameCellNote is the table note on cells that read an identical cell.
const sameCellNote = "Their samples are the named cell's (the same implementation on the same instance, in the same window), copied, not measured again here."

// cellShared is a measured cell in the store: the cell, its phases and
// the copy of its last output that reading cells check.
type cellShared struct {
	mu     sync.Mutex
	by     string // the Key of the cell that measured it ("" until one has)
	phases []bench.Phase
	out    any
}

// measured returns the cell that measured it, its phases and output.
func (c *cellShared) measured() (string, []bench.Phase, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.by, c.phases, c.out
}

// sameCells is how the cells of one case use identical cells of other
// experiments in the run.
type sameCells struct {
	exp    string
	params bench.Params
	input  string // the store key of the case's instance
	opt    Options
	// keep returns the copy of an output that is kept for reading cells
	// (nil keep: the output itself, which no later run may change) and
	// bytes is what that copy holds.
	keep  func(out any) any
	bytes uint64

	mu    sync.Mutex
	cells map[string]*sameCellState // by impl
}

// sameCellState is one cell's: the piece it measures or reads, and its
// last output.
type sameCellState struct {
	c      *cellShared
	reused bool
	last   any
}

func newSameCells(exp string, params bench.Params, input string, opt Options, bytes uint64, keep func(any) any) *sameCells {
	return &sameCells{exp: exp, params: params, input: input, opt: opt, bytes: bytes, keep: keep, cells: map[string]*sameCellState{}}
}

// key names impl's cell on the case's instance in the store: the
// implementation, the input and what changes its timing.
func (s *sameCells) key(impl string) string {
	return fmt.Sprintf("cell impl=%s input=%s threads=%d gpus=%d", impl, s.input, s.opt.Threads, s.opt.GPUs)
}

func (s *sameCells) state(impl string) *sameCellState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cells[impl]
}

// read is called at the start of each repetition of impl's cell: it
// returns the output of an identical cell measured earlier in the run and
// true when this cell reads it (its Run returns that output, running
// nothing), false when this cell measures.
func (s *sameCells) read(ctx context.Context, impl string) (any, bool, error) {
	if s.opt.Shared == nil {
		return nil, false, nil
	}
	st := s.state(impl)
	if st == nil {
		self := CellKey(s.exp, impl, s.params)
		c, _, _, err := obtain(ctx, s.opt.Shared, s.key(impl), self, func(context.Context) (*cellShared, uint64, error) {
			return &cellShared{}, s.bytes, nil
		})
		if err != nil {
			return nil, false, err
		}
		by, _, _ := c.measured()
		st = &sameCellState{c: c, reused: by != "" && by != self}
		s.mu.Lock()
		s.cells[impl] = st
		s.mu.Unlock()
	}
	if !st.reused {
		return nil, false, nil
	}
	_, _, out := st.c.measured()
	return out, true, nil
}

// ran records a measuring repetition's output, the one Finish keeps.
func (s *sameCells) ran(impl string, out any) {
	if st := s.state(impl); st != nil {
		s.mu.Lock()
		st.last = out
		s.mu.Unlock()
	}
}

// reused reports whether impl's cell read an identical cell's.
func (s *sameCells) reused(impl string) bool {
	st := s.state(impl)
	return st != nil && st.reused
}

// finish is the case's Instance.Finish: a measuring cell keeps its phases
// and last output in the store; a reading cell reports the measured
// cell's samples and names it.
func (s *sameCells) finish(impl string, rec *bench.Record) {
	st := s.state(impl)
	if st == nil || rec.Status != bench.StatusOK {
		return
	}
	if !st.reused {
		st.c.mu.Lock()
		defer st.c.mu.Unlock()
		if st.c.by == "" {
			out := st.last
			if s.keep != nil {
				out = s.keep(out)
			}
			st.c.by, st.c.out = rec.Key(), out
			st.c.phases = make([]bench.Phase, len(rec.Phases))
			for i, p := range rec.Phases {
				p.SamplesMS = slices.Clone(p.SamplesMS)
				st.c.phases[i] = p
			}
		}
		return
	}
	by, phases, _ := st.c.measured()
	rec.ReusedFrom = by
	rec.Phases = make([]bench.Phase, len(phases))
	for i, p := range phases {
		p.SamplesMS = slices.Clone(p.SamplesMS)
		p.StatMS = bench.Summarize(rec.Statistic, p.SamplesMS)
		rec.Phases[i] = p
	}
}
